// test_lua_host.c — the sandbox, the memory budget, the endless-loop watchdog and error messages.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <string.h>

#include "lua_host.h"

static fbLuaHost host;
static char err[4096];

static int setup(void **state)
{
  (void)state;
  return fbLuaHost_Create(&host, 64u << 20, 200) ? 0 : -1;
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

static void test_os_and_io_are_absent(void **state)
{
  (void)state;
  assert_false(run("os.execute('touch /tmp/flockbox_escaped')"));
  assert_non_null(strstr(err, "os"));
  assert_false(run("io.open('/tmp/flockbox_escaped', 'w')"));
  assert_false(run("require('os')"));
  assert_false(run("dofile('/etc/passwd')"));
  assert_false(run("loadfile('/etc/passwd')"));
  assert_true(run("assert(debug == nil and package == nil and collectgarbage == nil)"));
}

static void test_bytecode_is_refused(void **state)
{
  (void)state;
  assert_true(run("assert(string.dump == nil)"));
  // A precompiled chunk starts with ESC 'Lua'; load must refuse it whatever mode is asked for.
  assert_true(run("local f, msg = load('\\27Lua\\84\\0', 'bin', 'b'); assert(f == nil and msg:find('binary'))"));
  assert_true(run("local f = load('return 1 + 1'); assert(f() == 2)"));
}

static void test_error_names_file_and_line(void **state)
{
  (void)state;
  assert_false(run("local x = 1\nlocal y = nil\nreturn y.field\n"));
  assert_non_null(strstr(err, "probe.lua:3:"));
  assert_non_null(strstr(err, "stack traceback"));
}

static void test_memory_bomb_is_contained(void **state)
{
  (void)state;
  // Its own state with a generous timeout: near the budget every failed allocation runs a full
  // collection first, which is slow under the sanitizers.
  fbLuaHost small;
  assert_true(fbLuaHost_Create(&small, 8u << 20, 10000));
  const char *bomb = "local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 1 << 16) .. i end";
  assert_false(fbLuaHost_RunString(&small, bomb, "bomb.lua", err, sizeof err));
  assert_non_null(strstr(err, "not enough memory"));
  assert_true(small.memory <= small.memory_limit);
  // The state is still usable once the garbage is gone.
  lua_gc(small.L, LUA_GCCOLLECT);
  assert_true(fbLuaHost_RunString(&small, "local s = 0 for i = 1, 100 do s = s + i end return s", "ok.lua", err,
                                  sizeof err));
  assert_int_equal(lua_tointeger(small.L, -1), 5050);
  fbLuaHost_Destroy(&small);
}

static void test_endless_loop_is_stopped(void **state)
{
  (void)state;
  assert_false(run("while true do end"));
  assert_non_null(strstr(err, "endless loop"));
  assert_true(run("local n = 0 for i = 1, 1000 do n = n + 1 end"));
}

static void test_copy_value_between_states(void **state)
{
  (void)state;
  fbLuaHost other;
  assert_true(fbLuaHost_Create(&other, 16u << 20, 200));
  assert_true(fbLuaHost_RunString(&host, "return { a = 1.5, b = 'x', c = { true, 2 } }", "t", err, sizeof err));
  assert_true(fbLua_CopyValue(host.L, -1, other.L, "value", err, sizeof err));
  lua_pop(host.L, 1);
  lua_getfield(other.L, -1, "a");
  assert_true(lua_tonumber(other.L, -1) == 1.5);
  lua_pop(other.L, 1);
  lua_getfield(other.L, -1, "c");
  lua_rawgeti(other.L, -1, 2);
  assert_int_equal(lua_tointeger(other.L, -1), 2);
  lua_settop(other.L, 0);
  assert_true(fbLuaHost_RunString(&host, "return { f = print }", "t", err, sizeof err));
  assert_false(fbLua_CopyValue(host.L, -1, other.L, "params", err, sizeof err));
  assert_non_null(strstr(err, "params"));
  assert_int_equal(lua_gettop(other.L), 0);
  lua_pop(host.L, 1);
  fbLuaHost_Destroy(&other);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_os_and_io_are_absent),      cmocka_unit_test(test_bytecode_is_refused),
      cmocka_unit_test(test_error_names_file_and_line), cmocka_unit_test(test_memory_bomb_is_contained),
      cmocka_unit_test(test_endless_loop_is_stopped),   cmocka_unit_test(test_copy_value_between_states),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
