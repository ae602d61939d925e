// debugger.h — breakpoints, stepping, pause and stop-on-error in every Lua state through Lua's debug hooks: the core a DAP server (dap_server.h) drives.
#ifndef FB_DEBUGGER_H
#define FB_DEBUGGER_H

#include <lua.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * One debugger per process. While it has something to watch for (a breakpoint, a pause, a step),
 * every host wears its line hook (lua_host.h, fbLuaHost_SetDebugHook); with nothing to watch for
 * no host wears any hook, so a run without breakpoints runs at full speed. A stop happens on the
 * thread that ran into it, inside the hook (or the message handler, for an error), with the Lua
 * stack whole: the front end's stop function runs there, answers questions about the frozen stack
 * (frames, scopes, variables, evaluate) and returns how to go on. Nothing the debugger does writes
 * the world, so a run that stops and goes on gives the same bits as one that never stopped.
 */

typedef enum fbDebugResume {
  FB_DEBUG_CONTINUE,
  FB_DEBUG_NEXT,      // the next line of this function or its caller (over calls)
  FB_DEBUG_STEP_IN,   // the next line anywhere
  FB_DEBUG_STEP_OUT,  // the next line after this function returns
} fbDebugResume;

typedef struct fbDebugStop {
  lua_State *L;
  const char *reason;  // "breakpoint", "step", "exception", "pause" (DAP's names)
  char text[1024];     // the error message for "exception"; a condition's failure for "breakpoint"
  int breakpoint_id;   // for "breakpoint"
  int base_level;      // the stack level of the frame stopped in (frames count from here)
} fbDebugStop;

typedef fbDebugResume (*fbDebugStopFn)(fbDebugStop *stop, void *ud);
// A line for the user that is not a stop (a condition that failed or took too long), ending in '\n'.
typedef void (*fbDebugOutputFn)(const char *text, void *ud);

// Attaching gives the front end its stop and output functions; detaching forgets every breakpoint
// and removes every hook.
void fbDebugger_Attach(fbDebugStopFn on_stop, fbDebugOutputFn on_output, void *ud);

/*
 * Conditions and expressions are the editor's code run inside a hook, where the watchdog cannot
 * stop them: each runs under a budget of Lua instructions instead, and one that uses it up fails
 * with "took too long". A condition runs for every agent that reaches its line, so its budget is
 * small; an expression is typed by hand. A condition that fails or takes too long is reported
 * once (an output) and counts as false.
 */
#define FB_DEBUG_CONDITION_INSTRUCTIONS 1000000
#define FB_DEBUG_EVALUATE_INSTRUCTIONS 20000000
void fbDebugger_Detach(void);

typedef struct fbBreakpoint {
  int line;
  char condition[256];     // a Lua expression in the frame (`a.id == 12`, `step > 300`), "" for none
  char hit_condition[64];  // "N" or "== N" (the Nth hit), ">= N", "> N", "% N" (every Nth), "" for none
  // written by fbDebugger_SetBreakpoints:
  int id;
  bool verified;
  char message[200];  // why not verified
} fbBreakpoint;

// Replaces the breakpoints of the file at path (as the editor names it) with bps[0..count);
// checks each (the file exists, the line holds code) and gives it an id. At most
// FB_DEBUG_MAX_BREAKPOINTS in all.
#define FB_DEBUG_MAX_BREAKPOINTS 256
void fbDebugger_SetBreakpoints(const char *path, fbBreakpoint *bps, int count);

void fbDebugger_StopOnError(bool on);
void fbDebugger_Pause(void);              // stop at the next line any state runs
void fbDebugger_SetStep(uint64_t step);   // the world's step, named `step` in conditions and evaluate

// ---- while stopped (on the stopped thread, inside the stop function) -----------------------------

typedef struct fbDebugFrame {
  int id;            // for scopes and evaluate
  char name[128];
  char path[1024];   // absolute, "" for a C function
  int line;
} fbDebugFrame;
int fbDebugger_Frames(fbDebugStop *stop, fbDebugFrame *out, int max);

typedef struct fbDebugScope {
  char name[32];
  int reference;  // for fbDebugger_Variables
} fbDebugScope;
// Locals, Upvalues, and in a rule's frame its agent view `a` and parameters `p`.
int fbDebugger_Scopes(fbDebugStop *stop, int frame_id, fbDebugScope *out, int max);

// Each variable of a scope or a table: name, value as text, type, and a reference > 0 when it
// can be opened (a table).
typedef void (*fbDebugVariableFn)(const char *name, const char *value, const char *type, int reference, void *ud);
bool fbDebugger_Variables(fbDebugStop *stop, int reference, fbDebugVariableFn fn, void *ud);

// An expression evaluated in frame frame_id (0: the frame stopped in), seeing its locals, its
// upvalues, its globals and `step`; false with the error in value. It reads the frame's values
// and cannot assign to them (an assignment to a name is an error).
bool fbDebugger_Evaluate(fbDebugStop *stop, int frame_id, const char *expression, char *value, size_t len,
                         char *type, size_t type_len, int *reference);

// ---- a trace of the lines a thread runs (--trace) -------------------------------------------------

/*
 * Between TraceBegin and TraceEnd, thread L wears the debugger's hook on every line, call and
 * return (its own hook is put back after), and out receives one line of text per Lua line run,
 * in order: the file and line, its source text, and the locals that line assigned or changed
 * (shown as values: numbers, strings, booleans; a table as its field count), indented by call
 * depth below the traced function, and what each Lua function it calls returns. The trace only
 * reads: the run goes on exactly as without it. Process-wide one trace at a time, on the thread
 * that began it. At most FB_DEBUG_TRACE_LINES lines per trace; the rest is counted.
 */
#define FB_DEBUG_TRACE_LINES 10000
void fbDebugger_TraceBegin(lua_State *L, fbDebugOutputFn out, void *ud);
void fbDebugger_TraceEnd(lua_State *L);

#endif
