// orca_stage.h — the ORCA stage of a step: each agent of an ORCA species trades its rules' steering for the nearest collision-free velocity.
#ifndef FB_ORCA_STAGE_H
#define FB_ORCA_STAGE_H

#include "orca.h"
#include "world.h"

/*
 * Runs after the rules are combined (fbRuleSet_Finish) and before integration. It reads only what
 * the step started with (positions and velocities, which nothing writes until integration) and
 * each agent's own combined steering, and writes only that agent's steering: ranges of agents may
 * run on separate threads, in any storage order, with the same result.
 *
 * For an agent of a species with orca.on:
 *   preferred velocity  v_pref = v + trunc(a, max_accel) dt, capped at max_speed: the velocity its
 *                       rules would give it next step without ORCA (integrate.c);
 *   neighbours          the orca.neighbours nearest agents within orca.distance (ties: lower id)
 *                       among its own species, the species with solid bodies (collide) and the
 *                       species running ORCA; they avoid back (half each) when their species runs
 *                       ORCA, else the agent takes all of the avoidance;
 *   obstacles           those whose surface lies within obstacle_horizon * max_speed + radius;
 *   result              a = (v_orca - v) / dt, which the integrator turns back into v_orca when the
 *                       update is semi_implicit and max_accel >= 2 max_speed / dt (fbOrcaStage_Check).
 */
typedef struct fbOrcaStage {
  fbWorld *world;
  const fbPerceptionInput *in;  // this step's grid and the arrays it was built from
  uint32_t avoided;             // species whose agents are avoided by every ORCA agent (besides its own)
  uint32_t reciprocal;          // species running ORCA
  int inspect;                  // the inspected agent's index (-1: none): its plan is kept
  fbOrcaPlan *plan;             // where the inspected agent's plan goes
  bool *planned;                // set when it went there
} fbOrcaStage;

// The species that run ORCA (bit s), 0 when none: the stage is then skipped.
uint32_t fbOrcaStage_Species(const fbWorld *w);

// The largest ORCA neighbour distance among the species running it (0 if none): the grid's cells
// are made at least half of it wide, so that a query does not walk thousands of tiny cells.
double fbOrcaStage_Reach(const fbWorld *w);

// Sets up the stage for this step.
fbOrcaStage fbOrcaStage_Begin(fbWorld *w, const fbPerceptionInput *in, int inspect, fbOrcaPlan *plan, bool *planned);

// Replaces the steering of the ORCA agents among [begin, end).
void fbOrcaStage_Run(const fbOrcaStage *stage, int begin, int end);

// Whether the integrator will move an ORCA species' agents by the velocity ORCA chose; if not, one
// line in msg says what differs (euler update, a max_accel that clips, min_speed, max_turn) for
// the warning the sim prints at load. Returns true when all is well.
bool fbOrcaStage_Check(const fbWorld *w, int s, char *msg, size_t len);

#endif
