// trails.c — where every agent was over the last seconds of simulated time, and its fading tail drawn.
#include "trails.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void fbTrails_Init(fbTrails *t)
{
  memset(t, 0, sizeof *t);
  t->seconds = FB_TRAIL_SECONDS_DEFAULT;
}

void fbTrails_Clear(fbTrails *t)
{
  memset(t->count, 0, sizeof t->count);
  t->filled = 0;
  t->newest = 0;
}

void fbTrails_Free(fbTrails *t)
{
  for (int k = 0; k < FB_TRAIL_SNAPSHOTS; ++k) {
    free(t->x[k]);
    free(t->y[k]);
  }
  double seconds = t->seconds;
  fbTrails_Init(t);
  t->seconds = seconds;
}

/*
 * A trail of T simulated seconds at time step dt spans T / dt steps. Keeping one snapshot every
 * k = ceil(T / dt / FB_TRAIL_SNAPSHOTS) steps covers it with at most FB_TRAIL_SNAPSHOTS snapshots,
 * each stamped with its step, so ages are exact even after the length (and so k) changes: a longer
 * trail grows as the old, closer snapshots are overwritten; a shorter one is cut when drawn.
 */
int fbTrails_Interval(double seconds, double dt)
{
  return dt > 0 ? (int)fmax(1, ceil(seconds / dt / FB_TRAIL_SNAPSHOTS - 1e-9)) : 1;
}

void fbTrails_SetSeconds(fbTrails *t, double seconds)
{
  t->seconds = fmin(FB_TRAIL_SECONDS_MAX, fmax(FB_TRAIL_SECONDS_MIN, seconds));
}

double fbTrails_Age(const fbTrails *t, const fbSim *sim)
{
  if (t->filled == 0) {
    return 0;
  }
  int oldest = (t->newest - t->filled + 1 + FB_TRAIL_SNAPSHOTS) % FB_TRAIL_SNAPSHOTS;
  return (double)(fbSim_World(sim)->step - t->step[oldest]) * fbSim_World(sim)->dt;
}

/*
 * Agents are stored in spatial order (world.h), which changes every step, so a snapshot is kept by
 * id instead: entry id - first_id holds agent id's position, NaN for an id not alive then. Finding
 * an agent in any snapshot is then one subtraction, whatever moved or died in between.
 */
void fbTrails_Record(fbTrails *t, const fbSim *sim)
{
  const fbAgents *a = &fbSim_World(sim)->agents;
  uint64_t now = fbSim_World(sim)->step;
  if (t->filled > 0 && now < t->step[t->newest]) {
    fbTrails_Clear(t);  // the sim went back (a restart)
  }
  uint64_t interval = (uint64_t)fbTrails_Interval(t->seconds, fbSim_World(sim)->dt);
  if (t->filled > 0 && now - t->step[t->newest] < interval) {
    return;
  }
  int k = (t->newest + 1) % FB_TRAIL_SNAPSHOTS;
  uint32_t lo = UINT32_MAX, hi = 0;
  for (int i = 0; i < a->count; ++i) {
    lo = a->id[i] < lo ? a->id[i] : lo;
    hi = a->id[i] > hi ? a->id[i] : hi;
  }
  int span = a->count > 0 ? (int)(hi - lo + 1) : 0;
  if (t->capacity[k] < span) {
    t->capacity[k] = span + span / 2 + 16;
    t->x[k] = realloc(t->x[k], (size_t)t->capacity[k] * sizeof *t->x[k]);
    t->y[k] = realloc(t->y[k], (size_t)t->capacity[k] * sizeof *t->y[k]);
    FB_ASSERT(t->x[k] != NULL && t->y[k] != NULL);
  }
  for (int j = 0; j < span; ++j) {
    t->x[k][j] = NAN;
  }
  for (int i = 0; i < a->count; ++i) {
    t->x[k][a->id[i] - lo] = (float)a->px[i];
    t->y[k][a->id[i] - lo] = (float)a->py[i];
  }
  t->first_id[k] = lo;
  t->count[k] = span;
  t->step[k] = now;
  t->newest = k;
  t->filled = t->filled < FB_TRAIL_SNAPSHOTS ? t->filled + 1 : FB_TRAIL_SNAPSHOTS;
}

// Where agent `id` was in snapshot k; false if it was not alive then.
static bool trail_point(const fbTrails *t, int k, uint32_t id, fbVec2 *p)
{
  uint32_t j = id - t->first_id[k];
  if (id < t->first_id[k] || j >= (uint32_t)t->count[k] || isnan(t->x[k][j])) {
    return false;
  }
  *p = fbV(t->x[k][j], t->y[k][j]);
  return true;
}

#define TRAIL_WIDTH 2.0f

// One agent's trail, newest piece first, fading to nothing at the trail's full length. The dark
// under-stroke (pass 0) is wider, so the coloured line (pass 1) reads on any ground.
void fbTrails_DrawAgent(const fbTrails *t, fbSplat *canvas, const fbSim *sim, const fbCamera *cam, int i,
                        uint32_t rgb, int pass)
{
  const fbWorld *w = fbSim_World(sim);
  const fbAgents *a = &w->agents;
  double jump = 0.5 * fmin(w->width, w->height);  // longer pieces are wraps across the edge
  float width = pass == 0 ? FB_TRAIL_UNDER_WIDTH : TRAIL_WIDTH;
  double opacity = pass == 0 ? 150 : 235;
  fbVec2 prev = fbV(a->px[i], a->py[i]);
  double prev_age = 0;
  bool joined = false;  // the previous piece was drawn and ends where this one starts
  for (int n = 0; n < t->filled && prev_age < t->seconds; ++n) {
    int k = (t->newest - n + FB_TRAIL_SNAPSHOTS) % FB_TRAIL_SNAPSHOTS;
    double age = (double)(w->step - t->step[k]) * w->dt;
    fbVec2 p;
    if (!trail_point(t, k, a->id[i], &p) || age < prev_age) {
      break;
    }
    fbVec2 end = p;
    if (age > t->seconds) {  // cut the last piece at the trail's length
      end = fbV_Add(prev, fbV_Scale(fbV_Sub(p, prev), (t->seconds - prev_age) / (age - prev_age)));
    }
    bool drawn = fabs(p.x - prev.x) < jump && fabs(p.y - prev.y) < jump;
    if (drawn) {
      double fade = 1.0 - 0.5 * (prev_age + fmin(age, t->seconds)) / t->seconds;
      fbVec2 s0 = fbCamera_ToScreen(cam, prev), s1 = fbCamera_ToScreen(cam, end);
      fbSplat_Line(canvas, (float)s0.x, (float)s0.y, (float)s1.x, (float)s1.y, width, rgb,
                   (int)(opacity * fade), joined);
    }
    joined = drawn;
    prev = p;
    prev_age = age;
  }
}
