// viewer_time.c — the window going back in time: rewind, the timeline's seek and replay, a failed step made again after a fix.
#define _POSIX_C_SOURCE 200809L
#include "viewer_time.h"

#include <time.h>

/*
 * After the sim was set to a snapshot: paused there, with the current rules (a rule fixed since the
 * moment it failed is tried on it when the run goes on). Trails are cleared and the plots cut back
 * to that time, so neither shows a future that will not happen; the CSV (--csv) keeps its rows and
 * gets the steps again after them, its step column going back.
 */
static void moved(fbViewer *v, uint64_t before)
{
  const fbWorld *w = fbSim_World(v->run->sim);
  v->run->steps += (long)w->step - (long)before;
  v->paused = true;
  v->owed = 0;
  v->scenario_failed = false;
  fbErrorStop_Leave(&v->error_stop, &v->console.console);
  fbTrails_Clear(&v->render.trails);
  fbPlots_CutBack(&v->plots, (double)w->step * w->dt);
}

// Backspace (back) and Shift+Backspace (forward): to the next snapshot that way, said in the notice.
void fbViewer_RewindStep(fbViewer *v, bool back)
{
  fbSim *sim = fbViewer_Sim(v);
  if (sim == NULL) {
    return;
  }
  uint64_t before = fbSim_World(sim)->step;
  char err[512], text[640];
  v->seeking = false;
  bool ok = back ? fbRewind_Back(&v->rewind, sim, err, sizeof err) : fbRewind_Forward(&v->rewind, sim, err, sizeof err);
  if (!ok) {
    snprintf(text, sizeof text, "cannot %s: %.600s", back ? "rewind" : "go forward", err);
    fbViewer_Notify(v, text);
    return;
  }
  moved(v, before);
  const fbWorld *w = fbSim_World(sim);
  snprintf(text, sizeof text, "%s step %llu (%.2f s): Space goes on with the current rules",
           back ? "rewound to" : "forward to", (unsigned long long)w->step, (double)w->step * w->dt);
  fbViewer_Notify(v, text);
}

/*
 * The timeline asked for a step: the newest snapshot at or before it, then paused steps on to it
 * exactly (replay, over the next frames), with the rules as they are now. When the run is already
 * between that snapshot and the step (a drag forward), it steps on from where it is instead.
 */
void fbViewer_Seek(fbViewer *v, uint64_t target)
{
  fbSim *sim = fbViewer_Sim(v);
  int k = sim ? fbRewind_Find(&v->rewind, target) : -1;
  if (k < 0) {
    return;
  }
  uint64_t before = fbSim_World(sim)->step;
  char err[512], text[640];
  if (target < before || v->rewind.shots[k].step > before) {
    if (!fbRewind_Restore(&v->rewind, k, sim, err, sizeof err)) {
      snprintf(text, sizeof text, "cannot go to step %llu: %.500s", (unsigned long long)target, err);
      fbViewer_Notify(v, text);
      return;
    }
  }
  moved(v, before);
  v->seek_to = target;
  v->seeking = fbSim_World(sim)->step < target;
}

static double thread_cpu_seconds(void)
{
  struct timespec t = {0, 0};  // stays 0 where the clock is missing (the web page): no number, no harm
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/*
 * A save loaded while stopped on an error: back to the state before the failed step, with the
 * rules as they are now (the fixed one), and that step made again, paused after it. If the rule
 * still fails, this stops there again. The thread's CPU time for both is in the notice (measured
 * here, for docs/window.md; no test checks a time).
 */
void fbViewer_MakeFailedStepAgain(fbViewer *v)
{
  fbSim *sim = v->run->sim;
  uint64_t before = fbSim_World(sim)->step;
  double start = thread_cpu_seconds();
  char err[512], text[620];
  if (!fbErrorStop_Rewind(&v->error_stop, sim, &v->console.console, err, sizeof err)) {
    snprintf(text, sizeof text, "cannot make the failed step again: %.500s", err);
    fbViewer_Notify(v, text);
    fbConsoleDock_Say(&v->console, text);
    return;
  }
  fbRewind_Forget(&v->rewind, fbSim_World(sim)->step);
  moved(v, before);
  fbViewer_Advance(v, 1);
  v->rerun_ms = 1e3 * (thread_cpu_seconds() - start);
  if (!v->error_stop.stopped) {
    snprintf(text, sizeof text, "step %llu made again with the saved rule (%.1f ms): Space goes on",
             (unsigned long long)fbSim_World(sim)->step, v->rerun_ms);
    fbViewer_Notify(v, text);
    fbConsoleDock_Say(&v->console, text);
  }
}

// Stepping on to the step the timeline asked for, about a frame's time at most each frame so the
// window keeps answering; the snapshots after it are kept (the run has not gone on yet).
void fbViewer_Replay(fbViewer *v)
{
  fbSim *sim = v->run->sim;
  uint64_t start = SDL_GetPerformanceCounter();
  while (v->seeking && fbSim_World(sim)->step < v->seek_to) {
    fbViewer_Advance(v, 1);
    double spent = (double)(SDL_GetPerformanceCounter() - start) / SDL_GetPerformanceFrequency();
    if (spent > FB_FRAME_S) {
      break;
    }
  }
  if (fbSim_World(sim)->step >= v->seek_to) {
    v->seeking = false;
  }
}
