// frame_eval.h — an expression evaluated in a frame of a suspended Lua stack: the frame's names in scope, read only, under an instruction budget.
#ifndef FB_FRAME_EVAL_H
#define FB_FRAME_EVAL_H

#include <lua.h>
#include <stdbool.h>
#include <stdint.h>

// Evaluates expression in the frame at level of L (suspended in a hook or a stop) in a coroutine of
// its own, under a budget of Lua instructions: the frame's locals, then its upvalues, then `step`
// (the world's step), then its _ENV's globals are in scope, read only. Pushes the first value (true)
// or the error (false; *too_long says whether the budget ran out). The breakpoints' conditions and
// the DAP's evaluate (debugger.c).
bool fbFrameEval_Run(lua_State *L, int level, const char *expression, long budget, uint64_t step, bool *too_long);

// Pushes the local called name in the frame at level (the last declared of that name) and returns
// true, or pushes nothing and returns false.
bool fbFrameEval_PushLocal(lua_State *L, int level, const char *name);

#endif
