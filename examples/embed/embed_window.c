// embed_window.c — a shipped flockbox scenario drawn by the view library in this program's own SDL window and loop.
#include <flockbox/flockbox_view.h>

#include <SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FLOCKBOX_DATA
#define FLOCKBOX_DATA "."
#endif

// Pixels of the window's target not in the colour it was cleared with (black): what the view drew.
static long drawn_pixels(SDL_Renderer *renderer, int w, int h)
{
  Uint8 *rgba = malloc((size_t)w * (size_t)h * 4);
  long count = 0;
  if (rgba != NULL && SDL_RenderReadPixels(renderer, NULL, SDL_PIXELFORMAT_RGBA32, rgba, w * 4) == 0) {
    for (long i = 0; i < (long)w * h; ++i) {
      count += (rgba[4 * i] | rgba[4 * i + 1] | rgba[4 * i + 2]) != 0;
    }
  }
  free(rgba);
  return count;
}

int main(int argc, char **argv)
{
  long frames = 0;  // --frames N: quit after N frames (tests); 0: when the window is closed
  const char *scenario = FLOCKBOX_DATA "/scripts/classic_flock.lua";
  for (int k = 1; k < argc; ++k) {
    if (strcmp(argv[k], "--frames") == 0 && k + 1 < argc) {
      frames = atol(argv[++k]);
    } else {
      scenario = argv[k];
    }
  }
  fbSetDataFolder(FLOCKBOX_DATA);
  char err[1024];
  fbSim *sim = fbSim_NewFromFile(scenario, NULL, err, sizeof err);
  if (sim == NULL) {
    fprintf(stderr, "embed_window: %s\n", err);
    return 1;
  }
  if (SDL_Init(SDL_INIT_VIDEO) != 0) {
    fprintf(stderr, "embed_window: %s\n", SDL_GetError());
    return 1;
  }
  SDL_Window *window = SDL_CreateWindow("flockbox inside a program", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
                                        640, 640, SDL_WINDOW_RESIZABLE);
  SDL_Renderer *renderer = window ? SDL_CreateRenderer(window, -1, 0) : NULL;
  if (renderer == NULL) {
    fprintf(stderr, "embed_window: %s\n", SDL_GetError());
    return 1;
  }
  fbView *view = fbView_New(renderer);
  long frame = 0, pixels = 0;
  for (bool running = true; running && (frames == 0 || frame < frames); ++frame) {
    for (SDL_Event e; SDL_PollEvent(&e);) {
      running = running && e.type != SDL_QUIT && !(e.type == SDL_KEYDOWN && e.key.keysym.sym == SDLK_ESCAPE);
    }
    if (!fbSim_Step(sim)) {
      fprintf(stderr, "embed_window: %s\n", fbSim_Error(sim));
      break;
    }
    int w, h;
    SDL_GetRendererOutputSize(renderer, &w, &h);
    SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255);
    SDL_RenderClear(renderer);
    fbView_Draw(view, sim, 0, 0, w, h);
    if (frames > 0 && frame == frames - 1) {
      pixels = drawn_pixels(renderer, w, h);
    }
    SDL_RenderPresent(renderer);
  }
  printf("embed_window: %ld frames of %s, %d agents, %ld pixels drawn in the last\n", frame, scenario,
         fbSim_AgentCount(sim), pixels);
  fbView_Delete(view);
  fbSim_Delete(sim);
  SDL_DestroyRenderer(renderer);
  SDL_DestroyWindow(window);
  SDL_Quit();
  return 0;
}
