// fuzz_hook_state.c — libFuzzer target: arbitrary bytes restored as the hooks' saved data into a scenario with hooks, then saved, restored and saved again.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "fuzz_util.h"
#include "hook_state.h"

/*
 * What it feeds, in two forms; an input starting with 'G' is the second.
 * Sections: the fuzzer's bytes as the hook section of a saved state (what fbHookState_Save writes:
 * math.random's state, then records of an upvalue's path and its value), to fbHookState_Restore on
 * a scenario whose hooks keep data of every kind a section can hold: a nested table, a table
 * holding a C function (kept as the script made it), one table in two places, a number shared by
 * two closures, a string, a function reached through an upvalue.
 * Graphs ('G', then three bytes an operation): tables linked any way at all, cycles and sharing
 * included (a new child, a link from one table to another, a scalar, a chain of new tables), set
 * as the on_step upvalue `kept` and saved. The graph is mirrored in C, which says what the save
 * must do: a cycle is refused (as a cycle, or as too deep when the path there passes 32 tables);
 * without one, deeper than FB_HOOK_STATE_DEPTH is refused as too deep and anything else saves.
 *
 * The scenario is loaded once; before each input its hooks are set back to their data as loaded
 * (a restore of the section saved then), so every input starts alike. The seeds
 * (tests/fuzz/corpus/hook_state/) are sections naming this scenario's paths (small ones, every tag,
 * a table 16 deep, one at the limit (32) and one past it, a shared table, malformed ones) and
 * graphs (a cycle, a shared table, a chain at the limit); tests/fuzz/hook_state.dict gives the paths.
 *
 * Fine: the section is refused with a message, or restored; the graph saves or is refused as above.
 * A bug: a crash, a leak, undefined behaviour, a refusal without a message, a graph saved or refused
 * other than as above; a restored section or a saved graph that cannot be saved again; or one whose
 * save, restored and saved again, gives other bytes (save(restore(save(x))) == save(x)).
 */

static const char SCENARIO[] =
    "local kept = { count = 0, list = { 1, 2.5, 'three', true }, deep = { a = { b = { c = {} } } } }\n"
    "local alias = { floor = math.floor, n = 1 }\n"
    "local shared = { 1, 2 }\n"
    "local pair = { left = shared, right = shared }\n"
    "local counter, label = 0, 'x'\n"
    "local function helper() counter = counter + 1 return pair end\n"
    "return {\n"
    "  world = { width = 20, height = 20, dt = 0.05 },\n"
    "  species = { { name = 'boid', count = 1, rules = { 'separation' } } },\n"
    "  on_step = function(step) kept.count = step helper() end,\n"
    "  on_key = function(key) label = key return alias end,\n"
    "  metrics = { { 'count', function() return counter end } },\n"
    "}\n";

static fbSim sim;         // large: kept off the stack
static fbBytes as_loaded;  // the hooks' data as the scenario made it

static void die(const char *what, const char *err)
{
  fprintf(stderr, "fuzz_hook_state: %s: %s\n", what, err);
  abort();
}

static void save(fbBytes *out, const char *what)
{
  char err[4096] = "";
  out->len = 0;
  if (!fbHookState_Save(&sim.hooks, out, err, sizeof err)) {
    die(what, err);
  }
}

static void restore(const fbBytes *in, const char *what)
{
  char err[4096] = "";
  fbReader r = fbReader_Of(in->data, in->len);
  if (!fbHookState_Restore(&sim.hooks, &r, err, sizeof err)) {
    die(what, err);
  }
}

static void load_once(void)
{
  const char *path = fuzz_ScratchPath("scripts/hooks.lua");
  fuzz_WriteFile(path, SCENARIO, NULL, 0, "");
  fbRunOptions options;
  fuzz_RunOptions(&options);
  char err[4096] = "";
  if (!fbSim_Load(&sim, path, &options, err, sizeof err)) {
    die("the fixed scenario does not load", err);
  }
  save(&as_loaded, "the fixed scenario's hooks cannot be saved");
}

// ---- graphs ------------------------------------------------------------------------------------

#define MAX_TABLES 96
#define SLOTS 6              // the keys a graph's table may hold: "a", "b", "c", 1, 2, 3
#define MAX_UNFOLDED 4000  // a graph whose tree has more values is not saved: its size is not the point here

typedef struct Graph {
  int count;
  int link[MAX_TABLES][SLOTS];  // the table a slot holds, or -1 (nothing, or a scalar)
  int scalar[MAX_TABLES][SLOTS];  // 0: none, else the integer it holds (when link is -1)
} Graph;

static void set_slot(Graph *g, int t, int slot, int link, int scalar)
{
  g->link[t][slot] = link;
  g->scalar[t][slot] = link < 0 ? scalar : 0;
}

static int new_table(Graph *g)
{
  int t = g->count++;
  for (int k = 0; k < SLOTS; ++k) {
    set_slot(g, t, k, -1, 0);
  }
  return t;
}

// The graph the operations after the 'G' make: op's low two bits the kind, its other bits the slot.
static void build(Graph *g, const uint8_t *ops, size_t n)
{
  g->count = 0;
  new_table(g);
  for (size_t k = 0; k + 3 <= n; k += 3) {
    int kind = ops[k] & 3, slot = (ops[k] >> 2) % SLOTS, from = ops[k + 1] % g->count, b = ops[k + 2];
    if (kind == 0 && g->count < MAX_TABLES) {
      set_slot(g, from, slot, new_table(g), 0);
    } else if (kind == 1) {
      set_slot(g, from, slot, b % g->count, 0);
    } else if (kind == 2) {
      set_slot(g, from, slot, -1, b + 1);
    } else if (kind == 3) {
      for (int level = 0; level < b % 48 && g->count < MAX_TABLES; ++level) {
        int t = new_table(g);
        set_slot(g, from, slot, t, 0);
        from = t;
      }
    }
  }
}

enum { WHITE, ON_PATH, DONE };

// Depth-first from t: whether a cycle is reachable, the most tables on a path (the tree's depth),
// and the values the tree holds (saturating), each as the save counts them.
static bool has_cycle(const Graph *g, int t, unsigned char *mark)
{
  mark[t] = ON_PATH;
  for (int k = 0; k < SLOTS; ++k) {
    int c = g->link[t][k];
    if (c >= 0 && (mark[c] == ON_PATH || (mark[c] == WHITE && has_cycle(g, c, mark)))) {
      return true;
    }
  }
  mark[t] = DONE;
  return false;
}

static int depth_of(const Graph *g, int t, int *memo)
{
  if (memo[t] == 0) {
    int most = 0;
    for (int k = 0; k < SLOTS; ++k) {
      int c = g->link[t][k], d = c >= 0 ? depth_of(g, c, memo) : 0;
      most = d > most ? d : most;
    }
    memo[t] = 1 + most;
  }
  return memo[t];
}

static double values_of(const Graph *g, int t, double *memo)
{
  if (memo[t] == 0) {
    double n = 1;
    for (int k = 0; k < SLOTS; ++k) {
      int c = g->link[t][k];
      n += c >= 0 ? 1 + values_of(g, c, memo) : g->scalar[t][k] != 0 ? 2 : 0;
    }
    memo[t] = n < 1e12 ? n : 1e12;
  }
  return memo[t];
}

static void push_slot_key(lua_State *L, int slot)
{
  static const char *const names[] = {"a", "b", "c"};
  slot < 3 ? (void)lua_pushstring(L, names[slot]) : lua_pushinteger(L, slot - 2);
}

// Makes the graph's tables and sets the first as on_step's upvalue `kept` (inside a protected call).
static bool make_graph(lua_State *L, void *ud, char *err, size_t errlen)
{
  const Graph *g = ud;
  lua_createtable(L, g->count, 0);
  int all = lua_gettop(L);
  for (int t = 0; t < g->count; ++t) {
    lua_newtable(L);
    lua_rawseti(L, all, t + 1);
  }
  for (int t = 0; t < g->count; ++t) {
    lua_rawgeti(L, all, t + 1);
    for (int k = 0; k < SLOTS; ++k) {
      if (g->link[t][k] >= 0 || g->scalar[t][k] != 0) {
        push_slot_key(L, k);
        g->link[t][k] >= 0 ? (void)lua_rawgeti(L, all, g->link[t][k] + 1) : lua_pushinteger(L, g->scalar[t][k]);
        lua_rawset(L, -3);
      }
    }
    lua_pop(L, 1);
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, sim.hooks.on_step_ref);
  int f = lua_gettop(L);
  for (int i = 1;; ++i) {
    const char *name = lua_getupvalue(L, f, i);
    if (name == NULL) {
      snprintf(err, errlen, "on_step has no upvalue kept");
      return false;
    }
    lua_pop(L, 1);
    if (strcmp(name, "kept") == 0) {
      lua_rawgeti(L, all, 1);
      lua_setupvalue(L, f, i);
      lua_settop(L, all - 1);
      return true;
    }
  }
}

static void check_graph(const uint8_t *ops, size_t n)
{
  static Graph g;
  build(&g, ops, n);
  unsigned char mark[MAX_TABLES] = {0};
  int depth_memo[MAX_TABLES] = {0};
  double values_memo[MAX_TABLES] = {0};
  bool cycle = has_cycle(&g, 0, mark);
  if (!cycle && values_of(&g, 0, values_memo) > MAX_UNFOLDED) {
    return;
  }
  int depth = cycle ? 0 : depth_of(&g, 0, depth_memo);
  char err[4096] = "";
  if (!fbLuaHost_Protect(&sim.hooks.host, "building a graph", make_graph, &g, err, sizeof err)) {
    die("the graph cannot be made", err);
  }
  static fbBytes first, second;
  first.len = 0;
  bool saved = fbHookState_Save(&sim.hooks, &first, err, sizeof err);
  bool as_cycle = strstr(err, "contains itself: a cycle through 'on_step.kept") != NULL;
  bool as_deep = strstr(err, "nested 33 deep (at most 32)") != NULL;
  bool named = strstr(err, "hook upvalue 'on_step.kept") != NULL;
  bool right = cycle ? !saved && named && (as_cycle || as_deep)
                     : depth > FB_HOOK_STATE_DEPTH ? !saved && named && as_deep : saved;
  if (!right) {
    fprintf(stderr, "fuzz_hook_state: a graph of %d tables (%s, %d deep): %s: %s\n", g.count,
            cycle ? "a cycle" : "no cycle", depth, saved ? "saved" : "refused", err);
    abort();
  }
  if (saved) {
    restore(&first, "a saved graph cannot be restored");
    save(&second, "a restored graph cannot be saved again");
    if (first.len != second.len || memcmp(first.data, second.data, first.len) != 0) {
      fprintf(stderr, "fuzz_hook_state: a graph saved, restored and saved again: %zu bytes, then %zu, differing\n",
              first.len, second.len);
      abort();
    }
  }
}

// ---- the target --------------------------------------------------------------------------------

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  static bool loaded;
  static fbBytes first, second;
  if (!loaded) {
    load_once();
    loaded = true;
  }
  restore(&as_loaded, "the hooks' data as loaded cannot be restored");
  if (size > 0 && data[0] == 'G') {
    check_graph(data + 1, size - 1);
    return 0;
  }

  char err[4096] = "";
  fbReader r = fbReader_Of(data, size);
  if (!fbHookState_Restore(&sim.hooks, &r, err, sizeof err)) {
    fuzz_CheckMessage(err, "fbHookState_Restore");
    return 0;
  }
  save(&first, "a restored section cannot be saved");
  restore(&first, "a saved section cannot be restored");
  save(&second, "a section restored twice cannot be saved");
  if (first.len != second.len || memcmp(first.data, second.data, first.len) != 0) {
    fprintf(stderr, "fuzz_hook_state: saved, restored and saved again: %zu bytes, then %zu, differing\n", first.len,
            second.len);
    abort();
  }
  return 0;
}
