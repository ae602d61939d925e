// region.c — polygonal regions: checked when built, then asked where a point stands (inside, nearest edge point, inward normal).
#include "region.h"

// Twice the signed area (the shoelace sum): positive for the winding obstacles.h calls counter-clockwise.
static double shoelace(const fbVec2 *v, int n)
{
  double sum = 0.0;
  for (int k = 0; k < n; ++k) {
    sum += fbV_Cross(v[k], v[(k + 1) % n]);
  }
  return sum;
}

// Orientation of the turn a -> b -> c: > 0, < 0, or 0 when they lie on one line.
static double turn(fbVec2 a, fbVec2 b, fbVec2 c) { return fbV_Cross(fbV_Sub(b, a), fbV_Sub(c, a)); }

// True when segments ab and cd cross or touch (collinear overlaps included).
static bool segments_meet(fbVec2 a, fbVec2 b, fbVec2 c, fbVec2 d)
{
  double d1 = turn(c, d, a), d2 = turn(c, d, b), d3 = turn(a, b, c), d4 = turn(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) {
    return true;
  }
  // A touch: an end on the other segment.
  fbVec2 ends[4] = {a, b, c, d}, from[4] = {c, c, a, a}, to[4] = {d, d, b, b};
  double t[4] = {d1, d2, d3, d4};
  for (int k = 0; k < 4; ++k) {
    fbVec2 p = ends[k], lo = from[k], hi = to[k];
    if (t[k] == 0 && fmin(lo.x, hi.x) <= p.x && p.x <= fmax(lo.x, hi.x) && fmin(lo.y, hi.y) <= p.y &&
        p.y <= fmax(lo.y, hi.y)) {
      return true;
    }
  }
  return false;
}

// Edges i and j (not neighbours) meeting: the polygon is not simple. O(n^2), once per load.
static bool first_crossing(const fbVec2 *v, int n, int *ei, int *ej)
{
  for (int i = 0; i < n; ++i) {
    for (int j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) {
        continue;  // the last edge and the first share point 0
      }
      if (segments_meet(v[i], v[(i + 1) % n], v[j], v[(j + 1) % n])) {
        *ei = i;
        *ej = j;
        return true;
      }
    }
  }
  return false;
}

static bool check_points(const fbVec2 *v, int n, char *err, size_t errlen)
{
  if (n < 3 || n > FB_REGION_MAX_POINTS) {
    return fbFail(err, errlen, "a region needs 3 to %d points, got %d", FB_REGION_MAX_POINTS, n);
  }
  for (int k = 0; k < n; ++k) {
    if (!(fabs(v[k].x) <= FB_MAX_MAGNITUDE && fabs(v[k].y) <= FB_MAX_MAGNITUDE)) {
      return fbFail(err, errlen, "point %d: expected finite x and y within +-%g", k + 1, FB_MAX_MAGNITUDE);
    }
    if (v[k].x == v[(k + 1) % n].x && v[k].y == v[(k + 1) % n].y) {
      return fbFail(err, errlen, "point %d is the same as point %d; neighbouring points must differ", (k + 1) % n + 1,
                    k + 1);
    }
  }
  if (shoelace(v, n) == 0.0) {
    return fbFail(err, errlen, "the points enclose no area");
  }
  int i, j;
  if (first_crossing(v, n, &i, &j)) {
    return fbFail(err, errlen, "the edge from point %d to %d meets the edge from point %d to %d: a region's edges "
                  "may not cross or touch", i + 1, (i + 1) % n + 1, j + 1, (j + 1) % n + 1);
  }
  return true;
}

bool fbRegion_Init(fbRegion *r, const char *name, const fbVec2 *points, int n, char *err, size_t errlen)
{
  memset(r, 0, sizeof *r);
  if (!check_points(points, n, err, errlen)) {
    return false;
  }
  snprintf(r->name, sizeof r->name, "%s", name);
  r->points = malloc(sizeof *r->points * (size_t)n);
  FB_ASSERT(r->points != NULL);
  memcpy(r->points, points, sizeof *r->points * (size_t)n);
  r->count = n;
  r->area_sign = shoelace(points, n) > 0 ? 1.0 : -1.0;
  return true;
}

/*
 * Where a point p stands (Reynolds 1999, "containment": the region's surface, its nearest point
 * and normal; O'Rourke, Computational Geometry in C, 7.4, for the crossing test).
 *
 * Inside: the even-odd rule. A ray from p toward +x crosses edge (a, b) when a and b lie on either
 * side of the line y = p.y (half-open, a.y > p.y != b.y > p.y, so a vertex on the line counts once)
 * and the crossing x = a.x + (p.y - a.y)(b.x - a.x)/(b.y - a.y) is right of p.x; p is inside when
 * the count is odd. It holds for any simple polygon, convex or not.
 *
 * Nearest edge point: on each edge, q = a + t (b - a) with t = (p - a).(b - a) / |b - a|^2 clamped
 * to [0, 1]; the nearest over all edges. O(n) per query: regions are a few dozen points.
 *
 * Inward normal: (p - q) / |p - q| when p is inside, (q - p) / |p - q| when outside: it points from
 * the edge into the region either way, is the edge's own normal where q is inside an edge, and
 * turns round a corner as p moves past it, so steering along it rounds the corner smoothly. On the
 * edge itself (|p - q| = 0) it is the edge's inward normal, s (-e.y, e.x) / |e| with e = b - a and s
 * the sign of the shoelace area (y down: for s = +1 the interior lies on that side of every edge).
 */
fbRegionQuery fbRegion_Query(const fbRegion *r, fbVec2 p)
{
  fbRegionQuery q = {p, INFINITY, fbV(0, 0), false};
  fbVec2 edge = fbV(1, 0);
  for (int k = 0; k < r->count; ++k) {
    fbVec2 a = r->points[k], b = r->points[(k + 1) % r->count], e = fbV_Sub(b, a);
    if ((a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * e.x / e.y) {
      q.inside = !q.inside;
    }
    double t = fbV_Dot(fbV_Sub(p, a), e) / fbV_Dot(e, e);
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    fbVec2 c = fbV_Add(a, fbV_Scale(e, t));
    double d = fbV_Length(fbV_Sub(p, c));
    if (d < q.distance) {
      q.distance = d;
      q.closest = c;
      edge = e;
    }
  }
  if (q.distance > 0.0) {
    q.normal = fbV_Scale(fbV_Sub(p, q.closest), (q.inside ? 1.0 : -1.0) / q.distance);
  } else {
    q.normal = fbV_Scale(fbV(-edge.y, edge.x), r->area_sign / fbV_Length(edge));
  }
  return q;
}

void fbRegion_Free(fbRegion *r)
{
  free(r->points);
  memset(r, 0, sizeof *r);
}

int fbRegions_Find(const fbRegions *rs, const char *name)
{
  for (int k = 0; k < rs->count; ++k) {
    if (strcmp(rs->items[k].name, name) == 0) {
      return k;
    }
  }
  return -1;
}

void fbRegions_Free(fbRegions *rs)
{
  for (int k = 0; k < rs->count; ++k) {
    fbRegion_Free(&rs->items[k]);
  }
  free(rs->items);
  memset(rs, 0, sizeof *rs);
}
