// grid.h — the uniform grid that keeps agents in spatial order, and the one iterator over the cells round a point.
#ifndef FB_GRID_H
#define FB_GRID_H

#include "fb.h"

/*
 * fbGrid_Build sorts agents by cell (and by id inside a cell) and gives the permutation in
 * `order`; once the caller has stored its agents in that order (fbWorld_Reorder), the agents of
 * cell c are the index range [cell_start[c], cell_start[c + 1]) and a row of cells is one
 * contiguous range too. Every spatial query walks the same block of cells through fbBlock.
 */
typedef struct fbGrid {
  double cell;            // the reach one ring of cells guarantees: min(cell width, cell height)
  int nx, ny;
  double world_w, world_h;
  double inv_w, inv_h;    // cells per world unit along x and y
  bool wrap;              // torus: offsets use the nearest periodic image
  int *cell_start;        // nx * ny + 1, valid for agents stored in `order`
  int *cell_of;           // count: cell of each agent, in the order before the sort
  int *order;             // count: order[k] = the index, before the sort, of the k-th agent in cell order
  bool identity;          // order is 0, 1, 2, ...: the agents were already sorted
  bool inside;            // every position is inside [0, W) x [0, H) (integration keeps them there on a
                          // torus; agents spawned past an edge are not yet): runs may then be shifted
  int count, capacity, cell_capacity;
} fbGrid;

void fbGrid_Init(fbGrid *g);
void fbGrid_Free(fbGrid *g);

// Cells at least cell_size wide (at most 4096 per side, and not many more cells than agents), then
// a counting sort of the agents by cell, ids ascending inside each cell (id may be NULL: indices).
void fbGrid_Build(fbGrid *g, const double *px, const double *py, const uint32_t *id, int count, double world_w,
                  double world_h, double cell_size, bool wrap);

// Offset from a to b, through the nearest periodic image when the grid wraps.
fbVec2 fbGrid_Offset(const fbGrid *g, fbVec2 a, fbVec2 b);

// Nearest periodic image of an offset component along a wrapping axis of length size: the one
// shortest-way-round rule of the torus, for fbGrid_Offset, the perception kernels and the collision
// pass alike, so that they agree to the bit on which image is nearest.
static inline double fbGrid_MinImage(double d, double size)
{
  if (d > 0.5 * size || d < -0.5 * size) {
    d -= size * floor(d / size + 0.5);
  }
  return d;
}

// The cell of a point: clamped into the border cells, or on a torus wrapped first; NaN to cell 0.
int fbGrid_CellOf(const fbGrid *g, double x, double y);

// A run of agents in one row of a block: indices [begin, end). Their offsets from the point the
// block is round are (px - x + sx, py - y + sy): a run seen through a wrapped edge is shifted by a
// whole world. When no one shift fits every agent (the block covers a whole wrapping axis, or some
// position lies outside the world), min_image says to take the nearest image point by point.
typedef struct fbCellRun {
  int begin, end;
  double sx, sy;
  bool min_image;
} fbCellRun;

// The block of cells within a radius of a point: up to four rectangles of cells (two where it wraps
// across each seam), each with its shift, visited rectangle by rectangle, each row by row.
typedef struct fbBlockRect {
  int row_lo, row_hi, col_lo, col_hi;
  double sx, sy;
} fbBlockRect;

typedef struct fbBlock {
  const fbGrid *g;
  fbBlockRect rect[4];
  int rects;
  bool min_image;
  int q, row;             // where the walk is: rectangle q, its next row
} fbBlock;

// Rings of cells that reach `radius` along x and along y (computed once per radius, not per agent).
void fbGrid_Rings(const fbGrid *g, double radius, int *kx, int *ky);

void fbBlock_Begin(fbBlock *b, const fbGrid *g, double x, double y, double radius);
void fbBlock_BeginRings(fbBlock *b, const fbGrid *g, double x, double y, int kx, int ky);

// Only the cells that the square [x - radius, x + radius] x [y - radius, y + radius] overlaps: for
// a radius well under a cell, one to four cells instead of the 3 x 3 of a ring (bodies.c's reach).
void fbBlock_BeginBox(fbBlock *b, const fbGrid *g, double x, double y, double radius);

// The next run of a block whose walk is at rectangle *q, row *row; false when the block is done.
// The cursor is apart from the block so that a hot loop can keep it in registers.
static inline bool fbBlock_NextAt(const fbBlock *b, int *q, int *row, fbCellRun *run)
{
  while (*row > b->rect[*q].row_hi) {
    if (++*q >= b->rects) {
      return false;
    }
    *row = b->rect[*q].row_lo;
  }
  const fbBlockRect *r = &b->rect[*q];
  const int *start = b->g->cell_start + (*row)++ * b->g->nx;
  run->begin = start[r->col_lo];
  run->end = start[r->col_hi + 1];
  run->sx = r->sx;
  run->sy = r->sy;
  run->min_image = b->min_image;
  return true;
}

// The next run of the block; false when the block is done.
static inline bool fbBlock_Next(fbBlock *b, fbCellRun *run) { return fbBlock_NextAt(b, &b->q, &b->row, run); }

#endif
