// world.c — agent storage (arrays per field, in spatial order), the id map, species lookup, the command queue.
#include "world.h"

#include "log.h"

#include <string.h>

#include "memory.h"

void fbWorld_Init(fbWorld *w)
{
  memset(w, 0, sizeof *w);
  w->width = 100.0;
  w->height = 100.0;
  w->dt = 0.05;
  w->bounds = FB_BOUNDS_WRAP;
  w->collision_iterations = 1;
  w->next_id = 1;
  fbTerrain_InitFlat(&w->terrain, w->width, w->height);
  fbObstacles_Init(&w->obstacles);
}

// Every per-agent double array, so that growth and compaction touch them all in one loop.
static int double_arrays(fbAgents *a, int field_count, double ***out)
{
  int n = 0;
  double **all[] = {&a->px, &a->py, &a->vx, &a->vy, &a->hx, &a->hy, &a->ax, &a->ay, &a->fx, &a->fy, &a->dx, &a->dy,
                    &a->carried_dx, &a->carried_dy, &a->energy, &a->orca_blocked};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) {
    out[n++] = all[i];
  }
  for (int f = 0; f < field_count; ++f) {
    out[n++] = &a->field[f];
    out[n++] = &a->field_next[f];
  }
  return n;
}

#define FB_MAX_DOUBLE_ARRAYS (16 + 2 * FB_MAX_FIELDS)

static void reserve(fbWorld *w, int needed)
{
  fbAgents *a = &w->agents;
  if (needed <= a->capacity) {
    return;
  }
  int capacity = a->capacity > 0 ? a->capacity : 64;
  while (capacity < needed) {
    capacity *= 2;
  }
  double **arrays[FB_MAX_DOUBLE_ARRAYS];
  int n = double_arrays(a, w->field_count, arrays);
  for (int i = 0; i < n; ++i) {
    *arrays[i] = fbMemory_Grow(*arrays[i], sizeof(double), (size_t)capacity);
  }
  a->id = fbMemory_Grow(a->id, sizeof(uint32_t), (size_t)capacity);
  a->species = fbMemory_Grow(a->species, 1, (size_t)capacity);
  a->active = fbMemory_Grow(a->active, 1, (size_t)capacity);
  a->held = fbMemory_Grow(a->held, 1, (size_t)capacity);
  a->spare = fbMemory_Grow(a->spare, sizeof(double), (size_t)capacity);
  a->spare_id = fbMemory_Grow(a->spare_id, sizeof(uint32_t), (size_t)capacity);
  a->spare_byte = fbMemory_Grow(a->spare_byte, 1, (size_t)capacity);
  a->capacity = capacity;
}

void fbWorld_Free(fbWorld *w)
{
  fbAgents *a = &w->agents;
  double **arrays[FB_MAX_DOUBLE_ARRAYS];
  int n = double_arrays(a, w->field_count, arrays);
  for (int i = 0; i < n; ++i) {
    free(*arrays[i]);
  }
  free(a->id);
  free(a->species);
  free(a->active);
  free(a->held);
  free(a->spare);
  free(a->spare_id);
  free(a->spare_byte);
  free(a->map_id);
  free(a->map_index);
  fbTerrain_Free(&w->terrain);
  fbObstacles_Free(&w->obstacles);
  fbPaths_Free(&w->paths);
  fbFlowFields_Free(&w->flows);
  fbRegions_Free(&w->regions);
  memset(w, 0, sizeof *w);
}

int fbWorld_DeclareField(fbWorld *w, const char *name, double initial)
{
  int existing = fbWorld_FindField(w, name);
  if (existing >= 0) {
    return existing;
  }
  if (w->field_count >= FB_MAX_FIELDS || strlen(name) >= FB_NAME_LEN) {
    return -1;
  }
  int f = w->field_count++;
  snprintf(w->field_names[f], FB_NAME_LEN, "%s", name);
  w->field_defaults[f] = initial;
  fbAgents *a = &w->agents;
  int capacity = a->capacity > 0 ? a->capacity : 1;
  a->field[f] = fbMemory_Grow(NULL, sizeof(double), (size_t)capacity);
  a->field_next[f] = fbMemory_Grow(NULL, sizeof(double), (size_t)capacity);
  for (int i = 0; i < a->count; ++i) {
    a->field[f][i] = initial;
    a->field_next[f][i] = initial;
  }
  return f;
}

int fbWorld_FindField(const fbWorld *w, const char *name)
{
  for (int f = 0; f < w->field_count; ++f) {
    if (strcmp(w->field_names[f], name) == 0) {
      return f;
    }
  }
  return -1;
}

int fbWorld_FindSpecies(const fbWorld *w, const char *name)
{
  for (int s = 0; s < w->species_count; ++s) {
    if (strcmp(w->species[s].name, name) == 0) {
      return s;
    }
  }
  return -1;
}

int fbWorld_FindGoal(const fbWorld *w, const char *name)
{
  for (int g = 0; g < w->goal_count; ++g) {
    if (strcmp(w->goals[g].name, name) == 0) {
      return g;
    }
  }
  return -1;
}

int fbWorld_AddAgent(fbWorld *w, int species, fbVec2 p, fbVec2 v)
{
  reserve(w, w->agents.count + 1);
  fbAgents *a = &w->agents;
  int i = a->count++;
  a->px[i] = p.x;
  a->py[i] = p.y;
  a->vx[i] = v.x;
  a->vy[i] = v.y;
  double speed = fbV_Length(v);
  a->hx[i] = speed > 0.0 ? v.x / speed : 1.0;
  a->hy[i] = speed > 0.0 ? v.y / speed : 0.0;
  a->ax[i] = a->ay[i] = a->fx[i] = a->fy[i] = a->dx[i] = a->dy[i] = 0.0;
  a->carried_dx[i] = a->carried_dy[i] = 0.0;
  a->energy[i] = 0.0;
  a->orca_blocked[i] = 0.0;
  a->id[i] = w->next_id++;
  a->map_valid = false;
  a->species[i] = (uint8_t)species;
  a->active[i] = 1;
  a->held[i] = 0;
  for (int f = 0; f < w->field_count; ++f) {
    a->field[f][i] = w->field_defaults[f];
    a->field_next[f][i] = w->field_defaults[f];
  }
  return i;
}

void fbWorld_SetCount(fbWorld *w, int count)
{
  reserve(w, count);
  w->agents.count = count;
  w->agents.map_valid = false;
}

/*
 * The id map: open addressing with linear probing in a table of at least twice as many slots as
 * agents (a power of two), so a lookup probes about 1.5 slots. Slot of an id: Fibonacci hashing,
 * (id * 2654435769) >> (32 - bits), which spreads consecutive ids. Ids start at 1: 0 marks a
 * free slot.
 */
static void rebuild_map(fbAgents *a)
{
  int capacity = 16;
  while (capacity < 2 * a->count) {
    capacity *= 2;
  }
  if (capacity != a->map_capacity) {
    a->map_id = fbMemory_Grow(a->map_id, sizeof(uint32_t), (size_t)capacity);
    a->map_index = fbMemory_Grow(a->map_index, sizeof(int), (size_t)capacity);
    a->map_capacity = capacity;
  }
  memset(a->map_id, 0, sizeof(uint32_t) * (size_t)capacity);
  unsigned mask = (unsigned)capacity - 1, bits = 0;
  while ((1u << bits) < (unsigned)capacity) {
    ++bits;
  }
  for (int i = 0; i < a->count; ++i) {
    unsigned s = (unsigned)((a->id[i] * 2654435769u) >> (32 - bits)) & mask;
    while (a->map_id[s] != 0) {
      s = (s + 1) & mask;
    }
    a->map_id[s] = a->id[i];
    a->map_index[s] = i;
  }
  a->map_valid = true;
}

int fbWorld_FindAgent(const fbWorld *w, uint32_t id)
{
  fbAgents *a = (fbAgents *)&w->agents;  // the map is a cache of the arrays: logically const
  if (!a->map_valid) {
    rebuild_map(a);
  }
  unsigned mask = (unsigned)a->map_capacity - 1, bits = 0;
  while ((1u << bits) < (unsigned)a->map_capacity) {
    ++bits;
  }
  unsigned s = (unsigned)((id * 2654435769u) >> (32 - bits)) & mask;
  for (; a->map_id[s] != 0; s = (s + 1) & mask) {
    if (a->map_id[s] == id) {
      return a->map_index[s];
    }
  }
  return -1;
}

// Gathers array[order[k]] into the spare and swaps them: the old array becomes the next spare.
#define GATHER(array, spare, count, order)          \
  do {                                              \
    for (int k_ = 0; k_ < (count); ++k_) {          \
      (spare)[k_] = (array)[(order)[k_]];           \
    }                                               \
    void *t_ = (array);                             \
    (array) = (spare);                              \
    (spare) = t_;                                   \
  } while (0)

void fbWorld_Reorder(fbWorld *w, const int *order)
{
  fbAgents *a = &w->agents;
  if (a->count == 0) {
    return;
  }
  double **arrays[FB_MAX_DOUBLE_ARRAYS];
  int n = double_arrays(a, w->field_count, arrays);
  for (int k = 0; k < n; ++k) {
    GATHER(*arrays[k], a->spare, a->count, order);
  }
  GATHER(a->id, a->spare_id, a->count, order);
  GATHER(a->species, a->spare_byte, a->count, order);
  GATHER(a->active, a->spare_byte, a->count, order);
  GATHER(a->held, a->spare_byte, a->count, order);
  a->map_valid = false;
}

void fbWorld_Compact(fbWorld *w)
{
  fbAgents *a = &w->agents;
  double **arrays[FB_MAX_DOUBLE_ARRAYS];
  int n = double_arrays(a, w->field_count, arrays);
  int kept = 0;
  for (int i = 0; i < a->count; ++i) {
    if (!a->active[i]) {
      continue;
    }
    if (kept != i) {
      for (int k = 0; k < n; ++k) {
        (*arrays[k])[kept] = (*arrays[k])[i];
      }
      a->id[kept] = a->id[i];
      a->species[kept] = a->species[i];
      a->active[kept] = 1;
      a->held[kept] = a->held[i];
    }
    ++kept;
  }
  w->removed_total += (uint64_t)(a->count - kept);
  a->count = kept;
  a->map_valid = false;
}

void fbWorld_SwapFields(fbWorld *w)
{
  fbAgents *a = &w->agents;
  for (int f = 0; f < w->field_count; ++f) {
    double *t = a->field[f];
    a->field[f] = a->field_next[f];
    a->field_next[f] = t;
    memcpy(a->field_next[f], a->field[f], sizeof(double) * (size_t)a->count);
  }
}

// ---- a scenario reload ---------------------------------------------------------------------------

// Rebuilds the agents' field arrays in the order of `fresh` fields, carrying values over by name.
static void adopt_fields(fbWorld *old, const fbWorld *fresh)
{
  fbAgents *a = &old->agents;
  double *cur[FB_MAX_FIELDS], *next[FB_MAX_FIELDS];
  bool taken[FB_MAX_FIELDS] = {false};
  int capacity = a->capacity > 0 ? a->capacity : 1;
  for (int f = 0; f < fresh->field_count; ++f) {
    int g = fbWorld_FindField(old, fresh->field_names[f]);
    if (g >= 0) {
      cur[f] = a->field[g];
      next[f] = a->field_next[g];
      taken[g] = true;
      continue;
    }
    cur[f] = malloc(sizeof(double) * (size_t)capacity);
    next[f] = malloc(sizeof(double) * (size_t)capacity);
    FB_ASSERT(cur[f] != NULL && next[f] != NULL);
    for (int i = 0; i < a->count; ++i) {
      cur[f][i] = next[f][i] = fresh->field_defaults[f];
    }
  }
  for (int g = 0; g < old->field_count; ++g) {
    if (!taken[g]) {
      free(a->field[g]);
      free(a->field_next[g]);
    }
  }
  for (int f = 0; f < fresh->field_count; ++f) {
    a->field[f] = cur[f];
    a->field_next[f] = next[f];
    snprintf(old->field_names[f], FB_NAME_LEN, "%s", fresh->field_names[f]);
    old->field_defaults[f] = fresh->field_defaults[f];
  }
  old->field_count = fresh->field_count;
}

// Agents follow their species by name; those whose species is gone are removed.
static void remap_species(fbWorld *old, const fbWorld *fresh)
{
  int map[FB_MAX_SPECIES];
  for (int s = 0; s < old->species_count; ++s) {
    map[s] = fbWorld_FindSpecies(fresh, old->species[s].name);
    if (map[s] < 0) {
      fbLog(FB_LOG_WARNING, "species '%s' is no longer in the scenario: its agents are removed", old->species[s].name);
    }
  }
  fbAgents *a = &old->agents;
  for (int i = 0; i < a->count; ++i) {
    int s = map[a->species[i]];
    a->active[i] = s >= 0;
    a->species[i] = (uint8_t)(s >= 0 ? s : 0);
  }
  fbWorld_Compact(old);
}

// A path object that keeps its path's name keeps its progress as a fraction of the length, so the
// flock is not left behind by an object sent back to its start; the speed is the fresh table's.
static void adopt_paths(fbWorld *old, fbWorld *fresh)
{
  double now = (double)old->step * fresh->dt;
  for (int k = 0; k < fresh->paths.count; ++k) {
    fbPath *p = &fresh->paths.items[k];
    int before = fbPaths_Find(&old->paths, p->name);
    double s = p->s;
    if (before >= 0) {
      const fbPath *q = &old->paths.items[before];
      s = q->length > 0 ? q->s / q->length * p->length : 0.0;
    }
    fbPath_Place(p, s, now);
  }
  fbPaths_Free(&old->paths);
  old->paths = fresh->paths;
  memset(&fresh->paths, 0, sizeof fresh->paths);
}

// Everything the scenario declares moves from fresh into old; old's agents stay.
void fbWorld_Adopt(fbWorld *old, fbWorld *fresh)
{
  remap_species(old, fresh);
  adopt_fields(old, fresh);
  old->width = fresh->width;
  old->height = fresh->height;
  old->dt = fresh->dt;
  old->bounds = fresh->bounds;
  old->update = fresh->update;
  old->collision_iterations = fresh->collision_iterations;
  fbTerrain_Free(&old->terrain);
  old->terrain = fresh->terrain;
  fbTerrain_InitFlat(&fresh->terrain, fresh->width, fresh->height);
  fbObstacles_Free(&old->obstacles);
  old->obstacles = fresh->obstacles;
  fbObstacles_Init(&fresh->obstacles);
  memcpy(old->species, fresh->species, sizeof old->species);
  old->species_count = fresh->species_count;
  memcpy(old->goals, fresh->goals, sizeof old->goals);
  old->goal_count = fresh->goal_count;
  adopt_paths(old, fresh);
  fbFlowFields_Free(&old->flows);
  old->flows = fresh->flows;
  memset(&fresh->flows, 0, sizeof fresh->flows);
  fbRegions_Free(&old->regions);
  old->regions = fresh->regions;
  memset(&fresh->regions, 0, sizeof fresh->regions);
}

void fbWorld_ReverseStorage(fbWorld *w)
{
  int n = w->agents.count;
  int *order = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  FB_ASSERT(order != NULL);
  for (int k = 0; k < n; ++k) {
    order[k] = n - 1 - k;
  }
  fbWorld_Reorder(w, order);
  free(order);
}

bool fbCommands_Push(fbCommandQueue *q, fbCommand c)
{
  if (q->count >= FB_MAX_COMMANDS) {
    return false;
  }
  if (q->count == q->capacity) {
    q->capacity = q->capacity > 0 ? q->capacity * 2 : 16;
    q->items = fbMemory_Grow(q->items, sizeof(fbCommand), (size_t)q->capacity);
  }
  q->items[q->count++] = c;
  return true;
}

void fbCommands_Free(fbCommandQueue *q)
{
  free(q->items);
  memset(q, 0, sizeof *q);
}
