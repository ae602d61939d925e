// test_sampling.c — Monte Carlo neighbour sampling (vision.sample): at most k seen, each candidate equally often, thread and storage order free, still a flock.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "pop_util.h"
#include "rule_api.h"
#include "sim_internal.h"  // white-box: reads and sets the sim's members
#include "telemetry.h"
#include "test_util.h"
#include "demo_util.h"

static char err[4096];


static void create(fbScenarioDef *d, int threads)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.threads = threads;
  if (!fbSim_Create(&sim, d, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
  sim_loaded = true;
  fbScenarioDef_Delete(d);
}

// Toward the centre of the flock-mates perceived: moves the crowd, so that whom one sees changes.
static fbVec2 toward_centre(const fbRuleContext *c, int i)
{
  const fbAgents *a = &c->world->agents;
  return fbV(c->agg->cx[i] - a->px[i] - a->vx[i], c->agg->cy[i] - a->py[i] - a->vy[i]);
}

// 300 agents crowded in a 60 x 60 torus, each seeing about 55 flock-mates all round.
static fbScenarioDef *crowd_def(int sample)
{
  fbScenarioDef *d = fbScenarioDef_New();
  d->world.width = d->world.height = 60;
  fbSpeciesDef *s = fbScenarioDef_AddSpecies(d, "animal");
  s->count = 300;
  s->spawn.speed[1] = 3;
  s->vision.radius = 8;
  s->vision.fov = 360;
  s->vision.sample = sample;
  fbSpeciesDef_AddRule(s, NULL)->native = toward_centre;
  return d;
}

// Every agent perceives at most k, exactly k when it sees more; its list holds the same k, all of
// them flock-mates it sees without sampling.
static void test_at_most_k_are_perceived(void **state)
{
  (void)state;
  create(crowd_def(5), 2);
  long more = 0, total = 0;
  for (int k = 0; k < 60; ++k) {
    assert_true(fbSim_Step(&sim));
    const fbAgents *a = &sim.world.agents;
    for (int i = 0; i < a->count; ++i) {
      assert_true(sim.agg.n[i] <= 5);
    }
    fbSim_UpdateGrid(&sim);
    for (int i = 0; i < a->count; i += 7) {
      int n = fbSim_Seen(&sim, i);
      sim.vision[0].sample = 0;  // everyone it sees, for comparison
      fbNeighbourList all = {0};
      int everyone = fbPerceive_One(&sim.perception, i, &all, NULL);
      sim.vision[0].sample = 5;
      assert_int_equal(n, everyone < 5 ? everyone : 5);
      assert_int_equal(sim.seen.len, n);
      for (int e = 0; e < n; ++e) {
        bool found = false;
        for (int f = 0; f < all.len && !found; ++f) {
          found = all.index[f] == sim.seen.index[e] && all.dx[f] == sim.seen.dx[e] && all.dy[f] == sim.seen.dy[e];
        }
        assert_true(found);
      }
      fbNeighbourList_Free(&all);
      more += everyone > 5;
      total++;
    }
  }
  print_message("%ld of %ld agents looked at saw more than 5 flock-mates\n", more, total);
  assert_true(more > total / 2);
}

// Flock-mate j's key as perception.c defines it.
static uint64_t key_of(const fbPerceptionInput *in, uint32_t self, uint32_t other)
{
  return (fbRng_Bits(in->seed, self, in->step, 0x73616d706c650000ULL ^ other) & 0xffffffff00000000ULL) | other;
}

static int compare_keys(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

// Random populations of three species (some seeing others, some inactive, coincident agents, a
// torus or walls): each agent's sample is exactly the k of its flock-mates in view with the
// smallest keys, listed and summed in visiting order; k = 4 and 20 (kept by insertion, or
// found by quickselect).
static void test_sample_is_the_k_smallest_keys(void **state)
{
  (void)state;
  for (int c = 0; c < 4; ++c) {
    const int K = c < 2 ? 4 : 20, wrap = c % 2;
    Pop p;
    pop_make(&p, 31 + (uint64_t)c, K == 4 ? 500 : 2000, 50.0, 40.0, 8.0, wrap);
    if (wrap) {
      pop_inside(&p);
    }
    pop_sort(&p, 4.0);
    for (int s = 0; s < SPECIES; ++s) {
      p.vision[s].sample = K;
    }
    fbPerceptionInput in = pop_input(&p);
    in.seed = 99;
    in.step = 12;
    fbAggregates agg = {0};
    fbAggregates_Reserve(&agg, p.count);
    fbNeighbourList list = {0}, all = {0};
    fbPerceive(&in, 0, p.count, &agg, &list);
    int sampled = 0;
    for (int i = 0; i < p.count; ++i) {
      fbVision *v = &p.vision[p.species[i]];
      v->sample = 0;
      int m = fbPerceive_One(&in, i, &all, NULL);
      v->sample = K;
      uint64_t keys[1024], sorted[1024];
      assert_true(m <= 1024);
      for (int e = 0; e < m; ++e) {
        keys[e] = sorted[e] = key_of(&in, p.id[i], p.id[all.index[e]]);
      }
      qsort(sorted, (size_t)m, sizeof sorted[0], compare_keys);
      int n = 0;
      double sx = 0, sy = 0;
      for (int e = 0; e < m; ++e) {
        if (m > K && keys[e] > sorted[K - 1]) {
          continue;
        }
        if (p.active[i]) {
          assert_int_equal(list.index[agg.first[i] + n], all.index[e]);
        }
        sx += all.dx[e];
        sy += all.dy[e];
        n++;
      }
      assert_int_equal(agg.n[i], n);
      if (n > 0) {
        assert_true(agg.cx[i] == p.px[i] + sx * (1.0 / n) && agg.cy[i] == p.py[i] + sy * (1.0 / n));
      }
      sampled += m > K;
    }
    print_message("k = %d, %s: %d of %d agents saw more than k\n", K, wrap ? "torus" : "walls", sampled, p.count);
    assert_true(sampled > p.count / 10);
    fbAggregates_Free(&agg);
    fbNeighbourList_Free(&list);
    fbNeighbourList_Free(&all);
    pop_free(&p);
  }
}

// A still observer among 20 still flock-mates, sample 5, over 2000 steps: each flock-mate is one
// of the 5 in a quarter of the steps (binomial, sd 19 round 500), and the counts pass a chi-square
// test; and the aggregates of each step are the sums over that step's sample.
static void test_each_candidate_equally_often(void **state)
{
  (void)state;
  enum { MATES = 20, SAMPLE = 5, STEPS = 2000 };
  fbScenarioDef *d = fbScenarioDef_New();
  fbSpeciesDef *s = fbScenarioDef_AddSpecies(d, "animal");
  s->vision.radius = 8;
  s->vision.fov = 360;
  s->vision.sample = SAMPLE;
  fbScenarioDef_PlaceAgent(d, 0, fbV(50, 50), fbV(0, 0));  // id 1, the observer
  for (int k = 0; k < MATES; ++k) {                        // ids 2 .. 21, on a circle of radius 5
    double t = 2 * FB_PI * k / MATES;
    fbScenarioDef_PlaceAgent(d, 0, fbV(50 + 5 * cos(t), 50 + 5 * sin(t)), fbV(0, 0));
  }
  create(d, 2);
  int count[MATES + 2] = {0};
  for (int k = 0; k < STEPS; ++k) {
    fbSim_UpdateGrid(&sim);
    int i = fbWorld_FindAgent(&sim.world, 1);
    assert_int_equal(fbSim_Seen(&sim, i), SAMPLE);
    double cx = 0, cy = 0;
    for (int e = 0; e < SAMPLE; ++e) {
      count[sim.world.agents.id[sim.seen.index[e]]]++;
      cx += sim.seen.dx[e] / SAMPLE;
      cy += sim.seen.dy[e] / SAMPLE;
    }
    assert_true(fbSim_Step(&sim));  // perceives the same sample: same step, same places
    i = fbWorld_FindAgent(&sim.world, 1);
    assert_int_equal(sim.agg.n[i], SAMPLE);
    assert_near(sim.agg.cx[i], 50 + cx, 1e-9);
    assert_near(sim.agg.cy[i], 50 + cy, 1e-9);
  }
  const double p = (double)SAMPLE / MATES, expect = STEPS * p, sd = sqrt(STEPS * p * (1 - p));
  double chi2 = 0;
  int lo = STEPS, hi = 0;
  for (int id = 2; id <= MATES + 1; ++id) {
    chi2 += (count[id] - expect) * (count[id] - expect) / (expect * (1 - p));
    lo = count[id] < lo ? count[id] : lo;
    hi = count[id] > hi ? count[id] : hi;
    assert_true(fabs(count[id] - expect) < 5 * sd);
  }
  print_message("picked %d to %d times of %d steps (expected %.0f, sd %.1f); chi-square %.1f on 19 degrees\n", lo, hi,
                STEPS, expect, sd, chi2);
  assert_true(chi2 < 43.8);  // the 0.999 quantile of chi-square with 19 degrees of freedom
}

// The classic flock perceiving samples of 7, with bodies: one thread, three, and stored in reverse
// now and then, give the same run byte for byte.
static uint64_t sampled_flock(int threads, bool reverse)
{
  const char *sets[] = {"boid.vision.sample=7"};
  load_threads("scripts/classic_flock.lua", sets, 1, threads);
  for (int k = 0; k < 300; ++k) {
    if (reverse && k % 50 == 0) {
      fbWorld_ReverseStorage(&sim.world);
    }
    assert_true(fbSim_Step(&sim));
  }
  uint64_t h = fbSim_Hash(&sim);
  unload();
  return h;
}

static void test_any_thread_count_and_storage_order(void **state)
{
  (void)state;
  uint64_t one = sampled_flock(1, false);
  assert_true(sampled_flock(3, false) == one);
  assert_true(sampled_flock(3, true) == one);
  assert_true(sampled_flock(1, true) == one);
}

typedef struct Flocking {
  double start, end;  // polarisation
  double mean_n;      // flock-mates perceived, at the end
} Flocking;

static Flocking flock(const char *const *sets, int set_count)
{
  load_threads("scripts/classic_flock.lua", sets, set_count, 0);
  Flocking f;
  fbMeasures m;
  fbTelemetry_Measure(&sim, &m);
  f.start = m.polarisation;
  for (int k = 0; k < 1500; ++k) {
    assert_true(fbSim_Step(&sim));
  }
  double n = 0;
  for (int i = 0; i < sim.world.agents.count; ++i) {
    n += sim.agg.n[i];
  }
  f.mean_n = n / sim.world.agents.count;
  fbTelemetry_Measure(&sim, &m);
  f.end = m.polarisation;
  unload();
  return f;
}

// Gamlen's claim: a flock whose members each look at a few others chosen at random still flocks.
// The classic flock's boids see some 20 flock-mates; sampling 7 of them, polarisation still climbs
// past 0.6, test_emergent's mark for the flock seeing all of them.
static void test_sampled_flock_still_flocks(void **state)
{
  (void)state;
  const char *sample[] = {"boid.vision.sample=7"};
  Flocking all = flock(NULL, 0), seven = flock(sample, 1);
  print_message("polarisation %.2f -> %.2f seeing all (%.1f flock-mates), %.2f -> %.2f seeing 7 (%.1f)\n", all.start,
                all.end, all.mean_n, seven.start, seven.end, seven.mean_n);
  assert_true(all.mean_n > 7);
  assert_true(seven.mean_n <= 7);
  assert_true(seven.start < 0.2);
  assert_true(seven.end > 0.6);
}

// vision.sample in a scenario file and through --set; 0 (all) by default; never negative.
static void test_sample_is_a_vision_field(void **state)
{
  (void)state;
  fbScenarioDef *d = fbScenarioDef_New();
  assert_int_equal(fbScenarioDef_AddSpecies(d, "boid")->vision.sample, 0);
  fbScenarioDef_Delete(d);
  const char *sets[] = {"boid.vision.sample=-1"};
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.sets[o.set_count++] = sets[0];
  assert_false(fbSim_Load(&sim, "scripts/classic_flock.lua", &o, err, sizeof err));
  assert_non_null(strstr(err, "vision.sample"));
  const char *seven[] = {"boid.vision.sample=7"};
  load_threads("scripts/classic_flock.lua", seven, 1, 1);
  assert_int_equal(sim.world.species[0].vision.sample, 7);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_at_most_k_are_perceived, demo_teardown),
      cmocka_unit_test(test_sample_is_the_k_smallest_keys),
      cmocka_unit_test_teardown(test_each_candidate_equally_often, demo_teardown),
      cmocka_unit_test_teardown(test_any_thread_count_and_storage_order, demo_teardown),
      cmocka_unit_test_teardown(test_sampled_flock_still_flocks, demo_teardown),
      cmocka_unit_test_teardown(test_sample_is_a_vision_field, demo_teardown),
  };
  return fb_run_tests(tests);
}
