// fit_nelder_mead.c — Nelder & Mead (1965), "A simplex method for function minimization", Computer Journal 7:308–313.
#include "fit_nelder_mead.h"

#include <math.h>
#include <string.h>

/*
 * A simplex of n + 1 vertices x_0..x_n in n dimensions, sorted so that f(x_0) <= ... <= f(x_n).
 * With the centroid c of all but the worst, c = (1/n) sum_{i<n} x_i, each iteration tries
 *   reflection   x_r = c + a (c - x_n),                   a = 1
 *   expansion    x_e = c + g (x_r - c),   if f_r < f_0,   g = 2
 *   contraction  x_k = c + b (x_n - c),   if f_r >= f_{n-1} (inside; outside when f_r < f_n,
 *                x_k = c + b (x_r - c)),  b = 1/2
 *   shrink       x_i = x_0 + s (x_i - x_0) for every i > 0, when the contraction fails, s = 1/2
 * (the coefficients of the paper, in the now usual form of Lagarias et al. 1998). The box is kept
 * by reflecting any trial point into it (fit_method.h's fbFit_Reflect) before it is evaluated:
 * the method then sees a function defined everywhere, symmetric about each wall.
 *
 * The start is the centre of the box with one vertex a quarter of the box along each axis.
 * With a noisy objective (a mean over seeds) the caller keeps the seeds the same for every
 * candidate (common random numbers), so the comparisons the simplex makes are between equals.
 */

typedef struct simplex {
  int n;
  double x[FB_FIT_MAX_PARAMS + 1][FB_FIT_MAX_PARAMS];
  double f[FB_FIT_MAX_PARAMS + 1];
} simplex;

typedef struct run {
  const fbFitProblem *p;
  fbFitResult *out;
} run;

// Evaluates one point (reflected into the box first); false when the budget is spent or the
// objective asks to stop.
static bool evaluate(run *r, double *x, double *f)
{
  if (r->out->evaluations >= r->p->budget) {
    return false;
  }
  for (int k = 0; k < r->p->dim; ++k) {
    x[k] = fbFit_Reflect(x[k]);
  }
  if (!r->p->objective(r->p->ctx, x, 1, r->p->dim, f)) {
    r->out->stopped = true;
    return false;
  }
  ++r->out->evaluations;
  if (*f < r->out->best_f) {
    r->out->best_f = *f;
    memcpy(r->out->best, x, sizeof(double) * (size_t)r->p->dim);
  }
  return true;
}

static void sort_vertices(simplex *s)
{
  for (int i = 1; i <= s->n; ++i) {  // insertion sort: n + 1 is at most 9
    for (int j = i; j > 0 && s->f[j] < s->f[j - 1]; --j) {
      double t = s->f[j];
      s->f[j] = s->f[j - 1];
      s->f[j - 1] = t;
      for (int k = 0; k < s->n; ++k) {
        double u = s->x[j][k];
        s->x[j][k] = s->x[j - 1][k];
        s->x[j - 1][k] = u;
      }
    }
  }
}

// along(out, c, t, d): out = c + t (d - c).
static void along(double *out, const double *c, double t, const double *d, int n)
{
  for (int k = 0; k < n; ++k) {
    out[k] = c[k] + t * (d[k] - c[k]);
  }
}

static double diameter(const simplex *s)
{
  double widest = 0;
  for (int i = 1; i <= s->n; ++i) {
    for (int k = 0; k < s->n; ++k) {
      widest = fmax(widest, fabs(s->x[i][k] - s->x[0][k]));
    }
  }
  return widest;
}

// The first simplex as one batch: its points do not depend on each other.
static bool start(run *r, simplex *s)
{
  int n = s->n, count = n + 1;
  double batch[(FB_FIT_MAX_PARAMS + 1) * FB_FIT_MAX_PARAMS];
  for (int i = 0; i < count; ++i) {
    for (int k = 0; k < n; ++k) {
      s->x[i][k] = 0.5 + (i == k + 1 ? 0.25 : 0.0);
      batch[i * n + k] = s->x[i][k];
    }
  }
  if (r->p->budget < count) {
    return false;
  }
  if (!r->p->objective(r->p->ctx, batch, count, n, s->f)) {
    r->out->stopped = true;
    return false;
  }
  r->out->evaluations += count;
  for (int i = 0; i < count; ++i) {
    if (s->f[i] < r->out->best_f) {
      r->out->best_f = s->f[i];
      memcpy(r->out->best, s->x[i], sizeof(double) * (size_t)n);
    }
  }
  return true;
}

// One iteration; false when the budget is spent or the objective stops the method.
static bool iterate(run *r, simplex *s)
{
  int n = s->n;
  double c[FB_FIT_MAX_PARAMS] = {0}, xr[FB_FIT_MAX_PARAMS], xt[FB_FIT_MAX_PARAMS], fr, ft;
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < n; ++k) {
      c[k] += s->x[i][k] / n;
    }
  }
  along(xr, c, -1.0, s->x[n], n);  // reflection: c + (c - x_n)
  if (!evaluate(r, xr, &fr)) {
    return false;
  }
  if (fr < s->f[0]) {
    along(xt, c, 2.0, xr, n);  // expansion
    if (!evaluate(r, xt, &ft)) {
      return false;
    }
    bool expanded = ft < fr;
    memcpy(s->x[n], expanded ? xt : xr, sizeof xt);
    s->f[n] = expanded ? ft : fr;
    return true;
  }
  if (fr < s->f[n - 1]) {
    memcpy(s->x[n], xr, sizeof xr);
    s->f[n] = fr;
    return true;
  }
  bool outside = fr < s->f[n];
  along(xt, c, 0.5, outside ? xr : s->x[n], n);  // contraction
  if (!evaluate(r, xt, &ft)) {
    return false;
  }
  if (ft < (outside ? fr : s->f[n])) {
    memcpy(s->x[n], xt, sizeof xt);
    s->f[n] = ft;
    return true;
  }
  for (int i = 1; i <= n; ++i) {  // shrink towards the best vertex
    along(s->x[i], s->x[0], 0.5, s->x[i], n);
    if (!evaluate(r, s->x[i], &s->f[i])) {
      return false;
    }
  }
  return true;
}

void fbFitNelderMead_Minimise(const fbFitProblem *p, fbFitResult *out)
{
  memset(out, 0, sizeof *out);
  out->best_f = INFINITY;
  simplex s = {.n = p->dim};
  run r = {p, out};
  if (!start(&r, &s)) {
    return;
  }
  do {
    sort_vertices(&s);
  } while (diameter(&s) > 1e-6 && iterate(&r, &s));
}
