// main.c — flockbox's entry point: parse the command line, then run headless, in a window, a sweep or rule tests.
#include <string.h>

#include "catalogue.h"
#include "determinism.h"
#include "fit.h"
#include "headless.h"
#include "lint.h"
#include "lua_host.h"
#include "lua_types.h"
#include "new_rule.h"
#include "paths.h"
#include "rule_test.h"
#include "stats_command.h"
#include "sweep.h"
#include "sweep_sensitivity.h"
#include "viewer.h"

// flockbox --rules [FOLDER]: the catalogue of a rule folder; status 2 if a rule does not load.
static int list_rules(const fbCli *cli)
{
  char folder[1024], err[1024];
  fbFilePath_Resolve("", cli->scenario ? cli->scenario : "behaviours", folder, sizeof folder);
  int failed = fbCatalogue_Write(folder, cli->rules == 2 ? FB_CATALOGUE_MARKDOWN : FB_CATALOGUE_TEXT, stdout, err,
                                 sizeof err);
  if (failed < 0) {
    fprintf(stderr, "flockbox: %s\n", err);
  } else if (failed > 0) {
    fprintf(stderr, "flockbox: %d rule%s in %s did not load (see above)\n", failed, failed == 1 ? "" : "s", folder);
  }
  return failed == 0 ? 0 : 2;
}

// flockbox --check-determinism SCENARIO: 0 if the three runs agree, 1 if they differ, 2 on bad input.
static int check_determinism(const fbCli *cli)
{
  if (cli->scenario == NULL) {
    fprintf(stderr, "flockbox: --check-determinism: no scenario given\n");
    return 2;
  }
  char err[4096];
  fbDeterminismReport report;
  int threads = cli->run.threads > 0 ? cli->run.threads : 4;  // --threads 1: only the order is varied
  if (!fbDeterminism_Check(cli->scenario, &cli->run, cli->steps, threads, &report, err, sizeof err)) {
    fprintf(stderr, "flockbox: %s\n", err);
    return 2;
  }
  fbDeterminism_Print(&report, cli->scenario, stdout);
  return report.same ? 0 : 1;
}

// flockbox --new-rule NAME [FOLDER]: 0 once written, 2 if refused.
static int new_rule(const fbCli *cli)
{
  char written[1024], test[1100], err[1200];
  if (!fbNewRule_Write(cli->new_rule, cli->scenario, written, sizeof written, err, sizeof err)) {
    fprintf(stderr, "flockbox: %s\n", err);
    return 2;
  }
  fbNewRule_TestPath(written, test, sizeof test);
  printf("flockbox: wrote %s and its test %s (run it: flockbox test %s)\n"
         "Give it to a species in a scenario: rules = { ..., { \"%s\", weight = 1 } }, and name its folder\n"
         "in the scenario's behaviours = { ... } unless it is behaviours/. Then open the scenario in the\n"
         "window (or run it with --headless --watch) and edit the rule: each save applies at the next step.\n",
         written, test, test, cli->new_rule);
  return 0;
}

// flockbox --lua-types / --luacheck-std: the editor's types or luacheck's globals on standard
// output (types/flockbox.lua, types/luacheck_std.lua); 2 if the steering library does not load.
static int write_types(bool luacheck)
{
  char steering[1024], err[1024];
  fbFilePath_Resolve("", "behaviours/lib/steering.lua", steering, sizeof steering);
  bool ok = luacheck ? fbLuaTypes_WriteLuacheck(stdout, steering, err, sizeof err)
                     : fbLuaTypes_Write(stdout, steering, err, sizeof err);
  if (!ok) {
    fprintf(stderr, "flockbox: %s\n", err);
  }
  return ok ? 0 : 2;
}

int main(int argc, char **argv)
{
#ifdef __EMSCRIPTEN__
  fbLuaHost_UsePolledWatchdog();  // a web page has one thread: each Lua state watches itself
#endif
  if (argc > 1 && (strcmp(argv[1], "sweep") == 0 || strcmp(argv[1], "fit") == 0)) {
#ifdef __EMSCRIPTEN__
    fprintf(stderr, "flockbox: %s runs on the desktop and on clusters: a web page cannot start processes\n", argv[1]);
    return 2;
#else
    return strcmp(argv[1], "fit") == 0 ? fbFit_Main(argc - 1, argv + 1) : fbSweep_Main(argc - 1, argv + 1);
#endif
  }
#ifndef __EMSCRIPTEN__
  if (argc > 1 && strcmp(argv[1], "sensitivity") == 0) {
    return fbSweepSensitivity_Main(argc - 1, argv + 1);
  }
#endif
  if (argc > 1 && strcmp(argv[1], "stats") == 0) {
    return fbStatsCommand_Main(argc - 1, argv + 1);
  }
  if (argc > 1 && strcmp(argv[1], "test") == 0) {
    return fbRuleTest_Main(argc - 1, argv + 1);
  }
  if (argc == 2 && (strcmp(argv[1], "--lua-types") == 0 || strcmp(argv[1], "--luacheck-std") == 0)) {
    return write_types(strcmp(argv[1], "--luacheck-std") == 0);
  }
  if (argc > 1 && strcmp(argv[1], "--lint") == 0) {
    return fbLint_Main(argc - 1, argv + 1);
  }
  fbCli cli;
  fbWindowOptions window;
  char err[1024];
  switch (fbWindowOptions_Parse(&cli, &window, argc, argv, err, sizeof err)) {
  case FB_CLI_HELP: fbCli_PrintHelp(stdout, fbWindowOptions_Help()); return 0;
  case FB_CLI_VERSION: printf("flockbox %s\n", FB_VERSION); return 0;
  case FB_CLI_BAD: fprintf(stderr, "flockbox: %s\n", err); return 2;
  case FB_CLI_RUN: break;
  }
  if (cli.new_rule != NULL) {
    return new_rule(&cli);
  }
  if (cli.rules != 0) {
    return list_rules(&cli);
  }
  if (cli.check_determinism) {
    return check_determinism(&cli);
  }
  return cli.headless ? fbHeadless_Run(&cli) : fbViewer_Run(&cli, &window);
}
