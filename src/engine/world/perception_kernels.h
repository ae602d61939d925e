// perception_kernels.h — what perception.c and sampling.c share: the list's growth, an agent's sums and their store, the AVX2 test of a run.
#ifndef FB_PERCEPTION_KERNELS_H
#define FB_PERCEPTION_KERNELS_H

/*
 * The kernels two files of perception use: the per-agent perception (perception.c) and Monte Carlo
 * sampling (sampling.c). Kept here as static functions, not behind calls between the two files:
 * the AVX2 test of a run is the inner loop of both, and must be inlined into each kernel that runs
 * it, as it was when both lived in one file. For perception.c and sampling.c only (both call each
 * function here).
 */

#include <math.h>

#include "memory.h"
#include "perception_types.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FB_X86 1
#include <immintrin.h>
#endif

// Room for at least `need` entries (doubling, never shrinking). Static, not static inline, as it was
// in one file: marked inline, LTO inlined it into perception's AVX2 loop, whose registers then spilled
// (+27 instructions per agent-step, callgrind, docs/speed.md).
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

// Agent i's aggregates from what it saw (its own position as the centre when it saw nobody).
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

// ---- the AVX2 level (perception.c, top) ----------------------------------------------------------------

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

#endif

#endif
