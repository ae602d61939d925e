// orca.h — optimal reciprocal collision avoidance (van den Berg, Guy, Lin & Manocha 2011): the half-planes of one agent and the velocity they allow.
#ifndef FB_ORCA_H
#define FB_ORCA_H

#include "fb.h"
#include "obstacles.h"

#define FB_ORCA_MAX_NEIGHBOURS 64  // agents one agent avoids at most (a species' orca.neighbours)
#define FB_ORCA_MAX_OBSTACLES 16   // obstacles within reach taken into account, nearest index first
#define FB_ORCA_MAX_OBSTACLE_LINES 32  // their pieces (circles, polygon edges facing the agent), nearest first
#define FB_ORCA_MAX_LINES (FB_ORCA_MAX_NEIGHBOURS + FB_ORCA_MAX_OBSTACLE_LINES)

/*
 * A half-plane of velocities: those v with cross(dir, v - point) >= 0, the left of the directed line
 * through `point` along unit `dir` (in a y-down world, left as the cross product counts it). The
 * allowed side's unit normal is perp(dir) = (-dir.y, dir.x).
 */
typedef struct fbOrcaLine {
  fbVec2 point, dir;
} fbOrcaLine;

// An agent as another sees it: where it is, how it moves, how big it is, whether it avoids too.
typedef struct fbOrcaBody {
  fbVec2 p, v;
  double radius;
  bool reciprocal;  // it runs ORCA as well: each takes half of the avoidance
  int precedence;   // when reciprocal: > 0 the agent avoiding it outranks it and takes no share of the
                    // avoidance (fbOrca_Plan adds no line), < 0 it outranks that agent, who takes all;
                    // 0 half each (orca_stage.h)
} fbOrcaBody;

typedef struct fbOrcaSettings {
  double time_horizon;      // tau: agents are avoided for this long, seconds
  double obstacle_horizon;  // tau_o: obstacles likewise
  double dt;                // the step: the horizon of a collision already under way
  double max_speed;         // the radius of the velocity disc the solution keeps to
  double keep_right;        // radians: an agent that must give way aims this far right of its preferred velocity
} fbOrcaSettings;

// One agent's problem and its answer, kept for the inspector: the half-planes in the order solved
// (obstacles first, then agents nearest first), the preferred and the chosen velocity.
typedef struct fbOrcaPlan {
  fbOrcaLine lines[FB_ORCA_MAX_LINES];
  int count;           // half-planes in lines
  int obstacle_count;  // the first obstacle_count are the obstacles': kept hard when infeasible
  fbVec2 preferred;    // what the rules asked for
  fbVec2 aim;          // what the program sought: preferred, or turned by keep_right when giving way
  fbVec2 chosen;       // the velocity ORCA allows closest to it
  bool fallback;       // the half-planes had no common velocity: the least-violation program chose
} fbOrcaPlan;

// ORCA_{A|B}: the half-plane agent `self` must keep to so as not to collide with `other` within the
// time horizon (or, already overlapping, to leave it within one step). Section 4.
fbOrcaLine fbOrca_AgentLine(const fbOrcaBody *self, const fbOrcaBody *other, const fbOrcaSettings *s);

// ORCA_{A|O} for obstacles[0 .. n) (indices into o): the lines of their pieces within reach of
// self (circles, polygon edges facing it), nearest piece first, written to out (room for
// FB_ORCA_MAX_OBSTACLE_LINES); returns how many. Section 5.3 as RVO2 builds it, v_opt = self->v.
// Velocity 0 lies in every one of them: together they are always feasible.
int fbOrca_ObstacleLines(const fbObstacles *o, const int *obstacles, int n, const fbOrcaBody *self,
                         const fbOrcaSettings *s, fbOrcaLine *out);

// The velocity within max_speed of 0 closest to `preferred` inside every line; when there is none,
// the one minimising the largest violation of lines[obstacle_count ..] while keeping the first
// obstacle_count (*fallback is then true). Lines are taken in the order given: the result is the
// same on every run. Section 5.2 (2-D program) and 5.3 (3-D program).
fbVec2 fbOrca_Solve(const fbOrcaLine *lines, int count, int obstacle_count, fbVec2 preferred, double max_speed,
                    bool *fallback);

// The velocity the program seeks: `preferred` if every agent line among lines[obstacle_count ..
// count) allows it, else `preferred` turned by s->keep_right to the agent's right.
fbVec2 fbOrca_Aim(const fbOrcaLine *lines, int count, int obstacle_count, fbVec2 preferred, const fbOrcaSettings *s);

// Fills plan: the obstacle lines for obstacles[0 .. obstacle_n) (indices into o), then the agent
// lines for others[0 .. n) in that order, and solves them for `preferred` (turned by s->keep_right
// when an agent line forbids it: fbOrca_Aim).
void fbOrca_Plan(fbOrcaPlan *plan, const fbOrcaBody *self, fbVec2 preferred, const fbOrcaBody *others, int n,
                 const fbObstacles *o, const int *obstacles, int obstacle_n, const fbOrcaSettings *s);

#endif
