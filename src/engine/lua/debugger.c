// debugger.c — breakpoints, steps, pause and stop-on-error over Lua's line and return hooks, and the questions a stopped stack answers.
#define _XOPEN_SOURCE 700
#include "debugger.h"

#include "frame_eval.h"
#include "paths.h"
#include "lua_host.h"

#include <lauxlib.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- state ----------------------------------------------------------------------------------------

typedef struct Armed {
  fbBreakpoint bp;
  char file[PATH_MAX];  // realpath of the file
  long hits;            // times reached with its condition true
  bool reported;        // its condition's failure has been reported (once)
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
static fbDebugOutputFn output_fn;
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

// The largest source file read for a breakpoint's line check or a trace's line text.
#define FB_DEBUG_SOURCE_MAX (16L << 20)

#define HANDLE_BASE 100000  // variable references from here are tables; below, a frame's scopes
#define HANDLES_KEY "flockbox.debug.handles"

// ---- hooks ----------------------------------------------------------------------------------------

static void debug_hook(lua_State *L, lua_Debug *ar);

/*
 * The hook every host wears. A pause or a step may end at any line of any file: the line hook
 * everywhere, with the return hook while a step over or out waits for its frame to return. With
 * only breakpoints to watch for, the line hook is needed only in the files that hold one: hosts
 * wear the call and return hooks, and each thread turns its line mask on while the Lua function
 * it runs comes from such a file and off otherwise (follow_function). With nothing to watch for,
 * no hook at all.
 */
static bool lines_everywhere(void) { return atomic_load(&pause_wanted) || step_mode != STEP_NONE; }

static void update_hooks(void)
{
  bool watching = stop_fn != NULL && (armed_count > 0 || lines_everywhere());
  int mask = lines_everywhere() ? LUA_MASKLINE | (step_mode == STEP_NEXT || step_mode == STEP_OUT ? LUA_MASKRET : 0)
                                : LUA_MASKCALL | LUA_MASKRET;
  fbLuaHost_SetDebugHook(watching ? debug_hook : NULL, watching ? mask : 0);
}

/*
 * Whether a chunk's source ("@path") holds a breakpoint. Asked at every call and return, so the
 * answer is cached per thread by the source's address (Lua keeps one string per chunk), checked
 * against a copy of the text (an address may be reused once a chunk is collected) and against the
 * breakpoints' generation (bumped whenever they change).
 */
static atomic_uint breakpoints_generation;

typedef struct SourceAnswer {
  const char *address;
  unsigned generation;
  bool has_breakpoint;
  char text[256];
} SourceAnswer;
static _Thread_local SourceAnswer answers[16];

static const char *real_source(const char *source);

static bool source_has_breakpoint(const char *source)
{
  unsigned generation = atomic_load_explicit(&breakpoints_generation, memory_order_relaxed);
  SourceAnswer *a = &answers[((uintptr_t)source >> 4) & 15];
  if (a->address == source && a->generation == generation && strcmp(a->text, source) == 0) {
    return a->has_breakpoint;
  }
  bool has = false;
  if (source[0] == '@' && strlen(source) < sizeof a->text) {
    pthread_mutex_lock(&lock);
    const char *file = real_source(source);
    for (int k = 0; k < armed_count && !has; ++k) {
      has = strcmp(armed[k].file, file) == 0;
    }
    pthread_mutex_unlock(&lock);
  }
  *a = (SourceAnswer){.address = source, .generation = generation, .has_breakpoint = has};
  snprintf(a->text, sizeof a->text, "%s", source);
  return has;
}

// The line mask of L follows the function that runs now: the callee after a call, the caller
// after a return. A C function runs no lines, so a call into one changes nothing, and a return
// into one leaves the mask to the next call or return.
static void follow_function(lua_State *L, lua_Debug *ar)
{
  lua_Debug caller;
  lua_Debug *now = ar;
  if (ar->event == LUA_HOOKRET) {
    if (!lua_getstack(L, 1, &caller)) {
      return;
    }
    now = &caller;
  }
  if (!lua_getinfo(L, "S", now) || now->what[0] == 'C') {
    return;
  }
  bool wanted = source_has_breakpoint(now->source);
  int mask = lua_gethookmask(L);
  if (wanted != ((mask & LUA_MASKLINE) != 0)) {
    lua_sethook(L, debug_hook, wanted ? mask | LUA_MASKLINE : mask & ~LUA_MASKLINE, 0);
  }
}

// After the hooks were reset while L runs a function (a stop inside it): its line mask again.
static void follow_current(lua_State *L)
{
  lua_Debug ar;
  if (!lines_everywhere() && lua_gethook(L) == debug_hook && lua_getstack(L, 0, &ar)) {
    ar.event = LUA_HOOKCALL;
    follow_function(L, &ar);
  }
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
  follow_current(L);
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

// Reports a breakpoint's failing condition, the first time it fails.
static void report_failure(int id, const char *what)
{
  pthread_mutex_lock(&lock);
  bool first = false;
  for (int k = 0; k < armed_count; ++k) {
    if (armed[k].bp.id == id) {
      first = !armed[k].reported;
      armed[k].reported = true;
    }
  }
  pthread_mutex_unlock(&lock);
  if (first && output_fn != NULL) {
    output_fn(what, stop_ud);
  }
}

// A breakpoint's condition in the frame at level 0. One that raises or runs out of its budget
// counts as false, and is reported once: the spec's editors show a failed condition as output,
// and a condition evaluated for every agent must not stop the run at every agent.
static bool condition_holds(lua_State *L, const fbBreakpoint *bp, const char *file)
{
  if (bp->condition[0] == '\0') {
    return true;
  }
  int top = lua_gettop(L);
  bool too_long = false;
  bool ok = fbFrameEval_Run(L, 0, bp->condition, FB_DEBUG_CONDITION_INSTRUCTIONS, atomic_load(&world_step), &too_long);
  bool holds = ok && lua_toboolean(L, -1);
  if (!ok) {
    char what[PATH_MAX + 1600];
    if (too_long) {
      snprintf(what, sizeof what,
               "flockbox: the condition `%s` of the breakpoint at %s:%d took too long (more than %d Lua "
               "instructions); it counts as false\n",
               bp->condition, file, bp->line, FB_DEBUG_CONDITION_INSTRUCTIONS);
    } else {
      const char *msg = lua_tostring(L, -1);
      snprintf(what, sizeof what, "flockbox: the condition `%s` of the breakpoint at %s:%d failed: %s; it counts as false\n",
               bp->condition, file, bp->line, msg != NULL ? msg : "(an error value that is not a string)");
    }
    report_failure(bp->id, what);
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
    char bp_file[PATH_MAX];
    snprintf(bp_file, sizeof bp_file, "%s", armed[k].file);
    pthread_mutex_unlock(&lock);
    fbDebugStop stop = {.L = L, .reason = "breakpoint", .breakpoint_id = bp.id};
    inside = true;
    bool holds = condition_holds(L, &bp, bp_file);
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

static void trace_event(lua_State *L, lua_Debug *ar);
static _Atomic(lua_State *) traced;  // the thread a trace follows (fbDebugger_TraceBegin), or NULL

static void debug_hook(lua_State *L, lua_Debug *ar)
{
  if (atomic_load_explicit(&traced, memory_order_relaxed) == L) {
    trace_event(L, ar);
    return;
  }
  if (inside || stop_fn == NULL) {
    return;
  }
  if (ar->event == LUA_HOOKRET && step_mode != STEP_NONE) {
    if ((step_mode == STEP_NEXT || step_mode == STEP_OUT) && L == step_state && stack_depth(L) == step_depth) {
      step_returned = true;
    }
    return;
  }
  if (ar->event != LUA_HOOKLINE) {
    if (!lines_everywhere()) {
      follow_function(L, ar);
    }
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

void fbDebugger_Attach(fbDebugStopFn on_stop, fbDebugOutputFn on_output, void *ud)
{
  stop_fn = on_stop;
  output_fn = on_output;
  stop_ud = ud;
  fbLuaHost_SetErrorObserver(on_error);
  update_hooks();
}

void fbDebugger_Detach(void)
{
  pthread_mutex_lock(&lock);
  armed_count = 0;
  atomic_fetch_add(&breakpoints_generation, 1);
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
  char reason[128];
  FILE *f = fbFilePath_OpenRegular(real, FB_DEBUG_SOURCE_MAX, NULL, reason, sizeof reason);  // a FIFO never blocks
  if (f == NULL) {
    snprintf(why, len, "cannot read the file: %s", reason);
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
      a->reported = false;
      snprintf(a->file, sizeof a->file, "%s", real);
    }
  }
  for (size_t k = 0; k < sizeof line_marked; ++k) {
    atomic_store_explicit(&line_marked[k], 0, memory_order_relaxed);
  }
  for (int k = 0; k < armed_count; ++k) {
    atomic_store_explicit(&line_marked[armed[k].bp.line & 0xFFFF], 1, memory_order_relaxed);
  }
  atomic_fetch_add(&breakpoints_generation, 1);
  pthread_mutex_unlock(&lock);
  update_hooks();
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
    if (fbFrameEval_PushLocal(L, level, rule_args[k][0])) {
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
  bool too_long;
  bool ok = fbFrameEval_Run(L, level_of(stop, frame_id), expression, FB_DEBUG_EVALUATE_INSTRUCTIONS, atomic_load(&world_step), &too_long);
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

// ---- a trace of the lines a thread runs -----------------------------------------------------------

/*
 * A line event comes before its line runs, so what a line did is seen at the next event of its
 * frame (the next line, or the return): each frame keeps the line it ran last and a snapshot of
 * its locals, and at its next event the locals that differ from the snapshot (by slot: a new
 * name, or a new value) are printed after that line. A table is compared by identity and shown
 * as "table" (an agent view fills itself as it is read; its fields would change without the rule
 * doing anything). Frames are told apart by their depth below the traced function.
 */
#define TRACE_DEPTH 24
#define TRACE_LOCALS 40

typedef struct TraceLocal {
  char name[32];
  char value[72];
  const void *identity;  // a table's or function's address, else NULL
} TraceLocal;

typedef struct TraceFrame {
  int line;  // run last, its effects not printed yet (0: none)
  int count;
  TraceLocal locals[TRACE_LOCALS];
} TraceFrame;

static struct {
  fbDebugOutputFn out;
  void *ud;
  lua_Hook saved_hook;
  int saved_mask, saved_count;
  int base;     // the stack depth where TraceBegin was called: the traced function is one deeper
  long lines, dropped;
  TraceFrame frames[TRACE_DEPTH];
} trace;

static void trace_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void trace_print(const char *fmt, ...)
{
  if (trace.lines >= FB_DEBUG_TRACE_LINES) {
    ++trace.dropped;
    return;
  }
  ++trace.lines;
  char text[1024];
  va_list args;
  va_start(args, fmt);
  vsnprintf(text, sizeof text - 1, fmt, args);
  va_end(args);
  strcat(text, "\n");
  trace.out(text, trace.ud);
}

// A value as text, without running any of its metamethods.
static void value_text(lua_State *L, int idx, char *out, size_t len, const void **identity)
{
  *identity = NULL;
  switch (lua_type(L, idx)) {
  case LUA_TNIL: snprintf(out, len, "nil"); break;
  case LUA_TBOOLEAN: snprintf(out, len, "%s", lua_toboolean(L, idx) ? "true" : "false"); break;
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx)) {
      snprintf(out, len, "%lld", (long long)lua_tointeger(L, idx));
    } else {
      snprintf(out, len, "%.9g", lua_tonumber(L, idx));
    }
    break;
  case LUA_TSTRING: snprintf(out, len, "\"%.48s\"", lua_tostring(L, idx)); break;
  default:
    snprintf(out, len, "%s", luaL_typename(L, idx));
    *identity = lua_topointer(L, idx);
    break;
  }
}

// The text of line `line` of the file a chunk came from ("@path"), trimmed; "" if unreadable.
static void source_text(const char *source, int line, char *out, size_t len)
{
  out[0] = '\0';
  char why[128];
  FILE *f = source[0] == '@' ? fbFilePath_OpenRegular(source + 1, FB_DEBUG_SOURCE_MAX, NULL, why, sizeof why) : NULL;
  if (f == NULL) {
    return;
  }
  char text[512];
  for (int n = 1; fgets(text, sizeof text, f) != NULL; ++n) {
    if (n == line) {
      const char *p = text + strspn(text, " \t");
      snprintf(out, len, "%s", p);
      out[strcspn(out, "\r\n")] = '\0';
      break;
    }
  }
  fclose(f);
}

// Compares the frame's locals with its snapshot: the changes as "name = value, ..." into out.
static void take_changes(lua_State *L, lua_Debug *ar, TraceFrame *f, bool quiet, char *out, size_t len)
{
  size_t used = 0;
  out[0] = '\0';
  const char *name;
  int slot = 0;
  for (int k = 1; (name = lua_getlocal(L, ar, k)) != NULL; ++k) {
    if (name[0] == '(' || slot >= TRACE_LOCALS) {
      lua_pop(L, 1);
      continue;
    }
    TraceLocal now;
    snprintf(now.name, sizeof now.name, "%s", name);
    value_text(L, -1, now.value, sizeof now.value, &now.identity);
    lua_pop(L, 1);
    TraceLocal *was = &f->locals[slot];
    bool changed = slot >= f->count || strcmp(was->name, now.name) != 0 || strcmp(was->value, now.value) != 0 ||
                   was->identity != now.identity;
    if (changed && !quiet && used + 4 < len) {
      used += (size_t)snprintf(out + used, len - used, "%s%s = %s", used ? ", " : "", now.name, now.value);
      used = used < len ? used : len - 1;
    }
    *was = now;
    ++slot;
  }
  f->count = slot;
}

static int trace_depth(lua_State *L)
{
  int d = stack_depth(L) - trace.base - 1;
  return d < 0 ? 0 : d < TRACE_DEPTH ? d : TRACE_DEPTH - 1;
}

// The frame's last line, with what it changed, once its next event shows it.
static void flush_line(lua_State *L, lua_Debug *ar, int depth)
{
  TraceFrame *f = &trace.frames[depth];
  char changes[600], text[300];
  take_changes(L, ar, f, f->line == 0, changes, sizeof changes);
  if (f->line > 0 && lua_getinfo(L, "S", ar)) {
    source_text(ar->source, f->line, text, sizeof text);
    if (changes[0] != '\0') {
      trace_print("%*s%s:%d  %-44s  -- %s", 2 + 2 * depth, "", ar->short_src, f->line, text, changes);
    } else {
      trace_print("%*s%s:%d  %s", 2 + 2 * depth, "", ar->short_src, f->line, text);
    }
  }
}

static void trace_event(lua_State *L, lua_Debug *ar)
{
  if (!lua_getinfo(L, "S", ar) || ar->what[0] == 'C') {
    return;
  }
  int depth = trace_depth(L);
  TraceFrame *f = &trace.frames[depth];
  if (ar->event == LUA_HOOKCALL || ar->event == LUA_HOOKTAILCALL) {
    f->line = 0;
    f->count = 0;
    if (depth > 0 && lua_getinfo(L, "n", ar)) {
      trace_print("%*scall %s (%s:%d)", 2 + 2 * depth, "", ar->name ? ar->name : "a function", ar->short_src, ar->linedefined);
    }
  } else if (ar->event == LUA_HOOKLINE) {
    flush_line(L, ar, depth);
    f->line = ar->currentline;
  } else if (ar->event == LUA_HOOKRET) {
    flush_line(L, ar, depth);
    f->line = 0;
    char values[300] = "";
    size_t used = 0;
    if (depth > 0 && lua_getinfo(L, "r", ar)) {
      for (int k = 0; k < ar->ntransfer && used + 4 < sizeof values; ++k) {
        char v[72];
        const void *identity;
        if (lua_getlocal(L, ar, ar->ftransfer + k) != NULL) {
          value_text(L, -1, v, sizeof v, &identity);
          lua_pop(L, 1);
          used += (size_t)snprintf(values + used, sizeof values - used, "%s%s", k ? ", " : "", v);
          used = used < sizeof values ? used : sizeof values - 1;
        }
      }
      trace_print("%*sreturns %s", 2 + 2 * depth, "", ar->ntransfer > 0 ? values : "nothing");
    }
  }
}

void fbDebugger_TraceBegin(lua_State *L, fbDebugOutputFn out, void *ud)
{
  trace.out = out;
  trace.ud = ud;
  trace.saved_hook = lua_gethook(L);
  trace.saved_mask = lua_gethookmask(L);
  trace.saved_count = lua_gethookcount(L);
  trace.base = stack_depth(L);
  trace.lines = trace.dropped = 0;
  memset(trace.frames, 0, sizeof trace.frames);
  atomic_store(&traced, L);
  lua_sethook(L, debug_hook, LUA_MASKLINE | LUA_MASKCALL | LUA_MASKRET, 0);
}

void fbDebugger_TraceEnd(lua_State *L)
{
  if (atomic_load(&traced) != L) {
    return;
  }
  atomic_store(&traced, NULL);
  lua_sethook(L, trace.saved_hook, trace.saved_mask, trace.saved_count);
  if (trace.dropped > 0) {
    char text[120];
    snprintf(text, sizeof text, "  ... %ld more lines not shown (a trace shows %d)\n", trace.dropped, FB_DEBUG_TRACE_LINES);
    trace.out(text, trace.ud);
  }
}
