// sampling.c — Monte Carlo neighbour sampling (vision.sample): every close flock-mate and k of the others, exact or by Gamlen's looks.
#include "sampling.h"

#include "memory.h"
#include "rng.h"

/*
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
// operations of perceive_agent's passes 1 and 2 (perception.c) in the same order (the same bits),
// combined without branching on them (a candidate passes about one time in three, unpredictably).
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
void fbSampling_Perceive(const fbPerceptionInput *in, int i, int kx, int ky, fbNeighbourList *l, Seen *out,
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

// ---- the AVX2 level (perception.c, top; test_run in perception_kernels.h) ------------------------------

#ifdef FB_X86
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
// Not inlined into perception's AVX2 loop (which LTO's flatten would do across the files): inlined there,
// it changed how that loop's registers were allocated, +40 instructions per agent-step of a flock that
// does not sample (callgrind, docs/speed.md); a call per sampled agent costs far less. Flattened
// itself, as that loop's flatten did to it: without, +370 instructions per agent-step of a sample.
__attribute__((flatten, noinline)) FB_AVX2_CODE bool fbSampling_PerceiveAvx2(const fbPerceptionInput *in, int i, int kx,
                                                                             int ky, bool filter, fbAggregates *agg,
                                                                             fbNeighbourList *l)
{
  const fbVision *vis = &in->vision[in->species[i]];
  const long first = l->len;
  Seen seen = {0, (int)first, 0, 0, 0, 0, 0, 0, INFINITY, 0};
  Sampler s = {0};
  fbBlock b;
  int nruns = 0;
  long total = 0, len = first, nfar = 0;
  if (sample_begin(in, i, kx, ky, l, filter, &s, &b, &nruns, &total)) {
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
#endif
