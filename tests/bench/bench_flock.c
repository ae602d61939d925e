// bench_flock.c — the cost of scripting: the classic flock with Lua rules vs the same rules in C, one run.
//   bench_flock            10 000 and 100 000 agents, ~20 neighbours each: ns per agent-step and the ratio
//   bench_flock --check    a small run proving both paths compute the same flock (a ctest)
//   bench_flock --scale    1 000 to 1 000 000 agents at the same density: ns per agent-step, native and Lua
//   bench_flock --run N native|lua STEPS ['FIELDS']   just N agents for STEPS steps, for
//       valgrind --tool=callgrind --toggle-collect=time_steps (instructions per agent-step); FIELDS
//       are added to the species, e.g. 'collide = false'
//   bench_flock --collide  10 000 agents, C rules, bodies on and off: ns per agent-step of the
//       step and of the collision pass alone
//   bench_flock --sample [K [NEIGHBOURS]]  10 000 agents, C rules, one thread, perceiving all, an
//       exact sample of K (default 7) and Gamlen's K looks at ~NEIGHBOURS in view (default 20):
//       thread CPU ns per agent-step of the step and of perception with the rules
//   FB_POLLED_WATCHDOG=1 in the environment: the Lua watchdog polls from a count hook, as in the
//       browser, instead of running as a thread (its cost: compare --run with and without)
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lua_host.h"
#include "native_rules.h"

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * Density for a target neighbour count k: a species sees a sector of area (fov/360) * pi * r^2,
 * so agents per unit area rho = k / (0.75 * pi * r^2) for fov = 270 and the world side is
 * sqrt(N / rho). Agents start uniform; the timed steps come early, before the flock clumps much.
 */
static void write_scenario(const char *path, int agents, double neighbours, const char *fields)
{
  const double radius = 10.0;
  double rho = neighbours / (0.75 * FB_PI * radius * radius);
  double side = sqrt(agents / rho);
  FILE *f = fopen(path, "w");
  FB_ASSERT(f != NULL);
  fprintf(f,
          "return { name = 'bench', world = { width = %.3f, height = %.3f, dt = 0.05, bounds = 'clamp' },\n"
          "  species = { { name = 'boid', count = %d, spawn = { speed = { 2, 8 } }, max_speed = 15,\n"
          "    min_speed = 2, max_accel = 40, vision = { radius = %g, fov = 270, separation = 3 },\n"
          "    rules = { 'separation', 'alignment', 'cohesion', 'soft_bounds' }, %s } } }\n",
          side, side, agents, radius, fields);
  fclose(f);
}

static void load(fbSim *sim, const char *path, int threads, bool native)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.threads = threads;
  char err[2048];
  if (!fbSim_Load(sim, path, &o, err, sizeof err)) {
    fprintf(stderr, "bench_flock: %s\n", err);
    exit(2);
  }
  if (native && !fbNative_Install(sim)) {
    fprintf(stderr, "bench_flock: a rule has no native twin\n");
    exit(2);
  }
}

// Not inlined, so that callgrind can count exactly these steps: --toggle-collect=time_steps.
static __attribute__((noinline)) double time_steps(fbSim *sim, int steps)
{
  double t0 = now_s();
  for (int k = 0; k < steps; ++k) {
    fbSim_Step(sim);
  }
  return now_s() - t0;
}

static double mean_neighbours(const fbSim *sim)
{
  double sum = 0;
  for (int i = 0; i < sim->world.agents.count; ++i) {
    sum += sim->agg.n[i];
  }
  return sum / sim->world.agents.count;
}

static int compare_doubles(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

// Alternates short timed bursts of the three sims so machine noise falls on all alike; reports medians.
static void bench_size(int agents, int bursts, int steps)
{
  char path[64];
  snprintf(path, sizeof path, "/tmp/flockbox_bench_%d.lua", (int)getpid());
  write_scenario(path, agents, 20, "");
  static fbSim sims[3];
  load(&sims[0], path, 1, true);
  load(&sims[1], path, 1, false);
  load(&sims[2], path, 2, false);
  unlink(path);
  double samples[3][64];
  for (int s = 0; s < 3; ++s) {
    time_steps(&sims[s], 2);  // warm-up: grow buffers, fill caches
  }
  for (int b = 0; b < bursts; ++b) {
    for (int s = 0; s < 3; ++s) {
      samples[s][b] = time_steps(&sims[s], steps) / steps / agents * 1e9;
    }
  }
  double median[3];
  for (int s = 0; s < 3; ++s) {
    qsort(samples[s], (size_t)bursts, sizeof(double), compare_doubles);
    median[s] = samples[s][bursts / 2];
  }
  bool same = fbSim_Hash(&sims[0]) == fbSim_Hash(&sims[1]) && fbSim_Hash(&sims[1]) == fbSim_Hash(&sims[2]);
  printf("| %7d | %5.1f | %8.0f | %8.0f | %5.2fx | %8.0f | %s |\n", agents, mean_neighbours(&sims[1]), median[0],
         median[1], median[1] / median[0], median[2], same ? "yes" : "NO");
  for (int s = 0; s < 3; ++s) {
    fbSim_Free(&sims[s]);
  }
}

// Native and Lua rules must compute the very same flock, or the benchmark compares different work.
static int check(void)
{
  char path[64];
  snprintf(path, sizeof path, "/tmp/flockbox_bench_check_%d.lua", (int)getpid());
  write_scenario(path, 2000, 20, "");
  static fbSim native, lua;
  load(&native, path, 1, true);
  load(&lua, path, 2, false);
  unlink(path);
  time_steps(&native, 40);
  time_steps(&lua, 40);
  bool same = fbSim_Hash(&native) == fbSim_Hash(&lua);
  printf("native and Lua classic flock, 2000 agents, 40 steps: %s\n", same ? "identical" : "DIFFERENT");
  printf("%d passed, %d failed\n", same ? 1 : 0, same ? 0 : 1);
  fbSim_Free(&native);
  fbSim_Free(&lua);
  return same ? 0 : 1;
}

/*
 * Cost per agent-step against size at a fixed density (~20 neighbours): the grid makes a step O(N),
 * so the cost per agent should stay flat. Native and Lua alternate bursts; medians are reported.
 */
static void scale_size(int agents, int bursts, int steps)
{
  char path[64];
  snprintf(path, sizeof path, "/tmp/flockbox_bench_%d.lua", (int)getpid());
  write_scenario(path, agents, 20, "");
  static fbSim sims[2];
  load(&sims[0], path, 1, true);
  load(&sims[1], path, 1, false);
  unlink(path);
  double samples[2][64];
  for (int s = 0; s < 2; ++s) {
    time_steps(&sims[s], 1);
  }
  for (int b = 0; b < bursts; ++b) {
    for (int s = 0; s < 2; ++s) {
      samples[s][b] = time_steps(&sims[s], steps) / steps / agents * 1e9;
    }
  }
  double median[2];
  for (int s = 0; s < 2; ++s) {
    qsort(samples[s], (size_t)bursts, sizeof(double), compare_doubles);
    median[s] = samples[s][bursts / 2];
  }
  printf("| %9d | %5.1f | %8.0f | %8.0f |\n", agents, mean_neighbours(&sims[1]), median[0], median[1]);
  fflush(stdout);
  for (int s = 0; s < 2; ++s) {
    fbSim_Free(&sims[s]);
  }
}

static int scale(void)
{
  printf("classic flock, ~20 neighbours, fixed density, one thread: ns per agent-step (medians)\n\n");
  printf("| agents    | nbrs  | C rules  | Lua rules|\n");
  printf("|-----------|-------|----------|----------|\n");
  scale_size(1000, 9, 40);
  scale_size(10000, 9, 8);
  scale_size(100000, 5, 2);
  scale_size(1000000, 3, 1);
  return 0;
}

/*
 * The collision pass (bodies.c) on the classic flock: the same 10 000 agents with bodies on and
 * off, C rules, one thread, alternating bursts; medians of the whole step and, with bodies on, of
 * the pass alone (the step's own clock around it, sim.cost.bodies_ms).
 */
static int collide(void)
{
  const int agents = 10000, bursts = 9, steps = 10;
  char path[64];
  snprintf(path, sizeof path, "/tmp/flockbox_bench_collide_%d.lua", (int)getpid());
  static fbSim sims[2];
  write_scenario(path, agents, 20, "collide = true");
  load(&sims[0], path, 1, true);
  write_scenario(path, agents, 20, "collide = false");
  load(&sims[1], path, 1, true);
  unlink(path);
  double samples[3][64];  // step with bodies, step without, the pass alone
  for (int s = 0; s < 2; ++s) {
    time_steps(&sims[s], 2);
  }
  for (int b = 0; b < bursts; ++b) {
    double with = 0, pass = 0;
    for (int k = 0; k < steps; ++k) {  // one step at a time, to add up the pass's own clock
      with += time_steps(&sims[0], 1);
      pass += sims[0].cost.bodies_ms * 1e-3;
    }
    samples[0][b] = with / steps / agents * 1e9;
    samples[2][b] = pass / steps / agents * 1e9;
    samples[1][b] = time_steps(&sims[1], steps) / steps / agents * 1e9;
  }
  double median[3];
  for (int s = 0; s < 3; ++s) {
    qsort(samples[s], (size_t)bursts, sizeof(double), compare_doubles);
    median[s] = samples[s][bursts / 2];
  }
  printf("classic flock, %d agents, %.1f neighbours, C rules, one thread: ns per agent-step (medians of %d bursts)\n",
         agents, mean_neighbours(&sims[0]), bursts);
  printf("step with bodies %.1f, without %.1f, difference %.1f; the collision pass alone %.1f\n", median[0],
         median[1], median[0] - median[1], median[2]);
  for (int s = 0; s < 2; ++s) {
    fbSim_Free(&sims[s]);
  }
  return 0;
}

static double thread_cpu_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// This thread's CPU time for `repeats` perceptions of every agent of the sim as it stands.
static double time_perception(fbSim *sim, int repeats)
{
  fbSim_UpdateGrid(sim);
  const double t0 = thread_cpu_s();
  for (int r = 0; r < repeats; ++r) {
    fbPerceive(&sim->perception, 0, sim->world.agents.count, &sim->agg, &sim->lists[0]);
  }
  return thread_cpu_s() - t0;
}

/*
 * Gamlen's Monte Carlo sampling is there to save time: the same 10 000 agents perceiving all their
 * flock-mates, a sample of K drawn exactly (k of those in view) and Gamlen's K looks, C rules, one
 * thread (the step runs on this thread), alternating bursts; medians of this thread's CPU time per
 * agent-step, of the whole step and of perception alone (fbPerceive over every agent, as the step
 * calls it).
 */
static int sample(int k, double neighbours)
{
  enum { FLOCKS = 3 };
  const int agents = 10000, bursts = 15, steps = 10;
  static const char *const names[FLOCKS] = {"all", "exact", "gamlen"};
  char path[64], fields[128];
  snprintf(path, sizeof path, "/tmp/flockbox_bench_sample_%d.lua", (int)getpid());
  static fbSim sims[FLOCKS];
  for (int f = 0; f < FLOCKS; ++f) {
    snprintf(fields, sizeof fields, "vision = { radius = 10, fov = 270, separation = 3, sample = %d, sampling = \"%s\" }",
             f == 0 ? 0 : k, f == 2 ? "gamlen" : "exact");
    write_scenario(path, agents, neighbours, fields);
    load(&sims[f], path, 1, true);
  }
  unlink(path);
  double step[FLOCKS][64], seen[FLOCKS][64];
  for (int f = 0; f < FLOCKS; ++f) {
    time_steps(&sims[f], 2);
  }
  for (int b = 0; b < bursts; ++b) {
    for (int f = 0; f < FLOCKS; ++f) {
      const double t0 = thread_cpu_s();
      time_steps(&sims[f], steps);
      step[f][b] = (thread_cpu_s() - t0) / steps / agents * 1e9;
      seen[f][b] = time_perception(&sims[f], steps) / steps / agents * 1e9;
    }
  }
  printf("classic flock, %d agents, C rules, one thread: CPU ns per agent-step (medians of %d bursts of %d steps)\n",
         agents, bursts, steps);
  for (int f = 0; f < FLOCKS; ++f) {
    qsort(step[f], (size_t)bursts, sizeof(double), compare_doubles);
    qsort(seen[f], (size_t)bursts, sizeof(double), compare_doubles);
    printf("%-6s k = %-3d (%5.1f perceived): step %6.1f, perception %6.1f; / all: step %.2f, perception %.2f\n",
           names[f], f == 0 ? 0 : k, mean_neighbours(&sims[f]), step[f][bursts / 2], seen[f][bursts / 2],
           step[f][bursts / 2] / step[0][bursts / 2], seen[f][bursts / 2] / seen[0][bursts / 2]);
  }
  for (int f = 0; f < FLOCKS; ++f) {
    fbSim_Free(&sims[f]);
  }
  return 0;
}

// One path, one size: what callgrind counts with --toggle-collect=time_steps.
static int run_only(int agents, bool native, int steps, const char *fields)
{
  char path[64];
  snprintf(path, sizeof path, "/tmp/flockbox_bench_run_%d.lua", (int)getpid());
  write_scenario(path, agents, 20, fields);
  static fbSim sim;
  load(&sim, path, 1, native);
  unlink(path);
  time_steps(&sim, steps);
  printf("%d agents, %s rules, %d steps, %.1f neighbours, hash %016llx\n", agents, native ? "C" : "Lua", steps,
         mean_neighbours(&sim), (unsigned long long)fbSim_Hash(&sim));
  fbSim_Free(&sim);
  return 0;
}

int main(int argc, char **argv)
{
  if (getenv("FB_POLLED_WATCHDOG") != NULL && strcmp(getenv("FB_POLLED_WATCHDOG"), "1") == 0) {
    fbLuaHost_UsePolledWatchdog();
  }
  if (argc > 1 && strcmp(argv[1], "--check") == 0) {
    return check();
  }
  if (argc > 1 && strcmp(argv[1], "--scale") == 0) {
    return scale();
  }
  if ((argc == 5 || argc == 6) && strcmp(argv[1], "--run") == 0) {
    return run_only(atoi(argv[2]), strcmp(argv[3], "native") == 0, atoi(argv[4]), argc == 6 ? argv[5] : "");
  }
  if (argc > 1 && strcmp(argv[1], "--collide") == 0) {
    return collide();
  }
  if (argc > 1 && strcmp(argv[1], "--sample") == 0) {
    return sample(argc > 2 ? atoi(argv[2]) : 7, argc > 3 ? atof(argv[3]) : 20);
  }
  printf("classic flock (separation, alignment, cohesion, soft bounds), ~20 neighbours, ns per agent-step\n\n");
  printf("| agents  | nbrs  | C rules  | Lua rules| Lua / C | Lua, 2 threads | same flock |\n");
  printf("|---------|-------|----------|----------|---------|----------------|------------|\n");
  bench_size(10000, 9, 10);
  bench_size(100000, 5, 4);
  return 0;
}
