// grid.c — uniform spatial grid rebuilt each step (counting sort), and perception of flock-mates.
#include "grid.h"

#include <string.h>

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
 * within anyone's radius, see below). Cells are numbered row-major, c = cy * nx + cx.
 *
 * Counting sort, O(count + cells) and stable:
 *   1. count[c] = agents in cell c;
 *   2. inclusive prefix sum: count[c] becomes end(c) = start(c + 1);
 *   3. scatter agents in DESCENDING index: sorted[--count[cell_of[i]]] = i.
 * Step 3 walks each cell's cursor from its end back to its start, so afterwards count[c] holds
 * start(c) again (no second cursor array), and inside every cell the agent indices ascend
 * (the highest index went in last slot first). cell_start[nx * ny] = count closes the last cell.
 * The positions are then copied in that order (sorted_x, sorted_y), so that scanning a cell
 * reads memory in sequence instead of jumping through px[sorted[s]].
 *
 * Minimum image (torus): the offset from a to b is d = b - a with each component brought into
 * [-W/2, W/2] by subtracting the nearest whole multiple of the period, d_x -= W round(d_x / W):
 * the offset to the nearest periodic copy of b. For points inside the world |d_x| < W, so this
 * is a single +-W correction, taken only for pairs near opposite edges.
 *
 * Which cells to visit: a flock-mate within r of the agent differs from it by at most
 * k = ceil(r / cw) columns (and ceil(r / ch) rows). Since the grid is built with cw, ch >= every
 * vision radius, k is 1: the 3 x 3 block around the agent's cell. A larger radius just widens
 * the block. On a torus the block wraps, and when it is as wide as the grid (2k + 1 >= nx,
 * e.g. nx < 3) every column is visited exactly once instead, so no cell is read twice. Within
 * a row the visited columns are contiguous in `sorted` (at most two runs on a torus), so each
 * row is one or two plain index ranges.
 *
 * Field of view without trigonometry (Gompert 9.3.4: store the cosine of the viewing angle;
 * Bourg ch. 4: wide, limited and narrow views). With h the unit heading and theta the half
 * angle of the view cone, a flock-mate at offset d is in view when the angle between d and h
 * is at most theta, i.e. d . h = |d| cos(angle) >= |d| cos(theta). The species stores
 * cos(theta) once, so the test is one dot product and one multiply: 360 degrees is
 * cos = -1 (everything passes), 270 degrees cos(135) = -0.707 (a blind wedge behind),
 * 180 degrees cos = 0 (the half-plane ahead), 90 degrees cos(45) = 0.707. |d| is needed
 * anyway for the neighbour list, and is computed only for candidates already inside the
 * radius (compared squared, d . d <= r^2). A coincident flock-mate (d = 0) gives 0 >= 0 and
 * is seen, at distance 0.
 */

#define FB_GRID_MAX_SIDE 4096
#define FB_GRID_MIN_CELL_CAP 65536

static void *grow(void *p, size_t elem, size_t n)
{
  void *q = realloc(p, elem * (n > 0 ? n : 1));
  FB_ASSERT(q != NULL);
  return q;
}

void fbGrid_Init(fbGrid *g) { memset(g, 0, sizeof *g); }

void fbGrid_Free(fbGrid *g)
{
  free(g->cell_start);
  free(g->sorted);
  free(g->cell_of);
  free(g->sorted_x);
  free(g->sorted_y);
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

// Nearest periodic image of an offset component along an axis of length size (half = size / 2).
static inline double min_image(double d, double size, double half)
{
  if (d > half || d < -half) {
    d -= size * floor(d / size + 0.5);
  }
  return d;
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

void fbGrid_Build(fbGrid *g, const double *px, const double *py, int count, double world_w, double world_h,
                  double cell_size, bool wrap)
{
  FB_ASSERT(count >= 0 && world_w > 0.0 && world_h > 0.0 && isfinite(world_w) && isfinite(world_h));
  double big = fmax(world_w, world_h);
  double cell = (cell_size > 0.0 && isfinite(cell_size)) ? cell_size : big;
  cell = fmax(cell, big / FB_GRID_MAX_SIDE);
  double max_cells = fmax((double)FB_GRID_MIN_CELL_CAP, 4.0 * count);
  if ((world_w / cell) * (world_h / cell) > max_cells) {
    cell = fmax(cell, sqrt(world_w * world_h / max_cells));
  }
  int nx = side_cells(world_w, cell, FB_GRID_MAX_SIDE);
  int ny = side_cells(world_h, cell, FB_GRID_MAX_SIDE);

  g->nx = nx;
  g->ny = ny;
  g->world_w = world_w;
  g->world_h = world_h;
  g->wrap = wrap;
  g->cell = fmin(world_w / nx, world_h / ny);
  g->count = count;

  int ncell = nx * ny;
  if (g->cell_capacity < ncell + 1) {
    g->cell_capacity = ncell + 1;
    g->cell_start = grow(g->cell_start, sizeof *g->cell_start, (size_t)g->cell_capacity);
  }
  if (g->capacity < count) {
    g->capacity = count;
    g->sorted = grow(g->sorted, sizeof *g->sorted, (size_t)count);
    g->cell_of = grow(g->cell_of, sizeof *g->cell_of, (size_t)count);
    g->sorted_x = grow(g->sorted_x, sizeof *g->sorted_x, (size_t)count);
    g->sorted_y = grow(g->sorted_y, sizeof *g->sorted_y, (size_t)count);
  }

  int *start = g->cell_start;
  int *cell_of = g->cell_of;
  memset(start, 0, (size_t)(ncell + 1) * sizeof *start);
  double inv_x = nx / world_w, inv_y = ny / world_h;
  for (int i = 0; i < count; ++i) {
    int c = axis_cell(py[i], inv_y, ny, wrap) * nx + axis_cell(px[i], inv_x, nx, wrap);
    cell_of[i] = c;
    start[c]++;
  }
  for (int c = 1; c < ncell; ++c) {
    start[c] += start[c - 1];  // now end of cell c
  }
  for (int i = count - 1; i >= 0; --i) {
    g->sorted[--start[cell_of[i]]] = i;  // walks back to the start of the cell
  }
  start[ncell] = count;
  for (int s = 0; s < count; ++s) {  // positions in cell order: perception reads them in sequence
    g->sorted_x[s] = px[g->sorted[s]];
    g->sorted_y[s] = py[g->sorted[s]];
  }
}

fbVec2 fbGrid_Offset(const fbGrid *g, fbVec2 a, fbVec2 b)
{
  double dx = b.x - a.x, dy = b.y - a.y;
  if (g->wrap) {
    dx = min_image(dx, g->world_w, 0.5 * g->world_w);
    dy = min_image(dy, g->world_h, 0.5 * g->world_h);
  }
  return fbV(dx, dy);
}

// ---- the block of cells around a point ------------------------------------------------------

// Runs of cells along one axis: up to two [lo, hi] index ranges, every cell at most once.
typedef struct Span {
  int lo[2], hi[2];
  int n;
} Span;

// Cells within k of cell a on an axis of n cells (k >= 0).
static Span axis_span(int a, int k, int n, bool wrap)
{
  Span s;
  s.n = 1;
  if (wrap) {
    if (2 * (long)k + 1 >= n) {
      s.lo[0] = 0;
      s.hi[0] = n - 1;
    } else if (a - k < 0) {
      s.n = 2;
      s.lo[0] = a - k + n;
      s.hi[0] = n - 1;
      s.lo[1] = 0;
      s.hi[1] = a + k;
    } else if (a + k >= n) {
      s.n = 2;
      s.lo[0] = a - k;
      s.hi[0] = n - 1;
      s.lo[1] = 0;
      s.hi[1] = a + k - n;
    } else {
      s.lo[0] = a - k;
      s.hi[0] = a + k;
    }
  } else {
    s.lo[0] = a - k < 0 ? 0 : a - k;
    s.hi[0] = a + k >= n ? n - 1 : a + k;
  }
  return s;
}

// Rings of cells needed to reach `radius` with cells `side` long (at least 1, at most n).
static int rings(double radius, double side, int n)
{
  double k = ceil(radius / side);
  if (!(k >= 1.0)) {
    return 1;
  }
  return k >= n ? n : (int)k;
}

// The block of cells within radius of p, as row and column spans.
typedef struct Block {
  Span rows, cols;
} Block;

static Block block_around(const fbGrid *g, double x, double y, double radius)
{
  double cw = g->world_w / g->nx, ch = g->world_h / g->ny;
  int ax = axis_cell(x, g->nx / g->world_w, g->nx, g->wrap);
  int ay = axis_cell(y, g->ny / g->world_h, g->ny, g->wrap);
  Block b = {axis_span(ay, rings(radius, ch, g->ny), g->ny, g->wrap),
             axis_span(ax, rings(radius, cw, g->nx), g->nx, g->wrap)};
  return b;
}

// ---- perception -----------------------------------------------------------------------------

void fbAggregates_Reserve(fbAggregates *a, int count)
{
  if (a->capacity >= count) {
    return;
  }
  size_t n = (size_t)count;
  a->n = grow(a->n, sizeof *a->n, n);
  a->cx = grow(a->cx, sizeof *a->cx, n);
  a->cy = grow(a->cy, sizeof *a->cy, n);
  a->avx = grow(a->avx, sizeof *a->avx, n);
  a->avy = grow(a->avy, sizeof *a->avy, n);
  a->sx = grow(a->sx, sizeof *a->sx, n);
  a->sy = grow(a->sy, sizeof *a->sy, n);
  a->nearest = grow(a->nearest, sizeof *a->nearest, n);
  a->nearest_index = grow(a->nearest_index, sizeof *a->nearest_index, n);
  a->first = grow(a->first, sizeof *a->first, n);
  a->capacity = count;
}

void fbAggregates_Free(fbAggregates *a)
{
  free(a->n);
  free(a->cx);
  free(a->cy);
  free(a->avx);
  free(a->avy);
  free(a->sx);
  free(a->sy);
  free(a->nearest);
  free(a->nearest_index);
  free(a->first);
  memset(a, 0, sizeof *a);
}

void fbNeighbourList_Free(fbNeighbourList *l)
{
  free(l->index);
  free(l->dx);
  free(l->dy);
  free(l->dist);
  memset(l, 0, sizeof *l);
}

// Room for at least `need` entries (doubling, never shrinking).
static void list_reserve(fbNeighbourList *l, int need)
{
  if (l->capacity >= need) {
    return;
  }
  int cap = l->capacity > 0 ? l->capacity : 256;
  while (cap < need) {
    cap = cap > (1 << 29) ? need : 2 * cap;
  }
  l->index = grow(l->index, sizeof *l->index, (size_t)cap);
  l->dx = grow(l->dx, sizeof *l->dx, (size_t)cap);
  l->dy = grow(l->dy, sizeof *l->dy, (size_t)cap);
  l->dist = grow(l->dist, sizeof *l->dist, (size_t)cap);
  l->capacity = cap;
}

static void perceive_nothing(fbAggregates *agg, int i, double px, double py, int first)
{
  agg->n[i] = 0;
  agg->cx[i] = px;
  agg->cy[i] = py;
  agg->avx[i] = agg->avy[i] = 0.0;
  agg->sx[i] = agg->sy[i] = 0.0;
  agg->nearest[i] = INFINITY;
  agg->nearest_index[i] = -1;
  agg->first[i] = first;
}

/*
 * Per agent i, in two passes over the block of cells around it:
 *   1. every candidate j is written to the free tail of the list as (j, d, d . d), and the
 *      write position advances only when d . d <= r^2 (false for a NaN position). No branch
 *      depends on the data, and the positions are read in sequence from the grid's sorted copy.
 *   2. the survivors (about a quarter of the candidates of a 3 x 3 block) are filtered: j != i,
 *      the species bit of j in `sees`, j active, then the view cone with |d| = sqrt(d . d).
 *      A seen j is compacted into place (the write index never passes the read index) as
 *      (j, d, |d|), and adds to the sums: n, sum d, sum v_j, and sum (-d) when |d| is below
 *      the separation radius (Parker rule 2).
 * Then centre = p_i + (sum d) / n (on a torus the mean offset, not the mean position, is what
 * makes sense across the seam) and mean velocity = (sum v) / n. Nearest: smallest |d|, ties
 * to the lower index (the visiting order is by cell, not by index). Sums run in visiting
 * order, which depends only on the positions, so they are the same on any thread count.
 */
void fbPerceive(const fbPerceptionInput *in, int begin, int end, fbAggregates *agg, fbNeighbourList *list)
{
  FB_ASSERT(begin >= 0 && end <= in->count && agg->capacity >= in->count);
  const fbGrid *g = in->grid;
  FB_ASSERT(g->count == in->count);
  const double *px = in->px, *py = in->py, *vx = in->vx, *vy = in->vy;
  const uint8_t *species = in->species, *active = in->active;
  const int *start = g->cell_start, *sorted = g->sorted;
  const double *sx = g->sorted_x, *sy = g->sorted_y;
  const int nx = g->nx;
  const bool wrap = g->wrap;
  const double W = g->world_w, H = g->world_h, hw = 0.5 * W, hh = 0.5 * H;

  list->len = 0;
  list_reserve(list, 1);  // the arrays exist even when nobody is perceived
  int len = 0;
  int *l_index = list->index;
  double *l_dx = list->dx, *l_dy = list->dy, *l_dist = list->dist;

  for (int i = begin; i < end; ++i) {
    const double xi = px[i], yi = py[i];
    const fbVision *vis = &in->vision[species[i]];
    const double r = vis->radius;
    if ((active != NULL && !active[i]) || !(r > 0.0) || vis->sees == 0) {
      perceive_nothing(agg, i, xi, yi, len);
      continue;
    }
    const double r2 = r * r, cosv = vis->cos_half_fov, sep = vis->separation_radius;
    const bool all_round = cosv <= -1.0;
    const double hx = in->hx[i], hy = in->hy[i];
    const uint32_t sees = vis->sees;

    int best_j = -1;
    double sdx = 0.0, sdy = 0.0, svx = 0.0, svy = 0.0, sepx = 0.0, sepy = 0.0, best = INFINITY;
    const int first = len;

    // Pass 1: room for every candidate, then (j, d, d . d) kept only within the radius.
    Block b = block_around(g, xi, yi, r);
    int total = 0;
    for (int ri = 0; ri < b.rows.n; ++ri) {
      for (int row = b.rows.lo[ri]; row <= b.rows.hi[ri]; ++row) {
        for (int ci = 0; ci < b.cols.n; ++ci) {
          total += start[row * nx + b.cols.hi[ci] + 1] - start[row * nx + b.cols.lo[ci]];
        }
      }
    }
    if (len + total > list->capacity) {
      list_reserve(list, len + total);
      l_index = list->index;
      l_dx = list->dx;
      l_dy = list->dy;
      l_dist = list->dist;
    }
    int m = len;
    for (int ri = 0; ri < b.rows.n; ++ri) {
      for (int row = b.rows.lo[ri]; row <= b.rows.hi[ri]; ++row) {
        for (int ci = 0; ci < b.cols.n; ++ci) {
          const int s0 = start[row * nx + b.cols.lo[ci]], s1 = start[row * nx + b.cols.hi[ci] + 1];
          for (int s = s0; s < s1; ++s) {
            double dx = sx[s] - xi, dy = sy[s] - yi;
            if (wrap) {
              dx = min_image(dx, W, hw);
              dy = min_image(dy, H, hh);
            }
            const double d2 = dx * dx + dy * dy;
            l_index[m] = sorted[s];
            l_dx[m] = dx;
            l_dy[m] = dy;
            l_dist[m] = d2;
            m += d2 <= r2;  // false for NaN
          }
        }
      }
    }

    // Pass 2: filter and compact in place.
    for (int k = first; k < m; ++k) {
      const int j = l_index[k];
      const unsigned sp = species[j];
      if (j == i || sp >= 32u || !((sees >> sp) & 1u) || (active != NULL && !active[j])) {
        continue;
      }
      const double dx = l_dx[k], dy = l_dy[k], dist = sqrt(l_dist[k]);
      if (!all_round && !(dx * hx + dy * hy >= dist * cosv)) {
        continue;
      }
      l_index[len] = j;
      l_dx[len] = dx;
      l_dy[len] = dy;
      l_dist[len] = dist;
      ++len;
      sdx += dx;
      sdy += dy;
      svx += vx[j];
      svy += vy[j];
      if (dist < sep) {
        sepx -= dx;
        sepy -= dy;
      }
      if (dist < best || (dist == best && j < best_j)) {
        best = dist;
        best_j = j;
      }
    }
    const int n = len - first;

    if (n == 0) {
      perceive_nothing(agg, i, xi, yi, first);
      continue;
    }
    const double inv = 1.0 / n;
    agg->n[i] = n;
    agg->cx[i] = xi + sdx * inv;
    agg->cy[i] = yi + sdy * inv;
    agg->avx[i] = svx * inv;
    agg->avy[i] = svy * inv;
    agg->sx[i] = sepx;
    agg->sy[i] = sepy;
    agg->nearest[i] = best;
    agg->nearest_index[i] = best_j;
    agg->first[i] = first;
  }
  list->len = len;
}

// ---- queries --------------------------------------------------------------------------------

int fbGrid_Nearest(const fbPerceptionInput *in, fbVec2 p, double radius, uint32_t species_mask, int exclude,
                   double *distance)
{
  const fbGrid *g = in->grid;
  int best_j = -1;
  double best2 = INFINITY;
  if (radius >= 0.0 && g->count > 0) {
    const double r2 = radius * radius;
    const double W = g->world_w, H = g->world_h;
    Block b = block_around(g, p.x, p.y, radius);
    for (int ri = 0; ri < b.rows.n; ++ri) {
      for (int row = b.rows.lo[ri]; row <= b.rows.hi[ri]; ++row) {
        for (int ci = 0; ci < b.cols.n; ++ci) {
          const int s1 = g->cell_start[row * g->nx + b.cols.hi[ci] + 1];
          for (int s = g->cell_start[row * g->nx + b.cols.lo[ci]]; s < s1; ++s) {
            const int j = g->sorted[s];
            double dx = g->sorted_x[s] - p.x, dy = g->sorted_y[s] - p.y;
            if (g->wrap) {
              dx = min_image(dx, W, 0.5 * W);
              dy = min_image(dy, H, 0.5 * H);
            }
            const double d2 = dx * dx + dy * dy;
            if (!(d2 <= r2) || j == exclude || d2 > best2 || (d2 == best2 && j > best_j)) {
              continue;
            }
            const unsigned sp = in->species[j];
            if (sp >= 32u || !((species_mask >> sp) & 1u) || (in->active != NULL && !in->active[j])) {
              continue;
            }
            best2 = d2;
            best_j = j;
          }
        }
      }
    }
  }
  if (distance != NULL) {
    *distance = best_j >= 0 ? sqrt(best2) : INFINITY;
  }
  return best_j;
}

int fbGrid_ForEach(const fbPerceptionInput *in, fbVec2 p, double radius, uint32_t species_mask,
                   void (*visit)(int index, fbVec2 offset, double distance, void *user), void *user)
{
  const fbGrid *g = in->grid;
  if (!(radius >= 0.0) || g->count == 0) {
    return 0;
  }
  const double r2 = radius * radius;
  const double W = g->world_w, H = g->world_h;
  int found = 0;
  Block b = block_around(g, p.x, p.y, radius);
  for (int ri = 0; ri < b.rows.n; ++ri) {
    for (int row = b.rows.lo[ri]; row <= b.rows.hi[ri]; ++row) {
      for (int ci = 0; ci < b.cols.n; ++ci) {
        for (int c = b.cols.lo[ci]; c <= b.cols.hi[ci]; ++c) {
          const int cell = row * g->nx + c;
          for (int s = g->cell_start[cell]; s < g->cell_start[cell + 1]; ++s) {
            const int j = g->sorted[s];
            double dx = g->sorted_x[s] - p.x, dy = g->sorted_y[s] - p.y;
            if (g->wrap) {
              dx = min_image(dx, W, 0.5 * W);
              dy = min_image(dy, H, 0.5 * H);
            }
            const double d2 = dx * dx + dy * dy;
            if (!(d2 <= r2)) {
              continue;
            }
            const unsigned sp = in->species[j];
            if (sp >= 32u || !((species_mask >> sp) & 1u) || (in->active != NULL && !in->active[j])) {
              continue;
            }
            ++found;
            if (visit != NULL) {
              visit(j, fbV(dx, dy), sqrt(d2), user);
            }
          }
        }
      }
    }
  }
  return found;
}
