// view_util.h — helpers shared by the window's tests (include after <cmocka.h>): a viewer on a scenario, frames, printed Lua.
#ifndef FB_VIEW_UTIL_H
#define FB_VIEW_UTIL_H

#include <lauxlib.h>
#include <stdarg.h>
#include <stdlib.h>

#include "viewer.h"

// Opens v on scenario with --seed seed and the options that follow (NULL-terminated). --frames
// makes every frame stand for exactly 1/60 s, so the steps a frame makes do not depend on how fast
// the test machine is.
static inline fbViewer *fbTest_OpenViewer(fbViewer *v, const char *seed, const char *scenario, ...)
{
  char *argv[32] = {"flockbox", "--frames", "1000000", "--seed", (char *)seed};
  int argc = 5;
  va_list ap;
  va_start(ap, scenario);
  for (const char *a; (a = va_arg(ap, const char *)) != NULL && argc < 30;) {
    argv[argc++] = (char *)a;
  }
  va_end(ap);
  argv[argc++] = (char *)scenario;
  fbCli cli;
  fbWindowOptions window;
  char err[4096];
  assert_int_equal(fbWindowOptions_Parse(&cli, &window, argc, argv, err, sizeof err), 0);
  if (fbViewer_Create(v, &cli, &window, err, sizeof err) != 0) {
    fail_msg("%s", err);
  }
  return v;
}

// The index of the dock called name in the dock table (docks.c); the test fails if there is none.
static inline int fbTest_Dock(const char *name)
{
  int d = fbDock_Find(name);
  if (d < 0) {
    fail_msg("no dock called %s", name);
  }
  return d;
}

static inline void fbTest_Frames(fbViewer *v, int n)
{
  for (int k = 0; k < n; ++k) {
    fbViewer_Frame(v);
  }
}

// A key pressed (and, with fbTest_Key, released), as SDL would report it.
static inline void fbTest_KeyDown(fbViewer *v, SDL_Keycode sym, Uint16 mod)
{
  SDL_Event e = {0};
  e.type = SDL_KEYDOWN;
  e.key.keysym.sym = sym;
  e.key.keysym.mod = mod;
  fbViewer_HandleEvent(v, &e);
}

static inline void fbTest_KeyUp(fbViewer *v, SDL_Keycode sym)
{
  SDL_Event e = {0};
  e.type = SDL_KEYUP;
  e.key.keysym.sym = sym;
  fbViewer_HandleEvent(v, &e);
}

static inline void fbTest_Key(fbViewer *v, SDL_Keycode sym, Uint16 mod)
{
  fbTest_KeyDown(v, sym, mod);
  fbTest_KeyUp(v, sym);
}

// A left-button press, release or drag (SDL_MOUSEMOTION with the button held) at (x, y), as SDL
// would report it.
static inline void fbTest_Mouse(fbViewer *v, Uint32 type, int x, int y)
{
  SDL_Event e = {0};
  e.type = type;
  if (type == SDL_MOUSEMOTION) {
    e.motion.x = x;
    e.motion.y = y;
    e.motion.state = SDL_BUTTON_LMASK;
  } else {
    e.button.button = SDL_BUTTON_LEFT;
    e.button.x = x;
    e.button.y = y;
  }
  fbViewer_HandleEvent(v, &e);
}

// What C prints (fbPanel_PrintLua), as a string to free.
static inline char *fbTest_PrintedLua(const fbSim *sim)
{
  FILE *f = tmpfile();
  assert_non_null(f);
  fbPanel_PrintLua(sim, f);
  long size = ftell(f);
  rewind(f);
  char *text = calloc(1, (size_t)size + 1);
  assert_int_equal(fread(text, 1, (size_t)size, f), size);
  fclose(f);
  return text;
}

// The printed Lua parses as the inside of a table constructor: the species one after another.
static inline void fbTest_AssertLuaParses(const char *text)
{
  size_t size = strlen(text) + 64;
  char *chunk = calloc(1, size);
  snprintf(chunk, size, "return {\n%s}", text);
  lua_State *L = luaL_newstate();
  if (luaL_loadstring(L, chunk) != LUA_OK) {
    fail_msg("%s\n%s", lua_tostring(L, -1), text);
  }
  lua_close(L);
  free(chunk);
}

#endif
