// test_show_value.c — values shown for a person (the console) and copied as Lua source (a failing rule's locals).
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <string.h>

#include "lua_host.h"
#include "show_value.h"

static fbLuaHost host;
static char err[4096], text[4096];

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

typedef struct Job {
  bool source;
} Job;

// The value `code` returns, shown (or as source) inside the protected door, as the console does.
static bool show_protected(lua_State *L, void *ud, char *e, size_t elen)
{
  (void)e;
  (void)elen;
  fbShowText out = fbShowText_Of(text, sizeof text);
  if (((Job *)ud)->source) {
    fbLua_ShowSource(L, 1, &out);
  } else {
    fbLua_Show(L, 1, true, &out);
  }
  return true;
}

static const char *shown(const char *code, bool source)
{
  assert_true(fbLuaHost_RunString(&host, code, "probe.lua", err, sizeof err));
  Job job = {source};
  assert_true(fbLuaHost_ProtectWith(&host, 1, "show", show_protected, &job, err, sizeof err));
  return text;
}

static void test_tables_read_the_same_on_every_run(void **state)
{
  (void)state;
  assert_string_equal(shown("return {3, 1, zeta = 1, alpha = {b = true, a = 'x'}, [10] = 0, ['end'] = 2}", false),
                      "{3, 1, [10] = 0, alpha = {a = \"x\", b = true}, [\"end\"] = 2, zeta = 1}");
  assert_string_equal(shown("local t = {} t.self = t return t", false), "{self = <cycle>}");
  assert_string_equal(shown("return {a = {b = {c = {1, 2}}}}", false), "{a = {b = {c = {... 2 entries}}}}");
  assert_string_equal(shown("local t = {} for i = 1, 30 do t[i] = i end return t", false),
                      "{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, ... (6 more)}");
}

static void test_hostile_metamethods_are_contained(void **state)
{
  (void)state;
  assert_string_equal(shown("return setmetatable({1}, {__index = error, __pairs = error, __len = error})", false), "{1}");
  assert_string_equal(shown("return setmetatable({}, {__tostring = function() error('no') end})", false),
                      "<table whose __tostring failed>");
  assert_string_equal(shown("return setmetatable({}, {__tostring = function() return 'me' end})", false), "me");
}

// Functions by where they were defined (C functions, a view's methods, left out), numbers exact.
static void test_source_rebuilds_the_data(void **state)
{
  (void)state;
  const char *code = "return {0.1, 1/0, -1/0, math.mininteger, 'a\\n\"b', [2.5] = true, f = function() end, g = print, t = {x = 1}}";
  const char *source = shown(code, true);
  assert_string_equal(source, "{0.10000000000000001, (1/0), (-1/0), (-9223372036854775807 - 1), \"a\\n\\\"b\", "
                              "[2.5] = true, f = \"function (probe.lua:1)\", t = {x = 1}}");
  char chunk[8192];
  snprintf(chunk, sizeof chunk, "local v = %s return v[1] == 0.1 and v[2] == math.huge and v[4] == math.mininteger "
                                "and v[5] == 'a\\n\"b' and v[2.5] and v.t.x == 1", source);
  assert_true(fbLuaHost_RunString(&host, chunk, "roundtrip.lua", err, sizeof err));
  assert_true(lua_toboolean(host.L, -1));
  lua_pop(host.L, 1);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tables_read_the_same_on_every_run),
      cmocka_unit_test(test_hostile_metamethods_are_contained),
      cmocka_unit_test(test_source_rebuilds_the_data),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
