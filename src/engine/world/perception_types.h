// perception_types.h — the data of perception: each species' vision, the agents perceived, the aggregates and neighbour lists it fills.
#ifndef FB_PERCEPTION_TYPES_H
#define FB_PERCEPTION_TYPES_H

/*
 * The data of perception, apart from its functions so that the files that work on it (perception.c,
 * sampling.c, radius_query.c) need not include one another: what a species sees (fbVision), the
 * agents and grid perceived (fbPerceptionInput), what each agent saw (fbAggregates), and a worker's
 * neighbour lists with the scratch of sampling (fbNeighbourList).
 */

#include "grid.h"
#include "species_index.h"

// What one species sees, and what its rules read of it: the values the kernels test (first, hot),
// derived from the description by fbSpeciesDef_Build's vision_of (defs.c), and the description
// itself, copied whole (def). A new vision option is read from def; only a value derived from it for
// the kernels (a cosine, a square) adds a member here and a line in vision_of.
typedef struct fbVision {
  double radius;             // neighbours farther than this are not seen; 0 sees nothing
  double cos_half_fov;       // seen if offset . heading >= |offset| * cos_half_fov; -1 (or less) = all round
  uint32_t sees;             // bit s set: agents of species s count as flock-mates
  double separation_radius;  // flock-mates closer than this add to the separation sum
  bool list;                 // keep each agent's list of flock-mates (a rule walks them)
  bool nearest;              // find each agent's nearest flock-mate (a rule reads it)
  int sample;                // > 0: every flock-mate within separation_radius and a random sample of this many others (Gamlen); 0: all
  bool gamlen;               // with sample: k looks among those within radius along each axis (FB_SAMPLING_GAMLEN), not k of those in view
  fbVisionDef def;           // as the scenario (or --set, or the panel) wrote it: degrees, names; read by
                             // the panel, the rules' species table and the window, never by the kernels
} fbVision;

typedef struct fbPerceptionInput {
  const double *px, *py, *vx, *vy, *hx, *hy;  // hx, hy: unit heading
  const uint32_t *id;          // ties between equally near agents go to the lower id
  const uint8_t *species;
  const uint8_t *active;       // agents with active[i] == 0 are neither perceived nor perceiving (NULL: all are)
  int count;
  int species_count;           // species there are (0: unknown); a species that sees all of them skips a test
  const fbVision *vision;      // indexed by species
  const fbGrid *grid;          // built from these positions, with the agents stored in its order
  const fbSpeciesIndex *members;  // each species' agents, for searches after a few of them (NULL: none)
  uint64_t seed, step;         // draw the samples of species with vision.sample
} fbPerceptionInput;

// Neighbour aggregates, one entry per agent, computed once per step and shared by all rules.
typedef struct fbAggregates {
  int *n;               // flock-mates seen
  double *cx, *cy;      // centre of the seen flock-mates (own position if none); on a torus, own position + mean offset
  double *avx, *avy;    // their mean velocity (0 if none)
  double *sx, *sy;      // separation sum: sum of (own - their) position offsets of those within separation_radius (Parker rule 2)
  double *nearest;      // species with vision.nearest: distance to the nearest one seen (INFINITY if none)
  int *first;           // species with vision.list: where agent i's flock-mates start in its worker's list
  int capacity;
} fbAggregates;

// One worker's neighbour lists: entries [first[i], first[i] + n[i]) belong to agent i, in grid order.
typedef struct fbNeighbourList {
  int *index;            // agent index of the neighbour
  double *dx, *dy;       // offset from the perceiving agent to the neighbour
  double *dist;          // |offset|
  int len, capacity;
  fbCellRun *run;            // scratch for vision.sample: the runs of one agent's block (then its separation box's)
  int run_capacity;
  uint64_t *slot;            // scratch for Gamlen's looks: the block's candidates (agent | run << 32), in the order drawn
  int slot_capacity;
  struct fbFarWord *far;     // scratch for vision.sample: a bit per candidate, set for a far flock-mate (sampling.c)
  int far_capacity;
} fbNeighbourList;

#endif
