// bench_nav_grid.c — A* paths per second on a 256 x 256 nav grid (a:route's search, pulled taut), one thread.
//   bench_nav_gridthread CPU time of PATHS searches between seeded free cells among seeded
//                 obstacles, median of 5 repeats: paths per second, cells expanded per path, the
//                 share of pairs joined; and the time to rasterise the grid
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "nav_grid.h"
#include "rng.h"

#define SIDE 256
#define PATHS 2000
#define REPEATS 5
#define BOXES 120

static double thread_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/*
 * A 256 x 256 world, cells of 1, bodies of radius 0.5: BOXES rectangles of 4-24 by 1-3 units, half
 * of them turned upright, and 40 circles of radius 1-5, at seeded places (about a fifth of the
 * area): walls to go round and gaps to go through, not a maze.
 */
static void obstacles(fbObstacles *o)
{
  char err[128];
  fbObstacles_Init(o);
  for (int k = 0; k < BOXES; ++k) {
    double x = 8 + 240 * fbRng_Uniform(7, k, 0, 1), y = 8 + 240 * fbRng_Uniform(7, k, 0, 2);
    double w = 4 + 20 * fbRng_Uniform(7, k, 0, 3), h = 1 + 2 * fbRng_Uniform(7, k, 0, 4);
    if (k % 2) {
      double t = w;
      w = h;
      h = t;
    }
    fbVec2 v[] = {{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}};
    fbObstacles_AddPolygon(o, v, 4, err, sizeof err);
  }
  for (int k = 0; k < 40; ++k) {
    fbObstacles_AddCircle(o, fbV(8 + 240 * fbRng_Uniform(9, k, 0, 1), 8 + 240 * fbRng_Uniform(9, k, 0, 2)),
                          1 + 4 * fbRng_Uniform(9, k, 0, 3), err, sizeof err);
  }
}

static fbVec2 free_point(const fbNavGrid *g, uint64_t k, uint64_t stream)
{
  for (uint64_t t = 0;; ++t) {
    fbVec2 p = fbV(SIDE * fbRng_Uniform(11, k, t, stream), SIDE * fbRng_Uniform(11, k, t, stream + 1));
    int c = fbNavGrid_CellOf(g, p);
    if (fbNavGrid_IsFree(g, c % g->nx, c / g->nx)) {
      return p;
    }
  }
}

int main(void)
{
  fbObstacles o;
  obstacles(&o);
  fbNavGrid g = {0};
  double t0 = thread_s();
  fbNavGrid_Build(&g, &o, SIDE, SIDE, true, 1.0, 0.5);
  double build = thread_s() - t0;
  int blocked = 0;
  for (int c = 0; c < g.nx * g.ny; ++c) {
    blocked += g.blocked[c];
  }
  static fbVec2 from[PATHS], to[PATHS];
  for (int k = 0; k < PATHS; ++k) {
    from[k] = free_point(&g, (uint64_t)k, 1);
    to[k] = free_point(&g, (uint64_t)k, 3);
  }
  double times[REPEATS];
  long expanded = 0;
  int found = 0;
  fbVec2 path[256];
  for (int r = 0; r < REPEATS; ++r) {
    expanded = 0;
    found = 0;
    t0 = thread_s();
    for (int k = 0; k < PATHS; ++k) {
      found += fbNavGrid_FindPath(&g, from[k], to[k], path, 256) > 0;
      expanded += g.expanded;
    }
    times[r] = thread_s() - t0;
  }
  qsort(times, REPEATS, sizeof times[0], by_value);
  double median = times[REPEATS / 2];
  printf("grid %d x %d, %.1f %% blocked, rasterised in %.2f ms (%d obstacles)\n", g.nx, g.ny,
         100.0 * blocked / (g.nx * g.ny), 1e3 * build, o.count);
  printf("A* + string pulling: %d paths in %.3f s (median of %d): %.0f paths/s, %.1f us/path, %.0f cells "
         "expanded/path, %d of %d joined\n",
         PATHS, median, REPEATS, PATHS / median, 1e6 * median / PATHS, (double)expanded / PATHS, found, PATHS);
  fbNavGrid_Free(&g);
  fbObstacles_Free(&o);
  return 0;
}
