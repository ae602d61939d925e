// bodies.c — animals as solid discs: overlapping pairs pushed apart after integration, Jacobi style (see bodies.h).
#include "bodies.h"

#include <string.h>

#include "fb_math.h"
#include "memory.h"
#include "rng.h"

/*
 * Collision handling between animals (Gompert 8.1: "a simple but crude solution is just to force
 * the objects to move so they are not overlapping ... At this time any changes in velocity,
 * energy, etc. that result from the collision should be made").
 *
 * Position. Bodies i, j of radii r_i, r_j at centres q_i, q_j overlap when
 * d = |q_i - q_j| < r_i + r_j. With n = (q_i - q_j) / d, the unit vector from j to i, and equal
 * masses, each moves half the overlap o = r_i + r_j - d along the line of centres:
 *     q_i += (o / 2) n,   q_j -= (o / 2) n,
 * after which a lone pair is exactly r_i + r_j apart. Against the walls of a walled world a body
 * that cannot move further out holds like an infinite mass, and the other takes the whole push
 * along that axis (share() below). A body held still by its rules (a:hold(): Parker's perched
 * bird) holds the same way along both axes: it is not moved, and the body touching it takes the
 * whole push o n. Coincident centres (d = 0) have no line between them: n is then
 * a direction hashed from the pair's ids and the run's seed, the same whichever of the two asks,
 * pointing one way for the lower id and the other way for the higher.
 *
 * Velocity (Gompert's "changes in velocity that result from the collision"). The push undid part
 * of the step's motion into the other body; the same part leaves the velocity, otherwise the body
 * would drive into its neighbour again every step (drawn to a point, a crowd then squeezes to half
 * a body length apart). With p the body's total push and u = v . p / |p| its speed along it,
 *     if u < 0:  v += min(|p| / dt, -u) p / |p|,
 * i.e. the motion against the push is cut by at most the push per unit time and never reversed: a
 * push never launches a body (two spawned on top of each other come apart without flying off),
 * and motion across the line of centres is kept (two birds that touch wing to wing fly on). Two
 * bodies meeting head on stop closing; one that runs into another's back is slowed by its push.
 * No energy is charged: the push is the solver's correction, not a walk.
 *
 * Jacobi, not Gauss-Seidel: every body sums the pushes of all its overlaps read from the pass's
 * snapshot, in the grid's visiting order (cell, then id), and writes the result apart, so nothing
 * depends on the order agents are stored in or on how they are split among threads. The two
 * halves of a pair are exact negatives (q_i - q_j changes sign exactly when i and j swap). A body
 * with several overlaps moves by their sum, which may overshoot or fall short where overlaps
 * chain: a push reaches one body further into a crowd per pass, and further passes
 * (world.collision_iterations) and the next steps settle it. Each moved body is then tested
 * against the obstacles along its push (the swept test integration uses) and kept in the world's
 * bounds.
 *
 * Which grid. The step's grid was built on the positions before integration, and since then no
 * body has moved farther than D (the longest move integration made, grown by each pass's largest
 * push). If i and j overlap now, |q_i - q_j| < r_i + r_j, then j's position in the grid is within
 * r_i + r_j + D <= r_i + r_max + D of q_i (triangle inequality, which holds for the shortest
 * offsets on a torus too). Searching the grid's cells that the square of that half-side round q_i
 * overlaps thus finds every overlap. The half-side, a body length plus one step's travel, is
 * usually well under the cells' width (half a vision radius): one to four cells, as a grid rebuilt
 * on the new positions would give, which would cost a second sort and a reorder of every agent
 * array per step.
 */

#define FB_BODIES_STREAM 0x626f646965730001ULL  // "bodies": the direction for coincident centres
#define FB_TINY 1e-12

void fbBodies_Free(fbBodies *b)
{
  free(b->px);
  free(b->py);
  free(b->vx);
  free(b->vy);
  free(b->moved);
  memset(b, 0, sizeof *b);
}

static void reserve(fbBodies *b, int count)
{
  if (b->capacity >= count) {
    return;
  }
  size_t n = (size_t)count;
  b->px = fbMemory_Grow(b->px, sizeof *b->px, n);
  b->py = fbMemory_Grow(b->py, sizeof *b->py, n);
  b->vx = fbMemory_Grow(b->vx, sizeof *b->vx, n);
  b->vy = fbMemory_Grow(b->vy, sizeof *b->vy, n);
  b->moved = fbMemory_Grow(b->moved, sizeof *b->moved, n);
  b->capacity = count;
}

uint32_t fbBodies_Solid(const fbWorld *w)
{
  uint32_t solid = 0;
  for (int s = 0; s < w->species_count; ++s) {
    solid |= w->species[s].collide ? 1u << s : 0u;
  }
  return solid;
}

void fbBodies_Begin(fbBodies *b, fbWorld *w, const fbGrid *g, uint32_t solid, double reach)
{
  FB_ASSERT(g->count == w->agents.count);
  reserve(b, w->agents.count);
  b->world = w;
  b->grid = g;
  b->solid = solid;
  b->r_max = 0.0;
  for (int s = 0; s < w->species_count; ++s) {
    if ((solid >> s) & 1u) {
      b->r_max = fmax(b->r_max, w->species[s].limits.body_radius);
    }
  }
  b->reach = reach;
}

// The line of centres of a coincident pair: hashed from both ids, flipped for the higher one.
static fbVec2 coincident_normal(const fbWorld *w, uint32_t self, uint32_t other)
{
  uint32_t lo = self < other ? self : other, hi = self < other ? other : self;
  double angle = 2.0 * FB_PI * fbRng_Uniform(w->seed, lo, hi, FB_BODIES_STREAM);
  double sign = self < other ? 1.0 : -1.0;
  return fbV(sign * fbMath_Cos(angle), sign * fbMath_Sin(angle));
}

/*
 * Body i's share of its pair's push along one axis, `push` being the whole of it (from j toward
 * i): half, except against the walls of a walled world. A body on a wall cannot be pushed further
 * out, so along that axis it holds like a body of infinite mass and the other takes the whole push
 * (else a crowd pressing on a wall would leave half of every overlap there, step after step). i and
 * j each find the same split, from the same positions.
 */
static inline double share(double push, double xi, double xj, double size, bool walls)
{
  if (walls) {
    const bool i_held = (xi <= 0.0 && push < 0.0) || (xi >= size && push > 0.0);
    const bool j_held = (xj <= 0.0 && push > 0.0) || (xj >= size && push < 0.0);
    if (i_held != j_held) {
      return i_held ? 0.0 : push;
    }
  }
  return 0.5 * push;
}

// What one body's overlaps add up to.
typedef struct Push {
  double qx, qy;
  int contacts;
} Push;

// One overlap of body i with body j at offset (dx, dy) from j to i, d2 = dx^2 + dy^2 < (r_i + r_max)^2.
static void touch(const fbBodies *b, int i, int j, double dx, double dy, double d2, Push *p)
{
  const fbAgents *a = &b->world->agents;
  const fbSpecies *sj = &b->world->species[a->species[j]];
  const double sum = b->world->species[a->species[i]].limits.body_radius + sj->limits.body_radius;
  if (!((b->solid >> a->species[j]) & 1u) || !a->active[j] || !(d2 < sum * sum)) {
    return;
  }
  if (a->held[i]) {
    return;  // held still (a perched bird): it does not move, the other body takes the whole push
  }
  const double d = sqrt(d2);
  const fbVec2 n = d > 0.0 ? fbV(dx / d, dy / d) : coincident_normal(b->world, a->id[i], a->id[j]);
  const double o = sum - d;
  if (a->held[j]) {
    p->qx += o * n.x;
    p->qy += o * n.y;
  } else {
    const bool walls = b->world->bounds == FB_BOUNDS_CLAMP;
    p->qx += share(o * n.x, a->px[i], a->px[j], b->world->width, walls);
    p->qy += share(o * n.y, a->py[i], a->py[j], b->world->height, walls);
  }
  p->contacts++;
}

/*
 * The search for body i, specialised on wrap so that the hot loop is a subtraction, a distance
 * and one compare per candidate: almost every candidate is farther than r_i + r_max, and only
 * the few within it go on to the species and exact radius tests.
 */
static inline __attribute__((always_inline)) void search(const fbBodies *b, int i, Push *p, const bool wrap)
{
  const fbAgents *a = &b->world->agents;
  const fbGrid *g = b->grid;
  const int s = a->species[i];
  const double x = a->px[i], y = a->py[i], W = g->world_w, H = g->world_h;
  const double near = a->active[i] ? b->world->species[s].limits.body_radius + b->r_max : 0.0;
  const double near2 = near * near;
  const double *px = a->px, *py = a->py;
  fbBlock block;
  fbCellRun run;
  fbBlock_BeginBox(&block, g, x, y, near + b->reach);
  while (fbBlock_Next(&block, &run)) {
    for (int j = run.begin; j < run.end; ++j) {
      double dx = x - px[j], dy = y - py[j];
      if (wrap) {
        dx = fbGrid_MinImage(dx, W);
        dy = fbGrid_MinImage(dy, H);
      }
      const double d2 = dx * dx + dy * dy;
      if (d2 < near2 && j != i) {
        touch(b, i, j, dx, dy, d2, p);
      }
    }
  }
}

// The velocity after a push p: its motion against p cut by at most |p| / dt, never reversed.
static fbVec2 brake(fbVec2 v, fbVec2 p, double dt)
{
  const double push = fbV_Length(p);
  if (!(push > 0.0)) {
    return v;
  }
  const fbVec2 dir = fbV_Scale(p, 1.0 / push);
  const double against = -fbV_Dot(v, dir);
  return against > 0.0 ? fbV_Add(v, fbV_Scale(dir, fmin(push / dt, against))) : v;
}

// Body i after its push: braked, slid along any obstacle the push meets (obstacles.c), kept in the world's bounds.
// Returns how far it moved.
static double settle(fbBodies *b, int i, const Push *p)
{
  const fbWorld *w = b->world;
  const fbAgents *a = &w->agents;
  const fbVec2 from = fbV(a->px[i], a->py[i]);
  fbVec2 to = fbV(from.x + p->qx, from.y + p->qy);
  fbVec2 v = brake(fbV(a->vx[i], a->vy[i]), fbV(p->qx, p->qy), w->dt);
  if (w->obstacles.count > 0) {
    fbContacts contacts;
    fbObstacles_Slide(&w->obstacles, from, &to, w->species[a->species[i]].limits.body_radius, &contacts);
    if (contacts.count > 0) {
      v = fbContacts_Clip(&contacts, v);
    }
  }
  fbIntegrate_Bound(&to, &v, w->bounds, w->width, w->height);
  b->px[i] = to.x;
  b->py[i] = to.y;
  b->vx[i] = v.x;
  b->vy[i] = v.y;
  return fbV_Length(fbGrid_Offset(b->grid, from, to));
}

static int resolve(fbBodies *b, int begin, int end, double *pushed, const bool wrap)
{
  const fbAgents *a = &b->world->agents;
  double largest = 0.0;
  int touching = 0;
  for (int i = begin; i < end; ++i) {
    Push p = {0.0, 0.0, 0};
    if ((b->solid >> a->species[i]) & 1u) {
      search(b, i, &p, wrap);
    }
    b->moved[i] = p.contacts > 0;
    if (p.contacts > 0) {
      const double moved = settle(b, i, &p);
      largest = moved > largest ? moved : largest;
      touching++;
    }
  }
  *pushed = largest;
  return touching;
}

int fbBodies_Resolve(fbBodies *b, int begin, int end, double *pushed)
{
  return b->grid->wrap ? resolve(b, begin, end, pushed, true) : resolve(b, begin, end, pushed, false);
}

void fbBodies_Commit(fbBodies *b, int begin, int end)
{
  fbAgents *a = &b->world->agents;
  for (int i = begin; i < end; ++i) {
    if (!b->moved[i]) {
      continue;
    }
    a->px[i] = b->px[i];
    a->py[i] = b->py[i];
    a->vx[i] = b->vx[i];
    a->vy[i] = b->vy[i];
    double speed = sqrt(b->vx[i] * b->vx[i] + b->vy[i] * b->vy[i]);
    if (speed > FB_TINY) {  // as integration does: a body brought to a stop keeps its heading
      a->hx[i] = b->vx[i] / speed;
      a->hy[i] = b->vy[i] / speed;
    }
  }
}
