// run.c — a scenario being run: the sim, its CSV and its hot reload, stepped the same way headless and in the window.
#define _POSIX_C_SOURCE 200809L
#include "run.h"

#include "log.h"
#include "paths.h"

#include <time.h>

double fbRun_Seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Every output the run will write, checked before anything runs: a folder, a FIFO or a device
// where a file goes is bad input, found now rather than after a long run (and never written to).
static bool outputs_are_files(const fbCli *cli, char *err, size_t errlen)
{
  char meta[1100], why[256];
  snprintf(meta, sizeof meta, "%s.json", cli->csv ? cli->csv : "");
  const struct {
    const char *option, *path;
  } outputs[] = {{"--csv", cli->csv}, {"--csv", cli->csv ? meta : NULL}, {"--save-state", cli->save_state},
                 {"--png", cli->png}, {"--trajectories", cli->trajectories}};
  for (size_t k = 0; k < sizeof outputs / sizeof outputs[0]; ++k) {
    if (outputs[k].path != NULL && !fbFilePath_CheckOutput(outputs[k].path, why, sizeof why)) {
      snprintf(err, errlen, "%s: cannot write there (%s): %s", outputs[k].path, outputs[k].option, why);
      return false;
    }
  }
  return true;
}

fbRunStart fbRun_Begin(fbRun *run, const fbCli *cli, const fbRunOptions *options, char *err, size_t errlen)
{
  run->cli = cli;
  run->steps = 0;
  run->sim = NULL;
  if (!outputs_are_files(cli, err, errlen)) {
    return FB_START_BAD_OUTPUT;
  }
  run->sim = fbSim_NewFromFile(cli->scenario, options, err, errlen);
  if (run->sim == NULL) {
    return FB_START_BAD_SCENARIO;
  }
  run->loaded = cli->load_state != NULL;
  if (run->loaded && !fbState_Load(run->sim, cli->load_state, &run->loaded_info, err, errlen)) {
    fbSim_Delete(run->sim);
    run->sim = NULL;
    return FB_START_BAD_SCENARIO;
  }
  if (run->loaded && run->loaded_info.rules_differ) {
    fbLog(FB_LOG_INFO, "%s: rule files changed since the state was saved (first: %s)", cli->load_state,
          run->loaded_info.rule_changed);
  }
  if (!fbTelemetry_Open(&run->telemetry, cli->csv, run->sim, err, errlen)) {
    fbSim_Delete(run->sim);
    run->sim = NULL;
    return FB_START_CANNOT_WRITE;
  }
  if (!fbTrajectoryWriter_Open(&run->trajectories, cli->trajectories, run->sim, cli->trajectories_every, err, errlen)) {
    fbTelemetry_Close(&run->telemetry);
    fbSim_Delete(run->sim);
    run->sim = NULL;
    return FB_START_CANNOT_WRITE;
  }
  fbTrajectoryWriter_Frame(&run->trajectories, run->sim, true);  // the start, as the CSV's first row
  run->telemetry.flush = cli->watch || cli->pace > 0;
  run->watching = cli->watch && fbHotReload_Open(&run->reload, run->sim, cli->poll_files, err, errlen);
  if (cli->watch && !run->watching) {
    fbLog(FB_LOG_WARNING, "%s", err);
  }
  return FB_START_RUNNING;
}

bool fbRun_Row(fbRun *run) { return fbTelemetry_Row(&run->telemetry, run->sim); }

int fbRun_Poll(fbRun *run)
{
  return run->watching ? fbHotReload_Poll(&run->reload, run->sim, fbRun_Seconds() * 1e3) : 0;
}

bool fbRun_Step(fbRun *run)
{
  bool ok = fbSim_Step(run->sim);
  run->steps++;
  if (ok) {
    fbTrajectoryWriter_Frame(&run->trajectories, run->sim, false);
  }
  if (ok && run->steps % run->cli->every == 0) {
    ok = fbRun_Row(run);
  }
  return ok;
}

void fbRun_Free(fbRun *run) { fbHotReload_FreeRecords(&run->reload); }

bool fbRun_End(fbRun *run)
{
  if (run->watching) {
    fbHotReload_Close(&run->reload);
    run->watching = false;
  }
  fbTrajectoryWriter_Frame(&run->trajectories, run->sim, true);  // the final state, as in the CSV
  bool trajectories = fbTrajectoryWriter_Close(&run->trajectories);
  return fbTelemetry_Close(&run->telemetry) && trajectories;
}
