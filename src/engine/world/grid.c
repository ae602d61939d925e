// grid.c — the uniform grid: agents sorted by cell every step, and the block of cells round a point.
#include "grid.h"

#include <string.h>

#include "memory.h"

/*
 * The grid
 * --------
 * Reynolds' bins, which Gompert (section 7) points to for the neighbour search: the world
 * [0, W] x [0, H] (y down) is cut into nx x ny cells. nx = floor(W / c) for the
 * requested side c, so the cells tile the world exactly and each is cw = W / nx >= c wide
 * (likewise ch = H / ny >= c). Exact tiling matters on a torus: a narrower last column would
 * let a flock-mate within c of the seam sit two columns away. g->cell is min(cw, ch), the reach
 * that one ring of cells guarantees. nx and ny are capped at 4096, and nx * ny at
 * max(65536, 4 * count) (only ever making cells larger): beyond that, empty cells would cost
 * memory and prefix-sum time without removing candidates.
 *
 * The cell of a point is (floor(x / cw), floor(y / ch)); off-world points are clamped into the
 * border cells, or on a torus reduced modulo the world first (NaN goes to cell 0 and is never
 * within anyone's radius). Cells are numbered row-major, c = cy * nx + cx.
 *
 * Agents in spatial order
 * -----------------------
 * Agents are stored in cell order, so that the flock-mates an agent reads sit next to each other
 * in memory whatever the size of the world (stored in id order, which is random in space, a
 * world larger than the cache misses on nearly every neighbour read). The order is rebuilt every
 * step by a counting sort, O(count + cells):
 *   1. count[c] = agents in cell c;
 *   2. inclusive prefix sum: count[c] becomes end(c) = start(c + 1);
 *   3. scatter agents in DESCENDING index: order[--count[cell_of[i]]] = i.
 * Step 3 walks each cell's cursor from its end back to its start, so afterwards count[c] holds
 * start(c) again (no second cursor array); cell_start[nx * ny] = count closes the last cell.
 * Inside each cell the agents are then put in id order by insertion sort (a few agents per cell,
 * nearly all already in order from the step before). The order is therefore a function of the
 * positions and ids alone: (cell, id). Sums over flock-mates run in that order, so a run does
 * not depend on the order agents were stored in, nor on how they are split among threads.
 *
 * Which cells to visit: a flock-mate within r of a point differs from it by at most
 * k = ceil(r / cw) columns (and ceil(r / ch) rows), so the block is 2k + 1 cells on a side.
 * With agents in cell order, the columns of one row of the block are one index range. On a
 * torus the block wraps: a row (or column) past an edge is the one at the other edge, seen
 * through the seam, and all its agents are shifted by a whole world, W or H. The offset to the
 * nearest periodic image, d -= W round(d / W), is then exactly that shift for every agent
 * within r < W / 2, so one addition per run replaces the per-agent test. When the block is as
 * wide as the grid (2k + 1 >= nx, e.g. nx < 3) every column is visited exactly once instead
 * and the nearest image is taken point by point; likewise when some agent (or the point the
 * block is round) lies outside [0, W) x [0, H), where a whole-world shift would not fit it.
 */

#define FB_GRID_MAX_SIDE 4096
#define FB_GRID_MIN_CELL_CAP 65536

void fbGrid_Init(fbGrid *g) { memset(g, 0, sizeof *g); }

void fbGrid_Free(fbGrid *g)
{
  free(g->cell_start);
  free(g->cell_of);
  free(g->order);
  memset(g, 0, sizeof *g);
}

// Cell coordinate of x along an axis of n cells, inv = n / size. NaN and off-world values land
// in a border cell (or, on a torus, in the cell of the wrapped coordinate).
static inline int axis_cell(double x, double inv, int n, bool wrap)
{
  double f = x * inv;
  if (wrap && (f < 0.0 || f >= n) && isfinite(f)) {
    f = fmod(f, (double)n);
    if (f < 0.0) {
      f += n;
    }
  }
  if (!(f >= 0.0)) {
    return 0;
  }
  if (f >= n) {
    return n - 1;
  }
  return (int)f;
}

int fbGrid_CellOf(const fbGrid *g, double x, double y)
{
  return axis_cell(y, g->inv_h, g->ny, g->wrap) * g->nx + axis_cell(x, g->inv_w, g->nx, g->wrap);
}

// Cells per side: at most max_side, at least 1, and each cell at least `cell` long.
static int side_cells(double size, double cell, int max_side)
{
  double f = floor(size / cell);
  int n = f >= max_side ? max_side : (f >= 1.0 ? (int)f : 1);
  while (n > 1 && size / n < cell) {  // rounding in size / cell must not make cells too small
    --n;
  }
  return n;
}

static void set_geometry(fbGrid *g, int count, double world_w, double world_h, double cell_size, bool wrap)
{
  double big = fmax(world_w, world_h);
  double cell = (cell_size > 0.0 && isfinite(cell_size)) ? cell_size : big;
  cell = fmax(cell, big / FB_GRID_MAX_SIDE);
  double max_cells = fmax((double)FB_GRID_MIN_CELL_CAP, 4.0 * count);
  if ((world_w / cell) * (world_h / cell) > max_cells) {
    cell = fmax(cell, sqrt(world_w * world_h / max_cells));
  }
  g->nx = side_cells(world_w, cell, FB_GRID_MAX_SIDE);
  g->ny = side_cells(world_h, cell, FB_GRID_MAX_SIDE);
  g->world_w = world_w;
  g->world_h = world_h;
  g->inv_w = g->nx / world_w;
  g->inv_h = g->ny / world_h;
  g->wrap = wrap;
  g->cell = fmin(world_w / g->nx, world_h / g->ny);
  g->count = count;
}

// Inside one cell, order[lo..hi) by ascending id: insertion sort, since cells hold few agents
// and keep most of them from one step to the next.
static void sort_cell_by_id(int *order, int lo, int hi, const uint32_t *id)
{
  for (int k = lo + 1; k < hi; ++k) {
    int moving = order[k];
    uint32_t key = id[moving];
    int j = k - 1;
    while (j >= lo && id[order[j]] > key) {
      order[j + 1] = order[j];
      --j;
    }
    order[j + 1] = moving;
  }
}

void fbGrid_Build(fbGrid *g, const double *px, const double *py, const uint32_t *id, int count, double world_w,
                  double world_h, double cell_size, bool wrap)
{
  FB_ASSERT(count >= 0 && world_w > 0.0 && world_h > 0.0 && isfinite(world_w) && isfinite(world_h));
  set_geometry(g, count, world_w, world_h, cell_size, wrap);
  int ncell = g->nx * g->ny;
  if (g->cell_capacity < ncell + 1) {
    g->cell_capacity = ncell + 1;
    g->cell_start = fbMemory_Grow(g->cell_start, sizeof *g->cell_start, (size_t)g->cell_capacity);
  }
  if (g->capacity < count) {
    g->capacity = count;
    g->cell_of = fbMemory_Grow(g->cell_of, sizeof *g->cell_of, (size_t)count);
    g->order = fbMemory_Grow(g->order, sizeof *g->order, (size_t)count);
  }
  int *start = g->cell_start, *cell_of = g->cell_of, *order = g->order;
  memset(start, 0, (size_t)(ncell + 1) * sizeof *start);
  bool inside = true;
  for (int i = 0; i < count; ++i) {
    int c = fbGrid_CellOf(g, px[i], py[i]);
    cell_of[i] = c;
    start[c]++;
    inside = inside && px[i] >= 0.0 && px[i] < world_w && py[i] >= 0.0 && py[i] < world_h;
  }
  g->inside = inside;
  for (int c = 1; c < ncell; ++c) {
    start[c] += start[c - 1];  // now end of cell c
  }
  for (int i = count - 1; i >= 0; --i) {
    order[--start[cell_of[i]]] = i;  // walks back to the start of the cell
  }
  start[ncell] = count;
  if (id != NULL) {
    for (int c = 0; c < ncell; ++c) {
      if (start[c + 1] - start[c] > 1) {
        sort_cell_by_id(order, start[c], start[c + 1], id);
      }
    }
  }
  g->identity = true;
  for (int k = 0; k < count && g->identity; ++k) {
    g->identity = order[k] == k;
  }
}

fbVec2 fbGrid_Offset(const fbGrid *g, fbVec2 a, fbVec2 b)
{
  double dx = b.x - a.x, dy = b.y - a.y;
  if (g->wrap) {
    dx = fbGrid_MinImage(dx, g->world_w);
    dy = fbGrid_MinImage(dy, g->world_h);
  }
  return fbV(dx, dy);
}

// ---- the block of cells round a point -----------------------------------------------------------

// Rings of cells needed to reach `radius` with cells `side` long (at least 1, at most n).
static int rings(double radius, double side, int n)
{
  double k = ceil(radius / side);
  if (!(k >= 1.0)) {
    return 1;
  }
  return k >= n ? n : (int)k;
}

void fbGrid_Rings(const fbGrid *g, double radius, int *kx, int *ky)
{
  *kx = rings(radius, g->world_w / g->nx, g->nx);
  *ky = rings(radius, g->world_h / g->ny, g->ny);
}

// Cells from `below` before cell a to `above` after it on an axis of n cells, as up to two runs
// [lo, hi], each with the shift that brings its agents next to cell a (a run seen through the seam
// is a world away). Returns false when the block covers a whole wrapping axis (no single shift then).
static bool axis_span(int a, int below, int above, int n, bool wrap, double size, int *lo, int *hi, double *shift,
                      int *runs)
{
  shift[0] = shift[1] = 0.0;
  *runs = 1;
  if (!wrap) {
    lo[0] = a - below < 0 ? 0 : a - below;
    hi[0] = a + above >= n ? n - 1 : a + above;
    return true;
  }
  if ((long)below + above + 1 >= n) {
    lo[0] = 0;
    hi[0] = n - 1;
    return false;
  }
  if (a - below < 0) {  // the first cells are the last ones, before the seam
    *runs = 2;
    lo[0] = a - below + n;
    hi[0] = n - 1;
    shift[0] = -size;
    lo[1] = 0;
    hi[1] = a + above;
  } else if (a + above >= n) {  // the last cells are the first ones, past the seam
    *runs = 2;
    lo[0] = a - below;
    hi[0] = n - 1;
    lo[1] = 0;
    hi[1] = a + above - n;
    shift[1] = size;
  } else {
    lo[0] = a - below;
    hi[0] = a + above;
  }
  return true;
}

// The block from cell (ax - bx, ay - by) to (ax + cx, ay + cy) round the point (x, y) in cell (ax, ay).
static inline __attribute__((always_inline)) void begin_span(fbBlock *b, const fbGrid *g, double x, double y, int bx,
                                                              int cx, int by, int cy)
{
  b->g = g;
  b->q = 0;
  if (g->count == 0) {
    b->rects = 0;
    b->rect[0].row_hi = -1;
    b->row = 0;
    return;
  }
  int ax = axis_cell(x, g->inv_w, g->nx, g->wrap), ay = axis_cell(y, g->inv_h, g->ny, g->wrap);
  // Tested only on a torus (perception begins a block per agent: walls skip these four comparisons).
  const bool point_inside = g->wrap && x >= 0.0 && x < g->world_w && y >= 0.0 && y < g->world_h;
  if (!g->wrap || (ax - bx >= 0 && ax + cx < g->nx && ay - by >= 0 && ay + cy < g->ny && g->inside && point_inside)) {
    // Clear of every seam (nearly always): one rectangle, no shift.
    fbBlockRect *r = &b->rect[0];
    r->row_lo = ay - by < 0 ? 0 : ay - by;
    r->row_hi = ay + cy >= g->ny ? g->ny - 1 : ay + cy;
    r->col_lo = ax - bx < 0 ? 0 : ax - bx;
    r->col_hi = ax + cx >= g->nx ? g->nx - 1 : ax + cx;
    r->sx = r->sy = 0.0;
    b->rects = 1;
    b->min_image = false;
    b->row = r->row_lo;
    return;
  }
  int rlo[2], rhi[2], clo[2], chi[2], rn, cn;
  double rs[2], cs[2];
  bool rows_shifted = axis_span(ay, by, cy, g->ny, true, g->world_h, rlo, rhi, rs, &rn);
  bool cols_shifted = axis_span(ax, bx, cx, g->nx, true, g->world_w, clo, chi, cs, &cn);
  b->min_image = !(rows_shifted && cols_shifted && g->inside && point_inside);
  b->rects = 0;
  for (int i = 0; i < rn; ++i) {
    for (int j = 0; j < cn; ++j) {
      // With images taken point by point, shifts would be wrong: they stay 0.
      b->rect[b->rects++] = (fbBlockRect){rlo[i], rhi[i], clo[j], chi[j], b->min_image ? 0.0 : cs[j],
                                          b->min_image ? 0.0 : rs[i]};
    }
  }
  b->row = b->rect[0].row_lo;
}

void fbBlock_BeginRings(fbBlock *b, const fbGrid *g, double x, double y, int kx, int ky)
{
  begin_span(b, g, x, y, kx, kx, ky, ky);
}

/*
 * Cells below and above the point's own that the interval [x - r, x + r] reaches. The cell of a
 * coordinate, floor(x n / size), is monotone in x (clamped at the walls; on a torus counted in the
 * unwrapped lattice, then reduced), so every agent within r of x along the axis lies in one of
 * them.
 */
static void axis_reach(double x, double r, double inv, int n, bool wrap, int *below, int *above)
{
  if (!wrap) {
    int a = axis_cell(x, inv, n, false);
    *below = a - axis_cell(x - r, inv, n, false);
    *above = axis_cell(x + r, inv, n, false) - a;
    return;
  }
  double f = floor(x * inv), lo = floor((x - r) * inv), hi = floor((x + r) * inv);
  *below = f - lo >= n ? n : (int)(f - lo);
  *above = hi - f >= n ? n : (int)(hi - f);
}

// A box that crosses a seam of the torus, or of a point not finite (rings then: a NaN point has
// cell 0, an infinite radius reaches every cell).
static __attribute__((noinline)) void begin_box_slow(fbBlock *b, const fbGrid *g, double x, double y, double r)
{
  if (!isfinite(x) || !isfinite(y) || !isfinite(r)) {
    fbBlock_Begin(b, g, x, y, r);
    return;
  }
  int bx, cx, by, cy;
  axis_reach(x, r, g->inv_w, g->nx, g->wrap, &bx, &cx);
  axis_reach(y, r, g->inv_h, g->ny, g->wrap, &by, &cy);
  begin_span(b, g, x, y, bx, cx, by, cy);
}

void fbBlock_BeginBox(fbBlock *b, const fbGrid *g, double x, double y, double radius)
{
  // Padded by a billionth of the world, so that rounding in x - r cannot drop a cell.
  const double r = (radius > 0.0 ? radius : 0.0) + 1e-9 * (g->world_w + g->world_h + radius);
  if (g->count > 0 && (!g->wrap || (g->inside && x - r >= 0.0 && x + r < g->world_w && y - r >= 0.0 &&
                                    y + r < g->world_h))) {
    // Walls, or a box clear of the seams (nearly always): one rectangle, the cells of its corners.
    fbBlockRect *q = &b->rect[0];
    q->col_lo = axis_cell(x - r, g->inv_w, g->nx, false);
    q->col_hi = axis_cell(x + r, g->inv_w, g->nx, false);
    q->row_lo = axis_cell(y - r, g->inv_h, g->ny, false);
    q->row_hi = axis_cell(y + r, g->inv_h, g->ny, false);
    q->sx = q->sy = 0.0;
    b->g = g;
    b->q = 0;
    b->rects = 1;
    b->min_image = false;
    b->row = q->row_lo;
    return;
  }
  begin_box_slow(b, g, x, y, r);
}

void fbBlock_Begin(fbBlock *b, const fbGrid *g, double x, double y, double radius)
{
  int kx, ky;
  fbGrid_Rings(g, radius, &kx, &ky);
  fbBlock_BeginRings(b, g, x, y, kx, ky);
}
