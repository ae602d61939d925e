// sensitivity.c — Latin hypercube and Morris designs, and the rank correlations and elementary effects that read them (see sensitivity.h).
#include "sensitivity.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"
#include "rng.h"

// Random numbers of the design: the counter-based generator, with the point as "agent" and the
// factor as "step", and a stream per use, so a design is a pure function of its seed.
enum { STREAM_SLOT, STREAM_JITTER, STREAM_ORDER, STREAM_START };

static double uniform(uint64_t seed, long point, int factor, int stream)
{
  return fbRng_Uniform(seed, (uint64_t)point, (uint64_t)factor, (uint64_t)stream);
}

// A random permutation of 0..n-1 (Fisher-Yates) drawn from (seed, row, stream).
static void shuffle(int *order, int n, uint64_t seed, long row, int stream)
{
  for (int i = 0; i < n; ++i) {
    order[i] = i;
  }
  for (int i = n - 1; i > 0; --i) {
    int j = (int)(uniform(seed, row, i, stream) * (i + 1));
    j = j > i ? i : j;
    int t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

/*
 * Latin hypercube sampling (McKay, Beckman & Conover 1979): each axis is cut into n equal slices
 * and every slice holds exactly one of the n points; the slices are paired across axes at random.
 *   u_pj = (pi_j(p) + U_pj) / n,   pi_j a random permutation of 0..n-1, U_pj uniform in [0, 1)
 * Every factor's marginal is then stratified, so n points explore each parameter's whole range
 * where n random points leave gaps.
 */
void fbDesign_LatinHypercube(fbDesign *d, int factors, long samples, uint64_t seed)
{
  memset(d, 0, sizeof *d);
  d->kind = FB_DESIGN_LATIN_HYPERCUBE;
  d->factors = factors;
  d->points = samples;
  d->u = fbMemory_Grow(NULL, sizeof *d->u, (size_t)(samples * factors));
  int *slot = fbMemory_Grow(NULL, sizeof *slot, (size_t)samples);
  for (int j = 0; j < factors; ++j) {
    shuffle(slot, (int)samples, seed, j, STREAM_SLOT);
    for (long p = 0; p < samples; ++p) {
      d->u[p * factors + j] = (slot[p] + uniform(seed, p, j, STREAM_JITTER)) / (double)samples;
    }
  }
  free(slot);
}

/*
 * Morris's one-at-a-time design (Morris 1991, section 3): the levels 0, 1/(L-1), ..., 1 and the
 * step delta = L / (2 (L - 1)), which for an even L pairs every level of the lower half with one
 * of the upper half, so every level is sampled alike. A trajectory starts at a random grid point
 * x and changes the factors one by one, in a random order, each by +delta from a lower-half level
 * or -delta from an upper-half one: k + 1 points, k elementary effects
 *   EE_j = (y(x + s e_j delta) - y(x)) / (s delta),   s = +-1,
 * one per factor. Over r trajectories: mu = mean EE_j, mu* = mean |EE_j| (Campolongo, Cariboni &
 * Saltelli 2007: effects of opposite signs do not cancel), sigma = their standard deviation.
 */
void fbDesign_Morris(fbDesign *d, int factors, int trajectories, int levels, uint64_t seed)
{
  memset(d, 0, sizeof *d);
  d->kind = FB_DESIGN_MORRIS;
  d->factors = factors;
  d->trajectories = trajectories;
  d->levels = levels < 2 ? 2 : levels + levels % 2;
  d->delta = d->levels / (2.0 * (d->levels - 1));
  d->points = (long)trajectories * (factors + 1);
  d->u = fbMemory_Grow(NULL, sizeof *d->u, (size_t)(d->points * factors));
  int *order = fbMemory_Grow(NULL, sizeof *order, (size_t)factors);
  for (int r = 0; r < trajectories; ++r) {
    double *x = d->u + (long)r * (factors + 1) * factors;
    for (int j = 0; j < factors; ++j) {
      int level = (int)(uniform(seed, r, j, STREAM_START) * d->levels);
      x[j] = (level < d->levels ? level : d->levels - 1) / (double)(d->levels - 1);
    }
    shuffle(order, factors, seed, r, STREAM_ORDER);
    for (int k = 0; k < factors; ++k) {
      double *next = x + factors;
      memcpy(next, x, sizeof *x * (size_t)factors);
      const int j = order[k];
      next[j] = x[j] + d->delta <= 1.0 + 1e-12 ? x[j] + d->delta : x[j] - d->delta;
      x = next;
    }
  }
  free(order);
}

void fbDesign_Free(fbDesign *d)
{
  free(d->u);
  memset(d, 0, sizeof *d);
}

static void morris_effects(const fbDesign *d, const double *y, fbSensitivity *out)
{
  const int k = d->factors;
  double *sum_sq = fbMemory_Grow(NULL, sizeof *sum_sq, (size_t)k);
  memset(sum_sq, 0, sizeof *sum_sq * (size_t)k);
  for (int r = 0; r < d->trajectories; ++r) {
    const long first = (long)r * (k + 1);
    for (long p = first; p < first + k; ++p) {
      const double *a = d->u + p * k, *b = a + k;
      int j = 0;
      while (j < k - 1 && a[j] == b[j]) {
        j++;  // the factor this step changed
      }
      const double ee = (y[p + 1] - y[p]) / (b[j] - a[j]);
      if (isfinite(ee)) {
        out[j].mu += ee;
        out[j].mu_star += fabs(ee);
        sum_sq[j] += ee * ee;
        out[j].used++;
      }
    }
  }
  for (int j = 0; j < k; ++j) {
    const double n = out[j].used;
    out[j].mu = n > 0 ? out[j].mu / n : NAN;
    out[j].mu_star = n > 0 ? out[j].mu_star / n : NAN;
    out[j].sigma = n > 1 ? sqrt(fmax(0.0, (sum_sq[j] - n * out[j].mu * out[j].mu) / (n - 1))) : NAN;
  }
  free(sum_sq);
}

// Ranks 1..n of values (ties share their mean rank), by sorting (value, index) pairs.
typedef struct Ranked {
  double value;
  long index;
} Ranked;

static int compare_ranked(const void *a, const void *b)
{
  const double x = ((const Ranked *)a)->value, y = ((const Ranked *)b)->value;
  return (x > y) - (x < y);
}

static void ranks(const double *v, long n, double *rank, Ranked *sorted)
{
  for (long i = 0; i < n; ++i) {
    sorted[i] = (Ranked){v[i], i};
  }
  qsort(sorted, (size_t)n, sizeof *sorted, compare_ranked);
  for (long i = 0; i < n;) {
    long j = i;
    while (j + 1 < n && sorted[j + 1].value == sorted[i].value) {
      j++;
    }
    for (long m = i; m <= j; ++m) {
      rank[sorted[m].index] = 0.5 * (double)(i + j) + 1.0;
    }
    i = j + 1;
  }
}

static double pearson(const double *a, const double *b, long n)
{
  double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
  for (long i = 0; i < n; ++i) {
    ma += a[i] / n;
    mb += b[i] / n;
  }
  for (long i = 0; i < n; ++i) {
    sab += (a[i] - ma) * (b[i] - mb);
    saa += (a[i] - ma) * (a[i] - ma);
    sbb += (b[i] - mb) * (b[i] - mb);
  }
  return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0.0;
}

/*
 * Spearman's rho of each factor with y over the points whose y is a number: Pearson's
 * correlation of the ranks, so any monotone effect counts fully and the scale of y does not.
 * Near 0 for a factor that does not matter (within about 1/sqrt(n) by chance).
 */
static void rank_correlations(const fbDesign *d, const double *y, fbSensitivity *out)
{
  const long n = d->points;
  double *ys = fbMemory_Grow(NULL, sizeof *ys, (size_t)n), *xs = fbMemory_Grow(NULL, sizeof *xs, (size_t)n);
  double *ry = fbMemory_Grow(NULL, sizeof *ry, (size_t)n), *rx = fbMemory_Grow(NULL, sizeof *rx, (size_t)n);
  Ranked *index = fbMemory_Grow(NULL, sizeof *index, (size_t)n);
  for (int j = 0; j < d->factors; ++j) {
    long m = 0;
    for (long p = 0; p < n; ++p) {
      if (!isnan(y[p])) {
        ys[m] = y[p];
        xs[m++] = d->u[p * d->factors + j];
      }
    }
    ranks(ys, m, ry, index);
    ranks(xs, m, rx, index);
    out[j].rho = m > 2 ? pearson(rx, ry, m) : NAN;
    out[j].used = (int)m;
  }
  free(ys);
  free(xs);
  free(ry);
  free(rx);
  free(index);
}

void fbDesign_Analyse(const fbDesign *d, const double *y, fbSensitivity *out)
{
  memset(out, 0, sizeof *out * (size_t)d->factors);
  for (int j = 0; j < d->factors; ++j) {
    out[j].mu = out[j].mu_star = out[j].sigma = out[j].rho = NAN;
  }
  if (d->kind == FB_DESIGN_MORRIS) {
    for (int j = 0; j < d->factors; ++j) {
      out[j].mu = out[j].mu_star = out[j].sigma = 0.0;
    }
    morris_effects(d, y, out);
  } else {
    rank_correlations(d, y, out);
  }
}
