// test_threads.c — separate sims on separate threads at once run as each would alone (flockbox.h, "threads").
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "flockbox/flockbox.h"
#include "state.h"
#include "test_util.h"

/*
 * A run loads its scenario (paths, flow fields, regions, rules, hooks), steps it, saves its state
 * half-way, loads the scenario again into a fresh sim, restores the state there and steps on: every
 * piece of the engine that kept scratch in a function-local static (the scenario readers, the
 * rule loader, the hooks' agent lists in id order, the state file's rule list) is used on each
 * thread while the other thread uses it too. Its hash at the end must be the hash of the same run
 * made alone, on one thread: a shared scratch shows as a wrong hash, and under the sanitizers as
 * a use after free when one thread grows a buffer the other is reading.
 */
#define HALF 150

// The program's log function: counts messages, and calls that overlapped another (the engine
// promises none, whichever sims and threads the messages come from).
static atomic_int in_log, log_messages, log_overlaps;

static void count_message(fbLogLevel level, const char *message, void *context)
{
  (void)level;
  (void)message;
  (void)context;
  if (atomic_fetch_add(&in_log, 1) != 0) {
    atomic_fetch_add(&log_overlaps, 1);
  }
  atomic_fetch_add(&log_messages, 1);
  sched_yield();  // a window for another thread's message to arrive in
  atomic_fetch_sub(&in_log, 1);
}

typedef struct Run {
  const char *scenario;
  const char *set;             // one --set, or NULL
  int threads;                 // the sim's own worker threads
  char state_path[128];
  pthread_barrier_t *start;    // NULL: alone
  uint64_t hash;
  bool ok;
  char err[4096];
} Run;

static fbSim *load(Run *run)
{
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.seed = 11;
  o.threads = run->threads;
  o.headless = true;
  if (run->set != NULL) {
    o.sets[o.set_count++] = run->set;
  }
  return fbSim_NewFromFile(run->scenario, &o, run->err, sizeof run->err);
}

static bool steps(Run *run, fbSim *sim, int n)
{
  for (int k = 0; k < n; ++k) {
    if (!fbSim_Step(sim)) {
      snprintf(run->err, sizeof run->err, "%s: step %d: %s", run->scenario, k, fbSim_Error(sim));
      return false;
    }
  }
  return true;
}

static void *make_run(void *arg)
{
  Run *run = arg;
  if (run->start != NULL) {
    pthread_barrier_wait(run->start);
  }
  fbSim *first = load(run);
  bool ok = first != NULL && steps(run, first, HALF) &&
            fbState_Save(first, run->state_path, NULL, run->err, sizeof run->err);
  fbSim_Delete(first);
  fbSim *second = ok ? load(run) : NULL;
  fbStateInfo info;
  ok = second != NULL && fbState_Load(second, run->state_path, &info, run->err, sizeof run->err) &&
       steps(run, second, HALF);
  run->hash = ok ? fbSim_Hash(second) : 0;
  run->ok = ok;
  fbSim_Delete(second);
  remove(run->state_path);
  return NULL;
}

// What one of the two threads runs.
typedef struct Side {
  const char *scenario;
  const char *set;
  int threads;
} Side;

static void init_run(Run *run, Side side, int threads, const char *tag)
{
  memset(run, 0, sizeof *run);
  run->scenario = side.scenario;
  run->set = side.set;
  run->threads = threads;
  snprintf(run->state_path, sizeof run->state_path, "%s/flockbox_test_threads_%ld_%s.state", P_tmpdir,
           (long)getpid(), tag);
}

// Each side alone on one thread, then both at once, each on its own thread with its own workers.
static void two_at_once(Side a, Side b)
{
  Run alone[2], together[2];
  init_run(&alone[0], a, 1, "alone_a");
  init_run(&alone[1], b, 1, "alone_b");
  for (int k = 0; k < 2; ++k) {
    make_run(&alone[k]);
    if (!alone[k].ok) {
      fail_msg("alone: %s", alone[k].err);
    }
  }
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, 2);
  init_run(&together[0], a, a.threads, "together_a");
  init_run(&together[1], b, b.threads, "together_b");
  pthread_t thread[2];
  for (int k = 0; k < 2; ++k) {
    together[k].start = &start;
    assert_int_equal(pthread_create(&thread[k], NULL, make_run, &together[k]), 0);
  }
  for (int k = 0; k < 2; ++k) {
    pthread_join(thread[k], NULL);
  }
  pthread_barrier_destroy(&start);
  assert_int_equal(atomic_load(&log_overlaps), 0);
  for (int k = 0; k < 2; ++k) {
    if (!together[k].ok) {
      fail_msg("together: %s", together[k].err);
    }
    if (together[k].hash != alone[k].hash) {
      fail_msg("%s%s%s stepped beside %s: hash %016llx, alone %016llx", together[k].scenario,
               together[k].set != NULL ? " --set " : "", together[k].set != NULL ? together[k].set : "",
               together[1 - k].scenario, (unsigned long long)together[k].hash, (unsigned long long)alone[k].hash);
    }
  }
}

// Hooks walking in id order many times a step, spawning and removing, in two sims of different
// sizes: the agents' order by id (slots, then a sort) and fb.mean's list, a path's speed table.
static void test_hooks_of_two_sizes_beside_each_other(void **state)
{
  (void)state;
  int messages_before = atomic_load(&log_messages);
  two_at_once((Side){"tests/data/threads_hooks.lua", "flock.count=40", 1},
              (Side){"tests/data/threads_hooks.lua", "flock.count=90", 2});
  assert_true(atomic_load(&log_messages) - messages_before >= 2 * 2 * HALF / 25);  // both sims printed, twice a half
}

// Many sims alive at once, each with many Lua states (one per worker and one for its hooks): more
// states than the watchdog's first list holds (64), every one still watched, every sim still stepping.
static void test_many_sims_alive_at_once(void **state)
{
  (void)state;
  enum { SIMS = 5, THREADS = 16 };
  fbSim *sim[SIMS];
  for (int k = 0; k < SIMS; ++k) {
    Run run;
    init_run(&run, (Side){"tests/data/threads_hooks.lua", "flock.count=10", THREADS}, THREADS, "many");
    sim[k] = load(&run);
    if (sim[k] == NULL) {
      fail_msg("sim %d: %s", k, run.err);
    }
  }
  uint64_t first = 0;
  for (int k = 0; k < SIMS; ++k) {
    Run run;
    init_run(&run, (Side){"tests/data/threads_hooks.lua", "flock.count=10", THREADS}, THREADS, "many");
    assert_true(steps(&run, sim[k], 5));
    first = k == 0 ? fbSim_Hash(sim[k]) : first;
    assert_int_equal(fbSim_Hash(sim[k]), first);
  }
  for (int k = 0; k < SIMS; ++k) {
    fbSim_Delete(sim[k]);
  }
}

// Paths read at once (points, speeds), fb.each walks in id order, fb.closest, Lua rules.
static void test_paths_and_walks_beside_each_other(void **state)
{
  (void)state;
  two_at_once((Side){"scripts/bodyguards.lua", NULL, 1}, (Side){"scripts/two_flocks.lua", NULL, 2});
}

// Flow fields and regions read at once, fb.mean and fb.centre beside the classic flock's Lua rules.
static void test_flows_beside_a_flock(void **state)
{
  (void)state;
  two_at_once((Side){"scripts/flow_maze.lua", NULL, 2}, (Side){"scripts/classic_flock.lua", "boid.count=120", 1});
}

int main(void)
{
  fbSetLogFunction(count_message, NULL);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hooks_of_two_sizes_beside_each_other),
      cmocka_unit_test(test_paths_and_walks_beside_each_other),
      cmocka_unit_test(test_flows_beside_a_flock),
      cmocka_unit_test(test_many_sims_alive_at_once),
  };
  return fb_run_tests(tests);
}
