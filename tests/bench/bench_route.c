// bench_route.c — the cost of a 256 x 256 route field: built from a scenario (walls rasterised, then solved) and solved again after its goal moves.
//   bench_route            thread CPU time, median of 15 repeats: the build (fbRoute_Build: raster,
//                          costs, march, velocities) and a goal moved (fbRoute_MoveGoal + solve)
//   bench_route --run N    just N moves of the goal, for
//       valgrind --tool=callgrind --toggle-collect=move_goal build/tests/bench/bench_route --run 4
//       (instructions of one recompute: the total over 4)
#define _DEFAULT_SOURCE  // mkstemps
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "route_build.h"
#include "sim_internal.h"

#define SIDE 256
#define REPEATS 15

static double thread_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * A 512 x 512 world on a 2-unit grid (256 x 256 cells) with 60 round obstacles of radius 8 to 20
 * on a jittered lattice, and 6 walls of a maze across it, clearance 1.5: about a fifth of the
 * cells blocked, the route from one corner to the other winding.
 */
static void write_scenario(const char *path)
{
  FILE *f = fopen(path, "w");
  FB_ASSERT(f != NULL);
  fprintf(f, "local o = {}\n"
             "for k = 0, 59 do\n"
             "  local i, j = k %% 8, k // 8\n"
             "  o[#o + 1] = { circle = { 40 + 62 * i + (k * 37 %% 23), 40 + 62 * j + (k * 53 %% 19), 8 + k %% 13 } }\n"
             "end\n"
             "for k = 1, 6 do\n"
             "  local x = 73 * k\n"
             "  local y0, y1 = (k %% 2 == 1) and 0 or 60, (k %% 2 == 1) and 452 or 512\n"
             "  o[#o + 1] = { polygon = { { x, y0 }, { x + 4, y0 }, { x + 4, y1 }, { x, y1 } } }\n"
             "end\n"
             "return { name = 'bench_route', world = { width = 512, height = 512, bounds = 'clamp' }, obstacles = o,\n"
             "  flow_fields = { go = { route = { to = { 8, 8 }, cell = 2, clearance = 1.5, speed = 2 } } },\n"
             "  species = { { name = 'b', count = 1 } } }\n");
  fclose(f);
}

static void load(fbSim *sim)
{
  char path[] = "/tmp/bench_route_XXXXXX.lua";
  int fd = mkstemps(path, 4);
  FB_ASSERT(fd >= 0);
  close(fd);
  write_scenario(path);
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.threads = 1;
  o.headless = true;
  char err[2048];
  if (!fbSim_Load(sim, path, &o, err, sizeof err)) {
    fprintf(stderr, "bench_route: %s\n", err);
    exit(2);
  }
  remove(path);
}

// Kept out of line, so callgrind's --toggle-collect can count it alone.
__attribute__((noinline)) int move_goal(fbFlowField *f, fbVec2 to)
{
  fbRoute_MoveGoal(f->route, to);
  return fbFlowField_Reroute(f);
}

__attribute__((noinline)) void build_once(fbFlowField *f, const fbFlowDef *fd, const fbWorld *w)
{
  char err[1024];
  if (!fbRoute_Build(f, fd, w, err, sizeof err)) {
    fprintf(stderr, "bench_route: %s\n", err);
    exit(2);
  }
}

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
  fbSim sim;
  load(&sim);
  fbFlowField *f = &sim.world.flows.items[0];
  fbVec2 corners[2] = {fbV(504, 504), fbV(8, 8)};
  if (argc == 3 && strcmp(argv[1], "--run") == 0) {
    for (int k = 0; k < atoi(argv[2]); ++k) {
      move_goal(f, corners[k % 2]);
    }
    fbSim_Free(&sim);
    return 0;
  }
  // The build again, from the def the sim was loaded from: a second field beside the first.
  fbFlowDef fd = {0};
  snprintf(fd.name, sizeof fd.name, "again");
  fd.cols = f->route->cols;
  fd.rows = f->route->rows;
  fd.route = (fbRouteDef){.on = true, .to = {{8, 8}}, .to_count = 1, .clearance = 1.5, .speed = 2};
  double build[REPEATS], move[REPEATS];
  int reached = 0;
  for (int k = 0; k < REPEATS; ++k) {
    fbFlowField g;
    double t0 = thread_s();
    build_once(&g, &fd, &sim.world);
    build[k] = thread_s() - t0;
    fbFlowField_Free(&g);
    t0 = thread_s();
    reached = move_goal(f, corners[k % 2]);
    move[k] = thread_s() - t0;
  }
  qsort(build, REPEATS, sizeof *build, by_value);
  qsort(move, REPEATS, sizeof *move, by_value);
  int blocked = 0;
  for (int k = 0; k < SIDE * SIDE; ++k) {
    blocked += f->route->blocked[k];
  }
  printf("route field %dx%d (%d cells blocked, %d reached): build %.2f ms, goal moved %.2f ms (thread CPU, median of %d)\n",
         f->route->cols, f->route->rows, blocked, reached, build[REPEATS / 2] * 1e3, move[REPEATS / 2] * 1e3, REPEATS);
  fbSim_Free(&sim);
  return 0;
}
