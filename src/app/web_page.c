// web_page.c — what the web page's buttons ask of the program (emscripten only): a new rule from the template, the run's outputs.
#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#include <stdio.h>

#include "new_rule.h"
#include "render.h"
#include "run_meta.h"
#include "viewer.h"

// Each function answers "+TEXT" when it did what was asked, "-MESSAGE" when not; the text lives
// until the next call.
static char answer[2048];

/*
 * The page's "New rule" button: behaviours/NAME.lua from the same template and with the same checks
 * as `flockbox --new-rule NAME` (a Lua identifier, not already there). "+PATH" when written.
 */
EMSCRIPTEN_KEEPALIVE const char *fbPage_NewRule(const char *name)
{
  char written[512], err[512];
  if (fbNewRule_Write(name, "behaviours", written, sizeof written, err, sizeof err)) {
    snprintf(answer, sizeof answer, "+%s", written);
  } else {
    snprintf(answer, sizeof answer, "-%s", err);
  }
  return answer;
}

/*
 * The page's "Outputs" button, while the window runs: the telemetry CSV as written so far (flushed),
 * beside it the metadata a headless run writes at its end (FILE.csv.json: the flockbox version,
 * scenario and rule SHA-256s, seed, --set, every save reloaded, the hash), with status "running"
 * and the steps made until now, and a picture of the world as --png draws it. "+" when all were
 * written.
 */
EMSCRIPTEN_KEEPALIVE const char *fbPage_WriteOutputs(void)
{
  fbRun *run = fbViewer_OpenRun();
  if (run == NULL || run->sim == NULL || run->cli->csv == NULL) {
    snprintf(answer, sizeof answer, "-no run is open");
    return answer;
  }
  const fbCli *cli = run->cli;
  char meta_path[1100], err[1024];
  fflush(NULL);
  snprintf(meta_path, sizeof meta_path, "%s.json", cli->csv);
  fbRunMeta meta = {cli->scenario, cli->steps, run->steps, cli->every, "running", 0, "",
                    run->watching ? &run->reload : NULL, NULL, 0, false};
  if (!fbRunMeta_Write(meta_path, run->sim, &meta, err, sizeof err) ||
      !fbRender_SavePng(run->sim, "out/world.png", 1024, 1024, err, sizeof err)) {
    snprintf(answer, sizeof answer, "-%s", err);
    return answer;
  }
  snprintf(answer, sizeof answer, "+%s, %s, out/world.png", cli->csv, meta_path);
  return answer;
}
#endif
