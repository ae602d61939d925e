// integrate.c — moving one body one fixed step (see integrate.h).
#include "integrate.h"

#include "fb_math.h"

// Speeds and lengths below this are treated as zero when a direction is needed.
#define FB_TINY 1e-12

/*
 * Energy per distance against slope (Gompert, section 5.2.2, Figure 7). The figure's shape:
 *   - least at a downhill slope of about -10%, the most economical slope found for walkers;
 *   - rising with the slope uphill, but only to a finite asymptote (climbing a vertical
 *     ladder costs a finite amount per metre);
 *   - likewise to a finite asymptote downhill, placed at 1/5 of the uphill one because
 *     braking on the way down costs about a fifth of lifting on the way up.
 * The figure gives no formula, so this is one smooth curve with those properties. With
 * u = s - S_MIN and a branch per side,
 *   E(s) = 1 + (E_max - 1) * (2/pi) * atan(k u^2),
 * E_max = E_UP, k = K_UP for u >= 0 and E_max = E_UP / 5, k = K_DOWN below.
 * Each branch is 1 at u = 0 with zero slope there (so s = -0.1 is a true, smooth minimum),
 * grows monotonically with |u| (atan of an increasing argument) and tends to its E_max.
 * K_DOWN = K_UP (E_UP - 1) / (E_UP/5 - 1) makes the two second derivatives at the minimum,
 * 2 k (E_max - 1) (2/pi), equal, so the curve is C2 there too.
 * Units: energy per unit of 3D distance walked, relative to walking the cheapest slope.
 */
#define FB_ENERGY_S_MIN (-0.1)
#define FB_ENERGY_UP 10.0
#define FB_ENERGY_DOWN (FB_ENERGY_UP / 5.0)
#define FB_ENERGY_K_UP 1.0
#define FB_ENERGY_K_DOWN (FB_ENERGY_K_UP * (FB_ENERGY_UP - 1.0) / (FB_ENERGY_DOWN - 1.0))

double fbEnergy_PerDistance(double slope)
{
  double u = slope - FB_ENERGY_S_MIN;
  bool up = u >= 0.0;
  double e_max = up ? FB_ENERGY_UP : FB_ENERGY_DOWN;
  double k = up ? FB_ENERGY_K_UP : FB_ENERGY_K_DOWN;
  return 1.0 + (e_max - 1.0) * (2.0 / FB_PI) * fbMath_Atan(k * u * u);
}

/*
 * Gompert eq. 10: a 2D velocity v carried unchanged over ground of slope s_v = v.g / |v|
 * along it would move the body through 3-space faster on hills than on the level. Moving by
 * v / sqrt(s_v^2 + 1) instead keeps the 3D speed equal to |v|: the horizontal run d and rise
 * s_v d of one step then satisfy d^2 + (s_v d)^2 = (|v| dt)^2.
 */
static double slope_factor(fbVec2 p, fbVec2 v, const fbMotionLimits *lim, const fbIntegrateEnv *env)
{
  if (!lim->slope_correction || env->flat) {
    return 1.0;  // on flat ground s_v = 0 and the factor is exactly 1
  }
  double s = fbTerrain_Slope(env->terrain, p.x, p.y, v);
  return 1.0 / sqrt(s * s + 1.0);
}

// Rotates unit h by the angle whose cosine and sine are c and s.
static fbVec2 rotate(fbVec2 h, double c, double s) { return fbV(c * h.x - s * h.y, s * h.x + c * h.y); }

/*
 * Turning-angle limit (Gamlen, section 3.7: large creatures cannot turn ~180 degrees in one
 * frame). The signed angle from the old heading to the new velocity is atan2(h x v, h . v);
 * beyond max_turn the velocity keeps its length but points exactly max_turn off the heading,
 * on the side it asked for. One atan2 per agent per step, never per neighbour.
 */
static fbVec2 limit_turn(fbVec2 v, fbVec2 heading, double max_turn)
{
  double speed = fbV_Length(v);
  if (!(max_turn < FB_PI) || speed <= FB_TINY || fbV_Length2(heading) <= FB_TINY) {
    return v;
  }
  double angle = fbMath_Atan2(fbV_Cross(heading, v), fbV_Dot(heading, v));
  if (fabs(angle) <= max_turn) {
    return v;
  }
  double turn = angle > 0.0 ? max_turn : -max_turn;
  fbVec2 h = fbV_Scale(heading, 1.0 / fbV_Length(heading));
  return fbV_Scale(rotate(h, fbMath_Cos(turn), fbMath_Sin(turn)), speed);
}

/*
 * Speed limits (Parker's limit_velocity for the maximum; Gamlen 3.7 adds a minimum so birds
 * never hover). Too fast: scaled down along its own direction. Too slow: scaled up along its
 * own direction, or along the heading when it has none.
 */
static fbVec2 limit_speed(fbVec2 v, fbVec2 heading, double min_speed, double max_speed)
{
  double speed = fbV_Length(v);
  if (speed > max_speed) {
    return fbV_Scale(v, max_speed / speed);
  }
  if (speed >= min_speed) {
    return v;
  }
  if (speed > FB_TINY) {
    return fbV_Scale(v, min_speed / speed);
  }
  double h = fbV_Length(heading);
  return h > FB_TINY ? fbV_Scale(heading, min_speed / h) : v;
}

/*
 * Collisions (Gompert 8.1): testing only the end position lets a fast body jump over a thin
 * obstacle, so fbObstacles_Slide tests the swept segment from -> to. At a contact the move's
 * part into the surface is dropped and the rest goes on along it within the step (collide and
 * slide, obstacles.c), and the velocity loses its components into the surfaces met (v.n < 0),
 * keeping the tangential part: the body slides along the wall instead of pressing into it, and
 * stops in a corner. This runs after the speed limits, so a wall may slow a body below min_speed.
 */
static void collide(fbVec2 from, fbVec2 *to, fbVec2 *v, double radius, const fbObstacles *o)
{
  fbContacts contacts;
  if (o == NULL || o->count == 0) {
    return;
  }
  fbObstacles_Slide(o, from, to, radius, &contacts);
  if (contacts.count > 0) {
    *v = fbContacts_Clip(&contacts, *v);
  }
}

// Solid edge on one axis: the coordinate stays in [0, size], the outward velocity stops.
static void clamp_axis(double *x, double *v, double size)
{
  if (*x <= 0.0) {
    *x = 0.0;
    *v = fmax(*v, 0.0);
  } else if (*x >= size) {
    *x = size;
    *v = fmin(*v, 0.0);
  }
}

// Torus on one axis: into [0, size). fmod keeps the sign of x, and a tiny negative x plus
// size can round up to size itself, hence the second test.
static double wrap_axis(double x, double size)
{
  x = fmod(x, size);
  if (x < 0.0) {
    x += size;
  }
  return x >= size ? 0.0 : x;
}

void fbIntegrate_Bound(fbVec2 *p, fbVec2 *v, fbBounds bounds, double world_w, double world_h)
{
  if (bounds == FB_BOUNDS_CLAMP) {
    clamp_axis(&p->x, &v->x, world_w);
    clamp_axis(&p->y, &v->y, world_h);
  } else {
    *p = fbV(wrap_axis(p->x, world_w), wrap_axis(p->y, world_h));
  }
}

/*
 * Energy of one step (Gompert 5.2.2): linear in distance, times the cost per distance at
 * the slope actually walked. run is the horizontal displacement, rise the change in ground
 * height along it; the 3D path length is sqrt(run^2 + rise^2).
 */
static double step_energy(const fbIntegrateEnv *env, fbVec2 from, fbVec2 to, double run)
{
  if (run <= 0.0) {
    return 0.0;
  }
  if (env->flat) {
    return sqrt(run * run) * env->flat_energy;  // rise 0: the same arithmetic as below
  }
  double rise = fbTerrain_Height(env->terrain, to.x, to.y) - fbTerrain_Height(env->terrain, from.x, from.y);
  return sqrt(run * run + rise * rise) * fbEnergy_PerDistance(rise / run);
}

fbIntegrateEnv fbIntegrate_Env(const fbTerrain *terrain, const fbObstacles *obstacles, double dt, double world_w,
                               double world_h, fbBounds bounds)
{
  fbIntegrateEnv env = {terrain, fbTerrain_IsFlat(terrain), fbEnergy_PerDistance(0.0), obstacles, dt,
                        world_w,  world_h,                  bounds,  FB_UPDATE_EULER};
  return env;
}

/*
 * Two updates, chosen by the world (fbUpdate):
 *   - Gompert eq. 1-2, forward Euler: p += v dt (+ 1/2 a dt^2), then v += a dt. The body moves by
 *     the velocity it had, so what the rules decide shows in its position a step later.
 *   - semi-implicit Euler, Parker's pseudocode: v += a dt, limited, then p += v dt with that new
 *     velocity ("b.velocity = b.velocity + v1 + v2 + ...; limit_velocity(b); b.position =
 *     b.position + b.velocity"). At dt = 1 this is his step exactly. It is also the steadier of the
 *     two for the spring-like pulls of his rules: it keeps the energy of an undamped spring bounded
 *     where forward Euler lets it grow by a factor 1 + (w dt)^2 every step.
 * The position step is scaled by the slope factor of eq. 10, evaluated at the old position along
 * the velocity that moves the body (Gompert notes correcting the 1/2 a dt^2 term separately is not
 * worth it). Then, in order: obstacle collision, world bounds. The turn and speed limits apply to
 * the new velocity in both. Energy uses the displacement before wrapping so the jump across a
 * wrapped edge does not count as walking.
 */
/*
 * A linear drag (a rule listed with drag = true; Gompert eq. 14) acts on one component of the
 * velocity: its output is D = -k u n with n a unit direction and u = v . n, so n = D / |D| and
 * k = -(D . n) / u. The species chooses how it enters the step (its field `drag`):
 *
 * "exact" (the default, ours). Along n the step solves du/dt = a_n - k u exactly (a_n = a . n, the
 * rest of the acceleration, held over the step):
 *   u(dt) = u e^(-k dt) + a_n (1 - e^(-k dt)) / k,
 * while the other component takes a dt as usual. The drag alone decays u by e^(-k dt), never
 * reversing it however large k dt; with steering pushing at a_n the climb settles at a_n / k, the
 * continuous answer, at any dt (an explicit step would settle at a_n dt / (1 - e^(-k dt)), four
 * times faster at k dt = 4). k < 0 (a negative drag factor, Gompert 9.3.5) grows u instead, until
 * the speed limit stops it. expm1 keeps (1 - e^(-k dt)) / k accurate when k dt is tiny.
 *
 * "gompert" (his appendix, Boid::Update and Update_Behaviors, written anew from the description).
 * His Update adds the drag to the acceleration every frame, m_2acceleration += D, and steps the
 * velocity explicitly, v += m_2acceleration dt; only Update_Behaviors, every i-th frame (his 8.2,
 * our update_every), sets the acceleration afresh to the navigator's output. So in the j-th frame
 * after a behaviour update (j = 1 .. i) the step is
 *   v' = v + (s + D_1 + D_2 + ... + D_j) dt,    D_m = -k_m u_m n_m, the drag of frame m,
 * with s the navigator's steering: at i = 1 plain forward Euler in the drag, at i > 1 a drag that
 * grows through the frames between updates (rules.c sums it; this function receives the sum).
 * Along n, one frame of a lone drag maps u to u (1 - j k dt): it overshoots, reversing the climb,
 * once j k dt > 1 and grows without bound (until max_speed) once j k dt > 2, where the exact form
 * decays for any k dt. The motion therefore depends on dt and on update_every, against the rule
 * that a scenario behaves the same at any dt; it is offered by name, for fidelity to his runs
 * (his stuck herds of Figure 6, docs/experiments.md), and "exact" stays the default.
 */
#define DRAG_MAX_GROWTH 40.0  // the largest exponent of a negative drag's growth in one step

static fbVec2 add_drag(fbVec2 v_old, fbVec2 v, fbVec2 a, fbVec2 drag, double dt)
{
  if (drag.x == 0.0 && drag.y == 0.0) {  // most species: no drag rule
    return v;
  }
  double size = fbV_Length(drag);
  if (!(size > 0.0)) {
    return v;
  }
  fbVec2 n = fbV_Scale(drag, 1.0 / size);
  double u = fbV_Dot(v_old, n);
  if (fabs(u) <= FB_TINY) {
    return v;
  }
  double k = -size / u;
  double kdt = k * dt;
  double a_n = fbV_Dot(a, n);
  double u_new;
  if (kdt < -DRAG_MAX_GROWTH) {
    // A negative drag grows u away from its rest point a_n / k: u(dt) = a_n / k + (u - a_n / k) e^(-k dt),
    // the same solution written apart. A rule's drag of 1e9 on u = 1e-3 asks for e^(5e10), which
    // overflows to inf - inf = NaN. The growth stops at e^40 (2e17), on the side of the rest point
    // that the true k chose: that takes u past every speed limit (max_speed <= 1e7) unless it
    // started within 1e-10 of its rest point.
    double rest = a_n / k;
    u_new = rest + (u - rest) * fbMath_Exp(DRAG_MAX_GROWTH);
  } else {
    double share = fabs(kdt) < 1e-12 ? dt : -fbMath_Expm1(-kdt) / k;
    u_new = u * fbMath_Exp(-kdt) + a_n * share;
  }
  return fbV_Add(v, fbV_Scale(n, u_new - fbV_Dot(v, n)));
}

// `a` includes the drag in Gompert's form (fbIntegrate_Body adds it), not in the exact one.
static fbVec2 new_velocity(const fbBody *b, fbVec2 a, fbVec2 drag, const fbMotionLimits *lim, double dt)
{
  fbVec2 v = fbV_Add(b->v, fbV_Scale(a, dt));
  if (lim->drag_form == FB_DRAG_EXACT) {
    v = add_drag(b->v, v, a, drag, dt);
  }
  v = limit_turn(v, b->heading, lim->max_turn);
  return limit_speed(v, b->heading, lim->min_speed, lim->max_speed);
}

void fbIntegrate_Body(fbBody *b, fbVec2 steer, fbVec2 force, fbVec2 drag, const fbMotionLimits *lim,
                      const fbIntegrateEnv *env)
{
  FB_ASSERT(env->world_w > 0.0 && env->world_h > 0.0 && env->dt >= 0.0);
  double dt = env->dt;
  // The animal's own steering is bounded by what it can do; forces from outside (Gompert's terrain
  // drag, added after the navigator in his appendix) are not.
  fbVec2 a = fbV_Add(fbV_Truncate(steer, lim->max_accel), force);
  if (lim->drag_form == FB_DRAG_GOMPERT) {
    a = fbV_Add(a, drag);  // his m_2acceleration += drag: part of the acceleration, in 1/2 a dt^2 too
  }
  fbVec2 v = new_velocity(b, a, drag, lim, dt);
  fbVec2 moving = b->v;  // the velocity that moves the body, along which the slope factor is taken
  fbVec2 step;
  if (env->update == FB_UPDATE_SEMI_IMPLICIT) {
    moving = v;
    step = fbV_Scale(v, dt);
  } else {
    step = fbV_Scale(b->v, dt);
    if (lim->half_accel_term) {
      step = fbV_Add(step, fbV_Scale(a, 0.5 * dt * dt));
    }
  }
  fbVec2 from = b->p;
  fbVec2 to = fbV_Add(from, fbV_Scale(step, slope_factor(b->p, moving, lim, env)));
  collide(from, &to, &v, lim->body_radius, env->obstacles);

  if (env->bounds == FB_BOUNDS_CLAMP) {
    clamp_axis(&to.x, &v.x, env->world_w);
    clamp_axis(&to.y, &v.y, env->world_h);
  }
  b->moved = fbV_Length(fbV_Sub(to, from));
  b->energy += step_energy(env, from, to, b->moved);
  if (env->bounds == FB_BOUNDS_WRAP) {
    to = fbV(wrap_axis(to.x, env->world_w), wrap_axis(to.y, env->world_h));
  }

  b->p = to;
  b->v = v;
  double speed = fbV_Length(v);
  if (speed > FB_TINY) {
    b->heading = fbV_Scale(v, 1.0 / speed);
  }
}
