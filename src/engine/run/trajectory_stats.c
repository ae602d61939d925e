// trajectory_stats.c — order, milling, spacing, speeds and groups of a frame, pooled over a trajectory file; the Wasserstein distance between samples.
#include "trajectory_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fb_math.h"
#include "measures.h"
#include "memory.h"

/*
 * The statistics of a frame of n agents, the same formulas as measures.c's telemetry so that a
 * run's trajectory file gives its CSV's numbers:
 *   polarisation  |(1/n) sum h_i|, h_i = v_i / |v_i| (0 for an agent at rest)
 *   rotation      |(1/n) sum u_i x h_i|, u_i the unit offset from the centre c: the mean position,
 *                 or on a torus the circular mean along each axis (fbMeasures_AxisCentre), offsets
 *                 through the nearest image
 *   nn distance   min_j |p_i - p_j| (nearest image on a torus), averaged over the agents
 *   groups        the connected components of the graph linking agents closer than `link`
 *                 (union-find with path halving), as in Couzin et al. 2002's group counts
 * Every pair is visited once, O(n^2): data sets hold frames of tens to a few hundred animals.
 */
static double offset(const fbFrame *f, double d, double size)
{
  return f->wrap ? d - size * floor(d / size + 0.5) : d;
}

static int root(int *parent, int i)
{
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

static void centre(const fbFrame *f, double *cx, double *cy)
{
  double sx = 0, sy = 0, sin_x = 0, cos_x = 0, sin_y = 0, cos_y = 0;
  for (int i = 0; i < f->n; ++i) {
    sx += f->x[i];
    sy += f->y[i];
    if (f->wrap) {
      double s, c;  // fb_math's, as measures.c: the same centre to the bit
      fbMath_SinCos(2.0 * FB_PI * f->x[i] / f->world_w, &s, &c);
      sin_x += s;
      cos_x += c;
      fbMath_SinCos(2.0 * FB_PI * f->y[i] / f->world_h, &s, &c);
      sin_y += s;
      cos_y += c;
    }
  }
  *cx = fbMeasures_AxisCentre(f->wrap, sx, sin_x, cos_x, f->n, f->world_w);
  *cy = fbMeasures_AxisCentre(f->wrap, sy, sin_y, cos_y, f->n, f->world_h);
}

// Nearest distances and the groups, from every pair once.
static void pairs(const fbFrame *f, double link, double *nn, fbFrameStats *s)
{
  int *parent = fbMemory_Grow(NULL, sizeof *parent, (size_t)f->n);
  int *size = fbMemory_Grow(NULL, sizeof *size, (size_t)f->n);
  for (int i = 0; i < f->n; ++i) {
    parent[i] = i;
    size[i] = 0;
    nn[i] = INFINITY;
  }
  for (int i = 0; i < f->n; ++i) {
    for (int j = i + 1; j < f->n; ++j) {
      const double dx = offset(f, f->x[j] - f->x[i], f->world_w), dy = offset(f, f->y[j] - f->y[i], f->world_h);
      const double d = sqrt(dx * dx + dy * dy);
      nn[i] = d < nn[i] ? d : nn[i];
      nn[j] = d < nn[j] ? d : nn[j];
      if (d <= link) {
        parent[root(parent, i)] = root(parent, j);
      }
    }
  }
  for (int i = 0; i < f->n; ++i) {
    int r = root(parent, i);
    s->groups += size[r] == 0;
    size[r]++;
    s->largest_group = size[r] > s->largest_group ? size[r] : s->largest_group;
  }
  free(parent);
  free(size);
}

void fbFrameStats_Compute(const fbFrame *f, double link, fbFrameStats *s, double *nn, double *speed)
{
  memset(s, 0, sizeof *s);
  s->agents = f->n;
  double *own_nn = nn != NULL ? nn : fbMemory_Grow(NULL, sizeof *own_nn, (size_t)f->n);
  pairs(f, link, own_nn, s);
  double cx, cy;
  centre(f, &cx, &cy);
  double hx = 0, hy = 0, m = 0, nn_sum = 0;
  for (int i = 0; i < f->n; ++i) {
    const double v = sqrt(f->vx[i] * f->vx[i] + f->vy[i] * f->vy[i]);
    const double ux = offset(f, f->x[i] - cx, f->world_w), uy = offset(f, f->y[i] - cy, f->world_h);
    const double r = sqrt(ux * ux + uy * uy);
    if (v > 0.0) {
      hx += f->vx[i] / v;
      hy += f->vy[i] / v;
      m += r > 0.0 ? (ux * f->vy[i] / v - uy * f->vx[i] / v) / r : 0.0;
    }
    if (speed != NULL) {
      speed[i] = v;
    }
    s->mean_speed += v;
    nn_sum += own_nn[i];
  }
  const double n = f->n > 0 ? f->n : NAN;
  s->polarisation = sqrt(hx * hx + hy * hy) / n;
  s->rotation = fabs(m) / n;
  s->mean_speed /= n;
  s->mean_nn = f->n > 1 ? nn_sum / n : NAN;
  if (nn == NULL) {
    free(own_nn);
  }
}

static int compare_doubles(const void *a, const void *b)
{
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

// The rows of frame f in the group (every row: group -1), gathered into arrays.
static int gather(const fbTrajectories *tr, long f, int group, double *x, double *y, double *vx, double *vy)
{
  int n = 0;
  for (long i = tr->frame_start[f]; i < tr->frame_start[f + 1]; ++i) {
    if (group < 0 || tr->group[i] == group) {
      x[n] = tr->x[i];
      y[n] = tr->y[i];
      vx[n] = tr->vx[i];
      vy[n] = tr->vy[i];
      n++;
    }
  }
  return n;
}

void fbTrajectorySummary_Compute(const fbTrajectories *tr, int group, double link, fbTrajectorySummary *s,
                                 FILE *per_frame)
{
  memset(s, 0, sizeof *s);
  long most = 0;
  for (long f = 0; f < tr->frames; ++f) {
    long n = tr->frame_start[f + 1] - tr->frame_start[f];
    most = n > most ? n : most;
  }
  double *buf = fbMemory_Grow(NULL, sizeof *buf, (size_t)(6 * most));
  double *x = buf, *y = buf + most, *vx = buf + 2 * most, *vy = buf + 3 * most, *nn = buf + 4 * most,
         *speed = buf + 5 * most;
  s->nn = fbMemory_Grow(NULL, sizeof *s->nn, (size_t)tr->rows);
  s->speed = fbMemory_Grow(NULL, sizeof *s->speed, (size_t)tr->rows);
  if (per_frame != NULL) {
    fprintf(per_frame, "t,agents,polarisation,rotation,mean_nn,mean_speed,groups,largest_group\n");
  }
  long counted = 0;
  double nn_frames = 0;
  for (long f = 0; f < tr->frames; ++f) {
    fbFrame frame = {x, y, vx, vy, 0, tr->wrap, tr->world_w, tr->world_h};
    frame.n = gather(tr, f, group, x, y, vx, vy);
    if (frame.n == 0) {
      continue;
    }
    fbFrameStats fs;
    fbFrameStats_Compute(&frame, link, &fs, nn, speed);
    for (int i = 0; i < frame.n; ++i) {
      s->speed[s->speed_count++] = speed[i];
      if (isfinite(nn[i])) {
        s->nn[s->nn_count++] = nn[i];
      }
    }
    if (per_frame != NULL) {
      fprintf(per_frame, "%.17g,%d,%.17g,%.17g,%.17g,%.17g,%d,%d\n", tr->t[tr->frame_start[f]], fs.agents,
              fs.polarisation, fs.rotation, fs.mean_nn, fs.mean_speed, fs.groups, fs.largest_group);
    }
    counted++;
    s->agents += fs.agents;
    s->polarisation += fs.polarisation;
    s->rotation += fs.rotation;
    s->mean_speed += fs.mean_speed;
    s->groups += fs.groups;
    s->largest_group += fs.largest_group;
    if (!isnan(fs.mean_nn)) {
      s->mean_nn += fs.mean_nn;
      nn_frames++;
    }
  }
  free(buf);
  s->frames = counted;
  const double frames = counted > 0 ? (double)counted : NAN;
  s->agents /= frames;
  s->polarisation /= frames;
  s->rotation /= frames;
  s->mean_speed /= frames;
  s->groups /= frames;
  s->largest_group /= frames;
  s->mean_nn = nn_frames > 0 ? s->mean_nn / nn_frames : NAN;
  qsort(s->nn, (size_t)s->nn_count, sizeof *s->nn, compare_doubles);
  qsort(s->speed, (size_t)s->speed_count, sizeof *s->speed, compare_doubles);
}

void fbTrajectorySummary_Free(fbTrajectorySummary *s)
{
  free(s->nn);
  free(s->speed);
  memset(s, 0, sizeof *s);
}

double fbStats_Quantile(const double *sorted, long n, double q)
{
  if (n == 0) {
    return NAN;
  }
  const double at = q * (double)(n - 1);
  const long k = (long)floor(at);
  return k + 1 < n ? sorted[k] + (at - (double)k) * (sorted[k + 1] - sorted[k]) : sorted[n - 1];
}

/*
 * W1(A, B) = integral |F_A(x) - F_B(x)| dx over the real line, F the empirical CDFs (Vallender
 * 1974). Both are step functions that change only at the samples, so one merge of the two sorted
 * lists visits every step: between consecutive merged points x_k < x_{k+1} the CDFs are constant
 * (i/na and j/nb, the samples passed so far) and add |i/na - j/nb| (x_{k+1} - x_k). O(na + nb).
 */
double fbStats_Wasserstein1(const double *a, long na, const double *b, long nb)
{
  if (na == 0 || nb == 0) {
    return NAN;
  }
  long i = 0, j = 0;
  double area = 0.0, x = a[0] < b[0] ? a[0] : b[0];
  while (i < na || j < nb) {
    const double next = j >= nb || (i < na && a[i] <= b[j]) ? a[i] : b[j];
    area += fabs((double)i / (double)na - (double)j / (double)nb) * (next - x);
    x = next;
    while (i < na && a[i] == x) {
      i++;
    }
    while (j < nb && b[j] == x) {
      j++;
    }
  }
  return area;
}
