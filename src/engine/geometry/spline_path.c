// spline_path.c — a centripetal Catmull-Rom spline through control points, walked by arc length, and the path object moving along it.
#include "spline_path.h"

#include <stdarg.h>
#include <string.h>

#include "fb_math.h"

/*
 * The curve. Gamlen directs a flock with "a smooth spline curve with an invisible object moving
 * along it" (section 3.5). Here that spline is a Catmull-Rom spline, which passes through every
 * control point, in its centripetal form (Barry & Goldman, "A recursive evaluation algorithm for
 * a class of Catmull-Rom splines", SIGGRAPH 1988; Yuksel, Schaefer & Keyser, "Parameterization and
 * applications of Catmull-Rom curves", Computer-Aided Design 43(7), 2011). The segment from P1 to
 * P2, with neighbours P0 and P3, has knot gaps
 *   d01 = |P1 - P0|^a,  d12 = |P2 - P1|^a,  d23 = |P3 - P2|^a,   a = 1/2 (centripetal),
 * and is the cubic Hermite curve on u in [0, 1]
 *   p(u) = (2u^3 - 3u^2 + 1) P1 + (u^3 - 2u^2 + u) m1 + (-2u^3 + 3u^2) P2 + (u^3 - u^2) m2
 * with the tangents
 *   m1 = d12 ((P1 - P0) / d01 - (P2 - P0) / (d01 + d12) + (P2 - P1) / d12)
 *   m2 = d12 ((P2 - P1) / d12 - (P3 - P1) / (d12 + d23) + (P3 - P2) / d23),
 * which is Barry and Goldman's pyramid of interpolations written as one cubic. Why centripetal and
 * not uniform (a = 0, m1 = (P2 - P0) / 2): Yuksel et al. prove that with a = 1/2 a segment never
 * has a cusp or a loop and keeps close to its control points, while the uniform spline overshoots
 * and loops where points are unevenly spaced (a tight river bend after a long reach), and the
 * path object, and the flock behind it, would fly that loop. Both share the segment's end points,
 * so the curve passes through every control point either way.
 *
 * A closed path takes its neighbours round the loop; an open one gets a mirrored point beyond each
 * end (P_-1 = 2 P0 - P1, P_n = 2 P_n-1 - P_n-2), so its ends leave straight toward their neighbour.
 * Neighbouring points must differ: a zero gap d has no tangent.
 *
 * Arc length. The object must move at a true speed in world units per second, but u is not
 * length. Each segment keeps a table of its arc length L(u) = integral from 0 to u of |p'(v)| dv at
 * u = k / 16, each sixteenth integrated with 5-point Gauss-Legendre (exact for polynomials of degree
 * 9; |p'| is smooth on a segment, so the error is far below rounding at the scale of a step). The
 * point at arc length s: the segment by bisection on the segments' starts, the sixteenth by
 * bisection on its table, a linear guess for u inside it, then Newton's method on L(u) = s with
 * L'(u) = |p'(u)|.
 *
 * Motion. The speed table is a function v(t) linear between keys, so the distance from t0 to t1
 * is its exact integral: a sum of trapezoids, split at the keys between t0 and t1. The object's
 * place at time T is therefore the same whatever the step (rounding apart); only when a hook sets
 * the speed does the step matter, by when the hook runs.
 */

#define ALPHA 0.5


// ---- checks ---------------------------------------------------------------------------------------

static bool check_points(const fbVec2 *points, int n, bool closed, char *err, size_t errlen)
{
  int least = closed ? 3 : 2;
  if (n < least || n > FB_PATH_MAX_POINTS) {
    return fbFail(err, errlen, "points: %s path needs %d to %d points, got %d", closed ? "a closed" : "an open",
                least, FB_PATH_MAX_POINTS, n);
  }
  for (int k = 0; k < n; ++k) {
    fbVec2 q = points[k];
    if (!isfinite(q.x) || !isfinite(q.y) || fabs(q.x) > FB_PATH_MAX_COORD || fabs(q.y) > FB_PATH_MAX_COORD) {
      return fbFail(err, errlen, "points[%d]: expected finite x and y within +-%g (got %g, %g)", k + 1,
                  FB_PATH_MAX_COORD, q.x, q.y);
    }
    if (k > 0 && q.x == points[k - 1].x && q.y == points[k - 1].y) {
      return fbFail(err, errlen, "points[%d]: the same as points[%d]; neighbouring points must differ", k + 1, k);
    }
  }
  if (closed && points[0].x == points[n - 1].x && points[0].y == points[n - 1].y) {
    return fbFail(err, errlen, "points[%d]: the same as points[1]; a closed path joins its last point to its first "
                "by itself, leave the repeat out", n);
  }
  return true;
}

static bool check_keys(const fbSpeedKey *keys, int n, char *err, size_t errlen)
{
  if (n > FB_PATH_MAX_KEYS) {
    return fbFail(err, errlen, "speed: at most %d keys, got %d", FB_PATH_MAX_KEYS, n);
  }
  for (int k = 0; k < n; ++k) {
    char field[32];
    snprintf(field, sizeof field, n == 1 ? "speed" : "speed[%d]", k + 1);
    if (!isfinite(keys[k].time) || !isfinite(keys[k].speed)) {
      return fbFail(err, errlen, "%s: expected a finite time and speed", field);
    }
    if (keys[k].speed < 0 || keys[k].speed > FB_PATH_MAX_SPEED) {
      return fbFail(err, errlen, "%s: the speed must be between 0 and %g units/s (got %g)", field, FB_PATH_MAX_SPEED,
                  keys[k].speed);
    }
    if (k > 0 && keys[k].time < keys[k - 1].time) {
      return fbFail(err, errlen, "%s: time %g comes before speed[%d]'s %g; keys go in time order", field, keys[k].time,
                  k, keys[k - 1].time);
    }
  }
  return true;
}

// ---- the curve ------------------------------------------------------------------------------------

// Control point i of the path, with the mirrored points beyond an open path's ends.
static fbVec2 control(const fbVec2 *points, int n, bool closed, int i)
{
  if (closed) {
    return points[((i % n) + n) % n];
  }
  if (i < 0) {
    return fbV_Sub(fbV_Scale(points[0], 2), points[1]);
  }
  if (i >= n) {
    return fbV_Sub(fbV_Scale(points[n - 1], 2), points[n - 2]);
  }
  return points[i];
}

// The tangent at b of the spline through a, b, c with knot gaps dab and dbc, per unit of knot:
// (b - a) / dab - (c - a) / (dab + dbc) + (c - b) / dbc. Times d12 it is m1 (a, b, c = P0, P1, P2)
// or m2 (P1, P2, P3) of the block comment.
static fbVec2 blend(fbVec2 a, fbVec2 b, fbVec2 c, double dab, double dbc)
{
  fbVec2 t = fbV_Sub(fbV_Scale(fbV_Sub(b, a), 1 / dab), fbV_Scale(fbV_Sub(c, a), 1 / (dab + dbc)));
  return fbV_Add(t, fbV_Scale(fbV_Sub(c, b), 1 / dbc));
}

// The Hermite form of the centripetal segment P1 -> P2 (block comment), as power-basis coefficients.
static void make_segment(fbPathSegment *seg, fbVec2 p0, fbVec2 p1, fbVec2 p2, fbVec2 p3)
{
  double d01 = fbMath_Pow(fbV_Length(fbV_Sub(p1, p0)), ALPHA);
  double d12 = fbMath_Pow(fbV_Length(fbV_Sub(p2, p1)), ALPHA);
  double d23 = fbMath_Pow(fbV_Length(fbV_Sub(p3, p2)), ALPHA);
  fbVec2 m1 = fbV_Scale(blend(p0, p1, p2, d01, d12), d12);
  fbVec2 m2 = fbV_Scale(blend(p1, p2, p3, d12, d23), d12);
  // p(u) = P1 + m1 u + (3 (P2 - P1) - 2 m1 - m2) u^2 + (2 (P1 - P2) + m1 + m2) u^3
  fbVec2 d = fbV_Sub(p2, p1);
  seg->c[0] = p1;
  seg->c[1] = m1;
  seg->c[2] = fbV_Sub(fbV_Sub(fbV_Scale(d, 3), fbV_Scale(m1, 2)), m2);
  seg->c[3] = fbV_Add(fbV_Add(fbV_Scale(d, -2), m1), m2);
}

static fbVec2 eval(const fbPathSegment *seg, double u)
{
  const fbVec2 *c = seg->c;
  return fbV(c[0].x + u * (c[1].x + u * (c[2].x + u * c[3].x)), c[0].y + u * (c[1].y + u * (c[2].y + u * c[3].y)));
}

static fbVec2 eval_derivative(const fbPathSegment *seg, double u)
{
  const fbVec2 *c = seg->c;
  return fbV(c[1].x + u * (2 * c[2].x + u * 3 * c[3].x), c[1].y + u * (2 * c[2].y + u * 3 * c[3].y));
}

// Arc length of a segment from u0 to u1: 5-point Gauss-Legendre on |p'(u)|.
static double arc(const fbPathSegment *seg, double u0, double u1)
{
  static const double x[5] = {0.0, -0.5384693101056831, 0.5384693101056831, -0.9061798459386640,
                              0.9061798459386640};
  static const double w[5] = {0.5688888888888889, 0.4786286704993665, 0.4786286704993665, 0.2369268850561891,
                              0.2369268850561891};
  double half = 0.5 * (u1 - u0), mid = 0.5 * (u0 + u1), sum = 0;
  for (int k = 0; k < 5; ++k) {
    sum += w[k] * fbV_Length(eval_derivative(seg, mid + half * x[k]));
  }
  return sum * half;
}

static void measure_segment(fbPathSegment *seg, double start)
{
  seg->start = start;
  seg->table[0] = 0;
  for (int k = 0; k < FB_PATH_SUBDIV; ++k) {
    seg->table[k + 1] = seg->table[k] + arc(seg, (double)k / FB_PATH_SUBDIV, (double)(k + 1) / FB_PATH_SUBDIV);
  }
}

bool fbPath_Init(fbPath *p, const char *name, const fbVec2 *points, int n, bool closed, const fbSpeedKey *keys,
                 int key_count, double start, char *err, size_t errlen)
{
  if (name == NULL || name[0] == '\0' || strlen(name) >= FB_NAME_LEN) {
    return fbFail(err, errlen, "name: every path needs a name of 1 to %d characters", FB_NAME_LEN - 1);
  }
  if (!check_points(points, n, closed, err, errlen) || !check_keys(keys, key_count, err, errlen)) {
    return false;
  }
  if (!(start >= 0 && start <= 1)) {
    return fbFail(err, errlen, "start: a fraction of the path's length, between 0 and 1 (got %g)", start);
  }
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s", name);
  p->closed = closed;
  p->point_count = n;
  p->segment_count = closed ? n : n - 1;
  p->points = malloc(sizeof *p->points * (size_t)n);
  p->segments = malloc(sizeof *p->segments * (size_t)p->segment_count);
  p->keys = malloc(sizeof *p->keys * (size_t)(key_count > 0 ? key_count : 1));
  FB_ASSERT(p->points != NULL && p->segments != NULL && p->keys != NULL);
  memcpy(p->points, points, sizeof *p->points * (size_t)n);
  if (key_count > 0) {
    memcpy(p->keys, keys, sizeof *p->keys * (size_t)key_count);
  }
  p->key_count = key_count;
  p->speed_override = -1;
  double length = 0;
  for (int i = 0; i < p->segment_count; ++i) {
    fbPathSegment *seg = &p->segments[i];
    make_segment(seg, control(points, n, closed, i - 1), control(points, n, closed, i),
                 control(points, n, closed, i + 1), control(points, n, closed, i + 2));
    measure_segment(seg, length);
    length += seg->table[FB_PATH_SUBDIV];
  }
  p->length = length;
  fbPath_Place(p, start * length, 0.0);
  return true;
}

void fbPath_Free(fbPath *p)
{
  free(p->points);
  free(p->segments);
  free(p->keys);
  memset(p, 0, sizeof *p);
}

// The path fitted again through its points with one moved (the window's drag): the object keeps its
// fraction of the length, its speed table and any speed a hook set.
bool fbPath_MovePoint(fbPath *p, int point, fbVec2 to, double time)
{
  if (point < 0 || point >= p->point_count) {
    return false;
  }
  fbVec2 points[FB_PATH_MAX_POINTS];
  memcpy(points, p->points, sizeof *points * (size_t)p->point_count);
  points[point] = to;
  double fraction = p->length > 0 ? p->s / p->length : 0;
  fbPath fresh;
  char err[256];
  if (!fbPath_Init(&fresh, p->name, points, p->point_count, p->closed, p->keys, p->key_count,
                   fmin(1, fmax(0, fraction)), err, sizeof err)) {
    return false;
  }
  fresh.speed_override = p->speed_override;
  fbPath_Place(&fresh, fresh.s, time);
  fbPath_Free(p);
  *p = fresh;
  return true;
}

fbVec2 fbPath_SegmentPoint(const fbPath *p, int segment, double u, fbVec2 *derivative)
{
  FB_ASSERT(segment >= 0 && segment < p->segment_count);
  if (derivative != NULL) {
    *derivative = eval_derivative(&p->segments[segment], u);
  }
  return eval(&p->segments[segment], u);
}

// ---- by arc length --------------------------------------------------------------------------------

// s wrapped into [0, length) on a closed path, clamped to [0, length] on an open one.
static double fold(const fbPath *p, double s)
{
  if (!p->closed) {
    return fmin(fmax(s, 0.0), p->length);
  }
  s = fmod(s, p->length);
  if (s < 0) {
    s += p->length;
  }
  return s < p->length ? s : 0.0;  // fmod of a value just under a multiple may round up to it
}

// The segment holding arc length s (in [0, length]): the last one starting at or before it.
static int segment_at(const fbPath *p, double s)
{
  int lo = 0, hi = p->segment_count - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (p->segments[mid].start <= s) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

// The u at which a segment's arc length from u = 0 is `local` (within [0, its length]).
static double u_at(const fbPathSegment *seg, double local)
{
  const double *t = seg->table;
  int lo = 0, hi = FB_PATH_SUBDIV - 1;
  while (lo < hi) {  // the sixteenth k with t[k] <= local
    int mid = (lo + hi + 1) / 2;
    if (t[mid] <= local) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  double u0 = (double)lo / FB_PATH_SUBDIV, u1 = (double)(lo + 1) / FB_PATH_SUBDIV;
  double piece = t[lo + 1] - t[lo];
  double u = piece > 0 ? u0 + (u1 - u0) * (local - t[lo]) / piece : u0;
  for (int it = 0; it < 3; ++it) {  // Newton on L(u) = local; L'(u) = |p'(u)|
    double speed = fbV_Length(eval_derivative(seg, u));
    if (speed < 1e-12) {
      break;
    }
    double next = u - (t[lo] + arc(seg, u0, u) - local) / speed;
    u = fmin(fmax(next, u0), u1);
  }
  return u;
}

fbVec2 fbPath_PointAt(const fbPath *p, double s, fbVec2 *tangent)
{
  s = fold(p, s);
  int i = segment_at(p, s);
  const fbPathSegment *seg = &p->segments[i];
  double u = u_at(seg, fmin(s - seg->start, seg->table[FB_PATH_SUBDIV]));
  if (tangent != NULL) {
    fbVec2 d = eval_derivative(seg, u);
    double len = fbV_Length(d);
    if (len < 1e-12) {  // a hairpin (P0 = P2) stops the curve for an instant: take the chord
      d = fbV_Sub(eval(seg, 1.0), eval(seg, 0.0));
      len = fbV_Length(d);
    }
    *tangent = len > 0 ? fbV_Scale(d, 1 / len) : fbV(1, 0);
  }
  return eval(seg, u);
}

// ---- the speed table ------------------------------------------------------------------------------

// The key interval that holds time t: the last key at or before it (-1 before the first key).
static int key_at(const fbSpeedKey *keys, int n, double t)
{
  int k = -1;
  for (int lo = 0, hi = n - 1; lo <= hi;) {
    int mid = (lo + hi) / 2;
    if (keys[mid].time <= t) {
      k = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return k;
}

// The linear piece of interval k (key k to k + 1; -1 and n - 1 are the constant ends) at time t.
static double piece(const fbSpeedKey *keys, int n, int k, double t)
{
  if (k < 0) {
    return keys[0].speed;
  }
  if (k >= n - 1) {
    return keys[n - 1].speed;
  }
  double span = keys[k + 1].time - keys[k].time;
  return keys[k].speed + (keys[k + 1].speed - keys[k].speed) * (t - keys[k].time) / span;
}

double fbPath_TableSpeed(const fbPath *p, double t)
{
  if (p->key_count == 0) {
    return 0.0;
  }
  return piece(p->keys, p->key_count, key_at(p->keys, p->key_count, t), t);
}

double fbPath_TableDistance(const fbPath *p, double t0, double t1)
{
  const fbSpeedKey *keys = p->keys;
  int n = p->key_count;
  if (n == 0 || t1 <= t0) {
    return 0.0;
  }
  double sum = 0, a = t0;
  for (int k = key_at(keys, n, t0); a < t1; ++k) {
    double b = k + 1 < n ? fmin(keys[k + 1].time, t1) : t1;  // the interval ends at the next key
    if (b > a) {
      sum += 0.5 * (piece(keys, n, k, a) + piece(keys, n, k, b)) * (b - a);  // a trapezoid: v is linear here
    }
    a = fmax(a, b);
  }
  return sum;
}

// ---- the object -----------------------------------------------------------------------------------

void fbPath_Place(fbPath *p, double s, double t)
{
  p->s = fold(p, s);
  p->p = fbPath_PointAt(p, p->s, &p->tangent);
  bool stopped = !p->closed && p->s >= p->length;
  p->speed = stopped ? 0.0 : (p->speed_override >= 0 ? p->speed_override : fbPath_TableSpeed(p, t));
}

void fbPath_Advance(fbPath *p, double t0, double t1)
{
  double ds = p->speed_override >= 0 ? p->speed_override * (t1 - t0) : fbPath_TableDistance(p, t0, t1);
  fbPath_Place(p, p->s + ds, t1);
}

void fbPath_SetSpeed(fbPath *p, double v, double t)
{
  p->speed_override = v >= 0 ? v : -1;
  fbPath_Place(p, p->s, t);
}

// ---- all of a world's paths -----------------------------------------------------------------------

int fbPaths_Find(const fbPaths *ps, const char *name)
{
  for (int k = 0; k < ps->count; ++k) {
    if (strcmp(ps->items[k].name, name) == 0) {
      return k;
    }
  }
  return -1;
}

void fbPaths_Advance(fbPaths *ps, double t0, double t1)
{
  for (int k = 0; k < ps->count; ++k) {
    fbPath_Advance(&ps->items[k], t0, t1);
  }
}

void fbPaths_Free(fbPaths *ps)
{
  for (int k = 0; k < ps->count; ++k) {
    fbPath_Free(&ps->items[k]);
  }
  free(ps->items);
  memset(ps, 0, sizeof *ps);
}
