// bench_scenarios.c — every shipped scenario's cost on one core: CPU ns per agent-step at a fixed agent count, and the agents it holds at 60 steps/s.
//   bench_scenarios [OPTIONS]              every scripts/*.lua at 2 000 agents: a Markdown table
//   bench_scenarios --scenario FILE ...    only these (repeatable)
//   bench_scenarios --hold --scenario FILE the agents it holds at 60 steps/s on one core, found by
//                                          bisection on N (cost per agent grows with N: denser flocks)
//   bench_scenarios --check                a few steps of every scenario at 300 agents: it runs, and
//                                          what it reports is sane (a ctest; nothing timed is checked)
// Options: --agents N (2000); --warmup W steps before the timed ones (10); --steps K timed (20);
// --repeats R timings of those same steps, each from a fresh load, the median reported (7);
// --spawn spread|shipped (spread: each scaled species spawned over its whole world, so that N
// agents are not all in the 20-unit disc a herd starts in; shipped: where the scenario says);
// --tsv (rows for scenario_table.sh).
// Instructions per agent-step: every timed step runs inside time_steps_measured, so
//   valgrind --tool=callgrind --toggle-collect='time_steps*' build/tests/bench/bench_scenarios
//     --scenario scripts/X.lua --agents 2000 --steps 20 --repeats 1
// counts exactly them; divide callgrind's "Collected" by the agent-steps the run prints.
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_measure.h"

#define MAX_SCENARIOS 64
#define BUDGET_NS (1e9 / 60)  // one step in each frame of 60 steps/s
#define CHECK_AGENTS 300

typedef struct Config {
  char *scenarios[MAX_SCENARIOS];
  int scenario_count;
  int agents;
  fbMeasureSetup setup;
  bool tsv, hold, check;
} Config;

static const char *base_name(const char *path, char *out, size_t len)
{
  const char *slash = strrchr(path, '/');
  snprintf(out, len, "%s", slash ? slash + 1 : path);
  char *dot = strrchr(out, '.');
  if (dot != NULL && strcmp(dot, ".lua") == 0) {
    *dot = '\0';
  }
  return out;
}

static int compare_strings(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

// Every scripts/*.lua of the source tree, sorted by name.
static void list_shipped(Config *cfg)
{
  const char *folder = FB_SOURCE_DIR "/scripts";
  DIR *dir = opendir(folder);
  if (dir == NULL) {
    fprintf(stderr, "bench_scenarios: cannot open %s\n", folder);
    exit(2);
  }
  for (struct dirent *e; (e = readdir(dir)) != NULL && cfg->scenario_count < MAX_SCENARIOS;) {
    size_t len = strlen(e->d_name);
    if (len > 4 && strcmp(e->d_name + len - 4, ".lua") == 0) {
      char path[1024];
      snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
      cfg->scenarios[cfg->scenario_count++] = strdup(path);
    }
  }
  closedir(dir);
  qsort(cfg->scenarios, (size_t)cfg->scenario_count, sizeof cfg->scenarios[0], compare_strings);
}

// ---- the table -----------------------------------------------------------------------------------

static void print_header(const Config *cfg)
{
  const fbMeasureSetup *s = &cfg->setup;
  printf("%d agents, one thread: steps %d to %d timed %d times, each from a fresh load, median; spawned %s\n\n",
         cfg->agents, s->warmup, s->warmup + s->steps - 1, s->repeats, s->spawn == FB_SCALE_SPREAD ? "over the whole world" : "as shipped");
  printf("| scenario | agents | flock-mates seen | ns/agent-step (CPU, median) | agents at 60 steps/s (linear) |\n");
  printf("|---|--:|--:|--:|--:|\n");
}

// TSV: name, path, agents, flock-mates seen, ns/agent-step, agents at 60 steps/s, agent-steps
// timed, the scenario's own end ("-"), the problem ("-").
static void print_row(const char *path, const fbMeasure *m, bool ok, const Config *cfg)
{
  char name[256];
  base_name(path, name, sizeof name);
  if (cfg->tsv) {
    printf("%s\t%s\t%d\t%.1f\t%.0f\t%.0f\t%ld\t%s\t%s\n", name, path, m->agents, m->neighbours, m->ns,
           BUDGET_NS / m->ns, m->agent_steps, m->outcome[0] ? m->outcome : "-", ok ? "-" : m->problem);
  } else if (!ok) {
    printf("| %s | not measured: %s | | | |\n", name, m->problem);
  } else {
    printf("| %s | %d | %.1f | %.0f | %.0f |\n", name, m->agents, m->neighbours, m->ns, BUDGET_NS / m->ns);
  }
  fflush(stdout);
}

static void print_notes(const char *path, const fbMeasure *m)
{
  char name[256];
  base_name(path, name, sizeof name);
  printf("  %s: %s; %ld agent-steps timed in time_steps_measured%s%s\n", name, m->overrides, m->agent_steps,
         m->outcome[0] ? "; the scenario's own end (fb.stop) came at " : "", m->outcome);
}

static int table(const Config *cfg)
{
  static fbMeasure m[MAX_SCENARIOS];
  bool ok[MAX_SCENARIOS];
  if (!cfg->tsv) {
    print_header(cfg);
  }
  for (int k = 0; k < cfg->scenario_count; ++k) {
    ok[k] = fbMeasure_Run(cfg->scenarios[k], cfg->agents, &cfg->setup, &m[k]);
    print_row(cfg->scenarios[k], &m[k], ok[k], cfg);
  }
  int failed = 0;
  for (int k = 0; k < cfg->scenario_count; ++k) {
    if (!cfg->tsv) {
      printf(k == 0 ? "\n" : "");
      print_notes(cfg->scenarios[k], &m[k]);
    }
    failed += !ok[k];
  }
  return failed ? 1 : 0;
}

// ---- agents held at 60 steps/s, measured -------------------------------------------------------

// One probe of the bisection: does a step of n agents fit in a 60th of a second of CPU?
static int fits(const char *path, int n, const Config *cfg, double *step_ms)
{
  fbMeasure m;
  if (!fbMeasure_Run(path, n, &cfg->setup, &m)) {
    fprintf(stderr, "bench_scenarios: %d agents: %s\n", n, m.problem);
    return -1;
  }
  *step_ms = m.step_ns * 1e-6;
  printf("  %7d agents: %6.2f ms per step, %5.0f ns/agent-step, %.1f flock-mates seen: %s\n", n, *step_ms, m.ns,
         m.neighbours, m.step_ns <= BUDGET_NS ? "fits" : "too slow");
  fflush(stdout);
  return m.step_ns <= BUDGET_NS;
}

/*
 * The cost per agent grows with N (the world stays the same size, so the flocks get denser), so
 * 1e9/60 / (ns per agent-step at 2 000) is only an estimate. From it, double or halve until the
 * largest fitting N and the smallest failing one bracket the answer, then bisect to 2 %.
 */
static int hold(const char *path, const Config *cfg)
{
  char name[256];
  double ms = 0;
  fbMeasure first;
  if (!fbMeasure_Run(path, cfg->agents, &cfg->setup, &first)) {
    fprintf(stderr, "bench_scenarios: %s\n", first.problem);
    return 1;
  }
  int n = (int)(BUDGET_NS / first.ns), lo = 0, hi = 0;
  printf("%s: %.0f ns/agent-step at %d agents, so about %d at 60 steps/s if the cost were linear\n",
         base_name(path, name, sizeof name), first.ns, first.agents, n);
  while (hi == 0 || hi - lo > (lo / 50 > 1 ? lo / 50 : 1)) {
    int fit = fits(path, n, cfg, &ms);
    if (fit < 0) {
      return 1;
    }
    *(fit ? &lo : &hi) = n;
    n = hi == 0 ? 2 * n : lo == 0 ? n / 2 : lo + (hi - lo) / 2;
    if (n < 2 || n > 4000000) {
      break;
    }
  }
  printf("| %s | %d | holds %d agents at 60 steps/s on one core (%d does not) |\n", name, cfg->agents, lo, hi);
  return 0;
}

// ---- the ctest: every scenario runs scaled, and what it reports is sane --------------------------

static bool sane(const fbMeasure *m, char *why, size_t len)
{
  if (m->loaded != CHECK_AGENTS) {
    snprintf(why, len, "started with %d agents, not %d", m->loaded, CHECK_AGENTS);
  } else if (!m->finite) {
    snprintf(why, len, "a position or velocity is not a number");
  } else if (!(m->ns > 0 && isfinite(m->ns)) || m->agent_steps <= 0) {
    snprintf(why, len, "%.3g ns per agent-step over %ld agent-steps", m->ns, m->agent_steps);
  } else if (!(m->neighbours >= 0 && m->neighbours < m->agents)) {
    snprintf(why, len, "%.3g flock-mates seen of %d agents", m->neighbours, m->agents);
  } else {
    return true;
  }
  return false;
}

static int check(Config *cfg)
{
  cfg->setup = (fbMeasureSetup){.warmup = 2, .steps = 3, .repeats = 1, .spawn = cfg->setup.spawn};
  int failed = 0;
  for (int k = 0; k < cfg->scenario_count; ++k) {
    fbMeasure m;
    char why[1100] = "", name[256];
    bool ok = fbMeasure_Run(cfg->scenarios[k], CHECK_AGENTS, &cfg->setup, &m) && sane(&m, why, sizeof why);
    printf("%-20s %s %s\n", base_name(cfg->scenarios[k], name, sizeof name), ok ? "ok" : "FAILED:",
           why[0] ? why : m.problem);
    failed += !ok;
  }
  if (cfg->scenario_count == 0) {
    printf("no scenario found\n");
    return 1;
  }
  return failed ? 1 : 0;
}

// ---- the command line ----------------------------------------------------------------------------

static void usage(void)
{
  fprintf(stderr, "usage: bench_scenarios [--scenario FILE]... [--agents N] [--warmup W] [--steps K] [--repeats R]\n"
                  "                       [--spawn spread|shipped] [--tsv | --hold | --check]\n");
  exit(2);
}

static int number(int argc, char **argv, int *k, int lo, int hi)
{
  if (*k + 1 >= argc) {
    usage();
  }
  int v = atoi(argv[++*k]);
  if (v < lo || v > hi) {
    fprintf(stderr, "bench_scenarios: %s must be between %d and %d\n", argv[*k - 1], lo, hi);
    exit(2);
  }
  return v;
}

static void parse(int argc, char **argv, Config *cfg)
{
  for (int k = 1; k < argc; ++k) {
    const char *a = argv[k];
    if (strcmp(a, "--scenario") == 0 && k + 1 < argc && cfg->scenario_count < MAX_SCENARIOS) {
      cfg->scenarios[cfg->scenario_count++] = argv[++k];
    } else if (strcmp(a, "--agents") == 0) {
      cfg->agents = number(argc, argv, &k, 1, 10000000);
    } else if (strcmp(a, "--warmup") == 0) {
      cfg->setup.warmup = number(argc, argv, &k, 0, 100000);
    } else if (strcmp(a, "--steps") == 0) {
      cfg->setup.steps = number(argc, argv, &k, 1, 100000);
    } else if (strcmp(a, "--repeats") == 0) {
      cfg->setup.repeats = number(argc, argv, &k, 1, FB_MEASURE_MAX_REPEATS);
    } else if (strcmp(a, "--spawn") == 0 && k + 1 < argc && strcmp(argv[k + 1], "shipped") == 0) {
      cfg->setup.spawn = FB_SCALE_SHIPPED;
      ++k;
    } else if (strcmp(a, "--spawn") == 0 && k + 1 < argc && strcmp(argv[k + 1], "spread") == 0) {
      cfg->setup.spawn = FB_SCALE_SPREAD;
      ++k;
    } else if (strcmp(a, "--tsv") == 0) {
      cfg->tsv = true;
    } else if (strcmp(a, "--hold") == 0) {
      cfg->hold = true;
    } else if (strcmp(a, "--check") == 0) {
      cfg->check = true;
    } else {
      usage();
    }
  }
}

int main(int argc, char **argv)
{
  static Config cfg = {.agents = 2000, .setup = {.warmup = 10, .steps = 20, .repeats = 7, .spawn = FB_SCALE_SPREAD}};
  parse(argc, argv, &cfg);
  if (cfg.scenario_count == 0) {
    list_shipped(&cfg);
  }
  if (cfg.check) {
    return check(&cfg);
  }
  if (cfg.hold) {
    int failed = 0;
    for (int k = 0; k < cfg.scenario_count; ++k) {
      failed += hold(cfg.scenarios[k], &cfg);
    }
    return failed ? 1 : 0;
  }
  return table(&cfg);
}
