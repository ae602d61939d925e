// test_obstacles.c — circles and convex polygons: distance, validation, rays, silhouettes, collisions.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "obstacles.h"
#include "rng.h"

// cmocka 1.1 compares only integers.
#include "test_util.h"

#define EPS 1e-12

static char g_err[256];

static int add_poly(fbObstacles *o, const fbVec2 *v, int n)
{
  g_err[0] = '\0';
  return fbObstacles_AddPolygon(o, v, n, g_err, sizeof g_err);
}

static const fbVec2 SQUARE[] = {{0, 0}, {4, 0}, {4, 4}, {0, 4}};           // positive shoelace area
static const fbVec2 SQUARE_CW[] = {{0, 0}, {0, 4}, {4, 4}, {4, 0}};        // the other winding

static double shoelace(const fbObstacles *o, int k)
{
  const fbObstacle *ob = &o->items[k];
  const fbVec2 *v = o->vertices + ob->first_vertex;
  double a = 0;
  for (int i = 0; i < ob->vertex_count; ++i) {
    a += fbV_Cross(v[i], v[(i + 1) % ob->vertex_count]);
  }
  return a / 2;
}

// ---- distance ---------------------------------------------------------------------------

static void circle_distance_and_normal(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  assert_int_equal(fbObstacles_AddCircle(&o, fbV(10, 10), 2, g_err, sizeof g_err), 0);
  fbVec2 c, n;
  // outside: offset (3, 4), length 5
  assert_near(fbObstacles_Distance(&o, 0, fbV(13, 14), &c, &n), 3.0, EPS);
  assert_near(n.x, 0.6, EPS);
  assert_near(n.y, 0.8, EPS);
  assert_near(c.x, 11.2, EPS);
  assert_near(c.y, 11.6, EPS);
  // inside
  assert_near(fbObstacles_Distance(&o, 0, fbV(10, 11), &c, &n), -1.0, EPS);
  assert_near(n.x, 0.0, EPS);
  assert_near(n.y, 1.0, EPS);
  assert_near(c.y, 12.0, EPS);
  // the centre: distance -R, some unit normal, closest point on the circle
  assert_near(fbObstacles_Distance(&o, 0, fbV(10, 10), &c, &n), -2.0, EPS);
  assert_near(fbV_Length(n), 1.0, EPS);
  assert_near(fbV_Length(fbV_Sub(c, fbV(10, 10))), 2.0, EPS);
  // NULL outputs are allowed
  assert_near(fbObstacles_Distance(&o, 0, fbV(10, 5), NULL, NULL), 3.0, EPS);
  fbObstacles_Free(&o);
}

static void square_distance_and_normal(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  assert_int_equal(add_poly(&o, SQUARE, 4), 0);
  assert_near(o.items[0].centre.x, 2.0, EPS);
  assert_near(o.items[0].centre.y, 2.0, EPS);
  assert_near(o.items[0].radius, sqrt(8.0), EPS);
  fbVec2 c, n;
  // beside an edge
  assert_near(fbObstacles_Distance(&o, 0, fbV(2, -3), &c, &n), 3.0, EPS);
  assert_near(n.x, 0.0, EPS);
  assert_near(n.y, -1.0, EPS);
  assert_near(c.x, 2.0, EPS);
  assert_near(c.y, 0.0, EPS);
  // off a corner: offset (2, 3) from (4, 4)
  assert_near(fbObstacles_Distance(&o, 0, fbV(6, 7), &c, &n), sqrt(13.0), EPS);
  assert_near(n.x, 2 / sqrt(13.0), EPS);
  assert_near(n.y, 3 / sqrt(13.0), EPS);
  assert_near(c.x, 4.0, EPS);
  assert_near(c.y, 4.0, EPS);
  // inside: the nearest edge, at minus its distance
  assert_near(fbObstacles_Distance(&o, 0, fbV(1, 2), &c, &n), -1.0, EPS);
  assert_near(n.x, -1.0, EPS);
  assert_near(n.y, 0.0, EPS);
  assert_near(c.x, 0.0, EPS);
  assert_near(c.y, 2.0, EPS);
  assert_near(fbObstacles_Distance(&o, 0, fbV(3, 2.5), &c, &n), -1.0, EPS);
  assert_near(n.x, 1.0, EPS);
  assert_near(c.x, 4.0, EPS);
  assert_near(c.y, 2.5, EPS);
  // on the surface
  assert_near(fbObstacles_Distance(&o, 0, fbV(4, 1), NULL, NULL), 0.0, EPS);
  fbObstacles_Free(&o);
}

static void either_winding_accepted(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  assert_int_equal(add_poly(&o, SQUARE_CW, 4), 0);
  assert_int_equal(add_poly(&o, SQUARE, 4), 1);
  assert_true(shoelace(&o, 0) > 0 && shoelace(&o, 1) > 0);
  assert_near(shoelace(&o, 0), 16.0, EPS);
  const fbVec2 probes[] = {{2, -3}, {6, 7}, {1, 2}, {3, 2.5}, {-1, 5}, {2, 1.5}};  // (the centre would be a tie)
  for (size_t k = 0; k < sizeof probes / sizeof probes[0]; ++k) {
    fbVec2 c0, n0, c1, n1;
    double d0 = fbObstacles_Distance(&o, 0, probes[k], &c0, &n0);
    double d1 = fbObstacles_Distance(&o, 1, probes[k], &c1, &n1);
    assert_near(d0, d1, EPS);
    assert_near(fbV_Length(fbV_Sub(c0, c1)), 0.0, EPS);
    assert_near(fbV_Dot(n0, n1), 1.0, EPS);
  }
  // a triangle given clockwise, and a pentagon with a collinear vertex
  const fbVec2 tri[] = {{0, 0}, {0, 3}, {3, 0}};
  assert_int_equal(add_poly(&o, tri, 3), 2);
  assert_true(shoelace(&o, 2) > 0);
  assert_near(o.items[2].centre.x, 1.0, EPS);
  assert_near(o.items[2].centre.y, 1.0, EPS);
  const fbVec2 flat_side[] = {{0, 0}, {2, 0}, {4, 0}, {4, 4}, {0, 4}};
  assert_int_equal(add_poly(&o, flat_side, 5), 3);
  assert_int_equal(o.count, 4);
  assert_int_equal(o.vertex_count, 4 + 4 + 3 + 5);
  fbObstacles_Free(&o);
}

static void bad_shapes_rejected(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  // not convex: a dent, and a star that turns left at every vertex but winds twice
  const fbVec2 dent[] = {{0, 0}, {4, 0}, {2, 1}, {4, 4}, {0, 4}};
  assert_int_equal(add_poly(&o, dent, 5), -1);
  assert_non_null(strstr(g_err, "convex"));
  fbVec2 star[5];
  for (int i = 0; i < 5; ++i) {
    double a = 2 * FB_PI * (2 * i) / 5;
    star[i] = fbV(cos(a), sin(a));
  }
  assert_int_equal(add_poly(&o, star, 5), -1);
  assert_non_null(strstr(g_err, "convex"));
  const fbVec2 bowtie[] = {{0, 0}, {4, 4}, {4, 0}, {0, 4}};
  assert_int_equal(add_poly(&o, bowtie, 4), -1);
  // degenerate: too few vertices, all on a line, a repeated vertex, a spike, not finite
  assert_int_equal(add_poly(&o, SQUARE, 2), -1);
  assert_non_null(strstr(g_err, "3"));
  const fbVec2 line[] = {{0, 0}, {1, 1}, {3, 3}};
  assert_int_equal(add_poly(&o, line, 3), -1);
  assert_non_null(strstr(g_err, "area"));
  const fbVec2 repeated[] = {{0, 0}, {4, 0}, {4, 0}, {4, 4}, {0, 4}};
  assert_int_equal(add_poly(&o, repeated, 5), -1);
  const fbVec2 spike[] = {{0, 0}, {4, 0}, {6, 0}, {4, 0.0}, {4, 4}, {0, 4}};
  assert_int_equal(add_poly(&o, spike, 6), -1);
  const fbVec2 nan_vertex[] = {{0, 0}, {4, NAN}, {0, 4}};
  assert_int_equal(add_poly(&o, nan_vertex, 3), -1);
  assert_non_null(strstr(g_err, "finite"));
  const fbVec2 inf_vertex[] = {{0, 0}, {INFINITY, 0}, {0, 4}};
  assert_int_equal(add_poly(&o, inf_vertex, 3), -1);
  // circles
  assert_int_equal(fbObstacles_AddCircle(&o, fbV(0, 0), 0.0, g_err, sizeof g_err), -1);
  assert_int_equal(fbObstacles_AddCircle(&o, fbV(0, 0), -1.0, g_err, sizeof g_err), -1);
  assert_int_equal(fbObstacles_AddCircle(&o, fbV(0, 0), NAN, g_err, sizeof g_err), -1);
  assert_int_equal(fbObstacles_AddCircle(&o, fbV(0, 0), INFINITY, NULL, 0), -1);
  assert_int_equal(fbObstacles_AddCircle(&o, fbV(NAN, 0), 1.0, g_err, sizeof g_err), -1);
  assert_int_equal(o.count, 0);
  assert_int_equal(o.vertex_count, 0);
  // still usable afterwards
  assert_int_equal(add_poly(&o, SQUARE, 4), 0);
  fbObstacles_Clear(&o);
  assert_int_equal(o.count, 0);
  assert_int_equal(fbObstacles_AddCircle(&o, fbV(0, 0), 1.0, NULL, 0), 0);
  fbObstacles_Free(&o);
}

static void query_and_nearest(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  fbObstacles_AddCircle(&o, fbV(10, 0), 1, NULL, 0);  // surface 9 from the origin
  assert_int_equal(add_poly(&o, SQUARE, 4), 1);       // 0: the origin is a corner
  fbObstacles_AddCircle(&o, fbV(0, -20), 5, NULL, 0);  // 15
  fbObstacles_AddCircle(&o, fbV(-6, 0), 1, NULL, 0);   // 5
  int out[8];
  assert_int_equal(fbObstacles_Query(&o, fbV(0, 0), 10, out, 8), 3);
  assert_int_equal(out[0], 0);
  assert_int_equal(out[1], 1);
  assert_int_equal(out[2], 3);
  assert_int_equal(fbObstacles_Query(&o, fbV(0, 0), 100, out, 2), 4);  // counts beyond max
  assert_int_equal(out[0], 0);
  assert_int_equal(out[1], 1);
  assert_int_equal(fbObstacles_Query(&o, fbV(0, 0), 15, NULL, 0), 4);  // exactly at range counts
  int k;
  double d;
  assert_true(fbObstacles_Nearest(&o, fbV(0, 0), 100, &k, &d));
  assert_int_equal(k, 1);
  assert_near(d, 0.0, EPS);
  assert_true(fbObstacles_Nearest(&o, fbV(-3, 0), 100, &k, &d));
  assert_int_equal(k, 3);  // 2 from the circle, 3 from the square
  assert_near(d, 2.0, EPS);
  assert_true(fbObstacles_Nearest(&o, fbV(2, 2), 100, &k, &d));  // inside the square
  assert_int_equal(k, 1);
  assert_near(d, -2.0, EPS);
  assert_false(fbObstacles_Nearest(&o, fbV(-3, 30), 1, &k, &d));
  fbObstacles_Free(&o);
}

// ---- rays -------------------------------------------------------------------------------

static void raycast_circle(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  fbObstacles_AddCircle(&o, fbV(10, 0), 2, NULL, 0);
  fbObstacleHit hit;
  // straight at the centre, grown by 0.5
  assert_true(fbObstacles_Raycast(&o, fbV(0, 0), fbV(1, 0), 20, 0.5, &hit));
  assert_int_equal(hit.index, 0);
  assert_near(hit.distance, 7.5, EPS);
  assert_near(hit.point.x, 7.5, EPS);
  assert_near(hit.normal.x, -1.0, EPS);
  assert_near(hit.normal.y, 0.0, EPS);
  // off-centre by 1: 10 - sqrt(2.5^2 - 1)
  assert_true(fbObstacles_Raycast(&o, fbV(0, 1), fbV(1, 0), 20, 0.5, &hit));
  assert_near(hit.distance, 10 - sqrt(5.25), EPS);
  assert_near(hit.normal.x, -sqrt(5.25) / 2.5, EPS);
  assert_near(hit.normal.y, 1 / 2.5, EPS);
  // a diagonal ray: the hit point is on the grown circle
  fbVec2 dir = fbV(1 / sqrt(2.0), 1 / sqrt(2.0));
  assert_true(fbObstacles_Raycast(&o, fbV(0, -9), dir, 30, 0.5, &hit));
  assert_near(fbV_Length(fbV_Sub(hit.point, fbV(10, 0))), 2.5, 1e-12);
  // misses: offset beyond the grown radius, too short, pointing away
  assert_false(fbObstacles_Raycast(&o, fbV(0, 2.6), fbV(1, 0), 20, 0.5, &hit));
  assert_true(fbObstacles_Raycast(&o, fbV(0, 2.4), fbV(1, 0), 20, 0.5, &hit));
  assert_false(fbObstacles_Raycast(&o, fbV(0, 0), fbV(1, 0), 7.4, 0.5, &hit));
  assert_true(fbObstacles_Raycast(&o, fbV(0, 0), fbV(1, 0), 7.6, 0.5, &hit));
  assert_false(fbObstacles_Raycast(&o, fbV(0, 0), fbV(-1, 0), 20, 0.5, &hit));
  // from inside: distance 0, normal out
  assert_true(fbObstacles_Raycast(&o, fbV(11, 0), fbV(-1, 0), 20, 0.5, &hit));
  assert_near(hit.distance, 0.0, 0.0);
  assert_near(hit.normal.x, 1.0, EPS);
  // on the grown surface: heading in hits at 0, heading along or out does not
  assert_true(fbObstacles_Raycast(&o, fbV(7.5, 0), fbV(1, 0), 20, 0.5, &hit));
  assert_near(hit.distance, 0.0, 0.0);
  assert_false(fbObstacles_Raycast(&o, fbV(7.5, 0), fbV(0, 1), 20, 0.5, &hit));
  assert_false(fbObstacles_Raycast(&o, fbV(7.5, 0), fbV(-1, 0), 20, 0.5, &hit));
  fbObstacles_Free(&o);
}

static void raycast_square_grown(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  add_poly(&o, SQUARE, 4);
  fbObstacleHit hit;
  // a face, pushed out by the pad
  assert_true(fbObstacles_Raycast(&o, fbV(-5, 2), fbV(1, 0), 20, 1.0, &hit));
  assert_near(hit.distance, 4.0, EPS);
  assert_near(hit.normal.x, -1.0, EPS);
  // the rounded corner about (0, 4): x = -sqrt(1 - 0.5^2)
  assert_true(fbObstacles_Raycast(&o, fbV(-5, 4.5), fbV(1, 0), 20, 1.0, &hit));
  assert_near(hit.distance, 5 - sqrt(0.75), EPS);
  assert_near(hit.normal.x, -sqrt(0.75), EPS);
  assert_near(hit.normal.y, 0.5, EPS);
  // past the rounded corner: the line x + y = -1.5 comes within 1.06 of (0, 0), inside the grown
  // bounding box but outside the rounded corner of radius 1
  fbVec2 down = fbV(1 / sqrt(2.0), -1 / sqrt(2.0));
  assert_false(fbObstacles_Raycast(&o, fbV(-5.75, 4.25), down, 20, 1.0, &hit));
  assert_true(fbObstacles_Raycast(&o, fbV(-5.75, 4.25), down, 20, 1.1, &hit));
  assert_near(fbV_Length(hit.point), 1.1, 1e-12);
  fbVec2 d = fbV(1 / sqrt(2.0), 1 / sqrt(2.0));
  assert_true(fbObstacles_Raycast(&o, fbV(-5, -5), d, 20, 1.0, &hit));
  assert_near(hit.distance, 5 * sqrt(2.0) - 1.0, EPS);  // the corner (0, 0) grown by 1, head on
  assert_near(hit.normal.x, -1 / sqrt(2.0), EPS);
  // without a pad, the plain square
  assert_true(fbObstacles_Raycast(&o, fbV(-5, 1), fbV(1, 0), 20, 0.0, &hit));
  assert_near(hit.distance, 5.0, EPS);
  assert_false(fbObstacles_Raycast(&o, fbV(-5, 5.5), fbV(1, 0), 20, 1.0, &hit));
  // from inside
  assert_true(fbObstacles_Raycast(&o, fbV(1, 2), fbV(1, 0), 20, 0.5, &hit));
  assert_near(hit.distance, 0.0, 0.0);
  assert_near(hit.normal.x, -1.0, EPS);
  fbObstacles_Free(&o);
}

static uint64_t g_stream;
static double rnd(void) { return fbRng_Uniform(7, 0, 0, g_stream++); }
static double rnd_in(double a, double b) { return a + (b - a) * rnd(); }

// Signed distance to the nearest obstacle grown by pad.
static double grown_distance(const fbObstacles *o, fbVec2 p, double pad)
{
  double d = INFINITY;
  for (int k = 0; k < o->count; ++k) {
    d = fmin(d, fbObstacles_Distance(o, k, p, NULL, NULL) - pad);
  }
  return d;
}

// A few random convex polygons (hulls of points on circles) and circles.
static void random_world(fbObstacles *o)
{
  for (int k = 0; k < 6; ++k) {
    fbVec2 c = fbV(rnd_in(-20, 20), rnd_in(-20, 20));
    if (k % 2 == 0) {
      fbObstacles_AddCircle(o, c, rnd_in(0.5, 4), NULL, 0);
      continue;
    }
    int n = 3 + (int)(rnd() * 6);
    fbVec2 v[8];
    double a = rnd_in(0, 2 * FB_PI), rx = rnd_in(0.3, 5), ry = rnd_in(0.3, 5);
    for (int i = 0; i < n; ++i) {
      a += rnd_in(0.2, 2 * FB_PI / n);  // increasing angles on an ellipse: convex
      v[i] = fbV(c.x + rx * cos(a), c.y + ry * sin(a));
    }
    if (k == 3) {  // give one clockwise
      for (int i = 0; i < n / 2; ++i) {
        fbVec2 t = v[i];
        v[i] = v[n - 1 - i];
        v[n - 1 - i] = t;
      }
    }
    assert_true(fbObstacles_AddPolygon(o, v, n, g_err, sizeof g_err) >= 0);
  }
}

// Feelers against a bisection on the signed distance along the ray.
static void raycast_matches_distance_field(void **state)
{
  (void)state;
  int hits = 0, misses = 0;
  for (int world = 0; world < 20; ++world) {
    fbObstacles o;
    fbObstacles_Init(&o);
    random_world(&o);
    for (int r = 0; r < 200; ++r) {
      double pad = r % 3 == 0 ? 0.0 : rnd_in(0, 1.5), len = rnd_in(1, 40);
      fbVec2 p = fbV(rnd_in(-30, 30), rnd_in(-30, 30));
      double a = rnd_in(0, 2 * FB_PI);
      fbVec2 dir = fbV(cos(a), sin(a));
      fbObstacleHit hit;
      bool got = fbObstacles_Raycast(&o, p, dir, len, pad, &hit);
      if (grown_distance(&o, p, pad) <= 1e-9) {
        continue;  // starting inside or on a surface: covered by the hand-made cases
      }
      if (got) {
        hits++;
        assert_true(hit.distance >= 0 && hit.distance <= len);
        assert_near(fbObstacles_Distance(&o, hit.index, hit.point, NULL, NULL) - pad, 0.0, 1e-9);
        assert_near(fbV_Length(hit.normal), 1.0, 1e-9);
        assert_true(fbV_Dot(hit.normal, dir) <= 1e-9);  // the surface is entered
        for (int s = 0; s < 400; ++s) {  // clear up to the hit
          assert_true(grown_distance(&o, fbV_Add(p, fbV_Scale(dir, hit.distance * s / 400.0)), pad) > -1e-9);
        }
      } else {
        misses++;
        for (int s = 0; s <= 1000; ++s) {
          assert_true(grown_distance(&o, fbV_Add(p, fbV_Scale(dir, len * s / 1000.0)), pad) > -1e-3);
        }
      }
    }
    fbObstacles_Free(&o);
  }
  assert_true(hits > 200 && misses > 200);
}

// ---- silhouettes ------------------------------------------------------------------------

static void silhouette_circle(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  fbObstacles_AddCircle(&o, fbV(10, 0.5), 2, NULL, 0);   // centre a little to +y of the path
  fbObstacles_AddCircle(&o, fbV(10, -0.5), 2, NULL, 0);  // a little to -y
  fbObstacles_AddCircle(&o, fbV(10, 3), 2, NULL, 0);     // clear by 0.5 + ... : one side
  fbObstacles_AddCircle(&o, fbV(-10, 0), 2, NULL, 0);    // behind
  fbObstacles_AddCircle(&o, fbV(-1, 0.2), 2, NULL, 0);   // mostly behind, but reaching ahead
  const double pad = 0.5;
  fbVec2 t;
  // heading straight at it: pass on the nearer side (-y), clearing the surface by pad
  assert_true(fbObstacles_Silhouette(&o, 0, fbV(0, 0), fbV(1, 0), pad, &t));
  assert_near(t.x, 10.0, EPS);
  assert_near(t.y, 0.5 - 2.5, EPS);
  assert_near(fbObstacles_Distance(&o, 0, t, NULL, NULL), pad, EPS);
  assert_true(fbObstacles_Silhouette(&o, 1, fbV(0, 0), fbV(1, 0), pad, &t));
  assert_near(t.y, -0.5 + 2.5, EPS);
  assert_near(fbObstacles_Distance(&o, 1, t, NULL, NULL), pad, EPS);
  // the same in a rotated frame: heading (0, 1) at a circle centred a little to -x
  fbObstacles_AddCircle(&o, fbV(-0.3, 20), 1, NULL, 0);
  assert_true(fbObstacles_Silhouette(&o, 5, fbV(0, 0), fbV(0, 1), pad, &t));
  assert_near(t.x, -0.3 + 1.5, EPS);
  assert_near(t.y, 20.0, EPS);
  // one side: grown extent [0.5, 5.5] does not straddle the path
  assert_false(fbObstacles_Silhouette(&o, 2, fbV(0, 0), fbV(1, 0), pad, &t));
  // ... but it does with a larger pad
  assert_true(fbObstacles_Silhouette(&o, 2, fbV(0, 0), fbV(1, 0), 1.5, &t));
  assert_near(t.y, -0.5, EPS);
  // behind
  assert_false(fbObstacles_Silhouette(&o, 3, fbV(0, 0), fbV(1, 0), pad, &t));
  // partly behind: the target is never behind the agent
  assert_true(fbObstacles_Silhouette(&o, 4, fbV(0, 0), fbV(1, 0), pad, &t));
  assert_true(t.x >= 0.0);
  assert_near(t.y, 0.2 - 2.5, EPS);
  fbObstacles_Free(&o);
}

// Reynolds' hide puts the spot past the far side: a circle's is its radius in every direction; the
// 4 x 4 square about its centroid (2, 2) is 2 away along an axis, 2 sqrt 2 along a diagonal, and
// 2 / cos 30deg = 2.3094 at 30 degrees off the x axis (leaving by the edge x = 4).
// Gompert's comfort space: a tree beyond two padded radii is seen 1.3 times as wide. A circle of
// radius 1 at (10, 0), pad 0.5 (R = 1.5), seen from (0, 1.8) heading +x: its lateral offset is
// -1.8, so at its size it spans [-3.3, -0.3], clear of the path; widened to half-width 1.95 it
// spans [-3.75, 0.15] and straddles it: the target is just past the upper edge, at y = 1.95.
// Nearer than two radii (from (8, 1.8): 2.69 away) the tree is seen at its size again.
static void silhouette_comfort_widens_far_trees(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  fbObstacles_AddCircle(&o, fbV(10, 0), 1, NULL, 0);
  fbVec2 t;
  assert_false(fbObstacles_SilhouetteComfort(&o, 0, fbV(0, 1.8), fbV(1, 0), 0.5, 1.0, &t));
  assert_true(fbObstacles_SilhouetteComfort(&o, 0, fbV(0, 1.8), fbV(1, 0), 0.5, 1.3, &t));
  assert_near(t.x, 10.0, EPS);
  assert_near(t.y, 1.95, EPS);
  assert_false(fbObstacles_SilhouetteComfort(&o, 0, fbV(8, 1.8), fbV(1, 0), 0.5, 1.3, &t));
  fbObstacles_Free(&o);
}

static void far_side_along_a_direction(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  add_poly(&o, SQUARE, 4);
  assert_int_equal(fbObstacles_AddCircle(&o, fbV(10, 10), 3, g_err, sizeof g_err), 1);
  const double r = 1 / sqrt(2.0), pi = acos(-1.0);
  assert_near(fbObstacles_FarSide(&o, 0, fbV(1, 0)), 2, EPS);
  assert_near(fbObstacles_FarSide(&o, 0, fbV(0, -1)), 2, EPS);
  assert_near(fbObstacles_FarSide(&o, 0, fbV(r, r)), 2 * sqrt(2.0), 1e-9);
  assert_near(fbObstacles_FarSide(&o, 0, fbV(cos(pi / 6), sin(pi / 6))), 2 / cos(pi / 6), 1e-9);
  assert_near(fbObstacles_FarSide(&o, 1, fbV(r, -r)), 3, EPS);
  fbObstacles_Free(&o);
}

static void silhouette_polygon(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  const fbVec2 box[] = {{8, -1}, {12, -1}, {12, 3}, {8, 3}};
  add_poly(&o, box, 4);
  const fbVec2 behind[] = {{-12, -1}, {-8, -1}, {-8, 3}, {-12, 3}};
  add_poly(&o, behind, 4);
  const fbVec2 aside[] = {{8, 2}, {12, 2}, {12, 5}, {8, 5}};
  add_poly(&o, aside, 4);
  fbVec2 t;
  // lateral extent [-1, 3]: -1 is nearer; the target is pad beyond it at the corner's depth
  assert_true(fbObstacles_Silhouette(&o, 0, fbV(0, 0), fbV(1, 0), 0.5, &t));
  assert_near(t.y, -1.5, EPS);
  assert_near(t.x, 8.0, EPS);
  assert_near(fbObstacles_Distance(&o, 0, t, NULL, NULL), 0.5, EPS);
  // seen from lower down the other side is nearer
  assert_true(fbObstacles_Silhouette(&o, 0, fbV(0, 2.5), fbV(1, 0), 0.5, &t));
  assert_near(t.y, 3.5, EPS);
  assert_near(fbObstacles_Distance(&o, 0, t, NULL, NULL), 0.5, EPS);
  // wholly behind, and off to one side
  assert_false(fbObstacles_Silhouette(&o, 1, fbV(0, 0), fbV(1, 0), 0.5, &t));
  assert_false(fbObstacles_Silhouette(&o, 2, fbV(0, 0), fbV(1, 0), 0.5, &t));
  assert_true(fbObstacles_Silhouette(&o, 2, fbV(0, 0), fbV(1, 0), 2.5, &t));  // a body that wide does not fit
  fbObstacles_Free(&o);
}

// ---- collisions -------------------------------------------------------------------------

static void collide_no_tunnelling(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  const fbVec2 wall[] = {{10.0, -50.0}, {10.1, -50.0}, {10.1, 50.0}, {10.0, 50.0}};
  add_poly(&o, wall, 4);
  const double r = 0.5;
  // one step from x = 0 to x = 20 would jump clean over a wall 0.1 thick
  fbVec2 to = fbV(20, 5), n;
  assert_true(fbObstacles_Collide(&o, fbV(0, 0), &to, r, &n));
  assert_near(to.x, 9.5, 1e-9);
  assert_near(to.y, 5 * 9.5 / 20, 1e-9);
  assert_true(fbObstacles_Distance(&o, 0, to, NULL, NULL) >= r - 1e-9);
  assert_near(n.x, -1.0, EPS);
  assert_near(n.y, 0.0, EPS);
  // from there, sliding along the wall is free, and pressing into it goes nowhere
  fbVec2 from = to;
  to = fbV(from.x, from.y + 3);
  assert_false(fbObstacles_Collide(&o, from, &to, r, &n));
  assert_near(to.y, from.y + 3, 0.0);
  to = fbV(from.x + 2, from.y + 1);
  assert_true(fbObstacles_Collide(&o, from, &to, r, &n));
  assert_true(to.x <= 9.5 + 1e-9 && fbObstacles_Distance(&o, 0, to, NULL, NULL) >= r - 1e-9);
  // a clear path is left alone
  to = fbV(5, 5);
  assert_false(fbObstacles_Collide(&o, fbV(0, 0), &to, r, &n));
  assert_near(to.x, 5.0, 0.0);
  // the other way through
  to = fbV(-5, 0);
  assert_true(fbObstacles_Collide(&o, fbV(30, 0), &to, r, &n));
  assert_near(to.x, 10.6, 1e-9);
  assert_near(n.x, 1.0, EPS);
  fbObstacles_Free(&o);
}

static void collide_pushes_out_from_inside(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  fbObstacles_AddCircle(&o, fbV(0, 0), 2, NULL, 0);
  const fbVec2 box[] = {{10, 0}, {14, 0}, {14, 4}, {10, 4}};
  add_poly(&o, box, 4);
  const double r = 0.5;
  fbVec2 to = fbV(0.6, 0.0), n;
  assert_true(fbObstacles_Collide(&o, fbV(0.5, 0), &to, r, &n));
  assert_true(fbObstacles_Distance(&o, 0, to, NULL, NULL) >= r - 1e-9);
  assert_near(to.x, 2.5, 1e-9);
  assert_near(to.y, 0.0, 1e-9);
  assert_near(n.x, 1.0, EPS);
  // not moving at all, inside the box near its left side
  to = fbV(11, 2);
  assert_true(fbObstacles_Collide(&o, fbV(11, 2), &to, r, &n));
  assert_near(to.x, 9.5, 1e-9);
  assert_near(to.y, 2.0, 1e-9);
  assert_near(n.x, -1.0, EPS);
  // overlapping the box by less than the radius (centre outside the box)
  to = fbV(9.8, 2);
  assert_true(fbObstacles_Collide(&o, fbV(9.8, 2), &to, r, NULL));
  assert_near(to.x, 9.5, 1e-9);
  // resting exactly on the grown surface and not moving: nothing to do
  to = fbV(9.5, 2);
  assert_false(fbObstacles_Collide(&o, fbV(9.5, 2), &to, r, &n));
  fbObstacles_Free(&o);
}

// Random steps among random obstacles: every result is outside every grown obstacle and was
// reached along a clear segment.
static void collide_random_steps(void **state)
{
  (void)state;
  int changed = 0;
  for (int world = 0; world < 20; ++world) {
    fbObstacles o;
    fbObstacles_Init(&o);
    random_world(&o);
    for (int s = 0; s < 200; ++s) {
      double r = rnd_in(0, 1.5);
      fbVec2 from = fbV(rnd_in(-30, 30), rnd_in(-30, 30));
      if (grown_distance(&o, from, r) <= 0.0) {
        continue;
      }
      fbVec2 to = fbV_Add(from, fbV(rnd_in(-25, 25), rnd_in(-25, 25))), want = to, n = {0, 0};
      bool moved = fbObstacles_Collide(&o, from, &to, r, &n);
      assert_true(grown_distance(&o, to, r) >= -1e-9);
      if (!moved) {
        assert_true(to.x == want.x && to.y == want.y);
      } else {
        changed++;
        assert_near(fbV_Length(n), 1.0, 1e-9);
        // stopped on the way: on the segment from -> want
        fbVec2 a = fbV_Sub(to, from), b = fbV_Sub(want, from);
        assert_near(fbV_Cross(a, b) / fbV_Length(b), 0.0, 1e-6);
        assert_true(fbV_Dot(a, b) >= -1e-9 && fbV_Length(a) <= fbV_Length(b) + 1e-9);
      }
      for (int k = 0; k <= 200; ++k) {
        fbVec2 q = fbV_Add(from, fbV_Scale(fbV_Sub(to, from), k / 200.0));
        assert_true(grown_distance(&o, q, r) >= -1e-9);
      }
    }
    fbObstacles_Free(&o);
  }
  assert_true(changed > 100);
}

// ---- collide and slide ------------------------------------------------------------------

// The wall x in [10, 11] (long in y), a body of radius 0.5: the grown face is x = 9.5.
static void slide_along_a_wall(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  const fbVec2 wall[] = {{10, -50}, {11, -50}, {11, 50}, {10, 50}};
  add_poly(&o, wall, 4);
  const double r = 0.5;
  fbContacts c;
  // From 2 units off the face, a move of (4, 3): the wall stops its x at 9.5 after half of it; the
  // other half's tangential part, (0, 1.5), is still walked in the same step.
  fbVec2 to = fbV(11.5, 3);
  assert_true(fbObstacles_Slide(&o, fbV(7.5, 0), &to, r, &c));
  assert_int_equal(c.count, 1);
  assert_near(c.normal[0].x, -1.0, EPS);
  assert_near(to.x, 9.5, 1e-8);  // within the lift of 5e-10 a slide
  assert_near(to.y, 3.0, 1e-9);
  assert_true(fbObstacles_Distance(&o, 0, to, NULL, NULL) >= r - 1e-9);
  // Already on the face and pressing in at an angle (the contact at distance 0 that used to stop
  // the body for good): it slides by the move's tangential part.
  const fbVec2 from = to;
  to = fbV(from.x + 0.3, from.y + 0.4);
  assert_true(fbObstacles_Slide(&o, from, &to, r, &c));
  assert_true(c.count >= 1);
  assert_near(to.x, 9.5, 1e-8);  // within the lift of 5e-10 a slide
  assert_near(to.y, from.y + 0.4, 1e-9);
  // Head on: nothing to slide, the body stays on the face.
  to = fbV(from.x + 1, from.y);
  fbObstacles_Slide(&o, from, &to, r, &c);
  assert_near(to.x, 9.5, 1e-8);  // within the lift of 5e-10 a slide
  assert_near(to.y, from.y, 1e-9);
  // Along it, or clear of it: no contact, the whole move.
  to = fbV(from.x, from.y + 2);
  assert_false(fbObstacles_Slide(&o, from, &to, r, &c));
  assert_int_equal(c.count, 0);
  assert_true(to.y == from.y + 2);
  // The velocity keeps its tangential part.
  c.count = 1;
  c.normal[0] = fbV(-1, 0);
  fbVec2 v = fbContacts_Clip(&c, fbV(3, 4));
  assert_near(v.x, 0.0, EPS);
  assert_near(v.y, 4.0, EPS);
  v = fbContacts_Clip(&c, fbV(-3, 4));  // leaving the wall: untouched
  assert_near(v.x, -3.0, EPS);
  fbObstacles_Free(&o);
}

// Two walls meeting at a right angle (a room's corner made of two boxes): a move into the corner
// along either wall stops there, touching both, inside neither; the velocity is stopped too.
static void slide_stops_in_a_corner(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  const fbVec2 floor[] = {{0, 10}, {20, 10}, {20, 12}, {0, 12}};  // top face y = 10
  const fbVec2 side[] = {{20, 0}, {22, 0}, {22, 12}, {20, 12}};   // left face x = 20
  add_poly(&o, floor, 4);
  add_poly(&o, side, 4);
  const double r = 0.5;
  const fbVec2 starts[] = {{15, 5}, {19, 9.5}, {19.5, 8}, {17, 9.5}};
  for (int s = 0; s < 4; ++s) {
    fbContacts c;
    fbVec2 to = fbV_Add(starts[s], fbV(8, 6));
    fbObstacles_Slide(&o, starts[s], &to, r, &c);
    assert_near(to.x, 19.5, 1e-6);
    assert_near(to.y, 9.5, 1e-6);
    assert_true(fbObstacles_Distance(&o, 0, to, NULL, NULL) >= r - 1e-9);
    assert_true(fbObstacles_Distance(&o, 1, to, NULL, NULL) >= r - 1e-9);
    fbVec2 v = fbContacts_Clip(&c, fbV(4, 3));
    assert_true(v.x <= 1e-9 && v.y <= 1e-9);
  }
  fbObstacles_Free(&o);
}

// Round a circle: the slide leaves the body outside, and farther round than the stop alone.
static void slide_round_a_circle(void **state)
{
  (void)state;
  fbObstacles o;
  fbObstacles_Init(&o);
  fbObstacles_AddCircle(&o, fbV(0, 0), 3, NULL, 0);
  const double r = 0.5;
  fbVec2 p = fbV(-10, 1);
  for (int k = 0; k < 80; ++k) {  // pressed toward a point behind the tree, 0.5 a step
    fbVec2 aim = fbV_Sub(fbV(10, 0.5), p);
    fbVec2 to = fbV_Add(p, fbV_Scale(aim, 0.5 / fbV_Length(aim)));
    fbContacts c;
    fbObstacles_Slide(&o, p, &to, r, &c);
    assert_true(fbObstacles_Distance(&o, 0, to, NULL, NULL) >= r - 1e-9);
    assert_true(fbV_Length(fbV_Sub(to, p)) <= 0.5 + 1e-9);
    p = to;
  }
  print_message("after 80 steps: %.3f, %.3f\n", p.x, p.y);
  assert_true(p.x > 5.0);  // round it and on
  fbObstacles_Free(&o);
}

// Random moves among random obstacles: every slide ends outside every grown obstacle, no farther
// from its start than the move was long, and each of its pieces is a clear segment.
static void slide_random_steps(void **state)
{
  (void)state;
  int slid = 0;
  for (int world = 0; world < 20; ++world) {
    fbObstacles o;
    fbObstacles_Init(&o);
    random_world(&o);
    for (int s = 0; s < 200; ++s) {
      double r = rnd_in(0, 1.5);
      fbVec2 from = fbV(rnd_in(-30, 30), rnd_in(-30, 30));
      if (grown_distance(&o, from, r) <= 0.0) {
        continue;
      }
      fbVec2 to = fbV_Add(from, fbV(rnd_in(-25, 25), rnd_in(-25, 25))), want = to;
      fbContacts c;
      fbObstacles_Slide(&o, from, &to, r, &c);
      assert_true(c.count >= 0 && c.count <= FB_SLIDE_CONTACTS);
      assert_true(grown_distance(&o, to, r) >= -1e-9);
      assert_true(fbV_Length(fbV_Sub(to, from)) <= fbV_Length(fbV_Sub(want, from)) + 1e-6);
      if (c.count == 0) {
        assert_true(to.x == want.x && to.y == want.y);
      } else {
        slid += fbV_Length(fbV_Sub(to, from)) > 0.0;
        for (int k = 0; k < c.count; ++k) {
          assert_near(fbV_Length(c.normal[k]), 1.0, 1e-9);
        }
      }
    }
    fbObstacles_Free(&o);
  }
  assert_true(slid > 100);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(circle_distance_and_normal),
      cmocka_unit_test(square_distance_and_normal),
      cmocka_unit_test(either_winding_accepted),
      cmocka_unit_test(bad_shapes_rejected),
      cmocka_unit_test(query_and_nearest),
      cmocka_unit_test(raycast_circle),
      cmocka_unit_test(raycast_square_grown),
      cmocka_unit_test(raycast_matches_distance_field),
      cmocka_unit_test(silhouette_circle),
      cmocka_unit_test(silhouette_polygon),
      cmocka_unit_test(silhouette_comfort_widens_far_trees),
      cmocka_unit_test(far_side_along_a_direction),
      cmocka_unit_test(collide_no_tunnelling),
      cmocka_unit_test(collide_pushes_out_from_inside),
      cmocka_unit_test(collide_random_steps),
      cmocka_unit_test(slide_along_a_wall),
      cmocka_unit_test(slide_stops_in_a_corner),
      cmocka_unit_test(slide_round_a_circle),
      cmocka_unit_test(slide_random_steps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
