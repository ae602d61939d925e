// trajectory_stats.h — the statistics of a group's positions and velocities, computed alike on observed trajectories and on a run's: order, milling, spacing, speeds, groups, distances between distributions.
#ifndef FB_TRAJECTORY_STATS_H
#define FB_TRAJECTORY_STATS_H

#include <stdio.h>

#include "trajectory.h"

// One frame's agents: positions and velocities, and the world they live in (wrap: a torus W by H).
typedef struct fbFrame {
  const double *x, *y, *vx, *vy;
  int n;
  bool wrap;
  double world_w, world_h;
} fbFrame;

typedef struct fbFrameStats {
  int agents;
  double polarisation;  // |mean unit velocity|, 0..1 (measures.h's, with headings from velocities)
  double rotation;      // |mean (unit offset from the centre) x (unit velocity)|, 0..1: 1 = a mill
  double mean_nn;       // mean distance to the nearest other agent; NaN with fewer than two
  double mean_speed;
  int groups;           // clusters of agents linked by chains of distances <= link
  int largest_group;    // agents in the largest
} fbFrameStats;

// The statistics of one frame. nn and speed (each n entries, may be NULL) receive each agent's
// nearest-neighbour distance (INFINITY when alone) and speed. O(n^2): frames of data-set size.
void fbFrameStats_Compute(const fbFrame *f, double link, fbFrameStats *s, double *nn, double *speed);

// A trajectory file's statistics for one group (or every row: group -1): means over frames, and
// every agent's nearest-neighbour distance and speed of every frame pooled and sorted, as samples
// of their distributions.
typedef struct fbTrajectorySummary {
  long frames;
  double agents, polarisation, rotation, mean_nn, mean_speed, groups, largest_group;  // means over frames
  double *nn, *speed;   // sorted samples (nn without the INFINITY of lone agents)
  long nn_count, speed_count;
} fbTrajectorySummary;

// per_frame (may be NULL) receives a CSV row per frame: t,agents,polarisation,rotation,mean_nn,
// mean_speed,groups,largest_group.
void fbTrajectorySummary_Compute(const fbTrajectories *tr, int group, double link, fbTrajectorySummary *s,
                                 FILE *per_frame);
void fbTrajectorySummary_Free(fbTrajectorySummary *s);

// The q-quantile (0..1) of n sorted samples, linearly interpolated; NaN when n is 0.
double fbStats_Quantile(const double *sorted, long n, double q);

// The 1-D Wasserstein distance between two empirical distributions (sorted samples): the area
// between their CDFs. NaN when either is empty.
double fbStats_Wasserstein1(const double *a, long na, const double *b, long nb);

#endif
