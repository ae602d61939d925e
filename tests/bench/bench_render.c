// bench_render.c — frames per second of the window's drawing alone (the sim paused), at several agent counts in one run.
// Needs a display; under Xvfb, with SDL's software renderer:
//   SDL_RENDER_DRIVER=software xvfb-run -a -s "-screen 0 1280x800x24" build/tests/bench/bench_render
//     --agents 20000,50000,100000 --rounds 3 [--trails] scripts/classic_flock.lua
// --agents sets SPECIES.count (--species, default boid) for each count in turn; --rounds repeats the
// whole list, so that every count is measured in every round and the medians come from one run.
// --trails turns trails on and runs the sim long enough to fill them before measuring.
// The other options are flockbox's (--frames N, --set ...).
#include <stdlib.h>
#include <string.h>

#include "viewer.h"

#define MAX_COUNTS 16
#define MAX_ROUNDS 15

typedef struct Options {
  long counts[MAX_COUNTS];
  int count_n;
  const char *species;
  int rounds;
  bool trails;
} Options;

// Takes this bench's own options out of argv; the rest goes to fbWindowOptions_Parse.
static int take_options(Options *o, int argc, char **argv, char **rest)
{
  *o = (Options){.species = "boid", .rounds = 1};
  int n = 0;
  for (int k = 0; k < argc; ++k) {
    if (strcmp(argv[k], "--agents") == 0 && k + 1 < argc) {
      for (char *s = argv[++k]; *s && o->count_n < MAX_COUNTS; s += *s == ',') {
        o->counts[o->count_n++] = strtol(s, &s, 10);
      }
    } else if (strcmp(argv[k], "--species") == 0 && k + 1 < argc) {
      o->species = argv[++k];
    } else if (strcmp(argv[k], "--rounds") == 0 && k + 1 < argc) {
      o->rounds = (int)fmin(MAX_ROUNDS, fmax(1, atoi(argv[++k])));
    } else if (strcmp(argv[k], "--trails") == 0) {
      o->trails = true;
    } else {
      rest[n++] = argv[k];
    }
  }
  rest[n] = NULL;
  return n;
}

// Trails need the sim to run: as many steps as the trail's length, recorded as the window does.
static void fill_trails(fbViewer *v)
{
  fbSim *sim = v->run->sim;
  v->trails = true;
  fbTrails_Clear(&v->render.trails);
  long steps = (long)ceil(4.0 / fbSim_World(sim)->dt) + 1;
  for (long k = 0; k < steps; ++k) {
    fbSim_Step(sim);
    fbTrails_Record(&v->render.trails, sim);
  }
}

// One measurement: frames per second of `frames` frames, with `agents` agents (0: the scenario's).
static double measure(fbCli cli, const fbWindowOptions *window, const Options *o, long agents, long frames)
{
  static fbViewer v;
  char set[128], err[4096];
  if (agents > 0 && cli.run.set_count < FB_MAX_SETS) {
    snprintf(set, sizeof set, "%s.count=%ld", o->species, agents);
    cli.run.sets[cli.run.set_count++] = set;
  }
  SDL_SetHint(SDL_HINT_RENDER_VSYNC, "0");  // measure the drawing, not the display's refresh rate
  if (fbViewer_Create(&v, &cli, window, err, sizeof err) != 0) {
    fprintf(stderr, "bench_render: %s\n", err);
    exit(2);
  }
  v.paused = true;  // drawing only: no steps
  if (o->trails) {
    fill_trails(&v);
  }
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
  const fbWorld *w = fbSim_World(v.run->sim);
  double body_px = w->species[0].body_length * v.camera.scale;
  printf("bench_render: %s: %d agents, world %gx%g, %dx%d view, %.2f px per unit (first species %.1f px long, "
         "drawn %.1f), renderer %s%s: %ld frames in %.2f s = %.1f frames/s (%.2f ms per frame)\n",
         fbSim_Name(v.run->sim), w->agents.count, w->width, w->height, v.camera.view_w, v.camera.view_h, v.camera.scale,
         body_px, fmax(body_px, 9.0), info.name, o->trails ? ", trails on" : "", frames, seconds, frames / seconds,
         1e3 * seconds / frames);
  fflush(stdout);
  fbViewer_Destroy(&v);
  return frames / seconds;
}

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
  Options o;
  char *rest[argc + 1];
  int rest_n = take_options(&o, argc, argv, rest);
  fbCli cli;
  fbWindowOptions window;
  char err[4096];
  fbCliResult parsed = fbWindowOptions_Parse(&cli, &window, rest_n, rest, err, sizeof err);
  if (parsed != FB_CLI_RUN) {
    fprintf(stderr, "bench_render: %s\n", parsed == FB_CLI_BAD ? err :
            "usage: bench_render [--agents N,N,..] [--species NAME] [--rounds R] [--trails] [--frames N] [--set ...] SCENARIO");
    return parsed == FB_CLI_BAD ? 2 : 0;
  }
  long frames = window.frames > 0 ? window.frames : 300;
  window.frames = 0;  // the viewer must not quit on its own
  if (o.count_n == 0) {
    o.counts[o.count_n++] = 0;
  }
  double fps[MAX_COUNTS][MAX_ROUNDS];
  for (int r = 0; r < o.rounds; ++r) {
    for (int c = 0; c < o.count_n; ++c) {
      fps[c][r] = measure(cli, &window, &o, o.counts[c], frames);
    }
  }
  printf("bench_render: median of %d rounds%s:", o.rounds, o.trails ? ", trails on" : "");
  for (int c = 0; c < o.count_n; ++c) {
    qsort(fps[c], (size_t)o.rounds, sizeof fps[c][0], by_value);
    printf(" %ld agents %.1f frames/s%s", o.counts[c], fps[c][o.rounds / 2], c + 1 < o.count_n ? "," : "\n");
  }
  return 0;
}
