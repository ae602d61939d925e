// bench_route_orca.c — 10 000 agents with ORCA following a route field, against the same crowd with ORCA heading straight for the goal: the cost per agent-step of routing (issue 34's goal: at most 1.5 times).
//   bench_route_orca               thread CPU time of whole steps, median of 15, ns per agent-step
//   bench_route_orca --run KIND N  just N steps of KIND (route or straight), for
//       valgrind --tool=callgrind --toggle-collect='run_steps*' build/tests/bench/bench_route_orca --run route 3
//       (the pattern: link-time optimisation clones it as run_steps.constprop.0)
//       (instructions per agent-step: the total over 3 * 10 000)
#define _DEFAULT_SOURCE  // mkstemps
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sim_internal.h"

#define AGENTS 10000
#define REPEATS 15

static double thread_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * bench_orca's crowd (15 agents per disc of ORCA's distance 15, bodies of 3, 2 units/s, one thread)
 * in a square with 40 round obstacles on a jittered lattice, all bound for the centre. `route`
 * follows a route field to it (256 × 256 cells over the square, follow_flow with gain 1/dt: the
 * field's velocity is the preferred one); `straight` seeks it in a straight line (seek_goal). Both
 * have ORCA with the same neighbours, distance and obstacles: the difference is the route.
 */
static void write_scenario(const char *path, bool route)
{
  double rho = 15.0 / (FB_PI * 15.0 * 15.0), side = sqrt(AGENTS / rho);
  FILE *f = fopen(path, "w");
  FB_ASSERT(f != NULL);
  fprintf(f,
          "local side = %.3f\n"
          "local o = {}\n"
          "for k = 0, 39 do\n"
          "  local i, j = k %% 8, k // 8\n"
          "  o[#o + 1] = { circle = { side * (i + 0.5) / 8 + (k * 37 %% 23), side * (j + 0.5) / 5 + (k * 53 %% 19), 10 + k %% 7 } }\n"
          "end\n"
          "return { name = 'bench_route_orca', world = { width = side, height = side, dt = 0.25, bounds = 'clamp',\n"
          "  update = 'semi_implicit' }, obstacles = o, goals = { centre = { side / 2, side / 2 } },\n"
          "  flow_fields = { home = { route = { to = { side / 2, side / 2 }, cell = side / 256, speed = 1.5 } } },\n"
          "  species = { { name = 'crowd', count = %d, spawn = { speed = 0 }, body_length = 3, max_speed = 2,\n"
          "    cruise_speed = 1.5, max_accel = 80, collide = false, orca = { neighbours = 10, distance = 15 },\n"
          "    vision = { radius = 0 },\n"
          "    rules = { %s } } } }\n",
          side, AGENTS,
          route ? "{ 'follow_flow', params = { field = 'home', predict = 0, gain = 4 } }"
                : "{ 'seek_goal', params = { goal = 'centre', gain = 4 } }");
  fclose(f);
}

static void load(fbSim *sim, bool route)
{
  char path[] = "/tmp/bench_route_orca_XXXXXX.lua";
  int fd = mkstemps(path, 4);
  FB_ASSERT(fd >= 0);
  close(fd);
  write_scenario(path, route);
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.threads = 1;
  o.headless = true;
  char err[2048];
  if (!fbSim_Load(sim, path, &o, err, sizeof err)) {
    fprintf(stderr, "bench_route_orca: %s\n", err);
    exit(2);
  }
  remove(path);
  for (int k = 0; k < 20; ++k) {  // under way: moving, neighbours near
    fbSim_Step(sim);
  }
}

// Not inlined, so that callgrind can count exactly these steps: --toggle-collect='run_steps*'.
static __attribute__((noinline)) double run_steps(fbSim *sim, int steps)
{
  double t0 = thread_s();
  for (int k = 0; k < steps; ++k) {
    fbSim_Step(sim);
  }
  return thread_s() - t0;
}

static int compare_doubles(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double step_ns(bool route)
{
  static fbSim sim;
  load(&sim, route);
  double t[REPEATS];
  for (int r = 0; r < REPEATS; ++r) {
    t[r] = run_steps(&sim, 1);
  }
  qsort(t, REPEATS, sizeof *t, compare_doubles);
  double ns = t[REPEATS / 2] / sim.world.agents.count * 1e9;
  fbSim_Free(&sim);
  return ns;
}

int main(int argc, char **argv)
{
  if (argc == 4 && strcmp(argv[1], "--run") == 0) {
    static fbSim sim;
    load(&sim, strcmp(argv[2], "route") == 0);
    run_steps(&sim, atoi(argv[3]));
    fbSim_Free(&sim);
    return 0;
  }
  double route = step_ns(true), straight = step_ns(false);
  printf("%d agents with ORCA, 1 thread, thread CPU time, median of %d steps:\n", AGENTS, REPEATS);
  printf("  following a route field: %.0f ns per agent-step\n", route);
  printf("  straight to the goal:    %.0f ns per agent-step\n", straight);
  printf("  route / straight: %.2f\n", route / straight);
  return 0;
}
