// orca.c — ORCA half-planes and the linear programs that choose a velocity inside them (see orca.h).
#include "orca.h"

#include <string.h>

#include "fb_math.h"

// Directions closer to parallel than this (the sine of the angle between unit vectors) are parallel.
#define ORCA_PARALLEL 1e-9

static fbVec2 left_normal(fbVec2 d) { return fbV(-d.y, d.x); }

// The line whose allowed side has unit normal n: its direction is n turned a quarter the other way.
static fbVec2 dir_for_normal(fbVec2 n) { return fbV(n.y, -n.x); }

// How far v lies inside line l (negative: outside, by that distance).
static double inside(const fbOrcaLine *l, fbVec2 v) { return fbV_Cross(l->dir, fbV_Sub(v, l->point)); }

/*
 * ORCA for two agents (van den Berg et al. 2011, section 4). With x = p_B - p_A, R = r_A + r_B and
 * v = v_A - v_B, the velocity obstacle for horizon tau is
 *   VO = { v | exists t in [0, tau]: t v in D(x, R) },
 * a cone from the origin round D(x, R) cut off by the disc D(x / tau, R / tau). u is the vector from
 * v to the nearest point of VO's boundary, n that boundary's outward normal there, and
 *   ORCA_{A|B} = { v' | (v' - (v_A + s u)) . n >= 0 },
 * with s = 1/2 when B avoids A as well (each does half: "reciprocal") and s = 1 when B does not.
 * Between agents of unequal rank (orca.priority, standing aside: orca_stage.h) the shares are
 * unequal, s = 0 for the higher and 1 for the lower. The collision-free argument of section 4 needs
 * only that the two shares of u make the whole of it and that both agents agree on them; half each
 * is the paper's choice for agents alike. Both rank a pair from what both can see (their species'
 * options, their current speeds), so they agree. s = 0 is taken as no line at all (fbOrca_Plan
 * leaves it out), as Godot's avoidance_priority does, not as the line through v_A that the formula
 * gives: that line takes from the higher agent the slack of a pair not on a collision course (v
 * outside VO, u . n < 0), so a higher agent at rest could never approach the lower one, and a
 * walker could not make a standing one give way; the lower agent's line, s = 1, already keeps the
 * pair apart.
 * Which part of the boundary is nearest: with w = v - x / tau (from the cut-off disc's centre to v),
 * the disc when w points back along -x within the angle the legs touch it at, that is when
 * w . x < 0 and (w . x)^2 > R^2 |w|^2 (cos of the angle to -x above R / |x|); else the leg on w's
 * side of x, x turned by asin(R / |x|) toward it, onto which v is projected.
 * Already overlapping (|x| <= R), the paper takes the horizon of one step: the disc D(x / dt, R / dt)
 * holds every relative velocity that would still overlap at the end of the step, and u leaves it.
 */
static void cutoff_disc(fbVec2 w, double radius_over_time, fbVec2 *u, fbVec2 *dir)
{
  double length = fbV_Length(w);
  fbVec2 n = length > 0.0 ? fbV_Scale(w, 1.0 / length) : fbV(1.0, 0.0);
  *u = fbV_Scale(n, radius_over_time - length);
  *dir = dir_for_normal(n);
}

static void nearest_leg(fbVec2 x, fbVec2 w, fbVec2 v, double R, fbVec2 *u, fbVec2 *dir)
{
  double d2 = fbV_Length2(x);
  double leg = sqrt(d2 - R * R);
  if (fbV_Cross(x, w) > 0.0) {  // the left leg: x turned counter-clockwise (as cross counts) by asin(R/|x|)
    *dir = fbV_Scale(fbV(x.x * leg - x.y * R, x.x * R + x.y * leg), 1.0 / d2);
  } else {  // the right leg, pointing back toward the apex so that VO lies on its right too
    *dir = fbV_Scale(fbV(x.x * leg + x.y * R, -x.x * R + x.y * leg), -1.0 / d2);
  }
  *u = fbV_Sub(fbV_Scale(*dir, fbV_Dot(v, *dir)), v);
}

fbOrcaLine fbOrca_AgentLine(const fbOrcaBody *self, const fbOrcaBody *other, const fbOrcaSettings *s)
{
  fbVec2 x = fbV_Sub(other->p, self->p);
  fbVec2 v = fbV_Sub(self->v, other->v);
  double R = self->radius + other->radius;
  fbVec2 u, dir;
  if (fbV_Length2(x) > R * R) {
    fbVec2 w = fbV_Sub(v, fbV_Scale(x, 1.0 / s->time_horizon));
    double along = fbV_Dot(w, x);
    if (along < 0.0 && along * along > R * R * fbV_Length2(w)) {
      cutoff_disc(w, R / s->time_horizon, &u, &dir);
    } else {
      nearest_leg(x, w, v, R, &u, &dir);
    }
  } else {
    cutoff_disc(fbV_Sub(v, fbV_Scale(x, 1.0 / s->dt)), R / s->dt, &u, &dir);
  }
  double share = !other->reciprocal ? 1.0 : other->precedence > 0 ? 0.0 : other->precedence < 0 ? 1.0 : 0.5;
  return (fbOrcaLine){fbV_Add(self->v, fbV_Scale(u, share)), dir};
}

/*
 * ORCA for static obstacles (section 5.3), as RVO2 builds it (Agent::computeNewVelocity; the code
 * was read for the method, not copied). An obstacle neither moves nor avoids: the agent takes all
 * of u, and v_opt is the agent's current velocity v, as for agents. Each piece of an obstacle near
 * the agent gives its own velocity obstacle for the horizon tau_o,
 *   VO = { w | t w lies in the piece grown by the body radius r, for some t in (0, tau_o] },
 * and the half-plane is the one outside VO's boundary at the point nearest v, as for agents.
 *
 * A circle (centre c, radius r_c) is an agent of radius r_c that stands still and does not avoid:
 * fbOrca_AgentLine with share 1 and the horizon tau_o gives exactly its VO's line.
 *
 * A convex polygon is taken edge by edge, only the edges facing the agent (it lies on their outer
 * side). The edge from P1 to P2 grown by r is a capsule; relative to the agent, p1 = P1 - p and
 * p2 = P2 - p, its VO is the cone of the tangents ("legs") from the origin to the discs D(p1, r)
 * and D(p2, r), cut off by the capsule of D(p1 / tau_o, r / tau_o) and D(p2 / tau_o, r / tau_o).
 * Seen obliquely (the agent within r of the edge's line but beyond an end), one disc hides the other
 * and both legs come from it. A leg that would cut into the polygon past its vertex (the
 * neighbouring edge turns away less than the leg) is replaced by that edge's direction and called
 * foreign: that edge's own VO holds that boundary, so v projecting onto a foreign leg adds no line.
 * v is projected onto the nearest of: the cut-off discs (v behind both a disc and the cut-off
 * segment), the cut-off segment (the edge's line moved in by r and scaled by 1 / tau_o), the legs.
 * Pieces are taken nearest first, and an edge whose two cut-off discs already lie wholly outside
 * a line made so far adds nothing ("already covered"). An agent already within r of the edge (or
 * of a vertex) gets the line through 0 that forbids moving further in; the collision handling of
 * the integrator pushes it out.
 *
 * Before this, one half-plane through the obstacle's nearest point stood for it, v . n >= -d / tau_o
 * (v_opt = 0): at a corner that forbids every velocity with a part toward the corner, the passes
 * beside it too, and a crowd jammed at a corridor's mouth (tests/data/crowd_bottleneck.lua).
 *
 * Jointly feasible: velocity 0 lies in every obstacle line, so the obstacle lines together always
 * allow 0 and the 3-D program can keep them hard. A leg passes through the origin (a tangent from
 * it, scaled), and so does the collision line. The cut-off segment's line lies (d - r) / tau_o from
 * 0 toward the edge, d > r the agent's distance from the edge's line when it is used. A cut-off
 * disc's line is the tangent at the point facing v, used only when v lies behind the disc (toward
 * the origin) within its legs: the tangents at the arc the origin sees have the origin outside. For
 * circles likewise (fbOrca_AgentLine's leg and cut-off cases); a body already overlapping a circle
 * gets the line through 0 that forbids moving further in, not fbOrca_AgentLine's one-step disc,
 * which would hold 0.
 */

// Below this an edge's cut-off discs count as on a line (rounding): RVO2's RVO_EPSILON, for doubles.
#define ORCA_COVERED 1e-9

// A piece of an obstacle near the agent: a circle (edge -1) or one facing edge of a polygon.
typedef struct Piece {
  int obstacle, edge;
  double distance;  // from the agent to its surface
} Piece;

// The FB_ORCA_MAX_OBSTACLE_LINES nearest pieces, nearest first; equally near by obstacle, then edge.
typedef struct Pieces {
  int n;
  Piece p[FB_ORCA_MAX_OBSTACLE_LINES];
} Pieces;

static bool piece_before(const Piece *a, const Piece *b)
{
  if (a->distance != b->distance) {
    return a->distance < b->distance;
  }
  return a->obstacle != b->obstacle ? a->obstacle < b->obstacle : a->edge < b->edge;
}

static void keep_piece(Pieces *k, Piece p)
{
  if (k->n == FB_ORCA_MAX_OBSTACLE_LINES && !piece_before(&p, &k->p[k->n - 1])) {
    return;
  }
  int at = k->n < FB_ORCA_MAX_OBSTACLE_LINES ? k->n++ : k->n - 1;
  for (; at > 0 && piece_before(&p, &k->p[at - 1]); --at) {
    k->p[at] = k->p[at - 1];
  }
  k->p[at] = p;
}

static fbVec2 unit(fbVec2 a)
{
  double length = fbV_Length(a);
  return length > 0.0 ? fbV_Scale(a, 1.0 / length) : fbV(1.0, 0.0);
}

static fbVec2 corner(const fbObstacles *o, const fbObstacle *ob, int k)
{
  return o->vertices[ob->first_vertex + (k % ob->vertex_count + ob->vertex_count) % ob->vertex_count];
}

// The unit direction of edge k, from corner k to corner k + 1.
static fbVec2 edge_dir(const fbObstacles *o, const fbObstacle *ob, int k)
{
  return unit(fbV_Sub(corner(o, ob, k + 1), corner(o, ob, k)));
}

// The facing edges of a polygon within reach of p, and a circle, into k.
static void gather(const fbObstacles *o, int index, fbVec2 p, double reach, Pieces *k)
{
  const fbObstacle *ob = &o->items[index];
  if (ob->kind == FB_OBSTACLE_CIRCLE) {
    keep_piece(k, (Piece){index, -1, fbObstacles_Distance(o, index, p, NULL, NULL)});
    return;
  }
  for (int e = 0; e < ob->vertex_count; ++e) {
    fbVec2 a = corner(o, ob, e), edge = fbV_Sub(corner(o, ob, e + 1), a), to_p = fbV_Sub(p, a);
    if (fbV_Cross(edge, to_p) >= 0.0) {
      continue;  // p on the inner side of the edge's line: the edge faces away
    }
    double s = fmin(1.0, fmax(0.0, fbV_Dot(to_p, edge) / fbV_Length2(edge)));
    double distance = fbV_Length(fbV_Sub(to_p, fbV_Scale(edge, s)));
    if (distance <= reach) {
      keep_piece(k, (Piece){index, e, distance});
    }
  }
}

// The line through 0 along dir: no velocity with a part across it to its right.
static fbOrcaLine through_origin(fbVec2 dir) { return (fbOrcaLine){fbV(0.0, 0.0), dir}; }

static fbOrcaLine circle_line(const fbObstacles *o, int index, const fbOrcaBody *self, const fbOrcaSettings *s)
{
  const fbObstacle *ob = &o->items[index];
  fbVec2 n;
  if (fbObstacles_Distance(o, index, self->p, NULL, &n) <= self->radius) {
    return through_origin(dir_for_normal(n));
  }
  fbOrcaSettings obstacle = *s;
  obstacle.time_horizon = s->obstacle_horizon;
  fbOrcaBody still = {ob->centre, fbV(0.0, 0.0), ob->radius, false, 0};
  return fbOrca_AgentLine(self, &still, &obstacle);
}

// The legs from the origin to D(rel, r): left (counter-clockwise of rel as cross counts) and right.
static fbVec2 left_leg(fbVec2 rel, double r)
{
  double d2 = fbV_Length2(rel), leg = sqrt(d2 - r * r);
  return fbV_Scale(fbV(rel.x * leg - rel.y * r, rel.x * r + rel.y * leg), 1.0 / d2);
}

static fbVec2 right_leg(fbVec2 rel, double r)
{
  double d2 = fbV_Length2(rel), leg = sqrt(d2 - r * r);
  return fbV_Scale(fbV(rel.x * leg + rel.y * r, -rel.x * r + rel.y * leg), 1.0 / d2);
}

// Whether both cut-off discs of the edge (ends rel1, rel2) lie wholly outside one of lines[0 .. n).
static bool already_covered(const fbOrcaLine *lines, int n, fbVec2 rel1, fbVec2 rel2, double inv_tau, double r)
{
  for (int j = 0; j < n; ++j) {
    if (-inside(&lines[j], fbV_Scale(rel1, inv_tau)) - inv_tau * r >= -ORCA_COVERED &&
        -inside(&lines[j], fbV_Scale(rel2, inv_tau)) - inv_tau * r >= -ORCA_COVERED) {
      return true;
    }
  }
  return false;
}

// The tangent of the cut-off disc D(centre, radius) at the point facing v.
static fbOrcaLine cutoff_tangent(fbVec2 centre, double radius, fbVec2 v)
{
  fbVec2 w = unit(fbV_Sub(v, centre));
  return (fbOrcaLine){fbV_Add(centre, fbV_Scale(w, radius)), dir_for_normal(w)};
}

// The line along dir through the point `radius` to the left of `from`: a leg or the cut-off segment.
static fbOrcaLine offset_line(fbVec2 from, fbVec2 dir, double radius)
{
  return (fbOrcaLine){fbV_Add(from, fbV_Scale(left_normal(dir), radius)), dir};
}

static double distance2_or_inf(bool beyond, fbVec2 v, fbVec2 at)
{
  return beyond ? INFINITY : fbV_Length2(fbV_Sub(v, at));
}

/*
 * The line of edge k of polygon `index` for self (see above); false when it adds none (already
 * covered, a foreign leg, a vertex collision the next edge handles).
 */
static bool edge_line(const fbObstacles *o, int index, int k, const fbOrcaBody *self, double tau,
                      const fbOrcaLine *lines, int n, fbOrcaLine *out)
{
  const fbObstacle *ob = &o->items[index];
  double r = self->radius, r2 = r * r, inv_tau = 1.0 / tau;
  int i1 = k, i2 = k + 1;
  fbVec2 rel1 = fbV_Sub(corner(o, ob, i1), self->p), rel2 = fbV_Sub(corner(o, ob, i2), self->p);
  if (already_covered(lines, n, rel1, rel2, inv_tau, r)) {
    return false;
  }
  fbVec2 edge = fbV_Sub(rel2, rel1);
  double s = -fbV_Dot(rel1, edge) / fbV_Length2(edge);
  double line2 = fbV_Length2(fbV_Add(rel1, fbV_Scale(edge, s)));  // squared distance to the edge's line
  if (s < 0.0 && fbV_Length2(rel1) <= r2) {
    *out = through_origin(unit(left_normal(rel1)));
    return true;
  }
  if (s > 1.0 && fbV_Length2(rel2) <= r2) {  // the next edge takes it when it faces the agent
    *out = through_origin(unit(left_normal(rel2)));
    return fbV_Cross(rel2, edge_dir(o, ob, i2)) >= 0.0;
  }
  if (s >= 0.0 && s < 1.0 && line2 <= r2) {
    *out = through_origin(fbV_Scale(edge_dir(o, ob, k), -1.0));
    return true;
  }
  fbVec2 left, right;
  if (s < 0.0 && line2 <= r2) {  // seen obliquely: the first corner hides the second
    i2 = i1;
    rel2 = rel1;
  } else if (s > 1.0 && line2 <= r2) {
    i1 = i2;
    rel1 = rel2;
  }
  left = left_leg(rel1, r);
  right = right_leg(rel2, r);
  fbVec2 before = edge_dir(o, ob, i1 - 1), after = edge_dir(o, ob, i2);
  bool left_foreign = fbV_Cross(left, before) <= 0.0;  // cross(left, -before) >= 0: into the polygon
  bool right_foreign = fbV_Cross(right, after) <= 0.0;
  left = left_foreign ? fbV_Scale(before, -1.0) : left;
  right = right_foreign ? after : right;

  fbVec2 lc = fbV_Scale(rel1, inv_tau), rc = fbV_Scale(rel2, inv_tau), cut = fbV_Sub(rc, lc), v = self->v;
  bool one_corner = i1 == i2;
  double t = one_corner ? 0.5 : fbV_Dot(fbV_Sub(v, lc), cut) / fbV_Length2(cut);
  double t_left = fbV_Dot(fbV_Sub(v, lc), left), t_right = fbV_Dot(fbV_Sub(v, rc), right);
  if ((t < 0.0 && t_left < 0.0) || (one_corner && t_left < 0.0 && t_right < 0.0)) {
    *out = cutoff_tangent(lc, r * inv_tau, v);
    return true;
  }
  if (t > 1.0 && t_right < 0.0) {
    *out = cutoff_tangent(rc, r * inv_tau, v);
    return true;
  }
  double to_cut = distance2_or_inf(t < 0.0 || t > 1.0 || one_corner, v, fbV_Add(lc, fbV_Scale(cut, t)));
  double to_left = distance2_or_inf(t_left < 0.0, v, fbV_Add(lc, fbV_Scale(left, t_left)));
  double to_right = distance2_or_inf(t_right < 0.0, v, fbV_Add(rc, fbV_Scale(right, t_right)));
  if (to_cut <= to_left && to_cut <= to_right) {
    *out = offset_line(lc, fbV_Scale(edge_dir(o, ob, k), -1.0), r * inv_tau);
    return true;
  }
  if (to_left <= to_right) {
    *out = offset_line(lc, left, r * inv_tau);
    return !left_foreign;
  }
  *out = offset_line(rc, fbV_Scale(right, -1.0), r * inv_tau);
  return !right_foreign;
}

int fbOrca_ObstacleLines(const fbObstacles *o, const int *obstacles, int n, const fbOrcaBody *self,
                         const fbOrcaSettings *s, fbOrcaLine *out)
{
  double reach = s->obstacle_horizon * s->max_speed + self->radius;
  Pieces near = {.n = 0};
  for (int k = 0; k < n; ++k) {
    gather(o, obstacles[k], self->p, reach, &near);
  }
  int count = 0;
  for (int k = 0; k < near.n; ++k) {
    const Piece *piece = &near.p[k];
    if (piece->edge < 0) {
      out[count++] = circle_line(o, piece->obstacle, self, s);
    } else {
      count += edge_line(o, piece->obstacle, piece->edge, self, s->obstacle_horizon, out, count, &out[count]);
    }
  }
  return count;
}

/*
 * The 2-D linear program (section 5.2; de Berg et al., Computational Geometry, 4.4): the velocity
 * in the disc |v| <= V_max, inside every half-plane, closest to the preferred velocity (or, with
 * `direction`, farthest along a unit direction). Incremental: the optimum of the first k lines is
 * kept while it satisfies line k; when it does not, the new optimum lies on line k, a
 * one-dimensional program along it (on_line). The paper shuffles the lines for an expected O(n); we
 * keep their order (obstacles, then agents nearest first) so that the result is the same every run.
 *
 * on_line: points P + t d of line k. The disc gives t in [-P.d - r, -P.d + r] with
 * r^2 = (P.d)^2 + V_max^2 - |P|^2 (none if negative). Line j (P_j, d_j) holds where
 *   cross(d_j, P + t d - P_j) = b + t a >= 0,  a = cross(d_j, d), b = cross(d_j, P - P_j):
 * t >= -b/a for a > 0, t <= -b/a for a < 0; parallel (a = 0) it holds everywhere (b >= 0) or nowhere.
 */
static bool on_line(const fbOrcaLine *lines, int k, double max_speed, fbVec2 target, bool direction, fbVec2 *out)
{
  const fbOrcaLine *line = &lines[k];
  double along = fbV_Dot(line->point, line->dir);
  double disc = along * along + max_speed * max_speed - fbV_Length2(line->point);
  if (disc < 0.0) {
    return false;
  }
  double lo = -along - sqrt(disc), hi = -along + sqrt(disc);
  for (int j = 0; j < k; ++j) {
    double a = fbV_Cross(lines[j].dir, line->dir);
    double b = fbV_Cross(lines[j].dir, fbV_Sub(line->point, lines[j].point));
    if (fabs(a) <= ORCA_PARALLEL) {
      if (b < 0.0) {
        return false;
      }
      continue;
    }
    if (a > 0.0) {
      lo = fmax(lo, -b / a);
    } else {
      hi = fmin(hi, -b / a);
    }
    if (lo > hi) {
      return false;
    }
  }
  double t = direction ? (fbV_Dot(target, line->dir) > 0.0 ? hi : lo)
                       : fmin(hi, fmax(lo, fbV_Dot(line->dir, fbV_Sub(target, line->point))));
  *out = fbV_Add(line->point, fbV_Scale(line->dir, t));
  return true;
}

// The 2-D program over lines[0 .. count): the index of the first line it could not satisfy (count
// when it satisfied them all); *out is then the optimum of the lines before it.
static int solve_2d(const fbOrcaLine *lines, int count, double max_speed, fbVec2 target, bool direction, fbVec2 *out)
{
  double length = fbV_Length(target);
  if (direction) {
    *out = fbV_Scale(target, max_speed);
  } else {
    *out = length > max_speed ? fbV_Scale(target, max_speed / length) : target;
  }
  for (int k = 0; k < count; ++k) {
    if (inside(&lines[k], *out) < 0.0) {
      fbVec2 kept = *out;
      if (!on_line(lines, k, max_speed, target, direction, out)) {
        *out = kept;
        return k;
      }
    }
  }
  return count;
}

/*
 * Where line j holds at least as well as line i: cross(d_j, v - P_j) - cross(d_i, v - P_i) >= 0,
 * the half-plane of direction (d_j - d_i) / |d_j - d_i| through their crossing point (or, opposite
 * and parallel, through the midpoint of their points). Parallel and alike, it is everywhere or
 * nowhere and is left out (false).
 */
static bool no_worse_than(const fbOrcaLine *i, const fbOrcaLine *j, fbOrcaLine *out)
{
  double a = fbV_Cross(i->dir, j->dir);
  if (fabs(a) <= ORCA_PARALLEL) {
    if (fbV_Dot(i->dir, j->dir) > 0.0) {
      return false;
    }
    out->point = fbV_Scale(fbV_Add(i->point, j->point), 0.5);
  } else {
    out->point = fbV_Add(i->point, fbV_Scale(i->dir, fbV_Cross(j->dir, fbV_Sub(i->point, j->point)) / a));
  }
  fbVec2 d = fbV_Sub(j->dir, i->dir);
  out->dir = fbV_Scale(d, 1.0 / fbV_Length(d));
  return true;
}

/*
 * The 3-D program (section 5.3): when no velocity satisfies every half-plane (a dense crowd), the
 * agent takes the velocity that minimises the largest distance d by which it violates an agent's
 * half-plane, obstacles' half-planes kept hard (always feasible together, see above):
 *   minimise d  subject to  (v - P_i) . n_i >= -d for agent lines,  >= 0 for obstacle lines,  |v| <= V_max.
 * In (v, d) space this is a 3-D linear program, solved incrementally as well: from the first agent
 * line the 2-D program failed on, each line i violated by more than the best d so far moves the
 * optimum onto the plane where d is line i's violation. There the problem projects to 2-D: line j
 * (j < i) must be violated no more than line i (no_worse_than), and v moves as far as it can along
 * n_i, the direction that lowers line i's violation.
 */
static void least_violation(const fbOrcaLine *lines, int count, int obstacle_count, int first, double max_speed,
                            fbVec2 *out)
{
  fbOrcaLine projected[FB_ORCA_MAX_LINES];
  double worst = 0.0;
  memcpy(projected, lines, sizeof *lines * (size_t)obstacle_count);
  for (int i = first; i < count; ++i) {
    if (-inside(&lines[i], *out) <= worst) {
      continue;
    }
    int n = obstacle_count;
    for (int j = obstacle_count; j < i; ++j) {
      n += no_worse_than(&lines[i], &lines[j], &projected[n]);
    }
    fbVec2 kept = *out;
    if (solve_2d(projected, n, max_speed, left_normal(lines[i].dir), true, out) < n) {
      *out = kept;  // only rounding can make this fail: the last velocity is as good
    }
    worst = -inside(&lines[i], *out);
  }
}

fbVec2 fbOrca_Solve(const fbOrcaLine *lines, int count, int obstacle_count, fbVec2 preferred, double max_speed,
                    bool *fallback)
{
  fbVec2 v;
  int failed = solve_2d(lines, count, max_speed, preferred, false, &v);
  *fallback = failed < count;
  if (*fallback) {
    least_violation(lines, count, obstacle_count, failed, max_speed, &v);
  }
  return v;
}

/*
 * Keeping right (not in the paper). ORCA's half-planes say which velocities are safe; which of them
 * to take is the objective's choice, and the paper's, the one nearest v_pref, is symmetric: when a
 * whole crowd converges on one point (RVO2's Circle), nothing makes the agents agree on a side, they
 * meet head on, the 2-D program becomes infeasible and the 3-D program's least violation lets pairs
 * overlap (by up to 20 % of the sum of radii). Pedestrians share a convention instead: they evade
 * on one side, in right-hand-traffic countries mostly the right (Moussaid, Helbing, Garnier,
 * Johansson, Combe & Theraulaz 2009, "Experimental study of the behavioural mechanisms underlying
 * self-organization in human crowds", Proc. R. Soc. B 276). So an agent that must give way, one
 * whose v_pref some agent's half-plane forbids, seeks
 *   v_aim = R(theta) v_pref,  R(theta) = [cos -sin; sin cos],  theta = keep_right,
 * v_pref turned by theta, clockwise on the screen, that is to its right in our y-down world. Each
 * turning the same way, a crowd converging head on settles into a roundabout. Only the objective
 * changes: the half-planes, and with them ORCA's guarantee, are the paper's; an agent nobody
 * threatens (and one kept only by obstacles) still moves exactly as its rules asked.
 */
fbVec2 fbOrca_Aim(const fbOrcaLine *lines, int count, int obstacle_count, fbVec2 preferred, const fbOrcaSettings *s)
{
  bool gives_way = false;
  for (int k = obstacle_count; k < count && !gives_way; ++k) {
    gives_way = inside(&lines[k], preferred) < 0.0;
  }
  if (!gives_way || s->keep_right == 0.0) {
    return preferred;
  }
  double c = fbMath_Cos(s->keep_right), sn = fbMath_Sin(s->keep_right);
  return fbV(c * preferred.x - sn * preferred.y, sn * preferred.x + c * preferred.y);
}

void fbOrca_Plan(fbOrcaPlan *plan, const fbOrcaBody *self, fbVec2 preferred, const fbOrcaBody *others, int n,
                 const fbObstacles *o, const int *obstacles, int obstacle_n, const fbOrcaSettings *s)
{
  obstacle_n = obstacle_n < FB_ORCA_MAX_OBSTACLES ? obstacle_n : FB_ORCA_MAX_OBSTACLES;
  n = n < FB_ORCA_MAX_NEIGHBOURS ? n : FB_ORCA_MAX_NEIGHBOURS;
  plan->count = fbOrca_ObstacleLines(o, obstacles, obstacle_n, self, s, plan->lines);
  plan->obstacle_count = plan->count;
  for (int k = 0; k < n; ++k) {
    if (!others[k].reciprocal || others[k].precedence <= 0) {  // outranked: the other takes it all
      plan->lines[plan->count++] = fbOrca_AgentLine(self, &others[k], s);
    }
  }
  plan->preferred = preferred;
  plan->aim = fbOrca_Aim(plan->lines, plan->count, plan->obstacle_count, preferred, s);
  plan->chosen = fbOrca_Solve(plan->lines, plan->count, plan->obstacle_count, plan->aim, s->max_speed, &plan->fallback);
}
