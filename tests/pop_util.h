// pop_util.h — a random population for the grid and perception tests (include after <cmocka.h>).
#ifndef FB_POP_UTIL_H
#define FB_POP_UTIL_H

#include <string.h>

#include "perception.h"
#include "rng.h"

#define SPECIES 3

typedef struct Pop {
  int count;
  double w, h;
  bool wrap;
  double *px, *py, *vx, *vy, *hx, *hy;
  uint32_t *id;
  uint8_t *species, *active;
  fbVision vision[FB_MAX_SPECIES];
  fbGrid grid;
} Pop;

static uint64_t g_seed;
static uint64_t g_stream;

static inline double rnd(void) { return fbRng_Uniform(g_seed, 0, 0, g_stream++); }
static inline double rnd_in(double a, double b) { return a + (b - a) * rnd(); }
static inline int rnd_int(int n) { return (int)(rnd() * n); }

static inline void pop_free(Pop *p)
{
  free(p->px);
  free(p->py);
  free(p->vx);
  free(p->vy);
  free(p->hx);
  free(p->hy);
  free(p->id);
  free(p->species);
  free(p->active);
  fbGrid_Free(&p->grid);
  memset(p, 0, sizeof *p);
}

static const double FOV_DEG[] = {360.0, 270.0, 180.0, 90.0};

// count agents in a w x h world; radii up to max_r; some agents coincident, on the border, inactive;
// ids a shuffle of 1..count, so that id order is not storage order.
static inline void pop_make(Pop *p, uint64_t seed, int count, double w, double h, double max_r, bool wrap)
{
  memset(p, 0, sizeof *p);
  g_seed = seed;
  g_stream = 0;
  p->count = count;
  p->w = w;
  p->h = h;
  p->wrap = wrap;
  size_t n = (size_t)(count > 0 ? count : 1);
  p->px = calloc(n, sizeof(double));
  p->py = calloc(n, sizeof(double));
  p->vx = calloc(n, sizeof(double));
  p->vy = calloc(n, sizeof(double));
  p->hx = calloc(n, sizeof(double));
  p->hy = calloc(n, sizeof(double));
  p->id = calloc(n, sizeof(uint32_t));
  p->species = calloc(n, 1);
  p->active = calloc(n, 1);
  for (int i = 0; i < count; ++i) {
    int kind = rnd_int(20);
    if (kind == 0 && i > 0) {  // coincident with an earlier agent
      int j = rnd_int(i);
      p->px[i] = p->px[j];
      p->py[i] = p->py[j];
    } else if (kind == 1) {  // exactly on an edge or corner of the world
      p->px[i] = rnd_int(2) ? w : 0.0;
      p->py[i] = rnd_int(2) ? rnd_in(0, h) : (rnd_int(2) ? h : 0.0);
    } else {
      p->px[i] = rnd_in(0, w);
      p->py[i] = rnd_in(0, h);
    }
    p->vx[i] = rnd_in(-3, 3);
    p->vy[i] = rnd_in(-3, 3);
    double a = rnd_in(0, 2 * FB_PI);
    p->hx[i] = cos(a);
    p->hy[i] = sin(a);
    p->species[i] = (uint8_t)rnd_int(SPECIES);
    p->active[i] = rnd_int(10) != 0;
    p->id[i] = (uint32_t)i + 1;
  }
  for (int i = count - 1; i > 0; --i) {  // Fisher-Yates over the ids
    int j = rnd_int(i + 1);
    uint32_t t = p->id[i];
    p->id[i] = p->id[j];
    p->id[j] = t;
  }
  for (int s = 0; s < SPECIES; ++s) {
    fbVision *v = &p->vision[s];
    v->radius = s == 0 ? max_r : rnd_in(0.3, 1.0) * max_r;
    v->cos_half_fov = cos(FOV_DEG[rnd_int(4)] * FB_PI / 360.0);
    if (v->cos_half_fov < -0.999999) {
      v->cos_half_fov = -1.0;
    }
    v->sees = (uint32_t)(1 + rnd_int((1 << SPECIES) - 1));  // a non-empty subset
    v->separation_radius = rnd_in(0.2, 0.8) * v->radius;
    v->list = true;
    v->nearest = true;
  }
}

// Moves agents on the far edges to the near ones (x = w to 0, y = h to 0), as integration keeps a
// torus: every position then lies in [0, w) x [0, h) and the grid may shift whole runs.
static inline void pop_inside(Pop *p)
{
  for (int i = 0; i < p->count; ++i) {
    p->px[i] = p->px[i] >= p->w ? 0.0 : p->px[i];
    p->py[i] = p->py[i] >= p->h ? 0.0 : p->py[i];
  }
}

// Stores the population in the order g->order gives (what fbWorld_Reorder does to the world).
static inline void pop_reorder(Pop *p, const int *order)
{
  size_t n = (size_t)(p->count > 0 ? p->count : 1);
  double *d[] = {p->px, p->py, p->vx, p->vy, p->hx, p->hy};
  double *tmp = malloc(n * sizeof(double));
  for (int a = 0; a < 6; ++a) {
    for (int k = 0; k < p->count; ++k) {
      tmp[k] = d[a][order[k]];
    }
    memcpy(d[a], tmp, (size_t)p->count * sizeof(double));
  }
  uint32_t *ids = malloc(n * sizeof(uint32_t));
  uint8_t *sp = malloc(n), *act = malloc(n);
  for (int k = 0; k < p->count; ++k) {
    ids[k] = p->id[order[k]];
    sp[k] = p->species[order[k]];
    act[k] = p->active[order[k]];
  }
  memcpy(p->id, ids, (size_t)p->count * sizeof(uint32_t));
  memcpy(p->species, sp, (size_t)p->count);
  memcpy(p->active, act, (size_t)p->count);
  free(tmp);
  free(ids);
  free(sp);
  free(act);
}

// The grid for the population, and the population stored in its order.
static inline void pop_sort(Pop *p, double cell)
{
  fbGrid_Build(&p->grid, p->px, p->py, p->id, p->count, p->w, p->h, cell, p->wrap);
  pop_reorder(p, p->grid.order);
}

static inline fbPerceptionInput pop_input(const Pop *p)
{
  return (fbPerceptionInput){.px = p->px,
                             .py = p->py,
                             .vx = p->vx,
                             .vy = p->vy,
                             .hx = p->hx,
                             .hy = p->hy,
                             .id = p->id,
                             .species = p->species,
                             .active = p->active,
                             .count = p->count,
                             .species_count = SPECIES,
                             .vision = p->vision,
                             .grid = &p->grid};
}

#endif
