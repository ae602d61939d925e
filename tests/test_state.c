// test_state.c — a saved state goes on bit-identically (save at 300, load, 200 more == 500 straight), and bad states are refused.
#define _GNU_SOURCE  // memmem
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hook_state.h"
#include "sim_internal.h"  // white-box: compares every agent array
#include "state.h"
#include "test_util.h"

// In a scratch folder of the test's own, not the source tree (tests run from the source root).
#define STATE_FILE fbTest_ScratchPath("test_state.state")

static void load(fbSim *sim, const char *path, int threads, const char *set)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.seed = 7;
  o.threads = threads;
  if (set != NULL) {
    o.sets[o.set_count++] = set;
  }
  char err[4096];
  if (!fbSim_Load(sim, path, &o, err, sizeof err)) {
    fail_msg("%s", err);
  }
}

static void steps(fbSim *sim, int n)
{
  for (int k = 0; k < n; ++k) {
    if (!fbSim_Step(sim)) {
      fail_msg("%s", sim->error);
    }
  }
}

static void save(fbSim *sim)
{
  char err[4096];
  if (!fbState_Save(sim, STATE_FILE, NULL, err, sizeof err)) {
    fail_msg("%s", err);
  }
}

// Every agent array, both field buffers, the counters and the scenario's metrics (its upvalues).
static void assert_same(fbSim *a, fbSim *b)
{
  assert_int_equal(fbSim_Hash(a), fbSim_Hash(b));
  assert_int_equal(a->world.step, b->world.step);
  assert_int_equal(a->world.next_id, b->world.next_id);
  assert_int_equal(a->world.removed_total, b->world.removed_total);
  assert_int_equal(a->catches, b->catches);
  const fbAgents *x = &a->world.agents, *y = &b->world.agents;
  assert_int_equal(x->count, y->count);
  for (int i = 0; i < x->count; ++i) {
    int j = fbWorld_FindAgent(&b->world, x->id[i]);
    assert_true(j >= 0);
    const double *xs[] = {x->px, x->py, x->vx, x->vy, x->hx, x->hy, x->ax, x->ay, x->fx, x->fy, x->dx, x->dy, x->energy};
    const double *ys[] = {y->px, y->py, y->vx, y->vy, y->hx, y->hy, y->ax, y->ay, y->fx, y->fy, y->dx, y->dy, y->energy};
    for (size_t k = 0; k < sizeof xs / sizeof xs[0]; ++k) {
      assert_memory_equal(&xs[k][i], &ys[k][j], sizeof(double));
    }
    assert_int_equal(x->species[i], y->species[j]);
    assert_int_equal(x->held[i], y->held[j]);
    for (int f = 0; f < a->world.field_count; ++f) {
      assert_memory_equal(&x->field[f][i], &y->field[f][j], sizeof(double));
      assert_memory_equal(&x->field_next[f][i], &y->field_next[f][j], sizeof(double));
    }
  }
  double ma[FB_MAX_METRICS], mb[FB_MAX_METRICS];
  assert_true(fbSim_Metrics(a, ma));
  assert_true(fbSim_Metrics(b, mb));
  assert_memory_equal(ma, mb, sizeof(double) * (size_t)a->hooks.metric_count);
}

static fbSim straight, resumed;

// 300 steps on `threads`, saved; loaded into a fresh sim on `threads`, 200 more; 500 straight on 1.
static void check_resume(const char *path, int threads)
{
  load(&resumed, path, threads, NULL);
  steps(&resumed, 300);
  save(&resumed);
  fbSim_Free(&resumed);
  load(&resumed, path, threads, NULL);
  fbStateInfo info;
  char err[4096];
  if (!fbState_Load(&resumed, STATE_FILE, &info, err, sizeof err)) {
    fail_msg("%s", err);
  }
  assert_int_equal(info.step, 300);
  assert_false(info.rules_differ);
  steps(&resumed, 200);
  load(&straight, path, 1, NULL);
  steps(&straight, 500);
  assert_same(&straight, &resumed);
  fbSim_Free(&straight);
  fbSim_Free(&resumed);
}

static void test_classic_flock(void **state)
{
  (void)state;
  check_resume("scripts/classic_flock.lua", 1);
  check_resume("scripts/classic_flock.lua", 3);
}

static void test_perching_birds(void **state)  // landings and landed: upvalues of on_step and a metric
{
  (void)state;
  check_resume("scripts/perching_birds.lua", 1);
  check_resume("scripts/perching_birds.lua", 3);
}

static void test_predator_prey(void **state)  // removals, spawns from the hook (math.random), catches
{
  (void)state;
  check_resume("scripts/predator_prey.lua", 1);
  check_resume("scripts/predator_prey.lua", 3);
}

// A hook's fb.set_param at step 100 is in the state saved at 300 (it used to be lost: the resumed
// run went on with the scenario's values).
static void test_params_set_by_a_hook(void **state)
{
  (void)state;
  check_resume("tests/data/param_hook.lua", 1);
  check_resume("tests/data/param_hook.lua", 3);
}

static void test_herd_split(void **state)
{
  (void)state;
  check_resume("scripts/herd_split.lua", 1);
  check_resume("scripts/herd_split.lua", 3);
}

// A fresh sim of scenario `path` with `set`, asked to load the file: refused with a message holding `want`.
static void assert_refused(const char *path, const char *set, const char *want)
{
  fbSim sim;
  load(&sim, path, 1, set);
  fbStateInfo info;
  char err[4096] = "";
  bool ok = fbState_Load(&sim, STATE_FILE, &info, err, sizeof err);
  fbSim_Free(&sim);
  if (ok || strstr(err, want) == NULL || strstr(err, STATE_FILE) == NULL) {
    fail_msg("expected a refusal naming the file and '%s', got %s: %s", want, ok ? "loaded" : "refused", err);
  }
}

static void saved_classic_flock(const char *set)
{
  fbSim sim;
  load(&sim, "scripts/classic_flock.lua", 1, set);
  steps(&sim, 20);
  save(&sim);
  fbSim_Free(&sim);
}

static long file_size(void)
{
  FILE *f = fopen(STATE_FILE, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fclose(f);
  return n;
}

static void rewrite(long cut, long flip)
{
  static unsigned char data[1 << 20];
  FILE *f = fopen(STATE_FILE, "rb");
  long n = (long)fread(data, 1, sizeof data, f);
  fclose(f);
  if (flip >= 0 && flip < n) {
    data[flip] ^= 0x5a;
  }
  f = fopen(STATE_FILE, "wb");
  fwrite(data, 1, (size_t)(cut >= 0 && cut < n ? cut : n), f);
  fclose(f);
}

static void test_refused(void **state)
{
  (void)state;
  saved_classic_flock(NULL);
  assert_refused("scripts/two_flocks.lua", NULL, "saved from scenario");
  assert_refused("scripts/classic_flock.lua", "boid.max_speed=8", "--set");
  saved_classic_flock("boid.max_speed=8");
  assert_refused("scripts/classic_flock.lua", "boid.max_speed=9", "--set boid.max_speed=8");
  assert_refused("scripts/classic_flock.lua", NULL, "--set");
  saved_classic_flock(NULL);
  rewrite(-1, 0);
  assert_refused("scripts/classic_flock.lua", NULL, "bad magic");
  assert_refused("scripts/classic_flock.lua", NULL, "bad magic");
  // Cut anywhere, or one byte flipped anywhere: refused with a message, never a crash.
  for (int k = 1; k < 40; ++k) {
    saved_classic_flock(NULL);
    long n = file_size();
    rewrite(n * k / 40, -1);
    assert_refused("scripts/classic_flock.lua", NULL, "");
    saved_classic_flock(NULL);
    rewrite(-1, 8 + (n - 8) * k / 40);
    assert_refused("scripts/classic_flock.lua", NULL, "");
  }
  saved_classic_flock(NULL);
  rewrite(file_size() - 1, -1);
  assert_refused("scripts/classic_flock.lua", NULL, "truncated or corrupt");
}

// Corrupt snapshots handed to fbState_Restore itself (no SHA-256 to catch them): every length checked.
static void test_restore_checks_lengths(void **state)
{
  (void)state;
  fbSim sim;
  load(&sim, "scripts/perching_birds.lua", 1, NULL);
  steps(&sim, 30);
  fbBytes b = {0};
  char err[4096];
  assert_true(fbState_Snapshot(&sim, &b, err, sizeof err));
  for (size_t cut = 0; cut < b.len; cut += 1 + b.len / 97) {
    assert_false(fbState_Restore(&sim, b.data, cut, false, err, sizeof err));
    if (strstr(err, "truncated") == NULL && strstr(err, "malformed") == NULL) {
      fail_msg("cut at %zu of %zu: %s", cut, b.len, err);
    }
    fbSim_Free(&sim);
    load(&sim, "scripts/perching_birds.lua", 1, NULL);
  }
  assert_true(fbState_Restore(&sim, b.data, b.len, false, err, sizeof err));
  fbBytes_Free(&b);
  fbSim_Free(&sim);
}

static void test_coroutine_refused(void **state)
{
  (void)state;
  fbSim sim;
  load(&sim, "tests/data/state_coroutine.lua", 1, NULL);
  steps(&sim, 3);
  char err[4096] = "";
  bool bad_input = false;
  assert_false(fbState_Save(&sim, fbTest_ScratchPath("coroutine.state"), &bad_input, err, sizeof err));
  assert_true(bad_input);  // the scenario's fault: headless exits 2
  assert_non_null(strstr(err, "'on_step.ticker'"));
  assert_non_null(strstr(err, "coroutine"));
  fbSim_Free(&sim);
}

// ---- hook data: depth, cycles, sharing -----------------------------------------------------------

/*
 * A scenario whose hooks keep `kept`, made by the Lua expression `make` (nest(n) is a table of
 * tables n levels deep, linked by `next`), with a metric reading its depth, and call `helper` (a
 * function, or nil); written to /tmp, as each case needs its own shape. Its rules are found in the
 * repo's behaviours/ (the tests run from the repo's root).
 */
static char scenario_path[128];  // removed when the tests are done

static const char *hooks_scenario(const char *make, const char *helper)
{
  char *path = scenario_path;
  snprintf(path, sizeof scenario_path, "/tmp/flockbox_state_kept_%d.lua", (int)getpid());
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f,
          "local function nest(levels)\n"
          "  local t = { leaf = levels }\n"
          "  for d = levels - 1, 1, -1 do t = { d = d, next = t } end\n"
          "  return t\n"
          "end\n"
          "local kept = %s\n"
          "local helper = %s\n"
          "return {\n"
          "  world = { width = 60, height = 60, dt = 0.05 },\n"
          "  species = { { name = \"boid\", count = 6, rules = { \"separation\" } } },\n"
          "  on_step = function(step) kept.step = step if helper then helper() end end,\n"
          "  metrics = { { \"depth\", function()\n"
          "    local d, t = 0, kept\n"
          "    while type(t) == \"table\" do d, t = d + 1, t.next end\n"
          "    return d\n"
          "  end } },\n"
          "}\n",
          make, helper);
  assert_int_equal(fclose(f), 0);
  return path;
}

static const char *kept_scenario(const char *make) { return hooks_scenario(make, "nil"); }

static double first_metric(fbSim *sim)
{
  double m[FB_MAX_METRICS];
  assert_true(fbSim_Metrics(sim, m));
  return m[0];
}

// Saved after 5 steps, restored into a fresh sim of the scenario and saved again: the same bytes;
// both then step on alike. Returns the metric (kept's depth) as restored.
static double assert_round_trip(const char *path)
{
  char err[4096];
  fbBytes a = {0}, b = {0};
  load(&straight, path, 1, NULL);
  steps(&straight, 5);
  if (!fbState_Snapshot(&straight, &a, err, sizeof err)) {
    fail_msg("%s", err);
  }
  load(&resumed, path, 1, NULL);
  if (!fbState_Restore(&resumed, a.data, a.len, false, err, sizeof err)) {
    fail_msg("%s", err);
  }
  if (!fbState_Snapshot(&resumed, &b, err, sizeof err)) {
    fail_msg("%s", err);
  }
  assert_int_equal(a.len, b.len);
  assert_memory_equal(a.data, b.data, a.len);
  double depth = first_metric(&resumed);
  steps(&straight, 3);
  steps(&resumed, 3);
  assert_same(&straight, &resumed);
  fbBytes_Free(&a);
  fbBytes_Free(&b);
  fbSim_Free(&straight);
  fbSim_Free(&resumed);
  return depth;
}

// The scenario refuses to be saved, with a message holding each of the wanted pieces.
static void assert_save_refused(const char *path, const char *want, const char *want2)
{
  char err[4096] = "";
  fbBytes b = {0};
  load(&straight, path, 1, NULL);
  steps(&straight, 2);
  bool ok = fbState_Snapshot(&straight, &b, err, sizeof err);
  fbBytes_Free(&b);
  fbSim_Free(&straight);
  if (ok || strstr(err, want) == NULL || strstr(err, want2) == NULL) {
    fail_msg("expected a refusal with '%s' and '%s', got %s: %s", want, want2, ok ? "saved" : "refused", err);
  }
}

// 16 levels used to overflow the Lua stack (three slots a level, unchecked): SIGSEGV. The limit,
// FB_HOOK_STATE_DEPTH, holds exactly.
static void test_nested_tables(void **state)
{
  (void)state;
  assert_true(assert_round_trip(kept_scenario("nest(16)")) == 16);
  assert_true(assert_round_trip(kept_scenario("nest(32)")) == FB_HOOK_STATE_DEPTH);
  char next32[32 * 5 + 16] = "'on_step.kept";
  for (int k = 0; k < 32; ++k) {
    strcat(next32, ".next");
  }
  strcat(next32, "'");
  assert_save_refused(kept_scenario("nest(33)"), next32, "is a table nested 33 deep (at most 32)");
  assert_save_refused(kept_scenario("nest(5000)"), next32, "is a table nested 33 deep (at most 32)");
}

// A table that holds itself is named as a cycle, where it starts and the way back to it; it used to
// be caught only by the depth limit, after the stack had overflowed (a bad free under ASan).
static void test_cycle_refused(void **state)
{
  (void)state;
  assert_save_refused(kept_scenario("(function() local t = {} t.self = t return t end)()"),
                      "hook upvalue 'on_step.kept' contains itself: a cycle through 'on_step.kept.self'", "");
  assert_save_refused(kept_scenario("(function() local t = nest(6) t.next.next.back = t.next return t end)()"),
                      "'on_step.kept.next' contains itself: a cycle through 'on_step.kept.next.next.back'", "");
}

// A table in two places, no cycle: saved in each (and restored as two tables).
static void test_shared_table_saved(void **state)
{
  (void)state;
  assert_true(assert_round_trip(kept_scenario("(function() local s = { 1, 2, { x = 3 } }\n"
                                              "  local t = nest(30) t.a, t.b, t.next.c = s, s, { s, s } return t end)()")) ==
              30);
}

/*
 * A hook section written by hand: no generator state, one record for on_step.kept, a chain of
 * `levels` tables each holding the next under "next". The tags are hook_state.c's (TAG_STRING 5,
 * TAG_TABLE 6): a section another program wrote.
 */
static void deep_section(fbBytes *b, int levels)
{
  fbBytes_Blob(b, "", 0);
  fbBytes_U32(b, 1);
  fbBytes_Str(b, "on_step.kept");
  for (int k = 0; k < levels; ++k) {
    fbBytes_U8(b, 6);
    fbBytes_U32(b, k + 1 < levels ? 1 : 0);
    if (k + 1 < levels) {
      fbBytes_U8(b, 5);
      fbBytes_Str(b, "next");
    }
  }
}

// Restoring as deep as saving allows builds every level (the stack grown for it); deeper is malformed.
static void test_restore_deep_section(void **state)
{
  (void)state;
  load(&resumed, kept_scenario("nest(1)"), 1, NULL);
  const int depths[] = {16, FB_HOOK_STATE_DEPTH, FB_HOOK_STATE_DEPTH + 1, 100000};
  for (size_t k = 0; k < sizeof depths / sizeof depths[0]; ++k) {
    fbBytes b = {0};
    deep_section(&b, depths[k]);
    fbReader r = fbReader_Of(b.data, b.len);
    char err[4096] = "";
    bool ok = fbHookState_Restore(&resumed.hooks, &r, err, sizeof err);
    fbBytes_Free(&b);
    if (depths[k] <= FB_HOOK_STATE_DEPTH) {
      assert_true(ok);
      assert_true(first_metric(&resumed) == depths[k]);
    } else if (ok || strstr(err, "the hooks' state is malformed (record 1 of 1)") == NULL) {
      fail_msg("%d levels: expected 'malformed', got %s: %s", depths[k], ok ? "restored" : "refused", err);
    }
  }
  fbSim_Free(&resumed);
}

// Functions reached through upvalues are followed FB_HOOK_STATE_DEPTH deep (each closure below
// calls the one before it, its upvalue g): a chain of a thousand is refused by name, not followed
// until the stack runs out.
#define CHAIN "(function(n) local f = function() return 0 end\n" \
              "  for i = 1, n do local g = f f = function() return g() + 1 end end return f end)"

static void test_function_chain(void **state)
{
  (void)state;
  assert_true(assert_round_trip(hooks_scenario("nest(3)", CHAIN "(30)")) == 3);
  char want[40 * 2 + 64] = "'on_step.helper";  // on_step the first function, helper the second
  for (int k = 2; k < 33; ++k) {
    strcat(want, ".g");
  }
  strcat(want, "' is a function nested 33 deep");
  assert_save_refused(hooks_scenario("nest(3)", CHAIN "(1000)"), want, "(at most 32)");
}

// ---- states that lie: a matching SHA-256 around numbers no scenario could make ------------------

// Where `what` (n bytes) lies in the snapshot; fails the test unless it is there.
static unsigned char *find(unsigned char *data, size_t len, const void *what, size_t n)
{
  unsigned char *at = memmem(data, len, what, n);
  if (at == NULL) {
    fail_msg("the snapshot does not hold the bytes looked for");
  }
  return at;
}

// A name as fbBytes_Str writes it: its length as a u32, then its bytes.
static unsigned char *find_name(unsigned char *data, size_t len, const char *name)
{
  unsigned char key[64];
  uint32_t n = (uint32_t)strlen(name);
  memcpy(key, &n, sizeof n);
  memcpy(key + sizeof n, name, n);
  return find(data, len, key, sizeof n + n);
}

// Agent array k (0 px ... 12 energy, 13 the ids, then species, active and held), located by the
// position array's bytes, which lead the agent section.
static unsigned char *agent_array(const fbSim *sim, unsigned char *data, size_t len, int k)
{
  size_t n = (size_t)sim->world.agents.count;
  unsigned char *px = find(data, len, sim->world.agents.px, sizeof(double) * n);
  return k <= 13 ? px + sizeof(double) * n * (size_t)k : px + (13 * sizeof(double) + 4) * n + (size_t)(k - 14) * n;
}

static void put_double(unsigned char *at, double v) { memcpy(at, &v, sizeof v); }

// True if text holds want, where '*' in want stands for any run of characters (an agent's id).
static bool holds(const char *text, const char *want)
{
  const char *star = strchr(want, '*');
  if (star == NULL) {
    return strstr(text, want) != NULL;
  }
  char head[256];
  snprintf(head, sizeof head, "%.*s", (int)(star - want), want);
  for (const char *at = strstr(text, head); at != NULL; at = strstr(at + 1, head)) {
    for (const char *rest = at + strlen(head); *rest != '\0'; ++rest) {
      if (holds(rest, star + 1) && strncmp(rest, star + 1, strcspn(star + 1, "*")) == 0) {
        return true;
      }
    }
  }
  return false;
}

typedef void (*Patch)(const fbSim *sim, unsigned char *data, size_t len);

/*
 * Saves scenario `path` after 10 steps with the snapshot changed by `patch` and re-hashed (as a
 * buggy embedder or a hand edit would), then loads it into the same sim: refused with a message
 * naming the file and holding `want`, and the sim as it was (it steps on to the same hash as a
 * twin that never saw the file).
 */
static void assert_lie_refused(const char *path, Patch patch, const char *want)
{
  fbSim sim, twin;
  load(&sim, path, 1, NULL);
  load(&twin, path, 1, NULL);
  steps(&sim, 10);
  steps(&twin, 10);
  fbBytes body = {0}, file = {0};
  char err[4096] = "";
  assert_true(fbState_Snapshot(&sim, &body, err, sizeof err));
  patch(&sim, body.data, body.len);
  fbState_Encode(&sim, body.data, body.len, &file);
  FILE *f = fopen(STATE_FILE, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(file.data, 1, file.len, f), file.len);
  fclose(f);
  fbBytes_Free(&body);
  fbBytes_Free(&file);
  fbStateInfo info;
  bool ok = fbState_Load(&sim, STATE_FILE, &info, err, sizeof err);
  char prefix[600];
  snprintf(prefix, sizeof prefix, "%s: ", STATE_FILE);
  if (ok || !holds(err, want) || strncmp(err, prefix, strlen(prefix)) != 0) {
    fail_msg("expected '%s: ...%s...', got %s: %s", STATE_FILE, want, ok ? "loaded" : "refused", err);
  }
  assert_int_equal(sim.world.species[0].rules[0].weight, twin.world.species[0].rules[0].weight);
  steps(&sim, 5);
  steps(&twin, 5);
  assert_same(&twin, &sim);
  fbSim_Free(&sim);
  fbSim_Free(&twin);
}

static void nan_position(const fbSim *sim, unsigned char *d, size_t n) { put_double(agent_array(sim, d, n, 0) + 3 * 8, NAN); }
static void huge_position(const fbSim *sim, unsigned char *d, size_t n) { put_double(agent_array(sim, d, n, 1) + 8, 1e300); }
static void inf_velocity(const fbSim *sim, unsigned char *d, size_t n) { put_double(agent_array(sim, d, n, 3), INFINITY); }
static void nan_heading(const fbSim *sim, unsigned char *d, size_t n) { put_double(agent_array(sim, d, n, 4), NAN); }
static void nan_force(const fbSim *sim, unsigned char *d, size_t n) { put_double(agent_array(sim, d, n, 8), NAN); }
static void nan_energy(const fbSim *sim, unsigned char *d, size_t n) { put_double(agent_array(sim, d, n, 12), -NAN); }
static void duplicate_id(const fbSim *sim, unsigned char *d, size_t n)
{
  unsigned char *ids = agent_array(sim, d, n, 13);
  memcpy(ids + 4 * 5, ids + 4 * 2, 4);
}
static void id_past_next(const fbSim *sim, unsigned char *d, size_t n)
{
  uint32_t id = sim->world.next_id;
  memcpy(agent_array(sim, d, n, 13), &id, 4);
}
static void id_zero(const fbSim *sim, unsigned char *d, size_t n) { memset(agent_array(sim, d, n, 13) + 4, 0, 4); }
static void active_two(const fbSim *sim, unsigned char *d, size_t n) { agent_array(sim, d, n, 15)[1] = 2; }
static void held_two(const fbSim *sim, unsigned char *d, size_t n) { agent_array(sim, d, n, 16)[0] = 2; }
static void species_unknown(const fbSim *sim, unsigned char *d, size_t n) { agent_array(sim, d, n, 14)[0] = 7; }
static void input_held_two(const fbSim *sim, unsigned char *d, size_t n)
{
  (void)sim, (void)n;
  d[4 + 8 + 4 + 8 + 8 + 16] = 2;  // mark, step, next id, removed, catches, input: then input_held
}
static void nan_input(const fbSim *sim, unsigned char *d, size_t n)
{
  (void)sim, (void)n;
  put_double(d + 4 + 8 + 4 + 8 + 8, NAN);
}
static void nan_weight(const fbSim *sim, unsigned char *d, size_t n)  // the first rule of the first species
{
  put_double(find_name(d, n, sim->world.species[0].name) + 4 + strlen(sim->world.species[0].name) + 4, NAN);
}
static void huge_weight(const fbSim *sim, unsigned char *d, size_t n)
{
  put_double(find_name(d, n, sim->world.species[0].name) + 4 + strlen(sim->world.species[0].name) + 4, 1e300);
}
static void nan_parameter(const fbSim *sim, unsigned char *d, size_t n)  // perch's ceiling: name, kind, number
{
  (void)sim;
  put_double(find_name(d, n, "ceiling") + 4 + strlen("ceiling") + 1, NAN);
}
static void nan_goal(const fbSim *sim, unsigned char *d, size_t n)  // its name, then where it is
{
  unsigned char key[4 + 5 + 16];
  uint32_t len = 5;
  memcpy(key, &len, 4);
  memcpy(key + 4, "roost", 5);
  memcpy(key + 9, &sim->world.goals[0].p, 16);
  put_double(find(d, n, key, sizeof key) + 9, NAN);
}
static void nan_field(const fbSim *sim, unsigned char *d, size_t n)  // perch's field alt, after the agents
{
  unsigned char *after = agent_array(sim, d, n, 17);
  put_double(find_name(after, n - (size_t)(after - d), "alt") + 4 + 3 + 8 * 2, NAN);
}
static void metric_flag_two(const fbSim *sim, unsigned char *d, size_t n)  // the last byte before the agent count
{
  agent_array(sim, d, n, 0)[-5] = 2;
}
static void nan_path_speed(const fbSim *sim, unsigned char *d, size_t n)
{
  const fbPath *p = &sim->world.paths.items[0];
  double object[7] = {p->s, p->speed, p->speed_override, p->p.x, p->p.y, p->tangent.x, p->tangent.y};
  put_double(find(d, n, object, sizeof object) + 8, NAN);
}
static void huge_path_point(const fbSim *sim, unsigned char *d, size_t n)
{
  const fbPath *p = &sim->world.paths.items[0];
  put_double(find(d, n, p->points, sizeof *p->points * (size_t)p->point_count) + 8 * 3, -1e300);
}

static void test_lies_refused(void **state)
{
  (void)state;
  const char *flock = "scripts/classic_flock.lua", *birds = "scripts/perching_birds.lua";
  assert_lie_refused(flock, nan_position, "agent 4 (id *): position is not finite (nan)");
  assert_lie_refused(flock, huge_position, "agent 2 (id *): position is beyond 1e9 (1e+300)");
  assert_lie_refused(flock, inf_velocity, "agent 1 (id *): velocity is not finite (inf)");
  assert_lie_refused(flock, nan_heading, "agent 1 (id *): heading is not finite");
  assert_lie_refused(flock, nan_force, "agent 1 (id *): force is not finite");
  assert_lie_refused(flock, nan_energy, "agent 1 (id *): energy is not finite");
  assert_lie_refused(flock, duplicate_id, "agent id * is held by two agents");
  assert_lie_refused(flock, id_past_next, "agent 1 (id ");
  assert_lie_refused(flock, id_past_next, "the id is not from 1 to");
  assert_lie_refused(flock, id_zero, "agent 2 (id *): the id is not from 1 to");
  assert_lie_refused(flock, active_two, "agent 2 (id *): its active flag is 2, not 0 or 1");
  assert_lie_refused(flock, held_two, "agent 1 (id *): its held flag is 2, not 0 or 1");
  assert_lie_refused(flock, species_unknown, "agent 1 (id *): species 7 is not one the state lists");
  assert_lie_refused(flock, input_held_two, "the player's input_held flag is 2, not 0 or 1");
  assert_lie_refused(flock, nan_input, "the player's input is not finite");
  assert_lie_refused(flock, nan_weight, "species boid: rule 1: weight nan is not a finite number within");
  assert_lie_refused(flock, huge_weight, "species boid: rule 1: weight 1e+300 is not a finite number within");
  assert_lie_refused(birds, nan_parameter, "species bird: rule * parameter ceiling is not finite");
  assert_lie_refused(birds, nan_goal, "goal roost: position is not finite");
  assert_lie_refused(birds, nan_field, "field alt is not finite");
  assert_lie_refused(birds, metric_flag_two, "its switched-off flag is 2, not 0 or 1");
  assert_lie_refused("scripts/dragonflies_path.lua", nan_path_speed, "path river: speed is not finite");
  assert_lie_refused("scripts/dragonflies_path.lua", huge_path_point, "path river: point 2 is beyond 1e9");
}

// A field whose declared initial value is math.huge (beyond what a:set takes) is kept by a state.
static void test_far_field_initial_value_kept(void **state)
{
  (void)state;
  check_resume("tests/data/state_far_field.lua", 1);
}

// A FIFO, a folder or a device as the state to load, or as the place to save one: refused at once.
static void test_not_files(void **state)
{
  (void)state;
  fbSim sim;
  load(&sim, "scripts/classic_flock.lua", 1, NULL);
  char err[4096] = "", fifo[512], folder[512];
  snprintf(fifo, sizeof fifo, "%s", fbTest_ScratchPath("test_state.fifo"));
  snprintf(folder, sizeof folder, "%s", fbTest_ScratchPath("a_folder"));
  remove(fifo);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  assert_int_equal(mkdir(folder, 0700), 0);
  fbStateInfo info;
  const char *inputs[] = {fifo, folder, "/dev/zero"};
  for (size_t k = 0; k < 3; ++k) {
    assert_false(fbState_Load(&sim, inputs[k], &info, err, sizeof err));
    assert_non_null(strstr(err, inputs[k]));
    assert_non_null(strstr(err, "cannot read the state: not a regular file"));
  }
  const char *outputs[] = {fifo, folder};
  for (size_t k = 0; k < 2; ++k) {
    bool bad_input = false;
    assert_false(fbState_Save(&sim, outputs[k], &bad_input, err, sizeof err));
    assert_true(bad_input);
    assert_non_null(strstr(err, outputs[k]));
    assert_non_null(strstr(err, "not a regular file"));
  }
  struct stat st;
  assert_int_equal(stat(fifo, &st), 0);
  assert_true(S_ISFIFO(st.st_mode));
  remove(fifo);
  fbSim_Free(&sim);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_classic_flock),     cmocka_unit_test(test_perching_birds),
      cmocka_unit_test(test_predator_prey),     cmocka_unit_test(test_herd_split),
      cmocka_unit_test(test_refused),           cmocka_unit_test(test_restore_checks_lengths),
      cmocka_unit_test(test_coroutine_refused), cmocka_unit_test(test_params_set_by_a_hook),
      cmocka_unit_test(test_nested_tables),     cmocka_unit_test(test_cycle_refused),
      cmocka_unit_test(test_shared_table_saved), cmocka_unit_test(test_function_chain),
      cmocka_unit_test(test_restore_deep_section),
      cmocka_unit_test(test_lies_refused),      cmocka_unit_test(test_not_files),
      cmocka_unit_test(test_far_field_initial_value_kept),
  };
  int failed = fb_run_tests(tests);
  if (scenario_path[0] != '\0') {
    remove(scenario_path);
  }
  return failed;
}
