// library_guard.c — table.move, table.insert, table.remove and string.rep within a bounded number of elements.
#include "library_guard.h"

#include <lauxlib.h>

static int too_many(lua_State *L, const char *call, lua_Integer count)
{
  return luaL_error(L, "%s: %I elements is more than the %I a call may touch (no time limit can stop a library call)",
                    call, count, FB_LIBRARY_MAX_SPAN);
}

// table.move(a1, f, e, t [, a2]): as Lua's, after refusing a span beyond the bound.
static int guarded_move(lua_State *L)
{
  lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);
  luaL_checkinteger(L, 4);
  if (e >= f && (f <= 0 ? e > FB_LIBRARY_MAX_SPAN + f : e - f >= FB_LIBRARY_MAX_SPAN)) {
    return too_many(L, "table.move", f <= 0 && e > 0 ? e : e - f + 1);
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

// The length of the table argument (its __len, if any, runs once), refused beyond the bound.
static lua_Integer bounded_length(lua_State *L, const char *call)
{
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_Integer n = luaL_len(L, 1);
  if (n > FB_LIBRARY_MAX_SPAN) {
    too_many(L, call, n);
  }
  return n;
}

/*
 * table.insert(t, [pos,] v) and table.remove(t [, pos]) written out (as ltablib.c does, with the
 * same checks and messages): their shifting loops run from the length down or up to pos, and the
 * length is read once and bounded, so a __len that answers differently on a second call changes
 * nothing.
 */
static int guarded_insert(lua_State *L)
{
  lua_Integer e = bounded_length(L, "table.insert") + 1;  // first empty element
  lua_Integer pos;
  switch (lua_gettop(L)) {
  case 2: pos = e; break;
  case 3:
    pos = luaL_checkinteger(L, 2);
    luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2, "position out of bounds");
    for (lua_Integer i = e; i > pos; i--) {
      lua_geti(L, 1, i - 1);
      lua_seti(L, 1, i);
    }
    break;
  default: return luaL_error(L, "wrong number of arguments to 'insert'");
  }
  lua_seti(L, 1, pos);
  return 0;
}

static int guarded_remove(lua_State *L)
{
  lua_Integer size = bounded_length(L, "table.remove");
  lua_Integer pos = luaL_optinteger(L, 2, size);
  if (pos != size) {
    luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
  }
  lua_geti(L, 1, pos);
  for (; pos < size; pos++) {
    lua_geti(L, 1, pos + 1);
    lua_seti(L, 1, pos);
  }
  lua_pushnil(L);
  lua_seti(L, 1, pos);
  return 1;
}

// string.rep(s, n [, sep]): Lua's copies an empty s n - 1 times (2^50 copies of nothing hang the
// process); an empty result is returned at once, and any other is bounded by the memory budget.
static int guarded_rep(lua_State *L)
{
  size_t len = 0, seplen = 0;
  luaL_checklstring(L, 1, &len);
  lua_Integer n = luaL_checkinteger(L, 2);
  luaL_optlstring(L, 3, "", &seplen);
  if (n <= 0 || len + seplen == 0) {
    lua_pushliteral(L, "");
    return 1;
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, 1);
  return 1;
}

// Replaces lib[name] by fn, with the library's own function as upvalue 1.
static void wrap(lua_State *L, const char *lib, const char *name, lua_CFunction fn)
{
  lua_getglobal(L, lib);
  lua_getfield(L, -1, name);
  lua_pushcclosure(L, fn, 1);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
}

void fbLibraryGuard_Install(lua_State *L)
{
  wrap(L, "table", "move", guarded_move);
  wrap(L, "table", "insert", guarded_insert);
  wrap(L, "table", "remove", guarded_remove);
  wrap(L, "string", "rep", guarded_rep);
}
