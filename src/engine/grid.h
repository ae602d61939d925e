// grid.h — uniform spatial grid rebuilt each step, and per-agent perception of flock-mates.
#ifndef FB_GRID_H
#define FB_GRID_H

#include "fb.h"

// Agents bucketed by cell with a counting sort: cell_start[c]..cell_start[c+1] indexes `sorted`,
// which holds agent indices in ascending order inside each cell (so sums over neighbours have a
// fixed order and results never depend on thread count).
typedef struct fbGrid {
  double cell;            // cell side (>= the largest vision radius)
  int nx, ny;
  double world_w, world_h;
  bool wrap;              // torus: offsets use the nearest periodic image
  int *cell_start;        // nx*ny + 1
  int *sorted;            // count agent indices
  int *cell_of;           // count: cell of each agent
  double *sorted_x, *sorted_y;  // count: px, py copied in the order of `sorted` (added: cells are scanned in sequence)
  int count, capacity, cell_capacity;
} fbGrid;

void fbGrid_Init(fbGrid *g);
void fbGrid_Free(fbGrid *g);

// cell_size is clamped so that the grid has at most about 4096 cells per side.
void fbGrid_Build(fbGrid *g, const double *px, const double *py, int count,
                  double world_w, double world_h, double cell_size, bool wrap);

// Offset from a to b, through the nearest periodic image when the grid wraps.
fbVec2 fbGrid_Offset(const fbGrid *g, fbVec2 a, fbVec2 b);

// What one species sees.
typedef struct fbVision {
  double radius;             // neighbours farther than this are not seen; 0 sees nothing
  double cos_half_fov;       // seen if offset . heading >= |offset| * cos_half_fov; -1 (or less) = all round
  uint32_t sees;             // bit s set: agents of species s count as flock-mates
  double separation_radius;  // flock-mates closer than this add to the separation sum
} fbVision;

typedef struct fbPerceptionInput {
  const double *px, *py, *vx, *vy, *hx, *hy;  // hx, hy: unit heading
  const uint8_t *species;
  const uint8_t *active;       // agents with active[i] == 0 are neither perceived nor perceiving (may be NULL)
  int count;
  const fbVision *vision;      // indexed by species
  const fbGrid *grid;          // built from px, py this step
} fbPerceptionInput;

// Neighbour aggregates, one entry per agent, computed once per step and shared by all rules.
typedef struct fbAggregates {
  int *n;               // flock-mates seen
  double *cx, *cy;      // centre of the seen flock-mates (own position if none); on a torus, own position + mean offset
  double *avx, *avy;    // their mean velocity (0 if none)
  double *sx, *sy;      // separation sum: sum of (own - their) position offsets of those within separation_radius (Parker rule 2)
  double *nearest;      // distance to the nearest seen flock-mate (INFINITY if none)
  int *nearest_index;   // its agent index (-1 if none)
  int *first;           // where agent i's neighbours start in the list of the worker that perceived it
  int capacity;
} fbAggregates;

// One worker's neighbour lists: entries [first[i], first[i] + n[i]) belong to agent i, in grid order.
typedef struct fbNeighbourList {
  int *index;            // agent index of the neighbour
  double *dx, *dy;       // offset from the perceiving agent to the neighbour
  double *dist;          // |offset|
  int len, capacity;
} fbNeighbourList;

void fbAggregates_Reserve(fbAggregates *a, int count);
void fbAggregates_Free(fbAggregates *a);
void fbNeighbourList_Free(fbNeighbourList *l);

// Perception for agents [begin, end): resets `list` and fills it and the aggregates of those agents.
// Safe to run concurrently on disjoint ranges with separate lists.
void fbPerceive(const fbPerceptionInput *in, int begin, int end, fbAggregates *agg, fbNeighbourList *list);

// Nearest agent to p within radius whose species bit is in species_mask, skipping `exclude`
// (an agent index, or -1) and inactive agents; no field-of-view test. Returns the index or -1.
int fbGrid_Nearest(const fbPerceptionInput *in, fbVec2 p, double radius, uint32_t species_mask,
                   int exclude, double *distance);

// Calls visit(index, offset, distance, user) for every agent within radius of p whose species bit is
// in species_mask (inactive ones skipped), in ascending index order within each cell. Returns the count.
int fbGrid_ForEach(const fbPerceptionInput *in, fbVec2 p, double radius, uint32_t species_mask,
                   void (*visit)(int index, fbVec2 offset, double distance, void *user), void *user);

#endif
