// test_perception_simd.c — perception's AVX2 level against a scalar reference and the plain C level, bit for bit, on any thread split.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <unistd.h>

#include "pop_util.h"
#include "sim_internal.h"  // white-box: reads the sim's members
#include "test_util.h"

/*
 * The reference is perception written the plain way, one candidate at a time, from its definition
 * (perception.c, top): the block of cells round each agent in visiting order (fbBlock), a
 * candidate seen when d2 <= r^2, it is not the agent itself, its species is seen and it is active,
 * and (unless all round) dx hx + dy hy >= |d| cos(theta); the sums, the list and the nearest in
 * visiting order; with vision.sample = k, every flock-mate closer than the separation radius and k
 * of the others, each drawn by its rank among the far ones not yet drawn. Every level of
 * fbPerceive must give the same bits: the same doubles (sign of zero included), the same list in
 * the same order.
 */

#define FB_SAMPLE_STREAM 0x73616d706c650000ULL  // sampling.c's

typedef struct Mate {
  int j;
  double dx, dy, dist;
} Mate;

typedef struct Ref {
  int n;
  double cx, cy, avx, avy, sx, sy, nearest;
  Mate *list;  // the flock-mates perceived, in visiting order
} Ref;

// Whether agent i sees candidate j at offset (dx, dy); its distance in *dist.
static bool ref_sees(const fbPerceptionInput *in, int i, int j, double dx, double dy, double *dist)
{
  const fbVision *v = &in->vision[in->species[i]];
  const double d2 = dx * dx + dy * dy;
  if (!(d2 <= v->radius * v->radius) || j == i || !((v->sees >> in->species[j]) & 1u) ||
      (in->active != NULL && !in->active[j])) {
    return false;
  }
  *dist = sqrt(d2);
  return v->cos_half_fov <= -1.0 || dx * in->hx[i] + dy * in->hy[i] >= *dist * v->cos_half_fov;
}

// The flock-mates agent i sees, in visiting order, into m (room for every agent); returns how many.
static int ref_mates(const fbPerceptionInput *in, int i, Mate *m)
{
  const fbVision *v = &in->vision[in->species[i]];
  const double x = in->px[i], y = in->py[i];
  int n = 0, kx, ky;
  fbGrid_Rings(in->grid, v->radius, &kx, &ky);
  fbBlock b;
  fbCellRun run;
  fbBlock_BeginRings(&b, in->grid, x, y, kx, ky);
  while (fbBlock_Next(&b, &run)) {
    for (int j = run.begin; j < run.end; ++j) {
      double dx = in->px[j] - x, dy = in->py[j] - y, dist;
      if (in->grid->wrap) {
        dx = run.min_image ? fbGrid_MinImage(dx, in->grid->world_w) : dx + run.sx;
        dy = run.min_image ? fbGrid_MinImage(dy, in->grid->world_h) : dy + run.sy;
      }
      if (ref_sees(in, i, j, dx, dy, &dist)) {
        m[n++] = (Mate){j, dx, dy, dist};
      }
    }
  }
  return n;
}

/*
 * Gamlen's sample (sampling.c, top): every mate closer than the separation radius, in visiting
 * order, then of the F far mates all (in visiting order) when F <= k, else k: draw t takes the r-th
 * of those not yet taken in visiting order, r = floor(u (F - t) / 2^32), u the high 32 bits of
 * stream draw t / 2 for even t, its low 32 bits for odd t.
 */
static int ref_sample(const fbPerceptionInput *in, int i, Mate *m, int n, int k)
{
  if (k <= 0) {
    return n;
  }
  const double sep = in->vision[in->species[i]].separation_radius;
  Mate *far = malloc(sizeof *far * (size_t)(n + 1));
  int kept = 0, nfar = 0;
  for (int h = 0; h < n; ++h) {
    if (m[h].dist < sep) {
      m[kept++] = m[h];
    } else {
      far[nfar++] = m[h];
    }
  }
  if (nfar <= k) {
    memcpy(m + kept, far, sizeof *far * (size_t)nfar);
    free(far);
    return kept + nfar;
  }
  uint64_t bits = 0;
  for (int t = 0; t < k; ++t) {
    if (t % 2 == 0) {
      bits = fbRng_Bits(in->seed, in->id[i], in->step, FB_SAMPLE_STREAM ^ (uint64_t)(t / 2));
    }
    const uint32_t u = t % 2 == 0 ? (uint32_t)(bits >> 32) : (uint32_t)bits;
    const int r = (int)(((uint64_t)u * (uint64_t)(nfar - t)) >> 32);
    m[kept++] = far[r];
    memmove(far + r, far + r + 1, sizeof *far * (size_t)(nfar - t - r - 1));  // the rest keep their order
  }
  free(far);
  return kept;
}

/*
 * Gamlen's looks (sampling.c, gamlen_looks): every mate closer than the separation radius, in
 * visiting order; then the block's positions in a Fisher-Yates order (as above: step t swaps t with
 * t + floor(u (total - t) / 2^32)) until k of them are looks, a look being a candidate of a seen
 * species, active, not the agent, within the radius along each axis; those of the looks in view and
 * not closer than the separation radius are perceived, in the order drawn.
 */
static int ref_gamlen(const fbPerceptionInput *in, int i, Mate *m, int n, int k)
{
  const fbVision *v = &in->vision[in->species[i]];
  const double x = in->px[i], y = in->py[i], r = v->radius, sep = v->separation_radius;
  int kept = 0;
  for (int h = 0; h < n; ++h) {
    if (m[h].dist < sep) {
      m[kept++] = m[h];
    }
  }
  Mate *block = malloc(sizeof *block * ((size_t)in->count + 1));
  int total = 0, kx, ky;
  fbGrid_Rings(in->grid, r, &kx, &ky);
  fbBlock b;
  fbCellRun run;
  fbBlock_BeginRings(&b, in->grid, x, y, kx, ky);
  while (fbBlock_Next(&b, &run)) {
    for (int j = run.begin; j < run.end; ++j) {
      double dx = in->px[j] - x, dy = in->py[j] - y;
      if (in->grid->wrap) {
        dx = run.min_image ? fbGrid_MinImage(dx, in->grid->world_w) : dx + run.sx;
        dy = run.min_image ? fbGrid_MinImage(dy, in->grid->world_h) : dy + run.sy;
      }
      block[total++] = (Mate){j, dx, dy, 0.0};
    }
  }
  uint64_t bits = 0;
  for (int t = 0, looks = 0; t < total && looks < k; ++t) {
    if (t % 2 == 0) {
      bits = fbRng_Bits(in->seed, in->id[i], in->step, FB_SAMPLE_STREAM ^ (uint64_t)(t / 2));
    }
    const uint32_t u = t % 2 == 0 ? (uint32_t)(bits >> 32) : (uint32_t)bits;
    const int q = t + (int)(((uint64_t)u * (uint64_t)(total - t)) >> 32);
    const Mate c = block[q];
    block[q] = block[t];
    if (!(fabs(c.dx) <= r && fabs(c.dy) <= r) || c.j == i || !((v->sees >> in->species[c.j]) & 1u) ||
        (in->active != NULL && !in->active[c.j])) {
      continue;  // not a look
    }
    looks++;
    double dist;
    if (ref_sees(in, i, c.j, c.dx, c.dy, &dist) && !(dist < sep)) {
      m[kept++] = (Mate){c.j, c.dx, c.dy, dist};
    }
  }
  free(block);
  return kept;
}

static void ref_perceive(const fbPerceptionInput *in, int i, Ref *r)
{
  const fbVision *v = &in->vision[in->species[i]];
  const double x = in->px[i], y = in->py[i];
  int n = 0;
  if ((in->active == NULL || in->active[i]) && v->radius > 0.0 && v->sees != 0) {
    n = v->gamlen ? ref_gamlen(in, i, r->list, ref_mates(in, i, r->list), v->sample)
                  : ref_sample(in, i, r->list, ref_mates(in, i, r->list), v->sample);
  }
  double sdx = 0, sdy = 0, svx = 0, svy = 0, sepx = 0, sepy = 0, best = INFINITY;
  uint32_t best_id = 0;
  for (int h = 0; h < n; ++h) {
    const Mate *m = &r->list[h];
    sdx += m->dx;
    sdy += m->dy;
    svx += in->vx[m->j];
    svy += in->vy[m->j];
    if (m->dist < v->separation_radius) {
      sepx -= m->dx;
      sepy -= m->dy;
    }
    if (m->dist < best || (m->dist == best && in->id[m->j] < best_id)) {
      best = m->dist;
      best_id = in->id[m->j];
    }
  }
  const double inv = n > 0 ? 1.0 / n : 0.0;
  r->n = n;
  r->cx = n > 0 ? x + sdx * inv : x;
  r->cy = n > 0 ? y + sdy * inv : y;
  r->avx = n > 0 ? svx * inv : 0.0;
  r->avy = n > 0 ? svy * inv : 0.0;
  r->sx = n > 0 ? sepx : 0.0;
  r->sy = n > 0 ? sepy : 0.0;
  r->nearest = v->nearest || v->sample > 0 ? best : INFINITY;  // kept only where a rule reads it
}

// ---- bit for bit --------------------------------------------------------------------------

static bool same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

#define assert_same(got, want, what, i)                                                                     \
  do {                                                                                                      \
    if (!same((got), (want))) {                                                                             \
      fail_msg("agent %d, %s: got %.17g, the reference %.17g", (i), (what), (double)(got), (double)(want)); \
    }                                                                                                       \
  } while (0)

// Perceives in `parts` ranges (as `parts` workers would) and checks every agent against the reference.
static void check_level(const fbPerceptionInput *in, int parts, const Ref *ref)
{
  fbAggregates agg = {0};
  fbAggregates_Reserve(&agg, in->count);
  fbNeighbourList lists[5] = {{0}}, one = {0};
  for (int t = 0; t < parts; ++t) {
    const int begin = (int)((long)in->count * t / parts), end = (int)((long)in->count * (t + 1) / parts);
    fbPerceive(in, begin, end, &agg, &lists[t]);
    for (int i = begin; i < end; ++i) {
      const Ref *r = &ref[i];
      const fbVision *v = &in->vision[in->species[i]];
      assert_int_equal(agg.n[i], r->n);
      assert_same(agg.cx[i], r->cx, "centre x", i);
      assert_same(agg.cy[i], r->cy, "centre y", i);
      assert_same(agg.avx[i], r->avx, "mean velocity x", i);
      assert_same(agg.avy[i], r->avy, "mean velocity y", i);
      assert_same(agg.sx[i], r->sx, "separation x", i);
      assert_same(agg.sy[i], r->sy, "separation y", i);
      assert_same(agg.nearest[i], r->nearest, "nearest", i);
      for (int k = 0; v->list && k < r->n; ++k) {
        const int e = agg.first[i] + k;
        assert_true(e < lists[t].len);
        assert_int_equal(lists[t].index[e], r->list[k].j);
        assert_same(lists[t].dx[e], r->list[k].dx, "list dx", i);
        assert_same(lists[t].dy[e], r->list[k].dy, "list dy", i);
        assert_same(lists[t].dist[e], r->list[k].dist, "list dist", i);
      }
    }
  }
  for (int i = 0; i < in->count; i += 7) {  // one agent at a time, whatever its species keeps
    double nearest;
    const int n = fbPerceive_One(in, i, &one, &nearest);
    assert_int_equal(n, ref[i].n);
    for (int k = 0; k < n; ++k) {
      assert_int_equal(one.index[k], ref[i].list[k].j);
      assert_same(one.dx[k], ref[i].list[k].dx, "one dx", i);
      assert_same(one.dist[k], ref[i].list[k].dist, "one dist", i);
    }
  }
  for (int t = 0; t < 5; ++t) {
    fbNeighbourList_Free(&lists[t]);
  }
  fbNeighbourList_Free(&one);
  fbAggregates_Free(&agg);
}

// Every level this CPU has, on 1, 2, 3 and 5 ranges, against the reference.
static void check_all(const fbPerceptionInput *in)
{
  Ref *ref = calloc((size_t)in->count + 1, sizeof *ref);
  for (int i = 0; i < in->count; ++i) {
    ref[i].list = malloc(sizeof(Mate) * ((size_t)in->count + 1));
    ref_perceive(in, i, &ref[i]);
  }
  const fbSimd levels[] = {FB_SIMD_SCALAR, FB_SIMD_AVX2};
  for (size_t l = 0; l < sizeof levels / sizeof levels[0]; ++l) {
    if (fbPerception_UseSimd(levels[l]) != levels[l]) {
      continue;  // this CPU has no AVX2 (the test says so once, below)
    }
    const int parts[] = {1, 2, 3, 5};
    for (size_t p = 0; p < sizeof parts / sizeof parts[0]; ++p) {
      check_level(in, parts[p], ref);
    }
  }
  fbPerception_UseSimd(FB_SIMD_BEST);
  for (int i = 0; i < in->count; ++i) {
    free(ref[i].list);
  }
  free(ref);
}

// ---- worlds -------------------------------------------------------------------------------

// What the species read, the ways perception specialises on: nothing but the aggregates, with every
// agent active and every species seen (AVX2's own step 2); the nearest; the list; a sample.
// Gamlen's looks, too.
typedef enum Reads { READS_AGGREGATES, READS_NEAREST, READS_LIST, READS_ALL, READS_SAMPLE, READS_LOOKS } Reads;

static fbPerceptionInput input_for(Pop *p, Reads reads, uint64_t step)
{
  fbPerceptionInput in = pop_input(p);
  in.seed = 1234;
  in.step = step;
  if (reads == READS_AGGREGATES || reads == READS_NEAREST || reads == READS_LIST) {
    in.active = NULL;  // every agent active: no filter but the species
  }
  for (int s = 0; s < SPECIES; ++s) {
    fbVision *v = &p->vision[s];
    const bool sampled = reads == READS_SAMPLE || reads == READS_LOOKS;
    v->list = reads == READS_LIST || reads == READS_ALL || (sampled && s != 1);
    v->nearest = reads == READS_NEAREST || reads == READS_ALL;
    v->sample = sampled ? (s == 0 ? 4 : 20) : 0;
    v->gamlen = reads == READS_LOOKS;
    if (reads != READS_ALL && !sampled) {
      v->sees = (1u << SPECIES) - 1;  // every species: no filter at all
    }
  }
  return in;
}

// A few agents at NaN or infinite positions, and some with a heading of NaN or 0.
static void spoil(Pop *p, int every)
{
  for (int i = 3; i < p->count; i += every) {
    switch (i % 4) {
    case 0: p->px[i] = NAN; break;
    case 1: p->py[i] = INFINITY; break;
    case 2: p->hx[i] = p->hy[i] = NAN; break;
    default: p->hx[i] = p->hy[i] = 0.0; break;
    }
  }
}

static void check_world(uint64_t seed, int count, double w, double h, double max_r, bool wrap, bool inside,
                        double cell_factor, int spoil_every)
{
  for (Reads reads = READS_AGGREGATES; reads <= READS_LOOKS; ++reads) {
    Pop p;
    pop_make(&p, seed, count, w, h, max_r, wrap);
    if (inside) {
      pop_inside(&p);
    }
    if (spoil_every > 0) {
      spoil(&p, spoil_every);
    }
    pop_sort(&p, max_r * cell_factor);
    const fbPerceptionInput in = input_for(&p, reads, seed);
    check_all(&in);
    pop_free(&p);
  }
}

// ---- tests --------------------------------------------------------------------------------

// Walls: the block is one rectangle, read through cell_start; cells half the radius wide (as the
// step makes them), a third, a whole radius.
static void bounded_worlds(void **state)
{
  (void)state;
  if (fbPerception_UseSimd(FB_SIMD_AVX2) != FB_SIMD_AVX2) {
    print_message("this CPU has no AVX2: only the plain C level is checked\n");
  }
  fbPerception_UseSimd(FB_SIMD_BEST);
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    check_world(seed, 700, 60.0, 50.0, 6.0, false, false, 0.5, 0);
    check_world(seed + 10, 400, 30.0, 20.0, 9.0, false, false, 0.33, 0);
    check_world(seed + 20, 300, 40.0, 40.0, 5.0, false, false, 1.0, 0);
    // The block as wide as the world: the lanes past a row's end read the next row's agents,
    // within the radius, and must be dropped.
    check_world(seed + 25, 600, 10.0, 100.0, 4.0, false, false, 0.5, 0);
  }
}

// A torus: rows through the seams shifted by a whole world (several rectangles, fbBlock_NextAt),
// and, with agents on the far edges or a grid narrower than the block, the nearest image point by
// point (left to the plain C kernel).
static void wrapping_worlds(void **state)
{
  (void)state;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    check_world(seed + 30, 700, 60.0, 50.0, 6.0, true, true, 0.5, 0);
    check_world(seed + 40, 500, 40.0, 30.0, 6.0, true, false, 0.5, 0);
    check_world(seed + 50, 600, 10.0, 100.0, 4.0, true, true, 0.5, 0);  // the block as wide as the world
  }
}

// Dense: rows of more than 64 candidates (tested 64 at a time), coincident agents.
static void dense_worlds(void **state)
{
  (void)state;
  check_world(61, 2500, 12.0, 10.0, 3.0, false, false, 0.5, 0);
  check_world(62, 2500, 12.0, 10.0, 3.0, true, true, 0.5, 0);
}

// Agents at NaN and infinite positions, headings of NaN and 0.
static void spoilt_worlds(void **state)
{
  (void)state;
  check_world(71, 600, 50.0, 40.0, 6.0, false, false, 0.5, 9);
  check_world(72, 600, 50.0, 40.0, 6.0, true, false, 0.5, 9);
}

// ---- whole runs ---------------------------------------------------------------------------

// A torus with two species: boids that see both (separation walks its flock-mates, a list), and
// scouts that sample 5 of theirs.
static const char *TORUS =
    "return { name = 'torus', world = { width = 80, height = 60, dt = 0.05, bounds = 'wrap' },\n"
    "  species = {\n"
    "    { name = 'boid', count = 300, spawn = { speed = { 2, 6 } }, max_speed = 12, max_accel = 30,\n"
    "      vision = { radius = 8, fov = 270, separation = 3, sees = { 'boid', 'scout' } },\n"
    "      rules = { 'separation_gompert', 'alignment', 'cohesion' } },\n"
    "    { name = 'scout', count = 100, spawn = { speed = { 2, 6 } }, max_speed = 10, max_accel = 25,\n"
    "      vision = { radius = 10, fov = 180, separation = 2, sample = 5 },\n"
    "      rules = { 'separation', 'alignment', 'cohesion' } } } }\n";

static uint64_t run_torus(const char *path, fbSimd level, int threads)
{
  fbPerception_UseSimd(level);
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.seed = 5;
  o.threads = threads;
  static fbSim sim;
  char err[4096];
  if (!fbSim_Load(&sim, path, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  for (int k = 0; k < 300; ++k) {
    if (!fbSim_Step(&sim)) {
      fail_msg("%s", sim.error);
    }
  }
  const uint64_t h = fbSim_Hash(&sim);
  fbSim_Free(&sim);
  fbPerception_UseSimd(FB_SIMD_BEST);
  return h;
}

// The same run, byte for byte, at every level and on 1 and 3 threads (test_determinism checks the
// shipped demos against their golden hashes at the best level).
static void whole_runs_agree(void **state)
{
  (void)state;
  char path[64];
  snprintf(path, sizeof path, "/tmp/flockbox_simd_%d.lua", (int)getpid());
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(TORUS, f);
  fclose(f);
  const uint64_t want = run_torus(path, FB_SIMD_SCALAR, 1);
  assert_true(run_torus(path, FB_SIMD_SCALAR, 3) == want);
  assert_true(run_torus(path, FB_SIMD_BEST, 1) == want);
  assert_true(run_torus(path, FB_SIMD_BEST, 3) == want);
  unlink(path);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bounded_worlds),
      cmocka_unit_test(wrapping_worlds),
      cmocka_unit_test(dense_worlds),
      cmocka_unit_test(spoilt_worlds),
      cmocka_unit_test(whole_runs_agree),
  };
  return fb_run_tests(tests);
}
