// rule_frame.c — the message handler that takes a failing rule's traceback and locals while its frame is alive (see rule_frame.h).
#include "rule_frame.h"

#include <lauxlib.h>
#include <string.h>

#include "lua_host.h"
#include "show_value.h"

typedef struct Where {
  fbRuleFrame *frame;
  const fbRuleContext *ctx;
} Where;

// The innermost Lua function on the stack (error() itself is a C function): the rule's own frame,
// or the helper it called that raised. False when no Lua function is running.
static bool failing_level(lua_State *L, lua_Debug *ar)
{
  for (int level = 1; lua_getstack(L, level, ar); ++level) {
    if (lua_getinfo(L, "Sl", ar) && strcmp(ar->what, "C") != 0) {
      return true;
    }
  }
  return false;
}

/*
 * The locals of the frame, in the order they were declared: each as a line of text, and all into a
 * table (a name declared twice, in nested blocks, keeps the innermost) whose source is kept.
 * Temporaries ("(for state)", "(vararg)") are left out.
 */
static void take_locals(lua_State *L, lua_Debug *ar, fbRuleFrame *frame)
{
  fbShowText text = fbShowText_Of(frame->locals, sizeof frame->locals);
  lua_newtable(L);
  int table = lua_gettop(L);
  const char *name;
  for (int n = 1; (name = lua_getlocal(L, ar, n)) != NULL; ++n) {
    if (name[0] == '(') {
      lua_pop(L, 1);
      continue;
    }
    fbShowText_Add(&text, "%s = ", name);
    fbLua_ShowData(L, -1, &text);
    fbShowText_Add(&text, "\n");
    lua_setfield(L, table, name);
  }
  fbShowText source = fbShowText_Of(frame->source, sizeof frame->source);
  fbShowText_Add(&source, "return ");
  fbLua_ShowSource(L, table, &source);
  if (source.cut) {
    frame->source[0] = '\0';
  }
  lua_pop(L, 1);
}

static int frame_handler(lua_State *L)
{
  Where *w = lua_touserdata(L, lua_upvalueindex(1));
  fbLuaHost_Traceback(L);  // the message and traceback every protected call gives
  fbRuleFrame *frame = w->frame;
  lua_Debug ar;
  if (frame->captured || !failing_level(L, &ar)) {
    return 1;
  }
  frame->captured = true;
  frame->species = w->ctx->species;
  frame->rule = w->ctx->rule;
  frame->agent = w->ctx->world->agents.id[w->ctx->agent];
  snprintf(frame->where, sizeof frame->where, "%s:%d", ar.short_src, ar.currentline);
  snprintf(frame->traceback, sizeof frame->traceback, "%s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "");
  take_locals(L, &ar, frame);
  return 1;
}

void fbRuleFrame_PushHandler(lua_State *L, fbRuleFrame *frame, const fbRuleContext *ctx)
{
  Where *w = lua_newuserdatauv(L, sizeof(Where), 0);
  *w = (Where){frame, ctx};
  lua_pushcclosure(L, frame_handler, 1);
}
