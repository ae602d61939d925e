// error_stop.c — stop on error in the window: the state before each step kept, the step a rule failed in stopped at, and made again once the rule is fixed.
#include "error_stop.h"

#include <string.h>

void fbErrorStop_Init(fbErrorStop *s, bool on)
{
  memset(s, 0, sizeof *s);
  s->on = on;
}

void fbErrorStop_Free(fbErrorStop *s)
{
  fbBytes_Free(&s->before);
  memset(s, 0, sizeof *s);
}

// The buffer is reused: after the first step a snapshot allocates nothing unless the run grew.
void fbErrorStop_BeforeStep(fbErrorStop *s, fbSim *sim)
{
  fbSim_CaptureFrames(sim, s->on);
  s->have_before = false;
  if (!s->on) {
    return;
  }
  s->before.len = 0;
  s->failed_step = fbSim_World(sim)->step;
  s->have_before = fbState_Snapshot(sim, &s->before, s->why, sizeof s->why);
}

bool fbErrorStop_AfterStep(fbErrorStop *s, fbSim *sim, fbConsole *console)
{
  if (!s->on || !fbConsole_TakeFrame(console, sim)) {
    return false;
  }
  s->stopped = true;
  return true;
}

bool fbErrorStop_Rewind(fbErrorStop *s, fbSim *sim, fbConsole *console, char *err, size_t errlen)
{
  if (!s->have_before) {
    snprintf(err, errlen, "the state before step %llu was not kept: %s", (unsigned long long)s->failed_step,
             s->why[0] ? s->why : "stop on error was off");
    return false;
  }
  if (!fbState_Restore(sim, s->before.data, s->before.len, true, err, errlen)) {
    return false;
  }
  fbErrorStop_Leave(s, console);
  return true;
}

void fbErrorStop_Leave(fbErrorStop *s, fbConsole *console)
{
  s->stopped = false;
  fbConsole_DropFrame(console);
}
