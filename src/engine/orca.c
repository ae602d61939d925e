// orca.c — ORCA half-planes and the linear programs that choose a velocity inside them (see orca.h).
#include "orca.h"

#include <string.h>

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
  double share = other->reciprocal ? 0.5 : 1.0;
  return (fbOrcaLine){fbV_Add(self->v, fbV_Scale(u, share)), dir};
}

/*
 * ORCA for a static obstacle (section 5.3): the obstacle does not move or avoid, so the agent takes
 * all of u, and the paper picks v_opt = 0 (not the current velocity), which keeps velocity 0 allowed
 * by every obstacle's half-plane: together they are always feasible, and the 3-D program can hold
 * them hard. For a convex obstacle O grown by the body radius, X = O + D(r) - p is convex and does not
 * hold the origin, and VO = { v | t v in X for some t in (0, tau_o] } = { s x | x in X, s >= 1/tau_o }.
 * |s x| is least at s = 1/tau_o and x the point of X nearest the origin, at distance d (the body's
 * clearance) along -n (n the outward normal there): VO's point nearest 0 is -n d / tau_o and the
 * tangent there is perpendicular to n. So
 *   ORCA_{A|O} = { v | v . n >= -d / tau_o }:
 * the agent may close on the obstacle at no more than d / tau_o. Already touching (d <= 0) it may
 * not move further in (v . n >= 0); the integrator's collision pushes it out (integrate.c).
 */
fbOrcaLine fbOrca_ObstacleLine(const fbObstacles *o, int index, fbVec2 p, double radius, const fbOrcaSettings *s)
{
  fbVec2 n;
  double clearance = fbObstacles_Distance(o, index, p, NULL, &n) - radius;
  fbVec2 point = clearance > 0.0 ? fbV_Scale(n, -clearance / s->obstacle_horizon) : fbV(0.0, 0.0);
  return (fbOrcaLine){point, dir_for_normal(n)};
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
  double c = cos(s->keep_right), sn = sin(s->keep_right);
  return fbV(c * preferred.x - sn * preferred.y, sn * preferred.x + c * preferred.y);
}

void fbOrca_Plan(fbOrcaPlan *plan, const fbOrcaBody *self, fbVec2 preferred, const fbOrcaBody *others, int n,
                 const fbObstacles *o, const int *obstacles, int obstacle_n, const fbOrcaSettings *s)
{
  obstacle_n = obstacle_n < FB_ORCA_MAX_OBSTACLES ? obstacle_n : FB_ORCA_MAX_OBSTACLES;
  n = n < FB_ORCA_MAX_NEIGHBOURS ? n : FB_ORCA_MAX_NEIGHBOURS;
  plan->count = 0;
  for (int k = 0; k < obstacle_n; ++k) {
    plan->lines[plan->count++] = fbOrca_ObstacleLine(o, obstacles[k], self->p, self->radius, s);
  }
  plan->obstacle_count = plan->count;
  for (int k = 0; k < n; ++k) {
    plan->lines[plan->count++] = fbOrca_AgentLine(self, &others[k], s);
  }
  plan->preferred = preferred;
  plan->aim = fbOrca_Aim(plan->lines, plan->count, plan->obstacle_count, preferred, s);
  plan->chosen = fbOrca_Solve(plan->lines, plan->count, plan->obstacle_count, plan->aim, s->max_speed, &plan->fallback);
}
