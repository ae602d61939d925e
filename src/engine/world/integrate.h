// integrate.h — moving one body one fixed step: limits, slope correction, bounds, collisions, energy.
#ifndef FB_INTEGRATE_H
#define FB_INTEGRATE_H

#include "fb.h"
#include "obstacles.h"
#include "terrain.h"

// fbBounds and fbUpdate, which a program chooses for its world, are in flockbox.h.

typedef struct fbMotionLimits {
  double max_speed;     // > 0
  double min_speed;     // >= 0, <= max_speed
  double max_accel;     // bounds the steering; forces (terrain drag) come on top
  double max_turn;      // radians per step the velocity direction may turn; >= pi means unlimited
  double body_radius;   // for collisions with obstacles and other bodies
  bool half_accel_term; // Gompert eq. 1: add 1/2 a dt^2 to the position (FB_UPDATE_EULER only)
  bool slope_correction;// Gompert eq. 10: move by v / sqrt(s_v^2 + 1)
  fbDragForm drag_form; // FB_DRAG_EXACT, or Gompert's explicit form (see add_drag in integrate.c)
} fbMotionLimits;

typedef struct fbIntegrateEnv {
  const fbTerrain *terrain;
  bool flat;                     // flat ground: no terrain to sample (fbIntegrate_Env sets it)
  double flat_energy;            // fbEnergy_PerDistance(0), the cost per distance on flat ground
  const fbObstacles *obstacles;  // may be NULL
  double dt;
  double world_w, world_h;
  fbBounds bounds;
  fbUpdate update;               // FB_UPDATE_EULER unless set after fbIntegrate_Env
} fbIntegrateEnv;

typedef struct fbBody {
  fbVec2 p, v;
  fbVec2 heading;   // unit; kept when the body stops
  double energy;    // accumulated over the run
  double moved;     // written by fbIntegrate_Body: the length of this step's move, before wrapping
} fbBody;

// The environment of a step; flat ground is noted once so that no agent samples the terrain.
fbIntegrateEnv fbIntegrate_Env(const fbTerrain *terrain, const fbObstacles *obstacles, double dt, double world_w,
                               double world_h, fbBounds bounds);

// One step by env->update: forward Euler (Gompert eq. 1-2, position from the old velocity) or
// semi-implicit Euler (Parker, position from the new, limited velocity). `steer` is the accumulator's result, truncated to max_accel; `force` is added
// after it untruncated, as in Gompert's appendix where the terrain drag joins the navigator's output.
// `drag` is the sum of the linear drags (-k (v . n) n), integrated exactly along n with the rest
// (lim->drag_form FB_DRAG_EXACT), or added to the acceleration as Gompert's code does (FB_DRAG_GOMPERT;
// the caller then passes the drags summed since the last steering update).
void fbIntegrate_Body(fbBody *b, fbVec2 steer, fbVec2 force, fbVec2 drag, const fbMotionLimits *lim,
                      const fbIntegrateEnv *env);

// Keeps a body moved after integration (pushed out of another) inside the world, by the rule
// fbIntegrate_Body applies: clamped to the walls with its outward velocity stopped, or wrapped.
void fbIntegrate_Bound(fbVec2 *p, fbVec2 *v, fbBounds bounds, double world_w, double world_h);

// Energy spent per unit of distance walked on a slope s (rise over run along the motion), after
// Gompert Figure 7: least at s = -0.1, rising to finite maxima uphill and (1/5 of it) downhill.
double fbEnergy_PerDistance(double slope);

#endif
