// frame_eval.c — an expression evaluated in a frame of a suspended Lua stack: the frame's names in scope, read only, under an instruction budget.
#include "frame_eval.h"

#include <lauxlib.h>
#include <string.h>

#define CHUNKS_KEY "flockbox.debug.chunks"
#define ENV_KEY "flockbox.debug.env"
#define THREAD_KEY "flockbox.debug.thread"

/*
 * An expression sees the frame as its code does: a name is the frame's local of that name (the
 * last one declared, as a later one shadows an earlier), else its upvalue, else the world's
 * `step`, else a global of the frame's _ENV. The environment is one table per state, empty, whose
 * __index looks a name up in the frame being evaluated in (eval_frame) when it is asked for:
 * nothing is copied, so a condition evaluated for every agent builds nothing, and only the names
 * it uses are looked up. The frame's values are read, never written: assigning to a name is an
 * error (its __newindex), and anything rawset into the table is cleared after each evaluation.
 */
typedef struct EvalFrame {
  lua_State *L;  // the thread whose frame it is (suspended in a hook or a stop meanwhile)
  int level;
  uint64_t step;  // the world's step, the name `step`
} EvalFrame;
static _Thread_local EvalFrame eval_frame;

// The local called name in the frame at level, pushed (true), or nothing (false).
bool fbFrameEval_PushLocal(lua_State *L, int level, const char *name)
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

// The upvalue called name of the function at level, pushed (true), or nothing (false).
static bool push_upvalue(lua_State *L, int level, const char *name)
{
  lua_Debug ar;
  if (!lua_getstack(L, level, &ar) || !lua_getinfo(L, "f", &ar)) {
    return false;
  }
  const char *upvalue;
  for (int k = 1; (upvalue = lua_getupvalue(L, -1, k)) != NULL; ++k) {
    if (strcmp(upvalue, name) == 0) {
      lua_remove(L, -2);
      return true;
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return false;
}

// Where the frame's globals are: its _ENV (a local or an upvalue), else the state's globals.
static void push_frame_globals(lua_State *L, int level)
{
  if (!fbFrameEval_PushLocal(L, level, "_ENV") && !push_upvalue(L, level, "_ENV")) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  }
}

static int l_frame_index(lua_State *co)
{
  EvalFrame f = eval_frame;
  if (f.L == NULL) {
    return 0;
  }
  luaL_checkstack(f.L, 4, "debugger");
  if (lua_type(co, 2) == LUA_TSTRING) {
    const char *name = lua_tostring(co, 2);
    if (fbFrameEval_PushLocal(f.L, f.level, name) || push_upvalue(f.L, f.level, name)) {
      lua_xmove(f.L, co, 1);
      return 1;
    }
    if (strcmp(name, "step") == 0) {
      lua_pushinteger(co, (lua_Integer)f.step);
      return 1;
    }
  }
  push_frame_globals(f.L, f.level);
  lua_xmove(f.L, co, 1);
  lua_pushvalue(co, 2);
  lua_gettable(co, -2);
  return 1;
}

static int l_frame_newindex(lua_State *co)
{
  return luaL_error(co, "an expression here reads the frame and cannot assign (to %s)",
                    lua_type(co, 2) == LUA_TSTRING ? lua_tostring(co, 2) : luaL_typename(co, 2));
}

// The state's one evaluation environment, made at first use.
static void push_frame_env(lua_State *L)
{
  if (lua_getfield(L, LUA_REGISTRYINDEX, ENV_KEY) == LUA_TTABLE) {
    return;
  }
  lua_pop(L, 1);
  lua_newtable(L);
  lua_newtable(L);
  lua_pushcfunction(L, l_frame_index);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, l_frame_newindex);
  lua_setfield(L, -2, "__newindex");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");  // an expression cannot swap the lookup for later ones
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, ENV_KEY);
}

// Empties the environment of whatever an expression rawset into it.
static void clear_frame_env(lua_State *L)
{
  push_frame_env(L);
  lua_pushnil(L);
  while (lua_next(L, -2) != 0) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_pushnil(L);
    lua_rawset(L, -4);
    lua_pop(L, 1);
    lua_pushnil(L);
  }
  lua_pop(L, 1);
}

// The compiled chunk of an expression ("return EXPR", else EXPR as a statement) with the
// evaluation environment as its _ENV, kept per state.
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
  push_frame_env(L);
  lua_setupvalue(L, -2, 1);  // the chunk's _ENV
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, expression);
  lua_remove(L, -2);
  return true;
}

/*
 * An expression runs inside a hook (a condition) or a stop, where the watchdog cannot stop it:
 * Lua runs no hook of a thread while that thread is inside one, so the interrupt the watchdog
 * would set on the rule's thread never fires. Hooks are per thread, so the expression runs in a
 * coroutine of its own (lua_newthread; one kept per state and reused while expressions return)
 * that wears a count hook: every EVAL_SLICE instructions it takes a slice of the budget, and once
 * the budget is spent it raises, then raises again at every instruction, so that a pcall in the
 * expression cannot catch it and go on. Coroutines the expression makes inherit that hook
 * (lua_newthread copies the maker's hook; lua_host.c leaves a count hook other than its own in
 * place) and draw on the same budget. A C function that loops is not counted: the sandbox's
 * guards bound those (pattern_guard.h, the memory budget).
 */
#define EVAL_SLICE 1000
static _Thread_local long slices_left, budget_instructions;
static _Thread_local bool budget_spent;

static void budget_hook(lua_State *co, lua_Debug *ar)
{
  (void)ar;
  if (--slices_left >= 0 && !budget_spent) {
    return;
  }
  budget_spent = true;
  lua_sethook(co, budget_hook, LUA_MASKCOUNT, 1);
  luaL_error(co, "took too long (more than %d Lua instructions)", (int)budget_instructions);
}

// The state's evaluation thread, pushed.
static lua_State *push_eval_thread(lua_State *L)
{
  if (lua_getfield(L, LUA_REGISTRYINDEX, THREAD_KEY) == LUA_TTHREAD) {
    return lua_tothread(L, -1);
  }
  lua_pop(L, 1);
  lua_State *co = lua_newthread(L);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, THREAD_KEY);
  return co;
}

// Evaluates expression in the frame at level under a budget of Lua instructions; pushes its first
// value (true) or the error (false; *too_long says whether it ran out of its budget).
bool fbFrameEval_Run(lua_State *L, int level, const char *expression, long budget, uint64_t step, bool *too_long)
{
  luaL_checkstack(L, 6, "debugger");
  *too_long = false;
  if (!push_chunk(L, expression)) {
    return false;
  }
  lua_State *co = push_eval_thread(L);
  lua_insert(L, -2);
  lua_xmove(L, co, 1);
  EvalFrame outer = eval_frame;
  eval_frame = (EvalFrame){L, level, step};
  slices_left = budget / EVAL_SLICE;
  budget_instructions = budget;
  budget_spent = false;
  lua_sethook(co, budget_hook, LUA_MASKCOUNT, EVAL_SLICE);
  int results = 0;
  int status = lua_resume(co, L, 0, &results);
  eval_frame = outer;
  *too_long = budget_spent;
  bool ok = status == LUA_OK;
  if (ok && results > 0) {
    lua_pushvalue(co, -results);
    lua_xmove(co, L, 1);
  } else if (ok) {
    lua_pushnil(L);
  } else if (status == LUA_YIELD) {
    lua_pushliteral(L, "an expression here cannot yield");
  } else {
    lua_xmove(co, L, 1);
  }
  if (ok) {
    lua_settop(co, 0);
  } else {
    lua_pushnil(L);  // the thread is dead or suspended: the next expression gets a new one
    lua_setfield(L, LUA_REGISTRYINDEX, THREAD_KEY);
  }
  lua_remove(L, -2);  // the thread
  clear_frame_env(L);
  return ok;
}
