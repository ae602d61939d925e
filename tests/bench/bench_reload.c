// bench_reload.c — hot reload with 20 000 agents: time from a file's close to the first step that
// runs the new code, and the longest step around a reload against the median step.
#define _POSIX_C_SOURCE 200809L
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "reload.h"
#include "sim_internal.h"  // white-box: reads and sets the sim's members

static double now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void write_file(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  FB_ASSERT(f != NULL);
  fputs(text, f);
  fclose(f);
}

static void copy_file(const char *from, const char *to)
{
  char text[8192];
  FILE *f = fopen(from, "r");
  FB_ASSERT(f != NULL);
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  write_file(to, text);
}

static int compare(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#define STEPS 400
#define RELOADS 6

int main(void)
{
  char dir[] = "/tmp/flockbox_reload_XXXXXX";
  FB_ASSERT(mkdtemp(dir) != NULL);
  char path[600], rule[600], scenario[600];
  snprintf(path, sizeof path, "%s/behaviours", dir);
  mkdir(path, 0700);
  snprintf(path, sizeof path, "%s/scripts", dir);
  mkdir(path, 0700);
  const char *rules[] = {"separation", "alignment", "cohesion", "soft_bounds"};
  for (int k = 0; k < 4; ++k) {
    char from[256], to[700];
    snprintf(from, sizeof from, "%s/behaviours/%s.lua", FB_SOURCE_DIR, rules[k]);
    snprintf(to, sizeof to, "%s/behaviours/%s.lua", dir, rules[k]);
    copy_file(from, to);
  }
  snprintf(rule, sizeof rule, "%s/behaviours/cohesion.lua", dir);
  snprintf(scenario, sizeof scenario, "%s/scripts/flock.lua", dir);
  // 20 000 agents with ~20 neighbours each, as in bench_flock.
  write_file(scenario, "return { world = { width = 767, height = 767, dt = 0.05, bounds = 'clamp' },\n"
                       "  species = { { name = 'boid', count = 20000, spawn = { speed = { 2, 8 } }, max_speed = 15,\n"
                       "    min_speed = 2, max_accel = 40, vision = { radius = 10, fov = 270, separation = 3 },\n"
                       "    rules = { 'separation', 'alignment', 'cohesion', 'soft_bounds' } } } }\n");
  static fbSim sim;
  fbRunOptions o;
  fbRunOptions_Default(&o);
  char err[2048];
  fbHotReload hot;
  if (!fbSim_Load(&sim, scenario, &o, err, sizeof err) || !fbHotReload_Open(&hot, &sim, false, err, sizeof err)) {
    fprintf(stderr, "bench_reload: %s\n", err);
    return 2;
  }
  char original[8192];
  FILE *f = fopen(rule, "r");
  original[fread(original, 1, sizeof original - 1, f)] = '\0';
  fclose(f);

  static double step_ms[STEPS];
  double latency[RELOADS], worst_near[RELOADS], work[RELOADS];
  int reload_step[RELOADS], saved = 0, applied = 0;
  double saved_at = 0;
  for (int s = 0; s < STEPS; ++s) {
    if (saved == applied && saved < RELOADS && s % (STEPS / RELOADS) == 20) {
      // Even saves touch the rule, odd ones the scenario (a bigger reload: new Lua states).
      char text[8300];
      snprintf(text, sizeof text, "%s-- save %d\n", original, saved);
      write_file(saved % 2 ? scenario : rule, saved % 2 ? "" : text);
      if (saved % 2) {  // rewrite the scenario unchanged but for a comment
        write_file(scenario, "return { world = { width = 767, height = 767, dt = 0.05, bounds = 'clamp' },\n"
                             "  species = { { name = 'boid', count = 20000, spawn = { speed = { 2, 8 } }, max_speed = 15,\n"
                             "    min_speed = 2, max_accel = 40, vision = { radius = 10, fov = 270, separation = 3 },\n"
                             "    rules = { 'separation', 'alignment', 'cohesion', 'soft_bounds' } } } } -- saved\n");
      }
      saved_at = now_ms();
      saved++;
    }
    double t0 = now_ms();
    int before = hot.reloads;
    fbHotReload_Poll(&hot, &sim, t0);
    double tp = now_ms();
    fbSim_Step(&sim);
    double t1 = now_ms();

    step_ms[s] = t1 - t0;
    if (hot.reloads > before) {
      work[applied] = tp - t0;
      latency[applied] = t1 - saved_at;  // this step ran the new code
      reload_step[applied++] = s;
    }
  }
  double sorted[STEPS];
  memcpy(sorted, step_ms, sizeof sorted);
  qsort(sorted, STEPS, sizeof(double), compare);
  double median = sorted[STEPS / 2];
  printf("hot reload, 20 000 agents (classic flock): %d reloads, median step %.1f ms\n\n", applied, median);
  printf("| file saved | close to first step with the new code | reloading itself | longest step within 5 | / median |\n");
  printf("|------------|---------------------------------------|------------------|-----------------------|----------|\n");
  for (int r = 0; r < applied; ++r) {
    worst_near[r] = 0;
    for (int s = reload_step[r] - 5; s <= reload_step[r] + 5; ++s) {
      if (s >= 0 && s < STEPS) {
        worst_near[r] = fmax(worst_near[r], step_ms[s]);
      }
    }
    printf("| %-10s | %6.0f ms | %6.1f ms | %6.1f ms | %5.2fx |\n", r % 2 ? "scenario" : "rule", latency[r], work[r],
           worst_near[r], worst_near[r] / median);
  }
  fbHotReload_Close(&hot);
  fbSim_Free(&sim);
  return 0;
}
