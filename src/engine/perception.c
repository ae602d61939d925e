// perception.c — the flock-mates each agent sees (aggregates, lists, nearest), and radius queries, all through one cell iterator.
#include "perception.h"

#include <string.h>

/*
 * Field of view without trigonometry (Gompert 9.3.4: store the cosine of the viewing angle;
 * Bourg ch. 4: wide, limited and narrow views). With h the unit heading and theta the half
 * angle of the view cone, a flock-mate at offset d is in view when the angle between d and h
 * is at most theta, i.e. d . h = |d| cos(angle) >= |d| cos(theta). The species stores
 * cos(theta) once, so the test is one dot product and one multiply: 360 degrees is
 * cos = -1 (everything passes), 270 degrees cos(135) = -0.707 (a blind wedge behind),
 * 180 degrees cos = 0 (the half-plane ahead), 90 degrees cos(45) = 0.707. |d| is computed only
 * for candidates already inside the radius (compared squared, d . d <= r^2). A coincident
 * flock-mate (d = 0) gives 0 >= 0 and is seen, at distance 0.
 *
 * Per agent i, two passes over the block of cells round it (grid.h):
 *   1. every candidate j of a run is written to the free tail of the list as (j, d, d . d), and
 *      the write position advances only when d . d <= r^2 (false for a NaN position). No branch
 *      depends on the data, and positions are read in sequence, the agents being in cell order.
 *   2. the survivors (about half the candidates of a block of half-radius cells) are filtered:
 *      j != i, the species bit of j in `sees`, j active, then the view cone with |d| = sqrt(d . d).
 *      A seen j adds to the sums: n, sum d, sum v_j, and sum (-d) when |d| is below the
 *      separation radius (Parker rule 2).
 * Then centre = p_i + (sum d) / n (on a torus the mean offset, not the mean position, is what
 * makes sense across the seam) and mean velocity = (sum v) / n. Only what the species' rules
 * read is kept: the list (compacted in place, the write index never passing the read index)
 * when a rule walks flock-mates, the nearest distance (ties to the lower id) when one reads it.
 * Sums run in visiting order, (cell, id), which depends only on positions and ids, so they are
 * the same on any thread count and for any storage order.
 */

static void *grow(void *p, size_t elem, size_t n)
{
  void *q = realloc(p, elem * (n > 0 ? n : 1));
  FB_ASSERT(q != NULL);
  return q;
}

void fbAggregates_Reserve(fbAggregates *a, int count)
{
  if (a->capacity >= count) {
    return;
  }
  size_t n = (size_t)count;
  a->n = grow(a->n, sizeof *a->n, n);
  a->cx = grow(a->cx, sizeof *a->cx, n);
  a->cy = grow(a->cy, sizeof *a->cy, n);
  a->avx = grow(a->avx, sizeof *a->avx, n);
  a->avy = grow(a->avy, sizeof *a->avy, n);
  a->sx = grow(a->sx, sizeof *a->sx, n);
  a->sy = grow(a->sy, sizeof *a->sy, n);
  a->nearest = grow(a->nearest, sizeof *a->nearest, n);
  a->first = grow(a->first, sizeof *a->first, n);
  a->capacity = count;
}

void fbAggregates_Free(fbAggregates *a)
{
  free(a->n);
  free(a->cx);
  free(a->cy);
  free(a->avx);
  free(a->avy);
  free(a->sx);
  free(a->sy);
  free(a->nearest);
  free(a->first);
  memset(a, 0, sizeof *a);
}

void fbNeighbourList_Free(fbNeighbourList *l)
{
  free(l->index);
  free(l->dx);
  free(l->dy);
  free(l->dist);
  memset(l, 0, sizeof *l);
}

// Room for at least `need` entries (doubling, never shrinking).
static void list_reserve(fbNeighbourList *l, int need)
{
  if (l->capacity >= need) {
    return;
  }
  int cap = l->capacity > 0 ? l->capacity : 256;
  while (cap < need) {
    cap = cap > (1 << 29) ? need : 2 * cap;
  }
  l->index = grow(l->index, sizeof *l->index, (size_t)cap);
  l->dx = grow(l->dx, sizeof *l->dx, (size_t)cap);
  l->dy = grow(l->dy, sizeof *l->dy, (size_t)cap);
  l->dist = grow(l->dist, sizeof *l->dist, (size_t)cap);
  l->capacity = cap;
}

// Nearest periodic image of an offset component (fbGrid_Offset's rule, for runs without a shift).
static inline double min_image(double d, double size)
{
  if (d > 0.5 * size || d < -0.5 * size) {
    d -= size * floor(d / size + 0.5);
  }
  return d;
}

// What one agent saw: the sums of pass 2, the nearest, and where its list entries are.
typedef struct Seen {
  int n, first;
  double sdx, sdy, svx, svy, sepx, sepy;
  double best;
  uint32_t best_id;
} Seen;

// Offset from (x, y) to agent j through a run: shifted by the run, or the nearest image.
#define RUN_OFFSET(dx, dy, j)                                                  \
  do {                                                                         \
    dx = px[j] - x;                                                            \
    dy = py[j] - y;                                                            \
    if (shifted) {                                                             \
      dx = run.min_image ? min_image(dx, W) : dx + run.sx;                     \
      dy = run.min_image ? min_image(dy, H) : dy + run.sy;                     \
    }                                                                          \
  } while (0)

/*
 * Inlined into each specialisation below, so that its flags are constants there and its sums stay
 * in registers. kx, ky: rings of cells that reach the species' radius. filter: test the species
 * and activity of each survivor (off when the species sees every species and all are active).
 */
static inline __attribute__((always_inline)) void perceive_agent(const fbPerceptionInput *in, int i, int kx, int ky,
                                                                 fbNeighbourList *l, Seen *s, const bool shifted,
                                                                 const bool keep_list, const bool want_nearest,
                                                                 const bool filter)
{
  const fbVision *vis = &in->vision[in->species[i]];
  const double x = in->px[i], y = in->py[i], r = vis->radius;
  const long first = l->len;
  *s = (Seen){0, (int)first, 0, 0, 0, 0, 0, 0, INFINITY, 0};
  if ((in->active != NULL && !in->active[i]) || !(r > 0.0) || vis->sees == 0) {
    return;
  }
  const double r2 = r * r, cosv = vis->cos_half_fov, sep = vis->separation_radius;
  const bool all_round = cosv <= -1.0;
  const double hx = in->hx[i], hy = in->hy[i];
  const uint32_t sees = vis->sees;
  const uint8_t *species = in->species, *active = in->active;
  const double *px = in->px, *py = in->py, *vx = in->vx, *vy = in->vy;
  const double W = in->grid->world_w, H = in->grid->world_h;
  int n = 0;
  double sdx = 0.0, sdy = 0.0, svx = 0.0, svy = 0.0, sepx = 0.0, sepy = 0.0, best = INFINITY;
  uint32_t best_id = 0;
  long len = first;

  fbBlock b;
  fbCellRun run;
  fbBlock_BeginRings(&b, in->grid, x, y, kx, ky);
  while (fbBlock_Next(&b, &run)) {
    if (len + (run.end - run.begin) > l->capacity) {
      list_reserve(l, (int)len + (run.end - run.begin));
    }
    int *restrict hit = l->index + len;
    double *restrict hit2 = l->dist + len;
    long m = 0;
    for (int j = run.begin; j < run.end; ++j) {  // pass 1
      double dx, dy;
      RUN_OFFSET(dx, dy, j);
      const double d2 = dx * dx + dy * dy;
      hit[m] = j;
      hit2[m] = d2;
      m += d2 <= r2;  // false for NaN
    }
    for (long h = 0; h < m; ++h) {  // pass 2; kept entries never overtake the ones still to read
      const int j = hit[h];
      if (j == i || (filter && (!((sees >> species[j]) & 1u) || (active != NULL && !active[j])))) {
        continue;
      }
      double dx, dy;
      RUN_OFFSET(dx, dy, j);
      const double dist = sqrt(hit2[h]);
      if (!all_round && !(dx * hx + dy * hy >= dist * cosv)) {
        continue;
      }
      n++;
      sdx += dx;
      sdy += dy;
      svx += vx[j];
      svy += vy[j];
      if (dist < sep) {
        sepx -= dx;
        sepy -= dy;
      }
      if (want_nearest && (dist < best || (dist == best && in->id[j] < best_id))) {
        best = dist;
        best_id = in->id[j];
      }
      if (keep_list) {
        l->index[len] = j;
        l->dx[len] = dx;
        l->dy[len] = dy;
        l->dist[len] = dist;
        ++len;
      }
    }
  }
  *s = (Seen){n, (int)first, sdx, sdy, svx, svy, sepx, sepy, best, best_id};
  l->len = keep_list ? (int)len : (int)first;
}

static inline void store(fbAggregates *agg, int i, const Seen *s, double x, double y)
{
  agg->n[i] = s->n;
  agg->first[i] = s->first;
  agg->nearest[i] = s->best;
  if (s->n == 0) {
    agg->cx[i] = x;
    agg->cy[i] = y;
    agg->avx[i] = agg->avy[i] = agg->sx[i] = agg->sy[i] = 0.0;
    return;
  }
  const double inv = 1.0 / s->n;
  agg->cx[i] = x + s->sdx * inv;
  agg->cy[i] = y + s->sdy * inv;
  agg->avx[i] = s->svx * inv;
  agg->avy[i] = s->svy * inv;
  agg->sx[i] = s->sepx;
  agg->sy[i] = s->sepy;
}

// One specialisation of the kernel per combination the step needs, so that none of these choices
// is tested inside the loops over candidates.
#define PERCEIVE(name, shifted, keep_list, want_nearest, filter)                                       \
  static void name(const fbPerceptionInput *in, int i, int kx, int ky, fbAggregates *agg,             \
                   fbNeighbourList *l)                                                               \
  {                                                                                                   \
    Seen s;                                                                                           \
    perceive_agent(in, i, kx, ky, l, &s, shifted, keep_list, want_nearest, filter);                   \
    store(agg, i, &s, in->px[i], in->py[i]);                                                          \
  }
PERCEIVE(p0000, false, false, false, false)
PERCEIVE(p0001, false, false, false, true)
PERCEIVE(p0010, false, false, true, false)
PERCEIVE(p0011, false, false, true, true)
PERCEIVE(p0100, false, true, false, false)
PERCEIVE(p0101, false, true, false, true)
PERCEIVE(p0110, false, true, true, false)
PERCEIVE(p0111, false, true, true, true)
PERCEIVE(p1000, true, false, false, false)
PERCEIVE(p1001, true, false, false, true)
PERCEIVE(p1010, true, false, true, false)
PERCEIVE(p1011, true, false, true, true)
PERCEIVE(p1100, true, true, false, false)
PERCEIVE(p1101, true, true, false, true)
PERCEIVE(p1110, true, true, true, false)
PERCEIVE(p1111, true, true, true, true)

typedef void (*PerceiveFn)(const fbPerceptionInput *, int, int, int, fbAggregates *, fbNeighbourList *);

// How species s is perceived: its kernel and the rings of cells its radius needs.
typedef struct Plan {
  PerceiveFn kernel;
  int kx, ky;
} Plan;

static void plan(const fbPerceptionInput *in, Plan *plans)
{
  static const PerceiveFn kernels[16] = {p0000, p0001, p0010, p0011, p0100, p0101, p0110, p0111,
                                         p1000, p1001, p1010, p1011, p1100, p1101, p1110, p1111};
  uint32_t all = in->species_count > 0 && in->species_count < 32 ? (1u << in->species_count) - 1 : UINT32_MAX;
  for (int s = 0; s < FB_MAX_SPECIES && (in->species_count == 0 || s < in->species_count); ++s) {
    const fbVision *v = &in->vision[s];
    bool filter = in->active != NULL || in->species_count == 0 || (v->sees & all) != all;
    int k = (in->grid->wrap ? 8 : 0) + (v->list ? 4 : 0) + (v->nearest ? 2 : 0) + (filter ? 1 : 0);
    plans[s].kernel = kernels[k];
    fbGrid_Rings(in->grid, v->radius, &plans[s].kx, &plans[s].ky);
  }
}

void fbPerceive(const fbPerceptionInput *in, int begin, int end, fbAggregates *agg, fbNeighbourList *list)
{
  FB_ASSERT(begin >= 0 && end <= in->count && agg->capacity >= in->count && in->grid->count == in->count);
  list->len = 0;
  list_reserve(list, 1);  // the arrays exist even when nobody is perceived
  Plan plans[FB_MAX_SPECIES];
  plan(in, plans);
  for (int i = begin; i < end; ++i) {
    const Plan *p = &plans[in->species[i]];
    p->kernel(in, i, p->kx, p->ky, agg, list);
  }
}

int fbPerceive_One(const fbPerceptionInput *in, int i, fbNeighbourList *list, double *nearest)
{
  Seen s;
  list->len = 0;
  list_reserve(list, 1);
  int kx, ky;
  fbGrid_Rings(in->grid, in->vision[in->species[i]].radius, &kx, &ky);
  if (in->grid->wrap) {
    perceive_agent(in, i, kx, ky, list, &s, true, true, true, true);
  } else {
    perceive_agent(in, i, kx, ky, list, &s, false, true, true, true);
  }
  if (nearest != NULL) {
    *nearest = s.best;
  }
  return s.n;
}

// ---- radius queries -----------------------------------------------------------------------------

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

int fbPerception_Nearest(const fbPerceptionInput *in, fbVec2 p, double radius, uint32_t species_mask, int exclude,
                         fbVec2 *offset, double *distance)
{
  fbVec2 off = {0, 0};
  double best2 = INFINITY;
  int best = -1;
  if (radius >= 0.0 && in->grid->count > 0) {
    if (isinf(radius)) {
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
