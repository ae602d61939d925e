// trajectory.h — trajectories as data: the CSV of positions over time (t, id, x, y [, vx, vy, group]) that runs write and observations are read from.
#ifndef FB_TRAJECTORY_H
#define FB_TRAJECTORY_H

#include <stdbool.h>
#include <stdio.h>

#include "sim.h"

/*
 * The format (docs/fitting.md, "Trajectories"):
 *   # flockbox trajectories: fps=25 unit=m world=200,200 wrap=0
 *   t,id,x,y,vx,vy,group
 *   0,1,12.5,3.25,0.5,0,fish
 * Comment lines start with '#'; in them the words fps=F (frames per second), unit=U (the unit of
 * length), world=W,H and wrap=0|1 (a torus of W by H: offsets then go to the nearest image) are read,
 * others ignored. The first other line names the columns: t (seconds), id (a whole number), x and y
 * are required; vx, vy (unit per second) and group (a name) optional; other columns are ignored.
 * Rows of one frame share their t and come together, frames in increasing t; an id appears at most
 * once per frame. Without vx, vy the velocities are differences of positions between frames.
 */
#define FB_TRAJECTORY_MAX_GROUPS 32

typedef struct fbTrajectories {
  double fps;              // 0 when the file does not say
  char unit[32];           // "" when the file does not say
  double world_w, world_h; // 0 when the file does not say
  bool wrap;               // the world is a torus of world_w by world_h
  long rows;
  double *t, *x, *y, *vx, *vy;
  long long *id;
  int *group;              // index into groups (0 when the file has no group column)
  bool has_velocity;       // read from the file, not differenced
  char groups[FB_TRAJECTORY_MAX_GROUPS][64];
  int group_count;         // at least 1
  long frames;
  long *frame_start;       // frames + 1 entries: frame f is rows frame_start[f] .. frame_start[f+1]-1
} fbTrajectories;

// Reads path. On failure returns false with one message in err naming the file, the line and the
// column ("data.csv:12: column 3 (x): expected a number, got 'abc'"); tr is then empty.
bool fbTrajectories_Read(fbTrajectories *tr, const char *path, char *err, size_t errlen);
void fbTrajectories_Free(fbTrajectories *tr);

// Writing a run's own trajectories, a frame every `every` steps.
typedef struct fbTrajectoryWriter {
  FILE *file;
  long every;
  long long last_step;     // the step of the last frame written, -1 before the first
} fbTrajectoryWriter;

// Opens path (nothing yet or a regular file) and writes the header for sim's world; path NULL:
// writes nothing, and the calls below do nothing.
bool fbTrajectoryWriter_Open(fbTrajectoryWriter *w, const char *path, const fbSim *sim, long every, char *err,
                             size_t errlen);
// A frame of every agent at the current step, if the step is a multiple of every (or force).
void fbTrajectoryWriter_Frame(fbTrajectoryWriter *w, const fbSim *sim, bool force);
// Closes the file; false if writing it failed.
bool fbTrajectoryWriter_Close(fbTrajectoryWriter *w);

#endif
