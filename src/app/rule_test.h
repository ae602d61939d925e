// rule_test.h — flockbox test PATH...: a rule author's *_test.lua files, run with the flockbox.test harness.
#ifndef FB_RULE_TEST_H
#define FB_RULE_TEST_H

/*
 * Each test file runs in a Lua state of its own (the standard libraries, like lua5.4 itself: a
 * test is the author's own program, not a rule), where require("flockbox.test") gives the harness
 * (lib/flockbox/test.lua, found in the program's data folder) and the harness reaches the engine
 * through the module flockbox.core: tiny real worlds, stepped, with each rule's output for one
 * agent. Returns 0 when every test passed, 1 when one failed, 2 on bad input (no such path, no
 * test files, a file that does not load).
 */
int fbRuleTest_Main(int argc, char **argv);

#endif
