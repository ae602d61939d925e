// test_world.h — the Lua module flockbox.core of rule tests: tiny real worlds a test makes, steps and reads.
#ifndef FB_TEST_WORLD_H
#define FB_TEST_WORLD_H

#include <lua.h>

/*
 * What the harness (lib/flockbox/test.lua) needs of the engine, and no more: a world loaded from a
 * scenario file (the harness writes one from a test's description), stepped on one thread with a
 * fixed seed; its agents as plain tables; the output of each rule for one inspected agent (the
 * same numbers the window's inspector shows); a rule's error. The view `a` a rule sees in a test
 * is the engine's own, with every method.
 */
int fbTestWorld_OpenCore(lua_State *L);

#endif
