// nav_grid.c — the obstacles rasterised for one body radius, A* with the octile heuristic, line of sight and string pulling (see nav_grid.h).
#include "nav_grid.h"

#include <stdlib.h>
#include <string.h>

#include "memory.h"

#define SQRT2 1.4142135623730951

typedef struct fbNavOpen {
  double f, g;
  int32_t cell;
} fbNavOpen;

void fbNavGrid_Free(fbNavGrid *g)
{
  free(g->blocked);
  free(g->cost);
  free(g->from);
  free(g->stamp);
  free(g->open);
  free(g->cells);
  memset(g, 0, sizeof *g);
}

static fbVec2 centre_of(const fbNavGrid *g, int cell)
{
  return fbV(((cell % g->nx) + 0.5) * g->cell, ((cell / g->nx) + 0.5) * g->cell);
}

static int clamp_index(double u, int n)
{
  int i = (int)floor(u);
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/*
 * Rasterising: a cell is blocked when the disc of radius `clearance` about its centre meets an
 * obstacle, fbObstacles_Distance(centre) < clearance. Only the cells within an obstacle's bounding
 * radius plus the clearance are tested, so the cost is the obstacles' area in cells, not the grid
 * times the obstacles. With walls, cells whose centre lies within the clearance of an edge too.
 */
void fbNavGrid_Build(fbNavGrid *g, const fbObstacles *o, double width, double height, bool walls, double cell,
                     double clearance)
{
  fbNavGrid_Free(g);
  g->cell = cell;
  g->clearance = clearance;
  g->nx = (int)ceil(width / cell);
  g->ny = (int)ceil(height / cell);
  g->nx = g->nx < 1 ? 1 : g->nx;
  g->ny = g->ny < 1 ? 1 : g->ny;
  size_t n = (size_t)g->nx * (size_t)g->ny;
  g->blocked = calloc(n, 1);
  g->cost = fbMemory_Grow(NULL, sizeof *g->cost, n);
  g->from = fbMemory_Grow(NULL, sizeof *g->from, n);
  g->stamp = calloc(n, sizeof *g->stamp);
  g->cells = fbMemory_Grow(NULL, sizeof *g->cells, n);
  FB_ASSERT(g->blocked != NULL && g->stamp != NULL);
  for (int k = 0; k < o->count; ++k) {
    const fbObstacle *ob = &o->items[k];
    double reach = ob->radius + clearance;
    int i0 = clamp_index((ob->centre.x - reach) / cell, g->nx), i1 = clamp_index((ob->centre.x + reach) / cell, g->nx);
    int j0 = clamp_index((ob->centre.y - reach) / cell, g->ny), j1 = clamp_index((ob->centre.y + reach) / cell, g->ny);
    for (int j = j0; j <= j1; ++j) {
      for (int i = i0; i <= i1; ++i) {
        uint8_t *b = &g->blocked[j * g->nx + i];
        *b = *b || fbObstacles_Distance(o, k, centre_of(g, j * g->nx + i), NULL, NULL) < clearance;
      }
    }
  }
  for (int c = 0; walls && c < (int)n; ++c) {
    fbVec2 p = centre_of(g, c);
    g->blocked[c] |= p.x < clearance || p.y < clearance || p.x > width - clearance || p.y > height - clearance;
  }
}

bool fbNavGrid_IsFree(const fbNavGrid *g, int i, int j)
{
  return i >= 0 && j >= 0 && i < g->nx && j < g->ny && !g->blocked[j * g->nx + i];
}

int fbNavGrid_CellOf(const fbNavGrid *g, fbVec2 p)
{
  return clamp_index(p.y / g->cell, g->ny) * g->nx + clamp_index(p.x / g->cell, g->nx);
}

int fbNavGrid_NearestFree(const fbNavGrid *g, int cell, int rings)
{
  int ci = cell % g->nx, cj = cell / g->nx;
  for (int r = 0; r <= rings; ++r) {
    int best = -1, best_d = 0;
    for (int j = cj - r; j <= cj + r; ++j) {
      for (int i = ci - r; i <= ci + r; ++i) {
        bool ring = abs(i - ci) == r || abs(j - cj) == r;
        int d = (i - ci) * (i - ci) + (j - cj) * (j - cj);
        if (ring && fbNavGrid_IsFree(g, i, j) && (best < 0 || d < best_d)) {  // ties: the first, lowest index
          best = j * g->nx + i;
          best_d = d;
        }
      }
    }
    if (best >= 0) {
      return best;
    }
  }
  return -1;
}

/*
 * Line of sight: the segment is walked cell by cell (Amanatides & Woo 1987, "A fast voxel traversal
 * algorithm"), in grid units u = p / h: t_max is how far along the segment (0..1) the next vertical
 * and horizontal cell border lie, t_delta the step between borders. Every cell it enters must be
 * free; where it passes exactly through a corner, both cells beside the corner must be free too, so
 * that no sight line slips diagonally between two blocked cells.
 */
bool fbNavGrid_LineOfSight(const fbNavGrid *g, fbVec2 a, fbVec2 b)
{
  double ax = a.x / g->cell, ay = a.y / g->cell, bx = b.x / g->cell, by = b.y / g->cell;
  int i = clamp_index(ax, g->nx), j = clamp_index(ay, g->ny);
  int ie = clamp_index(bx, g->nx), je = clamp_index(by, g->ny);
  int si = ie > i ? 1 : -1, sj = je > j ? 1 : -1;
  double dx = fabs(bx - ax), dy = fabs(by - ay);
  double tdx = dx > 0.0 ? 1.0 / dx : INFINITY, tdy = dy > 0.0 ? 1.0 / dy : INFINITY;
  double tmx = dx > 0.0 ? (si > 0 ? i + 1 - ax : ax - i) * tdx : INFINITY;
  double tmy = dy > 0.0 ? (sj > 0 ? j + 1 - ay : ay - j) * tdy : INFINITY;
  if (!fbNavGrid_IsFree(g, i, j)) {
    return false;
  }
  for (int left = abs(ie - i) + abs(je - j); left > 0 && (i != ie || j != je); --left) {
    if (i != ie && j != je && fabs(tmx - tmy) < 1e-12) {  // through a corner
      if (!fbNavGrid_IsFree(g, i + si, j) || !fbNavGrid_IsFree(g, i, j + sj)) {
        return false;
      }
      i += si;
      j += sj;
      tmx += tdx;
      tmy += tdy;
      --left;
    } else if ((tmx < tmy && i != ie) || j == je) {
      i += si;
      tmx += tdx;
    } else {
      j += sj;
      tmy += tdy;
    }
    if (!fbNavGrid_IsFree(g, i, j)) {
      return false;
    }
  }
  return true;
}

// ---- A* -------------------------------------------------------------------------------------------

// The open set's order: lowest f first; equal f, the deeper (higher g) first, which reaches the goal
// with fewer expansions; then the lower cell index. A total order, so the search, and the path, are
// the same whatever the heap's history.
static bool before(const fbNavOpen *a, const fbNavOpen *b)
{
  if (a->f != b->f) {
    return a->f < b->f;
  }
  if (a->g != b->g) {
    return a->g > b->g;
  }
  return a->cell < b->cell;
}

static void push(fbNavGrid *g, fbNavOpen item)
{
  if (g->open_count == g->open_capacity) {
    g->open_capacity = g->open_capacity ? 2 * g->open_capacity : 256;
    g->open = fbMemory_Grow(g->open, sizeof *g->open, (size_t)g->open_capacity);
  }
  int k = g->open_count++;
  while (k > 0 && before(&item, &g->open[(k - 1) / 2])) {
    g->open[k] = g->open[(k - 1) / 2];
    k = (k - 1) / 2;
  }
  g->open[k] = item;
}

static fbNavOpen pop(fbNavGrid *g)
{
  fbNavOpen top = g->open[0], last = g->open[--g->open_count];
  int k = 0;
  for (;;) {
    int c = 2 * k + 1;
    if (c >= g->open_count) {
      break;
    }
    if (c + 1 < g->open_count && before(&g->open[c + 1], &g->open[c])) {
      ++c;
    }
    if (!before(&g->open[c], &last)) {
      break;
    }
    g->open[k] = g->open[c];
    k = c;
  }
  g->open[k] = last;
  return top;
}

/*
 * A* (Hart, Nilsson & Raphael 1968) on the 8-neighbour grid: straight steps cost h, diagonal ones
 * h sqrt 2, and a diagonal step is allowed only when both cells beside it are free (no corner is
 * cut). The heuristic is the octile distance, the length of the shortest 8-neighbour path with no
 * obstacles, h (max(di, dj) + (sqrt 2 - 1) min(di, dj)): never more than the true cost
 * (admissible) and consistent, so the first time the goal leaves the open set its path is a
 * shortest one, and a cell once taken out is final (stale copies, with a higher g, are skipped).
 */
static double octile(const fbNavGrid *g, int cell, int goal)
{
  int di = abs(cell % g->nx - goal % g->nx), dj = abs(cell / g->nx - goal / g->nx);
  int lo = di < dj ? di : dj, hi = di < dj ? dj : di;
  return g->cell * (hi + (SQRT2 - 1.0) * lo);
}

static bool search(fbNavGrid *g, int start, int goal)
{
  static const int DI[8] = {1, -1, 0, 0, 1, 1, -1, -1}, DJ[8] = {0, 0, 1, -1, 1, -1, 1, -1};
  if (++g->search == 0) {  // the stamps wrapped: clear them once in 2^32 searches
    memset(g->stamp, 0, sizeof *g->stamp * (size_t)g->nx * (size_t)g->ny);
    g->search = 1;
  }
  g->open_count = 0;
  g->expanded = 0;
  g->cost[start] = 0.0;
  g->from[start] = -1;
  g->stamp[start] = g->search;
  push(g, (fbNavOpen){octile(g, start, goal), 0.0, start});
  while (g->open_count > 0) {
    fbNavOpen n = pop(g);
    if (n.g > g->cost[n.cell]) {
      continue;  // a stale copy: the cell was reached more cheaply since
    }
    if (n.cell == goal) {
      return true;
    }
    ++g->expanded;
    int i = n.cell % g->nx, j = n.cell / g->nx;
    for (int d = 0; d < 8; ++d) {
      int ni = i + DI[d], nj = j + DJ[d];
      bool diagonal = d >= 4;
      if (!fbNavGrid_IsFree(g, ni, nj) ||
          (diagonal && (!fbNavGrid_IsFree(g, ni, j) || !fbNavGrid_IsFree(g, i, nj)))) {
        continue;
      }
      int next = nj * g->nx + ni;
      double cost = n.g + (diagonal ? SQRT2 : 1.0) * g->cell;
      if (g->stamp[next] != g->search || cost < g->cost[next]) {
        g->stamp[next] = g->search;
        g->cost[next] = cost;
        g->from[next] = n.cell;
        push(g, (fbNavOpen){cost + octile(g, next, goal), cost, next});
      }
    }
  }
  return false;
}

/*
 * String pulling: the cell path is a staircase; the taut path keeps only its corners. From an
 * anchor (the start cell's centre), walk along the cells while the anchor sees the next one
 * (fbNavGrid_LineOfSight); where it stops seeing one, the cell before becomes a waypoint and the
 * new anchor. Greedy, so not always the shortest path in the plane, but no longer than the cell
 * path and with a waypoint only where the way bends round an obstacle.
 */
static int pull_taut(const fbNavGrid *g, fbVec2 to, bool exact_goal, fbVec2 *out, int max)
{
  int n = 0;
  fbVec2 anchor = centre_of(g, g->cells[0]);
  for (int k = 1; k < g->cell_count && n < max - 1; ++k) {
    if (!fbNavGrid_LineOfSight(g, anchor, centre_of(g, g->cells[k]))) {
      anchor = centre_of(g, g->cells[k - 1]);
      out[n++] = anchor;
    }
  }
  fbVec2 last = centre_of(g, g->cells[g->cell_count - 1]);
  if (exact_goal && n < max - 1 && !fbNavGrid_LineOfSight(g, anchor, to)) {
    out[n++] = last;  // the goal lies in the last cell but out of the anchor's sight: by its centre
  }
  out[n++] = exact_goal ? to : last;
  return n;
}

int fbNavGrid_FindPath(fbNavGrid *g, fbVec2 from, fbVec2 to, fbVec2 *out, int max)
{
  int rings = FB_NAV_RINGS;
  int start = fbNavGrid_NearestFree(g, fbNavGrid_CellOf(g, from), rings);
  int goal_cell = fbNavGrid_CellOf(g, to);
  int goal = fbNavGrid_NearestFree(g, goal_cell, rings);
  if (start < 0 || goal < 0 || max < 2 || !search(g, start, goal)) {
    return 0;
  }
  int count = 0;
  for (int c = goal; c >= 0; c = g->from[c]) {
    g->cells[count++] = c;
  }
  for (int k = 0; k < count / 2; ++k) {  // from the start to the goal
    int32_t t = g->cells[k];
    g->cells[k] = g->cells[count - 1 - k];
    g->cells[count - 1 - k] = t;
  }
  g->cell_count = count;
  return pull_taut(g, to, goal == goal_cell, out, max);
}
