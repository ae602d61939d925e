// fit_abc.c — ABC rejection (Pritchard et al. 1999) and ABC-SMC (Toni et al. 2009, J. R. Soc. Interface 6:187; Beaumont et al. 2009, Biometrika 96:983).
#include "fit_abc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb.h"

/*
 * The prior is uniform on the unit box (the caller maps it onto each parameter's range, linearly
 * or in the logarithm, so "uniform" is on that scale). A candidate's distance to the target is
 * rho = sqrt(objective): the root of the squared error of the statistic averaged over seeds.
 *
 * Rejection: draw theta from the prior, keep it if rho <= eps. With a budget rather than a fixed
 * eps, eps is the `quantile` of the distances drawn (Beaumont, Zhang & Balding 2002).
 *
 * SMC (Toni et al. 2009, Algorithm "ABC SMC"; the kernel of Beaumont et al. 2009, "adaptive
 * approximate Bayesian computation"): generation 0 is N particles from the prior, weights 1/N.
 * Generation t > 0 has tolerance eps_t = the `quantile` of generation t-1's distances (Del Moral
 * et al. 2012's adaptive choice: tolerances decrease with no schedule to guess), and:
 *   repeat until N accepted: pick theta_j with probability w_j; propose theta* ~ N(theta_j, S),
 *     S = 2 Cov_w(theta of generation t-1) (Beaumont et al. 2009: twice the weighted covariance);
 *     a theta* outside the box has prior 0 and is proposed again without a run; accept when
 *     rho(theta*) <= eps_t
 *   w_i proportional to pi(theta_i) / sum_j w_j N(theta_i; theta_j, S)  (pi constant in the box)
 * Proposals go out as batches of N candidates so a generation's runs share the cores.
 * Credible intervals are weighted quantiles of the last generation.
 */

void fbFitPosterior_Free(fbFitPosterior *post)
{
  free(post->x);
  free(post->weight);
  free(post->distance);
  memset(post, 0, sizeof *post);
}

static void posterior_alloc(fbFitPosterior *post, int dim, int count)
{
  post->dim = dim;
  post->count = count;
  post->x = calloc((size_t)count * (size_t)dim + 1, sizeof(double));
  post->weight = calloc((size_t)count + 1, sizeof(double));
  post->distance = calloc((size_t)count + 1, sizeof(double));
  FB_ASSERT(post->x != NULL && post->weight != NULL && post->distance != NULL);
}

typedef struct pair {
  double key;
  double weight;
} pair;

static int by_key(const void *a, const void *b)
{
  double x = ((const pair *)a)->key, y = ((const pair *)b)->key;
  return (x > y) - (x < y);
}

double fbFitPosterior_Quantile(const fbFitPosterior *post, int k, double q)
{
  if (post->count == 0) {
    return NAN;
  }
  pair *v = malloc(sizeof *v * (size_t)post->count);
  FB_ASSERT(v != NULL);
  for (int i = 0; i < post->count; ++i) {
    v[i] = (pair){post->x[i * post->dim + k], post->weight[i]};
  }
  qsort(v, (size_t)post->count, sizeof *v, by_key);
  double sum = 0, at = v[post->count - 1].key;
  for (int i = 0; i < post->count; ++i) {
    sum += v[i].weight;
    if (sum >= q) {
      at = v[i].key;
      break;
    }
  }
  free(v);
  return at;
}

double fbFitPosterior_Mean(const fbFitPosterior *post, int k)
{
  double m = 0;
  for (int i = 0; i < post->count; ++i) {
    m += post->weight[i] * post->x[i * post->dim + k];
  }
  return m;
}

// The q-quantile of n distances (unweighted: the tolerance is about how near the runs came).
static double distance_quantile(const double *d, int n, double q)
{
  double *s = malloc(sizeof *s * (size_t)n);
  FB_ASSERT(s != NULL);
  memcpy(s, d, sizeof *s * (size_t)n);
  for (int i = 1; i < n; ++i) {
    for (int j = i; j > 0 && s[j] < s[j - 1]; --j) {
      double t = s[j];
      s[j] = s[j - 1];
      s[j - 1] = t;
    }
  }
  int at = (int)floor(q * (n - 1));
  double e = s[at];
  free(s);
  return e;
}

static void note_best(fbFitResult *best, const double *x, int dim, double f)
{
  if (f < best->best_f) {
    best->best_f = f;
    memcpy(best->best, x, sizeof(double) * (size_t)dim);
  }
}

// Evaluates n points; false when the objective stops the method.
static bool evaluate(const fbFitProblem *p, fbFitResult *best, const double *x, int n, double *f)
{
  if (!p->objective(p->ctx, x, n, p->dim, f)) {
    best->stopped = true;
    return false;
  }
  best->evaluations += n;
  for (int i = 0; i < n; ++i) {
    note_best(best, &x[i * p->dim], p->dim, f[i]);
  }
  return true;
}

void fbFitAbc_Rejection(const fbFitProblem *p, const fbFitAbcOptions *o, fbFitResult *best, fbFitPosterior *post)
{
  memset(best, 0, sizeof *best);
  memset(post, 0, sizeof *post);
  best->best_f = INFINITY;
  int n = (int)p->budget, dim = p->dim;
  double *x = malloc(sizeof *x * (size_t)n * (size_t)dim), *f = malloc(sizeof *f * (size_t)n);
  FB_ASSERT(x != NULL && f != NULL);
  fbFitRandom rng = {p->seed, 0};
  for (int i = 0; i < n * dim; ++i) {
    x[i] = fbFitRandom_Uniform(&rng);
  }
  if (evaluate(p, best, x, n, f)) {
    for (int i = 0; i < n; ++i) {
      f[i] = sqrt(f[i]);
    }
    int keep = (int)ceil(o->quantile * n);
    keep = keep < o->particles ? (o->particles < n ? o->particles : n) : keep;
    double eps = distance_quantile(f, n, (keep - 1.0) / fmax(n - 1.0, 1.0));
    posterior_alloc(post, dim, keep);
    int count = 0;
    for (int i = 0; i < n && count < keep; ++i) {
      if (f[i] <= eps) {
        memcpy(&post->x[count * dim], &x[i * dim], sizeof(double) * (size_t)dim);
        post->distance[count++] = f[i];
      }
    }
    post->count = count;
    for (int i = 0; i < count; ++i) {
      post->weight[i] = 1.0 / count;
    }
    post->tolerance = eps;
    post->generations = 1;
  }
  free(x);
  free(f);
}

// ---- SMC ----------------------------------------------------------------------------------------

// S = 2 Cov_w, then its Cholesky factor L (S = L L^T) for proposals and its log-determinant and
// inverse for the kernel's density.
typedef struct kernel {
  int dim;
  double L[FB_FIT_MAX_PARAMS][FB_FIT_MAX_PARAMS];
  double log_det;
} kernel;

static void make_kernel(kernel *k, const fbFitPosterior *g)
{
  int d = g->dim;
  double mean[FB_FIT_MAX_PARAMS] = {0}, S[FB_FIT_MAX_PARAMS][FB_FIT_MAX_PARAMS] = {{0}};
  for (int i = 0; i < g->count; ++i) {
    for (int a = 0; a < d; ++a) {
      mean[a] += g->weight[i] * g->x[i * d + a];
    }
  }
  for (int i = 0; i < g->count; ++i) {
    for (int a = 0; a < d; ++a) {
      for (int b = 0; b < d; ++b) {
        S[a][b] += 2 * g->weight[i] * (g->x[i * d + a] - mean[a]) * (g->x[i * d + b] - mean[b]);
      }
    }
  }
  for (int a = 0; a < d; ++a) {
    S[a][a] += 1e-12;  // a generation collapsed onto one point still has a kernel
  }
  memset(k, 0, sizeof *k);
  k->dim = d;
  for (int a = 0; a < d; ++a) {
    for (int b = 0; b <= a; ++b) {
      double s = S[a][b];
      for (int c = 0; c < b; ++c) {
        s -= k->L[a][c] * k->L[b][c];
      }
      k->L[a][b] = a == b ? sqrt(fmax(s, 1e-24)) : s / k->L[b][b];
    }
    k->log_det += 2 * log(k->L[a][a]);
  }
}

// log N(x; mu, S) up to the constant every particle shares.
static double kernel_log_density(const kernel *k, const double *x, const double *mu)
{
  double z[FB_FIT_MAX_PARAMS], q = 0;
  for (int a = 0; a < k->dim; ++a) {  // solve L z = x - mu
    double s = x[a] - mu[a];
    for (int c = 0; c < a; ++c) {
      s -= k->L[a][c] * z[c];
    }
    z[a] = s / k->L[a][a];
    q += z[a] * z[a];
  }
  return -0.5 * q - 0.5 * k->log_det;
}

static int pick(const fbFitPosterior *g, fbFitRandom *rng)
{
  double u = fbFitRandom_Uniform(rng), sum = 0;
  for (int i = 0; i < g->count; ++i) {
    sum += g->weight[i];
    if (u < sum) {
      return i;
    }
  }
  return g->count - 1;
}

// A proposal inside the box: moved from a particle picked by weight by the kernel.
static void propose(const fbFitPosterior *g, const kernel *k, fbFitRandom *rng, double *out)
{
  for (;;) {
    const double *from = &g->x[pick(g, rng) * g->dim];
    double z[FB_FIT_MAX_PARAMS];
    bool inside = true;
    for (int a = 0; a < g->dim; ++a) {
      z[a] = fbFitRandom_Normal(rng);
    }
    for (int a = 0; a < g->dim; ++a) {
      out[a] = from[a];
      for (int c = 0; c <= a; ++c) {
        out[a] += k->L[a][c] * z[c];
      }
      inside = inside && out[a] >= 0 && out[a] <= 1;
    }
    if (inside) {
      return;
    }
  }
}

// w_i = 1 / sum_j w_j K(theta_i | theta_j), normalised, in logs against underflow.
static void reweight(fbFitPosterior *next, const fbFitPosterior *prev, const kernel *k)
{
  int d = next->dim;
  double *logw = malloc(sizeof *logw * (size_t)next->count), top = -INFINITY, sum = 0;
  FB_ASSERT(logw != NULL);
  for (int i = 0; i < next->count; ++i) {
    double m = -INFINITY, s = 0, *l = malloc(sizeof *l * (size_t)prev->count);
    FB_ASSERT(l != NULL);
    for (int j = 0; j < prev->count; ++j) {
      l[j] = log(prev->weight[j]) + kernel_log_density(k, &next->x[i * d], &prev->x[j * d]);
      m = fmax(m, l[j]);
    }
    for (int j = 0; j < prev->count; ++j) {
      s += exp(l[j] - m);
    }
    free(l);
    logw[i] = -(m + log(s));
    top = fmax(top, logw[i]);
  }
  for (int i = 0; i < next->count; ++i) {
    next->weight[i] = exp(logw[i] - top);
    sum += next->weight[i];
  }
  for (int i = 0; i < next->count; ++i) {
    next->weight[i] /= sum;
  }
  free(logw);
}

// Generation 0: N particles from the prior, all accepted.
static bool first_generation(const fbFitProblem *p, int n, fbFitRandom *rng, fbFitResult *best, fbFitPosterior *g)
{
  posterior_alloc(g, p->dim, n);
  for (int i = 0; i < n * p->dim; ++i) {
    g->x[i] = fbFitRandom_Uniform(rng);
  }
  if (!evaluate(p, best, g->x, n, g->distance)) {
    return false;
  }
  for (int i = 0; i < n; ++i) {
    g->distance[i] = sqrt(g->distance[i]);
    g->weight[i] = 1.0 / n;
  }
  g->tolerance = INFINITY;
  g->generations = 1;
  return true;
}

// Generation t from t-1 under tolerance eps; false (next left partial) when the budget or the
// objective ends it first.
static bool next_generation(const fbFitProblem *p, const fbFitPosterior *prev, double eps, fbFitRandom *rng,
                            fbFitResult *best, fbFitPosterior *next)
{
  int n = prev->count, d = p->dim, accepted = 0;
  kernel k;
  make_kernel(&k, prev);
  posterior_alloc(next, d, n);
  double *x = malloc(sizeof *x * (size_t)n * (size_t)d), *f = malloc(sizeof *f * (size_t)n);
  FB_ASSERT(x != NULL && f != NULL);
  bool ok = true;
  while (ok && accepted < n) {
    if (best->evaluations + n > p->budget) {
      ok = false;
      break;
    }
    for (int i = 0; i < n; ++i) {
      propose(prev, &k, rng, &x[i * d]);
    }
    ok = evaluate(p, best, x, n, f);
    for (int i = 0; ok && i < n && accepted < n; ++i) {
      if (sqrt(f[i]) <= eps) {
        memcpy(&next->x[accepted * d], &x[i * d], sizeof(double) * (size_t)d);
        next->distance[accepted++] = sqrt(f[i]);
      }
    }
  }
  free(x);
  free(f);
  if (!ok) {
    return false;
  }
  reweight(next, prev, &k);
  next->tolerance = eps;
  next->generations = prev->generations + 1;
  return true;
}

void fbFitAbc_Smc(const fbFitProblem *p, const fbFitAbcOptions *o, fbFitResult *best, fbFitPosterior *post)
{
  memset(best, 0, sizeof *best);
  memset(post, 0, sizeof *post);
  best->best_f = INFINITY;
  fbFitRandom rng = {p->seed, 0};
  int n = o->particles;
  if (n > p->budget || !first_generation(p, n, &rng, best, post)) {
    return;
  }
  for (;;) {
    double eps = distance_quantile(post->distance, post->count, o->quantile);
    fbFitPosterior next;
    if (!next_generation(p, post, eps, &rng, best, &next)) {
      fbFitPosterior_Free(&next);  // the last complete generation is the answer
      return;
    }
    fbFitPosterior_Free(post);
    *post = next;
  }
}
