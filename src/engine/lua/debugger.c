// debugger.c — breakpoints, steps, pause and stop-on-error over Lua's line and return hooks, and the questions a stopped stack answers.
#define _XOPEN_SOURCE 700
#include "debugger.h"

#include "lua_host.h"

#include <lauxlib.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- state ----------------------------------------------------------------------------------------

typedef struct Armed {
  fbBreakpoint bp;
  char file[PATH_MAX];  // realpath of the file
  long hits;            // times reached with its condition true
} Armed;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;  // the breakpoints and the source cache
static Armed armed[FB_DEBUG_MAX_BREAKPOINTS];
static int armed_count;
static int next_id = 1;

/*
 * The line hook runs at every line of every rule for every agent, so its common case must be
 * cheap: a line number whose low 16 bits no breakpoint has is passed over at once, without asking
 * Lua for the function's source. Only a line that may hold a breakpoint is looked up by file.
 */
static atomic_uchar line_marked[1 << 16];

static pthread_mutex_t stop_lock = PTHREAD_MUTEX_INITIALIZER;  // one thread stopped at a time
static fbDebugStopFn stop_fn;
static void *stop_ud;
static atomic_bool stop_on_error, pause_wanted;
static atomic_ullong world_step;
static _Thread_local bool inside;  // running the debugger's own Lua: never stopped in

// Stepping: the state and depth of the frame a step started from, and whether it has returned.
typedef enum StepMode { STEP_NONE, STEP_NEXT, STEP_IN, STEP_OUT } StepMode;
static StepMode step_mode;
static lua_State *step_state;
static int step_depth;
static bool step_returned;

#define HANDLE_BASE 100000  // variable references from here are tables; below, a frame's scopes
#define HANDLES_KEY "flockbox.debug.handles"
#define CHUNKS_KEY "flockbox.debug.chunks"

// ---- hooks ----------------------------------------------------------------------------------------

static void debug_hook(lua_State *L, lua_Debug *ar);

// The hook every host wears: the line hook while anything is watched for, the return hook too
// while a step over or out waits for its frame to return, and none at all otherwise.
static void update_hooks(void)
{
  bool watching = stop_fn != NULL && (armed_count > 0 || atomic_load(&pause_wanted) || step_mode != STEP_NONE);
  int mask = LUA_MASKLINE | (step_mode == STEP_NEXT || step_mode == STEP_OUT ? LUA_MASKRET : 0);
  fbLuaHost_SetDebugHook(watching ? debug_hook : NULL, watching ? mask : 0);
}

static int stack_depth(lua_State *L)
{
  lua_Debug ar;
  int depth = 0;
  while (lua_getstack(L, depth, &ar)) {
    ++depth;
  }
  return depth;
}

static void drop_handles(lua_State *L)
{
  lua_pushnil(L);
  lua_setfield(L, LUA_REGISTRYINDEX, HANDLES_KEY);
}

/*
 * A stop: the stopped host is marked not busy, so the watchdog counts none of the time spent
 * stopped against its limit (it restarts its count when the host is busy again), and the front end
 * runs. Then the step it asked for is set up and the hooks follow.
 */
static void stop_here(fbDebugStop *stop)
{
  lua_State *L = stop->L;
  pthread_mutex_lock(&stop_lock);
  if (stop_fn == NULL) {
    pthread_mutex_unlock(&stop_lock);
    return;
  }
  fbLuaHost *h = fbLuaHost_Of(L);
  int busy = atomic_exchange(&h->busy, 0);
  bool was_inside = inside;
  inside = true;
  atomic_store(&pause_wanted, false);
  step_mode = STEP_NONE;
  fbDebugResume how = stop_fn(stop, stop_ud);
  drop_handles(L);
  if (stop_fn != NULL) {
    step_mode = how == FB_DEBUG_NEXT ? STEP_NEXT : how == FB_DEBUG_STEP_IN ? STEP_IN : how == FB_DEBUG_STEP_OUT ? STEP_OUT : STEP_NONE;
    step_state = L;
    step_depth = stack_depth(L) - stop->base_level;
    step_returned = false;
  }
  update_hooks();
  fbLuaHost_Progress(h);
  atomic_store(&h->busy, busy);
  inside = was_inside;
  pthread_mutex_unlock(&stop_lock);
}

/*
 * Whether a step is done at this line. In: any line. Over: a line of the frame it started in or of
 * a caller, or any line once that frame has returned (a rule's caller is C, so the next line is the
 * next rule or the next agent's). Out: any line once the frame has returned. Lines of another state
 * always end a step.
 */
static bool step_done(lua_State *L)
{
  if (step_mode == STEP_IN || L != step_state || step_returned) {
    return true;
  }
  return step_mode == STEP_NEXT && stack_depth(L) <= step_depth;
}

// The source cache: "@path" as Lua names a chunk, to the realpath of the file.
typedef struct Source {
  char source[512];
  char real[PATH_MAX];
} Source;
static Source sources[64];
static int source_count;

static const char *real_source(const char *source)
{
  for (int k = 0; k < source_count; ++k) {
    if (strcmp(sources[k].source, source) == 0) {
      return sources[k].real;
    }
  }
  Source *s = &sources[source_count < 64 ? source_count++ : 63];
  snprintf(s->source, sizeof s->source, "%s", source);
  if (source[0] != '@' || realpath(source + 1, s->real) == NULL) {
    s->real[0] = '\0';
  }
  return s->real;
}

static bool evaluate_at(lua_State *L, int level, const char *expression);

// The hit condition, after the condition held and the hit was counted.
static bool hit_due(const char *condition, long hits)
{
  const char *p = condition;
  while (*p == ' ') {
    ++p;
  }
  if (*p == '\0') {
    return true;
  }
  char op[3] = "";
  int n = 0;
  while ((*p == '>' || *p == '=' || *p == '%' || *p == '<') && n < 2) {
    op[n++] = *p++;
  }
  op[n] = '\0';
  long v = strtol(p, NULL, 10);
  if (strcmp(op, ">=") == 0) return hits >= v;
  if (strcmp(op, ">") == 0) return hits > v;
  if (strcmp(op, "<") == 0) return hits < v;
  if (strcmp(op, "<=") == 0) return hits <= v;
  if (strcmp(op, "%") == 0) return v > 0 && hits % v == 0;
  return hits == v;  // "N" and "== N"
}

// A breakpoint's condition in the frame at level 0: true when it holds or fails (a failing
// condition stops, with its message, rather than pass unseen).
static bool condition_holds(lua_State *L, const char *condition, char *failure, size_t len)
{
  if (condition[0] == '\0') {
    return true;
  }
  int top = lua_gettop(L);
  bool ok = evaluate_at(L, 0, condition);
  bool holds = !ok || lua_toboolean(L, -1);
  if (!ok) {
    snprintf(failure, len, "the condition `%s` failed: %s", condition, lua_tostring(L, -1) ? lua_tostring(L, -1) : "?");
  }
  lua_settop(L, top);
  return holds;
}

static void check_breakpoints(lua_State *L, lua_Debug *ar)
{
  if (!lua_getinfo(L, "S", ar) || ar->source[0] != '@') {
    return;
  }
  for (int k = 0;; ++k) {
    pthread_mutex_lock(&lock);
    const char *file = real_source(ar->source);
    while (k < armed_count && !(armed[k].bp.line == ar->currentline && strcmp(armed[k].file, file) == 0)) {
      ++k;
    }
    if (k >= armed_count) {
      pthread_mutex_unlock(&lock);
      return;
    }
    fbBreakpoint bp = armed[k].bp;
    pthread_mutex_unlock(&lock);
    fbDebugStop stop = {.L = L, .reason = "breakpoint", .breakpoint_id = bp.id};
    inside = true;
    bool holds = condition_holds(L, bp.condition, stop.text, sizeof stop.text);
    inside = false;
    if (!holds) {
      continue;
    }
    pthread_mutex_lock(&lock);
    long hits = k < armed_count && armed[k].bp.id == bp.id ? ++armed[k].hits : 0;
    pthread_mutex_unlock(&lock);
    if (hit_due(bp.hit_condition, hits)) {
      stop_here(&stop);
      return;
    }
  }
}

static void debug_hook(lua_State *L, lua_Debug *ar)
{
  if (inside || stop_fn == NULL) {
    return;
  }
  if (ar->event == LUA_HOOKRET) {
    if ((step_mode == STEP_NEXT || step_mode == STEP_OUT) && L == step_state && stack_depth(L) == step_depth) {
      step_returned = true;
    }
    return;
  }
  if (ar->event != LUA_HOOKLINE) {
    return;
  }
  if (atomic_load_explicit(&pause_wanted, memory_order_relaxed)) {
    fbDebugStop stop = {.L = L, .reason = "pause"};
    stop_here(&stop);
  } else if (step_mode != STEP_NONE && step_done(L)) {
    fbDebugStop stop = {.L = L, .reason = "step"};
    stop_here(&stop);
  } else if (atomic_load_explicit(&line_marked[ar->currentline & 0xFFFF], memory_order_relaxed)) {
    check_breakpoints(L, ar);
  }
}

// The message handler's first call (lua_host.h): the error value at index 1, the stack whole.
static void on_error(lua_State *L)
{
  if (inside || stop_fn == NULL || !atomic_load(&stop_on_error)) {
    return;
  }
  fbDebugStop stop = {.L = L, .reason = "exception"};
  const char *msg = lua_type(L, 1) == LUA_TSTRING ? lua_tostring(L, 1) : "(an error value that is not a string)";
  snprintf(stop.text, sizeof stop.text, "%s", msg);
  // The frames above the error: past the handler itself and C functions such as error().
  lua_Debug ar;
  stop.base_level = 1;
  while (lua_getstack(L, stop.base_level, &ar) && lua_getinfo(L, "S", &ar) && strcmp(ar.what, "C") == 0) {
    ++stop.base_level;
  }
  if (!lua_getstack(L, stop.base_level, &ar)) {
    stop.base_level = 1;
  }
  stop_here(&stop);
}

// ---- the front end's controls ----------------------------------------------------------------------

void fbDebugger_Attach(fbDebugStopFn on_stop, void *ud)
{
  stop_fn = on_stop;
  stop_ud = ud;
  fbLuaHost_SetErrorObserver(on_error);
  update_hooks();
}

void fbDebugger_Detach(void)
{
  pthread_mutex_lock(&lock);
  armed_count = 0;
  for (size_t k = 0; k < sizeof line_marked; ++k) {
    atomic_store_explicit(&line_marked[k], 0, memory_order_relaxed);
  }
  pthread_mutex_unlock(&lock);
  atomic_store(&stop_on_error, false);
  atomic_store(&pause_wanted, false);
  step_mode = STEP_NONE;
  stop_fn = NULL;
  fbLuaHost_SetErrorObserver(NULL);
  fbLuaHost_SetDebugHook(NULL, 0);
}

void fbDebugger_StopOnError(bool on) { atomic_store(&stop_on_error, on); }

void fbDebugger_Pause(void)
{
  atomic_store(&pause_wanted, true);
  update_hooks();
}

void fbDebugger_SetStep(uint64_t step) { atomic_store_explicit(&world_step, step, memory_order_relaxed); }

// Why a line cannot hold a breakpoint ("" when it can): past the end, blank, or a comment.
static void check_line(const char *real, int line, char *why, size_t len)
{
  FILE *f = fopen(real, "r");
  if (f == NULL) {
    snprintf(why, len, "cannot read the file");
    return;
  }
  char text[4096];
  int n = 0;
  why[0] = '\0';
  while (fgets(text, sizeof text, f) != NULL) {
    if (++n == line) {
      const char *p = text + strspn(text, " \t\r\n");
      if (*p == '\0' || strncmp(p, "--", 2) == 0) {
        snprintf(why, len, "line %d holds no code (blank or a comment)", line);
      }
      fclose(f);
      return;
    }
  }
  fclose(f);
  snprintf(why, len, "line %d is past the end of the file (%d lines)", line, n);
}

void fbDebugger_SetBreakpoints(const char *path, fbBreakpoint *bps, int count)
{
  char real[PATH_MAX];
  bool found = realpath(path, real) != NULL;
  pthread_mutex_lock(&lock);
  int kept = 0;
  for (int k = 0; k < armed_count; ++k) {
    if (!found || strcmp(armed[k].file, real) != 0) {
      armed[kept++] = armed[k];
    }
  }
  armed_count = kept;
  for (int k = 0; k < count; ++k) {
    fbBreakpoint *bp = &bps[k];
    bp->id = next_id++;
    bp->message[0] = '\0';
    if (!found) {
      snprintf(bp->message, sizeof bp->message, "no such file: %s", path);
    } else if (armed_count >= FB_DEBUG_MAX_BREAKPOINTS) {
      snprintf(bp->message, sizeof bp->message, "too many breakpoints (at most %d)", FB_DEBUG_MAX_BREAKPOINTS);
    } else {
      check_line(real, bp->line, bp->message, sizeof bp->message);
    }
    bp->verified = bp->message[0] == '\0';
    if (bp->verified) {
      Armed *a = &armed[armed_count++];
      a->bp = *bp;
      a->hits = 0;
      snprintf(a->file, sizeof a->file, "%s", real);
    }
  }
  for (size_t k = 0; k < sizeof line_marked; ++k) {
    atomic_store_explicit(&line_marked[k], 0, memory_order_relaxed);
  }
  for (int k = 0; k < armed_count; ++k) {
    atomic_store_explicit(&line_marked[armed[k].bp.line & 0xFFFF], 1, memory_order_relaxed);
  }
  pthread_mutex_unlock(&lock);
  update_hooks();
}

// ---- a frame's environment and evaluation -------------------------------------------------------------

/*
 * An expression sees the frame as its code does: a table holding the frame's upvalues, then its
 * locals in order of declaration (a later one shadows an earlier one of the same name), whose
 * misses go to a table holding `step`, whose misses go to the frame's _ENV (its globals). Values
 * are copies: assigning to a local in an expression does not change the frame.
 */
static void push_frame_env(lua_State *L, int level)
{
  lua_Debug ar;
  luaL_checkstack(L, 8, "debugger");
  lua_newtable(L);
  int env = lua_gettop(L);
  lua_pushnil(L);  // the frame's _ENV, when it has one
  int frame_env = lua_gettop(L);
  if (lua_getstack(L, level, &ar) && lua_getinfo(L, "f", &ar)) {
    int fn = lua_gettop(L);
    const char *name;
    for (int k = 1; (name = lua_getupvalue(L, fn, k)) != NULL; ++k) {
      if (strcmp(name, "_ENV") == 0) {
        lua_copy(L, -1, frame_env);
      }
      name[0] != '\0' ? lua_setfield(L, env, name) : lua_pop(L, 1);
    }
    lua_pop(L, 1);
    for (int k = 1; (name = lua_getlocal(L, &ar, k)) != NULL; ++k) {
      if (strcmp(name, "_ENV") == 0) {
        lua_copy(L, -1, frame_env);
      }
      name[0] != '(' ? lua_setfield(L, env, name) : lua_pop(L, 1);
    }
  }
  if (lua_isnil(L, frame_env)) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    lua_replace(L, frame_env);
  }
  lua_newtable(L);  // env's metatable
  lua_newtable(L);  // the table holding `step`
  lua_pushinteger(L, (lua_Integer)atomic_load(&world_step));
  lua_setfield(L, -2, "step");
  lua_newtable(L);
  lua_pushvalue(L, frame_env);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, env);
  lua_pop(L, 1);  // frame_env
}

// The compiled chunk of an expression ("return EXPR", else EXPR as a statement), kept per state.
static bool push_chunk(lua_State *L, const char *expression)
{
  if (lua_getfield(L, LUA_REGISTRYINDEX, CHUNKS_KEY) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, CHUNKS_KEY);
  }
  if (lua_getfield(L, -1, expression) == LUA_TFUNCTION) {
    lua_remove(L, -2);
    return true;
  }
  lua_pop(L, 1);
  char code[1200];
  snprintf(code, sizeof code, "return %s", expression);
  if (luaL_loadbufferx(L, code, strlen(code), "=(evaluate)", "t") != LUA_OK) {
    lua_pop(L, 1);
    if (luaL_loadbufferx(L, expression, strlen(expression), "=(evaluate)", "t") != LUA_OK) {
      lua_remove(L, -2);
      return false;
    }
  }
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, expression);
  lua_remove(L, -2);
  return true;
}

// Evaluates expression in the frame at level; pushes its first value (true) or the error (false).
static bool evaluate_at(lua_State *L, int level, const char *expression)
{
  if (!push_chunk(L, expression)) {
    return false;
  }
  push_frame_env(L, level);
  lua_setupvalue(L, -2, 1);  // the chunk's _ENV
  return lua_pcall(L, 0, 1, 0) == LUA_OK;
}

// ---- questions while stopped -------------------------------------------------------------------------

static int level_of(const fbDebugStop *stop, int frame_id) { return stop->base_level + (frame_id > 0 ? frame_id - 1 : 0); }

int fbDebugger_Frames(fbDebugStop *stop, fbDebugFrame *out, int max)
{
  lua_Debug ar;
  int n = 0;
  for (int level = stop->base_level; n < max && lua_getstack(stop->L, level, &ar); ++level) {
    lua_getinfo(stop->L, "nSl", &ar);
    fbDebugFrame *f = &out[n++];
    f->id = n;
    f->line = ar.currentline;
    f->path[0] = '\0';
    if (ar.source[0] == '@') {
      snprintf(f->path, sizeof f->path, "%s", real_source(ar.source)[0] ? real_source(ar.source) : ar.source + 1);
    }
    if (ar.name != NULL) {
      snprintf(f->name, sizeof f->name, "%s", ar.name);
    } else if (strcmp(ar.what, "main") == 0) {
      snprintf(f->name, sizeof f->name, "main chunk of %s", ar.short_src);
    } else if (strcmp(ar.what, "C") == 0) {
      snprintf(f->name, sizeof f->name, "[C]");
    } else {
      snprintf(f->name, sizeof f->name, "function at %s:%d", ar.short_src, ar.linedefined);
    }
  }
  return n;
}

// A handle for the table at idx, valid until the stop ends.
static int handle_of(lua_State *L, int idx)
{
  idx = lua_absindex(L, idx);
  if (lua_getfield(L, LUA_REGISTRYINDEX, HANDLES_KEY) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, HANDLES_KEY);
  }
  int n = (int)lua_rawlen(L, -1) + 1;
  lua_pushvalue(L, idx);
  lua_rawseti(L, -2, n);
  lua_pop(L, 1);
  return HANDLE_BASE + n;
}

// The local called name in the frame at level, pushed (true), or nothing (false).
static bool push_local(lua_State *L, int level, const char *name)
{
  lua_Debug ar;
  bool found = false;
  const char *local;
  if (!lua_getstack(L, level, &ar)) {
    return false;
  }
  for (int k = 1; (local = lua_getlocal(L, &ar, k)) != NULL; ++k) {
    if (strcmp(local, name) == 0) {
      if (found) {
        lua_remove(L, -2);  // a later one shadows
      }
      found = true;
    } else {
      lua_pop(L, 1);
    }
  }
  return found;
}

int fbDebugger_Scopes(fbDebugStop *stop, int frame_id, fbDebugScope *out, int max)
{
  lua_State *L = stop->L;
  int level = level_of(stop, frame_id);
  lua_Debug ar;
  if (max < 4 || !lua_getstack(L, level, &ar)) {
    return 0;
  }
  int n = 0;
  out[n++] = (fbDebugScope){"Locals", 1 + level * 4};
  out[n++] = (fbDebugScope){"Upvalues", 1 + level * 4 + 1};
  static const char *const rule_args[][2] = {{"a", "a (agent view)"}, {"p", "p (params)"}};
  for (int k = 0; k < 2; ++k) {
    if (push_local(L, level, rule_args[k][0])) {
      if (lua_type(L, -1) == LUA_TTABLE) {
        snprintf(out[n].name, sizeof out[n].name, "%s", rule_args[k][1]);
        out[n++].reference = handle_of(L, -1);
      }
      lua_pop(L, 1);
    }
  }
  return n;
}

// The value at idx as text and its type name; a table gets a handle.
static void describe(lua_State *L, int idx, char *value, size_t len, const char **type, int *reference)
{
  idx = lua_absindex(L, idx);
  *type = luaL_typename(L, idx);
  *reference = 0;
  switch (lua_type(L, idx)) {
  case LUA_TNIL: snprintf(value, len, "nil"); break;
  case LUA_TBOOLEAN: snprintf(value, len, "%s", lua_toboolean(L, idx) ? "true" : "false"); break;
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx)) {
      snprintf(value, len, "%lld", (long long)lua_tointeger(L, idx));
    } else {
      snprintf(value, len, "%.14g", lua_tonumber(L, idx));
    }
    break;
  case LUA_TSTRING: snprintf(value, len, "\"%.200s\"", lua_tostring(L, idx)); break;
  case LUA_TTABLE: {
    int count = 0;
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
      lua_pop(L, 1);
      ++count;
    }
    snprintf(value, len, "table (%d field%s)", count, count == 1 ? "" : "s");
    *reference = handle_of(L, idx);
    break;
  }
  case LUA_TFUNCTION: {
    char where[300];
    fbLua_FunctionWhere(L, idx, where, sizeof where);
    snprintf(value, len, "function %s", where);
    break;
  }
  default: snprintf(value, len, "%s: %p", luaL_typename(L, idx), lua_topointer(L, idx)); break;
  }
}

static void report(lua_State *L, const char *name, fbDebugVariableFn fn, void *ud)
{
  char value[300];
  const char *type;
  int reference;
  describe(L, -1, value, sizeof value, &type, &reference);
  fn(name, value, type, reference, ud);
}

// A table's fields as they are stored (an agent view holds what its rule has read).
static void table_variables(lua_State *L, int idx, fbDebugVariableFn fn, void *ud)
{
  idx = lua_absindex(L, idx);
  int shown = 0;
  lua_pushnil(L);
  while (lua_next(L, idx) != 0 && shown++ < 500) {
    char name[128];
    if (lua_type(L, -2) == LUA_TSTRING) {
      snprintf(name, sizeof name, "%s", lua_tostring(L, -2));
    } else if (lua_isinteger(L, -2)) {
      snprintf(name, sizeof name, "[%lld]", (long long)lua_tointeger(L, -2));
    } else {
      snprintf(name, sizeof name, "[%s]", luaL_typename(L, -2));
    }
    report(L, name, fn, ud);
    lua_pop(L, 1);
  }
}

bool fbDebugger_Variables(fbDebugStop *stop, int reference, fbDebugVariableFn fn, void *ud)
{
  lua_State *L = stop->L;
  int top = lua_gettop(L);
  luaL_checkstack(L, 8, "debugger");
  if (reference > HANDLE_BASE) {
    bool ok = lua_getfield(L, LUA_REGISTRYINDEX, HANDLES_KEY) == LUA_TTABLE &&
              lua_rawgeti(L, -1, reference - HANDLE_BASE) == LUA_TTABLE;
    if (ok) {
      table_variables(L, -1, fn, ud);
    }
    lua_settop(L, top);
    return ok;
  }
  int level = (reference - 1) / 4, kind = (reference - 1) % 4;
  lua_Debug ar;
  if (reference < 1 || !lua_getstack(L, level, &ar)) {
    return false;
  }
  const char *name;
  if (kind == 0) {
    for (int k = 1; (name = lua_getlocal(L, &ar, k)) != NULL; ++k) {
      if (name[0] != '(') {
        report(L, name, fn, ud);
      }
      lua_pop(L, 1);
    }
  } else if (lua_getinfo(L, "f", &ar)) {
    for (int k = 1; (name = lua_getupvalue(L, -1, k)) != NULL; ++k) {
      report(L, name[0] ? name : "?", fn, ud);
      lua_pop(L, 1);
    }
  }
  lua_settop(L, top);
  return true;
}

bool fbDebugger_Evaluate(fbDebugStop *stop, int frame_id, const char *expression, char *value, size_t len,
                         char *type, size_t type_len, int *reference)
{
  lua_State *L = stop->L;
  int top = lua_gettop(L);
  *reference = 0;
  bool ok = evaluate_at(L, level_of(stop, frame_id), expression);
  if (ok) {
    const char *type_name;
    describe(L, -1, value, len, &type_name, reference);
    snprintf(type, type_len, "%s", type_name);
  } else {
    snprintf(value, len, "%s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "(error)");
    snprintf(type, type_len, "error");
  }
  lua_settop(L, top);
  return ok;
}
