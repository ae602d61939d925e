// fit_cmaes.c — CMA-ES after Hansen, "The CMA Evolution Strategy: A Tutorial" (arXiv:1604.00772, 2016), (mu/mu_w, lambda) with cumulative step-size adaptation.
#include "fit_cmaes.h"

#include <math.h>
#include <string.h>

/*
 * The tutorial's algorithm (its Figure 6 and Table 1), in n dimensions:
 *   sample   y_k = B D z_k, z_k ~ N(0, I);  x_k = m + sigma y_k,  k = 1..lambda
 *   select   the mu = lambda/2 best, weights w_i = ln((lambda+1)/2) - ln i, normalised to sum 1,
 *            mu_eff = 1 / sum w_i^2
 *   mean     y_w = sum w_i y_{i:lambda};  m <- m + sigma y_w              (c_m = 1)
 *   sigma    p_s <- (1-c_s) p_s + sqrt(c_s (2-c_s) mu_eff) C^{-1/2} y_w
 *            sigma <- sigma exp((c_s/d_s) (|p_s| / E|N(0,I)| - 1))
 *   cov      p_c <- (1-c_c) p_c + h_s sqrt(c_c (2-c_c) mu_eff) y_w
 *            C <- (1 - c_1 - c_mu) C + c_1 p_c p_c^T + c_mu sum w_i y_i y_i^T
 * with c_s = (mu_eff+2)/(n+mu_eff+5), d_s = 1 + 2 max(0, sqrt((mu_eff-1)/(n+1)) - 1) + c_s,
 * c_c = (4+mu_eff/n)/(n+4+2 mu_eff/n), c_1 = 2/((n+1.3)^2+mu_eff),
 * c_mu = min(1-c_1, 2 (mu_eff-2+1/mu_eff)/((n+2)^2+mu_eff)), E|N(0,I)| ~ sqrt(n)(1-1/(4n)+1/(21n^2)),
 * and h_s = 1 unless |p_s| is large (the tutorial's stall of p_c while sigma grows fast).
 * C = B D^2 B^T comes from a Jacobi eigendecomposition (n is at most 8).
 *
 * The box: a candidate outside it is reflected into it (fbFit_Reflect) and y_k recomputed from the
 * point actually evaluated, (x_k - m)/sigma: the "repair" of the tutorial's section on bounds,
 * so the update learns from what was measured. The noise of an objective averaged over seeds is
 * met by common random numbers (the same seeds for every candidate, the caller's part).
 */

#define N_MAX FB_FIT_MAX_PARAMS
#define LAMBDA_MAX 64

int fbFitCmaes_Lambda(int dim) { return 4 + (int)floor(3.0 * log((double)dim)); }

typedef struct state {
  int n, lambda, mu;
  double w[LAMBDA_MAX], mu_eff, cs, ds, cc, c1, cmu, chi_n;
  double m[N_MAX], sigma, ps[N_MAX], pc[N_MAX];
  double C[N_MAX][N_MAX], B[N_MAX][N_MAX], D[N_MAX];  // C = B diag(D^2) B^T
} state;

// Jacobi rotations until the off-diagonal part vanishes: A = V diag(e) V^T, A symmetric n x n.
static void eigen(int n, double A[N_MAX][N_MAX], double V[N_MAX][N_MAX], double *e)
{
  double a[N_MAX][N_MAX];
  memcpy(a, A, sizeof a);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      V[i][j] = i == j;
    }
  }
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0;
    for (int p = 0; p < n; ++p) {
      for (int q = p + 1; q < n; ++q) {
        off += a[p][q] * a[p][q];
      }
    }
    if (off < 1e-30) {
      break;
    }
    for (int p = 0; p < n; ++p) {
      for (int q = p + 1; q < n; ++q) {
        if (fabs(a[p][q]) < 1e-300) {
          continue;
        }
        double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
        double c = 1 / sqrt(t * t + 1), s = t * c;
        for (int k = 0; k < n; ++k) {  // a <- J^T a J, columns then rows
          double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < n; ++k) {
          double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (int k = 0; k < n; ++k) {
          double vkp = V[k][p], vkq = V[k][q];
          V[k][p] = c * vkp - s * vkq;
          V[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    e[i] = a[i][i];
  }
}

static void init(state *s, int n)
{
  memset(s, 0, sizeof *s);
  s->n = n;
  s->lambda = fbFitCmaes_Lambda(n);
  s->mu = s->lambda / 2;
  double sum = 0, sum2 = 0;
  for (int i = 0; i < s->mu; ++i) {
    s->w[i] = log((s->lambda + 1) / 2.0) - log(i + 1.0);
    sum += s->w[i];
  }
  for (int i = 0; i < s->mu; ++i) {
    s->w[i] /= sum;
    sum2 += s->w[i] * s->w[i];
  }
  s->mu_eff = 1 / sum2;
  s->cs = (s->mu_eff + 2) / (n + s->mu_eff + 5);
  s->ds = 1 + 2 * fmax(0, sqrt((s->mu_eff - 1) / (n + 1)) - 1) + s->cs;
  s->cc = (4 + s->mu_eff / n) / (n + 4 + 2 * s->mu_eff / n);
  s->c1 = 2 / ((n + 1.3) * (n + 1.3) + s->mu_eff);
  s->cmu = fmin(1 - s->c1, 2 * (s->mu_eff - 2 + 1 / s->mu_eff) / ((n + 2) * (n + 2) + s->mu_eff));
  s->chi_n = sqrt((double)n) * (1 - 1 / (4.0 * n) + 1 / (21.0 * n * n));
  s->sigma = 0.3;
  for (int i = 0; i < n; ++i) {
    s->m[i] = 0.5;
    s->C[i][i] = s->B[i][i] = s->D[i] = 1;
  }
}

// lambda candidates into x (reflected into the box) and their steps y = (x - m)/sigma.
static void sample(state *s, fbFitRandom *rng, double *x, double y[LAMBDA_MAX][N_MAX])
{
  int n = s->n;
  for (int k = 0; k < s->lambda; ++k) {
    double z[N_MAX];
    for (int i = 0; i < n; ++i) {
      z[i] = s->D[i] * fbFitRandom_Normal(rng);
    }
    for (int i = 0; i < n; ++i) {
      double yi = 0;
      for (int j = 0; j < n; ++j) {
        yi += s->B[i][j] * z[j];
      }
      x[k * n + i] = fbFit_Reflect(s->m[i] + s->sigma * yi);
      y[k][i] = (x[k * n + i] - s->m[i]) / s->sigma;
    }
  }
}

// Ranks 0..lambda-1 by f, best first.
static void rank(const double *f, int count, int *order)
{
  for (int k = 0; k < count; ++k) {
    order[k] = k;
  }
  for (int i = 1; i < count; ++i) {
    for (int j = i; j > 0 && f[order[j]] < f[order[j - 1]]; --j) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  }
}

// C^{-1/2} v = B D^{-1} B^T v.
static void inverse_root_times(const state *s, const double *v, double *out)
{
  int n = s->n;
  double t[N_MAX];
  for (int j = 0; j < n; ++j) {
    t[j] = 0;
    for (int i = 0; i < n; ++i) {
      t[j] += s->B[i][j] * v[i];
    }
    t[j] /= s->D[j];
  }
  for (int i = 0; i < n; ++i) {
    out[i] = 0;
    for (int j = 0; j < n; ++j) {
      out[i] += s->B[i][j] * t[j];
    }
  }
}

static void update(state *s, double y[LAMBDA_MAX][N_MAX], const int *order, long generation)
{
  int n = s->n;
  double yw[N_MAX] = {0}, cy[N_MAX];
  for (int i = 0; i < s->mu; ++i) {
    for (int k = 0; k < n; ++k) {
      yw[k] += s->w[i] * y[order[i]][k];
    }
  }
  for (int k = 0; k < n; ++k) {
    s->m[k] = fbFit_Reflect(s->m[k] + s->sigma * yw[k]);
  }
  inverse_root_times(s, yw, cy);
  double ps_norm = 0;
  for (int k = 0; k < n; ++k) {
    s->ps[k] = (1 - s->cs) * s->ps[k] + sqrt(s->cs * (2 - s->cs) * s->mu_eff) * cy[k];
    ps_norm += s->ps[k] * s->ps[k];
  }
  ps_norm = sqrt(ps_norm);
  double decay = 1 - pow(1 - s->cs, 2.0 * (double)(generation + 1));
  bool hs = ps_norm / sqrt(decay) < (1.4 + 2.0 / (n + 1)) * s->chi_n;
  for (int k = 0; k < n; ++k) {
    s->pc[k] = (1 - s->cc) * s->pc[k] + (hs ? sqrt(s->cc * (2 - s->cc) * s->mu_eff) : 0) * yw[k];
  }
  double lost = hs ? 0 : s->c1 * s->cc * (2 - s->cc);  // the variance h_s = 0 leaves out
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      double rank_mu = 0;
      for (int r = 0; r < s->mu; ++r) {
        rank_mu += s->w[r] * y[order[r]][i] * y[order[r]][j];
      }
      s->C[i][j] = (1 - s->c1 - s->cmu + lost) * s->C[i][j] + s->c1 * s->pc[i] * s->pc[j] + s->cmu * rank_mu;
    }
  }
  s->sigma *= exp((s->cs / s->ds) * (ps_norm / s->chi_n - 1));
  s->sigma = fmin(s->sigma, 1.0);  // the box is 1 wide: a larger step only reflects
  double e[N_MAX];
  eigen(n, s->C, s->B, e);
  for (int k = 0; k < n; ++k) {
    s->D[k] = sqrt(fmax(e[k], 1e-20));
  }
}

void fbFitCmaes_Minimise(const fbFitProblem *p, fbFitResult *out)
{
  memset(out, 0, sizeof *out);
  out->best_f = INFINITY;
  state s;
  init(&s, p->dim);
  fbFitRandom rng = {p->seed, 0};
  double x[LAMBDA_MAX * N_MAX], f[LAMBDA_MAX], y[LAMBDA_MAX][N_MAX];
  int order[LAMBDA_MAX];
  for (long g = 0; out->evaluations + s.lambda <= p->budget && s.sigma > 1e-6; ++g) {
    sample(&s, &rng, x, y);
    if (!p->objective(p->ctx, x, s.lambda, s.n, f)) {
      out->stopped = true;
      return;
    }
    out->evaluations += s.lambda;
    rank(f, s.lambda, order);
    if (f[order[0]] < out->best_f) {
      out->best_f = f[order[0]];
      memcpy(out->best, &x[order[0] * s.n], sizeof(double) * (size_t)s.n);
    }
    update(&s, y, order, g);
  }
}
