// route_field.h — route fields: the least cost to a goal over a grid by fast marching (Sethian 1996), and its descent as a flow field's velocity.
#ifndef FB_ROUTE_FIELD_H
#define FB_ROUTE_FIELD_H

#include "fb.h"

#define FB_ROUTE_MAX_GOALS 16
#define FB_ROUTE_MAX_CELLS (1 << 20)  // as a flow field's samples (FB_FLOW_MAX_CELLS), one per cell

// One cell of a route grid: what the march found there.
enum {
  FB_ROUTE_UNREACHED = 0,  // no path from a goal: velocity 0, distance unknown
  FB_ROUTE_FREE = 1,       // reached through free cells: the route itself
  FB_ROUTE_ESCAPE = 2,     // a blocked cell (within the clearance of a wall), given a way out to free space
};

// A grid of cols x rows cells over [0, width] x [0, height], laid out like a flow field's samples
// (cell (i, j) centred at ((i + 1/2) hx, (j + 1/2) hy), index j * cols + i). The caller fills cost,
// blocked and the goals; fbRoute_Solve fills distance, reach and the velocities.
typedef struct fbRoute {
  int cols, rows;
  double width, height, hx, hy;
  bool wrap;               // a torus: cells on opposite edges are neighbours
  double speed;            // |velocity| written where the route leads somewhere, units/s
  double *cost;            // owned: cost per unit length of crossing the cell, finite, >= 0
  unsigned char *blocked;  // owned: 1 where no route may pass (a wall and its clearance)
  unsigned char *goal;     // owned: 1 for a cell of the goal region (distance 0)
  fbVec2 points[FB_ROUTE_MAX_GOALS];  // goal points, besides the region's cells
  int point_count;
  double *distance;        // owned: least cost to the nearest goal; 0 where unreached
  unsigned char *reach;    // owned: FB_ROUTE_UNREACHED, _FREE or _ESCAPE per cell
  int *heap, *slot;        // owned: the march's narrow band (a binary heap) and each cell's place in it
  int *source;             // owned: for a cell reached as an escape, the free cell its T came from
} fbRoute;

// A route grid of cols x rows cells over width x height, every cell free, of cost 1, no goal.
// false with a message for a grid of no or too many cells (FB_ROUTE_MAX_CELLS).
bool fbRoute_Init(fbRoute *r, int cols, int rows, double width, double height, bool wrap, double speed, char *err,
                  size_t errlen);
void fbRoute_Free(fbRoute *r);

// The cell holding (x, y), clamped to the grid.
int fbRoute_CellAt(const fbRoute *r, double x, double y);

// Replaces the goal points by these n (at most FB_ROUTE_MAX_GOALS; the goal region's cells stay).
void fbRoute_SetGoals(fbRoute *r, const fbVec2 *points, int n);

// The goal becomes the one point p: the goal points are replaced and the goal region cleared.
void fbRoute_MoveGoal(fbRoute *r, fbVec2 p);

// Marches from the goals and writes the velocity of every cell into vx, vy (cols * rows each):
// speed along the steepest descent of the distance, 0 at a goal and where unreached. Returns the
// count of cells reached through free space.
int fbRoute_Solve(fbRoute *r, double *vx, double *vy);

// The distance to the goal at (x, y), bilinear over the reached cells round it; -1 where none is.
double fbRoute_Distance(const fbRoute *r, double x, double y);

#endif
