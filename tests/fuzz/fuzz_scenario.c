// fuzz_scenario.c — libFuzzer target: arbitrary text loaded as a scenario script, stepped, reported and freed.
#include <string.h>

#include "fuzz_util.h"
#include "telemetry.h"

/*
 * What it feeds: the fuzzer's bytes as a scenario file (scratch/scripts/fuzzed.lua, so that the
 * repo's rules and terrains are found beside it), loaded by fbSim_Load on one thread with a small
 * Lua budget. If it loaded: STEPS steps (while it holds at most MAX_STEPPED_AGENTS agents), each
 * followed by a CSV row (the built-in measures and the scenario's metrics, into a scratch file),
 * then fbSim_Free. Hooks and metrics that fail are switched off and the run goes on (--keep-going),
 * so the steps after a failure are reached too.
 * tests/fuzz/scenario.dict gives the fuzzer the scenario's keywords.
 *
 * Fine: the scenario loads and runs, or it is refused with a message; rules and hooks that fail
 * are switched off.
 * A bug: a crash, a hang past the fuzzer's -timeout, a leak, undefined behaviour, an allocation
 * beyond -malloc_limit_mb, a refusal without a message, or an agent whose position or velocity
 * is not finite after a step.
 */

#define STEPS 5
// A world past this many agents is loaded but not stepped further: its steps cost what
// the script asked for (thousands of agents on one spot see each other, O(n^2)), which is the
// work's size, not a hang, and would only trip -timeout. Scenario counts and hook spawns past it
// are still read, checked and applied.
#define MAX_STEPPED_AGENTS 4000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char csv[4096];
  snprintf(csv, sizeof csv, "%s", fuzz_ScratchPath("run.csv"));
  const char *path = fuzz_ScratchPath("scripts/fuzzed.lua");
  fuzz_WriteFile(path, "", data, size, "");

  fbRunOptions options;
  fuzz_RunOptions(&options);
  options.keep_going = true;
  static fbSim sim;  // large: kept off the stack
  char err[4096] = "";
  if (!fbSim_Load(&sim, path, &options, err, sizeof err)) {
    fuzz_CheckMessage(err, "fbSim_Load");
    return 0;
  }
  fbTelemetry telemetry;
  if (!fbTelemetry_Open(&telemetry, csv, &sim, err, sizeof err)) {
    fprintf(stderr, "fuzz_scenario: %s\n", err);  // the scratch file, not the input: the machine's fault
    abort();
  }
  for (int k = 0; k < STEPS && sim.world.agents.count <= MAX_STEPPED_AGENTS; ++k) {
    fbSim_Step(&sim);
    fuzz_CheckAgentsFinite(&sim, "after a step");
    fbTelemetry_Row(&telemetry, &sim);
  }
  fbTelemetry_Close(&telemetry);
  fbSim_Free(&sim);
  return 0;
}
