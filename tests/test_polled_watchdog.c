// test_polled_watchdog.c — the watchdog with no thread (the browser build): each host's count hook stops endless loops.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "lua_host.h"

#define TIMEOUT_MS 50
#define STOPPED "stopped after 50 ms of CPU time without returning"

static fbLuaHost host;
static char err[4096];

static int setup(void **state)
{
  (void)state;
  return fbLuaHost_Create(&host, 64u << 20, TIMEOUT_MS) ? 0 : -1;
}

static int teardown(void **state)
{
  (void)state;
  fbLuaHost_Destroy(&host);
  return 0;
}

static bool run(const char *code)
{
  bool ok = fbLuaHost_RunString(&host, code, "probe.lua", err, sizeof err);
  if (ok) {
    lua_pop(host.L, 1);
  }
  return ok;
}

// Threads of this process, from /proc (0 where there is no /proc to read).
static int thread_count(void)
{
  DIR *dir = opendir("/proc/self/task");
  if (dir == NULL) {
    return 0;
  }
  int count = 0;
  for (struct dirent *e; (e = readdir(dir)) != NULL;) {
    count += e->d_name[0] != '.';
  }
  closedir(dir);
  return count;
}

// In the page there is no second thread: the loops below must be stopped by the host itself.
static void test_no_watchdog_thread_is_started(void **state)
{
  (void)state;
  assert_true(host.polled);
  int threads = thread_count();
  assert_true(threads == 0 || threads == 1);
}

static void test_endless_loop_is_stopped(void **state)
{
  (void)state;
  assert_false(run("while true do end"));
  assert_non_null(strstr(err, STOPPED));
  assert_non_null(strstr(err, "probe.lua:1:"));
}

// Disarm gives the host its polling hook back: a second loop is stopped like the first.
static void test_a_stop_leaves_the_host_watched(void **state)
{
  (void)state;
  assert_false(run("while true do end"));
  assert_true(lua_gethook(host.L) != NULL);
  assert_int_equal(lua_gethookcount(host.L), FB_POLL_INSTRUCTIONS);
  assert_false(run("local n = 0\nwhile true do n = n + 1 end"));
  assert_non_null(strstr(err, STOPPED));
  assert_non_null(strstr(err, "probe.lua:2:"));
}

static void test_loop_in_a_coroutine_is_stopped(void **state)
{
  (void)state;
  assert_false(run("coroutine.wrap(function() while true do end end)()"));
  assert_non_null(strstr(err, STOPPED));
  // resume catches the error, and the stop stands in the caller: it cannot carry on either.
  assert_false(run("local ok = coroutine.resume(coroutine.create(function() while true do end end))\n"
                   "while true do end"));
  assert_non_null(strstr(err, STOPPED));
}

static void test_loop_under_pcall_is_stopped(void **state)
{
  (void)state;
  assert_false(run("while true do pcall(function() while true do end end) end"));
  assert_non_null(strstr(err, STOPPED));
}

static void test_ordinary_code_is_unaffected(void **state)
{
  (void)state;
  assert_true(run("local n = 0 for i = 1, 1000 do n = n + i end assert(n == 500500)"));
  assert_true(run("local co = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end)\n"
                  "assert(co() == 1 and co() == 2 and co() == 3)"));
  assert_true(run("local ok, msg = pcall(error, 'mine') assert(not ok and msg == 'mine')"));
  assert_true(fbLuaHost_RunString(&host, "return 6 * 7", "answer.lua", err, sizeof err));
  assert_int_equal(lua_tointeger(host.L, -1), 42);
  lua_pop(host.L, 1);
}

// Should the hook never fire, a loop would run for ever: past this much CPU time the test fails
// with a message instead of waiting for ctest's time limit.
static void give_up(int sig)
{
  (void)sig;
  static const char msg[] = "test_polled_watchdog: an endless loop ran 20 s of CPU time unstopped\n";
  (void)!write(2, msg, sizeof msg - 1);
  _exit(1);
}

int main(void)
{
  fbLuaHost_UsePolledWatchdog();
  signal(SIGVTALRM, give_up);
  struct itimerval limit = {.it_value = {.tv_sec = 20}};
  setitimer(ITIMER_VIRTUAL, &limit, NULL);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_no_watchdog_thread_is_started),  cmocka_unit_test(test_endless_loop_is_stopped),
      cmocka_unit_test(test_a_stop_leaves_the_host_watched), cmocka_unit_test(test_loop_in_a_coroutine_is_stopped),
      cmocka_unit_test(test_loop_under_pcall_is_stopped),    cmocka_unit_test(test_ordinary_code_is_unaffected),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
