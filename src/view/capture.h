// capture.h — the window's pictures and video: screenshots (P) and recording frames through ffmpeg (--record).
#ifndef FB_CAPTURE_H
#define FB_CAPTURE_H

#include <SDL.h>
#include <stdbool.h>
#include <stdio.h>

// Saves what the renderer holds as flockbox-<date>-<time>-N.png in the working folder, N the first
// number not taken; the path goes to path. On failure err says why.
bool fbCapture_Screenshot(SDL_Renderer *sdl, char *path, size_t len, char *err, size_t errlen);

bool fbCapture_FfmpegInstalled(void);

// ffmpeg reading raw RGBA frames of one fixed size from a pipe, encoding them at 60 per second.
typedef struct fbRecording {
  FILE *pipe;              // NULL when not recording
  int w, h;
} fbRecording;

// Starts ffmpeg writing path, at the renderer's output size now. False (err says why) for a file
// name ffmpeg's command line cannot take or when ffmpeg cannot start.
bool fbRecording_Start(fbRecording *r, SDL_Renderer *sdl, const char *path, char *err, size_t errlen);

// Pipes the renderer's current frame; false if it could not be read or ffmpeg stopped taking frames
// (the recording is then closed).
bool fbRecording_Frame(fbRecording *r, SDL_Renderer *sdl);

// Closes the pipe and waits for ffmpeg; false if ffmpeg failed. Nothing to do when not recording.
bool fbRecording_Stop(fbRecording *r);

#endif
