// route_field.c — fast marching from the goals over a grid of costs, then the descent of the distance as velocities (see route_field.h).
#include "route_field.h"

bool fbRoute_Init(fbRoute *r, int cols, int rows, double width, double height, bool wrap, double speed, char *err,
                  size_t errlen)
{
  memset(r, 0, sizeof *r);
  if (cols < 1 || rows < 1 || (double)cols * rows > FB_ROUTE_MAX_CELLS) {
    return fbFail(err, errlen, "a %dx%d grid: a route has 1 to %d cells", cols, rows, FB_ROUTE_MAX_CELLS);
  }
  if (!(isfinite(width) && isfinite(height) && width > 0 && height > 0 && isfinite(speed) && speed >= 0)) {
    return fbFail(err, errlen, "the area %gx%g must be finite and positive, the speed %g finite and >= 0", width,
                  height, speed);
  }
  size_t n = (size_t)cols * (size_t)rows;
  *r = (fbRoute){.cols = cols, .rows = rows, .width = width, .height = height, .hx = width / cols,
                 .hy = height / rows, .wrap = wrap, .speed = speed};
  r->cost = malloc(sizeof *r->cost * n);
  r->distance = calloc(n, sizeof *r->distance);
  r->blocked = calloc(n, 1);
  r->goal = calloc(n, 1);
  r->reach = calloc(n, 1);
  r->heap = malloc(sizeof *r->heap * n);
  r->slot = malloc(sizeof *r->slot * n);
  r->source = malloc(sizeof *r->source * n);
  FB_ASSERT(r->cost && r->distance && r->blocked && r->goal && r->reach && r->heap && r->slot && r->source);
  for (size_t k = 0; k < n; ++k) {
    r->cost[k] = 1.0;
  }
  return true;
}

void fbRoute_Free(fbRoute *r)
{
  free(r->cost);
  free(r->distance);
  free(r->blocked);
  free(r->goal);
  free(r->reach);
  free(r->heap);
  free(r->slot);
  free(r->source);
  memset(r, 0, sizeof *r);
}

int fbRoute_CellAt(const fbRoute *r, double x, double y)
{
  double u = floor(x / r->hx), v = floor(y / r->hy);
  int i = !(u > 0) ? 0 : (u >= r->cols ? r->cols - 1 : (int)u);  // NaN reads as 0
  int j = !(v > 0) ? 0 : (v >= r->rows ? r->rows - 1 : (int)v);
  return j * r->cols + i;
}

void fbRoute_SetGoals(fbRoute *r, const fbVec2 *points, int n)
{
  r->point_count = n < FB_ROUTE_MAX_GOALS ? n : FB_ROUTE_MAX_GOALS;
  memcpy(r->points, points, sizeof *points * (size_t)r->point_count);
}

void fbRoute_MoveGoal(fbRoute *r, fbVec2 p)
{
  memset(r->goal, 0, (size_t)r->cols * (size_t)r->rows);
  fbRoute_SetGoals(r, &p, 1);
}

// The four neighbours the march and its update read: west, east (the x axis), north, south (y).
static const int SIDE_DI[4] = {-1, 1, 0, 0}, SIDE_DJ[4] = {0, 0, -1, 1};

// The cell one step (di, dj) from cell k, across the edge on a torus; -1 beyond the grid.
static int neighbour(const fbRoute *r, int k, int di, int dj)
{
  int i = k % r->cols + di, j = k / r->cols + dj;
  if (r->wrap) {
    i = (i + r->cols) % r->cols;
    j = (j + r->rows) % r->rows;
  }
  return i < 0 || j < 0 || i >= r->cols || j >= r->rows ? -1 : j * r->cols + i;
}

// ---- the narrow band: a binary heap of cells keyed by their tentative distance ----------------------

typedef struct Band {
  fbRoute *r;
  int count;
} Band;

static bool lower(const Band *b, int x, int y) { return b->r->distance[b->r->heap[x]] < b->r->distance[b->r->heap[y]]; }

static void swap_places(Band *b, int x, int y)
{
  int *h = b->r->heap;
  int t = h[x];
  h[x] = h[y];
  h[y] = t;
  b->r->slot[h[x]] = x;
  b->r->slot[h[y]] = y;
}

static void sift_up(Band *b, int x)
{
  while (x > 0 && lower(b, x, (x - 1) / 2)) {
    swap_places(b, x, (x - 1) / 2);
    x = (x - 1) / 2;
  }
}

static void sift_down(Band *b, int x)
{
  for (;;) {
    int least = x, c1 = 2 * x + 1, c2 = c1 + 1;
    least = c1 < b->count && lower(b, c1, least) ? c1 : least;
    least = c2 < b->count && lower(b, c2, least) ? c2 : least;
    if (least == x) {
      return;
    }
    swap_places(b, x, least);
    x = least;
  }
}

// Cell k enters the band at distance t, or moves up in it if t is lower than what it holds.
#define FAR (-1)
#define ACCEPTED (-2)
static void offer(Band *b, int k, double t)
{
  fbRoute *r = b->r;
  if (r->slot[k] == FAR) {
    r->distance[k] = t;
    r->heap[b->count] = k;
    r->slot[k] = b->count++;
    sift_up(b, r->slot[k]);
  } else if (r->slot[k] >= 0 && t < r->distance[k]) {
    r->distance[k] = t;
    sift_up(b, r->slot[k]);
  }
}

static int take_least(Band *b)
{
  int k = b->r->heap[0];
  swap_places(b, 0, --b->count);
  sift_down(b, 0);
  b->r->slot[k] = ACCEPTED;
  return k;
}

// ---- the march ----------------------------------------------------------------------------------

/*
 * Fast marching (Sethian 1996, "A fast marching level set method for monotonically advancing
 * fronts", PNAS 93; the first-order upwind scheme of his eq. 3). T(x) is the least cost of a path
 * from x to a goal, the cost of a path being the integral of the cell's cost f along it; T solves
 * the eikonal equation |grad T| = f with T = 0 on the goals. At cell (i, j), with a and b the
 * smaller accepted neighbour's T along x and along y and hx, hy the cell sizes, the upwind update
 * is the larger root of
 *
 *   ((T - a) / hx)^2 + ((T - b) / hy)^2 = f^2,   valid if T >= max(a, b);
 *
 * otherwise (or with only one axis known) T = min(a + f hx, b + f hy). Cells are accepted in order
 * of T from a binary heap (Dijkstra's order), each once: O(N log N).
 *
 * Why not Dijkstra on the 8 neighbours (what scripts/flow_maze.lua did): its paths are chains of
 * grid moves, so its distance is the 8-connected metric, up to 8% long off the grid's 8 directions
 * however fine the grid, and its descent snaps to those directions. The eikonal update lets a
 * front cross a cell at any angle: the error is O(h) and shrinks with the cell, and the paths it
 * gives (the descent of T) are straight in open ground.
 *
 * Two passes. The first marches through free cells only: the route. The second carries T on into
 * the blocked cells (a wall's clearance, the inside of obstacles), starting from the free cells
 * already accepted and never back into free space, so the free cells' T is untouched. Its cost
 * per unit length is the highest free T over the smaller cell side, plus one: one blocked cell
 * then costs more than any difference of T between free cells, so a blocked cell's T grows
 * with its depth first and the descent there leads out of the wall the nearest way, never
 * through it toward lower T beyond (a wall between two arms of a maze).
 */

static double update(const fbRoute *r, int k, double f)
{
  double axis[2] = {INFINITY, INFINITY};
  for (int d = 0; d < 4; ++d) {
    int n = neighbour(r, k, SIDE_DI[d], SIDE_DJ[d]);
    if (n >= 0 && r->slot[n] == ACCEPTED) {
      axis[d / 2] = fmin(axis[d / 2], r->distance[n]);
    }
  }
  double a = axis[0], b = axis[1], hx = r->hx, hy = r->hy;
  double one = fmin(a + f * hx, b + f * hy);
  if (!isfinite(a) || !isfinite(b)) {
    return one;
  }
  double p = 1 / (hx * hx), q = 1 / (hy * hy);  // (p + q) T^2 - 2 (p a + q b) T + p a^2 + q b^2 - f^2 = 0
  double half_b = p * a + q * b, disc = half_b * half_b - (p + q) * (p * a * a + q * b * b - f * f);
  double t = disc >= 0 ? (half_b + sqrt(disc)) / (p + q) : INFINITY;
  return t >= fmax(a, b) && t < one ? t : one;
}

// The free cell an escape cell's T came from: that of its lowest accepted neighbour (accepted
// before it, as every neighbour of lower T is).
static int nearest_free(const fbRoute *r, int k)
{
  int best = -1;
  for (int d = 0; d < 4; ++d) {
    int n = neighbour(r, k, SIDE_DI[d], SIDE_DJ[d]);
    if (n >= 0 && r->slot[n] == ACCEPTED && r->reach[n] != FB_ROUTE_UNREACHED &&
        (best < 0 || r->distance[n] < r->distance[best])) {
      best = n;
    }
  }
  return best < 0 ? k : r->source[best];
}

// Accepts cells from the band in order of T, offering their neighbours of this pass.
static void march(Band *b, unsigned char pass, double escape_cost)
{
  fbRoute *r = b->r;
  while (b->count > 0) {
    int k = take_least(b);
    r->reach[k] = pass;
    r->source[k] = pass == FB_ROUTE_FREE ? k : nearest_free(r, k);
    for (int d = 0; d < 4; ++d) {
      int n = neighbour(r, k, SIDE_DI[d], SIDE_DJ[d]);
      bool ours = n >= 0 && r->slot[n] != ACCEPTED && (r->blocked[n] != 0) == (pass == FB_ROUTE_ESCAPE);
      if (ours) {
        offer(b, n, update(r, n, pass == FB_ROUTE_FREE ? r->cost[n] : escape_cost));
      }
    }
  }
}

/*
 * A point goal is a source the first-order update resolves worst: the front starts as a square
 * and its error near the source, O(h log(1/h)) along the diagonals, is carried outward. The cells
 * within SEED cells of the point are given their straight-line cost, f |x - goal| (exact where
 * the cost is even and nothing stands between), the usual start of a fast march from a point.
 * Only free cells round a free goal cell are seeded; a blocked band narrower than SEED cells
 * between the goal and a cell would be jumped (a wall of any thickness with a clearance of a
 * cell or more is not that narrow).
 */
#define SEED 2

static void seed_goals(Band *b)
{
  fbRoute *r = b->r;
  for (int k = 0; k < r->cols * r->rows; ++k) {
    if (r->goal[k]) {
      offer(b, k, 0.0);
    }
  }
  for (int g = 0; g < r->point_count; ++g) {
    int k = fbRoute_CellAt(r, r->points[g].x, r->points[g].y);
    for (int dj = -SEED; dj <= SEED; ++dj) {
      for (int di = -SEED; di <= SEED; ++di) {
        int n = neighbour(r, k, di, dj);
        if (n == k || (n >= 0 && !r->blocked[n] && !r->blocked[k])) {
          fbVec2 centre = fbV((n % r->cols + 0.5) * r->hx, (n / r->cols + 0.5) * r->hy);
          offer(b, n, r->cost[n] * fbV_Length(fbV_Sub(r->points[g], centre)));
        }
      }
    }
    r->goal[k] |= 2;  // marked for the velocity (0 on a goal), cleared when the solve ends
  }
}

static void seed_escape(Band *b, double escape_cost)
{
  fbRoute *r = b->r;
  for (int k = 0; k < r->cols * r->rows; ++k) {
    for (int d = 0; r->reach[k] == FB_ROUTE_FREE && d < 4; ++d) {
      int n = neighbour(r, k, SIDE_DI[d], SIDE_DJ[d]);
      if (n >= 0 && r->blocked[n] && r->slot[n] == FAR) {
        offer(b, n, update(r, n, escape_cost));
      }
    }
  }
}

// ---- the velocity: the descent of T -------------------------------------------------------------

// Whether cell n's T may enter cell k's gradient: reached, and free unless k itself is blocked
// (a free cell's descent never reads a wall's escape values).
static bool usable(const fbRoute *r, int k, int n)
{
  return n >= 0 && r->reach[n] != FB_ROUTE_UNREACHED && (r->reach[k] == FB_ROUTE_ESCAPE || r->reach[n] == FB_ROUTE_FREE);
}

// dT along one axis at k: central where both neighbours are usable, one-sided where one is.
static double derivative(const fbRoute *r, int k, int di, int dj, double h)
{
  int lo = neighbour(r, k, -di, -dj), hi = neighbour(r, k, di, dj);
  bool has_lo = usable(r, k, lo), has_hi = usable(r, k, hi);
  if (has_lo && has_hi) {
    return (r->distance[hi] - r->distance[lo]) / (2 * h);
  }
  if (has_hi) {
    return (r->distance[hi] - r->distance[k]) / h;
  }
  return has_lo ? (r->distance[k] - r->distance[lo]) / h : 0.0;
}

// Where the central gradient vanishes (a ridge of T, behind an obstacle where two ways round meet),
// the direction to the lowest usable of the 8 neighbours: no agent waits on a ridge.
static fbVec2 toward_lowest(const fbRoute *r, int k)
{
  fbVec2 best = fbV(0, 0);
  double least = r->distance[k];
  for (int dj = -1; dj <= 1; ++dj) {
    for (int di = -1; di <= 1; ++di) {
      int n = neighbour(r, k, di, dj);
      if ((di != 0 || dj != 0) && usable(r, k, n) && r->distance[n] < least) {
        least = r->distance[n];
        best = fbV(di * r->hx, dj * r->hy);
      }
    }
  }
  return best;
}

static void velocity(const fbRoute *r, int k, double *vx, double *vy)
{
  *vx = *vy = 0.0;
  if (r->reach[k] == FB_ROUTE_UNREACHED || r->goal[k] || r->distance[k] <= 0.0) {
    return;  // unreached, or on a goal (T = 0): still
  }
  fbVec2 down = fbV(-derivative(r, k, 1, 0, r->hx), -derivative(r, k, 0, 1, r->hy));
  double len = fbV_Length(down);
  if (!(len > 1e-9 * r->distance[k] / fmax(r->hx, r->hy))) {
    down = toward_lowest(r, k);
    len = fbV_Length(down);
  }
  if (len > 0.0) {
    *vx = r->speed * down.x / len;
    *vy = r->speed * down.y / len;
  }
}

/*
 * In a wall's clearance the descent of T leads out the nearest way, across the wall's edge; an
 * agent there that only turned outward would lose its speed along the wall (the field read
 * bilinearly blends the free cells' velocity with this one). So an escape cell's velocity is the
 * sum of that outward unit and the unit velocity of the free cell its T came from, at the
 * field's speed: out of the wall and on along the route, never into the wall (the outward part
 * is never outweighed: the two units add to a vector whose outward part is positive unless they
 * are opposite, and then the outward unit alone is used).
 */
static void escape_velocity(const fbRoute *r, int k, double *vx, double *vy)
{
  int s = r->source[k];
  double sx = vx[k] + (s != k ? vx[s] : 0.0), sy = vy[k] + (s != k ? vy[s] : 0.0);
  double len = sqrt(sx * sx + sy * sy);
  if (len > 1e-9 * r->speed) {
    vx[k] = r->speed * sx / len;
    vy[k] = r->speed * sy / len;
  }
}

int fbRoute_Solve(fbRoute *r, double *vx, double *vy)
{
  int n = r->cols * r->rows, free_reached = 0;
  for (int k = 0; k < n; ++k) {
    r->slot[k] = FAR;
    r->reach[k] = FB_ROUTE_UNREACHED;
    r->distance[k] = 0.0;
  }
  Band b = {r, 0};
  seed_goals(&b);
  march(&b, FB_ROUTE_FREE, 0.0);
  double top = 0.0;
  for (int k = 0; k < n; ++k) {
    top = r->reach[k] == FB_ROUTE_FREE ? fmax(top, r->distance[k]) : top;
  }
  double escape_cost = top / fmin(r->hx, r->hy) + 1.0;
  seed_escape(&b, escape_cost);
  march(&b, FB_ROUTE_ESCAPE, escape_cost);
  for (int k = 0; k < n; ++k) {
    free_reached += r->reach[k] == FB_ROUTE_FREE;
    velocity(r, k, &vx[k], &vy[k]);
  }
  for (int k = 0; k < n; ++k) {
    if (r->reach[k] == FB_ROUTE_ESCAPE) {
      escape_velocity(r, k, vx, vy);
    }
    r->distance[k] = r->reach[k] == FB_ROUTE_UNREACHED ? 0.0 : r->distance[k];
    r->goal[k] &= 1;
  }
  return free_reached;
}

// Bilinear as fbFlowField_Sample (flow_field.c), over the corners reached through free space, or
// where none is over those reached as escapes, the weights renormalised: an unreached cell holds no
// distance to blend, and a wall's escape values (far above any free T) would swamp the route's.
double fbRoute_Distance(const fbRoute *r, double x, double y)
{
  double u = fmin(fmax(x / r->hx - 0.5, 0.0), r->cols - 1), v = fmin(fmax(y / r->hy - 0.5, 0.0), r->rows - 1);
  u = isnan(u) ? 0.0 : u;
  v = isnan(v) ? 0.0 : v;
  int i = r->cols < 2 ? 0 : (int)fmin(floor(u), r->cols - 2), j = r->rows < 2 ? 0 : (int)fmin(floor(v), r->rows - 2);
  double fx = r->cols < 2 ? 0.0 : u - i, fy = r->rows < 2 ? 0.0 : v - j;
  for (int pass = FB_ROUTE_FREE; pass <= FB_ROUTE_ESCAPE; ++pass) {
    double sum = 0.0, weights = 0.0;
    for (int c = 0; c < 4; ++c) {
      int ci = r->cols < 2 ? i : i + (c & 1), cj = r->rows < 2 ? j : j + (c >> 1);
      int k = cj * r->cols + ci;
      double w = ((c & 1) ? fx : 1 - fx) * ((c >> 1) ? fy : 1 - fy);
      if (r->reach[k] == pass) {
        sum += w * r->distance[k];
        weights += w;
      }
    }
    if (weights > 0.0) {
      return sum / weights;
    }
  }
  return -1.0;
}
