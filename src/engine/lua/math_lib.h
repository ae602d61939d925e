// math_lib.h — the scripts' math.sin, math.exp, math.log ... through fb_math, for the same bits on every platform.
#ifndef FB_MATH_LIB_H
#define FB_MATH_LIB_H

#include <lua.h>

/*
 * Lua's math library calls the C library's sin, exp, log ..., which round differently in the
 * last place under glibc and musl (the WebAssembly build): a rule that turns by math.cos would
 * give another run in the page. These replace, in the state's math table, every function of it
 * that rounds (sin, cos, tan, asin, acos, atan, exp, log, and where Lua was built with its 5.3
 * compatibility: sinh, cosh, tanh, pow, log10, atan2) by the same function over fb_math.h, with
 * Lua's own argument checks and special cases (math.log(x, 2) is log2, math.log(x, 10) is
 * log10, math.atan(y [, x]) is atan2). The operator x ^ y cannot be replaced: the interpreter
 * calls the C library's pow for it (docs/reliability.md, "Same bits in the page and on the
 * desktop").
 */
void fbMathLib_Install(lua_State *L);

#endif
