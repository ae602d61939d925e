// sandbox.c — module environments: private library copies, _G, load and require bound to the module.
#include "sandbox.h"

#include <lauxlib.h>
#include <lualib.h>
#include <stdbool.h>
#include <string.h>

#include "library_guard.h"
#include "log.h"
#include "math_lib.h"
#include "pattern_guard.h"
#include "paths.h"


// load(text [, name [, mode [, env]]]): text chunks only, in the calling module's environment
// (upvalue 1) unless an env is given.
static int l_load(lua_State *L)
{
  size_t len;
  const char *code = luaL_checklstring(L, 1, &len);
  const char *name = luaL_optstring(L, 2, "=(load)");
  int status = luaL_loadbufferx(L, code, len, name, "t");
  if (status != LUA_OK) {
    luaL_pushfail(L);
    lua_insert(L, -2);
    return 2;
  }
  lua_pushvalue(L, lua_isnoneornil(L, 4) ? lua_upvalueindex(1) : 4);
  lua_setupvalue(L, -2, 1);
  return 1;
}

// setmetatable(t, mt) as Lua's, except that a metatable with a finalizer is refused: __gc runs
// whenever the collector gets to it (while the next file is parsed, or at exit), outside any
// rule's time limit, so a finalizer that loops would hang the process. A __gc added to the
// metatable afterwards is never called (Lua 5.4 marks objects for finalization only here).
static int l_setmetatable(lua_State *L)
{
  int type = lua_type(L, 2);
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_argexpected(L, type == LUA_TNIL || type == LUA_TTABLE, 2, "nil or table");
  if (type == LUA_TTABLE) {
    lua_pushliteral(L, "__gc");
    bool finalizer = lua_rawget(L, 2) != LUA_TNIL;
    lua_pop(L, 1);
    if (finalizer) {
      return luaL_error(L, "setmetatable: finalizers (__gc) are not available to scripts");
    }
  }
  if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL) {
    return luaL_error(L, "cannot change a protected metatable");
  }
  lua_settop(L, 2);
  lua_setmetatable(L, 1);
  return 1;
}

/*
 * print(...) in a rule, a helper or a scenario: the values as tostring gives them, separated by
 * tabs as Lua's own print does, as one message through the program's log function (log.h), with
 * the file and line that printed. The engine writes to no stream itself: an embedding program
 * decides where a script's print goes. A line is cut at PRINT_MAX bytes, so a script cannot make
 * one message of any size.
 */
#define PRINT_MAX 1000

static int l_print(lua_State *L)
{
  int n = lua_gettop(L);
  luaL_Buffer b;
  luaL_where(L, 1);  // "file:line:" of the caller
  luaL_buffinit(L, &b);
  for (int i = 1; i <= n; ++i) {
    if (i > 1) {
      luaL_addchar(&b, '\t');
    }
    luaL_tolstring(L, i, NULL);  // __tostring and __name respected, as Lua's print does
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  size_t len = 0;
  const char *line = lua_tolstring(L, -1, &len);
  fbLog(FB_LOG_INFO, "%s%.*s%s", lua_tostring(L, n + 1), (int)(len > PRINT_MAX ? PRINT_MAX : len), line,
        len > PRINT_MAX ? " ..." : "");
  return 0;
}

void fbSandbox_Open(lua_State *L)
{
  static const luaL_Reg libs[] = {
      {LUA_GNAME, luaopen_base},       {LUA_TABLIBNAME, luaopen_table}, {LUA_STRLIBNAME, luaopen_string},
      {LUA_MATHLIBNAME, luaopen_math}, {LUA_UTF8LIBNAME, luaopen_utf8}, {LUA_COLIBNAME, luaopen_coroutine},
      {NULL, NULL}};
  for (const luaL_Reg *lib = libs; lib->func != NULL; ++lib) {
    luaL_requiref(L, lib->name, lib->func, 1);
    lua_pop(L, 1);
  }
  lua_pushcfunction(L, l_setmetatable);
  lua_setglobal(L, "setmetatable");
  lua_pushcfunction(L, l_print);
  lua_setglobal(L, "print");
  static const char *const removed[] = {"dofile", "loadfile", "collectgarbage", "load", NULL};
  for (int i = 0; removed[i] != NULL; ++i) {
    lua_pushnil(L);
    lua_setglobal(L, removed[i]);
  }
  lua_getglobal(L, "string");
  lua_pushnil(L);
  lua_setfield(L, -2, "dump");
  lua_pop(L, 1);
  fbPatternGuard_Install(L);
  fbLibraryGuard_Install(L);
  fbMathLib_Install(L);  // before any module copies the math table
  // Every string shares this metatable (its __index is the string library): nobody may reach it.
  lua_pushliteral(L, "");
  lua_getmetatable(L, -1);
  lua_pushliteral(L, "the string metatable is shared by every module and cannot be changed");
  lua_setfield(L, -2, "__metatable");
  lua_pop(L, 2);
}

// Pushes a copy of the table at idx, tables inside it copied too (depth bounded, the globals
// table itself skipped): what a module changes in it stays its own. A copy shares the original's
// metatable, which the engine protects (__metatable) wherever it sets one: fb.world() still calls.
static void push_copy(lua_State *L, int idx, int depth)
{
  idx = lua_absindex(L, idx);
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  int globals = lua_gettop(L);
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    if (lua_type(L, -1) == LUA_TTABLE && !lua_rawequal(L, -1, globals) && depth < 3) {
      push_copy(L, -1, depth + 1);
      lua_remove(L, -2);
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
  if (lua_getmetatable(L, idx)) {
    lua_setmetatable(L, -2);
  }
  lua_remove(L, globals);
}

static bool is_module_name(const char *s)
{
  if (*s == '\0' || *s == '.') {
    return false;
  }
  for (; *s; ++s) {
    if (!(*s == '_' || *s == '.' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9'))) {
      return false;
    }
    if (s[0] == '.' && s[1] == '.') {
      return false;
    }
  }
  return true;
}

// The file of module `name` in `dir` (dots become folders); false if none.
static bool module_in(const char *dir, const char *name, char *out, size_t len)
{
  if (dir[0] == '\0') {
    return false;
  }
  int n = snprintf(out, len, "%s/%s.lua", dir, name);
  if (n < 0 || (size_t)n >= len) {
    return false;
  }
  for (char *p = out + strlen(dir) + 1; *p && strcmp(p, ".lua") != 0; ++p) {
    *p = *p == '.' ? '/' : *p;
  }
  return fbFilePath_IsFile(out);
}

// The folder of a file ("" when it has none).
static void dir_of(const char *path, char *out, size_t len)
{
  const char *slash = strrchr(path, '/');
  snprintf(out, len, "%.*s", slash ? (int)(slash - path) : 0, path);
}

/*
 * require(name) for a module (upvalues: 1 its environment, 2 its cache of required modules, 3 its
 * folder, 4 the search folders). A helper is loaded for each module that requires it, into an
 * environment of its own, so that modules never share a helper's tables either; within one module
 * a second require returns the same instance.
 */
static int l_require(lua_State *L)
{
  const char *name = luaL_checkstring(L, 1);
  if (!is_module_name(name)) {
    return luaL_error(L, "require: '%s' is not a module name (letters, digits, _ and . only)", name);
  }
  lua_pushvalue(L, 1);
  int cached = lua_rawget(L, lua_upvalueindex(2));
  if (cached == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {
    return luaL_error(L, "require: '%s' requires itself (through the modules it requires)", name);
  }
  if (cached != LUA_TNIL) {
    return 1;
  }
  lua_pop(L, 1);
  if (strcmp(name, "steering") == 0 && lua_getfield(L, lua_upvalueindex(1), "steering") == LUA_TTABLE) {
    return 1;  // the module's own copy of the steering library
  }
  char path[1024], tried[2048] = "";
  const char *dir = lua_tostring(L, lua_upvalueindex(3));
  const char *search = lua_tostring(L, lua_upvalueindex(4));
  bool found = module_in(dir, name, path, sizeof path);
  snprintf(tried, sizeof tried, "%s", dir[0] ? dir : "");
  for (const char *p = search; !found && *p;) {
    const char *end = strchr(p, ';');
    char folder[512];
    snprintf(folder, sizeof folder, "%.*s", end ? (int)(end - p) : (int)strlen(p), p);
    found = module_in(folder, name, path, sizeof path);
    size_t used = strlen(tried);
    snprintf(tried + used, sizeof tried - used, "%s%s", used ? ", " : "", folder);
    p = end ? end + 1 : p + strlen(p);
  }
  if (!found) {
    return luaL_error(L, "require: no module '%s' (looked for %s.lua in: %s)", name, name, tried);
  }
  lua_pushvalue(L, 1);
  lua_pushboolean(L, 0);  // being loaded: a cycle back to it is an error, not a hang
  lua_rawset(L, lua_upvalueindex(2));
  char err[1024], folder[512];
  if (!fbSandbox_LoadFile(L, path, err, sizeof err)) {
    return luaL_error(L, "require: %s", err);
  }
  dir_of(path, folder, sizeof folder);
  fbSandbox_PushEnv(L, folder, search);
  lua_setupvalue(L, -2, 1);
  lua_call(L, 0, 1);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_pushboolean(L, 1);
  }
  lua_pushvalue(L, 1);
  lua_pushvalue(L, -2);
  lua_rawset(L, lua_upvalueindex(2));
  return 1;
}

void fbSandbox_PushEnv(lua_State *L, const char *dir, const char *search)
{
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  push_copy(L, -1, 0);
  lua_remove(L, -2);
  int env = lua_gettop(L);
  lua_pushvalue(L, env);
  lua_setfield(L, env, "_G");
  lua_pushvalue(L, env);
  lua_pushcclosure(L, l_load, 1);
  lua_setfield(L, env, "load");
  lua_pushvalue(L, env);
  lua_newtable(L);
  lua_pushstring(L, dir);
  lua_pushstring(L, search);
  lua_pushcclosure(L, l_require, 4);
  lua_setfield(L, env, "require");
}

char *fbSandbox_ReadFile(const char *path, size_t *len, char *err, size_t errlen)
{
  long size;
  char why[256];
  FILE *f = fbFilePath_OpenRegular(path, FB_MAX_SCRIPT_BYTES, &size, why, sizeof why);
  if (f == NULL) {
    snprintf(err, errlen, "%s: cannot open file: %s", path, why);
    return NULL;
  }
  char *code = malloc((size_t)size + 1);
  FB_ASSERT(code != NULL);
  *len = fread(code, 1, (size_t)size, f);
  fclose(f);
  code[*len] = '\0';
  return code;
}

bool fbSandbox_LoadFile(lua_State *L, const char *path, char *err, size_t errlen)
{
  size_t len = 0;
  char *code = fbSandbox_ReadFile(path, &len, err, errlen);
  if (code == NULL) {
    return false;
  }
  bool ok = fbSandbox_LoadBuffer(L, code, len, path, err, errlen);
  free(code);
  return ok;
}

bool fbSandbox_LoadBuffer(lua_State *L, const char *code, size_t len, const char *path, char *err, size_t errlen)
{
  char chunkname[600];
  snprintf(chunkname, sizeof chunkname, "@%.*s", (int)sizeof chunkname - 2, path);
  int status = luaL_loadbufferx(L, code, len, chunkname, "t");
  if (status != LUA_OK) {
    snprintf(err, errlen, "%s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "(error)");
    lua_pop(L, 1);
    return false;
  }
  return true;
}
