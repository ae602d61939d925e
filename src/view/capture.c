// capture.c — screenshots with a fresh name, and frames piped to ffmpeg.
#define _POSIX_C_SOURCE 200809L
#include "capture.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "picture.h"

bool fbCapture_Screenshot(SDL_Renderer *sdl, char *path, size_t len, char *err, size_t errlen)
{
  char stamp[32];
  time_t now = time(NULL);
  struct tm tm;
  localtime_r(&now, &tm);
  strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
  for (int k = 1; k < 1000; ++k) {
    snprintf(path, len, "flockbox-%s-%d.png", stamp, k);
    if (access(path, F_OK) != 0) {
      break;
    }
  }
  return fbPicture_WritePng(sdl, path, err, errlen);
}

bool fbCapture_FfmpegInstalled(void) { return system("command -v ffmpeg >/dev/null 2>&1") == 0; }

bool fbRecording_Start(fbRecording *r, SDL_Renderer *sdl, const char *path, char *err, size_t errlen)
{
  if (strchr(path, '\'') != NULL) {
    snprintf(err, errlen, "--record: %s: a file name with a quote is not supported", path);
    return false;
  }
  SDL_GetRendererOutputSize(sdl, &r->w, &r->h);
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "ffmpeg -y -loglevel error -f rawvideo -pix_fmt rgba -s %dx%d -r 60 -i - -pix_fmt yuv420p '%s'", r->w,
           r->h, path);
  signal(SIGPIPE, SIG_IGN);  // if ffmpeg stops, writes fail instead of killing us
  r->pipe = popen(cmd, "w");
  if (r->pipe == NULL) {
    snprintf(err, errlen, "--record: cannot start ffmpeg");
    return false;
  }
  return true;
}

bool fbRecording_Frame(fbRecording *r, SDL_Renderer *sdl)
{
  size_t bytes = (size_t)r->w * r->h * 4;
  uint8_t *pixels = malloc(bytes);
  if (pixels == NULL) {
    return false;
  }
  bool ok = SDL_RenderReadPixels(sdl, NULL, SDL_PIXELFORMAT_RGBA32, pixels, r->w * 4) == 0 &&
            fwrite(pixels, 1, bytes, r->pipe) == bytes;
  free(pixels);
  if (!ok) {
    pclose(r->pipe);
    r->pipe = NULL;
  }
  return ok;
}

bool fbRecording_Stop(fbRecording *r)
{
  bool ok = r->pipe == NULL || pclose(r->pipe) == 0;
  r->pipe = NULL;
  return ok;
}
