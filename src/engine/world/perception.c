// perception.c — the flock-mates each agent sees, once per step (aggregates, lists, nearest): the plain C kernel and the AVX2 level.
#include "perception.h"

#include <stdatomic.h>
#include <string.h>

#include "memory.h"
#include "perception_kernels.h"
#include "sampling.h"

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
 *
 * The same, vectorised: the AVX2 level (the two passes above are the plain C level, and the
 * reference it must match to the bit). Per run of the block (one contiguous range of the
 * structure-of-arrays positions), up to 64 candidates at a time:
 *   1. each candidate j is tested in a lane of its own, four at a time:
 *          d     = p_j - p_i (+ the run's shift on a torus)
 *          d2    = dx dx + dy dy,   |d| = sqrt(d2)
 *          seen  = d2 <= r^2 (false for NaN) and (all round, or dx hx + dy hy >= |d| cos(theta))
 *          close = |d| < separation radius
 *      giving one bit of `seen` and one of `close` per candidate, and its offset d; j = i is then
 *      dropped. No branch depends on the data, and sqrt is taken of every candidate: one
 *      instruction per four lanes, cheaper than choosing which.
 *   2. the bits are walked in order, as pass 2 walks the survivors: a seen j adds to n, sum d and
 *      sum v_j (and is tested against `sees` and activity first, when the species needs it), a
 *      close one adds -d to the separation sum; the nearest and the list as in pass 2.
 * Each line of step 1 is the IEEE operations of passes 1 and 2 in the same order (no lane depends
 * on another; nothing is fused into a multiply-add: the AVX2 code is compiled without FMA; sqrt is
 * correctly rounded), and the sums add in the same visiting order: two sums share one register
 * ((sum dx, sum dy), (sum vx, sum vy)), but each lane adds on its own. So both levels give the
 * same bits (as long as the build lets the compiler fuse no multiply-add, which the default flags
 * do not). The last group of lanes of a run reads up to 3 agents past it (their bits are
 * dropped), so a block whose last run ends within 3 of the last agent is left to the plain C
 * kernel, and so is one with min_image.
 *
 * A species with vision.sample perceives a sample of its flock-mates instead: sampling.c, at both
 * levels, called from the kernels below.
 */

void fbAggregates_Reserve(fbAggregates *a, int count)
{
  if (a->capacity >= count) {
    return;
  }
  size_t n = (size_t)count;
  a->n = fbMemory_Grow(a->n, sizeof *a->n, n);
  a->cx = fbMemory_Grow(a->cx, sizeof *a->cx, n);
  a->cy = fbMemory_Grow(a->cy, sizeof *a->cy, n);
  a->avx = fbMemory_Grow(a->avx, sizeof *a->avx, n);
  a->avy = fbMemory_Grow(a->avy, sizeof *a->avy, n);
  a->sx = fbMemory_Grow(a->sx, sizeof *a->sx, n);
  a->sy = fbMemory_Grow(a->sy, sizeof *a->sy, n);
  a->nearest = fbMemory_Grow(a->nearest, sizeof *a->nearest, n);
  a->first = fbMemory_Grow(a->first, sizeof *a->first, n);
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
  free(l->run);
  free(l->far);
  free(l->slot);
  memset(l, 0, sizeof *l);
}

// Offset from (x, y) to agent j through a run: shifted by the run, or the nearest image.
#define RUN_OFFSET(dx, dy, j)                                                  \
  do {                                                                         \
    dx = px[j] - x;                                                            \
    dy = py[j] - y;                                                            \
    if (shifted) {                                                             \
      dx = run.min_image ? fbGrid_MinImage(dx, W) : dx + run.sx;               \
      dy = run.min_image ? fbGrid_MinImage(dy, H) : dy + run.sy;               \
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

// Species with vision.sample: the nearest comes with the sample; the torus is a flag there, not a
// specialisation (the sampled kernel's loops are short, and not over every candidate).
#define PERCEIVE_SAMPLE(name, filter)                                                                 \
  static void name(const fbPerceptionInput *in, int i, int kx, int ky, fbAggregates *agg,             \
                   fbNeighbourList *l)                                                               \
  {                                                                                                   \
    Seen s;                                                                                           \
    fbSampling_Perceive(in, i, kx, ky, l, &s, in->vision[in->species[i]].list, filter);               \
    store(agg, i, &s, in->px[i], in->py[i]);                                                          \
  }
PERCEIVE_SAMPLE(s0, false)
PERCEIVE_SAMPLE(s1, true)

typedef void (*PerceiveFn)(const fbPerceptionInput *, int, int, int, fbAggregates *, fbNeighbourList *);

// How species s is perceived: its plain C kernel, the rings of cells its radius needs, and (for the
// SIMD levels) what its rules read besides the aggregates.
typedef struct Plan {
  PerceiveFn kernel;
  int kx, ky;
  bool keep_list, want_nearest, filter, sample;
} Plan;

static void plan(const fbPerceptionInput *in, Plan *plans)
{
  static const PerceiveFn kernels[16] = {p0000, p0001, p0010, p0011, p0100, p0101, p0110, p0111,
                                         p1000, p1001, p1010, p1011, p1100, p1101, p1110, p1111};
  static const PerceiveFn sampled[2] = {s0, s1};
  uint32_t all = in->species_count > 0 && in->species_count < 32 ? (1u << in->species_count) - 1 : UINT32_MAX;
  for (int s = 0; s < FB_MAX_SPECIES && (in->species_count == 0 || s < in->species_count); ++s) {
    const fbVision *v = &in->vision[s];
    bool filter = in->active != NULL || in->species_count == 0 || (v->sees & all) != all;
    int k = (in->grid->wrap ? 8 : 0) + (v->list ? 4 : 0) + (v->nearest ? 2 : 0) + (filter ? 1 : 0);
    plans[s].kernel = v->sample > 0 ? sampled[filter ? 1 : 0] : kernels[k];
    fbGrid_Rings(in->grid, v->radius, &plans[s].kx, &plans[s].ky);
    plans[s].sample = v->sample > 0;
    plans[s].keep_list = v->list;
    plans[s].want_nearest = v->nearest && v->sample == 0;  // with a sample, the nearest comes with it
    plans[s].filter = filter;
  }
}

// ---- the AVX2 level (see the top of the file; what sampling.c shares of it in perception_kernels.h) ---

#ifdef FB_X86
// Two sums in the two lanes of one register: (sum dx, sum dy) and the like. Each lane adds in
// visiting order, exactly as two separate doubles would.
typedef double Pair __attribute__((vector_size(16)));

// One agent's sums, run after run.
typedef struct Sums {
  int n;
  Pair d, v, sep;  // sum of offsets, of velocities, of -offset within the separation radius
  double best;     // the nearest (with its id)
  uint32_t best_id;
} Sums;

// One agent being perceived: what it sees, what its rules read of it, and what it saw so far.
typedef struct Agent {
  const fbPerceptionInput *in;
  Sight s;
  bool general;  // any of the three below: step 2 by take_run
  bool keep_list, want_nearest, filter;
  uint32_t sees;
  fbNeighbourList *l;
  long len;      // the list's length so far
  Sums sum;
} Agent;

// Step 2 for the aggregates alone: n, sum d and sum v in visiting order, then the separation sum.
FB_AVX2_CODE static inline void add_run(Sums *s, Bits t, const double *dx, const double *dy, const double *vx,
                                        const double *vy)
{
  s->n += (int)_mm_popcnt_u64(t.seen);
  for (uint64_t bits = t.seen; bits != 0; bits &= bits - 1) {
    const int b = __builtin_ctzll(bits);
    s->d += (Pair){dx[b], dy[b]};
    s->v += (Pair){vx[b], vy[b]};
  }
  for (uint64_t bits = t.close; bits != 0; bits &= bits - 1) {
    const int b = __builtin_ctzll(bits);
    s->sep -= (Pair){dx[b], dy[b]};
  }
}

// Step 2 with all the rest: the species and activity filter, the nearest (ties to the lower id),
// the list.
static __attribute__((noinline)) void take_run(Agent *a, int first, Bits t, const double *dx, const double *dy)
{
  const fbPerceptionInput *in = a->in;
  fbNeighbourList *l = a->l;
  if (a->len + FB_PIECE > l->capacity) {
    list_reserve(l, (int)a->len + FB_PIECE);
  }
  for (uint64_t bits = t.seen; bits != 0; bits &= bits - 1) {
    const int b = __builtin_ctzll(bits), j = first + b;
    if (a->filter && (!((a->sees >> in->species[j]) & 1u) || (in->active != NULL && !in->active[j]))) {
      t.close &= ~(1ull << b);
      continue;
    }
    const double dist = sqrt(dx[b] * dx[b] + dy[b] * dy[b]);  // as step 1 took it
    if (a->keep_list) {
      l->index[a->len] = j;
      l->dx[a->len] = dx[b];
      l->dy[a->len] = dy[b];
      l->dist[a->len++] = dist;
    }
    a->sum.n++;
    a->sum.d += (Pair){dx[b], dy[b]};
    a->sum.v += (Pair){in->vx[j], in->vy[j]};
    if (a->want_nearest && (dist < a->sum.best || (dist == a->sum.best && in->id[j] < a->sum.best_id))) {
      a->sum.best = dist;
      a->sum.best_id = in->id[j];
    }
  }
  for (uint64_t bits = t.close; bits != 0; bits &= bits - 1) {
    const int b = __builtin_ctzll(bits);
    a->sum.sep -= (Pair){dx[b], dy[b]};
  }
}

// Steps 1 and 2 on a run of more than 64 candidates (dense flocks), piece by piece, on a->sum.
FB_AVX2_CODE static __attribute__((noinline)) void long_run(Agent *a, fbCellRun run)
{
  double tx[FB_PIECE], ty[FB_PIECE];
  for (int first = run.begin; first < run.end; first += FB_PIECE) {
    const int len = run.end - first < FB_PIECE ? run.end - first : FB_PIECE;
    const Bits t = test_run(&a->s, a->in->px, a->in->py, first, len, run.sx, run.sy, tx, ty);
    if (a->general) {
      take_run(a, first, t, tx, ty);
    } else {
      add_run(&a->sum, t, tx, ty, a->in->vx + first, a->in->vy + first);
    }
  }
}

// Steps 1 and 2 on one run; the sums in registers (sum), unless general (then a->sum).
FB_AVX2_CODE static inline __attribute__((always_inline)) void one_run(Agent *a, Sums *sum, const Sight *s,
                                                                       const fbCellRun *run, const bool general)
{
  const int first = run->begin, len = run->end - run->begin;
  double tx[FB_PIECE], ty[FB_PIECE];
  if (len == 0) {
    return;
  }
  if (len > FB_PIECE) {
    if (!general) {
      a->sum = *sum;
    }
    long_run(a, *run);
    if (!general) {
      *sum = a->sum;
    }
    return;
  }
  const Bits t = test_run(s, a->in->px, a->in->py, first, len, run->sx, run->sy, tx, ty);
  if (general) {
    take_run(a, first, t, tx, ty);
  } else {
    add_run(sum, t, tx, ty, a->in->vx + first, a->in->vy + first);
  }
}

/*
 * Steps 1 and 2 over the runs of an agent's block. Nearly every block is one rectangle clear of
 * the seams (grid.c), its rows nx cells apart in cell_start: its runs are read through a pointer
 * into cell_start. Any other block goes through fbBlock_NextAt.
 */
FB_AVX2_CODE static inline __attribute__((always_inline)) void walk_runs(Agent *a, const fbBlock *b,
                                                                         const bool general)
{
  const Sight sight = a->s;  // a local: take_run could change what a points to, as far as the compiler knows
  Sums sum = a->sum;
  if (b->rects == 1) {
    const fbBlockRect *r = &b->rect[0];
    const int nx = b->g->nx, width = r->col_hi + 1 - r->col_lo;
    const int *start = b->g->cell_start + r->row_lo * nx + r->col_lo;
    for (int row = r->row_lo; row <= r->row_hi; ++row, start += nx) {
      const fbCellRun run = {start[0], start[width], r->sx, r->sy, false};
      one_run(a, &sum, &sight, &run, general);
    }
  } else {
    int q = b->q, row = b->row;
    fbCellRun run;
    while (fbBlock_NextAt(b, &q, &row, &run)) {
      one_run(a, &sum, &sight, &run, general);
    }
  }
  if (!general) {
    a->sum = sum;
  }
}

// The index after the last candidate of a block (the last run of each rectangle ends last).
static inline int block_end(const fbBlock *b)
{
  int end = 0;
  for (int q = 0; q < b->rects; ++q) {
    const fbBlockRect *r = &b->rect[q];
    const int e = b->g->cell_start[r->row_hi * b->g->nx + r->col_hi + 1];
    end = e > end ? e : end;
  }
  return end;
}

/*
 * Agent i. Returns false, having done nothing, for a block left to the plain C kernel: one with
 * min_image (the nearest image point by point), or one whose groups of lanes would read past the
 * last agent.
 */
FB_AVX2_CODE static inline bool perceive_avx2(const fbPerceptionInput *in, int i, const Plan *p, fbAggregates *agg,
                                              fbNeighbourList *l)
{
  if (p->sample) {
    return fbSampling_PerceiveAvx2(in, i, p->kx, p->ky, p->filter, agg, l);
  }
  const fbVision *vis = &in->vision[in->species[i]];
  const double x = in->px[i], y = in->py[i], r = vis->radius;
  const long first = l->len;
  Seen seen = {0, (int)first, 0, 0, 0, 0, 0, 0, INFINITY, 0};
  if ((in->active != NULL && !in->active[i]) || !(r > 0.0) || vis->sees == 0) {
    store(agg, i, &seen, x, y);
    return true;
  }
  fbBlock b;
  fbBlock_BeginRings(&b, in->grid, x, y, p->kx, p->ky);
  if (b.min_image || block_end(&b) + 3 > in->count) {
    return false;
  }
  Agent a = {in,
             {_mm256_set1_pd(x), _mm256_set1_pd(y), _mm256_set1_pd(in->hx[i]), _mm256_set1_pd(in->hy[i]),
              _mm256_set1_pd(r * r), _mm256_set1_pd(vis->cos_half_fov), _mm256_set1_pd(vis->separation_radius),
              vis->cos_half_fov <= -1.0, in->grid->wrap, i},
             p->keep_list || p->want_nearest || p->filter,
             p->keep_list,
             p->want_nearest,
             p->filter,
             vis->sees,
             l,
             first,
             {0, {0, 0}, {0, 0}, {0, 0}, INFINITY, 0}};
  if (a.general) {
    walk_runs(&a, &b, true);
  } else {
    walk_runs(&a, &b, false);
  }
  const Sums *m = &a.sum;
  seen = (Seen){m->n, (int)first, m->d[0], m->d[1], m->v[0], m->v[1], m->sep[0], m->sep[1], m->best, m->best_id};
  l->len = p->keep_list ? (int)a.len : (int)first;
  store(agg, i, &seen, x, y);
  return true;
}
#endif

// ---- the step: every agent at the best level ---------------------------------------------------------

// Agents [begin, end) at a level.
typedef void (*PerceiveRange)(const fbPerceptionInput *, int, int, const Plan *, fbAggregates *, fbNeighbourList *);

static void range_scalar(const fbPerceptionInput *in, int begin, int end, const Plan *plans, fbAggregates *agg,
                         fbNeighbourList *list)
{
  for (int i = begin; i < end; ++i) {
    const Plan *p = &plans[in->species[i]];
    p->kernel(in, i, p->kx, p->ky, agg, list);
  }
}

#ifdef FB_X86
// The AVX2 level where it can, the plain C kernel where it cannot; all inlined (flatten).
__attribute__((flatten)) FB_AVX2_CODE static void range_avx2(const fbPerceptionInput *in, int begin, int end,
                                                             const Plan *plans, fbAggregates *agg,
                                                             fbNeighbourList *list)
{
  for (int i = begin; i < end; ++i) {
    const Plan *p = &plans[in->species[i]];
    if (!perceive_avx2(in, i, p, agg, list)) {
      p->kernel(in, i, p->kx, p->ky, agg, list);
    }
  }
}
#endif

// The level perception runs at (fbPerception_UseSimd); read by every worker as it starts a range.
static _Atomic int simd_level = FB_SIMD_BEST;

// The best level at most `level` this CPU has, and its range function.
static fbSimd level_at_most(fbSimd level, PerceiveRange *range)
{
#ifdef FB_X86
  if (level >= FB_SIMD_AVX2 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
      __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt")) {
    *range = range_avx2;
    return FB_SIMD_AVX2;
  }
#endif
  (void)level;
  *range = range_scalar;
  return FB_SIMD_SCALAR;
}

// The level asked for: fbPerception_UseSimd's, else FB_SIMD=scalar in the environment, else the best.
static fbSimd level_asked(void)
{
  const fbSimd level = (fbSimd)atomic_load_explicit(&simd_level, memory_order_relaxed);
  const char *env = level == FB_SIMD_BEST ? getenv("FB_SIMD") : NULL;
  return env != NULL && strcmp(env, "scalar") == 0 ? FB_SIMD_SCALAR : level;
}

fbSimd fbPerception_UseSimd(fbSimd level)
{
  PerceiveRange range;
  atomic_store_explicit(&simd_level, (int)level, memory_order_relaxed);
  return level_at_most(level_asked(), &range);
}

void fbPerceive(const fbPerceptionInput *in, int begin, int end, fbAggregates *agg, fbNeighbourList *list)
{
  FB_ASSERT(begin >= 0 && end <= in->count && agg->capacity >= in->count && in->grid->count == in->count);
  list->len = 0;
  list_reserve(list, 1);  // the arrays exist even when nobody is perceived
  Plan plans[FB_MAX_SPECIES];
  plan(in, plans);
  PerceiveRange range;
  level_at_most(level_asked(), &range);
  range(in, begin, end, plans, agg, list);
}

int fbPerceive_One(const fbPerceptionInput *in, int i, fbNeighbourList *list, double *nearest)
{
  Seen s;
  list->len = 0;
  list_reserve(list, 1);
  int kx, ky;
  fbGrid_Rings(in->grid, in->vision[in->species[i]].radius, &kx, &ky);
  if (in->vision[in->species[i]].sample > 0) {
    fbSampling_Perceive(in, i, kx, ky, list, &s, true, true);
  } else if (in->grid->wrap) {
    perceive_agent(in, i, kx, ky, list, &s, true, true, true, true);
  } else {
    perceive_agent(in, i, kx, ky, list, &s, false, true, true, true);
  }
  if (nearest != NULL) {
    *nearest = s.best;
  }
  return s.n;
}
