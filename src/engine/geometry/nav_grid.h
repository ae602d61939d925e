// nav_grid.h — a grid of where a body of a given radius may stand among the obstacles, and the shortest taut paths across it (A*, then string pulling).
#ifndef FB_NAV_GRID_H
#define FB_NAV_GRID_H

#include <stdint.h>

#include "fb.h"
#include "obstacles.h"

/*
 * Cell (i, j) covers [i h, (i + 1) h) x [j h, (j + 1) h) of the world, h the cell's side, and is
 * free when a disc of radius `clearance` centred on the cell's centre meets no obstacle (and, with
 * walls, no world edge). A gap is certain to be open on the grid when it is at least 2 clearance +
 * h wide (narrower ones may be missed by the centres). The grid owns the scratch arrays of its
 * searches: one grid is used by one thread at a time.
 */
typedef struct fbNavGrid {
  int nx, ny;
  double cell, clearance;
  uint8_t *blocked;  // nx * ny, row by row: 1 where a body cannot stand
  // A*'s scratch, kept between searches: cost so far, the cell it came from, and the search that
  // last wrote them (a stale stamp means "not reached", so nothing is cleared between searches).
  double *cost;
  int32_t *from;
  uint32_t *stamp;
  uint32_t search;
  struct fbNavOpen *open;  // the open set, a binary heap
  int open_count, open_capacity;
  int32_t *cells;  // a found path, cell by cell, and its length
  int cell_count;
  int expanded;    // cells the last search closed (for the benchmark)
} fbNavGrid;

// Rasterises the obstacles (and the edges when walls) for bodies of radius clearance on cells of
// side `cell` over a width x height world. Frees what g held before.
void fbNavGrid_Build(fbNavGrid *g, const fbObstacles *o, double width, double height, bool walls, double cell,
                     double clearance);
void fbNavGrid_Free(fbNavGrid *g);

// Whether a body may stand on cell (i, j) (false outside the grid).
bool fbNavGrid_IsFree(const fbNavGrid *g, int i, int j);

// Whether the segment from a to b crosses free cells only (every cell it touches).
bool fbNavGrid_LineOfSight(const fbNavGrid *g, fbVec2 a, fbVec2 b);

// How far (in cells) a blocked start or goal is moved to the nearest free cell; beyond, no path.
#define FB_NAV_RINGS 8

// The shortest path on the grid from the cell of `from` to the cell of `to` (each moved to the
// nearest free cell within FB_NAV_RINGS when blocked), pulled taut: the waypoints after the start
// cell's centre, the last the goal (`to` itself when its cell is free), written to out (at most
// max >= 2; a longer path is cut and ends short of the goal). Returns how many (1 when the start
// cell holds the goal); 0 when the goal cannot be reached. A pure function of the grid, the cell
// of `from` and `to`: the same on every thread and every call.
int fbNavGrid_FindPath(fbNavGrid *g, fbVec2 from, fbVec2 to, fbVec2 *out, int max);

// The cell index (j nx + i) of p, clamped onto the grid; and the nearest free cell to it within
// `rings` rings of cells (itself first), -1 if none.
int fbNavGrid_CellOf(const fbNavGrid *g, fbVec2 p);
int fbNavGrid_NearestFree(const fbNavGrid *g, int cell, int rings);

#endif
