// bodies.h — animals as solid discs: the overlaps a step leaves are pushed apart after integration (Gompert 8.1).
#ifndef FB_BODIES_H
#define FB_BODIES_H

#include "world.h"

/*
 * One pass pushes apart every pair of bodies that overlaps, reading a snapshot (the agents'
 * arrays, which no range writes during fbBodies_Resolve) and writing into scratch arrays that
 * fbBodies_Commit copies back once every range is done. A step runs up to
 * world.collision_iterations passes. Ranges of agents may run on separate threads; the result
 * depends on neither the split nor the storage order.
 */
typedef struct fbBodies {
  // The pass, set by fbBodies_Begin and read by every range.
  fbWorld *world;
  const fbGrid *grid;            // this step's grid, built on the positions before integration
  uint32_t solid;                // bit s: species s collides
  double r_max;                  // the largest body radius among them
  double reach;                  // how far from the grid's positions a body may be now
  // What the pass computed, for the agents with moved[i] set.
  double *px, *py, *vx, *vy;
  uint8_t *moved;
  int capacity;
} fbBodies;

void fbBodies_Free(fbBodies *b);

// Species whose bodies collide (bit s set): a pair collides when both bits are set.
uint32_t fbBodies_Solid(const fbWorld *w);

// Sets up a pass over w's agents, stored in the order g was built in. reach bounds how far any
// agent has moved since g was built (wrapped worlds: the shortest way), so that the pass can use
// g's cells instead of rebuilding them.
void fbBodies_Begin(fbBodies *b, fbWorld *w, const fbGrid *g, uint32_t solid, double reach);

// The corrections of agents [begin, end) into the scratch arrays. Returns how many of them overlap
// something, and in *pushed the farthest one of them is moved.
int fbBodies_Resolve(fbBodies *b, int begin, int end, double *pushed);

// Copies the corrections of agents [begin, end) into the world, headings following the velocity.
void fbBodies_Commit(fbBodies *b, int begin, int end);

#endif
