// cli.c — parsing the engine's command line into options for a run, with the options a program adds.
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

#include "telemetry.h"
#include "workers.h"

// text wrapped greedily at HELP_WIDTH columns, the first line after `option`, the others indented
// as far: an option's description in the help.
#define HELP_WIDTH 88
static void print_wrapped(FILE *out, const char *option, const char *text)
{
  int indent = (int)strlen(option), column = indent;
  fputs(option, out);
  while (*text != '\0') {
    int n = (int)strcspn(text, " ");
    if (column > indent && column + 1 + n > HELP_WIDTH) {
      fprintf(out, "\n%*s", indent, "");
      column = indent;
    }
    column += fprintf(out, "%s%.*s", column > indent ? " " : "", n, text);
    text += n + (text[n] == ' ');
  }
  fputc('\n', out);
}

// --csv lists the columns from the measures' table (telemetry.h).
static void print_csv_help(FILE *out)
{
  char text[1024];
  int used = snprintf(text, sizeof text, "write telemetry: step, time, then for each species S:");
  for (int k = 0; k < FB_MEASURES && used < (int)sizeof text; ++k) {
    used += snprintf(text + used, sizeof text - (size_t)used, " S.%s,", fbMeasureTable[k].column);
  }
  snprintf(text + used, sizeof text - (size_t)used, " then the scenario's own metrics; headless, FILE.json beside "
           "it records how the run was made and how it ended (see README)");
  print_wrapped(out, "  --csv FILE          ", text);
}

void fbCli_PrintHelp(FILE *out, const char *more_help)
{
  fputs("usage: flockbox [options] SCENARIO\n"
        "       flockbox --rules [FOLDER]    list every rule with its parameters (--rules-md: Markdown)\n"
        "       flockbox --new-rule NAME [FOLDER]    write FOLDER/NAME.lua (default behaviours/), a\n"
        "                                    commented starting rule that runs as it is, and its test\n"
        "       flockbox test PATH...        run rule tests: *_test.lua files (in folders too) with the\n"
        "                                    harness require(\"flockbox.test\"); exit 1 if one fails\n"
        "       flockbox sweep EXPERIMENT.lua [options]    run a scenario over a grid of parameters x\n"
        "                                    seeds, in parallel, resumable (see flockbox sweep --help)\n"
        "       flockbox fit EXPERIMENT.lua [options]    the parameters that make a statistic match a\n"
        "                                    target: Nelder-Mead, CMA-ES, ABC (see flockbox fit --help)\n"
        "       flockbox --lint FILE...      luacheck with the sandbox's globals: what would fail when a\n"
        "                                    rule, scenario or experiment runs (exit 2 if anything would)\n"
        "       flockbox --lua-types         types for lua-language-server (types/flockbox.lua); with\n"
        "                                    --luacheck-std, luacheck's globals (types/luacheck_std.lua)\n"
        "       flockbox --check-determinism [--steps N] [--threads N] [--seed S] [--set ...] SCENARIO\n"
        "                run it on 1 thread, on N (default 4) and with the agents stored in reverse\n"
        "                order; report the first step, agent and rule where they differ (exit 1)\n"
        "\n"
        "Runs a flockbox scenario (a Lua script in scripts/) in a window, or headless with --headless.\n"
        "\n"
        "  --headless          run with no display; print a one-line summary at the end\n"
        "  --steps N           headless: number of fixed steps to run (default 1000);\n"
        "                      window: stop stepping after N steps\n"
        "  --seed S            random seed (default 1); the same seed gives the same run, byte for byte\n"
        ,
        out);
  print_csv_help(out);
  fputs("  --every K           write a CSV row every K steps (default 1)\n"
        "  --trajectories FILE every agent's t,id,x,y,vx,vy,group every --trajectories-every\n"
        "                      N world steps (default 1) and at the end (docs/fitting.md)\n"
        "  --set NAME=VALUE    override a scenario value by dotted name; repeatable, e.g.\n"
        "                      --set world.width=300  --set boid.max_speed=8\n"
        "                      --set boid.vision.fov=180  --set boid.cohesion.weight=2\n"
        "                      --set boid.cohesion.divisor=50 (a rule parameter)\n"
        "  --threads N         worker threads, each with its own Lua state (default: one per\n"
        "                      core); results are identical for any N\n"
        "  --png FILE          save a picture of the final frame (headless too)\n"
        "  --png-size SIZE     its size: W (a width; the height keeps the world's aspect) or WxH\n"
        "                      (the largest picture with the world's aspect inside it); default 1024x1024\n"
        "  --watch             reload rules and scenarios when their files change (inotify)\n"
        "  --watch-poll        the same, noticing changes by polling modification times\n"
        "  --pace N            headless: at most N steps per second (long runs with --watch)\n"
        "  --save-state FILE   headless: write the run's complete state to FILE after the last step\n"
        "  --save-state-at N   ... at step N instead (counted from the scenario's start)\n"
        "  --load-state FILE   start from a state FILE saved from this scenario, seed and --set;\n"
        "                      --steps then counts the steps after it; rule files may have changed\n"
        "  --console           headless, with a Lua console on standard input between steps: Lua lines\n"
        "                      run in the scenario's state (expressions print their values, sel is the\n"
        "                      agent of :select ID), :step [N] makes N steps (default 1), :quit ends the\n"
        "                      run with its outputs, :help; at the end of input the run goes on to its\n"
        "                      end as a plain headless run; every line that ran is in the metadata\n"
        "  --break-on-error    with --console: after a step where a rule raised, stop in the console at\n"
        "                      the failing frame (:where its traceback, :locals its local variables;\n"
        "                      lines see those locals)\n",
        out);
  fputs("  --dap PORT          headless: serve the Debug Adapter Protocol on 127.0.0.1:PORT (0: any\n"
        "                      free port) for breakpoints in rules and hooks; waits up to 60 s for\n"
        "                      the editor before the first step; rules then run on one thread\n"
        "  --trace ID          headless: write a trace of agent ID's rules at one step: each line as it\n"
        "                      ran with the locals it changed, what each rule returned, how the\n"
        "                      combiner weighed it; the run is the same with it (exit 2: no such agent)\n"
        "  --trace-step N      ... at the step that starts at step N (default 0, the first)\n"
        "  --trace-out FILE    ... into FILE instead of standard output\n",
        out);
  fputs(more_help != NULL ? more_help : "", out);
  fputs("  --lua-memory MB     memory budget of each Lua state (default 256)\n"
        "  --rule-timeout MS   stop a rule or hook that runs this long without returning (default 2000)\n"
        "  --profile           time each rule, each species' view and perception; headless: print the\n"
        "                      table at the end and put it in the run's metadata (the window: I panel)\n"
        "  --quiet             no summary line\n"
        "  --keep-going        go on past a failing hook or metric (switched off) and exit 0 even if\n"
        "                      a rule or hook was switched off; still flagged INCOMPLETE\n"
        "  --version           the version (also in every run's metadata)\n"
        "  --help              this text\n"
        "\n"
        "Exit status: 0 on success (also when a hook ended the run with fb.stop(outcome)); 2 on\n"
        "bad input (the message names the file and the field), or when a hook or metric failed\n"
        "(the run stops there); 1 if the run could not write its output; 3 if a rule failed and\n"
        "was switched off during the run (the run went on without it); 130 if interrupted.\n",
        out);
}

bool fbCli_ParseLong(const char *opt, const char *text, long long lo, long long hi, long long *out, char *err,
                     size_t errlen)
{
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < lo || v > hi) {
    snprintf(err, errlen, "%s: expected a whole number from %lld to %lld, got '%s'", opt, lo, hi, text);
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
    long long lo, hi;
  } table[] = {{"--steps", 0, 2000000000L},      {"--seed", 0, LLONG_MAX},          {"--every", 1, 2000000000L},
               {"--threads", 1, FB_MAX_THREADS}, {"--lua-memory", 1, 65536},            {"--rule-timeout", 10, 3600000},
               {"--pace", 0, 1000000},           {"--save-state-at", 0, 2000000000L},
               {"--trace", 1, 4294967295LL},     {"--trace-step", 0, 2000000000L},
               {"--trajectories-every", 1, 2000000000L}};
  for (size_t k = 0; k < sizeof table / sizeof table[0]; ++k) {
    if (strcmp(opt, table[k].name) != 0) {
      continue;
    }
    long long v;  // the ranges above keep every value but the seed and --trace within a 32-bit long
    if (!fbCli_ParseLong(opt, value, table[k].lo, table[k].hi, &v, err, errlen)) {
      return FB_CLI_BAD;
    }
    switch (k) {
    case 0: cli->steps = (long)v; cli->steps_given = true; break;
    case 1: cli->run.seed = (uint64_t)v; break;
    case 2: cli->every = (long)v; break;
    case 3: cli->run.threads = (int)v; break;
    case 4: cli->run.lua_memory = (size_t)v << 20; break;
    case 5: cli->run.lua_timeout_ms = (int)v; break;
    case 6: cli->pace = (long)v; break;
    case 7: cli->save_state_at = (long)v; break;
    case 8: cli->trace_id = (uint32_t)v; break;
    case 9: cli->trace_step = (long)v; break;
    default: cli->trajectories_every = (long)v; break;
    }
    return 0;
  }
  return -1;
}

// --dap PORT, or 127.0.0.1:PORT / localhost:PORT: the protocol has no authentication, so the
// server listens on the loopback address only and refuses any other.
static int parse_dap(fbCli *cli, const char *value, char *err, size_t errlen)
{
  const char *port = value, *colon = strrchr(value, ':');
  if (colon != NULL) {
    size_t host = (size_t)(colon - value);
    if (!((host == 9 && strncmp(value, "127.0.0.1", 9) == 0) || (host == 9 && strncmp(value, "localhost", 9) == 0))) {
      snprintf(err, errlen, "--dap: serves on 127.0.0.1 only; got '%s' (give a port, e.g. --dap 4711)", value);
      return FB_CLI_BAD;
    }
    port = colon + 1;
  }
  long long v;
  if (!fbCli_ParseLong("--dap", port, 0, 65535, &v, err, errlen)) {
    return FB_CLI_BAD;
  }
  cli->dap_port = (int)v;
  return 0;
}

// --png-size W (a width; the height follows the world's aspect) or WxH (a box the picture fits).
static int parse_png_size(fbCli *cli, const char *value, char *err, size_t errlen)
{
  char tail;
  int w = 0, h = 0, n = sscanf(value, "%dx%d%c", &w, &h, &tail);
  bool width_only = n == 1 && strspn(value, "0123456789") == strlen(value);
  if (!(n == 2 || width_only) || w < 16 || w > 16384 || (n == 2 && (h < 16 || h > 16384))) {
    snprintf(err, errlen, "--png-size: expected WIDTH or WIDTHxHEIGHT, each from 16 to 16384, got '%s'", value);
    return FB_CLI_BAD;
  }
  cli->png_width = w;
  cli->png_height = n == 2 ? h : 0;
  return 0;
}

static int parse_valued(fbCli *cli, const char *opt, const char *value, char *err, size_t errlen)
{
  int numeric = parse_numeric(cli, opt, value, err, errlen);
  if (numeric >= 0) {
    return numeric;
  }
  if (strcmp(opt, "--csv") == 0) {
    cli->csv = value;
  } else if (strcmp(opt, "--trajectories") == 0) {
    cli->trajectories = value;
  } else if (strcmp(opt, "--new-rule") == 0) {
    cli->new_rule = value;
  } else if (strcmp(opt, "--png") == 0) {
    cli->png = value;
  } else if (strcmp(opt, "--png-size") == 0) {
    return parse_png_size(cli, value, err, errlen);
  } else if (strcmp(opt, "--save-state") == 0) {
    cli->save_state = value;
  } else if (strcmp(opt, "--load-state") == 0) {
    cli->load_state = value;
  } else if (strcmp(opt, "--trace-out") == 0) {
    cli->trace_out = value;
  } else if (strcmp(opt, "--dap") == 0) {
    return parse_dap(cli, value, err, errlen);
  } else if (strcmp(opt, "--set") == 0) {
    if (cli->run.set_count >= FB_MAX_SETS) {
      snprintf(err, errlen, "--set: at most %d overrides", FB_MAX_SETS);
      return FB_CLI_BAD;
    }
    cli->run.sets[cli->run.set_count++] = value;
  } else {
    return -1;
  }
  return 0;
}

fbCliResult fbCli_Parse(fbCli *cli, int argc, char **argv, const fbCliMore *more, char *err, size_t errlen)
{
  memset(cli, 0, sizeof *cli);
  fbRunOptions_Default(&cli->run);
  cli->steps = 1000;
  cli->every = 1;
  cli->trajectories_every = 1;
  cli->save_state_at = -1;
  cli->dap_port = -1;
  for (int k = 1; k < argc; ++k) {
    const char *a = argv[k];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      return FB_CLI_HELP;
    } else if (strcmp(a, "--version") == 0) {
      return FB_CLI_VERSION;
    } else if (strcmp(a, "--headless") == 0) {
      cli->headless = true;
    } else if (strcmp(a, "--watch") == 0) {
      cli->watch = true;
    } else if (strcmp(a, "--watch-poll") == 0) {
      cli->watch = true;
      cli->poll_files = true;
    } else if (strcmp(a, "--rules") == 0 || strcmp(a, "--rules-md") == 0) {
      cli->rules = a[7] == '\0' ? 1 : 2;
    } else if (strcmp(a, "--check-determinism") == 0) {
      cli->check_determinism = true;
    } else if (strcmp(a, "--profile") == 0) {
      cli->profile = true;
    } else if (strcmp(a, "--quiet") == 0) {
      cli->quiet = true;
    } else if (strcmp(a, "--keep-going") == 0) {
      cli->run.keep_going = true;
    } else if (strcmp(a, "--console") == 0) {
      cli->console = true;
      cli->headless = true;
    } else if (strcmp(a, "--break-on-error") == 0) {
      cli->break_on_error = true;
    } else if (strncmp(a, "--", 2) == 0) {
      if (k + 1 >= argc) {
        snprintf(err, errlen, "%s: unknown option or missing value (see --help)", a);
        return FB_CLI_BAD;
      }
      int r = parse_valued(cli, a, argv[k + 1], err, errlen);
      if (r < 0 && more != NULL) {
        r = more->parse(more->ctx, a, argv[k + 1], err, errlen);
      }
      if (r < 0) {
        snprintf(err, errlen, "%s: unknown option (see --help)", a);
        return FB_CLI_BAD;
      }
      if (r > 0) {
        return FB_CLI_BAD;
      }
      ++k;
    } else if (cli->scenario == NULL) {
      cli->scenario = a;
    } else {
      snprintf(err, errlen, "%s: only one scenario may be given (already have %s)", a, cli->scenario);
      return FB_CLI_BAD;
    }
  }
  if (cli->scenario == NULL && cli->rules == 0 && cli->new_rule == NULL) {
    snprintf(err, errlen, "no scenario given (try: flockbox scripts/classic_flock.lua, or --help)");
    return FB_CLI_BAD;
  }
  if (cli->png_width > 0 && cli->png == NULL) {
    snprintf(err, errlen, "--png-size: sizes the picture of --png FILE, so it needs --png");
    return FB_CLI_BAD;
  }
  if (cli->break_on_error && !cli->console) {
    snprintf(err, errlen, "--break-on-error: stops in the console, so it needs --console");
    return FB_CLI_BAD;
  }
  if ((cli->trace_id != 0 || cli->trace_out != NULL) && !cli->headless) {
    snprintf(err, errlen, "--trace: needs --headless (the window has the inspector)");
    return FB_CLI_BAD;
  }
  if (cli->trace_out != NULL && cli->trace_id == 0) {
    snprintf(err, errlen, "--trace-out: give the agent to trace with --trace ID");
    return FB_CLI_BAD;
  }
  if (cli->dap_port >= 0 && !cli->headless) {
    snprintf(err, errlen, "--dap: needs --headless (the window does not serve the protocol yet)");
    return FB_CLI_BAD;
  }
  if (cli->dap_port >= 0) {
    cli->run.threads = 1;  // one stopped thread stops the run; the results are the same on any count
  }
  cli->run.headless = cli->headless;
  return FB_CLI_RUN;
}
