// test_perception.c — perception and the radius queries against brute-force O(n^2) scans, on any storage order and thread split.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pop_util.h"
#include "radius_query.h"
#include "test_util.h"

#define SUM_EPS 1e-9

// ---- brute force --------------------------------------------------------------------------

typedef struct Brute {
  int n;
  double cx, cy, avx, avy, sx, sy, nearest;
  uint32_t nearest_id;
  int *seen;  // ascending indices
} Brute;

static bool brute_sees(const Pop *p, int i, int j, fbVec2 *off)
{
  const fbVision *v = &p->vision[p->species[i]];
  if (j == i || !p->active[i] || !p->active[j] || !(v->radius > 0.0)) {
    return false;
  }
  if (!((v->sees >> p->species[j]) & 1u)) {
    return false;
  }
  fbVec2 d = fbGrid_Offset(&p->grid, fbV(p->px[i], p->py[i]), fbV(p->px[j], p->py[j]));
  double d2 = fbV_Length2(d);
  if (!(d2 <= v->radius * v->radius)) {
    return false;
  }
  double dist = sqrt(d2);
  if (v->cos_half_fov > -1.0 && !(fbV_Dot(d, fbV(p->hx[i], p->hy[i])) >= dist * v->cos_half_fov)) {
    return false;
  }
  *off = d;
  return true;
}

static void brute_perceive(const Pop *p, int i, Brute *b, int *seen)
{
  memset(b, 0, sizeof *b);
  b->seen = seen;
  b->nearest = INFINITY;
  double sdx = 0, sdy = 0;
  const fbVision *v = &p->vision[p->species[i]];
  for (int j = 0; j < p->count; ++j) {
    fbVec2 d;
    if (!brute_sees(p, i, j, &d)) {
      continue;
    }
    double dist = fbV_Length(d);
    b->seen[b->n++] = j;
    sdx += d.x;
    sdy += d.y;
    b->avx += p->vx[j];
    b->avy += p->vy[j];
    if (dist < v->separation_radius) {
      b->sx -= d.x;
      b->sy -= d.y;
    }
    if (dist < b->nearest || (dist == b->nearest && p->id[j] < b->nearest_id)) {
      b->nearest = dist;
      b->nearest_id = p->id[j];
    }
  }
  b->cx = p->px[i];
  b->cy = p->py[i];
  if (b->n > 0) {
    b->cx += sdx / b->n;
    b->cy += sdy / b->n;
    b->avx /= b->n;
    b->avy /= b->n;
  }
}

static int cmp_int(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

// Index of the agent with this id (tests are small: a scan).
static int index_of(const Pop *p, uint32_t id)
{
  for (int i = 0; i < p->count; ++i) {
    if (p->id[i] == id) {
      return i;
    }
  }
  return -1;
}

// Perceives in `parts` worker ranges and checks every agent against the brute-force scan; the
// list and the single-agent perception (fbPerceive_One) must give the same entries in the same order.
static void check_perception(Pop *p, int parts)
{
  fbPerceptionInput in = pop_input(p);
  fbAggregates agg = {0};
  fbAggregates_Reserve(&agg, p->count);
  fbNeighbourList lists[4] = {{0}}, one = {0};
  int *part_of = calloc((size_t)p->count + 1, sizeof(int));
  for (int t = 0; t < parts; ++t) {
    int begin = (int)((long)p->count * t / parts), end = (int)((long)p->count * (t + 1) / parts);
    fbPerceive(&in, begin, end, &agg, &lists[t]);
    for (int i = begin; i < end; ++i) {
      part_of[i] = t;
    }
  }
  int *seen = malloc(sizeof(int) * ((size_t)p->count + 1));
  int *got = malloc(sizeof(int) * ((size_t)p->count + 1));
  long total = 0;
  for (int i = 0; i < p->count; ++i) {
    Brute b;
    brute_perceive(p, i, &b, seen);
    const fbNeighbourList *l = &lists[part_of[i]];
    double one_nearest;
    assert_int_equal(fbPerceive_One(&in, i, &one, &one_nearest), b.n);
    assert_int_equal(agg.n[i], b.n);
    assert_true(agg.first[i] >= 0 && agg.first[i] + agg.n[i] <= l->len);
    for (int k = 0; k < b.n; ++k) {
      int e = agg.first[i] + k;
      int j = l->index[e];
      got[k] = j;
      // each entry's offset and distance are exactly those of the brute-force scan
      fbVec2 d = fbGrid_Offset(&p->grid, fbV(p->px[i], p->py[i]), fbV(p->px[j], p->py[j]));
      assert_true(l->dx[e] == d.x && l->dy[e] == d.y);
      assert_true(l->dist[e] == fbV_Length(d));
      assert_true(one.index[k] == j && one.dx[k] == l->dx[e] && one.dy[k] == l->dy[e] && one.dist[k] == l->dist[e]);
    }
    qsort(got, (size_t)b.n, sizeof(int), cmp_int);
    for (int k = 0; k < b.n; ++k) {
      assert_int_equal(got[k], b.seen[k]);  // same set, no duplicates
    }
    assert_near(agg.cx[i], b.cx, SUM_EPS);
    assert_near(agg.cy[i], b.cy, SUM_EPS);
    assert_near(agg.avx[i], b.avx, SUM_EPS);
    assert_near(agg.avy[i], b.avy, SUM_EPS);
    assert_near(agg.sx[i], b.sx, SUM_EPS);
    assert_near(agg.sy[i], b.sy, SUM_EPS);
    assert_true(agg.nearest[i] == b.nearest && one_nearest == b.nearest);
    if (b.n == 0) {
      assert_true(isinf(agg.nearest[i]) && agg.nearest[i] > 0);
      assert_true(agg.cx[i] == p->px[i] && agg.cy[i] == p->py[i]);
      assert_true(agg.avx[i] == 0.0 && agg.avy[i] == 0.0 && agg.sx[i] == 0.0 && agg.sy[i] == 0.0);
    }
    total += b.n;
  }
  assert_true(total > 0 || p->count < 2);
  free(seen);
  free(got);
  free(part_of);
  for (int t = 0; t < 4; ++t) {
    fbNeighbourList_Free(&lists[t]);
  }
  fbNeighbourList_Free(&one);
  fbAggregates_Free(&agg);
}

// ---- nearest and for-each ---------------------------------------------------------------

typedef struct Visits {
  int n;
  int index[4096];
  double dist[4096];
  fbVec2 off[4096];
} Visits;

static void record(int index, fbVec2 offset, double distance, void *user)
{
  Visits *v = user;
  assert_true(v->n < 4096);
  v->index[v->n] = index;
  v->off[v->n] = offset;
  v->dist[v->n] = distance;
  v->n++;
}

static void check_queries(Pop *p, int queries)
{
  fbPerceptionInput in = pop_input(p);
  in.vision = NULL;  // the queries must not need it
  static fbSpeciesIndex members;
  fbSpeciesIndex_Build(&members, p->species, p->count, SPECIES);
  in.members = &members;
  static Visits v;
  for (int q = 0; q < queries; ++q) {
    fbVec2 at = fbV(rnd_in(-1, p->w + 1), rnd_in(-1, p->h + 1));
    if (rnd_int(3) == 0 && p->count > 0) {
      int k = rnd_int(p->count);
      at = fbV(p->px[k], p->py[k]);
    }
    int kind = rnd_int(8);
    double radius = kind == 0 ? sqrt(p->w * p->w + p->h * p->h) : kind == 1 ? INFINITY : rnd_in(0, 0.5) * fmin(p->w, p->h);
    uint32_t mask = rnd_int(3) == 0 ? UINT32_MAX : (uint32_t)(1 + rnd_int((1 << SPECIES) - 1));
    int exclude = rnd_int(2) && p->count > 0 ? rnd_int(p->count) : -1;

    // brute force: ties to the lower id
    int want = -1;
    double want_d2 = INFINITY;
    int want_count = 0;
    for (int j = 0; j < p->count; ++j) {
      if (!p->active[j] || !((mask >> p->species[j]) & 1u)) {
        continue;
      }
      double d2 = fbV_Length2(fbGrid_Offset(&p->grid, at, fbV(p->px[j], p->py[j])));
      if (!(d2 <= radius * radius)) {
        continue;
      }
      want_count++;
      if (j != exclude && (d2 < want_d2 || (d2 == want_d2 && p->id[j] < p->id[want]))) {
        want_d2 = d2;
        want = j;
      }
    }
    // The grid walk, the scan of the wanted species' members, and the engine's pick between them.
    static const fbMemberScan scans[] = {FB_MEMBERS_NEVER, FB_MEMBERS_ALWAYS, FB_MEMBERS_WHEN_CHEAPER};
    for (size_t s = 0; s < sizeof scans / sizeof scans[0]; ++s) {
      fbPerception_ScanMembers(scans[s]);
      double got_d;
      fbVec2 got_off;
      int got = fbPerception_Nearest(&in, at, radius, mask, exclude, &got_off, &got_d);
      assert_int_equal(got, want);
      if (want >= 0) {
        fbVec2 d = fbGrid_Offset(&p->grid, at, fbV(p->px[want], p->py[want]));
        assert_true(got_d == sqrt(want_d2) && got_off.x == d.x && got_off.y == d.y);
      } else {
        assert_true(isinf(got_d));
      }
    }
    fbPerception_ScanMembers(FB_MEMBERS_WHEN_CHEAPER);
    if (isinf(radius)) {
      continue;
    }
    v.n = 0;
    int n = fbPerception_ForEach(&in, at, radius, mask, record, &v);
    assert_int_equal(n, want_count);
    assert_int_equal(v.n, want_count);
    for (int k = 0; k < v.n; ++k) {
      int j = v.index[k];
      fbVec2 d = fbGrid_Offset(&p->grid, at, fbV(p->px[j], p->py[j]));
      assert_true(v.off[k].x == d.x && v.off[k].y == d.y);
      assert_true(v.dist[k] <= radius && v.dist[k] == fbV_Length(d));
      assert_true(p->active[j] && ((mask >> p->species[j]) & 1u));
      for (int m = 0; m < k; ++m) {
        assert_true(v.index[m] != j);  // never twice
      }
    }
  }
}

// ---- tests --------------------------------------------------------------------------------

static void run_cases(bool wrap, double cell_factor, bool inside)
{
  static const struct {
    int count;
    double w, h, max_r;
  } cases[] = {
      {600, 100.0, 80.0, 6.0},  // many cells
      {400, 40.0, 30.0, 9.0},   // few cells
      {200, 10.0, 7.0, 4.0},    // nx = 2, ny = 1
      {150, 6.0, 12.0, 3.5},    // nx = 1, ny = 3
      {100, 5.0, 5.0, 5.0},     // one cell, radius as wide as the world
      {300, 50.0, 50.0, 2.0},   // sparse
      {1, 10.0, 10.0, 3.0},     // alone
      {0, 10.0, 10.0, 3.0},     // nobody
  };
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
      Pop p;
      pop_make(&p, seed * 100 + c, cases[c].count, cases[c].w, cases[c].h, cases[c].max_r, wrap);
      if (inside) {
        pop_inside(&p);
      }
      pop_sort(&p, cases[c].max_r * cell_factor);
      assert_true(!inside || p.grid.inside);
      check_perception(&p, 1 + (int)(seed % 3));
      check_queries(&p, 60);
      pop_free(&p);
    }
  }
}

static void perception_matches_brute_force_plain(void **state)
{
  (void)state;
  run_cases(false, 1.0, false);
}

// On a torus: runs seen through the seam shifted by a whole world when every agent is inside it,
// the nearest image point by point when some lie on the far edge.
static void perception_matches_brute_force_wrapped(void **state)
{
  (void)state;
  run_cases(true, 1.0, true);
  run_cases(true, 1.0, false);
}

// Cells smaller than the radius (the step uses half a radius) still find everyone: more rings.
static void cells_smaller_than_radius(void **state)
{
  (void)state;
  run_cases(false, 0.5, false);
  run_cases(true, 0.5, true);
  run_cases(false, 0.3, false);
  run_cases(true, 0.3, true);
}

// Cells larger than needed (extra candidates) give the same answers.
static void cells_larger_than_radius(void **state)
{
  (void)state;
  run_cases(false, 2.5, false);
  run_cases(true, 1.7, true);
}

// A species that keeps no list and no nearest gets exactly the same sums: the choices only decide
// what is kept.
static void what_is_kept_changes_no_sum(void **state)
{
  (void)state;
  for (int wrap = 0; wrap < 2; ++wrap) {
    Pop p;
    pop_make(&p, 31 + (uint64_t)wrap, 500, 60.0, 40.0, 6.0, wrap);
    pop_sort(&p, 3.0);
    fbPerceptionInput in = pop_input(&p);
    fbAggregates full = {0}, lean = {0};
    fbAggregates_Reserve(&full, p.count);
    fbAggregates_Reserve(&lean, p.count);
    fbNeighbourList l = {0};
    fbPerceive(&in, 0, p.count, &full, &l);
    assert_true(l.len > 0);
    for (int s = 0; s < SPECIES; ++s) {
      p.vision[s].list = p.vision[s].nearest = false;
    }
    fbPerceive(&in, 0, p.count, &lean, &l);
    assert_int_equal(l.len, 0);  // nothing kept
    for (int i = 0; i < p.count; ++i) {
      assert_int_equal(lean.n[i], full.n[i]);
      assert_true(lean.cx[i] == full.cx[i] && lean.cy[i] == full.cy[i] && lean.avx[i] == full.avx[i] &&
                  lean.avy[i] == full.avy[i] && lean.sx[i] == full.sx[i] && lean.sy[i] == full.sy[i]);
    }
    fbNeighbourList_Free(&l);
    fbAggregates_Free(&full);
    fbAggregates_Free(&lean);
    pop_free(&p);
  }
}

// Whatever order the agents were stored in, once sorted by the grid every agent computes the very
// same numbers, bit for bit: sums run in (cell, id) order.
static void storage_order_changes_nothing(void **state)
{
  (void)state;
  for (int wrap = 0; wrap < 2; ++wrap) {
    Pop a, b;
    pop_make(&a, 77 + (uint64_t)wrap, 800, 70.0, 50.0, 7.0, wrap);
    pop_make(&b, 77 + (uint64_t)wrap, 800, 70.0, 50.0, 7.0, wrap);
    int *shuffle = malloc(sizeof(int) * (size_t)b.count);
    for (int k = 0; k < b.count; ++k) {
      shuffle[k] = b.count - 1 - k;  // reversed, then swapped about
    }
    for (int k = 0; k + 7 < b.count; k += 3) {
      int t = shuffle[k];
      shuffle[k] = shuffle[k + 7];
      shuffle[k + 7] = t;
    }
    pop_reorder(&b, shuffle);
    free(shuffle);
    pop_sort(&a, 3.5);
    pop_sort(&b, 3.5);
    fbPerceptionInput ia = pop_input(&a), ib = pop_input(&b);
    fbAggregates ga = {0}, gb = {0};
    fbAggregates_Reserve(&ga, a.count);
    fbAggregates_Reserve(&gb, b.count);
    fbNeighbourList la = {0}, lb = {0};
    fbPerceive(&ia, 0, a.count, &ga, &la);
    fbPerceive(&ib, 0, b.count / 3, &gb, &lb);  // and on another thread split
    fbPerceive(&ib, b.count / 3, b.count, &gb, &la);
    for (int i = 0; i < a.count; ++i) {
      assert_int_equal(a.id[i], b.id[i]);
      assert_true(ga.n[i] == gb.n[i] && ga.cx[i] == gb.cx[i] && ga.cy[i] == gb.cy[i] && ga.avx[i] == gb.avx[i] &&
                  ga.avy[i] == gb.avy[i] && ga.sx[i] == gb.sx[i] && ga.sy[i] == gb.sy[i] &&
                  ga.nearest[i] == gb.nearest[i]);
    }
    fbNeighbourList_Free(&la);
    fbNeighbourList_Free(&lb);
    fbAggregates_Free(&ga);
    fbAggregates_Free(&gb);
    pop_free(&a);
    pop_free(&b);
  }
}

// A scene by hand, stored in the grid's order; agents named by id.
typedef struct Scene {
  Pop p;
  fbAggregates agg;
  fbNeighbourList list;
} Scene;

static void scene_make(Scene *s, int n, const double *px, const double *py, const double *vx, const uint8_t *sp,
                       const uint8_t *act, const fbVision *vis, int species, double w, double h, double cell, bool wrap)
{
  memset(s, 0, sizeof *s);
  pop_make(&s->p, 1, n, w, h, 1.0, wrap);
  for (int i = 0; i < n; ++i) {
    s->p.px[i] = px[i];
    s->p.py[i] = py[i];
    s->p.vx[i] = vx[i];
    s->p.vy[i] = 0.0;
    s->p.hx[i] = 1.0;
    s->p.hy[i] = 0.0;
    s->p.species[i] = sp[i];
    s->p.active[i] = act ? act[i] : 1;
    s->p.id[i] = (uint32_t)i + 1;
  }
  memcpy(s->p.vision, vis, sizeof(fbVision) * (size_t)species);
  pop_sort(&s->p, cell);
  fbPerceptionInput in = pop_input(&s->p);
  fbAggregates_Reserve(&s->agg, n);
  fbPerceive(&in, 0, n, &s->agg, &s->list);
}

static void scene_free(Scene *s)
{
  fbNeighbourList_Free(&s->list);
  fbAggregates_Free(&s->agg);
  pop_free(&s->p);
}

#define AT(s, id) index_of(&(s)->p, (id))

// A neighbour across the seam, one behind (blind), one coincident, one inactive, one of another kind.
static void hand_made_scene(void **state)
{
  (void)state;
  double px[] = {1.0, 99.0, 3.0, 1.0, 1.5, 1.0};
  double py[] = {25.0, 25.0, 25.0, 25.0, 25.0, 27.0};
  double vx[] = {1, 2, 3, 4, 5, 6};
  uint8_t sp[] = {0, 0, 0, 0, 0, 1};
  uint8_t act[] = {1, 1, 1, 1, 0, 1};
  // species 0: half-plane view of its own kind
  fbVision vis[2] = {{.radius = 5.0, .cos_half_fov = 0.0, .sees = 1u, .separation_radius = 2.5, .list = true, .nearest = true},
                      {.radius = 5.0, .cos_half_fov = -1.0, .sees = 3u, .separation_radius = 1.0, .list = true, .nearest = true}};
  Scene s;
  scene_make(&s, 6, px, py, vx, sp, act, vis, 2, 100.0, 50.0, 2.5, true);
  const fbAggregates *agg = &s.agg;
  // id 1 at x = 1 looking +x: sees id 3 (ahead) and id 4 (coincident); id 2 is 2 behind across the
  // seam (blind half), id 5 is inactive, id 6 another species.
  int i = AT(&s, 1);
  assert_int_equal(agg->n[i], 2);
  assert_near(agg->cx[i], 1.0 + (2.0 + 0.0) / 2, 1e-12);
  assert_near(agg->avx[i], (3.0 + 4.0) / 2, 1e-12);
  assert_near(agg->sx[i], -2.0 - 0.0, 1e-12);
  assert_true(agg->nearest[i] == 0.0);
  // id 2 at x = 99 looking +x: ids 1 and 4 are 2 ahead through the seam, id 3 is 4 ahead
  i = AT(&s, 2);
  assert_int_equal(agg->n[i], 3);
  assert_near(agg->cx[i], 99.0 + (2.0 + 4.0 + 2.0) / 3, 1e-12);
  assert_near(agg->sx[i], -4.0, 1e-12);  // ids 1 and 4 within 2.5
  assert_near(agg->nearest[i], 2.0, 1e-12);
  // the inactive agent perceives nothing
  i = AT(&s, 5);
  assert_int_equal(agg->n[i], 0);
  assert_true(agg->cx[i] == 1.5 && isinf(agg->nearest[i]));
  // species 1 sees all round, both species: ids 1, 4 at distance 2; 2 and 3 at sqrt(4 + 4)
  i = AT(&s, 6);
  assert_int_equal(agg->n[i], 4);
  assert_near(agg->sx[i], 0.0, 1e-12);  // nobody within 1
  assert_near(agg->nearest[i], 2.0, 1e-12);
  scene_free(&s);
}

// Radius 0 sees nothing, not even a coincident agent; with a radius they see each other.
static void radius_zero_sees_nothing(void **state)
{
  (void)state;
  double px[] = {5, 5}, py[] = {5, 5}, vx[] = {0, 0};
  uint8_t sp[] = {0, 0};
  fbVision vis[1] = {{.radius = 0.0, .cos_half_fov = -1.0, .sees = 1u, .separation_radius = 1.0, .list = true, .nearest = true}};
  Scene s;
  scene_make(&s, 2, px, py, vx, sp, NULL, vis, 1, 10.0, 10.0, 1.0, false);
  assert_int_equal(s.agg.n[0], 0);
  assert_int_equal(s.agg.n[1], 0);
  assert_int_equal(s.list.len, 0);
  scene_free(&s);
  vis[0].radius = 1.0;
  scene_make(&s, 2, px, py, vx, sp, NULL, vis, 1, 10.0, 10.0, 1.0, false);
  assert_int_equal(s.agg.n[0], 1);
  assert_true(s.agg.nearest[0] == 0.0 && s.agg.nearest[1] == 0.0);
  scene_free(&s);
}

// Equal distances in different cells: the nearest is the lower id, whatever cell comes first.
static void nearest_tie_goes_to_lower_id(void **state)
{
  (void)state;
  double px[] = {10.0, 10.0, 10.0}, py[] = {10.0, 12.0, 8.0}, vx[] = {0, 0, 0};
  uint8_t sp[] = {0, 0, 0};
  fbVision vis[1] = {{.radius = 4.0, .cos_half_fov = -1.0, .sees = 1u, .separation_radius = 1.0, .list = true, .nearest = true}};
  Scene s;
  scene_make(&s, 3, px, py, vx, sp, NULL, vis, 1, 40.0, 40.0, 4.0, false);
  int i = AT(&s, 1);
  assert_int_equal(s.agg.n[i], 2);
  assert_int_equal(s.p.id[s.list.index[s.agg.first[i]]], 3);  // grid order: the row above first
  fbPerceptionInput in = pop_input(&s.p);
  double d;
  int j = fbPerception_Nearest(&in, fbV(10.0, 10.0), 5.0, 1u, i, NULL, &d);
  assert_int_equal(s.p.id[j], 2);
  assert_near(d, 2.0, 0.0);
  scene_free(&s);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(perception_matches_brute_force_plain),
      cmocka_unit_test(perception_matches_brute_force_wrapped),
      cmocka_unit_test(cells_smaller_than_radius),
      cmocka_unit_test(cells_larger_than_radius),
      cmocka_unit_test(what_is_kept_changes_no_sum),
      cmocka_unit_test(storage_order_changes_nothing),
      cmocka_unit_test(hand_made_scene),
      cmocka_unit_test(radius_zero_sees_nothing),
      cmocka_unit_test(nearest_tie_goes_to_lower_id),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
