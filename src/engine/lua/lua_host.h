// lua_host.h — one sandboxed Lua state: memory budget, watchdog for endless loops, protected calls.
#ifndef FB_LUA_HOST_H
#define FB_LUA_HOST_H

#include <lua.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "fb.h"

// What the watchdog saw of a host last (its thread, or the host's own hook when polled).
typedef struct fbLuaWatchMarks {
  unsigned long seen_progress;
  double seen_cpu_ms;           // the CPU time when progress was last seen to move
  unsigned long seen_entry;     // the busy stretch seen last
  double entry_cpu_ms;          // the CPU time when that stretch was first seen
} fbLuaWatchMarks;

typedef struct fbLuaHost {
  lua_State *L;
  size_t memory;             // bytes in use
  size_t memory_limit;       // allocations beyond this fail with a Lua memory error
  uint64_t allocations;      // allocations and reallocations that grew a block, since creation
  // Watchdog: the worker bumps `progress` at every call into Lua and sets `busy` around work; when a
  // busy host makes no progress for timeout_ms the watchdog interrupts it through a hook.
  atomic_ulong progress;
  atomic_int busy;
  atomic_int interrupt;      // set by the watchdog, cleared by the hook
  atomic_int cpu_clock;      // the CPU-time clock (clockid_t) of the thread that entered last (or
                             // CLOCK_MONOTONIC where threads have none: emscripten)
  bool polled;               // checked by its own count hook, not by the watchdog thread
  fbLuaWatchMarks marks;     // written by whichever watches it (the thread, or the host's hook)
  unsigned long stuck_at;    // progress value the watchdog saw when it interrupted
  bool stopped_by_signal;    // ... because the program was asked to stop (fbLuaHost_RequestStop)
  atomic_ulong entries;      // bumped at every fbLuaHost_Enter: one busy stretch (a step's range, a call)
  unsigned long stuck_entry; // the stretch the watchdog stopped for using up its budget
  bool over_budget;          // ... because the stretch as a whole used FB_STEP_BUDGET_FACTOR timeouts
  int timeout_ms;
  int depth;                 // protected calls under way (they nest: loading runs a chunk, then reads it)
  void *context;             // what the C functions called from Lua work on (see rules.h); NULL while closing
  char doing[256];           // the file (or what) being worked on, for the panic handler's message
  char require_path[2048];   // folders require() searches after a module's own, separated by ';'
  char out_of_memory_at[320];  // "file:line:" of the Lua code running when the budget first refused
} fbLuaHost;

// The registry key of the environment of the last file or string the host ran: where a
// scenario's own copy of fb lives.
#define FB_LAST_ENV "flockbox.last_env"

// Where the state ran out of memory ("file:line:", "" if unknown), then forgotten: Lua runs no
// message handler for memory errors, so the allocator notes the line it refused at.
void fbLuaHost_TakeOutOfMemoryAt(fbLuaHost *h, char *out, size_t len);

// Creates the state with only the safe libraries (sandbox.h): no os, io, package, debug, bytecode.
bool fbLuaHost_Create(fbLuaHost *h, size_t memory_limit, int timeout_ms);
void fbLuaHost_Destroy(fbLuaHost *h);

/*
 * The browser has no threads: there the watchdog cannot be a thread. Called before any host is
 * made, every host made afterwards checks itself from a count hook every FB_POLL_INSTRUCTIONS Lua
 * instructions, with the same limits and messages. Hosts poll anyway when the thread cannot start.
 */
void fbLuaHost_UsePolledWatchdog(void);
#define FB_POLL_INSTRUCTIONS 10000

// Moves a host to another address (its state keeps pointing at it: allocator, extra space, watchdog).
void fbLuaHost_Move(fbLuaHost *to, fbLuaHost *from);

// The host that owns L (stored in the state's extra space).
fbLuaHost *fbLuaHost_Of(lua_State *L);

// Loads a text chunk (bytecode refused), runs it in an environment of its own (sandbox.h), and
// leaves its first result on the stack. chunkname is the path shown in messages. On failure
// writes "file:line: message" and a traceback into err.
bool fbLuaHost_RunFile(fbLuaHost *h, const char *path, char *err, size_t errlen);

// The same for text already read from path (a rule's last good version, kept in memory).
bool fbLuaHost_RunSource(fbLuaHost *h, const char *code, size_t len, const char *path, char *err, size_t errlen);
bool fbLuaHost_RunString(fbLuaHost *h, const char *code, const char *chunkname, char *err, size_t errlen);

// lua_pcall with a traceback handler and the watchdog armed. On failure pops the error and writes
// it, with the traceback, into err.
bool fbLuaHost_Call(fbLuaHost *h, int nargs, int nresults, char *err, size_t errlen);

/*
 * The one door from C into a script's values. Reading a field of a table a script handed over is a
 * call into Lua (an __index, __len or __eq metamethod may run, and any allocation may fail), so C
 * code that reads script values runs as `fn` inside a protected call, under the watchdog, with a
 * traceback: an error in a metamethod, a metamethod that loops, or the memory budget running out
 * becomes a message, never an abort. fn returns false with its own message in err for what it
 * refuses; a Lua error raised meanwhile is written into err as "about: file:line: message". The
 * stack fn sees holds nothing of the caller's: it works on values reachable from the registry or
 * passed through ud. Nests inside other protected calls.
 */
typedef bool (*fbProtectedFn)(lua_State *L, void *ud, char *err, size_t errlen);
bool fbLuaHost_Protect(fbLuaHost *h, const char *about, fbProtectedFn fn, void *ud, char *err, size_t errlen);

// As fbLuaHost_Protect, with the values on top of the stack (nargs of them, popped) handed to fn
// at stack indices 1..nargs.
bool fbLuaHost_ProtectWith(fbLuaHost *h, int nargs, const char *about, fbProtectedFn fn, void *ud, char *err,
                           size_t errlen);

// The context of the state's C functions; raises a Lua error when there is none (the state is
// being closed: a value collected then finds no world to act on).
void *fbLuaHost_Context(lua_State *L);

// After the protected call that ran stuck work has returned: removes the watchdog's hook and its
// interrupt, which stand until then (a script cannot catch the stop and carry on). A polled host
// gets its polling hook back.
void fbLuaHost_Disarm(fbLuaHost *h);

// Asks every host's stuck work to stop soon (within 100 ms of CPU time without progress): for the
// program's SIGINT/SIGTERM handler (only an atomic store, safe in a signal handler).
void fbLuaHost_RequestStop(void);
bool fbLuaHost_StopRequested(void);

// Pushes the traceback message handler (for callers that run many calls inside one pcall).
void fbLuaHost_PushTraceback(lua_State *L);

// The message handler's work, called directly (not through lua_call) from a message handler of
// one's own with the error at index 1: pushes the message with the traceback from that handler's
// caller, and returns 1.
int fbLuaHost_Traceback(lua_State *L);

/*
 * The debugger's two doors (debugger.h), process-wide and NULL when no debugger is attached, so
 * that a run without one pays nothing: a hook every host wears while nothing is stopped (instead
 * of none), set on every live host at once and on every host made afterwards; and a function the
 * message handler calls first, at the place of an uncaught error with its stack whole, given the
 * error value at index 1. The watchdog's interrupt hook still wins while it stands.
 */
typedef void (*fbLuaErrorFn)(lua_State *L);
void fbLuaHost_SetDebugHook(lua_Hook hook, int mask);
void fbLuaHost_SetErrorObserver(fbLuaErrorFn observer);

/*
 * The time limit is per call: a rule that returns a little under it on every call would never be
 * stopped, and a step of N agents would take N limits. So a busy stretch as a whole (the agents
 * of one step on one thread, or one hook call) also has a budget of FB_STEP_BUDGET_FACTOR limits of
 * CPU time (60 s at the default 2 s): past it, whatever Lua runs in that stretch is stopped.
 */
#define FB_STEP_BUDGET_FACTOR 30

// Arm and disarm the watchdog around work that calls into Lua; bump progress at every call. The
// watchdog measures the CPU time of the thread that entered, not the wall clock: a rule that is
// merely waiting for a core on a loaded machine is not stuck.
static inline void fbLuaHost_Enter(fbLuaHost *h)
{
  clockid_t clock;
#ifdef __EMSCRIPTEN__
  clock = CLOCK_MONOTONIC;  // a page has one thread and no CPU clock for it (3.1.6 links none)
#else
  if (pthread_getcpuclockid(pthread_self(), &clock) != 0) {
    clock = CLOCK_MONOTONIC;  // no per-thread CPU clock: time that passes, busy or not
  }
#endif
  atomic_store_explicit(&h->cpu_clock, (int)clock, memory_order_relaxed);
  // release: a watchdog that sees the new stretch sees the clock of the thread that entered it
  atomic_store_explicit(&h->entries, atomic_load_explicit(&h->entries, memory_order_relaxed) + 1,
                        memory_order_release);
  atomic_store_explicit(&h->busy, 1, memory_order_relaxed);
}
static inline void fbLuaHost_Leave(fbLuaHost *h) { atomic_store_explicit(&h->busy, 0, memory_order_relaxed); }
static inline void fbLuaHost_Progress(fbLuaHost *h)
{
  // Only the owning thread writes: a relaxed load and store, not a locked read-modify-write.
  atomic_store_explicit(&h->progress, atomic_load_explicit(&h->progress, memory_order_relaxed) + 1,
                        memory_order_relaxed);
}

// Copies the value at index idx of `from` onto the top of `to`: nil, booleans, numbers, strings and
// tables of those (depth <= 16). Functions, userdata and cycles are refused with a message naming `what`.
bool fbLua_CopyValue(lua_State *from, int idx, lua_State *to, const char *what, char *err, size_t errlen);

// Writes the value at idx as Lua source: numbers, booleans, strings and tables of those (named keys
// sorted, so the text is the same on every run); anything else as nil.
void fbLua_Write(lua_State *L, int idx, FILE *out);

// The file:line where the function at idx was defined ("?" when not a Lua function).
void fbLua_FunctionWhere(lua_State *L, int idx, char *out, size_t len);

#endif
