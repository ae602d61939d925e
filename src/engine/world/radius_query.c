// radius_query.c — who is near a point, for rules, hooks and measures: through the grid's cells or the wanted species' members.
#include "radius_query.h"

#include <math.h>
#include <stdatomic.h>

// The offset from p to agent j as seen through a run.
static inline fbVec2 run_offset(const fbPerceptionInput *in, const fbCellRun *run, fbVec2 p, int j)
{
  if (run->min_image) {
    return fbGrid_Offset(in->grid, p, fbV(in->px[j], in->py[j]));
  }
  return fbV(in->px[j] - p.x + run->sx, in->py[j] - p.y + run->sy);
}

static inline bool wanted(const fbPerceptionInput *in, int j, uint32_t species_mask)
{
  const unsigned sp = in->species[j];
  return sp < 32u && ((species_mask >> sp) & 1u) && (in->active == NULL || in->active[j]);
}

// Nearest within a finite radius (index, squared distance, offset), ties to the lower id.
static int nearest_within(const fbPerceptionInput *in, fbVec2 p, double radius, uint32_t species_mask, int exclude,
                          fbVec2 *offset, double *best2)
{
  const double r2 = radius * radius;
  int best = -1;
  *best2 = INFINITY;
  fbBlock b;
  fbCellRun run;
  fbBlock_Begin(&b, in->grid, p.x, p.y, radius);
  while (fbBlock_Next(&b, &run)) {
    for (int j = run.begin; j < run.end; ++j) {
      const fbVec2 d = run_offset(in, &run, p, j);
      const double d2 = d.x * d.x + d.y * d.y;
      if (!(d2 <= r2) || j == exclude || d2 > *best2 || (d2 == *best2 && in->id[j] > in->id[best])) {
        continue;
      }
      if (wanted(in, j, species_mask)) {
        *best2 = d2;
        best = j;
        *offset = d;
      }
    }
  }
  return best;
}

/*
 * The same search over the wanted species' members alone (species_index.h), for when they are
 * fewer than the agents the block would test: 72 predators among 2 000 herd animals, say. It
 * gives the block's answer bit for bit. Ties go to the lower id whatever the order. Offsets: on
 * walls both are px - p.x; on a torus the block adds the shift of the image its run lies in,
 * while this takes the nearest image point by point (fbGrid_MinImage), and the two agree to the
 * bit for every agent within a radius under a quarter of the world (d + (-W) and d - W are the
 * same operation, and floor(d / W + 0.5) cannot be near a rounding edge there), so only such
 * radii come here on a torus.
 */
static int nearest_member(const fbPerceptionInput *in, fbVec2 p, double radius, uint32_t species_mask, int exclude,
                          fbVec2 *offset, double *best2)
{
  const fbSpeciesIndex *x = in->members;
  const double r2 = radius * radius;
  int best = -1;
  *best2 = INFINITY;
  for (int s = 0; s < x->species_count; ++s) {
    if (!((species_mask >> s) & 1u)) {
      continue;
    }
    for (int k = x->first[s]; k < x->first[s + 1]; ++k) {
      const int j = x->member[k];
      const fbVec2 d = fbGrid_Offset(in->grid, p, fbV(in->px[j], in->py[j]));
      const double d2 = d.x * d.x + d.y * d.y;
      if (!(d2 <= r2) || j == exclude || d2 > *best2 || (d2 == *best2 && in->id[j] > in->id[best])) {
        continue;
      }
      if (in->active == NULL || in->active[j]) {
        *best2 = d2;
        best = j;
        *offset = d;
      }
    }
  }
  return best;
}

// Agents the block round p of this radius holds: what nearest_within would test.
static int block_candidates(const fbGrid *g, fbVec2 p, double radius)
{
  int n = 0;
  fbBlock b;
  fbCellRun run;
  fbBlock_Begin(&b, g, p.x, p.y, radius);
  while (fbBlock_Next(&b, &run)) {
    n += run.end - run.begin;
  }
  return n;
}

/*
 * Whether scanning the members beats the grid. A finite radius compares the members with the
 * block's candidates, counted exactly (a few instructions a row). An infinite one searches ring by
 * ring until a hit: for M members spread over N agents the first hit comes after about N / M
 * candidates, several times over as the rings double, so the members win while M^2 <= 4 N.
 */
static _Atomic int member_scan = FB_MEMBERS_WHEN_CHEAPER;

void fbPerception_ScanMembers(fbMemberScan when) { atomic_store_explicit(&member_scan, (int)when, memory_order_relaxed); }

static bool members_cheaper(const fbPerceptionInput *in, fbVec2 p, double radius, uint32_t species_mask)
{
  const fbGrid *g = in->grid;
  const int when = atomic_load_explicit(&member_scan, memory_order_relaxed);
  // Within walls, agents past an edge (or on it: clamped ones sit at x = W) are in the border
  // cells, which the block covers whenever the disc reaches them, so the two agree. On a torus an
  // agent past an edge makes the block take images point by point: left to the block.
  if (when == FB_MEMBERS_NEVER || in->members == NULL || in->members->species_count != in->species_count ||
      (g->wrap && !g->inside)) {
    return false;
  }
  const double m = fbSpeciesIndex_Count(in->members, species_mask);
  const bool always = when == FB_MEMBERS_ALWAYS;
  if (isinf(radius)) {
    return !g->wrap && (always || m * m <= 4.0 * g->count);
  }
  if (g->wrap && !(radius < 0.25 * fmin(g->world_w, g->world_h))) {
    return false;
  }
  return always || m < block_candidates(g, p, radius);
}

int fbPerception_Nearest(const fbPerceptionInput *in, fbVec2 p, double radius, uint32_t species_mask, int exclude,
                         fbVec2 *offset, double *distance)
{
  fbVec2 off = {0, 0};
  double best2 = INFINITY;
  int best = -1;
  if (radius >= 0.0 && in->grid->count > 0) {
    if (members_cheaper(in, p, radius, species_mask)) {
      // The rings below stop at `far`: so does the scan.
      const double reach = isinf(radius) ? 2.0 * (in->grid->world_w + in->grid->world_h) : radius;
      best = nearest_member(in, p, reach, species_mask, exclude, &off, &best2);
    } else if (isinf(radius)) {
      // Outward ring by ring (doubling the radius): a hit inside a radius that the block covers
      // whole is the nearest of all, since anything nearer would be inside it too.
      const double far = 2.0 * (in->grid->world_w + in->grid->world_h);
      for (double r = in->grid->cell; best < 0 && r < 2.0 * far; r *= 2.0) {
        best = nearest_within(in, p, fmin(r, far), species_mask, exclude, &off, &best2);
      }
    } else {
      best = nearest_within(in, p, radius, species_mask, exclude, &off, &best2);
    }
  }
  if (offset != NULL) {
    *offset = off;
  }
  if (distance != NULL) {
    *distance = best >= 0 ? sqrt(best2) : INFINITY;
  }
  return best;
}

int fbPerception_ForEach(const fbPerceptionInput *in, fbVec2 p, double radius, uint32_t species_mask,
                         void (*visit)(int index, fbVec2 offset, double distance, void *user), void *user)
{
  if (!(radius >= 0.0) || in->grid->count == 0) {
    return 0;
  }
  const double r2 = radius * radius;
  int found = 0;
  fbBlock b;
  fbCellRun run;
  fbBlock_Begin(&b, in->grid, p.x, p.y, radius);
  while (fbBlock_Next(&b, &run)) {
    for (int j = run.begin; j < run.end; ++j) {
      const fbVec2 d = run_offset(in, &run, p, j);
      const double d2 = d.x * d.x + d.y * d.y;
      if (!(d2 <= r2) || !wanted(in, j, species_mask)) {
        continue;
      }
      ++found;
      if (visit != NULL) {
        visit(j, d, sqrt(d2), user);
      }
    }
  }
  return found;
}
