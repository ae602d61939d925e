// perception.c — the flock-mates each agent sees (aggregates, lists, nearest), and radius queries, all through one cell iterator.
#include "perception.h"

#include <stdatomic.h>
#include <string.h>

#include "memory.h"
#include "rng.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FB_X86 1
#include <immintrin.h>
#endif

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
 * Monte Carlo neighbour sampling (Gamlen section 5: "each creature only has to look at a predefined
 * number of other creatures that are chosen at random", which makes the work per agent constant;
 * "however ... the collision avoidance section of the algorithm is still in the order O(N^2)": the
 * sample is for centring and matching, avoidance still sees every close one). A species with
 * vision.sample = k > 0 perceives, per agent i:
 *   1. every flock-mate in view closer than the separation radius (the collision-avoidance zone),
 *      in visiting order;
 *   2. then k of the other flock-mates in view (all of them, in visiting order, when there are no
 *      more than k), a uniformly random k-subset: draw t = 0 .. k-1 takes the r-th of those not yet
 *      taken, in visiting order, r = floor(u (F - t) / 2^32) for F far ones, u 32 random bits: the
 *      high then the low half of
 *          fbRng_Bits(seed, id_i, step, "sample" ^ t / 2)
 *      (each scaling biased by at most F / 2^32).
 * Pass 1 tests every candidate of the block, as without sampling (four at a time at the AVX2
 * level): the close ones go to the list, the far ones become bits, a word per piece of up to 64
 * candidates of a run. Pass 2 finds the r-th remaining bit by population counts. What this saves
 * is the sums over the flock-mates not drawn, and every rule's walk of them: with the grid,
 * Gamlen's O(N^2) search is already gone, and a uniform sample of those in view needs them all
 * found. Drawing candidates at random until k are far flock-mates (an earlier design: about
 * k T / F draws of T candidates, one at a time) cost twice the full pass at 20 in view.
 * The numbering depends on positions and ids only (agents are stored by (cell, id), grid.c), and
 * so do the random numbers, so the sample is the same on any thread count and storage order. The
 * list is the close ones then the drawn ones, and n, the centre, the mean velocity, the separation
 * sum and the nearest are summed over that list in its order: the close ones count in centring and
 * matching too, since they are perceived, and n stays the length of the list, for rules that walk
 * it (a:neighbour, k = 1 .. a.n). The separation sum is then the very bits of perceiving everyone
 * (the same additions in the same order), and so is the nearest when it is within the separation
 * radius. Both levels list and draw the same, so they give the same bits; with k = 0 (the default)
 * none of it is compiled into the kernels that run.
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
  l->index = fbMemory_Grow(l->index, sizeof *l->index, (size_t)cap);
  l->dx = fbMemory_Grow(l->dx, sizeof *l->dx, (size_t)cap);
  l->dy = fbMemory_Grow(l->dy, sizeof *l->dy, (size_t)cap);
  l->dist = fbMemory_Grow(l->dist, sizeof *l->dist, (size_t)cap);
  l->capacity = cap;
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

// ---- Monte Carlo sampling (see the top of the file) -----------------------------------------------

#define FB_SAMPLE_STREAM 0x73616d706c650000ULL  // "sample"

// Up to 64 consecutive candidates of one run of a sampling agent's block: bit b stands for agent
// first + b, set when it is a far flock-mate.
typedef struct fbFarWord {
  uint64_t bits;
  int first, run;  // run: the index of its run in the list's runs
} fbFarWord;

// One sampling agent: what it tests each candidate against, and its random numbers.
typedef struct Sampler {
  const fbPerceptionInput *in;
  int self;
  uint32_t sees;
  double x, y, hx, hy, r, r2, cosv, sep, W, H;
  bool all_round, shifted, filter;
  uint64_t prefix;  // fbRng_Prefix(seed, id_i, step)
  uint64_t draws;   // random numbers taken so far: the stream of the next one
} Sampler;

// Whether agent j, seen through run, is a flock-mate in view, with its offset and distance: the
// operations of perceive_agent's passes 1 and 2 in the same order (the same bits), combined without
// branching on them (a candidate passes about one time in three, unpredictably).
static inline bool in_view(const Sampler *s, const fbCellRun *run, int j, double *dx, double *dy, double *dist)
{
  const fbPerceptionInput *in = s->in;
  double ox = in->px[j] - s->x, oy = in->py[j] - s->y;
  if (s->shifted) {
    ox = run->min_image ? fbGrid_MinImage(ox, s->W) : ox + run->sx;
    oy = run->min_image ? fbGrid_MinImage(oy, s->H) : oy + run->sy;
  }
  const double d2 = ox * ox + oy * oy, d = sqrt(d2);
  bool ok = (d2 <= s->r2) & (j != s->self);
  if (s->filter) {
    ok &= ((s->sees >> in->species[j]) & 1u) & (in->active == NULL || in->active[j]);
  }
  if (!s->all_round) {
    ok &= ox * s->hx + oy * s->hy >= d * s->cosv;
  }
  *dx = ox;
  *dy = oy;
  *dist = d;
  return ok;
}

// 64 random bits, the next of the agent's stream.
static inline uint64_t next_bits(Sampler *s) { return fbRng_Stream(s->prefix, FB_SAMPLE_STREAM ^ s->draws++); }

// Uniform in [0, n) from 32 random bits, n < 2^32: scaled (Lemire), biased by at most n / 2^32.
static inline long scale_below(uint32_t bits, long n) { return (long)(((uint64_t)bits * (uint64_t)n) >> 32); }

// Entry n of the list: agent j at offset (dx, dy), dist away.
static inline void put_entry(fbNeighbourList *l, long n, int j, double dx, double dy, double dist)
{
  l->index[n] = j;
  l->dx[n] = dx;
  l->dy[n] = dy;
  l->dist[n] = dist;
}

// The non-empty runs of the agent's block into l->run, and as many words as their pieces of up to 64
// candidates need in l->far; returns how many runs, with the candidates they hold in *total.
static int block_runs(fbBlock *b, fbNeighbourList *l, long *total)
{
  fbCellRun run;
  int runs = 0;
  long words = 0;
  *total = 0;
  if (l->run_capacity == 0) {  // the array exists even for a block with no runs
    l->run_capacity = 32;
    l->run = fbMemory_Grow(l->run, sizeof *l->run, (size_t)l->run_capacity);
  }
  while (fbBlock_Next(b, &run)) {
    if (run.end == run.begin) {
      continue;
    }
    if (2 * runs + 2 > l->run_capacity) {  // room for the separation box's runs after them
      l->run_capacity = l->run_capacity > 0 ? 2 * l->run_capacity : 32;
      l->run = fbMemory_Grow(l->run, sizeof *l->run, (size_t)l->run_capacity);
    }
    *total += run.end - run.begin;
    l->run[runs++] = run;
    words += (run.end - run.begin + 63) / 64;
  }
  if (l->far_capacity < words) {
    l->far_capacity = (int)(words > 2L * l->far_capacity ? words : 2L * l->far_capacity);
    l->far = fbMemory_Grow(l->far, sizeof *l->far, (size_t)l->far_capacity);
  }
  return runs;
}

// Agent i's sampler and its block's runs, with room in the list for every candidate; false when
// it perceives nobody (inactive, blind, or seeing no species).
static bool sample_begin(const fbPerceptionInput *in, int i, int kx, int ky, fbNeighbourList *l, bool filter,
                         Sampler *s, fbBlock *b, int *nruns, long *total)
{
  const fbVision *vis = &in->vision[in->species[i]];
  const double r = vis->radius;
  if ((in->active != NULL && !in->active[i]) || !(r > 0.0) || vis->sees == 0) {
    return false;
  }
  *s = (Sampler){in, i, vis->sees, in->px[i], in->py[i], in->hx[i], in->hy[i], r, r * r, vis->cos_half_fov,
                 vis->separation_radius, in->grid->world_w, in->grid->world_h, vis->cos_half_fov <= -1.0,
                 in->grid->wrap, filter, fbRng_Prefix(in->seed, in->id[i], in->step), 0};
  fbBlock_BeginRings(b, in->grid, s->x, s->y, kx, ky);
  *nruns = block_runs(b, l, total);
  list_reserve(l, l->len + (int)*total + 1);
  return true;
}

/*
 * Pass 1 one candidate at a time: every candidate of the block tested in visiting order; a close
 * one appended to the list (each candidate written, the length advanced only for a close one), a
 * far one marked by its bit in its piece's word (none with nfar NULL: the close ones alone).
 * Returns how many words.
 */
static long test_block(const Sampler *s, const fbCellRun *runs, int nruns, fbNeighbourList *l, long *len,
                       long *nfar)
{
  long n = *len, f = 0, words = 0;
  for (int q = 0; q < nruns; ++q) {
    const fbCellRun *run = &runs[q];
    for (int first = run->begin; first < run->end; first += 64) {
      const int end = run->end - first < 64 ? run->end : first + 64;
      uint64_t bits = 0;
      for (int j = first; j < end; ++j) {
        double dx, dy, dist;
        const bool seen = in_view(s, run, j, &dx, &dy, &dist), close = dist < s->sep;
        put_entry(l, n, j, dx, dy, dist);
        n += seen & close;
        const uint64_t is_far = seen & !close;
        bits |= is_far << (j - first);
        f += (long)is_far;
      }
      if (nfar != NULL) {
        l->far[words++] = (fbFarWord){bits, first, q};
      }
    }
  }
  *len = n;
  if (nfar != NULL) {
    *nfar = f;
  }
  return words;
}

// The position of the r-th set bit of w (r counted from 0, below the bits set): a byte at a time,
// then bit by bit.
static inline int nth_bit(uint64_t w, long r)
{
  int base = 0;
  for (long c; r >= (c = __builtin_popcountll(w & 0xff)); w >>= 8, base += 8) {
    r -= c;
  }
  for (; r > 0; --r) {
    w &= w - 1;
  }
  return base + __builtin_ctzll(w);
}

// Appends the far flock-mate of bit b of word w: its offset and distance as pass 1 took them.
static inline void take_far(const Sampler *s, const fbCellRun *runs, const fbFarWord *w, int b, fbNeighbourList *l,
                            long *len)
{
  double dx, dy, dist;
  in_view(s, &runs[w->run], w->first + b, &dx, &dy, &dist);
  put_entry(l, (*len)++, w->first + b, dx, dy, dist);
}

/*
 * Pass 2: k of the nfar far flock-mates, each uniform among those not yet taken. Draw t (t = 0 ..
 * k - 1) takes the r-th remaining one in visiting order, r = floor(u (nfar - t) / 2^32), u the high
 * half of stream draw t / 2 for even t, its low half for odd t. Taking each uniformly among the rest
 * makes the k a uniformly random k-subset (each scaling biased by at most nfar / 2^32). With no
 * more than k, all of them, in visiting order, and no random number.
 */
static inline __attribute__((always_inline)) void pick_far(Sampler *s, const fbCellRun *runs, long words, long k,
                                                           long nfar, fbNeighbourList *l, long *len)
{
  fbFarWord *far = l->far;
  if (nfar <= k) {
    for (long w = 0; w < words; ++w) {
      for (uint64_t bits = far[w].bits; bits != 0; bits &= bits - 1) {
        take_far(s, runs, &far[w], __builtin_ctzll(bits), l, len);
      }
    }
    return;
  }
  uint64_t bits = 0;
  for (long t = 0; t < k; ++t) {
    bits = (t & 1) ? bits << 32 : next_bits(s);  // the high half, then the low
    long r = scale_below((uint32_t)(bits >> 32), nfar - t), w = 0;
    for (long c; r >= (c = __builtin_popcountll(far[w].bits)); ++w) {
      r -= c;
    }
    const int b = nth_bit(far[w].bits, r);
    far[w].bits &= ~(1ull << b);
    take_far(s, runs, &far[w], b, l, len);
  }
}

// The sums over the listed flock-mates [first, len), in list order: the close ones, then the far.
static Seen sum_listed(const fbPerceptionInput *in, const fbNeighbourList *l, long first, long len, double sep)
{
  Seen sum = {0, (int)first, 0, 0, 0, 0, 0, 0, INFINITY, 0};
  for (long h = first; h < len; ++h) {
    const int j = l->index[h];
    const double dx = l->dx[h], dy = l->dy[h], dist = l->dist[h];
    sum.n++;
    sum.sdx += dx;
    sum.sdy += dy;
    sum.svx += in->vx[j];
    sum.svy += in->vy[j];
    if (dist < sep) {
      sum.sepx -= dx;
      sum.sepy -= dy;
    }
    if (dist < sum.best || (dist == sum.best && in->id[j] < sum.best_id)) {
      sum.best = dist;
      sum.best_id = in->id[j];
    }
  }
  return sum;
}

// After pass 1 (the close ones listed from first to len, nfar far ones marked): pass 2, the sums.
static inline __attribute__((always_inline)) void sample_end(Sampler *s, long words, long nfar, long first,
                                                             long len, bool keep_list, fbNeighbourList *l,
                                                             Seen *out)
{
  const fbVision *vis = &s->in->vision[s->in->species[s->self]];
  pick_far(s, l->run, words, vis->sample, nfar, l, &len);
  *out = sum_listed(s->in, l, first, len, vis->separation_radius);
  l->len = keep_list ? (int)len : (int)first;
}

// ---- Gamlen's looks (vision.sampling = "gamlen") ----

// The cell column (or row) of coordinate v along an axis of n cells, clamped as grid.c clamps.
static inline int clamped_cell(double v, double inv, int n)
{
  const double f = v * inv;
  return !(f >= 0.0) ? 0 : f >= n ? n - 1 : (int)f;
}

/*
 * The runs holding every flock-mate closer than the separation radius, in visiting order, into out:
 * the rows of the box [x - sep, x + sep] x [y - sep, y + sep] (a few cells for a separation under a
 * cell), not the whole block. The common block, one rectangle clear of the seams, is cut down to
 * the box (the box is inside it: sep <= r), padded by a billionth of the world as grid.c pads it,
 * so that rounding in x - sep drops no cell; any other block (across a seam: rare) is taken whole.
 * Returns how many runs.
 */
static int close_runs(const Sampler *s, const fbBlock *block, const fbCellRun *runs, int nruns, fbCellRun *out)
{
  if (!(s->sep > 0.0)) {
    return 0;
  }
  if (block->rects != 1 || block->min_image || block->rect[0].sx != 0.0 || block->rect[0].sy != 0.0) {
    for (int q = 0; q < nruns; ++q) {
      out[q] = runs[q];
    }
    return nruns;
  }
  const fbGrid *g = s->in->grid;
  const fbBlockRect *q = &block->rect[0];
  const double reach = s->sep < s->r ? s->sep : s->r, pad = reach + 1e-9 * (g->world_w + g->world_h + reach);
  const int c0 = clamped_cell(s->x - pad, g->inv_w, g->nx), c1 = clamped_cell(s->x + pad, g->inv_w, g->nx);
  const int r0 = clamped_cell(s->y - pad, g->inv_h, g->ny), r1 = clamped_cell(s->y + pad, g->inv_h, g->ny);
  const int col_lo = c0 > q->col_lo ? c0 : q->col_lo, col_hi = c1 < q->col_hi ? c1 : q->col_hi;
  int n = 0;
  for (int row = r0 > q->row_lo ? r0 : q->row_lo; row <= r1 && row <= q->row_hi; ++row) {
    const int begin = g->cell_start[row * g->nx + col_lo], end = g->cell_start[row * g->nx + col_hi + 1];
    if (end > begin) {
      out[n++] = (fbCellRun){begin, end, 0.0, 0.0, false};
    }
  }
  return n;
}

// Room for the block's candidates in l->slot.
static void slots_reserve(fbNeighbourList *l, long total)
{
  if (l->slot_capacity < total) {
    l->slot_capacity = (int)(total > 2L * l->slot_capacity ? total : 2L * l->slot_capacity);
    l->slot = fbMemory_Grow(l->slot, sizeof *l->slot, (size_t)l->slot_capacity);
  }
}

// The block's candidates in visiting order into l->slot, each as its agent and (above) its run.
static void fill_slots(fbNeighbourList *l, const fbCellRun *runs, int nruns)
{
  uint64_t *slot = l->slot;
  for (int q = 0; q < nruns; ++q) {
    const uint64_t tag = (uint64_t)q << 32 | (uint32_t)runs[q].begin;
    const int count = runs[q].end - runs[q].begin;
    for (int e = 0; e < count; ++e) {
      slot[e] = tag + (uint64_t)e;
    }
    slot += count;
  }
}

/*
 * Gamlen's looks (thesis 4.2: "each creature only has to look at a predefined number of other
 * creatures that are chosen at random"). He drew from the whole flock; here the draw is from the
 * flock-mates that could be in view at all: those within the radius along each axis, the square
 * [x - r, x + r] x [y - r, y + r] (a rule of geometry, not of the grid). The block's T positions
 * (its candidates in visiting order) are taken in a random order (Fisher-Yates, one step per
 * position taken: step t swaps position t with t + floor(u (T - t) / 2^32), u the high then the
 * low half of stream draw t / 2); a position that holds a flock-mate (its species seen, active,
 * not itself) within the square is a look, anything else is passed over. The first k looks of a
 * uniformly random order are a uniformly random k-subset of the flock-mates in the square (all of
 * them when there are no more than k). A look at one in view and not closer than the separation
 * radius is perceived (a close one is perceived already). The draws are the k looks and about
 * k (block area / 4 r^2 - 1) positions passed over, whatever the density; filling in the positions
 * is T stores (four at a time at the AVX2 level). In view are about fov / 360 x pi / 4 of the
 * looks (0.59 k at 270 degrees).
 */
static void gamlen_looks(Sampler *s, const fbCellRun *runs, long total, long k, fbNeighbourList *l, long *len)
{
  const fbPerceptionInput *in = s->in;
  uint64_t *slot = l->slot;  // filled by fill_slots
  long n = *len, looks = 0;
  uint64_t bits = 0;
  for (long t = 0; t < total && looks < k; ++t) {
    bits = (t & 1) ? bits << 32 : next_bits(s);  // the high half, then the low
    const long q = t + scale_below((uint32_t)(bits >> 32), total - t);
    const uint64_t drawn = slot[q];
    slot[q] = slot[t];
    const int j = (int)(uint32_t)drawn;
    double dx, dy, dist;
    const bool seen = in_view(s, &runs[drawn >> 32], j, &dx, &dy, &dist);
    bool mate = (fabs(dx) <= s->r) & (fabs(dy) <= s->r) & (j != s->self);
    if (s->filter) {
      mate &= ((s->sees >> in->species[j]) & 1u) & (in->active == NULL || in->active[j]);
    }
    put_entry(l, n, j, dx, dy, dist);  // written whether it is perceived or not: the next goes over it if not
    n += mate & seen & !(dist < s->sep);
    looks += mate;
  }
  *len = n;
}

// ---- one sampling agent ----

// Agent i of a species with vision.sample = k, one candidate at a time: every close flock-mate,
// then k drawn of the rest (exact), or those in view of k looks (Gamlen).
static void perceive_sampled(const fbPerceptionInput *in, int i, int kx, int ky, fbNeighbourList *l, Seen *out,
                             bool keep_list, bool filter)
{
  const fbVision *vis = &in->vision[in->species[i]];
  const long first = l->len;
  *out = (Seen){0, (int)first, 0, 0, 0, 0, 0, 0, INFINITY, 0};
  Sampler s = {0};
  fbBlock b;
  int nruns = 0;
  long total = 0, len = first, nfar = 0;
  if (!sample_begin(in, i, kx, ky, l, filter, &s, &b, &nruns, &total)) {
    return;
  }
  if (vis->gamlen) {
    fbCellRun *box = l->run + nruns;
    test_block(&s, box, close_runs(&s, &b, l->run, nruns, box), l, &len, NULL);
    slots_reserve(l, total);
    fill_slots(l, l->run, nruns);
    gamlen_looks(&s, l->run, total, vis->sample, l, &len);
    *out = sum_listed(in, l, first, len, vis->separation_radius);
    l->len = keep_list ? (int)len : (int)first;
    return;
  }
  const long words = test_block(&s, l->run, nruns, l, &len, &nfar);
  sample_end(&s, words, nfar, first, len, keep_list, l, out);
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

// Species with vision.sample: the nearest comes with the sample; the torus is a flag there, not a
// specialisation (the sampled kernel's loops are short, and not over every candidate).
#define PERCEIVE_SAMPLE(name, filter)                                                                 \
  static void name(const fbPerceptionInput *in, int i, int kx, int ky, fbAggregates *agg,             \
                   fbNeighbourList *l)                                                               \
  {                                                                                                   \
    Seen s;                                                                                           \
    perceive_sampled(in, i, kx, ky, l, &s, in->vision[in->species[i]].list, filter);                  \
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

// ---- the AVX2 level (see the top of the file) ------------------------------------------------------

#ifdef FB_X86
// Compiled for these only (not FMA: no multiply-add may be fused), and used where the CPU has them.
#define FB_AVX2 "avx2,bmi,bmi2,popcnt"
#define FB_AVX2_CODE __attribute__((target(FB_AVX2)))

// The perceiving agent and its species' vision, each in the four lanes of a register.
typedef struct Sight {
  __m256d x, y, hx, hy;  // position, unit heading
  __m256d r2, cosv;      // radius squared, cos(theta)
  __m256d sep;           // separation radius
  bool all_round;        // no view cone (cos(theta) <= -1)
  bool shifted;          // the grid wraps: add each run's shift, even a zero one
  int self;
} Sight;

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

// Up to 64 candidates of a run, tested: bit b of the masks stands for agent first + b.
typedef struct Bits {
  uint64_t seen, close;
} Bits;

#define FB_PIECE 64

/*
 * Step 1 on agents [first, first + len) of a run seen through shift (sx, sy), len at most 64:
 * four lanes at a time (_CMP_LE_OQ etc. are ordered: false for NaN), their offsets into tx, ty.
 * The last group of lanes may read up to 3 agents past the run (perceive_avx2 makes sure they
 * exist); their bits are dropped, and so is the agent's own.
 */
FB_AVX2_CODE static inline Bits test_run(const Sight *s, const double *px, const double *py, int first, int len,
                                         double sx, double sy, double *tx, double *ty)
{
  px += first;
  py += first;
  uint64_t seen = 0, close = 0;
  for (int k = 0; k < len; k += 4) {
    __m256d dx = _mm256_sub_pd(_mm256_loadu_pd(px + k), s->x), dy = _mm256_sub_pd(_mm256_loadu_pd(py + k), s->y);
    if (s->shifted) {
      dx = _mm256_add_pd(dx, _mm256_set1_pd(sx));
      dy = _mm256_add_pd(dy, _mm256_set1_pd(sy));
    }
    const __m256d d2 = _mm256_add_pd(_mm256_mul_pd(dx, dx), _mm256_mul_pd(dy, dy)), dist = _mm256_sqrt_pd(d2);
    __m256d in_view = _mm256_cmp_pd(d2, s->r2, _CMP_LE_OQ);
    if (!s->all_round) {
      const __m256d ahead = _mm256_add_pd(_mm256_mul_pd(dx, s->hx), _mm256_mul_pd(dy, s->hy));
      in_view = _mm256_and_pd(in_view, _mm256_cmp_pd(ahead, _mm256_mul_pd(dist, s->cosv), _CMP_GE_OQ));
    }
    seen |= (uint64_t)_mm256_movemask_pd(in_view) << k;
    close |= (uint64_t)_mm256_movemask_pd(_mm256_cmp_pd(dist, s->sep, _CMP_LT_OQ)) << k;
    _mm256_storeu_pd(tx + k, dx);
    _mm256_storeu_pd(ty + k, dy);
  }
  seen = _bzhi_u64(seen, (unsigned)len);
  if ((unsigned)(s->self - first) < (unsigned)len) {
    seen &= ~(1ull << (s->self - first));
  }
  return (Bits){seen, close & seen};
}

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
 * A sampling agent's pass 1 four lanes at a time: test_run on every run given, pieces of up to 64;
 * the species and activity filter on the survivors; the close ones appended in visiting order with
 * their distance taken as the scalar pass takes it (sqrt(dx dx + dy dy)); the far ones' bits in
 * their piece's word (none with nfar NULL: Gamlen's looks test only the separation cells here).
 * The same list and words as test_block.
 */
FB_AVX2_CODE static long test_block_avx2(const Sampler *s, const Sight *sight, const fbCellRun *runs, int nruns,
                                         fbNeighbourList *l, long *len, long *nfar)
{
  const fbPerceptionInput *in = s->in;
  double tx[FB_PIECE], ty[FB_PIECE];
  long n = *len, f = 0, words = 0;
  for (int q = 0; q < nruns; ++q) {
    const fbCellRun *run = &runs[q];
    for (int first = run->begin; first < run->end; first += FB_PIECE) {
      const int count = run->end - first < FB_PIECE ? run->end - first : FB_PIECE;
      Bits t = test_run(sight, in->px, in->py, first, count, run->sx, run->sy, tx, ty);
      for (uint64_t bits = s->filter ? t.seen : 0; bits != 0; bits &= bits - 1) {
        const int b = __builtin_ctzll(bits), j = first + b;
        if (!((s->sees >> in->species[j]) & 1u) || (in->active != NULL && !in->active[j])) {
          t.seen &= ~(1ull << b);
          t.close &= ~(1ull << b);
        }
      }
      for (uint64_t bits = t.close; bits != 0; bits &= bits - 1) {
        const int b = __builtin_ctzll(bits);
        put_entry(l, n++, first + b, tx[b], ty[b], sqrt(tx[b] * tx[b] + ty[b] * ty[b]));
      }
      if (nfar != NULL) {
        const uint64_t far_bits = t.seen & ~t.close;
        l->far[words++] = (fbFarWord){far_bits, first, q};
        f += (long)_mm_popcnt_u64(far_bits);
      }
    }
  }
  *len = n;
  if (nfar != NULL) {
    *nfar = f;
  }
  return words;
}

// fill_slots four at a time: the same values.
FB_AVX2_CODE static void fill_slots_avx2(fbNeighbourList *l, const fbCellRun *runs, int nruns)
{
  uint64_t *slot = l->slot;
  const __m256i step = _mm256_set_epi64x(3, 2, 1, 0), four = _mm256_set1_epi64x(4);
  for (int q = 0; q < nruns; ++q) {
    const int count = runs[q].end - runs[q].begin;
    __m256i v = _mm256_add_epi64(_mm256_set1_epi64x((long long)((uint64_t)q << 32 | (uint32_t)runs[q].begin)), step);
    int e = 0;
    for (; e + 4 <= count; e += 4, v = _mm256_add_epi64(v, four)) {
      _mm256_storeu_si256((__m256i *)(slot + e), v);
    }
    for (; e < count; ++e) {
      slot[e] = ((uint64_t)q << 32 | (uint32_t)runs[q].begin) + (uint64_t)e;
    }
    slot += count;
  }
}

// Whether four lanes may test runs [0, n): none takes the nearest image point by point, and none
// ends within 3 of the last agent (the last group of lanes reads up to 3 past its run).
static inline bool lanes_fit(const fbCellRun *runs, int n, int count)
{
  bool fit = true;
  for (int q = 0; q < n; ++q) {
    fit &= !runs[q].min_image & (runs[q].end + 3 <= count);
  }
  return fit;
}

// Agent i of a sampling species at this level; false, having listed nothing, for a block left to
// the plain C kernel (one with min_image, or whose lanes would read past the last agent).
FB_AVX2_CODE static bool sample_avx2(const fbPerceptionInput *in, int i, const Plan *p, fbAggregates *agg,
                                     fbNeighbourList *l)
{
  const fbVision *vis = &in->vision[in->species[i]];
  const long first = l->len;
  Seen seen = {0, (int)first, 0, 0, 0, 0, 0, 0, INFINITY, 0};
  Sampler s = {0};
  fbBlock b;
  int nruns = 0;
  long total = 0, len = first, nfar = 0;
  if (sample_begin(in, i, p->kx, p->ky, l, p->filter, &s, &b, &nruns, &total)) {
    fbCellRun *box = l->run + nruns;
    const int nbox = vis->gamlen ? close_runs(&s, &b, l->run, nruns, box) : 0;
    if (vis->gamlen ? !lanes_fit(box, nbox, in->count) : !lanes_fit(l->run, nruns, in->count)) {
      return false;
    }
    const Sight sight = {_mm256_set1_pd(s.x), _mm256_set1_pd(s.y), _mm256_set1_pd(s.hx), _mm256_set1_pd(s.hy),
                         _mm256_set1_pd(s.r2), _mm256_set1_pd(s.cosv), _mm256_set1_pd(s.sep), s.all_round,
                         s.shifted, i};
    if (vis->gamlen) {
      test_block_avx2(&s, &sight, box, nbox, l, &len, NULL);
      slots_reserve(l, total);
      fill_slots_avx2(l, l->run, nruns);
      gamlen_looks(&s, l->run, total, vis->sample, l, &len);
      seen = sum_listed(in, l, first, len, vis->separation_radius);
      l->len = vis->list ? (int)len : (int)first;
    } else {
      const long words = test_block_avx2(&s, &sight, l->run, nruns, l, &len, &nfar);
      sample_end(&s, words, nfar, first, len, vis->list, l, &seen);
    }
  }
  store(agg, i, &seen, in->px[i], in->py[i]);
  return true;
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
    return sample_avx2(in, i, p, agg, l);
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
    perceive_sampled(in, i, kx, ky, list, &s, true, true);
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
