// viewer_load.c — a scenario into the window: what is reset when a sim is adopted, restarts, opening another, hot reloads.
#include "viewer_load.h"

#include "run_meta.h"

/*
 * The run ends (the window closes, R, N, another scenario): its CSV is closed and, as a headless
 * run's, FILE.csv.json written beside it, with the console's lines that ran in it (they changed
 * the run as much as a --set). Status: "complete" when it made all of --steps with nothing lost,
 * "incomplete" when a rule or hook was lost, "interrupted" when it was left before its end. The
 * console's record starts again with the next run. False if an output could not be written.
 */
bool fbViewer_EndRun(fbViewer *v)
{
  fbRun *run = v->run;
  bool ok = fbRun_End(run);
  if (!ok) {
    fprintf(stderr, "flockbox: %s: writing the CSV failed\n", v->cli.csv);
  }
  if (v->cli.csv != NULL) {
    char path[1100], err[1400], lost[256];
    snprintf(path, sizeof path, "%s.json", v->cli.csv);
    bool ended = v->cli.steps_given && run->steps >= v->cli.steps;
    const char *status = !ended ? "interrupted" : fbSim_Lost(run->sim, lost, sizeof lost) > 0 ? "incomplete" : "complete";
    fbRunMeta meta = {v->cli.scenario, v->cli.steps, run->steps, v->cli.every, status, v->status, "", &run->reload,
                      run->loaded ? v->cli.load_state : NULL, run->loaded_info.step, run->loaded_info.rules_differ,
                      &v->console.console};
    if (!fbRunMeta_Write(path, run->sim, &meta, err, sizeof err)) {
      fprintf(stderr, "flockbox: %s\n", err);
      ok = false;
    }
  }
  fbConsole_Free(&v->console.console);
  fbConsole_Init(&v->console.console);
  return ok;
}

// A snapshot for rewind if one is due. The first one refused (a hook keeps what a saved state cannot
// hold) turns rewind off for this run, said once, in the notice and on stderr; the timeline keeps
// saying why. The run goes on.
void fbViewer_NoteSnapshot(fbViewer *v, fbSim *sim)
{
  bool was_off = v->rewind.off;
  fbRewind_Note(&v->rewind, sim);
  if (v->rewind.off && !was_off) {
    char text[640];
    snprintf(text, sizeof text, "rewind off: %.560s", v->rewind.why);
    fbViewer_Notify(v, text);
    fprintf(stderr, "flockbox: %s\n", text);
  }
}

void fbViewer_Adopt(fbViewer *v)
{
  fbSim *sim = v->run->sim;
  v->loaded = true;
  fbSim_Profile(sim, true);  // the info panel's cost per rule: a window run is no benchmark
  v->profile_rows = 0;
  v->has_player = false;
  for (int s = 0; s < fbSim_World(sim)->species_count; ++s) {
    v->has_player = v->has_player || fbSim_World(sim)->species[s].player;
  }
  v->selected = 0;
  v->owed = 0;
  if (v->follow == FB_FOLLOW_AGENT) {
    v->follow = FB_FOLLOW_NONE;
  }
  fbRender_Forget(&v->render);
  fbPanel_Reset(&v->panel, v->run->sim);
  v->grab.kind = FB_GRAB_NONE;
  v->scenario_failed = !fbRun_Row(v->run);
  fbPlots_Clear(&v->plots, sim);
  fbPlots_Sample(&v->plots, sim, v->run->telemetry.metrics);
  fbRewind_Clear(&v->rewind);
  fbViewer_NoteSnapshot(v, sim);
  v->seeking = false;
  fbErrorStop_Leave(&v->error_stop, &v->console.console);  // a new run: its failures are its own
  if (v->scenario_failed) {
    fprintf(stderr, "flockbox: %s\n", fbSim_Error(sim));
  }
}

void fbViewer_Fit(fbViewer *v)
{
  fbSim *sim = fbViewer_Sim(v);
  if (sim != NULL) {
    fbCamera_FitScenario(&v->camera, sim, v->layout.world, 16);
    v->fit_camera = v->camera;
  }
  v->follow = FB_FOLLOW_NONE;
}

// R and N: the same scenario file again, with the same or the next seed; the camera stays. The
// panel's changes come after the command line's --set, so they win; the sim keeps pointers to its
// options' texts for scenario reloads, hence copies that stay put until the next restart.
void fbViewer_Restart(fbViewer *v, bool new_seed)
{
  if (v->loaded) {
    if (!fbViewer_EndRun(v)) {
      v->status = 1;
    }
    fbRun_Free(v->run);
    fbSim_Delete(v->run->sim);
    v->run->sim = NULL;
    v->loaded = false;
  }
  if (new_seed) {
    v->options.seed++;
  }
  static char kept[FB_MAX_SETS][sizeof v->panel.sets[0].text];
  fbRunOptions options = v->options;
  const char *panel[FB_MAX_SETS];
  int n = fbPanel_Sets(&v->panel, panel, FB_MAX_SETS - options.set_count);
  for (int k = 0; k < n; ++k) {
    snprintf(kept[k], sizeof kept[k], "%s", panel[k]);
    options.sets[options.set_count++] = kept[k];
  }
  if (fbRun_Begin(v->run, &v->cli, &options, v->load_error, sizeof v->load_error) != FB_START_RUNNING) {
    fprintf(stderr, "flockbox: %s\n", v->load_error);
    return;
  }
  fbViewer_Adopt(v);
  char text[160];
  snprintf(text, sizeof text, "restarted with seed %llu%s", (unsigned long long)v->options.seed,
           n > 0 ? " and the panel's changes" : "");
  printf("flockbox: %s\n", text);
  fbViewer_Notify(v, text);
}

bool fbViewer_Open(fbViewer *v, const char *path)
{
  snprintf(v->scenario_path, sizeof v->scenario_path, "%s", path);
  v->cli.scenario = v->scenario_path;
  fbPanel_Forget(&v->panel);  // its changes belong to the scenario that was open
  fbViewer_Restart(v, false);
  if (!v->loaded) {
    return false;
  }
  fbViewer_Fit(v);
  char text[620];
  snprintf(text, sizeof text, "opened %.600s", path);
  printf("flockbox: %s\n", text);
  fbViewer_Notify(v, text);
  SDL_SetWindowTitle(v->window, fbSim_Name(v->run->sim));
  return true;
}

// Saved files apply every frame, paused or not, so a fixed error leaves the HUD at once. A scenario
// reload may bring new terrain, obstacles and rules: the terrain image and the panel are rebuilt.
int fbViewer_PickUpSaves(fbViewer *v)
{
  int before = v->run->reload.scenario_reloads;
  int applied = fbRun_Poll(v->run);
  if (applied == 0) {
    return 0;
  }
  char text[620];
  snprintf(text, sizeof text, "reloaded %.600s", v->run->reload.last_path);
  fbViewer_Notify(v, text);
  if (v->run->reload.scenario_reloads != before) {
    fbRender_Forget(&v->render);
    fbPanel_Reset(&v->panel, v->run->sim);
    fbPlots_Adopt(&v->plots, v->run->sim);
  }
  return applied;
}
