// viewer.h — the SDL2 window: draws the running scenario and takes the user's input.
#ifndef FB_VIEWER_H
#define FB_VIEWER_H

#include "viewer_state.h"

// Loads the scenario, opens the window (and ffmpeg with --record). Returns 0, or the exit status
// with one message in err (2: bad scenario or no ffmpeg; 1: no window could be opened).
int fbViewer_Create(fbViewer *v, const fbCli *cli, const fbWindowOptions *window, char *err, size_t errlen);

// One SDL event: keys, mouse, window close. Tests push their own events through here.
void fbViewer_HandleEvent(fbViewer *v, const SDL_Event *e);

// One frame: steps owed by the speed (or a single step), camera follow, drawing, screenshot or
// recording, present. Sets v->quit after window_options.frames frames.
void fbViewer_Frame(fbViewer *v);

// Writes --png, closes the CSV, ffmpeg and the window; returns the exit status.
int fbViewer_Destroy(fbViewer *v);

// Opens the window and runs the scenario until it is closed (or window->frames frames have been
// drawn); returns the process exit status.
int fbViewer_Run(const fbCli *cli, const fbWindowOptions *window);

// The run of the window fbViewer_Run has open in this process, or NULL: what the web page's
// Outputs button writes out (src/app/web_page.c).
fbRun *fbViewer_OpenRun(void);

// Time scales + and - step through; the simulated seconds per real second.
double fbViewer_TimeScale(const fbViewer *v);

#endif
