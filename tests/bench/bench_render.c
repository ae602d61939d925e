// bench_render.c — frames per second of the window's drawing alone (the sim paused), e.g. with 20 000 agents.
// Needs a display; under Xvfb:
//   xvfb-run -a -s "-screen 0 1280x800x24" build/tests/bench/bench_render --frames 300
//     --set boid.count=20000 scripts/classic_flock.lua
// SDL_RENDER_DRIVER=software (or opengl) picks the renderer.
#include <string.h>

#include "viewer.h"

int main(int argc, char **argv)
{
  static fbViewer v;
  fbCli cli;
  char err[4096];
  int parsed = fbCli_Parse(&cli, argc, argv, err, sizeof err);
  if (parsed != 0) {
    fprintf(stderr, "bench_render: %s\n", parsed == 2 ? err : "usage: bench_render [--frames N] [--set ...] SCENARIO");
    return parsed == 2 ? 2 : 0;
  }
  long frames = cli.frames > 0 ? cli.frames : 300;
  cli.frames = 0;  // the viewer must not quit on its own
  SDL_SetHint(SDL_HINT_RENDER_VSYNC, "0");  // measure the drawing, not the display's refresh rate
  if (fbViewer_Create(&v, &cli, err, sizeof err) != 0) {
    fprintf(stderr, "bench_render: %s\n", err);
    return 2;
  }
  v.paused = true;  // drawing only: no steps
  for (int k = 0; k < 20; ++k) {  // warm up: terrain texture, text cache
    fbViewer_Frame(&v);
  }
  uint64_t start = SDL_GetPerformanceCounter();
  for (long k = 0; k < frames; ++k) {
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
    }
    fbViewer_Frame(&v);
  }
  double seconds = (double)(SDL_GetPerformanceCounter() - start) / SDL_GetPerformanceFrequency();
  SDL_RendererInfo info;
  SDL_GetRendererInfo(v.sdl, &info);
  printf("bench_render: %s: %d agents, %ldx%d window, renderer %s: %ld frames in %.2f s = %.1f frames/s "
         "(%.2f ms per frame)\n",
         v.run->sim.name, v.run->sim.world.agents.count, (long)v.camera.view_w, v.camera.view_h, info.name, frames,
         seconds, frames / seconds, 1e3 * seconds / frames);
  return fbViewer_Destroy(&v);
}
