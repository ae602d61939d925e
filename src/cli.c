// cli.c — parsing the command line, the step-and-telemetry loop, and the headless run.
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "render.h"

void fbCli_PrintHelp(FILE *out)
{
  fputs("usage: flockbox [options] SCENARIO\n"
        "\n"
        "Runs a flockbox scenario (a Lua script in scripts/) in a window, or headless with --headless.\n"
        "\n"
        "  --headless          run with no display; print a one-line summary at the end\n"
        "  --steps N           headless: number of fixed steps to run (default 1000);\n"
        "                      window: stop stepping after N steps\n"
        "  --seed S            random seed (default 1); the same seed gives the same run, byte for byte\n"
        "  --csv FILE          write telemetry: step, time, agents, mean_speed, polarisation,\n"
        "                      mean_nn_distance, mean_energy, then the scenario's own metrics\n"
        "  --every K           write a CSV row every K steps (default 1)\n"
        "  --set NAME=VALUE    override a scenario value by dotted name; repeatable, e.g.\n"
        "                      --set world.width=300  --set boid.max_speed=8\n"
        "                      --set boid.vision.fov=180  --set boid.cohesion.weight=2\n"
        "                      --set boid.cohesion.divisor=50 (a rule parameter)\n"
        "  --threads N         worker threads, each with its own Lua state (default 1);\n"
        "                      results are identical for any N\n"
        "  --png FILE          save a picture of the final frame (headless too)\n"
        "  --watch             reload rules and scenarios when their files change (inotify)\n"
        "  --watch-poll        the same, noticing changes by polling modification times\n"
        "  --pace N            headless: at most N steps per second (long runs with --watch)\n"
        "  --frames N          window: quit after N frames\n"
        "  --record FILE.mp4   window: record the frames with ffmpeg\n"
        "  --lua-memory MB     memory budget of each Lua state (default 256)\n"
        "  --rule-timeout MS   stop a rule or hook that runs this long without returning (default 2000)\n"
        "  --quiet             no summary line\n"
        "  --help              this text\n"
        "\n"
        "Exit status: 0 on success, 2 on bad input (the message names the file and the field),\n"
        "1 if the run could not write its output.\n",
        out);
}

static bool parse_long(const char *text, long lo, long hi, long *out)
{
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < lo || v > hi) {
    return false;
  }
  *out = v;
  return true;
}

// Options that take a number: name, range, where it goes.
static int parse_numeric(fbCli *cli, const char *opt, const char *value, char *err, size_t errlen)
{
  static const struct {
    const char *name;
    long lo, hi;
  } table[] = {{"--steps", 0, 2000000000L},  {"--seed", 0, 0x7fffffffffffffffL}, {"--every", 1, 2000000000L},
               {"--threads", 1, FB_MAX_THREADS}, {"--frames", 0, 2000000000L}, {"--lua-memory", 1, 65536},
               {"--rule-timeout", 10, 3600000}, {"--pace", 0, 1000000}};
  for (size_t k = 0; k < sizeof table / sizeof table[0]; ++k) {
    if (strcmp(opt, table[k].name) != 0) {
      continue;
    }
    long v;
    if (!parse_long(value, table[k].lo, table[k].hi, &v)) {
      snprintf(err, errlen, "%s: expected a whole number from %ld to %ld, got '%s'", opt, table[k].lo, table[k].hi,
               value);
      return 2;
    }
    switch (k) {
    case 0: cli->steps = v; cli->steps_given = true; break;
    case 1: cli->run.seed = (uint64_t)v; break;
    case 2: cli->every = v; break;
    case 3: cli->run.threads = (int)v; break;
    case 4: cli->frames = v; break;
    case 5: cli->run.lua_memory = (size_t)v << 20; break;
    case 6: cli->run.lua_timeout_ms = (int)v; break;
    default: cli->pace = v; break;
    }
    return 0;
  }
  return -1;
}

static int parse_valued(fbCli *cli, const char *opt, const char *value, char *err, size_t errlen)
{
  int numeric = parse_numeric(cli, opt, value, err, errlen);
  if (numeric >= 0) {
    return numeric;
  }
  if (strcmp(opt, "--csv") == 0) {
    cli->csv = value;
  } else if (strcmp(opt, "--png") == 0) {
    cli->png = value;
  } else if (strcmp(opt, "--record") == 0) {
    cli->record = value;
  } else if (strcmp(opt, "--set") == 0) {
    if (cli->run.set_count >= FB_MAX_SETS) {
      snprintf(err, errlen, "--set: at most %d overrides", FB_MAX_SETS);
      return 2;
    }
    cli->run.sets[cli->run.set_count++] = value;
  } else {
    return -1;
  }
  return 0;
}

int fbCli_Parse(fbCli *cli, int argc, char **argv, char *err, size_t errlen)
{
  memset(cli, 0, sizeof *cli);
  fbRunOptions_Default(&cli->run);
  cli->steps = 1000;
  cli->every = 1;
  for (int k = 1; k < argc; ++k) {
    const char *a = argv[k];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fbCli_PrintHelp(stdout);
      return 1;
    } else if (strcmp(a, "--headless") == 0) {
      cli->headless = true;
    } else if (strcmp(a, "--watch") == 0) {
      cli->watch = true;
    } else if (strcmp(a, "--watch-poll") == 0) {
      cli->watch = true;
      cli->poll_files = true;
    } else if (strcmp(a, "--quiet") == 0) {
      cli->quiet = true;
    } else if (strncmp(a, "--", 2) == 0) {
      if (k + 1 >= argc) {
        snprintf(err, errlen, "%s: unknown option or missing value (see --help)", a);
        return 2;
      }
      int r = parse_valued(cli, a, argv[k + 1], err, errlen);
      if (r < 0) {
        snprintf(err, errlen, "%s: unknown option (see --help)", a);
        return 2;
      }
      if (r > 0) {
        return 2;
      }
      ++k;
    } else if (cli->scenario == NULL) {
      cli->scenario = a;
    } else {
      snprintf(err, errlen, "%s: only one scenario may be given (already have %s)", a, cli->scenario);
      return 2;
    }
  }
  if (cli->scenario == NULL) {
    snprintf(err, errlen, "no scenario given (try: flockbox scripts/classic_flock.lua, or --help)");
    return 2;
  }
  cli->run.headless = cli->headless;
  return 0;
}

static double seconds_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void print_summary(fbSim *sim, long steps, double elapsed)
{
  fbTelemetry t;
  char err[8];
  fbTelemetry_Open(&t, NULL, sim, err, sizeof err);
  fbMeasures m;
  fbTelemetry_Measure(&t, sim, &m);
  fbTelemetry_Close(&t);
  printf("flockbox: %s: %ld steps, %d agents, seed %llu, %.2f s (%.0f steps/s), mean speed %.4g, "
         "polarisation %.3f, mean nn %.4g, hash %016llx\n",
         sim->name, steps, m.agents, (unsigned long long)sim->world.seed, elapsed,
         elapsed > 0 ? steps / elapsed : 0.0, m.mean_speed, m.polarisation, m.mean_nn,
         (unsigned long long)fbSim_Hash(sim));
}

int fbRun_Begin(fbRun *run, const fbCli *cli, const fbRunOptions *options, char *err, size_t errlen)
{
  run->cli = cli;
  run->steps = 0;
  if (!fbSim_Load(&run->sim, cli->scenario, options, err, errlen)) {
    return 2;
  }
  if (!fbTelemetry_Open(&run->telemetry, cli->csv, &run->sim, err, errlen)) {
    fbSim_Free(&run->sim);
    return 1;
  }
  run->telemetry.flush = cli->watch || cli->pace > 0;
  run->watching = cli->watch && fbHotReload_Open(&run->reload, &run->sim, cli->poll_files, err, errlen);
  if (cli->watch && !run->watching) {
    fprintf(stderr, "flockbox: %s\n", err);
  }
  return 0;
}

bool fbRun_Row(fbRun *run) { return fbTelemetry_Row(&run->telemetry, &run->sim); }

int fbRun_Poll(fbRun *run)
{
  return run->watching ? fbHotReload_Poll(&run->reload, &run->sim, seconds_now() * 1e3) : 0;
}

bool fbRun_Step(fbRun *run)
{
  bool ok = fbSim_Step(&run->sim);
  run->steps++;
  if (ok && run->steps % run->cli->every == 0) {
    ok = fbRun_Row(run);
  }
  return ok;
}

bool fbRun_End(fbRun *run)
{
  if (run->watching) {
    fbHotReload_Close(&run->reload);
    run->watching = false;
  }
  return fbTelemetry_Close(&run->telemetry);
}

// --pace: sleep so that step n starts no earlier than n / pace seconds after the start.
static void keep_pace(long pace, long steps, double start)
{
  double wait = start + (double)steps / (double)pace - seconds_now();
  if (pace > 0 && wait > 0) {
    struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
    nanosleep(&ts, NULL);
  }
}

// Ctrl-C (or SIGTERM) ends a headless run after the current step, with its CSV complete.
static volatile sig_atomic_t interrupted;

static void on_interrupt(int signal_number)
{
  (void)signal_number;
  interrupted = 1;
}

static void catch_interrupts(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_interrupt;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

int fbCli_RunHeadless(const fbCli *cli)
{
  static fbRun run;  // large; static keeps it off the stack
  char err[4096];
  int status = fbRun_Begin(&run, cli, &cli->run, err, sizeof err);
  if (status != 0) {
    fprintf(stderr, "flockbox: %s\n", err);
    return status;
  }
  fbSim *sim = &run.sim;
  double start = seconds_now();
  bool ok = fbRun_Row(&run);
  interrupted = 0;
  catch_interrupts();
  while (ok && run.steps < cli->steps && !interrupted) {
    keep_pace(cli->pace, run.steps, start);
    fbRun_Poll(&run);
    ok = fbRun_Step(&run);
  }
  if (ok && run.steps % cli->every != 0) {
    ok = fbRun_Row(&run);  // the final state is always in the CSV
  }
  double elapsed = seconds_now() - start;
  if (!ok) {
    fprintf(stderr, "flockbox: %s\n", sim->error);
    status = 2;
  }
  if (!fbRun_End(&run)) {
    fprintf(stderr, "flockbox: %s: writing the CSV failed\n", cli->csv);
    status = status ? status : 1;
  }
  if (status == 0 && cli->png != NULL && !fbRender_SavePng(sim, cli->png, 1024, 1024, err, sizeof err)) {
    fprintf(stderr, "flockbox: %s\n", err);
    status = 1;
  }
  if (status == 0 && !cli->quiet) {
    print_summary(sim, run.steps, elapsed);
  }
  if (status == 0 && interrupted) {
    status = 130;  // the shell's convention for a run ended by Ctrl-C
  }
  fbSim_Free(sim);
  return status;
}
