// bench_lua_cost.c — what a Lua rule costs and why: the interpreter's building blocks, and the bytecodes a scenario's rules and hooks run per agent-step.
//   bench_lua_cost --floor CASE [N]      one building block N times (1 000 000) in a bare Lua state, inside
//                                        measure_block: for valgrind --tool=callgrind --toggle-collect=measure_block
//                                        (tests/bench/lua_cost.sh divides the count by N for every CASE)
//   bench_lua_cost --floor-cases         the CASE names, one a line
//   bench_lua_cost --bytecodes FILE [AGENTS]
//                                        the scenario scaled to AGENTS (2 000) as bench_scenarios scales it, one
//                                        thread, steps 10-29: Lua VM instructions per agent-step in the rules'
//                                        state and in the scenario's (on_step, metrics are not run)
// Nothing here is a test: docs/speed.md, "What stops the Lua targets", gives the numbers and reads them.
#define _POSIX_C_SOURCE 200809L
#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_scale.h"
#include "sim_internal.h"  // white-box: the rules' and the scenario's lua_States, for a count hook

// ---- building blocks ------------------------------------------------------------------------------

// A flock-mate list of 44 (herd_hills' mean at 2 000 agents), for the method-call and array cases.
#define MATES 44
static double mate_dx[MATES], mate_dy[MATES], mate_dist[MATES];

// a:neighbour(k) as rule_api.c's is shaped: check the index, push six values.
static int l_neighbour(lua_State *L)
{
  lua_Integer k = luaL_checkinteger(L, 2);
  luaL_argcheck(L, k >= 1 && k <= MATES, 2, "neighbour index out of range");
  lua_pushnumber(L, mate_dx[k - 1]);
  lua_pushnumber(L, mate_dy[k - 1]);
  lua_pushnumber(L, mate_dist[k - 1]);
  lua_pushnumber(L, 0.0);
  lua_pushnumber(L, 0.0);
  lua_pushinteger(L, 1);
  return 6;
}

/*
 * Each case is a chunk returning a function; C calls it N times (the C -> Lua cases) or once with N
 * (the cases that loop in Lua), so that the count divided by N is one block's cost. `empty_loop` is
 * the loop alone, to take off the cases that loop in Lua.
 */
typedef struct FloorCase {
  const char *name, *what;
  bool c_calls;  // true: C calls the function N times with (a, p); false: called once with N
  const char *chunk;
} FloorCase;

static const FloorCase floor_cases[] = {
    {"c_to_lua_call", "C calls steer(a, p) that returns 0, 0 (push 3, lua_call, read 2, pop)", true,
     "return function(a, p) return 0, 0 end"},
    {"empty_loop", "one iteration of an empty numeric for loop (FORLOOP)", false,
     "return function(n) for _ = 1, n do end end"},
    {"lua_to_lua_call", "a Lua function calls steer(a, p) that returns 0, 0", false,
     "local function steer(a, p) return 0, 0 end\n"
     "return function(n) local a, p = {}, {} for _ = 1, n do local x, y = steer(a, p) end end"},
    {"field_read", "reads a.x (GETFIELD) into a local", false,
     "return function(n) local a, x = { x = 1.5 }, 0 for _ = 1, n do x = a.x end return x end"},
    {"field_write", "writes a.x (SETFIELD), as a view filler does", false,
     "return function(n) local a = { x = 0 } for i = 1, n do a.x = i end end"},
    {"arith", "x = x * c + d (two float operations)", false,
     "return function(n) local x = 0.5 for _ = 1, n do x = x * 0.999 + 0.001 end return x end"},
    {"neighbour_walk_calls", "separation_gompert's loop over 44 flock-mates with a:neighbour(k) (per flock-mate)",
     false,
     "return function(n, a) local fx, fy, comfort, c2, span = 0, 0, 8, 64, 48\n"
     "  for _ = 1, n // 44 do for k = 1, 44 do local dx, dy, d = a:neighbour(k)\n"
     "    if d > 0 and d < comfort then local w = (c2 - d * d) / span if w > 1 then w = 1 end\n"
     "      fx, fy = fx - dx / d * w, fy - dy / d * w end end end return fx, fy end"},
    {"neighbour_walk_arrays", "the same loop reading three arrays a Lua filler wrote (per flock-mate, fill excluded)",
     false,
     "return function(n, a) local fx, fy, comfort, c2, span = 0, 0, 8, 64, 48\n"
     "  local mdx, mdy, md = a.dx, a.dy, a.dist\n"
     "  for _ = 1, n // 44 do for k = 1, 44 do local dx, dy, d = mdx[k], mdy[k], md[k]\n"
     "    if d > 0 and d < comfort then local w = (c2 - d * d) / span if w > 1 then w = 1 end\n"
     "      fx, fy = fx - dx / d * w, fy - dy / d * w end end end return fx, fy end"},
    {"array_fill", "C pushes one number and a generated Lua filler stores it, t[k] = ak (per number)", true, NULL},
};
#define FLOOR_CASES (int)(sizeof floor_cases / sizeof floor_cases[0])

// The agent view of the walk cases: a:neighbour, and the three arrays the filler writes.
static void push_view(lua_State *L)
{
  lua_createtable(L, 0, 4);
  lua_pushcfunction(L, l_neighbour);
  lua_setfield(L, -2, "neighbour");
  const char *names[3] = {"dx", "dy", "dist"};
  const double *values[3] = {mate_dx, mate_dy, mate_dist};
  for (int f = 0; f < 3; ++f) {
    lua_createtable(L, MATES, 0);
    for (int k = 0; k < MATES; ++k) {
      lua_pushnumber(L, values[f][k]);
      lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, names[f]);
  }
}

// function(a1, ..., aM) t[1] = a1 ... t[M] = aM end, over the view's dx array: the cheapest way the
// public API has to put M numbers into a table (one push and one SETI each).
static void push_filler(lua_State *L, int view)
{
  char code[8192];
  int len = snprintf(code, sizeof code, "local t = ...\nreturn function(a1");
  for (int k = 2; k <= MATES; ++k) {
    len += snprintf(code + len, sizeof code - (size_t)len, ", a%d", k);
  }
  len += snprintf(code + len, sizeof code - (size_t)len, ")\n");
  for (int k = 1; k <= MATES; ++k) {
    len += snprintf(code + len, sizeof code - (size_t)len, "  t[%d] = a%d\n", k, k);
  }
  snprintf(code + len, sizeof code - (size_t)len, "end\n");
  if (luaL_loadstring(L, code) != LUA_OK) {
    fprintf(stderr, "bench_lua_cost: %s\n", lua_tostring(L, -1));
    exit(2);
  }
  lua_getfield(L, view, "dx");
  lua_call(L, 1, 1);
}

// Not inlined, and named so that callgrind counts exactly the blocks: --toggle-collect=measure_block.
static __attribute__((noinline)) double measure_block(lua_State *L, const FloorCase *c, int fn, int view, long n)
{
  double sum = 0;
  if (c->chunk == NULL) {  // array_fill: n numbers, MATES per call
    lua_checkstack(L, MATES + 2);
    for (long done = 0; done < n; done += MATES) {
      lua_pushvalue(L, fn);
      for (int k = 0; k < MATES; ++k) {
        lua_pushnumber(L, mate_dx[k]);
      }
      lua_call(L, MATES, 0);
    }
  } else if (c->c_calls) {
    for (long k = 0; k < n; ++k) {
      lua_pushvalue(L, fn);
      lua_pushvalue(L, view);
      lua_pushvalue(L, view);
      lua_call(L, 2, 2);
      sum += lua_tonumber(L, -1) + lua_tonumber(L, -2);
      lua_pop(L, 2);
    }
  } else {
    lua_pushvalue(L, fn);
    lua_pushinteger(L, n);
    lua_pushvalue(L, view);
    lua_call(L, 2, 1);
    sum = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  return sum;
}

static int floor_case(const char *name, long n)
{
  const FloorCase *c = NULL;
  for (int k = 0; k < FLOOR_CASES; ++k) {
    c = strcmp(floor_cases[k].name, name) == 0 ? &floor_cases[k] : c;
  }
  if (c == NULL || n <= 0) {
    fprintf(stderr, "bench_lua_cost: no case '%s' (--floor-cases lists them), or N <= 0\n", name);
    return 2;
  }
  for (int k = 0; k < MATES; ++k) {
    mate_dx[k] = 0.3 * k - 5;
    mate_dy[k] = 4 - 0.2 * k;
    mate_dist[k] = 1 + 0.2 * k;
  }
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  push_view(L);
  int view = lua_gettop(L);
  if (c->chunk == NULL) {
    push_filler(L, view);
  } else if (luaL_loadstring(L, c->chunk) != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK) {
    fprintf(stderr, "bench_lua_cost: %s\n", lua_tostring(L, -1));
    return 2;
  }
  int fn = lua_gettop(L);
  double sum = measure_block(L, c, fn, view, n);
  printf("%s: %ld blocks (%s), result %g\n", c->name, n, c->what, sum);
  lua_close(L);
  return 0;
}

// ---- bytecodes per agent-step -----------------------------------------------------------------------

static long vm_instructions;

static void count_instruction(lua_State *L, lua_Debug *ar)
{
  (void)L;
  (void)ar;
  vm_instructions++;
}

// VM instructions per agent-step over steps 10-29 in one state of the run: the rules' (which 0) or
// the scenario's (1). A count hook on every instruction, set again before each step: the host takes
// hooks off when a protected call returns (fbLuaHost_Disarm), and a step's rules run in one such
// call per thread (one here), its on_step hook in another.
static double count_vm(const char *path, const fbRunOptions *o, int which)
{
  char err[2048];
  fbSim *sim = fbSim_NewFromFile(path, o, err, sizeof err);
  if (sim == NULL) {
    fprintf(stderr, "bench_lua_cost: %s\n", err);
    exit(2);
  }
  for (int k = 0; k < 10; ++k) {
    fbSim_Step(sim);
  }
  lua_State *L = which == 0 ? sim->rules.runners[0].host.L : sim->hooks.host.L;
  long agent_steps = 0;
  vm_instructions = 0;
  for (int k = 0; k < 20; ++k) {
    agent_steps += fbSim_AgentCount(sim);
    lua_sethook(L, count_instruction, LUA_MASKCOUNT, 1);
    fbSim_Step(sim);
  }
  lua_sethook(L, NULL, 0, 0);
  fbSim_Delete(sim);
  return (double)vm_instructions / (double)(agent_steps > 0 ? agent_steps : 1);
}

static int bytecodes(const char *path, int agents)
{
  static fbScalePlan plan;
  char err[2048];
  if (!fbScale_Plan(path, agents, FB_SCALE_SPREAD, &plan, err, sizeof err)) {
    fprintf(stderr, "bench_lua_cost: %s\n", err);
    return 2;
  }
  fbRunOptions o;
  fbRunOptions_Default(&o);
  o.threads = 1;
  o.headless = true;
  o.lua_timeout_ms = 600000;  // a count hook on every instruction is slow: no watchdog stop
  fbScale_Apply(&plan, &o);
  printf("%s at %d agents, steps 10-29: %.1f Lua VM instructions per agent-step in the rules, %.1f in the "
         "scenario's hooks\n",
         path, agents, count_vm(path, &o, 0), count_vm(path, &o, 1));
  return 0;
}

int main(int argc, char **argv)
{
  if (argc >= 3 && strcmp(argv[1], "--floor") == 0) {
    return floor_case(argv[2], argc > 3 ? atol(argv[3]) : 1000000);
  }
  if (argc == 2 && strcmp(argv[1], "--floor-cases") == 0) {
    for (int k = 0; k < FLOOR_CASES; ++k) {
      printf("%s\t%s\n", floor_cases[k].name, floor_cases[k].what);
    }
    return 0;
  }
  if (argc >= 3 && strcmp(argv[1], "--bytecodes") == 0) {
    return bytecodes(argv[2], argc > 3 ? atoi(argv[3]) : 2000);
  }
  fprintf(stderr, "usage: bench_lua_cost --floor CASE [N] | --floor-cases | --bytecodes FILE [AGENTS]\n");
  return 2;
}
