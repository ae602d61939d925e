// test_grid.c — the grid: agents sorted by cell and by id inside a cell, cell sizes, periodic offsets, and the block iterator.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pop_util.h"
#include "test_util.h"

// Once stored in the grid's order: every agent in the cell that contains it, cells in order, ids
// ascending inside a cell.
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
  for (int c = 0; c < ncell; ++c) {
    assert_true(g->cell_start[c] <= g->cell_start[c + 1]);
    for (int i = g->cell_start[c]; i < g->cell_start[c + 1]; ++i) {
      assert_int_equal(fbGrid_CellOf(g, p->px[i], p->py[i]), c);
      if (i > g->cell_start[c]) {
        assert_true(p->id[i - 1] < p->id[i]);
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
}

// The block round a point holds every agent within the radius exactly once, each with the
// offset of its nearest image; by rings of cells, or (box) only the cells the radius's square
// overlaps, tried mostly with radii under a cell, the bodies' reach.
static void check_blocks(Pop *p, int queries, bool box)
{
  char *met = calloc((size_t)p->count + 1, 1);
  for (int q = 0; q < queries; ++q) {
    fbVec2 at = fbV(rnd_in(-1, p->w + 1), rnd_in(-1, p->h + 1));
    double radius = rnd_int(6) == 0 ? sqrt(p->w * p->w + p->h * p->h) : rnd_in(0, 0.5) * fmin(p->w, p->h);
    if (box && rnd_int(3) != 0) {
      radius = rnd_in(0, 1.2) * p->grid.cell;
    }
    memset(met, 0, (size_t)p->count + 1);
    fbBlock b;
    fbCellRun run;
    if (box) {
      fbBlock_BeginBox(&b, &p->grid, at.x, at.y, radius);
    } else {
      fbBlock_Begin(&b, &p->grid, at.x, at.y, radius);
    }
    while (fbBlock_Next(&b, &run)) {
      for (int j = run.begin; j < run.end; ++j) {
        assert_false(met[j]);
        met[j] = 1;
        fbVec2 want = fbGrid_Offset(&p->grid, at, fbV(p->px[j], p->py[j]));
        fbVec2 got = run.min_image ? want : fbV(p->px[j] - at.x + run.sx, p->py[j] - at.y + run.sy);
        if (fbV_Length2(want) <= radius * radius) {
          assert_true(got.x == want.x && got.y == want.y);
        }
      }
    }
    for (int j = 0; j < p->count; ++j) {
      fbVec2 d = fbGrid_Offset(&p->grid, at, fbV(p->px[j], p->py[j]));
      if (fbV_Length2(d) <= radius * radius) {
        assert_true(met[j]);
      }
    }
  }
  free(met);
}

static void run_cases(bool wrap, double cell_factor, bool inside)
{
  static const struct {
    int count;
    double w, h, r;
  } cases[] = {{600, 100.0, 80.0, 6.0}, {400, 40.0, 30.0, 9.0}, {200, 10.0, 7.0, 4.0}, {150, 6.0, 12.0, 3.5},
               {100, 5.0, 5.0, 5.0},    {300, 50.0, 50.0, 2.0}, {1, 10.0, 10.0, 3.0},  {0, 10.0, 10.0, 3.0}};
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
      Pop p;
      pop_make(&p, seed * 100 + c, cases[c].count, cases[c].w, cases[c].h, cases[c].r, wrap);
      if (inside) {
        pop_inside(&p);
      }
      double cell = cases[c].r * cell_factor;
      pop_sort(&p, cell);
      check_sort(&p, cell);
      check_blocks(&p, 40, false);
      check_blocks(&p, 40, true);
      pop_free(&p);
    }
  }
}

static void sorted_by_cell_then_id(void **state)
{
  (void)state;
  run_cases(false, 1.0, false);
  run_cases(true, 1.0, false);
  run_cases(true, 1.0, true);
  run_cases(false, 0.4, false);
  run_cases(true, 0.3, true);
  run_cases(true, 2.5, true);
}

// Sorting twice is sorting once: the second build finds the agents in order.
static void sorting_is_idempotent(void **state)
{
  (void)state;
  Pop p;
  pop_make(&p, 5, 500, 60.0, 40.0, 5.0, true);
  pop_sort(&p, 2.5);
  assert_false(p.grid.identity);
  fbGrid_Build(&p.grid, p.px, p.py, p.id, p.count, p.w, p.h, 2.5, true);
  assert_true(p.grid.identity);
  pop_free(&p);
}

static void cell_size_limits(void **state)
{
  (void)state;
  fbGrid g;
  fbGrid_Init(&g);
  double x[3] = {0.0, 500.0, 1000.0}, y[3] = {0.0, 250.0, 500.0};
  // tiny cells: at most 4096 per side (and not absurdly many cells for three agents)
  fbGrid_Build(&g, x, y, NULL, 3, 1000.0, 500.0, 1e-6, false);
  assert_true(g.nx >= 1 && g.nx <= 4096 && g.ny >= 1 && g.ny <= 4096);
  assert_true(g.cell >= 1e-6);
  assert_int_equal(g.cell_start[g.nx * g.ny], 3);
  // a cell larger than the world: one cell
  fbGrid_Build(&g, x, y, NULL, 3, 1000.0, 500.0, 5000.0, true);
  assert_int_equal(g.nx, 1);
  assert_int_equal(g.ny, 1);
  // zero or invalid sizes still give at least one cell
  fbGrid_Build(&g, x, y, NULL, 3, 1000.0, 500.0, 0.0, false);
  assert_true(g.nx >= 1 && g.ny >= 1);
  fbGrid_Build(&g, x, y, NULL, 3, 1000.0, 500.0, NAN, false);
  assert_true(g.nx >= 1 && g.ny >= 1);
  // exact tiling: cells are world / n, never smaller than asked
  fbGrid_Build(&g, x, y, NULL, 3, 1000.0, 500.0, 30.0, false);
  assert_int_equal(g.nx, 33);
  assert_int_equal(g.ny, 16);
  assert_true(g.cell >= 30.0);
  fbGrid_Build(&g, x, y, NULL, 3, 100.0, 100.0, 0.1, false);  // 100 / 1000 rounds below 0.1 in floating point
  assert_true(g.world_w / g.nx >= 0.1 && g.world_h / g.ny >= 0.1);
  fbGrid_Free(&g);
}


static void offset_uses_nearest_image(void **state)
{
  (void)state;
  fbGrid g;
  fbGrid_Init(&g);
  double x[1] = {1}, y[1] = {1};
  fbGrid_Build(&g, x, y, NULL, 1, 100.0, 50.0, 10.0, true);
  fbVec2 d = fbGrid_Offset(&g, fbV(1.0, 49.0), fbV(99.0, 2.0));
  assert_near(d.x, -2.0, 1e-12);
  assert_near(d.y, 3.0, 1e-12);
  d = fbGrid_Offset(&g, fbV(10.0, 10.0), fbV(40.0, 30.0));
  assert_near(d.x, 30.0, 1e-12);
  assert_near(d.y, 20.0, 1e-12);
  d = fbGrid_Offset(&g, fbV(0.0, 0.0), fbV(-130.0, 75.0));  // several periods away
  assert_near(d.x, -30.0, 1e-12);
  assert_near(d.y, -25.0, 1e-12);
  fbGrid_Build(&g, x, y, NULL, 1, 100.0, 50.0, 10.0, false);
  d = fbGrid_Offset(&g, fbV(1.0, 49.0), fbV(99.0, 2.0));
  assert_near(d.x, 98.0, 1e-12);
  assert_near(d.y, -47.0, 1e-12);
  fbGrid_Free(&g);
}


int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(sorted_by_cell_then_id),
      cmocka_unit_test(sorting_is_idempotent),
      cmocka_unit_test(cell_size_limits),
      cmocka_unit_test(offset_uses_nearest_image),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
