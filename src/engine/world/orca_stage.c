// orca_stage.c — the ORCA stage of a step: neighbours from the grid, obstacles nearby, the new steering (see orca_stage.h).
#include "orca_stage.h"

#include <string.h>

#include "radius_query.h"
#include "rng.h"

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
  const uint8_t *species;
  const fbSpecies *kinds;  // the world's species, for their layers
  int mask;                // the avoiding agent's orca.mask
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
  if (j == k->self || k->max == 0 || (k->kinds[k->species[j]].orca.layers & k->mask) == 0 || (k->n == k->max && !nearer(distance, id, k->dist[k->n - 1], k->id[k->n - 1]))) {
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

/*
 * Rank (orca_stage.h, "who avoids whom"). Agent i outranks agent j when j stands and i does not,
 * or, both standing or both not, when i's species has the higher orca.priority. Standing is read
 * from the current speed, |v| < orca.standing_speed of the agent's own species, the one test both
 * agents of a pair can make alike (neither sees the other's preferred velocity): they agree on
 * who yields, and their shares of the avoidance sum to one. Returns +1 (i outranks j), -1 or 0.
 */
static bool standing(const fbWorld *w, int k)
{
  const fbAgents *a = &w->agents;
  double speed = fbV_Length(fbV(a->vx[k], a->vy[k]));
  return speed < w->species[a->species[k]].orca.standing_speed;
}

static int precedence(const fbWorld *w, int i, int j)
{
  bool si = standing(w, i), sj = standing(w, j);
  if (si != sj) {
    return si ? -1 : 1;
  }
  double pi = w->species[w->agents.species[i]].orca.priority, pj = w->species[w->agents.species[j]].orca.priority;
  return (pi > pj) - (pi < pj);
}

// The agents agent i avoids, as ORCA sees them: positions through the offsets the grid gives (the
// nearest image on a torus); only those on a layer its mask names. Returns how many.
static int neighbours(const fbOrcaStage *st, int i, const fbSpecies *sp, fbOrcaBody *out)
{
  const fbAgents *a = &st->world->agents;
  Nearest near = {.ids = a->id, .species = a->species, .kinds = st->world->species, .mask = sp->orca.mask,
                  .self = i, .max = sp->orca.neighbours, .n = 0};
  if (near.max > FB_ORCA_MAX_NEIGHBOURS) {
    near.max = FB_ORCA_MAX_NEIGHBOURS;
  }
  uint32_t mask = st->avoided | 1u << a->species[i];
  fbPerception_ForEach(st->in, fbV(a->px[i], a->py[i]), sp->orca.distance, mask, keep_nearest, &near);
  for (int k = 0; k < near.n; ++k) {
    int j = near.index[k];
    const fbSpecies *them = &st->world->species[a->species[j]];
    // It avoids back when it runs ORCA, is not held still, and its mask meets this agent's layers.
    bool avoids = (st->reciprocal >> a->species[j] & 1u) && !a->held[j] && (them->orca.mask & sp->orca.layers) != 0;
    out[k] = (fbOrcaBody){fbV(a->px[i] + near.offset[k].x, a->py[i] + near.offset[k].y), fbV(a->vx[j], a->vy[j]),
                          them->limits.body_radius, avoids, avoids ? precedence(st->world, i, j) : 0};
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

/*
 * Patience (orca.patience = T > 0). An agent is blocked in a step when ORCA lets it make good less
 * than half of the velocity its rules prefer, v_orca . v_pref < |v_pref|^2 / 2 (an agent whose rules
 * ask for no speed is never blocked). Blocked for T seconds in a row, it waits: it seeks velocity 0
 * instead of v_pref, still avoiding, so it stops pressing into whoever blocks it and, once slow,
 * stands aside like an agent at its goal when orca.standing_speed is set. After waiting
 * T (1 + u) seconds, u uniform in [0, 1) from (seed, id) so that two agents blocking each other do
 * not try again in the same step, it tries again. Waiting rather than turning aside: a side
 * to turn to is a route's choice (a:route), not the local stage's, and keep_right already turns
 * agents that must give way; what only patience can do is stop a push that gains nothing, the
 * deadlock at a door where each insists. The count lives in agents.orca_blocked, written only here
 * for the agent being planned: any thread may plan it.
 */
#define FB_PATIENCE_STREAM 0x7061746965636501ULL  // "patience": the extra wait of each agent

static double patience_wait(const fbWorld *w, int i, double patience)
{
  return patience * (1.0 + fbRng_Uniform(w->seed, w->agents.id[i], 0, FB_PATIENCE_STREAM));
}

// Whether agent i waits this step (blocked for orca.patience seconds, and not yet for the wait after).
static bool waiting(const fbWorld *w, int i, double patience)
{
  return patience > 0.0 && w->agents.orca_blocked[i] >= patience;
}

// Counts a blocked step, or starts again: after a step it was not blocked, or after the wait.
static void count_blocked(fbWorld *w, int i, double patience, fbVec2 preferred, fbVec2 chosen)
{
  double *blocked = &w->agents.orca_blocked[i];
  double want = fbV_Length2(preferred);
  bool stuck = want > 0.0 && fbV_Dot(chosen, preferred) < 0.5 * want;
  *blocked = patience > 0.0 && stuck ? *blocked + w->dt : 0.0;
  if (*blocked >= patience + patience_wait(w, i, patience)) {
    *blocked = 0.0;
  }
}

static void avoid(const fbOrcaStage *st, int i)
{
  fbWorld *w = st->world;
  fbAgents *a = &w->agents;
  const fbSpecies *sp = &w->species[a->species[i]];
  const fbMotionLimits *lim = &sp->limits;
  fbOrcaBody self = {fbV(a->px[i], a->py[i]), fbV(a->vx[i], a->vy[i]), lim->body_radius, true, 0};
  fbOrcaBody others[FB_ORCA_MAX_NEIGHBOURS];
  int n = neighbours(st, i, sp, others);
  int obstacles[FB_ORCA_MAX_OBSTACLES];
  double reach = sp->orca.obstacle_horizon * lim->max_speed + lim->body_radius;
  int m = w->obstacles.count ? fbObstacles_Query(&w->obstacles, self.p, reach, obstacles, FB_ORCA_MAX_OBSTACLES) : 0;
  fbOrcaSettings set = {sp->orca.time_horizon, sp->orca.obstacle_horizon, w->dt, lim->max_speed,
                        sp->orca.keep_right * FB_PI / 180.0};
  fbOrcaPlan plan;
  fbVec2 pref = preferred_velocity(self.v, fbV(a->ax[i], a->ay[i]), lim, w->dt);
  double patience = sp->orca.patience;
  fbVec2 seek = waiting(w, i, patience) ? fbV(0.0, 0.0) : pref;
  fbOrca_Plan(&plan, &self, seek, others, n, &w->obstacles, obstacles, m, &set);
  count_blocked(w, i, patience, pref, plan.chosen);
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
