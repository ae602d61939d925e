// orca_stage.c — the ORCA stage of a step: neighbours from the grid, obstacles nearby, the new steering (see orca_stage.h).
#include "orca_stage.h"

#include <string.h>

#include "radius_query.h"

uint32_t fbOrcaStage_Species(const fbWorld *w)
{
  uint32_t on = 0;
  for (int s = 0; s < w->species_count; ++s) {
    on |= w->species[s].orca.on ? 1u << s : 0u;
  }
  return on;
}

double fbOrcaStage_Reach(const fbWorld *w)
{
  double reach = 0.0;
  for (int s = 0; s < w->species_count; ++s) {
    reach = w->species[s].orca.on ? fmax(reach, w->species[s].orca.distance) : reach;
  }
  return reach;
}

fbOrcaStage fbOrcaStage_Begin(fbWorld *w, const fbPerceptionInput *in, int inspect, fbOrcaPlan *plan, bool *planned)
{
  uint32_t solid = 0;
  for (int s = 0; s < w->species_count; ++s) {
    solid |= w->species[s].collide ? 1u << s : 0u;
  }
  uint32_t orca = fbOrcaStage_Species(w);
  *planned = false;
  return (fbOrcaStage){w, in, solid | orca, orca, inspect, plan, planned};
}

// ---- the nearest neighbours -----------------------------------------------------------------------

// The k nearest agents seen so far, nearest first; equally near ones by id, so that the choice
// depends neither on the order the grid visits them in nor on where they are stored.
typedef struct Nearest {
  const uint32_t *ids;
  int self, max, n;
  int index[FB_ORCA_MAX_NEIGHBOURS];
  uint32_t id[FB_ORCA_MAX_NEIGHBOURS];
  double dist[FB_ORCA_MAX_NEIGHBOURS];
  fbVec2 offset[FB_ORCA_MAX_NEIGHBOURS];
} Nearest;

static bool nearer(double d, uint32_t id, double than_d, uint32_t than_id)
{
  return d < than_d || (d == than_d && id < than_id);
}

// fbPerception_ForEach's visitor: an insertion into the sorted list, dropping the farthest when full.
static void keep_nearest(int j, fbVec2 offset, double distance, void *user)
{
  Nearest *k = user;
  uint32_t id = k->ids[j];
  if (j == k->self || k->max == 0 || (k->n == k->max && !nearer(distance, id, k->dist[k->n - 1], k->id[k->n - 1]))) {
    return;
  }
  int at = k->n < k->max ? k->n++ : k->n - 1;
  for (; at > 0 && nearer(distance, id, k->dist[at - 1], k->id[at - 1]); --at) {
    k->index[at] = k->index[at - 1];
    k->id[at] = k->id[at - 1];
    k->dist[at] = k->dist[at - 1];
    k->offset[at] = k->offset[at - 1];
  }
  k->index[at] = j;
  k->id[at] = id;
  k->dist[at] = distance;
  k->offset[at] = offset;
}

// The agents agent i avoids, as ORCA sees them: positions through the offsets the grid gives (the
// nearest image on a torus). Returns how many.
static int neighbours(const fbOrcaStage *st, int i, const fbSpecies *sp, fbOrcaBody *out)
{
  const fbAgents *a = &st->world->agents;
  Nearest near = {.ids = a->id, .self = i, .max = sp->orca.neighbours, .n = 0};
  if (near.max > FB_ORCA_MAX_NEIGHBOURS) {
    near.max = FB_ORCA_MAX_NEIGHBOURS;
  }
  uint32_t mask = st->avoided | 1u << a->species[i];
  fbPerception_ForEach(st->in, fbV(a->px[i], a->py[i]), sp->orca.distance, mask, keep_nearest, &near);
  for (int k = 0; k < near.n; ++k) {
    int j = near.index[k];
    const fbSpecies *them = &st->world->species[a->species[j]];
    bool avoids = (st->reciprocal >> a->species[j] & 1u) && !a->held[j];  // a held agent stays put
    out[k] = (fbOrcaBody){fbV(a->px[i] + near.offset[k].x, a->py[i] + near.offset[k].y), fbV(a->vx[j], a->vy[j]),
                          them->limits.body_radius, avoids};
  }
  return near.n;
}

// ---- one agent ------------------------------------------------------------------------------------

// What the integrator would make of the rules' steering without ORCA: v + trunc(a, max_accel) dt,
// within max_speed (integrate.c). Then an agent nothing threatens moves exactly as it would have.
static fbVec2 preferred_velocity(fbVec2 v, fbVec2 steer, const fbMotionLimits *lim, double dt)
{
  fbVec2 want = fbV_Add(v, fbV_Scale(fbV_Truncate(steer, lim->max_accel), dt));
  double speed = fbV_Length(want);
  return speed > lim->max_speed ? fbV_Scale(want, lim->max_speed / speed) : want;
}

static void avoid(const fbOrcaStage *st, int i)
{
  fbWorld *w = st->world;
  fbAgents *a = &w->agents;
  const fbSpecies *sp = &w->species[a->species[i]];
  const fbMotionLimits *lim = &sp->limits;
  fbOrcaBody self = {fbV(a->px[i], a->py[i]), fbV(a->vx[i], a->vy[i]), lim->body_radius, true};
  fbOrcaBody others[FB_ORCA_MAX_NEIGHBOURS];
  int n = neighbours(st, i, sp, others);
  int obstacles[FB_ORCA_MAX_OBSTACLES];
  double reach = sp->orca.obstacle_horizon * lim->max_speed + lim->body_radius;
  int m = w->obstacles.count ? fbObstacles_Query(&w->obstacles, self.p, reach, obstacles, FB_ORCA_MAX_OBSTACLES) : 0;
  fbOrcaSettings set = {sp->orca.time_horizon, sp->orca.obstacle_horizon, w->dt, lim->max_speed,
                        sp->orca.keep_right * FB_PI / 180.0};
  fbOrcaPlan plan;
  fbVec2 pref = preferred_velocity(self.v, fbV(a->ax[i], a->ay[i]), lim, w->dt);
  fbOrca_Plan(&plan, &self, pref, others, n, &w->obstacles, obstacles, m, &set);
  a->ax[i] = (plan.chosen.x - self.v.x) / w->dt;
  a->ay[i] = (plan.chosen.y - self.v.y) / w->dt;
  if (i == st->inspect) {
    *st->plan = plan;
    *st->planned = true;
  }
}

void fbOrcaStage_Run(const fbOrcaStage *st, int begin, int end)
{
  const fbAgents *a = &st->world->agents;
  for (int i = begin; i < end; ++i) {
    if ((st->reciprocal >> a->species[i] & 1u) && a->active[i] && !a->held[i]) {
      avoid(st, i);
    }
  }
}

// ---- what the integrator does with it -------------------------------------------------------------

bool fbOrcaStage_Check(const fbWorld *w, int s, char *msg, size_t len)
{
  const fbSpecies *sp = &w->species[s];
  const fbMotionLimits *lim = &sp->limits;
  double needed = 2.0 * lim->max_speed / w->dt;  // from one side of the speed disc to the other in a step
  if (!sp->orca.on) {
    return true;
  }
  if (w->update != FB_UPDATE_SEMI_IMPLICIT) {
    snprintf(msg, len, "world.update is euler: agents move by last step's velocity, a step behind ORCA's choice "
                       "(set world.update = \"semi_implicit\")");
  } else if (lim->max_accel < needed) {
    snprintf(msg, len, "max_accel %g may clip ORCA's change of velocity (up to 2 max_speed / dt = %g)",
             lim->max_accel, needed);
  } else if (lim->min_speed > 0.0) {
    snprintf(msg, len, "min_speed %g speeds up agents ORCA slows down", lim->min_speed);
  } else if (lim->max_turn < FB_PI) {
    snprintf(msg, len, "max_turn limits the turns ORCA asks for");
  } else {
    return true;
  }
  return false;
}
