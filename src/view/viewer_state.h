// viewer_state.h — the window's state (fbViewer): what the viewer's frame, events and loading share.
#ifndef FB_VIEWER_STATE_H
#define FB_VIEWER_STATE_H

#include <stdio.h>

#include "rewind.h"
#include "run.h"
#include "hud.h"
#include "input.h"
#include "capture.h"
#include "console_dock.h"
#include "error_stop.h"
#include "grab.h"
#include "help.h"
#include "layout.h"
#include "panel.h"
#include "plot.h"
#include "scenario_list.h"
#include "trace_dock.h"
#include "window_options.h"

typedef enum fbFollow { FB_FOLLOW_NONE, FB_FOLLOW_FLOCK, FB_FOLLOW_AGENT } fbFollow;

// The window and everything it shows. It reads the sim and writes only what the user asks for: the
// player's input, rule weights and parameters, the inspected agent, restarts.
typedef struct fbViewer {
  fbCli cli;                 // a copy: restarts load cli.scenario again with these options
  fbWindowOptions window_options;  // --frames, --record, --shot, --size, --show, --inspect
  fbRunOptions options;      // of the running sim (N changes the seed)
  fbRun *run;                // the sim and its CSV (on the heap: it is large)
  bool loaded;               // false after a restart that failed (message in load_error)
  char load_error[2048];
  SDL_Window *window;
  SDL_Renderer *sdl;
  fbRenderer render;
  fbHud hud;
  fbUi ui;
  fbInput input;
  fbCamera camera;
  fbParamPanel panel;
  fbDocks docks;             // which docks are open (each dock's key toggles it: docks.c)
  fbLayout layout;           // this frame's rectangles: docks, key bar and the world's view
  bool fitted;               // the camera has been fitted once the first layout was known
  fbCamera fit_camera;       // the camera as the last fit left it (a layout change refits an unmoved one)
  fbPlots plots;
  double next_sample_s;      // real time before which no sample is taken (sampling stays under 10%)
  bool help;                 // the help overlay (F1, ?, H)
  fbScenarioList list;       // the scenario list (O)
  char scenario_path[768];   // the scenario opened last from the list or a dropped file
  fbGrab grab;               // a goal or path point held by the mouse
  double px_per_accel;       // the selected agent's arrows: pixels per world unit/s^2
  double idle_s;             // seconds since the arrow keys were let go (the autopilot waits 3 s)
  int key_bar_entries;       // entries the key bar showed last frame (the rest are behind F1)
  fbKeyBarButton key_bar_buttons[FB_KEY_BAR_MAX_BUTTONS];  // where its buttons were drawn last frame
  int key_bar_button_count;
  bool has_player;           // a species is driven by the arrow keys
  bool paused, step_once, quit;
  bool asking_quit;          // Esc with unsaved panel changes: save, quit or cancel (viewer.c)
  int speed;                 // index into the time scales
  double owed;               // simulated seconds owed to the coming frames
  bool scenario_failed;      // the last hook or metric call failed (fbSim_Error)
  bool outcome_seen;         // the scenario's fb.stop outcome was shown, and the run paused once for it
  uint32_t selected;         // agent id, 0 = none
  fbFollow follow;
  bool trails;
  fbRewind rewind;           // snapshots to go back to (Backspace, the timeline)
  bool seeking;              // stepping on, paused, to seek_to: a step the timeline asked for between snapshots
  uint64_t seek_to;
  bool screenshot;           // save the next frame (P)
  long frames;               // frames drawn
  uint64_t frame_start;      // performance counter at the previous frame (wall-clock pacing)
  // Rates and costs over half-second windows, so the HUD's numbers are readable.
  uint64_t rate_start;       // wall clock at the start of the rate window: fps and steps/s are real
  double rate_frame_s;       // frame time (frame_seconds) in the window: when to renew the rates and profile
  long rate_frames, rate_steps;
  fbStepCost cost_sum, cost;
  fbProfileRow profile[FB_PROFILE_MAX_ROWS];  // the per-rule profile of the last half second, most costly first
  int profile_rows;
  int info_tab;              // the info dock's tab: 0 status, 1 about the scenario
  int info_scroll;           // the status and inspector scrolled up by this many pixels (the wheel)
  double fps, sps;
  char notice[640];
  long notice_until;         // frame after which the notice goes
  fbConsoleDock console;     // the console dock's line, scroll-back, history; its console's record
  fbTraceDock trace;         // the trace dock's last trace of the selected agent, and whether the next step is traced
  fbErrorStop error_stop;    // stop on error (E): the state before each step, the failed step to make again
  double rerun_ms;           // thread CPU time of the last failed step made again (restore and step)
  fbRecording recording;     // ffmpeg with --record
  int status;                // exit status so far (1 if an output could not be written)
} fbViewer;

// The window's frame: 60 a second, and the time one frame stands for in steps and replays.
#define FB_FRAME_S (1.0 / 60.0)

// Steps the sim `steps` times as the window does: trails, plots, snapshots, stop on error (viewer.c).
void fbViewer_Advance(fbViewer *v, int steps);

// The sim, or NULL when nothing is loaded (a restart or an open failed).
static inline fbSim *fbViewer_Sim(fbViewer *v) { return v->loaded ? v->run->sim : NULL; }

// One line in the info dock's notice, shown for the next 180 frames (three seconds at 60 a second).
static inline void fbViewer_Notify(fbViewer *v, const char *text)
{
  snprintf(v->notice, sizeof v->notice, "%s", text);
  v->notice_until = v->frames + 180;
}

#endif
