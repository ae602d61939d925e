// rule_frame.h — a failing rule's frame, taken by the message handler while it is alive: its traceback and its locals, for --break-on-error.
#ifndef FB_RULE_FRAME_H
#define FB_RULE_FRAME_H

#include <lua.h>

#include "rule_api.h"

/*
 * When a rule raises, its frame (its locals: the view `a`, the parameters `p`, everything it has
 * computed) exists only until the error unwinds to the protected loop of rules.c. The message
 * handler runs before that, with the frame still on the stack: it takes the traceback, the locals
 * as text (fbLua_Show) and as a Lua expression that rebuilds a copy of them (fbLua_ShowSource),
 * so the console can show them and bind them after the step, in another state, without touching
 * a view after its call returned. Only raw reads of the values: no metamethod of the rule's runs.
 */
typedef struct fbRuleFrame {
  bool captured;            // the first failure of the current range was taken
  int species, rule;        // whose rule failed
  uint32_t agent;           // the id of the agent it failed for
  char where[320];          // the failing function's "file:line"
  char traceback[4096];     // the error's message and traceback
  char locals[16384];       // "name = value", a line per local, innermost scope last
  char source[65536];       // "return { name = value, ... }", or "" if it did not fit
} fbRuleFrame;

// Pushes the message handler for a range whose failures are taken into frame (nothing is taken
// once frame->captured is set): the usual traceback, then the frame. Which agent and rule were
// running is read from ctx when the handler runs.
void fbRuleFrame_PushHandler(lua_State *L, fbRuleFrame *frame, const fbRuleContext *ctx);

#endif
