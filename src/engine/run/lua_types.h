// lua_types.h — types/flockbox.lua (LuaLS definitions) and types/luacheck_std.lua (luacheck's globals), written from the engine's tables.
#ifndef FB_LUA_TYPES_H
#define FB_LUA_TYPES_H

#include <stdbool.h>
#include <stdio.h>

// Writes the lua-language-server definitions of everything a rule and a scenario see (the agent
// view, the species table, fb in rules and in scenarios, fb.world, the steering library loaded
// from `steering`, the shape of a rule module). False with a message if the library does not
// load or one of its functions has no ---@return line.
bool fbLuaTypes_Write(FILE *out, const char *steering, char *err, size_t errlen);

// Writes luacheck's std sets `rule`, `scenario` and `experiment` (a Lua file returning a table):
// the globals of the environments the engine really makes for each.
bool fbLuaTypes_WriteLuacheck(FILE *out, const char *steering, char *err, size_t errlen);

#endif
