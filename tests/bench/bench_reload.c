// bench_reload.c — hot reload with 20 000 agents: from a save's close (or rename) to the end of the
// first step that runs the new code, for each way of saving, with inotify and with polling.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "reload.h"
#include "sim_internal.h"  // white-box: reads and sets the sim's members

/*
 * How it measures. The sim steps and polls for changes as the headless run does (poll, step,
 * poll, step...). A second thread saves the file at a random moment inside a step, as a user
 * would, and notes the time its close (or rename) returned. The latency is from then to the end of
 * the first step that ran after the reload was applied, so it includes waiting for the step under
 * way to end (half a step on average) and that whole step. Each way of saving is repeated and the
 * medians printed, with the latency's range. "Until applied" is the part from the close to the end
 * of the poll that applied the reload: the watch's own delay, the wait for the step under way to
 * end, and the reload. A reload seen before the save ended would mean a half-written file
 * was loaded: the bench says so and fails.
 */

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

static void read_file(const char *path, char *text, size_t len)
{
  FILE *f = fopen(path, "r");
  FB_ASSERT(f != NULL);
  text[fread(text, 1, len - 1, f)] = '\0';
  fclose(f);
}

static int compare(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, compare);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// ---- the saving thread ----------------------------------------------------------------------------

typedef struct Save {
  const char *path;
  char text[8300];
  bool by_rename;   // write path.tmp~ and rename it over path, as many editors do
  double delay_ms;    // after the thread starts
  double closing_ms;  // when the close (or the rename) was called: nothing before it is whole
  double done_ms;     // when it returned
} Save;

static void *save_later(void *arg)
{
  Save *s = arg;
  struct timespec pause = {0, (long)(s->delay_ms * 1e6)};
  nanosleep(&pause, NULL);
  char temp[620];
  snprintf(temp, sizeof temp, "%s.tmp~", s->path);
  FILE *f = fopen(s->by_rename ? temp : s->path, "w");
  FB_ASSERT(f != NULL);
  fputs(s->text, f);
  fflush(f);  // the data is written before the close, as an editor's write() calls are
  if (!s->by_rename) {
    s->closing_ms = now_ms();
  }
  fclose(f);
  if (s->by_rename) {
    s->closing_ms = now_ms();
    FB_ASSERT(rename(temp, s->path) == 0);
  }
  s->done_ms = now_ms();
  return NULL;
}

// ---- one row of the table -------------------------------------------------------------------------

typedef struct Row {
  const char *save, *file;
  bool by_rename, polling, scenario;
  double latency[64], applied[64], work[64];  // per repeat: close -> end of the first new step, and
                                               // -> the reload applied; the reload's own time
  int count;
  bool early;  // a reload came before the save had ended
} Row;

typedef struct Bench {
  fbSim *sim;
  fbHotReload hot;
  char rule[600], scenario[600];
  char rule_text[8192];
  double step_ms;  // a median step, to place saves at random points inside one
  int saves;
} Bench;

static const char *scenario_text =
    "return { world = { width = %d, height = %d, dt = 0.05, bounds = 'clamp' },\n"
    "  species = { { name = 'boid', count = %d, spawn = { speed = { 2, 8 } }, max_speed = 15,\n"
    "    min_speed = 2, max_accel = 40, vision = { radius = 10, fov = 270, separation = 3 },\n"
    "    rules = { 'separation', 'alignment', 'cohesion', 'soft_bounds' } } } } -- save %d\n";

static int agents = 20000;

// The world grows with the agents so that each has ~20 neighbours, as in bench_flock.
static int world_side(void) { return (int)(767 * sqrt(agents / 20000.0)); }

static void fill_save(Bench *b, const Row *row, Save *s)
{
  s->path = row->scenario ? b->scenario : b->rule;
  s->by_rename = row->by_rename;
  if (row->scenario) {
    snprintf(s->text, sizeof s->text, scenario_text, world_side(), world_side(), agents, b->saves);
  } else {
    snprintf(s->text, sizeof s->text, "%s-- save %d\n", b->rule_text, b->saves);
  }
  b->saves++;
}

typedef struct Times {
  double poll_ended, step_ended;
  double poll_ms;  // the poll's own time (the reload, when it applied one)
} Times;

// Polls and steps, as a run does.
static Times poll_and_step(Bench *b)
{
  Times t;
  double t0 = now_ms();
  fbHotReload_Poll(&b->hot, b->sim, t0);
  t.poll_ended = now_ms();
  fbSim_Step(b->sim);
  t.step_ended = now_ms();
  t.poll_ms = t.poll_ended - t0;
  return t;
}

// One save at a random moment inside a step; false if no reload came within 1 000 steps.
static bool measure_once(Bench *b, Row *row)
{
  static Save save;
  fill_save(b, row, &save);
  save.delay_ms = b->step_ms * (rand() / (RAND_MAX + 1.0));
  pthread_t thread;
  FB_ASSERT(pthread_create(&thread, NULL, save_later, &save) == 0);
  int before = b->hot.reloads;
  Times t = {0};
  for (int s = 0; s < 1000 && b->hot.reloads == before; ++s) {
    t = poll_and_step(b);
  }
  pthread_join(thread, NULL);
  if (b->hot.reloads == before) {
    return false;
  }
  row->early = row->early || t.poll_ended < save.closing_ms;
  row->latency[row->count] = t.step_ended - save.done_ms;
  row->applied[row->count] = t.poll_ended - save.done_ms;
  row->work[row->count++] = t.poll_ms;
  for (int s = 0; s < 3; ++s) {  // a few steps between saves, as between a user's
    poll_and_step(b);
  }
  return true;
}

static bool run_row(Bench *b, Row *row, int repeats)
{
  char err[512];
  if (!fbHotReload_Open(&b->hot, b->sim, row->polling, err, sizeof err)) {
    fprintf(stderr, "bench_reload: %s\n", err);
    return false;
  }
  bool ok = true;
  for (int r = 0; r < repeats && ok; ++r) {
    ok = measure_once(b, row);
  }
  fbHotReload_Close(&b->hot);
  if (!ok) {
    fprintf(stderr, "bench_reload: no reload after saving %s (%s)\n", row->file, row->save);
  }
  return ok;
}

static void print_row(Row *row)
{
  double lo = row->latency[0], hi = row->latency[0];
  for (int r = 1; r < row->count; ++r) {
    lo = fmin(lo, row->latency[r]);
    hi = fmax(hi, row->latency[r]);
  }
  printf("| %-13s | %-8s | %-7s | %19.1f ms | %5.1f–%5.1f ms | %19.1f ms | %13.1f ms |%s\n", row->save, row->file,
         row->polling ? "polling" : "inotify", median(row->latency, row->count), lo, hi,
         median(row->applied, row->count), median(row->work, row->count), row->early ? " LOADED BEFORE THE SAVE ENDED" : "");
}

// ---- set-up ---------------------------------------------------------------------------------------

static const char *rules[] = {"separation", "alignment", "cohesion", "soft_bounds"};

static void make_project(Bench *b, const char *dir)
{
  char path[700];
  snprintf(path, sizeof path, "%s/behaviours", dir);
  mkdir(path, 0700);
  snprintf(path, sizeof path, "%s/scripts", dir);
  mkdir(path, 0700);
  for (int k = 0; k < 4; ++k) {
    char from[256], text[8192];
    snprintf(from, sizeof from, "%s/behaviours/%s.lua", FB_SOURCE_DIR, rules[k]);
    snprintf(path, sizeof path, "%s/behaviours/%s.lua", dir, rules[k]);
    read_file(from, text, sizeof text);
    write_file(path, text);
  }
  snprintf(b->rule, sizeof b->rule, "%s/behaviours/cohesion.lua", dir);
  snprintf(b->scenario, sizeof b->scenario, "%s/scripts/flock.lua", dir);
  read_file(b->rule, b->rule_text, sizeof b->rule_text);
  char text[1024];
  snprintf(text, sizeof text, scenario_text, world_side(), world_side(), agents, 0);
  write_file(b->scenario, text);
}

static void remove_project(const char *dir)
{
  char path[700];
  for (int k = 0; k < 4; ++k) {
    snprintf(path, sizeof path, "%s/behaviours/%s.lua", dir, rules[k]);
    unlink(path);
  }
  snprintf(path, sizeof path, "%s/scripts/flock.lua", dir);
  unlink(path);
  snprintf(path, sizeof path, "%s/behaviours", dir);
  rmdir(path);
  snprintf(path, sizeof path, "%s/scripts", dir);
  rmdir(path);
  rmdir(dir);
}

// The median step, so that saves fall at random points inside one.
static double median_step(Bench *b)
{
  double steps[31];
  for (int s = 0; s < 31; ++s) {
    double t0 = now_ms();
    steps[s] = poll_and_step(b).step_ended - t0;
  }
  return median(steps, 31);
}

int main(int argc, char **argv)
{
  int repeats = argc > 1 ? atoi(argv[1]) : 9;
  agents = argc > 2 ? atoi(argv[2]) : 20000;
  if (repeats < 1 || repeats > 64 || agents < 1) {
    fprintf(stderr, "usage: bench_reload [REPEATS (1-64, default 9)] [AGENTS (default 20000)]\n");
    return 2;
  }
  srand(1);
  char dir[] = "/tmp/flockbox_reload_XXXXXX";
  FB_ASSERT(mkdtemp(dir) != NULL);
  static Bench b;
  make_project(&b, dir);
  char err[2048];
  b.sim = fbSim_NewFromFile(b.scenario, NULL, err, sizeof err);
  if (b.sim == NULL) {
    fprintf(stderr, "bench_reload: %s\n", err);
    return 2;
  }
  b.step_ms = median_step(&b);
  static Row table[] = {
      {.save = "write + close", .file = "rule"},
      {.save = "write + close", .file = "scenario", .scenario = true},
      {.save = "temp + rename", .file = "rule", .by_rename = true},
      {.save = "temp + rename", .file = "scenario", .by_rename = true, .scenario = true},
      {.save = "write + close", .file = "rule", .polling = true},
      {.save = "write + close", .file = "scenario", .polling = true, .scenario = true},
  };
  int rows = (int)(sizeof table / sizeof table[0]);
  bool ok = true;
  for (int k = 0; k < rows && ok; ++k) {
    ok = run_row(&b, &table[k], repeats);
  }
  printf("hot reload, %d agents (classic flock), median step %.1f ms, median of %d saves each\n\n", agents, b.step_ms,
         repeats);
  printf("| save          | file     | watch   | close → first new step | range          | of which until applied | reloading itself |\n");
  printf("|---------------|----------|---------|-----------------------:|---------------:|-----------------------:|-----------------:|\n");
  for (int k = 0; k < rows && ok; ++k) {
    print_row(&table[k]);
    ok = !table[k].early;
  }
  fbSim_Delete(b.sim);
  remove_project(dir);
  return ok ? 0 : 1;
}
