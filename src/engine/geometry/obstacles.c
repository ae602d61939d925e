// obstacles.c — circles and convex polygons: distance, queries, feeler rays, silhouettes, collisions.
#include "obstacles.h"

#include <stdarg.h>
#include <string.h>

#include "fb_math.h"
#include "memory.h"

/*
 * Conventions. A polygon is stored counter-clockwise in the sense of the shoelace formula,
 *   A = 1/2 sum_i (x_i y_{i+1} - x_{i+1} y_i) > 0,
 * so for the edge e = v_{i+1} - v_i the outward unit normal is n = (e_y, -e_x) / |e| (the
 * interior lies on the side of -n). The signed distance of p from the line of that edge is
 * s_i = (p - v_i) . n_i. A convex polygon is the intersection of the half-planes s_i <= 0.
 *
 * Signed distance to the surface (negative inside):
 *   circle:  |p - c| - R, normal (p - c) / |p - c|, closest point c + R n;
 *   polygon: if every s_i <= 0, p is inside and the nearest boundary point is the foot of the
 *            perpendicular on the edge with the largest s_i (the ball of radius -max s_i about p
 *            lies in every half-plane, so that foot is on the polygon): distance max s_i, normal
 *            n_i, closest p - s_i n_i. Otherwise p is outside and the distance is the smallest
 *            distance to an edge segment, reached at q = v_i + clamp(t, 0, 1) e with
 *            t = (p - v_i) . e / (e . e); normal (p - q) / |p - q|.
 *
 * Growing by a pad (a body of radius pad against the obstacle) is the Minkowski sum with a disc:
 * the set of points within pad of the obstacle. Its signed distance is simply the obstacle's
 * minus pad; for a circle it is the circle of radius R + pad, for a polygon the edges pushed out
 * by pad along their normals joined by arcs of radius pad about the vertices. Rays are tested
 * against exactly that boundary (offset edges plus vertex circles), so feelers and collisions
 * are exact for both kinds.
 */

// Points closer than this to a surface count as on it (world units; rounding is ~1e-12 here).
#define FB_SURFACE_EPS 1e-9

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
  if (err != NULL && errlen > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return -1;
}

void fbObstacles_Init(fbObstacles *o) { memset(o, 0, sizeof *o); }

void fbObstacles_Free(fbObstacles *o)
{
  free(o->items);
  free(o->vertices);
  memset(o, 0, sizeof *o);
}

void fbObstacles_Clear(fbObstacles *o)
{
  o->count = 0;
  o->vertex_count = 0;
}

static int push_item(fbObstacles *o, fbObstacle item)
{
  if (o->count == o->capacity) {
    o->capacity = o->capacity > 0 ? 2 * o->capacity : 8;
    o->items = fbMemory_Grow(o->items, sizeof *o->items, (size_t)o->capacity);
  }
  o->items[o->count] = item;
  return o->count++;
}

int fbObstacles_AddCircle(fbObstacles *o, fbVec2 centre, double radius, char *err, size_t errlen)
{
  if (!isfinite(centre.x) || !isfinite(centre.y)) {
    return fail(err, errlen, "circle centre must be finite");
  }
  if (!(radius > 0.0) || !isfinite(radius)) {
    return fail(err, errlen, "circle radius must be positive and finite, got %g", radius);
  }
  fbObstacle c = {FB_OBSTACLE_CIRCLE, centre, radius, 0, 0};
  return push_item(o, c);
}

/*
 * Polygon checks, with v already in counter-clockwise order. Convex and simple means the
 * boundary turns left (or goes straight) at every vertex and turns through exactly one full
 * circle in all: the turn at v_i is the angle from e_{i-1} to e_i, atan2(e_{i-1} x e_i,
 * e_{i-1} . e_i), each >= 0 and summing to 2 pi. A star (pentagram) turns left everywhere but
 * sums to 4 pi; a dent has a negative turn; a spike doubles straight back (a turn of pi with no
 * cross product). Trigonometry is fine here: this runs once per polygon when a scenario loads.
 */
static const char *polygon_problem(const fbVec2 *v, int n, double scale)
{
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    fbVec2 a = fbV_Sub(v[i], v[(i + n - 1) % n]);
    fbVec2 b = fbV_Sub(v[(i + 1) % n], v[i]);
    double la = fbV_Length(a), lb = fbV_Length(b);
    if (la <= 1e-12 * scale || lb <= 1e-12 * scale) {
      return "has two equal consecutive vertices";
    }
    double cross = fbV_Cross(a, b), dot = fbV_Dot(a, b);
    if (cross < -1e-12 * la * lb) {
      return "is not convex";
    }
    if (fabs(cross) <= 1e-12 * la * lb && dot < 0.0) {
      return "doubles back on itself";
    }
    total += fbMath_Atan2(fmax(cross, 0.0), dot);
  }
  if (fabs(total - 2.0 * FB_PI) > 1e-6) {
    return "is not convex (its edges cross)";
  }
  return NULL;
}

int fbObstacles_AddPolygon(fbObstacles *o, const fbVec2 *v, int n, char *err, size_t errlen)
{
  if (v == NULL || n < 3) {
    return fail(err, errlen, "a polygon needs at least 3 vertices, got %d", v == NULL ? 0 : n);
  }
  double minx = INFINITY, miny = INFINITY, maxx = -INFINITY, maxy = -INFINITY;
  for (int i = 0; i < n; ++i) {
    if (!isfinite(v[i].x) || !isfinite(v[i].y)) {
      return fail(err, errlen, "polygon vertex %d is not finite", i + 1);
    }
    minx = fmin(minx, v[i].x);
    maxx = fmax(maxx, v[i].x);
    miny = fmin(miny, v[i].y);
    maxy = fmax(maxy, v[i].y);
  }
  // Shoelace area and centroid, relative to v[0] to keep the products small:
  // A = 1/2 sum cross(a_i, a_{i+1}), C = v0 + 1/(6A) sum (a_i + a_{i+1}) cross(a_i, a_{i+1}).
  double area2 = 0.0, cx = 0.0, cy = 0.0;
  for (int i = 0; i < n; ++i) {
    fbVec2 a = fbV_Sub(v[i], v[0]), b = fbV_Sub(v[(i + 1) % n], v[0]);
    double c = fbV_Cross(a, b);
    area2 += c;
    cx += (a.x + b.x) * c;
    cy += (a.y + b.y) * c;
  }
  double scale = fmax(maxx - minx, maxy - miny);
  if (!(fabs(area2) > 1e-12 * scale * scale)) {
    return fail(err, errlen, "polygon has zero area");
  }

  if (o->vertex_count + n > o->vertex_capacity) {
    while (o->vertex_capacity < o->vertex_count + n) {
      o->vertex_capacity = o->vertex_capacity > 0 ? 2 * o->vertex_capacity : 32;
    }
    o->vertices = fbMemory_Grow(o->vertices, sizeof *o->vertices, (size_t)o->vertex_capacity);
  }
  fbVec2 *dst = o->vertices + o->vertex_count;
  for (int i = 0; i < n; ++i) {
    dst[i] = area2 > 0.0 ? v[i] : v[n - 1 - i];  // clockwise input is reversed
  }
  const char *problem = polygon_problem(dst, n, scale);
  if (problem != NULL) {
    return fail(err, errlen, "polygon %s", problem);
  }

  fbVec2 centroid = fbV(v[0].x + cx / (3.0 * area2), v[0].y + cy / (3.0 * area2));
  double radius = 0.0;
  for (int i = 0; i < n; ++i) {
    radius = fmax(radius, fbV_Length(fbV_Sub(dst[i], centroid)));
  }
  fbObstacle p = {FB_OBSTACLE_POLYGON, centroid, radius, o->vertex_count, n};
  o->vertex_count += n;
  return push_item(o, p);
}

// ---- distance ---------------------------------------------------------------------------------

// Outward unit normal of the edge a -> b of a counter-clockwise polygon.
static fbVec2 edge_normal(fbVec2 a, fbVec2 b)
{
  fbVec2 e = fbV_Sub(b, a);
  return fbV_Scale(fbV(e.y, -e.x), 1.0 / fbV_Length(e));
}

static double circle_distance(const fbObstacle *ob, fbVec2 p, fbVec2 *closest, fbVec2 *normal)
{
  fbVec2 m = fbV_Sub(p, ob->centre);
  double len = fbV_Length(m);
  fbVec2 n = len > 0.0 ? fbV_Scale(m, 1.0 / len) : fbV(1.0, 0.0);  // the centre itself: any way out
  *closest = fbV_Add(ob->centre, fbV_Scale(n, ob->radius));
  *normal = n;
  return len - ob->radius;
}

static double polygon_distance(const fbObstacles *o, const fbObstacle *ob, fbVec2 p, fbVec2 *closest,
                               fbVec2 *normal)
{
  const fbVec2 *v = o->vertices + ob->first_vertex;
  const int n = ob->vertex_count;
  double smax = -INFINITY;
  fbVec2 nmax = {0, 0};
  for (int i = 0; i < n; ++i) {
    fbVec2 en = edge_normal(v[i], v[(i + 1) % n]);
    double s = fbV_Dot(fbV_Sub(p, v[i]), en);
    if (s > smax) {
      smax = s;
      nmax = en;
    }
  }
  if (smax <= 0.0) {  // inside (or on the surface)
    *closest = fbV_Sub(p, fbV_Scale(nmax, smax));
    *normal = nmax;
    return smax;
  }
  double best2 = INFINITY;
  fbVec2 q = v[0];
  for (int i = 0; i < n; ++i) {
    fbVec2 a = v[i], e = fbV_Sub(v[(i + 1) % n], a);
    double t = fbV_Dot(fbV_Sub(p, a), e) / fbV_Dot(e, e);
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    fbVec2 c = fbV_Add(a, fbV_Scale(e, t));
    double d2 = fbV_Length2(fbV_Sub(p, c));
    if (d2 < best2) {
      best2 = d2;
      q = c;
    }
  }
  double d = sqrt(best2);
  *closest = q;
  *normal = d > 0.0 ? fbV_Scale(fbV_Sub(p, q), 1.0 / d) : nmax;
  return d;
}

double fbObstacles_Distance(const fbObstacles *o, int index, fbVec2 p, fbVec2 *closest, fbVec2 *normal)
{
  FB_ASSERT(index >= 0 && index < o->count);
  const fbObstacle *ob = &o->items[index];
  fbVec2 c, n;
  double d = ob->kind == FB_OBSTACLE_CIRCLE ? circle_distance(ob, p, &c, &n) : polygon_distance(o, ob, p, &c, &n);
  if (closest != NULL) {
    *closest = c;
  }
  if (normal != NULL) {
    *normal = n;
  }
  return d;
}

// The surface of ob is surely farther than range from p: p is outside its bounding circle by more.
static bool surely_beyond(const fbObstacle *ob, fbVec2 p, double range)
{
  double reach = ob->radius + range;
  return reach < 0.0 || fbV_Length2(fbV_Sub(p, ob->centre)) > reach * reach * (1.0 + 1e-12) + 1e-300;
}

bool fbObstacles_Nearest(const fbObstacles *o, fbVec2 p, double range, int *index, double *distance)
{
  int best = -1;
  double best_d = INFINITY;
  for (int k = 0; k < o->count; ++k) {
    if (surely_beyond(&o->items[k], p, range)) {
      continue;
    }
    double d = fbObstacles_Distance(o, k, p, NULL, NULL);
    if (d <= range && d < best_d) {
      best = k;
      best_d = d;
    }
  }
  if (best < 0) {
    return false;
  }
  if (index != NULL) {
    *index = best;
  }
  if (distance != NULL) {
    *distance = best_d;
  }
  return true;
}

int fbObstacles_Query(const fbObstacles *o, fbVec2 p, double range, int *out, int max)
{
  int found = 0;
  for (int k = 0; k < o->count; ++k) {
    if (surely_beyond(&o->items[k], p, range) || !(fbObstacles_Distance(o, k, p, NULL, NULL) <= range)) {
      continue;
    }
    if (found < max && out != NULL) {
      out[found] = k;
    }
    ++found;
  }
  return found;
}

// ---- rays -------------------------------------------------------------------------------------

/*
 * Entry of the ray origin + t dir (|dir| = 1, t >= 0) into the disc |x - c| <= R, from outside.
 * With m = origin - c, b = m . dir and k = m . m - R^2 > 0 (outside), |m + t dir|^2 = R^2 gives
 * t^2 + 2 b t + k = 0, whose smaller root is t = -b - sqrt(b^2 - k) = k / (-b + sqrt(b^2 - k))
 * (the second form avoids cancellation when the disc is small and far). The ray enters only if
 * it approaches (b < 0) and the discriminant is positive (a tangent only grazes). This is Bourg's
 * feeler test (ch. 4, "Obstacle Avoidance": project the offset to the centre onto the feeler; it
 * touches when the perpendicular part is shorter than the radius and the projection shorter than
 * the feeler), solved exactly so that it also says where the surface is met.
 */
static bool ray_disc(fbVec2 origin, fbVec2 dir, fbVec2 c, double R, double *t)
{
  fbVec2 m = fbV_Sub(origin, c);
  double b = fbV_Dot(m, dir), k = fbV_Length2(m) - R * R;
  if (k <= 0.0 || b >= 0.0) {
    return false;
  }
  double disc = b * b - k;
  if (!(disc > 1e-12 * R * R)) {
    return false;
  }
  *t = k / (-b + sqrt(disc));
  return true;
}

/*
 * Ray against the polygon grown by pad (Minkowski sum with a disc). The ray starts outside.
 * Edge i pushed out by pad is the segment v_i + pad n_i .. v_{i+1} + pad n_i on the line
 * (x - v_i) . n_i = pad. The ray crosses that line going in (dir . n_i < 0) at
 *   t = ((origin - v_i) . n_i - pad) / (-dir . n_i),
 * and hits the segment if the crossing projects inside the edge, 0 <= (x - v_i) . e / (e . e) <= 1.
 * The rounded corners are the discs of radius pad about the vertices (ray_disc). The grown shape
 * is the union of the polygon, the offset edge strips and the vertex discs, so its first entry
 * is the smallest of these entries (a strip entered through its end is entered through a disc).
 */
static bool ray_polygon(const fbObstacles *o, const fbObstacle *ob, fbVec2 origin, fbVec2 dir, double max_len,
                        double pad, double *t_hit, fbVec2 *normal)
{
  const fbVec2 *v = o->vertices + ob->first_vertex;
  const int n = ob->vertex_count;
  bool found = false;
  double best = max_len;
  for (int i = 0; i < n; ++i) {
    fbVec2 a = v[i], b = v[(i + 1) % n], e = fbV_Sub(b, a);
    fbVec2 en = edge_normal(a, b);
    double approach = -fbV_Dot(dir, en);
    if (approach > 0.0) {
      double t = (fbV_Dot(fbV_Sub(origin, a), en) - pad) / approach;
      if (t >= 0.0 && t <= best) {
        fbVec2 x = fbV_Add(origin, fbV_Scale(dir, t));
        double u = fbV_Dot(fbV_Sub(x, a), e) / fbV_Dot(e, e);
        if (u >= -1e-12 && u <= 1.0 + 1e-12) {
          best = t;
          *normal = en;
          found = true;
        }
      }
    }
    double t;
    if (pad > 0.0 && ray_disc(origin, dir, a, pad, &t) && t <= best) {
      best = t;
      *normal = fbV_Scale(fbV_Sub(fbV_Add(origin, fbV_Scale(dir, t)), a), 1.0 / pad);
      found = true;
    }
  }
  *t_hit = best;
  return found;
}

bool fbObstacles_Raycast(const fbObstacles *o, fbVec2 origin, fbVec2 dir, double max_len, double pad,
                         fbObstacleHit *hit)
{
  bool found = false;
  double best = INFINITY;
  fbVec2 best_n = {0, 0};
  int best_k = -1;
  if (!(pad >= 0.0)) {
    pad = 0.0;
  }
  for (int k = 0; k < o->count; ++k) {
    const fbObstacle *ob = &o->items[k];
    // The bounding circle, grown alike, settles most obstacles without looking at vertices.
    const double reach = ob->radius + pad + FB_SURFACE_EPS;
    double t;
    fbVec2 n;
    if (fbV_Length2(fbV_Sub(origin, ob->centre)) > reach * reach) {
      if (!ray_disc(origin, dir, ob->centre, reach, &t) || !(t <= fmin(max_len, best))) {
        continue;
      }
    } else {
      // Starting inside (or on the surface and heading in): a hit right here.
      double sd = fbObstacles_Distance(o, k, origin, NULL, &n) - pad;
      if (sd < -FB_SURFACE_EPS || (sd <= FB_SURFACE_EPS && fbV_Dot(dir, n) < 0.0)) {
        if (0.0 < best) {
          best = 0.0;
          best_n = n;
          best_k = k;
          found = true;
        }
        continue;
      }
      if (sd <= FB_SURFACE_EPS || !(max_len >= 0.0)) {
        continue;  // on the surface heading along or away: a convex shape is not entered
      }
    }
    if (ob->kind == FB_OBSTACLE_CIRCLE) {
      const double R = ob->radius + pad;
      if (ray_disc(origin, dir, ob->centre, R, &t) && t <= max_len && t < best) {
        best = t;
        best_n = fbV_Scale(fbV_Sub(fbV_Add(origin, fbV_Scale(dir, t)), ob->centre), 1.0 / R);
        best_k = k;
        found = true;
      }
    } else if (ray_polygon(o, ob, origin, dir, fmin(max_len, best), pad, &t, &n) && t < best) {
      best = t;
      best_n = n;
      best_k = k;
      found = true;
    }
  }
  if (found && hit != NULL) {
    hit->index = best_k;
    hit->distance = best;
    hit->point = fbV_Add(origin, fbV_Scale(dir, best));
    hit->normal = best_n;
  }
  return found;
}

// ---- silhouettes ------------------------------------------------------------------------------

/*
 * Gompert 6.2, nearest silhouette edge. With f = dir (unit) and the lateral axis l = (-f_y, f_x),
 * a point x has depth (x - p) . f and lateral offset (x - p) . l. Projecting the obstacle onto
 * the lateral axis gives an interval: [min_i l_i, max_i l_i] over a polygon's vertices, or
 * l_c -+ R for a circle (the projections of its two tangent-extent points c -+ R l). Growing
 * by pad widens it to [lo, hi] = [min - pad, max + pad]. If lo and hi have the same sign the
 * whole grown obstacle passes on one side of the line of travel and can be ignored; so can an
 * obstacle wholly behind p (no point of it at positive depth: every vertex, or the circle's
 * far point c + R f). Otherwise the silhouette edge with the smaller |projection| is the
 * nearer way round, and the target is the point at that lateral offset (lo or hi, already pad
 * beyond the edge) and at the depth of the silhouette (the extreme vertex, or the centre of a
 * circle, where its tangent-extent points lie). A silhouette behind p (the body is already
 * alongside) is brought up to depth 0 so that the target is never behind the agent.
 * (Gompert's own code projects a circle across the direction to its centre, not across the
 * velocity; here both shapes are projected across the direction of travel, as his text says.)
 */
bool fbObstacles_Silhouette(const fbObstacles *o, int index, fbVec2 p, fbVec2 dir, double pad, fbVec2 *target)
{
  return fbObstacles_SilhouetteComfort(o, index, p, dir, pad, 1.0, target);
}

/*
 * Gompert's comfort space (appendix A, avoidObstacles): a tree farther than two padded radii
 * R = r + pad is projected `comfort` times as wide (his 1.3: "a bigger radius than the actual
 * radius just to give some comfort space"); nearer, at its size. So from afar a row of trees whose
 * gaps a body can pass may show no gap at all, and an animal that sees far enough steers along it
 * instead of through (Table 2, "trapped by obstacles"); limit the obstacle range below two radii
 * and only true silhouettes are seen. Polygons have no radius and are projected at their size.
 */
bool fbObstacles_SilhouetteComfort(const fbObstacles *o, int index, fbVec2 p, fbVec2 dir, double pad, double comfort,
                                   fbVec2 *target)
{
  FB_ASSERT(index >= 0 && index < o->count);
  const fbObstacle *ob = &o->items[index];
  const fbVec2 lat = fbV(-dir.y, dir.x);
  if (!(pad >= 0.0)) {
    pad = 0.0;
  }
  double lmin, lmax, depth_min, depth_max;
  if (ob->kind == FB_OBSTACLE_CIRCLE) {
    fbVec2 rel = fbV_Sub(ob->centre, p);
    double depth = fbV_Dot(rel, dir), l = fbV_Dot(rel, lat);
    if (depth + ob->radius <= 0.0) {
      return false;  // wholly behind
    }
    const double grown = ob->radius + fmax(pad, 0.0);
    const double half = fbV_Length(rel) >= 2.0 * grown && comfort > 1.0 ? comfort * grown : grown;
    lmin = l - (half - fmax(pad, 0.0));  // widened by pad below: l -+ half in all
    lmax = l + (half - fmax(pad, 0.0));
    depth_min = depth_max = depth;
  } else {
    const fbVec2 *v = o->vertices + ob->first_vertex;
    double far = -INFINITY;
    lmin = INFINITY;
    lmax = -INFINITY;
    depth_min = depth_max = 0.0;
    for (int i = 0; i < ob->vertex_count; ++i) {
      fbVec2 rel = fbV_Sub(v[i], p);
      double depth = fbV_Dot(rel, dir), l = fbV_Dot(rel, lat);
      far = fmax(far, depth);
      if (l < lmin) {
        lmin = l;
        depth_min = depth;
      }
      if (l > lmax) {
        lmax = l;
        depth_max = depth;
      }
    }
    if (far <= 0.0) {
      return false;  // wholly behind
    }
  }
  const double lo = lmin - pad, hi = lmax + pad;
  if (lo >= 0.0 || hi <= 0.0) {
    return false;  // off to one side
  }
  const bool low_side = -lo <= hi;
  const double side = low_side ? lo : hi;
  const double depth = fmax(low_side ? depth_min : depth_max, 0.0);
  if (target != NULL) {
    *target = fbV_Add(p, fbV_Add(fbV_Scale(dir, depth), fbV_Scale(lat, side)));
  }
  return true;
}

/*
 * The far side along a direction (Reynolds 1999, "hide"). A ray c + t u from the centre c of a
 * convex polygon (its centroid, inside) leaves through the first edge it reaches: with n_i the
 * edge's outward normal and s_i = (v_i - c) . n_i > 0 the centre's depth below it, the ray meets
 * that edge's line at t_i = s_i / (u . n_i) when it heads out of it (u . n_i > 0); the exit is the
 * smallest such t_i. A circle's is its radius.
 */
double fbObstacles_FarSide(const fbObstacles *o, int index, fbVec2 dir)
{
  FB_ASSERT(index >= 0 && index < o->count);
  const fbObstacle *ob = &o->items[index];
  if (ob->kind == FB_OBSTACLE_CIRCLE) {
    return ob->radius;
  }
  const fbVec2 *v = o->vertices + ob->first_vertex;
  const int n = ob->vertex_count;
  double exit = ob->radius;  // the bounding radius: never nearer than the true exit
  for (int i = 0; i < n; ++i) {
    fbVec2 en = edge_normal(v[i], v[(i + 1) % n]);
    double outward = fbV_Dot(dir, en);
    if (outward > 0.0) {
      exit = fmin(exit, fbV_Dot(fbV_Sub(v[i], ob->centre), en) / outward);
    }
  }
  return exit;
}

// ---- collisions -------------------------------------------------------------------------------

/*
 * Moves p out of every obstacle grown by r: where the signed distance d < r, p moves by (r - d)
 * along the outward normal at its closest point, which puts it on the grown surface (outside,
 * that is p = closest + r n; inside a polygon, the foot on the nearest edge plus r n). A few
 * rounds settle a point caught between overlapping obstacles. Returns whether p moved.
 */
static bool push_out(const fbObstacles *o, fbVec2 *p, double r, fbVec2 *normal)
{
  bool moved = false;
  for (int round = 0; round < 4; ++round) {
    bool any = false;
    for (int k = 0; k < o->count; ++k) {
      if (surely_beyond(&o->items[k], *p, r)) {
        continue;
      }
      fbVec2 n;
      double d = fbObstacles_Distance(o, k, *p, NULL, &n);
      if (d < r) {
        *p = fbV_Add(*p, fbV_Scale(n, r - d));
        *normal = n;
        any = moved = true;
      }
    }
    if (!any) {
      break;
    }
  }
  return moved;
}

/*
 * Gompert 8.1: a body checked only at its new position can jump through a thin obstacle when
 * it moves farther than the obstacle is thick in one step, so the segment swept from -> to is
 * tested instead. A disc of radius r touches an obstacle exactly when its centre touches the
 * obstacle grown by r, so the swept disc is the feeler ray from `from` along the motion, of the
 * step's length, against obstacles grown by r. At the first contact the body stops; it is then
 * pushed out along the normal, which only mops up rounding (or, for a body that started inside,
 * where the ray reports a contact at distance 0, moves it out to the surface).
 */
bool fbObstacles_Collide(const fbObstacles *o, fbVec2 from, fbVec2 *to, double r, fbVec2 *normal)
{
  if (o->count == 0) {
    return false;
  }
  if (!(r >= 0.0)) {
    r = 0.0;
  }
  fbVec2 step = fbV_Sub(*to, from);
  double len = fbV_Length(step);
  fbVec2 contact, n = {0, 0};
  fbObstacleHit hit;
  if (len > 0.0 && fbObstacles_Raycast(o, from, fbV_Scale(step, 1.0 / len), len, r, &hit)) {
    contact = hit.point;
    n = hit.normal;
  } else {
    // No motion, or clear: only a body ending up inside (it started there) needs moving.
    contact = len > 0.0 ? *to : from;
    fbVec2 p = contact;
    if (!push_out(o, &p, r - FB_SURFACE_EPS, &n)) {
      return false;
    }
  }
  push_out(o, &contact, r, &n);
  *to = contact;
  if (normal != NULL) {
    *normal = n;
  }
  return true;
}

/*
 * Collide and slide (the "collide and slide" of game character controllers; Quake's
 * PM_SlideMove clips a move against the planes it touches in the same way). A move d = to - from
 * that meets a grown surface stops at the contact c (fbObstacles_Collide) with the rest of it,
 * e = (from + d) - c, still to go. Near c the surface is the line through c with outward unit
 * normal n: the wall refuses only the part of e into it, (e . n) n when e . n < 0, and the body
 * goes on by the tangential part
 *   e_t = e - (e . n) n,        e_t . n = 0,
 * from c, cast again like the first part: the tangent may meet another surface. Along the face
 * of one convex obstacle it cannot (its grown surface turns away from every tangent, so at most
 * the body leaves the face a little outward), only another obstacle can: then e_t is clipped by
 * that surface's normal n' in turn. Corners: in the plane the tangent lines of two surfaces meet
 * in a single point, so when the remainder clipped by n' heads into an earlier surface
 * (e_t' . n < 0) the body is wedged in the corner between them and stops there (Quake slides along
 * the crease n x n'; a plane has none). At most FB_SLIDE_CONTACTS casts: what is left after the
 * last is dropped and the body stays at the last contact. Every piece is a swept cast ending
 * pushed out of every grown obstacle, so a slide neither tunnels nor ends inside. Each piece is
 * cut to the length the move still had, so a body pushed out from inside slides no farther than
 * it was asked to move.
 *
 * Rounding: e_t is computed at a point on the grown surface, and e_t . n comes out as +-1e-16 |e|;
 * a ray from the surface heading in by even that much reports a hit at distance 0, which would stop
 * the slide. So e_t gets an outward lift of FB_SURFACE_EPS / 2, half the width that counts as on
 * the surface: a body sliding along a wall drifts off it by at most 5e-10 a step.
 *
 * A body moving clear of everything pays one cast, as with fbObstacles_Collide; only a body that
 * hits something casts again.
 */
// Whether d heads into a surface met before the last one (a corner, in the plane).
static bool into_earlier(const fbContacts *c, fbVec2 d)
{
  for (int k = 0; k + 1 < c->count; ++k) {
    if (fbV_Dot(d, c->normal[k]) < 0.0) {
      return true;
    }
  }
  return false;
}

bool fbObstacles_Slide(const fbObstacles *o, fbVec2 from, fbVec2 *to, double r, fbContacts *contacts)
{
  contacts->count = 0;
  if (o->count == 0) {
    return false;
  }
  const fbVec2 aim = *to;
  fbVec2 p = from, rest = fbV_Sub(aim, from);
  while (contacts->count < FB_SLIDE_CONTACTS) {
    fbVec2 end = fbV_Add(p, rest), n;
    if (!fbObstacles_Collide(o, p, &end, r, &n)) {
      p = end;  // clear: the whole remainder is walked
      break;
    }
    contacts->normal[contacts->count++] = n;
    const double left = fbV_Length(rest);
    rest = fbV_Sub(fbV_Add(p, rest), end);  // what the contact left of this piece
    p = end;
    const double into = fbV_Dot(rest, n);
    if (into < 0.0) {
      rest = fbV_Sub(rest, fbV_Scale(n, into));
    }
    const double along = fbV_Length(rest);
    if (!(along > FB_SURFACE_EPS)) {
      break;  // head on: nothing left to slide
    }
    if (along > left) {
      rest = fbV_Scale(rest, left / along);
    }
    rest = fbV_Add(rest, fbV_Scale(n, 0.5 * FB_SURFACE_EPS));
    if (into_earlier(contacts, rest)) {
      break;  // wedged in a corner
    }
  }
  const bool changed = p.x != aim.x || p.y != aim.y;
  *to = p;
  return changed;
}

fbVec2 fbContacts_Clip(const fbContacts *c, fbVec2 v)
{
  const double tolerance = 1e-9 * fbV_Length(v);
  for (int k = 0; k < c->count; ++k) {
    const double into = fbV_Dot(v, c->normal[k]);
    if (into < 0.0) {
      v = fbV_Sub(v, fbV_Scale(c->normal[k], into));
    }
    for (int j = 0; j < k; ++j) {
      if (fbV_Dot(v, c->normal[j]) < -tolerance) {
        return fbV(0.0, 0.0);  // into a corner: no way along either surface
      }
    }
  }
  return v;
}
