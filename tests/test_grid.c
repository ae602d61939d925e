// test_grid.c — the spatial grid and perception against brute-force O(n^2) scans.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "grid.h"
#include "rng.h"

// cmocka 1.1 compares only integers.
#include "test_util.h"

#define SPECIES 3
#define SUM_EPS 1e-9

// ---- a random population ----------------------------------------------------------------

typedef struct Pop {
  int count;
  double w, h;
  bool wrap;
  double *px, *py, *vx, *vy, *hx, *hy;
  uint8_t *species, *active;
  fbVision vision[FB_MAX_SPECIES];
  fbGrid grid;
} Pop;

static uint64_t g_seed;
static uint64_t g_stream;

static double rnd(void) { return fbRng_Uniform(g_seed, 0, 0, g_stream++); }
static double rnd_in(double a, double b) { return a + (b - a) * rnd(); }
static int rnd_int(int n) { return (int)(rnd() * n); }

static void pop_free(Pop *p)
{
  free(p->px);
  free(p->py);
  free(p->vx);
  free(p->vy);
  free(p->hx);
  free(p->hy);
  free(p->species);
  free(p->active);
  fbGrid_Free(&p->grid);
  memset(p, 0, sizeof *p);
}

static const double FOV_DEG[] = {360.0, 270.0, 180.0, 90.0};

// count agents in a w x h world; radii up to max_r; some agents coincident, on the border, inactive.
static void pop_make(Pop *p, uint64_t seed, int count, double w, double h, double max_r, bool wrap)
{
  memset(p, 0, sizeof *p);
  g_seed = seed;
  g_stream = 0;
  p->count = count;
  p->w = w;
  p->h = h;
  p->wrap = wrap;
  size_t n = (size_t)(count > 0 ? count : 1);
  p->px = calloc(n, sizeof(double));
  p->py = calloc(n, sizeof(double));
  p->vx = calloc(n, sizeof(double));
  p->vy = calloc(n, sizeof(double));
  p->hx = calloc(n, sizeof(double));
  p->hy = calloc(n, sizeof(double));
  p->species = calloc(n, 1);
  p->active = calloc(n, 1);
  for (int i = 0; i < count; ++i) {
    int kind = rnd_int(20);
    if (kind == 0 && i > 0) {  // coincident with an earlier agent
      int j = rnd_int(i);
      p->px[i] = p->px[j];
      p->py[i] = p->py[j];
    } else if (kind == 1) {  // exactly on an edge or corner of the world
      p->px[i] = rnd_int(2) ? w : 0.0;
      p->py[i] = rnd_int(2) ? rnd_in(0, h) : (rnd_int(2) ? h : 0.0);
    } else {
      p->px[i] = rnd_in(0, w);
      p->py[i] = rnd_in(0, h);
    }
    p->vx[i] = rnd_in(-3, 3);
    p->vy[i] = rnd_in(-3, 3);
    double a = rnd_in(0, 2 * FB_PI);
    p->hx[i] = cos(a);
    p->hy[i] = sin(a);
    p->species[i] = (uint8_t)rnd_int(SPECIES);
    p->active[i] = rnd_int(10) != 0;
  }
  for (int s = 0; s < SPECIES; ++s) {
    fbVision *v = &p->vision[s];
    v->radius = s == 0 ? max_r : rnd_in(0.3, 1.0) * max_r;
    v->cos_half_fov = cos(FOV_DEG[rnd_int(4)] * FB_PI / 360.0);
    if (v->cos_half_fov < -0.999999) {
      v->cos_half_fov = -1.0;
    }
    v->sees = (uint32_t)(1 + rnd_int((1 << SPECIES) - 1));  // a non-empty subset
    v->separation_radius = rnd_in(0.2, 0.8) * v->radius;
  }
}

static fbPerceptionInput pop_input(const Pop *p)
{
  return (fbPerceptionInput){p->px,      p->py,    p->vx,        p->vy,     p->hx, p->hy,
                             p->species, p->active, p->count, p->vision, &p->grid};
}

// ---- brute force --------------------------------------------------------------------------

typedef struct Brute {
  int n;
  double cx, cy, avx, avy, sx, sy, nearest;
  int nearest_index;
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
  b->nearest_index = -1;
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
    if (dist < b->nearest) {  // ascending j: the first of equals is the lowest index
      b->nearest = dist;
      b->nearest_index = j;
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

// Perceives in `parts` worker ranges and checks every agent against the brute-force scan.
static void check_perception(Pop *p, int parts)
{
  fbPerceptionInput in = pop_input(p);
  fbAggregates agg = {0};
  fbAggregates_Reserve(&agg, p->count);
  fbNeighbourList lists[4] = {{0}};
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
    assert_int_equal(agg.nearest_index[i], b.nearest_index);
    if (b.n == 0) {
      assert_true(isinf(agg.nearest[i]) && agg.nearest[i] > 0);
      assert_true(agg.cx[i] == p->px[i] && agg.cy[i] == p->py[i]);
      assert_true(agg.avx[i] == 0.0 && agg.avy[i] == 0.0 && agg.sx[i] == 0.0 && agg.sy[i] == 0.0);
    } else {
      assert_true(agg.nearest[i] == b.nearest);
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
  fbAggregates_Free(&agg);
}

// Every agent exactly once, in its own cell, ascending inside each cell.
static void check_sort(const Pop *p, double requested)
{
  const fbGrid *g = &p->grid;
  assert_true(g->nx >= 1 && g->ny >= 1 && g->nx <= 4096 && g->ny <= 4096);
  assert_true(g->world_w / g->nx >= requested || g->nx == 1);
  assert_true(g->world_h / g->ny >= requested || g->ny == 1);
  assert_true(g->cell >= fmin(requested, fmin(g->world_w, g->world_h)) - 1e-12);
  int ncell = g->nx * g->ny;
  assert_int_equal(g->cell_start[0], 0);
  assert_int_equal(g->cell_start[ncell], p->count);
  char *met = calloc((size_t)p->count + 1, 1);
  for (int c = 0; c < ncell; ++c) {
    assert_true(g->cell_start[c] <= g->cell_start[c + 1]);
    for (int s = g->cell_start[c]; s < g->cell_start[c + 1]; ++s) {
      int i = g->sorted[s];
      assert_true(i >= 0 && i < p->count && !met[i]);
      met[i] = 1;
      assert_int_equal(g->cell_of[i], c);
      if (s > g->cell_start[c]) {
        assert_true(g->sorted[s - 1] < i);
      }
      // the cell contains the position: clamped into the border cells, or wrapped on a torus
      double fx = p->px[i] * g->nx / g->world_w, fy = p->py[i] * g->ny / g->world_h;
      if (g->wrap) {
        fx = fmod(fmod(fx, g->nx) + g->nx, g->nx);
        fy = fmod(fmod(fy, g->ny) + g->ny, g->ny);
      }
      fx = fmin(fmax(fx, 0.0), g->nx - 1e-9);
      fy = fmin(fmax(fy, 0.0), g->ny - 1e-9);
      assert_int_equal(c, (int)fy * g->nx + (int)fx);
    }
  }
  for (int i = 0; i < p->count; ++i) {
    assert_true(met[i]);
  }
  free(met);
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
  static Visits v;
  for (int q = 0; q < queries; ++q) {
    fbVec2 at = rnd_int(3) == 0 && p->count > 0 ? fbV(p->px[rnd_int(p->count)], p->py[rnd_int(p->count)])
                                                : fbV(rnd_in(-1, p->w + 1), rnd_in(-1, p->h + 1));
    if (rnd_int(4) == 0 && p->count > 0) {
      int k = rnd_int(p->count);
      at = fbV(p->px[k], p->py[k]);
    }
    double radius = rnd_int(8) == 0 ? sqrt(p->w * p->w + p->h * p->h) : rnd_in(0, 0.5) * fmin(p->w, p->h);
    uint32_t mask = rnd_int(3) == 0 ? UINT32_MAX : (uint32_t)(1 + rnd_int((1 << SPECIES) - 1));
    int exclude = rnd_int(2) && p->count > 0 ? rnd_int(p->count) : -1;

    // brute force
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
      if (j != exclude && d2 < want_d2) {  // ascending j: the first of equals is the lowest index
        want_d2 = d2;
        want = j;
      }
    }
    double got_d;
    int got = fbGrid_Nearest(&in, at, radius, mask, exclude, &got_d);
    assert_int_equal(got, want);
    if (want >= 0) {
      assert_true(got_d == sqrt(want_d2));
    } else {
      assert_true(isinf(got_d));
    }

    v.n = 0;
    int n = fbGrid_ForEach(&in, at, radius, mask, record, &v);
    assert_int_equal(n, want_count);
    assert_int_equal(v.n, want_count);
    for (int k = 0; k < v.n; ++k) {
      int j = v.index[k];
      fbVec2 d = fbGrid_Offset(&p->grid, at, fbV(p->px[j], p->py[j]));
      assert_true(v.off[k].x == d.x && v.off[k].y == d.y);
      assert_true(v.dist[k] <= radius && v.dist[k] == fbV_Length(d));
      assert_true(p->active[j] && ((mask >> p->species[j]) & 1u));
      if (k > 0 && p->grid.cell_of[v.index[k - 1]] == p->grid.cell_of[j]) {
        assert_true(v.index[k - 1] < j);  // ascending within a cell
      }
      for (int m = 0; m < k; ++m) {
        assert_true(v.index[m] != j);  // never twice
      }
    }
  }
}

// ---- tests --------------------------------------------------------------------------------

typedef struct Case {
  int count;
  double w, h, max_r;
} Case;

static void run_cases(bool wrap, double cell_factor)
{
  static const Case cases[] = {
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
      fbGrid_Init(&p.grid);
      double cell = cases[c].max_r * cell_factor;
      fbGrid_Build(&p.grid, p.px, p.py, p.count, p.w, p.h, cell, wrap);
      check_sort(&p, cell);
      check_perception(&p, 1 + (int)(seed % 3));
      check_queries(&p, 60);
      pop_free(&p);
    }
  }
}

static void perception_matches_brute_force_plain(void **state)
{
  (void)state;
  run_cases(false, 1.0);
}

static void perception_matches_brute_force_wrapped(void **state)
{
  (void)state;
  run_cases(true, 1.0);
}

// A grid whose cells are smaller than the vision radius still finds everyone (more rings).
static void cells_smaller_than_radius(void **state)
{
  (void)state;
  run_cases(false, 0.4);
  run_cases(true, 0.3);
}

// Grids built with larger cells than needed (extra candidates) give the same answers.
static void cells_larger_than_radius(void **state)
{
  (void)state;
  run_cases(false, 2.5);
  run_cases(true, 1.7);
}

// Rebuilding the same grid with other counts and worlds reuses its arrays correctly.
static void rebuild_reuses_arrays(void **state)
{
  (void)state;
  fbGrid g;
  fbGrid_Init(&g);
  static const int counts[] = {500, 20, 800, 0, 300};
  for (int k = 0; k < 5; ++k) {
    Pop p;
    pop_make(&p, 77 + k, counts[k], 30.0 + 10 * k, 25.0, 3.0 + k, k % 2 == 0);
    p.grid = g;
    fbGrid_Build(&p.grid, p.px, p.py, p.count, p.w, p.h, 3.0 + k, p.wrap);
    check_sort(&p, 3.0 + k);
    check_perception(&p, 2);
    g = p.grid;
    p.grid = (fbGrid){0};
    pop_free(&p);
  }
  assert_true(g.capacity >= 800);
  fbGrid_Free(&g);
}

static void cell_size_limits(void **state)
{
  (void)state;
  fbGrid g;
  fbGrid_Init(&g);
  double x[3] = {0.0, 500.0, 1000.0}, y[3] = {0.0, 250.0, 500.0};
  // tiny cells: at most 4096 per side (and not absurdly many cells for three agents)
  fbGrid_Build(&g, x, y, 3, 1000.0, 500.0, 1e-6, false);
  assert_true(g.nx >= 1 && g.nx <= 4096 && g.ny >= 1 && g.ny <= 4096);
  assert_true(g.cell >= 1e-6);
  assert_int_equal(g.cell_start[g.nx * g.ny], 3);
  // a cell larger than the world: one cell
  fbGrid_Build(&g, x, y, 3, 1000.0, 500.0, 5000.0, true);
  assert_int_equal(g.nx, 1);
  assert_int_equal(g.ny, 1);
  // zero or invalid sizes still give at least one cell
  fbGrid_Build(&g, x, y, 3, 1000.0, 500.0, 0.0, false);
  assert_true(g.nx >= 1 && g.ny >= 1);
  fbGrid_Build(&g, x, y, 3, 1000.0, 500.0, NAN, false);
  assert_true(g.nx >= 1 && g.ny >= 1);
  // exact tiling: cells are world / n, never smaller than asked
  fbGrid_Build(&g, x, y, 3, 1000.0, 500.0, 30.0, false);
  assert_int_equal(g.nx, 33);
  assert_int_equal(g.ny, 16);
  assert_true(g.cell >= 30.0);
  fbGrid_Build(&g, x, y, 3, 100.0, 100.0, 0.1, false);  // 100 / 1000 rounds below 0.1 in floating point
  assert_true(g.world_w / g.nx >= 0.1 && g.world_h / g.ny >= 0.1);
  fbGrid_Free(&g);
}

static void offset_uses_nearest_image(void **state)
{
  (void)state;
  fbGrid g;
  fbGrid_Init(&g);
  double x[1] = {1}, y[1] = {1};
  fbGrid_Build(&g, x, y, 1, 100.0, 50.0, 10.0, true);
  fbVec2 d = fbGrid_Offset(&g, fbV(1.0, 49.0), fbV(99.0, 2.0));
  assert_near(d.x, -2.0, 1e-12);
  assert_near(d.y, 3.0, 1e-12);
  d = fbGrid_Offset(&g, fbV(10.0, 10.0), fbV(40.0, 30.0));
  assert_near(d.x, 30.0, 1e-12);
  assert_near(d.y, 20.0, 1e-12);
  d = fbGrid_Offset(&g, fbV(0.0, 0.0), fbV(-130.0, 75.0));  // several periods away
  assert_near(d.x, -30.0, 1e-12);
  assert_near(d.y, -25.0, 1e-12);
  fbGrid_Build(&g, x, y, 1, 100.0, 50.0, 10.0, false);
  d = fbGrid_Offset(&g, fbV(1.0, 49.0), fbV(99.0, 2.0));
  assert_near(d.x, 98.0, 1e-12);
  assert_near(d.y, -47.0, 1e-12);
  fbGrid_Free(&g);
}

// Hand-made: a neighbour across the seam, one behind (blind), one coincident, one inactive.
static void hand_made_scene(void **state)
{
  (void)state;
  double px[] = {1.0, 99.0, 3.0, 1.0, 1.5, 1.0};
  double py[] = {25.0, 25.0, 25.0, 25.0, 25.0, 27.0};
  double vx[] = {1, 2, 3, 4, 5, 6}, vy[] = {0, 0, 0, 0, 0, 0};
  double hx[] = {1, 1, 1, 1, 1, 1}, hy[] = {0, 0, 0, 0, 0, 0};
  uint8_t sp[] = {0, 0, 0, 0, 0, 1};
  uint8_t act[] = {1, 1, 1, 1, 0, 1};
  fbVision vis[2] = {{5.0, 0.0, 1u, 2.5}, {5.0, -1.0, 3u, 1.0}};  // species 0: half-plane view of its own kind
  fbGrid g;
  fbGrid_Init(&g);
  fbGrid_Build(&g, px, py, 6, 100.0, 50.0, 5.0, true);
  fbPerceptionInput in = {px, py, vx, vy, hx, hy, sp, act, 6, vis, &g};
  fbAggregates agg = {0};
  fbAggregates_Reserve(&agg, 6);
  fbNeighbourList l = {0};
  fbPerceive(&in, 0, 6, &agg, &l);
  // agent 0 at x = 1 looking +x: sees 2 (ahead) and 3 (coincident); 1 is 2 behind across the seam
  // (blind half), 4 is inactive, 5 is another species.
  assert_int_equal(agg.n[0], 2);
  assert_near(agg.cx[0], 1.0 + (2.0 + 0.0) / 2, 1e-12);
  assert_near(agg.avx[0], (3.0 + 4.0) / 2, 1e-12);
  assert_near(agg.sx[0], -2.0 - 0.0, 1e-12);
  assert_true(agg.nearest[0] == 0.0);
  assert_int_equal(agg.nearest_index[0], 3);
  // agent 1 at x = 99 looking +x: agent 0 (and coincident 3) are 2 ahead through the seam, 2 is 4 ahead
  assert_int_equal(agg.n[1], 3);
  assert_near(agg.cx[1], 99.0 + (2.0 + 4.0 + 2.0) / 3, 1e-12);
  assert_near(agg.sx[1], -4.0, 1e-12);  // 0 and 3 within 2.5
  assert_near(agg.nearest[1], 2.0, 1e-12);
  assert_int_equal(agg.nearest_index[1], 0);  // tie between 0 and 3: lower index
  // the inactive agent perceives nothing
  assert_int_equal(agg.n[4], 0);
  assert_true(agg.cx[4] == 1.5 && isinf(agg.nearest[4]) && agg.nearest_index[4] == -1);
  // species 1 sees all round, both species: 0, 3 at distance 2; 1 at sqrt(4 + 4); 2 at sqrt(4 + 4)
  assert_int_equal(agg.n[5], 4);
  assert_near(agg.sx[5], 0.0, 1e-12);  // nobody within 1
  assert_near(agg.nearest[5], 2.0, 1e-12);
  assert_int_equal(agg.nearest_index[5], 0);
  fbNeighbourList_Free(&l);
  fbAggregates_Free(&agg);
  fbGrid_Free(&g);
}

// Radius 0 sees nothing, not even a coincident agent.
static void radius_zero_sees_nothing(void **state)
{
  (void)state;
  double px[] = {5, 5}, py[] = {5, 5}, v[] = {0, 0}, hx[] = {1, 1}, hy[] = {0, 0};
  uint8_t sp[] = {0, 0};
  fbVision vis[1] = {{0.0, -1.0, 1u, 1.0}};
  fbGrid g;
  fbGrid_Init(&g);
  fbGrid_Build(&g, px, py, 2, 10.0, 10.0, 1.0, false);
  fbPerceptionInput in = {px, py, v, v, hx, hy, sp, NULL, 2, vis, &g};
  fbAggregates agg = {0};
  fbAggregates_Reserve(&agg, 2);
  fbNeighbourList l = {0};
  fbPerceive(&in, 0, 2, &agg, &l);
  assert_int_equal(agg.n[0], 0);
  assert_int_equal(agg.n[1], 0);
  assert_int_equal(l.len, 0);
  // with a radius they see each other, active == NULL meaning all active
  vis[0].radius = 1.0;
  fbPerceive(&in, 0, 2, &agg, &l);
  assert_int_equal(agg.n[0], 1);
  assert_int_equal(agg.nearest_index[0], 1);
  assert_int_equal(agg.nearest_index[1], 0);
  assert_true(agg.nearest[0] == 0.0);
  fbNeighbourList_Free(&l);
  fbAggregates_Free(&agg);
  fbGrid_Free(&g);
}

// Equal distances in different cells: the cell visited first holds the higher index.
static void nearest_tie_goes_to_lower_index(void **state)
{
  (void)state;
  double px[] = {10.0, 10.0, 10.0}, py[] = {10.0, 12.0, 8.0}, v[] = {0, 0, 0}, hx[] = {1, 1, 1}, hy[] = {0, 0, 0};
  uint8_t sp[] = {0, 0, 0};
  fbVision vis[1] = {{4.0, -1.0, 1u, 1.0}};
  fbGrid g;
  fbGrid_Init(&g);
  fbGrid_Build(&g, px, py, 3, 40.0, 40.0, 4.0, false);
  assert_true(g.cell_of[2] < g.cell_of[1]);
  fbPerceptionInput in = {px, py, v, v, hx, hy, sp, NULL, 3, vis, &g};
  fbAggregates agg = {0};
  fbAggregates_Reserve(&agg, 3);
  fbNeighbourList l = {0};
  fbPerceive(&in, 0, 3, &agg, &l);
  assert_int_equal(agg.n[0], 2);
  assert_int_equal(l.index[agg.first[0]], 2);  // grid order: the row above first
  assert_int_equal(agg.nearest_index[0], 1);
  double d;
  assert_int_equal(fbGrid_Nearest(&in, fbV(10.0, 10.0), 5.0, 1u, 0, &d), 1);
  assert_near(d, 2.0, 0.0);
  fbNeighbourList_Free(&l);
  fbAggregates_Free(&agg);
  fbGrid_Free(&g);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(perception_matches_brute_force_plain),
      cmocka_unit_test(perception_matches_brute_force_wrapped),
      cmocka_unit_test(cells_smaller_than_radius),
      cmocka_unit_test(cells_larger_than_radius),
      cmocka_unit_test(rebuild_reuses_arrays),
      cmocka_unit_test(cell_size_limits),
      cmocka_unit_test(offset_uses_nearest_image),
      cmocka_unit_test(hand_made_scene),
      cmocka_unit_test(radius_zero_sees_nothing),
      cmocka_unit_test(nearest_tie_goes_to_lower_index),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
