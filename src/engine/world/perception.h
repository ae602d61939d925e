// perception.h — what each agent sees of its flock-mates, once per step, and the queries rules and the viewer make of the grid.
#ifndef FB_PERCEPTION_H
#define FB_PERCEPTION_H

#include "grid.h"
#include "species_index.h"

// What one species sees, and what its rules read of it.
typedef struct fbVision {
  double radius;             // neighbours farther than this are not seen; 0 sees nothing
  double cos_half_fov;       // seen if offset . heading >= |offset| * cos_half_fov; -1 (or less) = all round
  uint32_t sees;             // bit s set: agents of species s count as flock-mates
  double separation_radius;  // flock-mates closer than this add to the separation sum
  bool list;                 // keep each agent's list of flock-mates (a rule walks them)
  bool nearest;              // find each agent's nearest flock-mate (a rule reads it)
  int sample;                // > 0: every flock-mate within separation_radius and a random sample of this many others (Gamlen); 0: all
  bool gamlen;               // with sample: k looks among those within radius along each axis (FB_SAMPLING_GAMLEN), not k of those in view
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
  struct fbFarWord *far;     // scratch for vision.sample: a bit per candidate, set for a far flock-mate (perception.c)
  int far_capacity;
} fbNeighbourList;

void fbAggregates_Reserve(fbAggregates *a, int count);
void fbAggregates_Free(fbAggregates *a);
void fbNeighbourList_Free(fbNeighbourList *l);

// Perception for agents [begin, end): fills their aggregates and, for species that keep one, their
// lists (list is reset first and serves as scratch otherwise). Of a species with vision.sample = k,
// an agent perceives every flock-mate in view closer than vision.separation_radius (collision
// avoidance is never sampled) and k of the others drawn at random (all of them if no more than k;
// the same on any thread count and storage order): aggregates, nearest and list then cover only
// those, n = close ones + drawn ones. Safe to run concurrently on disjoint ranges with separate lists.
void fbPerceive(const fbPerceptionInput *in, int begin, int end, fbAggregates *agg, fbNeighbourList *list);

// The instruction set of fbPerceive (perception.c): plain C, one candidate at a time, or AVX2, four at
// a time. Both give the same bits.
typedef enum fbSimd { FB_SIMD_SCALAR, FB_SIMD_AVX2, FB_SIMD_BEST } fbSimd;

// The level fbPerceive runs at from now on: the best this CPU has at most `level`. FB_SIMD_BEST (the
// default) is the best there is, unless the environment says FB_SIMD=scalar. For tests and
// benchmarks; not to be called while a step runs. Returns the level it will use.
fbSimd fbPerception_UseSimd(fbSimd level);

// When fbPerception_Nearest scans the wanted species' members (perception.c) instead of walking the
// grid: when cheaper (the default), always (where the two are known to agree) or never. Both give
// the same answer to the bit; for tests and benchmarks, not to be called while a step runs.
typedef enum fbMemberScan { FB_MEMBERS_WHEN_CHEAPER, FB_MEMBERS_ALWAYS, FB_MEMBERS_NEVER } fbMemberScan;
void fbPerception_ScanMembers(fbMemberScan when);

// What agent i sees, whatever its species keeps: its flock-mates into list (reset), exactly as
// fbPerceive would list them, and the distance to the nearest (INFINITY if none). Returns how many.
int fbPerceive_One(const fbPerceptionInput *in, int i, fbNeighbourList *list, double *nearest);

// Nearest agent to p within radius whose species bit is in species_mask, skipping `exclude` (an
// index, or -1) and inactive agents; no field of view. Ties go to the lower id. Writes its offset
// from p and distance (either may be NULL); returns its index or -1. An infinite radius searches
// outward until something is found.
int fbPerception_Nearest(const fbPerceptionInput *in, fbVec2 p, double radius, uint32_t species_mask, int exclude,
                         fbVec2 *offset, double *distance);

// Calls visit(index, offset, distance, user) for every agent within radius of p whose species bit is
// in species_mask (inactive ones skipped), in grid order. Returns the count.
int fbPerception_ForEach(const fbPerceptionInput *in, fbVec2 p, double radius, uint32_t species_mask,
                         void (*visit)(int index, fbVec2 offset, double distance, void *user), void *user);

#endif
