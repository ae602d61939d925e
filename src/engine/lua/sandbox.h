// sandbox.h — the environment each script module runs in: private copies of the libraries, its own _G, and load and require bound to it.
#ifndef FB_SANDBOX_H
#define FB_SANDBOX_H

#include <lua.h>

#include "fb.h"

/*
 * Rules of every species share one Lua state per thread, so whatever one module could change in
 * a shared table another would see. Each module (a rule, a helper it requires, a scenario) gets
 * an environment of its own instead: a table holding the state's globals, where every table among
 * them (math, string, table, fb, steering, ...) is a copy, _G is the environment itself, load()
 * runs text in it, and require() loads helper modules into environments of their own. What a
 * module assigns, deletes or sets a metatable on is then its own. The string metatable, the one
 * table every string shares, is protected: getmetatable("") returns a message, not the table.
 */

// Opens the safe libraries in a new state (base without dofile, loadfile, collectgarbage and
// string.dump; table, string, math, utf8, coroutine; no os, io, package, debug) and protects the
// string metatable.
void fbSandbox_Open(lua_State *L);

// Pushes a new environment for a module whose file is in `dir` ("" for none). require() looks for
// NAME.lua in `dir`, then in each folder of `search` (separated by ';'); "steering" gives the
// module's own copy of the steering library.
void fbSandbox_PushEnv(lua_State *L, const char *dir, const char *search);

// Reads a text file (at most 16 MiB; bytecode refused) and loads it as a chunk named after its
// path; on failure pushes nothing and writes "path: message" into err.
bool fbSandbox_LoadFile(lua_State *L, const char *path, char *err, size_t errlen);

// The whole of a regular file of at most 16 MiB, zero-terminated, for the caller to free; NULL
// with "path: cannot open file: why" in err.
char *fbSandbox_ReadFile(const char *path, size_t *len, char *err, size_t errlen);

// Loads text already read from path as a chunk named after it (so messages say path:line).
bool fbSandbox_LoadBuffer(lua_State *L, const char *code, size_t len, const char *path, char *err, size_t errlen);

#endif
