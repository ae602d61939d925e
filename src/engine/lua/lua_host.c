// lua_host.c — sandboxed Lua states with a memory budget, a watchdog (a thread, or polled) and traceback capture.
#define _POSIX_C_SOURCE 200809L
#include "lua_host.h"

#include "log.h"
#include "names.h"
#include "sandbox.h"

#include <lauxlib.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

// ---- memory budget ------------------------------------------------------------------------------

/*
 * Lua's allocator contract: nsize == 0 frees; ptr == NULL allocates (then osize is a type tag,
 * not a size). Returning NULL for a positive nsize makes Lua raise a memory error in the state,
 * which the protected call around every rule catches: a memory bomb costs one rule, not the run.
 */
/*
 * Lua raises a memory error without running the message handler (there may be no memory for a
 * traceback), so the error would name no line. The first refusal notes the file:line of the
 * innermost Lua function running on the main thread: reading the call stack allocates nothing,
 * and the stack is whole at every allocation. (Inside a coroutine this is the line that resumed it.)
 */
static void note_out_of_memory(fbLuaHost *h)
{
  if (h->L == NULL || h->out_of_memory_at[0] != '\0') {
    return;
  }
  lua_Debug ar;
  for (int level = 0; level < 8 && lua_getstack(h->L, level, &ar); ++level) {
    if (lua_getinfo(h->L, "Sl", &ar) && ar.currentline > 0) {
      snprintf(h->out_of_memory_at, sizeof h->out_of_memory_at, "%s:%d:", ar.short_src, ar.currentline);
      return;
    }
  }
}

void fbLuaHost_TakeOutOfMemoryAt(fbLuaHost *h, char *out, size_t len)
{
  snprintf(out, len, "%s", h->out_of_memory_at);
  h->out_of_memory_at[0] = '\0';
}

static void *budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
  fbLuaHost *h = ud;
  size_t old = ptr != NULL ? osize : 0;
  if (nsize == 0) {
    free(ptr);
    h->memory -= old;
    return NULL;
  }
  // Only script work is refused (while the host is busy): the few values C pushes between calls
  // must never fail, since a memory error outside a protected call would abort the process.
  if (nsize > old && h->memory - old + nsize > h->memory_limit && atomic_load_explicit(&h->busy, memory_order_relaxed)) {
    note_out_of_memory(h);
    return NULL;
  }
  void *q = realloc(ptr, nsize);
  if (q == NULL) {
    return NULL;
  }
  h->memory = h->memory - old + nsize;
  if (nsize > old) {
    h->allocations++;
  }
  return q;
}

// ---- watchdog -----------------------------------------------------------------------------------

// One watchdog thread for the process watches every live state of every sim, so the list is
// shared and locked; it grows as states are made (a sim has one per worker thread and one for its
// hooks, and any number of sims may live at once). Polled hosts are not in it: they watch themselves.
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static fbLuaHost **watched;
static int watched_count, watched_capacity;
static bool watchdog_running;
static bool polled_wanted;  // fbLuaHost_UsePolledWatchdog: no thread, even where one could start
static atomic_int stop_requested;  // set from a signal handler (fbLuaHost_RequestStop)

/*
 * Ctrl-C or SIGTERM while a script is stuck: the program's handler may only set a flag, and the
 * step or the load it interrupted would go on until the script returned (a metamethod looping in
 * an experiment's table, a rule a little under its time limit on every call). Once a stop is
 * requested, the watchdog gives any work that makes no progress 100 ms of CPU time instead of its
 * whole limit, then stops it with a message that says why; calls that return in time are left
 * alone, so the program can still finish its step and write its results.
 */
#define FB_STOP_GRACE_MS 100

void fbLuaHost_RequestStop(void) { atomic_store(&stop_requested, 1); }

bool fbLuaHost_StopRequested(void) { return atomic_load(&stop_requested) != 0; }

// True while the watchdog's interrupt of h stands: the work it saw stuck is still the work running.
static bool interrupted(fbLuaHost *h)
{
  if (!atomic_load(&h->interrupt) || !atomic_load(&h->busy)) {
    return false;
  }
  return h->over_budget ? atomic_load(&h->entries) == h->stuck_entry : atomic_load(&h->progress) == h->stuck_at;
}

static int raise_stopped(lua_State *L, fbLuaHost *h)
{
  // file:line of the innermost Lua function running (the loop), past any C function such as pcall
  lua_Debug ar;
  int level = 0;
  while (lua_getstack(L, level, &ar) && lua_getinfo(L, "Sl", &ar) && ar.currentline <= 0 && level < 8) {
    ++level;
  }
  luaL_where(L, level);
  // Where threads have no CPU clock (the web page) the watchdog measured time that passed.
  const char *clock = atomic_load(&h->cpu_clock) == (int)CLOCK_MONOTONIC ? "time" : "CPU time";
  if (h->over_budget) {
    lua_pushfstring(L, "stopped: this step has used %d ms of %s in Lua, its budget (%d x --rule-timeout)",
                    h->timeout_ms * FB_STEP_BUDGET_FACTOR, clock, FB_STEP_BUDGET_FACTOR);
  } else if (h->stopped_by_signal) {
    lua_pushliteral(L, "stopped: the program was asked to stop (Ctrl-C or SIGTERM) while this was running");
  } else {
    lua_pushfstring(L, "stopped after %d ms of %s without returning (endless loop?)", h->timeout_ms, clock);
  }
  lua_concat(L, 2);
  return lua_error(L);
}

/*
 * The watchdog's hook. Once it fires for stuck work it stays, raising the error again at every
 * instruction, until the protected call that started the work returns to C (fbLuaHost_Disarm):
 * a script that catches the error with pcall inside its loop meets it again at the loop's next
 * instruction, outside the pcall.
 */
static void set_resting_hook(fbLuaHost *h);

static void interrupt_hook(lua_State *L, lua_Debug *ar)
{
  (void)ar;
  fbLuaHost *h = fbLuaHost_Of(L);
  if (!interrupted(h)) {  // the work the watchdog saw stuck may have finished just before
    atomic_store(&h->interrupt, 0);
    set_resting_hook(h);
    return;
  }
  raise_stopped(L, h);
}

static void check(fbLuaHost *h);

/*
 * The count hook of a coroutine, and of a polled host's main thread. The watchdog's interrupt hook
 * is set on the main thread only, which waits inside resume while a coroutine runs: every so many
 * instructions the coroutine checks for it itself. A polled host has no thread to decide for it, so
 * the hook first makes the watchdog's decision (which may set the interrupt) on the spot.
 */
static void watch_hook(lua_State *L, lua_Debug *ar)
{
  (void)ar;
  fbLuaHost *h = fbLuaHost_Of(L);
  if (h->polled) {
    check(h);
  }
  if (interrupted(h)) {
    raise_stopped(L, h);
  }
}

// Polled, a coroutine checks as seldom as the main thread (each check reads a clock); under the
// thread it only looks at a flag, so it looks often.
static int coroutine_check_every(fbLuaHost *h) { return h->polled ? FB_POLL_INSTRUCTIONS : 1000; }

// A coroutine made by one that wears a count hook not ours (the debugger's instruction budget,
// debugger.c) keeps the hook it inherited from its maker: it is bounded already.
static void watch_coroutine(lua_State *maker, lua_State *co)
{
  if (lua_gethookmask(maker) == LUA_MASKCOUNT && lua_gethook(maker) != watch_hook) {
    return;
  }
  lua_sethook(co, watch_hook, LUA_MASKCOUNT, coroutine_check_every(fbLuaHost_Of(co)));
}

// coroutine.create and coroutine.wrap (the library's own as upvalue 1), giving each new
// coroutine the watchdog's check: an endless loop inside a coroutine is stopped like any other.
// (Installed here, over the sandbox's libraries: the watchdog owns every hook it sets.)
static int l_coroutine_create(lua_State *L)
{
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  watch_coroutine(L, lua_tothread(L, -1));
  return 1;
}

static int l_coroutine_wrap(lua_State *L)
{
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  if (lua_getupvalue(L, -1, 1) != NULL && lua_type(L, -1) == LUA_TTHREAD) {  // the wrapped coroutine
    watch_coroutine(L, lua_tothread(L, -1));
  }
  lua_pop(L, 1);
  return 1;
}

static void watch_coroutines(lua_State *L)
{
  lua_getglobal(L, "coroutine");
  lua_getfield(L, -1, "create");
  lua_pushcclosure(L, l_coroutine_create, 1);
  lua_setfield(L, -2, "create");
  lua_getfield(L, -1, "wrap");
  lua_pushcclosure(L, l_coroutine_wrap, 1);
  lua_setfield(L, -2, "wrap");
  lua_pop(L, 1);
}


// The main thread's hook while nothing is stopped: none under the watchdog thread, the polling
// count hook when the host watches itself.
static _Atomic(lua_Hook) debug_hook;  // fbLuaHost_SetDebugHook
static atomic_int debug_mask;
static _Atomic(fbLuaErrorFn) error_observer;

static void set_resting_hook(fbLuaHost *h)
{
  lua_Hook debugging = atomic_load_explicit(&debug_hook, memory_order_relaxed);
  if (debugging != NULL && !h->polled) {
    lua_sethook(h->L, debugging, atomic_load(&debug_mask), 0);
  } else if (h->polled) {
    lua_sethook(h->L, watch_hook, LUA_MASKCOUNT, FB_POLL_INSTRUCTIONS);
  } else {
    lua_sethook(h->L, NULL, 0, 0);
  }
}

// lua_sethook is the one call Lua allows from another thread; a host the watchdog has
// interrupted keeps its interrupt hook (Disarm gives it the new resting hook afterwards).
void fbLuaHost_SetDebugHook(lua_Hook hook, int mask)
{
  pthread_mutex_lock(&watch_lock);
  atomic_store(&debug_mask, mask);
  atomic_store(&debug_hook, hook);
  for (int k = 0; k < watched_count; ++k) {
    if (!atomic_load(&watched[k]->interrupt)) {
      set_resting_hook(watched[k]);
    }
  }
  pthread_mutex_unlock(&watch_lock);
}

void fbLuaHost_SetErrorObserver(fbLuaErrorFn observer) { atomic_store(&error_observer, observer); }

void fbLuaHost_Disarm(fbLuaHost *h)
{
  set_resting_hook(h);
  atomic_store(&h->interrupt, 0);
}

/*
 * CPU time in ms of the thread that entered h last; `fallback` when that thread is gone. A polled
 * host is checked by the thread that runs it, which cannot be gone: should its clock fail to
 * read, the monotonic clock stands in, lest a stuck script go unstopped.
 */
static double cpu_ms(fbLuaHost *h, double fallback)
{
  struct timespec ts;
  if (clock_gettime((clockid_t)atomic_load(&h->cpu_clock), &ts) != 0 &&
      (!h->polled || clock_gettime(CLOCK_MONOTONIC, &ts) != 0)) {
    return fallback;
  }
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

// Whether `counter` stayed at the value the watchdog saw last while the host was busy and its
// thread spent `limit` ms of CPU time; *seen and *since (the CPU time when it was seen) follow the
// counter, and restart at a stop, so whatever runs after a stop gets a limit of its own.
static bool stalled(fbLuaHost *h, unsigned long counter, unsigned long *seen, double *since, double limit)
{
  if (!atomic_load(&h->busy) || counter != *seen) {
    *seen = counter;
    *since = cpu_ms(h, 0.0);
    return false;
  }
  double now = cpu_ms(h, *since);
  if (now - *since < limit || atomic_load(&h->interrupt)) {
    return false;
  }
  *since = now;
  return true;
}

// Arms the interrupt hook (interrupted() then says whether the stopped work still runs).
static void stop(fbLuaHost *h, bool over_budget, bool by_signal)
{
  h->over_budget = over_budget;
  h->stopped_by_signal = by_signal;
  atomic_store(&h->interrupt, 1);
  lua_sethook(h->L, interrupt_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT, 1);
}

/*
 * The watchdog's decision for one host, made every 5 ms by the thread or every FB_POLL_INSTRUCTIONS
 * instructions by a polled host's hook. It compares the busy host's counters with what it saw last time.
 * - progress (bumped at every call into Lua): stuck on the same value while the thread spent
 *   more than its timeout of CPU time (100 ms once a stop is asked for), the work is stopped;
 * - entries (bumped at every fbLuaHost_Enter): a busy stretch (a step's range, a call) that has
 *   used FB_STEP_BUDGET_FACTOR timeouts in all is stopped, however much progress it makes.
 * Stopping sets a hook that raises an error at the next Lua instruction. CPU time, not wall time:
 * on a loaded machine a thread may wait for a core for longer than the timeout without running at
 * all. lua_sethook is the one call Lua allows from outside the running thread (lua.c uses it from
 * a signal handler for the same purpose).
 */
static void check(fbLuaHost *h)
{
  fbLuaWatchMarks *seen = &h->marks;
  unsigned long e = atomic_load(&h->entries), p = atomic_load(&h->progress);
  bool stopping = atomic_load(&stop_requested) && h->timeout_ms > FB_STOP_GRACE_MS;
  if (stalled(h, e, &seen->seen_entry, &seen->entry_cpu_ms, (double)h->timeout_ms * FB_STEP_BUDGET_FACTOR)) {
    h->stuck_entry = e;
    stop(h, true, false);
  } else if (stalled(h, p, &seen->seen_progress, &seen->seen_cpu_ms, stopping ? FB_STOP_GRACE_MS : h->timeout_ms)) {
    h->stuck_at = p;
    stop(h, false, stopping);
  }
}

static void *watchdog_main(void *arg)
{
  (void)arg;
  const struct timespec tick = {0, 5 * 1000 * 1000};
  for (;;) {
    nanosleep(&tick, NULL);
    pthread_mutex_lock(&watch_lock);
    for (int i = 0; i < watched_count; ++i) {
      check(watched[i]);
    }
    pthread_mutex_unlock(&watch_lock);
  }
  return NULL;
}

void fbLuaHost_UsePolledWatchdog(void)
{
  pthread_mutex_lock(&watch_lock);
  polled_wanted = true;
  pthread_mutex_unlock(&watch_lock);
}

/*
 * Puts h under the watchdog thread, started with the first host; when the program wants no thread
 * (fbLuaHost_UsePolledWatchdog) or none can start (the browser), h polls: its main thread gets the
 * polling hook now, its coroutines theirs as they are made (watch_coroutine).
 */
static void watch(fbLuaHost *h)
{
  h->marks = (fbLuaWatchMarks){0};
  pthread_mutex_lock(&watch_lock);
  if (!watchdog_running && !polled_wanted) {
    pthread_t thread;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    // The thread is born with every signal blocked: the program's Ctrl-C and SIGTERM must reach
    // the thread that handles them (a sweep waits for them in sigsuspend), never the watchdog.
    sigset_t all, saved;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &saved);
    watchdog_running = pthread_create(&thread, &attr, watchdog_main, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    pthread_attr_destroy(&attr);
  }
  h->polled = polled_wanted || !watchdog_running;
  if (!h->polled) {
    if (watched_count == watched_capacity) {
      watched_capacity = watched_capacity > 0 ? 2 * watched_capacity : 64;
      watched = realloc(watched, sizeof *watched * (size_t)watched_capacity);
      FB_ASSERT(watched != NULL);
    }
    watched[watched_count++] = h;
  }
  pthread_mutex_unlock(&watch_lock);
  if (!atomic_load(&h->interrupt)) {
    set_resting_hook(h);  // the polling hook, or the debugger's when one is attached
  }
}

static void unwatch(fbLuaHost *h)
{
  pthread_mutex_lock(&watch_lock);
  for (int i = 0; i < watched_count; ++i) {
    if (watched[i] == h) {
      watched[i] = watched[--watched_count];
      break;
    }
  }
  pthread_mutex_unlock(&watch_lock);
}

/*
 * The last line of defence: Lua calls this for an error raised outside any protected call, and
 * aborts the process when it returns. Every crossing goes through a protected call
 * (fbLuaHost_Call, fbLuaHost_Protect), so reaching it is a bug in flockbox: it says so, names the
 * file being worked on and exits 2 rather than dump core. Nothing can be saved: the state is
 * unusable and the stack of C frames above it is lost.
 */
static int panic(lua_State *L)
{
  fbLuaHost *h = fbLuaHost_Of(L);
  const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(an error object that is not a string)";
  fbLog(FB_LOG_ERROR, "%s: a Lua error escaped every protected call (a bug in flockbox, please report it): %s",
        h->doing[0] ? h->doing : "(no file)", msg);
  fflush(NULL);
  _exit(2);  // the engine's one exit: a panic handler must not return (Lua would abort)
}

bool fbLuaHost_Create(fbLuaHost *h, size_t memory_limit, int timeout_ms)
{
  memset(h, 0, sizeof *h);
  h->memory_limit = memory_limit;
  h->timeout_ms = timeout_ms > 0 ? timeout_ms : 1000;
  h->L = lua_newstate(budget_alloc, h);
  if (h->L == NULL) {
    return false;
  }
  *(fbLuaHost **)lua_getextraspace(h->L) = h;
  lua_atpanic(h->L, panic);
  fbSandbox_Open(h->L);
  watch_coroutines(h->L);
  watch(h);
  return true;
}

void fbLuaHost_Destroy(fbLuaHost *h)
{
  if (h->L != NULL) {
    // Closing runs no script code (finalizers are refused, sandbox.c; every call has returned, so
    // no to-be-closed value is pending), and whatever might finds no world for fb to act on.
    h->context = NULL;
    unwatch(h);
    lua_close(h->L);
  }
  h->L = NULL;
}

fbLuaHost *fbLuaHost_Of(lua_State *L) { return *(fbLuaHost **)lua_getextraspace(L); }

void fbLuaHost_Move(fbLuaHost *to, fbLuaHost *from)
{
  unwatch(from);
  memcpy(to, from, sizeof *to);
  memset(from, 0, sizeof *from);
  if (to->L != NULL) {
    lua_setallocf(to->L, budget_alloc, to);
    *(fbLuaHost **)lua_getextraspace(to->L) = to;
    watch(to);
  }
}

// ---- protected calls ----------------------------------------------------------------------------

// Pushes "file:line: " of the innermost Lua function on the stack: the line it was running (the
// error call) where known, else the line it was defined on; "" when no Lua function is running.
static void push_error_place(lua_State *L)
{
  lua_Debug ar;
  for (int level = 1; lua_getstack(L, level, &ar); ++level) {
    if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
      lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
      return;
    }
  }
  for (int level = 1; lua_getstack(L, level, &ar); ++level) {
    if (lua_getinfo(L, "S", &ar) && ar.linedefined > 0) {
      lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.linedefined);
      return;
    }
  }
  lua_pushliteral(L, "");
}

// Calls the error object's __tostring without letting an error of its own escape (it runs in its
// own protected call, with no handler): true with the string pushed, else false and nothing pushed.
static bool push_tostring(lua_State *L, int obj)
{
  if (luaL_getmetafield(L, obj, "__tostring") == LUA_TNIL) {
    return false;
  }
  lua_pushvalue(L, obj);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK || lua_type(L, -1) != LUA_TSTRING) {
    lua_pop(L, 1);
    return false;
  }
  return true;
}

/*
 * The message handler of every protected call. A message is a string that starts with the
 * file:line of the error. A script may raise anything else (error(1420), error({}), error(nil)); a
 * number is not converted as if it were the message (it would print "1420" with no place), and
 * any other value is described after the place of the error call: "x.lua:12: raised a number (1420)
 * rather than a message". An error object's own __tostring gives the message when it answers a
 * string; one that fails or loops says so, it never escapes.
 */
static int traceback_from(lua_State *L, int level)
{
  fbLuaErrorFn observer = atomic_load_explicit(&error_observer, memory_order_relaxed);
  if (observer != NULL) {
    observer(L);
  }
  if (lua_type(L, 1) == LUA_TSTRING) {
    luaL_traceback(L, L, lua_tostring(L, 1), level);
    return 1;
  }
  push_error_place(L);
  int place = lua_gettop(L);
  int type = lua_type(L, 1);
  if (type == LUA_TNUMBER) {
    if (lua_isinteger(L, 1)) {
      lua_pushfstring(L, "%sraised a number (%I) rather than a message", lua_tostring(L, place), lua_tointeger(L, 1));
    } else {
      lua_pushfstring(L, "%sraised a number (%f) rather than a message", lua_tostring(L, place), lua_tonumber(L, 1));
    }
  } else if (type == LUA_TBOOLEAN) {
    lua_pushfstring(L, "%sraised a boolean (%s) rather than a message", lua_tostring(L, place),
                    lua_toboolean(L, 1) ? "true" : "false");
  } else if (type == LUA_TNIL || type == LUA_TNONE) {
    lua_pushfstring(L, "%sraised nil rather than a message", lua_tostring(L, place));
  } else if (push_tostring(L, 1)) {
    lua_pushfstring(L, "%s%s", lua_tostring(L, place), lua_tostring(L, -1));
  } else {
    bool has_tostring = luaL_getmetafield(L, 1, "__tostring") != LUA_TNIL;
    lua_pushfstring(L, "%sraised a %s%s rather than a message", lua_tostring(L, place), luaL_typename(L, 1),
                    has_tostring ? " whose __tostring failed" : "");
  }
  luaL_traceback(L, L, lua_tostring(L, -1), level);
  return 1;
}

static int traceback_handler(lua_State *L) { return traceback_from(L, 1); }

void fbLuaHost_PushTraceback(lua_State *L) { lua_pushcfunction(L, traceback_handler); }

int fbLuaHost_Traceback(lua_State *L) { return traceback_from(L, 1); }

/*
 * Protected calls nest (loading a rule runs its chunk inside the protected read of it). Only the
 * outermost arms and disarms the watchdog: an inner call that returns must not leave the outer
 * work unwatched, nor lift the interrupt of work the watchdog stopped (the outer code would then
 * carry on past the stop).
 */
bool fbLuaHost_Call(fbLuaHost *h, int nargs, int nresults, char *err, size_t errlen)
{
  lua_State *L = h->L;
  int base = lua_gettop(L) - nargs;
  lua_pushcfunction(L, traceback_handler);
  lua_insert(L, base);
  fbLuaHost_Progress(h);
  if (h->depth++ == 0) {
    fbLuaHost_Enter(h);
    h->out_of_memory_at[0] = '\0';
  }
  int status = lua_pcall(L, nargs, nresults, base);
  if (--h->depth == 0) {
    fbLuaHost_Leave(h);
    fbLuaHost_Disarm(h);
  }
  lua_remove(L, base);
  char where[320] = "";
  if (status == LUA_ERRMEM) {
    fbLuaHost_TakeOutOfMemoryAt(h, where, sizeof where);
  }
  if (status == LUA_ERRMEM && where[0] != '\0') {
    snprintf(err, errlen, "%s not enough memory (the Lua state's budget is %zu MB)", where, h->memory_limit >> 20);
    lua_pop(L, 1);
    return false;
  }
  if (status != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    snprintf(err, errlen, "%s", msg != NULL ? msg : status == LUA_ERRERR ? "error while reporting an error" : "(error)");
    lua_pop(L, 1);
    return false;
  }
  return true;
}

typedef struct ProtectedJob {
  fbProtectedFn fn;
  void *ud;
  char *err;
  size_t errlen;
  bool ok;
} ProtectedJob;

static int run_protected(lua_State *L)
{
  ProtectedJob *job = lua_touserdata(L, lua_upvalueindex(1));
  job->ok = job->fn(L, job->ud, job->err, job->errlen);
  return 0;
}

bool fbLuaHost_ProtectWith(fbLuaHost *h, int nargs, const char *about, fbProtectedFn fn, void *ud, char *err,
                           size_t errlen)
{
  lua_State *L = h->L;
  ProtectedJob job = {fn, ud, err, errlen, false};
  char saved[sizeof h->doing];
  memcpy(saved, h->doing, sizeof saved);
  snprintf(h->doing, sizeof h->doing, "%s", about);
  if (!lua_checkstack(L, 3)) {
    snprintf(err, errlen, "%s: the Lua stack is full", about);
    lua_pop(L, nargs);
    return false;
  }
  lua_pushlightuserdata(L, &job);
  lua_pushcclosure(L, run_protected, 1);
  lua_insert(L, -nargs - 1);
  char msg[2048];
  bool called = fbLuaHost_Call(h, nargs, 0, msg, sizeof msg);
  memcpy(h->doing, saved, sizeof saved);
  if (!called) {
    // The script's own message names its file and line; `about` says what was being read then.
    snprintf(err, errlen, "%s: %s", about, msg);
    return false;
  }
  return job.ok;
}

bool fbLuaHost_Protect(fbLuaHost *h, const char *about, fbProtectedFn fn, void *ud, char *err, size_t errlen)
{
  return fbLuaHost_ProtectWith(h, 0, about, fn, ud, err, errlen);
}

void *fbLuaHost_Context(lua_State *L)
{
  void *context = fbLuaHost_Of(L)->context;
  if (context == NULL) {
    luaL_error(L, "fb is not available while the scripts' state is being closed");
  }
  return context;
}

// Runs the chunk on top of the stack in a new module environment (sandbox.h) for a file in `dir`.
static bool run_chunk(fbLuaHost *h, const char *dir, char *err, size_t errlen)
{
  fbSandbox_PushEnv(h->L, dir, h->require_path);
  lua_pushvalue(h->L, -1);
  lua_setfield(h->L, LUA_REGISTRYINDEX, FB_LAST_ENV);
  lua_setupvalue(h->L, -2, 1);
  return fbLuaHost_Call(h, 0, 1, err, errlen);
}

bool fbLuaHost_RunFile(fbLuaHost *h, const char *path, char *err, size_t errlen)
{
  size_t len = 0;
  char *code = fbSandbox_ReadFile(path, &len, err, errlen);
  if (code == NULL) {
    return false;
  }
  bool ok = fbLuaHost_RunSource(h, code, len, path, err, errlen);
  free(code);
  return ok;
}

// Some errors carry no position ("not enough memory", "attempt to load a binary chunk"): the
// file is named in front of them, so every message says which script it is about.
static bool name_file(const char *path, char *err, size_t errlen)
{
  if (strstr(err, path) == NULL) {
    char message[2048];
    snprintf(message, sizeof message, "%s", err);
    snprintf(err, errlen, "%s: %s", path, message);
  }
  return false;
}

bool fbLuaHost_RunSource(fbLuaHost *h, const char *code, size_t len, const char *path, char *err, size_t errlen)
{
  if (!fbSandbox_LoadBuffer(h->L, code, len, path, err, errlen)) {
    return name_file(path, err, errlen);
  }
  char dir[512];
  const char *slash = strrchr(path, '/');
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
  return run_chunk(h, dir, err, errlen) || name_file(path, err, errlen);
}

bool fbLuaHost_RunString(fbLuaHost *h, const char *code, const char *chunkname, char *err, size_t errlen)
{
  char name[600];
  snprintf(name, sizeof name, "=%s", chunkname);
  if (luaL_loadbufferx(h->L, code, strlen(code), name, "t") != LUA_OK) {
    snprintf(err, errlen, "%s", lua_tostring(h->L, -1) ? lua_tostring(h->L, -1) : "(error)");
    lua_pop(h->L, 1);
    return false;
  }
  return run_chunk(h, "", err, errlen);
}

// ---- values across states -----------------------------------------------------------------------

static bool copy_value(lua_State *from, int idx, lua_State *to, int depth, const char *what, char *err,
                       size_t errlen)
{
  idx = lua_absindex(from, idx);
  switch (lua_type(from, idx)) {
  case LUA_TNIL: lua_pushnil(to); return true;
  case LUA_TBOOLEAN: lua_pushboolean(to, lua_toboolean(from, idx)); return true;
  case LUA_TNUMBER:
    if (lua_isinteger(from, idx)) {
      lua_pushinteger(to, lua_tointeger(from, idx));
    } else {
      lua_pushnumber(to, lua_tonumber(from, idx));
    }
    return true;
  case LUA_TSTRING: {
    size_t len;
    const char *s = lua_tolstring(from, idx, &len);
    lua_pushlstring(to, s, len);
    return true;
  }
  case LUA_TTABLE:
    if (depth > 16) {
      snprintf(err, errlen, "%s: tables nested too deep (or a cycle)", what);
      return false;
    }
    luaL_checkstack(to, 4, "copy");
    lua_newtable(to);
    lua_pushnil(from);
    while (lua_next(from, idx) != 0) {
      if (!copy_value(from, -2, to, depth + 1, what, err, errlen) ||
          !copy_value(from, -1, to, depth + 1, what, err, errlen)) {
        lua_pop(from, 2);
        return false;  // the caller restores the top of `to`
      }
      lua_rawset(to, -3);
      lua_pop(from, 1);
    }
    return true;
  default:
    snprintf(err, errlen, "%s: a %s cannot be used here (numbers, strings, booleans and tables only)", what,
             luaL_typename(from, idx));
    return false;
  }
}

bool fbLua_CopyValue(lua_State *from, int idx, lua_State *to, const char *what, char *err, size_t errlen)
{
  int top = lua_gettop(to);
  if (!copy_value(from, idx, to, 0, what, err, errlen)) {
    lua_settop(to, top);
    return false;
  }
  return true;
}

// ---- values as Lua text ---------------------------------------------------------------------------

// A string literal Lua reads back as the same bytes: quotes and backslashes escaped, and control
// characters (a line break, a carriage return would end or corrupt the literal) as \ddd.
static void print_string(FILE *out, const char *s)
{
  fputc('"', out);
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') {
      fprintf(out, "\\%c", c);
    } else if (c == '\n') {
      fputs("\\n", out);
    } else if (c < 0x20 || c == 0x7f) {
      fprintf(out, "\\%03d", c);
    } else {
      fputc(c, out);
    }
  }
  fputc('"', out);
}

static int compare_keys(const void *a, const void *b) { return strcmp(a, b); }

static void print_value(lua_State *L, int idx, FILE *out, int depth);

// A table's entries: its list part first, then the named ones sorted (table order is not stable).
static void print_table(lua_State *L, int idx, FILE *out, int depth)
{
  idx = lua_absindex(L, idx);
  fputs("{ ", out);
  lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
  for (lua_Integer k = 1; k <= n; ++k) {
    lua_rawgeti(L, idx, k);
    print_value(L, -1, out, depth + 1);
    lua_pop(L, 1);
    fputs(", ", out);
  }
  char keys[64][FB_NAME_LEN];
  int count = 0;
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    if (lua_type(L, -2) == LUA_TSTRING && count < 64 && lua_rawlen(L, -2) < FB_NAME_LEN) {
      snprintf(keys[count++], FB_NAME_LEN, "%s", lua_tostring(L, -2));
    }
    lua_pop(L, 1);
  }
  qsort(keys, (size_t)count, FB_NAME_LEN, compare_keys);
  for (int k = 0; k < count; ++k) {
    if (fbName_IsIdentifier(keys[k])) {
      fprintf(out, "%s = ", keys[k]);
    } else {
      fputc('[', out);
      print_string(out, keys[k]);
      fputs("] = ", out);
    }
    lua_getfield(L, idx, keys[k]);
    print_value(L, -1, out, depth + 1);
    lua_pop(L, 1);
    fputs(k + 1 < count ? ", " : " ", out);
  }
  fputc('}', out);
}

static void print_value(lua_State *L, int idx, FILE *out, int depth)
{
  switch (lua_type(L, idx)) {
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx)) {
      fprintf(out, "%lld", (long long)lua_tointeger(L, idx));
    } else {
      fprintf(out, "%.9g", lua_tonumber(L, idx));
    }
    break;
  case LUA_TBOOLEAN: fputs(lua_toboolean(L, idx) ? "true" : "false", out); break;
  case LUA_TSTRING: print_string(out, lua_tostring(L, idx)); break;
  case LUA_TTABLE:
    if (depth < 8) {
      print_table(L, idx, out, depth);
      break;
    }
    /* fall through */
  default: fputs("nil", out); break;
  }
}

void fbLua_Write(lua_State *L, int idx, FILE *out) { print_value(L, idx, out, 0); }

void fbLua_FunctionWhere(lua_State *L, int idx, char *out, size_t len)
{
  lua_Debug ar;
  lua_pushvalue(L, idx);
  if (lua_getinfo(L, ">S", &ar) && ar.currentline != -2 && strcmp(ar.what, "C") != 0) {
    snprintf(out, len, "%s:%d", ar.short_src, ar.linedefined);
  } else {
    snprintf(out, len, "?");
  }
}
