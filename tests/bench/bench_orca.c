// bench_orca.c — the cost of the ORCA stage per agent-step: 10 000 agents, 10 neighbours each, one thread.
//   bench_orca             thread CPU time of the stage alone and of whole steps with ORCA on and off,
//                          median of 15 repeats, ns per agent-step
//   bench_orca --run STEPS just STEPS stage passes, for
//       valgrind --tool=callgrind --toggle-collect=time_stage build/tests/bench/bench_orca --run 5
//       (instructions of the stage per agent-step: the total over 5 * 10 000)
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
 * Agents spread evenly at 15 per disc of ORCA's distance (15): rho = 15 / (pi 15^2), side sqrt(N / rho),
 * so that nearly every agent has its 10 neighbours. They head for their antipodes across the centre
 * at 1 unit/s from rest: a crowd in motion, as in the Circle.
 */
static void write_scenario(const char *path, bool orca)
{
  double rho = 15.0 / (FB_PI * 15.0 * 15.0), side = sqrt(AGENTS / rho);
  FILE *f = fopen(path, "w");
  FB_ASSERT(f != NULL);
  fprintf(f,
          "return { name = 'bench_orca', world = { width = %.3f, height = %.3f, dt = 0.25, bounds = 'clamp',\n"
          "  update = 'semi_implicit' },\n"
          "  species = { { name = 'crowd', count = %d, spawn = { speed = 0 }, body_length = 3, max_speed = 2,\n"
          "    max_accel = 80, collide = false, orca = %s, vision = { radius = 0 },\n"
          "    rules = { { 'seek_antipode', params = { x = %.3f, y = %.3f } } } } } }\n",
          side, side, AGENTS, orca ? "{ neighbours = 10, distance = 15 }" : "false", side / 2, side / 2);
  fclose(f);
}

static void load(fbSim *sim, bool orca)
{
  char path[] = "/tmp/bench_orca_XXXXXX.lua";
  int fd = mkstemps(path, 4);
  FB_ASSERT(fd >= 0);
  close(fd);
  write_scenario(path, orca);
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.threads = 1;
  char err[2048];
  if (!fbSim_Load(sim, path, &o, err, sizeof err)) {
    fprintf(stderr, "bench_orca: %s\n", err);
    exit(2);
  }
  remove(path);
  for (int k = 0; k < 20; ++k) {  // under way: moving, goals set
    fbSim_Step(sim);
  }
}

// Not inlined, so that callgrind can count exactly these passes: --toggle-collect=time_stage.
static __attribute__((noinline)) double time_stage(fbSim *sim, const double *ax, const double *ay, int passes)
{
  int n = sim->world.agents.count;
  double spent = 0.0;
  for (int k = 0; k < passes; ++k) {
    memcpy(sim->world.agents.ax, ax, sizeof *ax * (size_t)n);  // the rules' steering, as the stage found it
    memcpy(sim->world.agents.ay, ay, sizeof *ay * (size_t)n);
    double t0 = thread_s();
    fbOrcaStage_Run(&sim->orca, 0, n);
    spent += thread_s() - t0;
  }
  return spent;
}

static int compare_doubles(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, compare_doubles);
  return v[n / 2];
}

// The stage alone, on this step's grid and the rules' steering saved once.
static double stage_ns(fbSim *sim, int passes_each, int repeats)
{
  fbSim_UpdateGrid(sim);
  int n = sim->world.agents.count;
  double *ax = malloc(sizeof *ax * (size_t)n), *ay = malloc(sizeof *ay * (size_t)n), t[REPEATS];
  FB_ASSERT(ax != NULL && ay != NULL);
  memcpy(ax, sim->world.agents.ax, sizeof *ax * (size_t)n);
  memcpy(ay, sim->world.agents.ay, sizeof *ay * (size_t)n);
  bool planned;
  sim->orca = fbOrcaStage_Begin(&sim->world, &sim->perception, -1, &sim->orca_plan, &planned);
  for (int r = 0; r < repeats; ++r) {
    t[r] = time_stage(sim, ax, ay, passes_each) / passes_each;
  }
  free(ax);
  free(ay);
  return median(t, repeats) / n * 1e9;
}

static double step_ns(fbSim *sim)
{
  double t[REPEATS];
  for (int r = 0; r < REPEATS; ++r) {
    double t0 = thread_s();
    fbSim_Step(sim);
    t[r] = thread_s() - t0;
  }
  return median(t, REPEATS) / sim->world.agents.count * 1e9;
}

int main(int argc, char **argv)
{
  static fbSim sim;
  if (argc == 3 && strcmp(argv[1], "--run") == 0) {
    load(&sim, true);
    fbSim_UpdateGrid(&sim);
    stage_ns(&sim, atoi(argv[2]), 1);
    fbSim_Free(&sim);
    return 0;
  }
  load(&sim, true);
  double stage = stage_ns(&sim, 3, REPEATS), on = step_ns(&sim);
  fbSim_Free(&sim);
  load(&sim, false);
  double off = step_ns(&sim);
  fbSim_Free(&sim);
  printf("ORCA stage: %.0f ns per agent-step (%d agents, 10 neighbours, 1 thread, thread CPU time, median of %d)\n",
         stage, AGENTS, REPEATS);
  printf("whole step: %.0f ns per agent-step with ORCA, %.0f without (+%.0f)\n", on, off, on - off);
  return 0;
}
