// trails.h — where every agent was over the last seconds of simulated time, and its fading tail drawn.
#ifndef FB_TRAILS_H
#define FB_TRAILS_H

#include "camera.h"
#include "sim.h"
#include "splat.h"

// Trails keep at most this many snapshots over their length, however long it is.
#define FB_TRAIL_SNAPSHOTS 64
#define FB_TRAIL_SECONDS_MIN 0.5
#define FB_TRAIL_SECONDS_MAX 30.0
#define FB_TRAIL_SECONDS_DEFAULT 4.0

// Where every agent was over the last `seconds` of simulated time: a ring of snapshots, one every
// fbTrails_Interval steps so that the length needs at most FB_TRAIL_SNAPSHOTS of them. A
// snapshot is indexed by agent id (from first_id; NaN where that id was not alive).
typedef struct fbTrails {
  int count[FB_TRAIL_SNAPSHOTS];      // ids covered: first_id .. first_id + count - 1
  int capacity[FB_TRAIL_SNAPSHOTS];
  uint32_t first_id[FB_TRAIL_SNAPSHOTS];
  float *x[FB_TRAIL_SNAPSHOTS], *y[FB_TRAIL_SNAPSHOTS];
  uint64_t step[FB_TRAIL_SNAPSHOTS];  // the sim step each snapshot was taken after
  int newest;             // snapshot written last
  int filled;             // snapshots holding data
  double seconds;         // length of a trail in simulated seconds
  int every;              // the last frame drew the trails of 1 agent in this many (0: none)
} fbTrails;

// The width in pixels of a trail's dark under-stroke (the line over it is narrower).
#define FB_TRAIL_UNDER_WIDTH 4.0f

// Empty, FB_TRAIL_SECONDS_DEFAULT long; fbTrails_Free releases the snapshots and keeps the length.
void fbTrails_Init(fbTrails *t);
void fbTrails_Free(fbTrails *t);

// Forget every snapshot (the sim was reloaded or went back).
void fbTrails_Clear(fbTrails *t);

// Remember the agents' positions after a step: call it after every step; it keeps one snapshot every
// fbTrails_Interval steps.
void fbTrails_Record(fbTrails *t, const fbSim *sim);

// The length in simulated seconds, clamped to [FB_TRAIL_SECONDS_MIN, FB_TRAIL_SECONDS_MAX]. The
// recorded trail grows to a new, longer length as the sim runs; a shorter one is cut at once.
void fbTrails_SetSeconds(fbTrails *t, double seconds);

// Steps between two snapshots for trails of `seconds` at time step dt: ceil(seconds / dt / FB_TRAIL_SNAPSHOTS).
int fbTrails_Interval(double seconds, double dt);

// How many simulated seconds back the recorded trail reaches now.
double fbTrails_Age(const fbTrails *t, const fbSim *sim);

// Agent i's trail into the canvas, newest piece first, fading to nothing at the trail's length: pass 0
// the wider dark under-stroke, pass 1 the line, in colour rgb (0xRRGGBB).
void fbTrails_DrawAgent(const fbTrails *t, fbSplat *canvas, const fbSim *sim, const fbCamera *cam, int agent,
                        uint32_t rgb, int pass);

#endif
