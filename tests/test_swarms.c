// test_swarms.c — the Gamlen and Parker demos: moths round a lamp, dragonflies from swarm to
// flock, two flocks kept apart, birds perching, sheep trickling through a gate; and no demo's
// rules allocate while running.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "demo_util.h"
#include "test_util.h"

// Moths orbit the lamp: for the whole run every moth stays within a band of radii round it,
// never reaching its centre (the repelling field is 15 units across) nor flying off.
static void test_moths_stay_in_a_band_round_the_lamp(void **state)
{
  (void)state;
  load("scripts/moths_lamp.lua");
  int g = fbWorld_FindGoal(&sim.world, "lamp");
  assert_true(g >= 0);
  fbVec2 lamp = sim.world.goals[g].p;
  double nearest = INFINITY, farthest = 0;
  for (int k = 0; k < 3000; ++k) {
    step();
    for (int i = 0; i < sim.world.agents.count; ++i) {
      double r = fbV_Length(fbV_Sub(fbV(sim.world.agents.px[i], sim.world.agents.py[i]), lamp));
      nearest = fmin(nearest, r);
      farthest = fmax(farthest, r);
    }
  }
  print_message("moths between %.1f and %.1f units from the lamp over 3000 steps\n", nearest, farthest);
  assert_true(nearest > 3);
  assert_true(farthest < 50);
  unload();
}

// The lamp dragged in the window (fbSim_MoveGoal) moves what the metrics measure from: the scenario
// reads the goal where it is now, not a copy of where it started.
static void test_moths_metrics_follow_a_dragged_lamp(void **state)
{
  (void)state;
  load("scripts/moths_lamp.lua");
  for (int k = 0; k < 50; ++k) {
    step();
  }
  fbVec2 lamp = fbV(10, 110);
  assert_true(fbSim_MoveGoal(&sim, fbWorld_FindGoal(&sim.world, "lamp"), lamp));
  double nearest = INFINITY;
  for (int i = 0; i < sim.world.agents.count; ++i) {
    nearest = fmin(nearest, fbV_Length(fbV_Sub(fbV(sim.world.agents.px[i], sim.world.agents.py[i]), lamp)));
  }
  assert_true(nearest > 30);  // the moths are still round the old place
  assert_float_equal(metric("nearest_to_lamp"), nearest, 1e-9);
  unload();
}

// Dragonflies round a still path object swarm (headings every which way); once the object
// moves at full speed they fly together behind it (nearly one heading).
static void test_dragonflies_swarm_then_flock(void **state)
{
  (void)state;
  load("scripts/dragonflies_path.lua");
  double still = 0, fast = 0;
  int still_n = 0, fast_n = 0;
  for (int k = 1; k <= 2000; ++k) {
    step();
    if (k >= 100 && k <= 400) {  // the path object stands still for the first 400 steps
      still += polarisation();
      still_n++;
    }
    if (k >= 1400) {  // at full speed since step 1000
      fast += polarisation();
      fast_n++;
    }
  }
  still /= still_n;
  fast /= fast_n;
  print_message("polarisation %.2f round the still path object, %.2f behind it at full speed\n", still, fast);
  assert_true(still < 0.35);
  assert_true(fast > 0.9);
  unload();
}

// The closest two members of different flocks come in 3000 steps of two_flocks, with each
// flock's avoid_flock weight set to `avoid`.
static double closest_approach(double avoid)
{
  load("scripts/two_flocks.lua");
  int green = species("green");
  for (int s = 0; s < sim.world.species_count; ++s) {
    for (int k = 0; k < sim.world.species[s].rule_count; ++k) {
      if (strcmp(fbSim_RuleName(&sim, s, k), "avoid_flock") == 0) {
        fbSim_SetWeight(&sim, s, k, avoid);
      }
    }
  }
  const fbAgents *a = &sim.world.agents;
  double gap = INFINITY;
  for (int k = 0; k < 3000; ++k) {
    step();
    for (int i = 0; i < a->count; ++i) {
      for (int j = 0; j < a->count; ++j) {
        if (a->species[i] == green && a->species[j] != green) {
          gap = fmin(gap, fbV_Length(fbV(a->px[i] - a->px[j], a->py[i] - a->py[j])));
        }
      }
    }
  }
  unload();
  return gap;
}

// Two flocks meeting twice a lap: no member of one ever comes within the other's comfort radius
// (6 units) beyond a tolerance of 10%, though they meet (within the 16 units where avoiding
// starts); without avoid_flock the same flocks run into each other.
static void test_two_flocks_keep_out_of_each_others_comfort_radius(void **state)
{
  (void)state;
  double with = closest_approach(1), without = closest_approach(0);
  print_message("closest members of different flocks: %.2f units with avoid_flock (comfort radius 6), "
                "%.2f without\n", with, without);
  assert_true(with >= 0.9 * 6);
  assert_true(with < 16);
  assert_true(without < 0.5 * 6);
}

// Birds land, sit still for 2 to 6 s, take off again: every bird perches at least once, every
// perch lasts between perch_min and perch_max, perched birds barely move while the others fly
// on, and most of the flock is always in the air.
static void test_birds_perch_and_rejoin(void **state)
{
  (void)state;
  load("scripts/perching_birds.lua");
  const fbAgents *a = &sim.world.agents;
  int n = a->count;
  assert_true(n <= 64);
  long landed_at[64];
  int perches[64] = {0};
  for (int i = 0; i < n; ++i) {
    landed_at[i] = -1;
  }
  double sitting_speed = 0, flying_speed = 0, most_perched = 0;
  int sitting = 0, flying = 0, ended = 0;
  double dt = sim.world.dt;
  for (int k = 1; k <= 3000; ++k) {
    step();
    int perched_now = 0;
    for (int i = 0; i < n; ++i) {
      int b = (int)a->id[i] - 1;  // birds move in storage: follow them by id (1..n)
      bool perched = field(i, "perch") > 0;
      double speed = fbV_Length(fbV(a->vx[i], a->vy[i]));
      if (perched && landed_at[b] < 0) {
        landed_at[b] = k;
        perches[b]++;
      } else if (!perched && landed_at[b] >= 0) {
        double lasted = (k - landed_at[b]) * dt;
        if (lasted < 2 - 1e-9 || lasted > 6 + dt + 1e-9) {
          fail_msg("bird %d perched for %.2f s", b + 1, lasted);
        }
        landed_at[b] = -1;
        ended++;
      }
      if (perched && k - landed_at[b] >= 20) {  // a second after landing
        sitting_speed += speed;
        sitting++;
      } else if (!perched) {
        flying_speed += speed;
        flying++;
      }
      perched_now += perched;
    }
    most_perched = fmax(most_perched, (double)perched_now / n);
  }
  int never = 0;
  for (int i = 0; i < n; ++i) {
    never += perches[i] == 0;
  }
  sitting_speed /= sitting;
  flying_speed /= flying;
  print_message("%d perches ended; %d birds never perched; mean speed perched %.2f, flying %.2f; "
                "at most %.0f%% perched at once\n",
                ended, never, sitting_speed, flying_speed, 100 * most_perched);
  assert_int_equal(never, 0);
  assert_true(ended >= n);
  assert_true(sitting_speed == 0.0);  // held still (a:hold()): Parker skips a perched bird's rules
  assert_true(flying_speed > 5.0);
  assert_true(most_perched < 0.35);
  unload();
}

// Sheep driven to a narrow gate: they pass the fence over time, one by one rather than all at
// once, every one of them through the gate (none through the fence, none ever inside it).
static void test_sheep_trickle_through_the_gate(void **state)
{
  (void)state;
  load("scripts/sheep_gate.lua");
  const fbAgents *a = &sim.world.agents;
  int n = a->count;
  double radius = sim.world.species[0].limits.body_radius;
  assert_true(n <= 64);
  double last_x[64];
  long passed_at[64];
  for (int i = 0; i < n; ++i) {
    last_x[a->id[i] - 1] = a->px[i];  // sheep move in storage: follow them by id (1..n)
    passed_at[a->id[i] - 1] = -1;
  }
  int through = 0;
  for (int k = 1; k <= 2400; ++k) {
    step();
    for (int i = 0; i < n; ++i) {
      int s = (int)a->id[i] - 1;
      for (int o = 0; o < sim.world.obstacles.count; ++o) {
        double d = fbObstacles_Distance(&sim.world.obstacles, o, fbV(a->px[i], a->py[i]), NULL, NULL);
        if (d < radius - 1e-6) {
          fail_msg("sheep %d inside the fence at step %d (%.3f from its surface)", s + 1, k, d);
        }
      }
      if ((last_x[s] < 120) != (a->px[i] < 120) && !(a->py[i] > 66 && a->py[i] < 74)) {
        fail_msg("sheep %d crossed the fence line at y = %.2f, outside the gate", s + 1, a->py[i]);
      }
      if (passed_at[s] < 0 && a->px[i] > 122) {
        passed_at[s] = k;
        through++;
      }
      last_x[s] = a->px[i];
    }
  }
  long first = 1L << 30, tenth = 0, ninth = 0;
  long sorted[64];
  int m = 0;
  for (int i = 0; i < n; ++i) {
    if (passed_at[i] >= 0) {
      sorted[m++] = passed_at[i];
      first = passed_at[i] < first ? passed_at[i] : first;
    }
  }
  for (int i = 1; i < m; ++i) {  // insertion sort: at most 64
    for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; --j) {
      long t = sorted[j];
      sorted[j] = sorted[j - 1];
      sorted[j - 1] = t;
    }
  }
  tenth = sorted[m / 10];
  ninth = sorted[m * 9 / 10 - 1];
  print_message("%d of %d sheep through the gate; the first at %.1f s, 10%% by %.1f s, 90%% by %.1f s\n", through, n,
                first * sim.world.dt, tenth * sim.world.dt, ninth * sim.world.dt);
  assert_true(through >= n * 9 / 10);
  assert_true((ninth - tenth) * sim.world.dt > 20);  // a trickle, not a rush
  unload();
}

// The rules of every demo of this file and its siblings allocate no Lua memory once running:
// the agent view is refilled, never rebuilt, and nothing in them builds tables or strings.
static void test_demo_rules_allocate_nothing(void **state)
{
  (void)state;
  static const char *const demos[] = {"leader_chase", "predator_prey", "moths_lamp", "dragonflies_path",
                                      "two_flocks",   "perching_birds", "sheep_gate"};
  for (size_t d = 0; d < sizeof demos / sizeof demos[0]; ++d) {
    char path[128];
    snprintf(path, sizeof path, "scripts/%s.lua", demos[d]);
    load(path);
    for (int k = 0; k < 50; ++k) {
      step();
    }
    uint64_t before = fbRuleSet_Allocations(&sim.rules);
    for (int k = 0; k < 200; ++k) {
      step();
    }
    if (fbRuleSet_Allocations(&sim.rules) != before) {
      fail_msg("%s: the rules allocated %llu times in 200 steps", path,
               (unsigned long long)(fbRuleSet_Allocations(&sim.rules) - before));
    }
    unload();
  }
}

// Parker's scattering: a flock startled at 20 s flies apart while its centring is turned round
// (3 s), then re-forms. Spread = mean distance to the flock's centre, sampled every second.
static void test_a_startled_flock_scatters_then_reforms(void **state)
{
  (void)state;
  load("tests/data/scatter_flock.lua");
  double before = 0, peak = 0, after = 0;
  char trace[512] = "";
  for (int k = 1; k <= 1200; ++k) {
    step();
    if (k % 20 != 0) {
      continue;
    }
    double spread = metric("spread");
    if (k == 380) {
      before = spread;  // 19 s: calm
    } else if (k > 400 && k <= 560) {
      peak = fmax(peak, spread);
    } else if (k == 1200) {
      after = spread;  // 60 s: 37 s after the scatter ended
    }
    if (k >= 380 && k % 100 == 0) {
      snprintf(trace + strlen(trace), sizeof trace - strlen(trace), " %.0f s %.1f,", k * sim.world.dt, spread);
    }
  }
  print_message("spread:%s\n", trace);
  print_message("spread %.1f before the noise, up to %.1f within 8 s, %.1f at 60 s\n", before, peak, after);
  assert_true(peak > 3 * before);
  assert_true(after < 1.5 * before);
  unload();
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_moths_stay_in_a_band_round_the_lamp, demo_teardown),
      cmocka_unit_test_teardown(test_moths_metrics_follow_a_dragged_lamp, demo_teardown),
      cmocka_unit_test_teardown(test_dragonflies_swarm_then_flock, demo_teardown),
      cmocka_unit_test_teardown(test_two_flocks_keep_out_of_each_others_comfort_radius, demo_teardown),
      cmocka_unit_test_teardown(test_birds_perch_and_rejoin, demo_teardown),
      cmocka_unit_test_teardown(test_sheep_trickle_through_the_gate, demo_teardown),
      cmocka_unit_test_teardown(test_demo_rules_allocate_nothing, demo_teardown),
      cmocka_unit_test_teardown(test_a_startled_flock_scatters_then_reforms, demo_teardown),
  };
  return fb_run_tests(tests);
}
