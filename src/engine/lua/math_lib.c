// math_lib.c — the scripts' math.sin, math.exp, math.log ... through fb_math (see math_lib.h).
#include "math_lib.h"

#include <lauxlib.h>
#include <lualib.h>

#include "fb_math.h"

// The one-argument functions, each as lmathlib.c has it: luaL_checknumber, then the function.
#define ONE_ARGUMENT(lua_name, fn)                   \
  static int l_##lua_name(lua_State *L)              \
  {                                                  \
    lua_pushnumber(L, fn(luaL_checknumber(L, 1)));   \
    return 1;                                        \
  }

ONE_ARGUMENT(sin, fbMath_Sin)
ONE_ARGUMENT(cos, fbMath_Cos)
ONE_ARGUMENT(tan, fbMath_Tan)
ONE_ARGUMENT(asin, fbMath_Asin)
ONE_ARGUMENT(acos, fbMath_Acos)
ONE_ARGUMENT(exp, fbMath_Exp)
ONE_ARGUMENT(sinh, fbMath_Sinh)
ONE_ARGUMENT(cosh, fbMath_Cosh)
ONE_ARGUMENT(tanh, fbMath_Tanh)
ONE_ARGUMENT(log10, fbMath_Log10)

// math.atan(y [, x]): atan2(y, x), x = 1 when absent (also math.atan2 of the 5.3 compatibility).
static int l_atan(lua_State *L)
{
  lua_Number y = luaL_checknumber(L, 1);
  lua_Number x = luaL_optnumber(L, 2, 1);
  lua_pushnumber(L, fbMath_Atan2(y, x));
  return 1;
}

// math.log(x [, base]): base 2 and 10 by their own functions (exact at powers of the base),
// any other as log x / log base, as Lua 5.4 does.
static int l_log(lua_State *L)
{
  lua_Number x = luaL_checknumber(L, 1), result;
  if (lua_isnoneornil(L, 2)) {
    result = fbMath_Log(x);
  } else {
    lua_Number base = luaL_checknumber(L, 2);
    if (base == 2.0) {
      result = fbMath_Log2(x);
    } else if (base == 10.0) {
      result = fbMath_Log10(x);
    } else {
      result = fbMath_Log(x) / fbMath_Log(base);
    }
  }
  lua_pushnumber(L, result);
  return 1;
}

static int l_pow(lua_State *L)  // the 5.3 compatibility's math.pow(x, y)
{
  lua_Number x = luaL_checknumber(L, 1), y = luaL_checknumber(L, 2);
  lua_pushnumber(L, fbMath_Pow(x, y));
  return 1;
}

void fbMathLib_Install(lua_State *L)
{
  static const luaL_Reg functions[] = {
      {"sin", l_sin},     {"cos", l_cos},   {"tan", l_tan},   {"asin", l_asin},   {"acos", l_acos},
      {"atan", l_atan},   {"exp", l_exp},   {"log", l_log},   {"sinh", l_sinh},   {"cosh", l_cosh},
      {"tanh", l_tanh},   {"pow", l_pow},   {"log10", l_log10}, {"atan2", l_atan}, {NULL, NULL}};
  lua_getglobal(L, LUA_MATHLIBNAME);
  for (const luaL_Reg *f = functions; f->name != NULL; ++f) {
    if (lua_getfield(L, -1, f->name) != LUA_TNIL) {  // only what this Lua's library has
      lua_pushcfunction(L, f->func);
      lua_setfield(L, -3, f->name);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}
