// console.c — a console line run in the scenario's state (see console.h): compiled as lua.c does, run through the protected door, its values shown, recorded.
#include "console.h"

#include <ctype.h>
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

#include "lua_host.h"
#include "memory.h"

// Where a line's print writes while it runs: a table of lines in the registry (absent otherwise).
#define CAPTURE_KEY "flockbox.console_print"

void fbConsole_Init(fbConsole *c) { memset(c, 0, sizeof *c); }

bool fbConsole_TakeFrame(fbConsole *c, const fbSim *sim)
{
  const fbRuleFrame *failed = fbSim_FailedFrame(sim);
  if (failed == NULL) {
    fbConsole_DropFrame(c);
    return false;
  }
  if (c->frame == NULL) {
    c->frame = fbMemory_Grow(NULL, sizeof *c->frame, 1);
  }
  memcpy(c->frame, failed, sizeof *c->frame);
  c->selected = failed->agent;
  return true;
}

void fbConsole_DropFrame(fbConsole *c)
{
  free(c->frame);
  c->frame = NULL;
}

void fbConsole_Free(fbConsole *c)
{
  fbConsole_DropFrame(c);
  for (int k = 0; k < c->record_count; ++k) {
    free(c->records[k].line);
  }
  free(c->records);
  memset(c, 0, sizeof *c);
}

static void record(fbConsole *c, uint64_t step, const char *line, bool ok)
{
  if (c->record_count >= FB_CONSOLE_RECORD_MAX) {
    c->records_left_out++;
    return;
  }
  if (c->record_count == c->record_capacity) {
    c->record_capacity = c->record_capacity ? 2 * c->record_capacity : 16;
    c->records = fbMemory_Grow(c->records, sizeof *c->records, (size_t)c->record_capacity);
  }
  size_t len = strlen(line);
  char *copy = fbMemory_Grow(NULL, 1, len + 1);
  memcpy(copy, line, len + 1);
  c->records[c->record_count++] = (fbConsoleRecord){step, ok, copy};
}

/*
 * The console's print: while a line runs, what it prints is kept (tab-separated values, as Lua's
 * print writes them) to be shown after its values; a function that keeps this print and calls it
 * later, from a hook, prints through the scenario's own print (its upvalue) instead.
 */
static int console_print(lua_State *L)
{
  if (lua_getfield(L, LUA_REGISTRYINDEX, CAPTURE_KEY) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 0);
    return 0;
  }
  int capture = lua_gettop(L);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 1; i < capture; ++i) {
    if (i > 1) {
      luaL_addchar(&b, '\t');
    }
    luaL_tolstring(L, i, NULL);
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  lua_rawseti(L, capture, (lua_Integer)lua_rawlen(L, capture) + 1);
  return 0;
}

typedef struct Line {
  const char *text;
  uint32_t selected;
  const fbRuleFrame *frame;
  fbShowText *out;
  fbConsoleResult result;
} Line;

// As lua.c: `return <line>` first, so an expression gives its values; else the line itself. The
// statement's message is the one shown when neither compiles.
static bool compile(lua_State *L, Line *line)
{
  lua_pushfstring(L, "return %s;", line->text);
  bool ok = luaL_loadbufferx(L, lua_tostring(L, -1), lua_rawlen(L, -1), "=console", "t") == LUA_OK;
  lua_remove(L, -2);
  if (ok) {
    return true;
  }
  lua_pop(L, 1);
  if (luaL_loadbufferx(L, line->text, strlen(line->text), "=console", "t") == LUA_OK) {
    return true;
  }
  fbShowText_Add(line->out, "%s", lua_tostring(L, -1));
  lua_pop(L, 1);
  line->result = FB_CONSOLE_SYNTAX;
  return false;
}

/*
 * A held frame's locals into the scope: its source (rule_frame.h, written by the engine, not by a
 * script) is run with no globals at all and gives a table of copies; a frame whose locals did not
 * fit gives none.
 */
static void add_frame_locals(lua_State *L, int scope, const fbRuleFrame *frame)
{
  if (frame->source[0] == '\0' ||
      luaL_loadbufferx(L, frame->source, strlen(frame->source), "=frame", "t") != LUA_OK) {
    lua_pop(L, frame->source[0] == '\0' ? 0 : 1);
    return;
  }
  lua_newtable(L);
  lua_setupvalue(L, -2, 1);
  lua_call(L, 0, 1);
  lua_pushnil(L);
  while (lua_next(L, -2) != 0) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, scope);
  }
  lua_pop(L, 1);
}

/*
 * The line's globals: a scope table holding `sel` and the console's print, whose metatable reads
 * and writes everything else in the scenario's environment (FB_LAST_ENV: the table its hooks see
 * as _ENV). So `fb`, the scenario's own globals and anything a line assigns are the scenario's,
 * while `sel` and print stay this line's.
 */
static void push_scope(lua_State *L, const Line *line)
{
  lua_newtable(L);
  int scope = lua_gettop(L);
  if (lua_getfield(L, LUA_REGISTRYINDEX, FB_LAST_ENV) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_pushglobaltable(L);  // a world built in C ran no scenario file: the state's own globals
  }
  int env = lua_gettop(L);
  lua_getfield(L, env, "print");
  lua_pushcclosure(L, console_print, 1);
  lua_setfield(L, scope, "print");
  if (line->selected != 0 && lua_getfield(L, env, "fb") == LUA_TTABLE && lua_getfield(L, -1, "find") == LUA_TFUNCTION) {
    lua_pushinteger(L, line->selected);
    lua_call(L, 1, 1);
    lua_setfield(L, scope, "sel");
    lua_pop(L, 1);
  } else if (line->selected != 0) {
    lua_pop(L, 2);
  }
  if (line->frame != NULL) {
    add_frame_locals(L, scope, line->frame);
  }
  lua_createtable(L, 0, 2);
  lua_pushvalue(L, env);
  lua_setfield(L, -2, "__index");
  lua_pushvalue(L, env);
  lua_setfield(L, -2, "__newindex");
  lua_setmetatable(L, scope);
  lua_settop(L, scope);
}

// Appends what the line printed (kept in the capture table) to out, a line each.
static void add_printed(lua_State *L, fbShowText *out)
{
  lua_getfield(L, LUA_REGISTRYINDEX, CAPTURE_KEY);
  lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
  for (lua_Integer k = 1; k <= n; ++k) {
    lua_rawgeti(L, -1, k);
    fbShowText_Add(out, "%s\n", lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  lua_pushnil(L);
  lua_setfield(L, LUA_REGISTRYINDEX, CAPTURE_KEY);
}

// Inside the protected door: compile, bind the scope, call with a traceback, show the values.
static bool run_line(lua_State *L, void *ud, char *err, size_t errlen)
{
  (void)err;
  (void)errlen;
  Line *line = ud;
  if (!compile(L, line)) {
    return true;  // a message, not a failure of the door: nothing ran
  }
  int chunk = lua_gettop(L);
  push_scope(L, line);
  lua_setupvalue(L, chunk, 1);
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, CAPTURE_KEY);
  fbLuaHost_PushTraceback(L);
  lua_insert(L, chunk);
  int status = lua_pcall(L, 0, LUA_MULTRET, chunk);
  add_printed(L, line->out);
  if (status != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    fbShowText_Add(line->out, "%s", msg != NULL ? msg : "(error object is not a string)");
    line->result = FB_CONSOLE_ERROR;
    return true;
  }
  for (int k = chunk + 1; k <= lua_gettop(L); ++k) {
    fbShowText_Add(line->out, k > chunk + 1 ? "\t" : "");
    fbLua_Show(L, k, true, line->out);
  }
  return true;
}

static bool drop_capture(lua_State *L, void *ud, char *err, size_t errlen)
{
  (void)ud;
  (void)err;
  (void)errlen;
  lua_pushnil(L);
  lua_setfield(L, LUA_REGISTRYINDEX, CAPTURE_KEY);
  return true;
}

fbConsoleResult fbConsole_Run(fbConsole *c, fbSim *sim, const char *text, char *out, size_t outlen)
{
  fbShowText shown = fbShowText_Of(out, outlen);
  size_t len = strlen(text);
  if (len > FB_CONSOLE_LINE_MAX) {
    fbShowText_Add(&shown, "a console line holds at most %d bytes (this one has %zu)", FB_CONSOLE_LINE_MAX, len);
    return FB_CONSOLE_SYNTAX;
  }
  Line line = {text, c->selected, c->frame, &shown, FB_CONSOLE_OK};
  char err[2048] = "";
  bool ok = fbSim_RunInScenario(sim, "console", run_line, &line, err, sizeof err);
  if (!ok) {
    // The door itself failed: the watchdog stopped a loop, or memory ran out while showing. What
    // the line printed is dropped with the capture, so that no hook's print is caught from now on.
    // A line the watchdog stopped has said so already: the stop stands until the door returns.
    if (line.result != FB_CONSOLE_ERROR) {
      fbShowText_Add(&shown, "%s%s", shown.len ? "\n" : "", err);
    }
    line.result = FB_CONSOLE_ERROR;
    char again[256];
    fbSim_RunInScenario(sim, "console", drop_capture, NULL, again, sizeof again);
  }
  while (shown.len > 0 && shown.s[shown.len - 1] == '\n') {
    shown.s[--shown.len] = '\0';
  }
  if (shown.cut && shown.cap > 16) {
    snprintf(shown.s + shown.cap - 16, 16, " ... (cut)");
  }
  if (line.result != FB_CONSOLE_SYNTAX) {
    record(c, fbSim_World(sim)->step, text, line.result == FB_CONSOLE_OK);
  }
  return line.result;
}

// ---- completion ---------------------------------------------------------------------------------

// Adds word to the candidates if it starts with prefix and is not there yet; kept sorted on use.
static void add_candidate(fbCompletion *out, const char *base, const char *key, const char *prefix)
{
  if (strncmp(key, prefix, strlen(prefix)) != 0) {
    return;
  }
  char word[FB_COMPLETE_LEN];
  if ((size_t)snprintf(word, sizeof word, "%s%s", base, key) >= sizeof word) {
    return;
  }
  for (int k = 0; k < out->count; ++k) {
    if (strcmp(out->word[k], word) == 0) {
      return;
    }
  }
  out->found++;
  if (out->count < FB_COMPLETE_MAX) {
    memcpy(out->word[out->count++], word, sizeof word);
  }
}

static int compare_words(const void *a, const void *b) { return strcmp(a, b); }

typedef struct Completing {
  Line line;
  const char *word;
  fbCompletion *out;
} Completing;

// A key that reads as a name (letters, digits, underscores, not starting with a digit): one a dot can reach.
static bool is_name(const char *s)
{
  if (!(isalpha((unsigned char)*s) || *s == '_')) {
    return false;
  }
  for (; *s != '\0'; ++s) {
    if (!(isalnum((unsigned char)*s) || *s == '_')) {
      return false;
    }
  }
  return true;
}

// The string keys of the table at t, then those of the tables its metatables' __index give (a few
// levels: the scope's reaches the scenario's environment, and that Lua's globals).
static void table_keys(lua_State *L, int t, const char *base, const char *prefix, fbCompletion *out)
{
  lua_pushvalue(L, t);
  for (int level = 0; level < 4 && lua_type(L, -1) == LUA_TTABLE; ++level) {
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
      lua_pop(L, 1);
      if (lua_type(L, -1) == LUA_TSTRING && is_name(lua_tostring(L, -1))) {
        add_candidate(out, base, lua_tostring(L, -1), prefix);
      }
    }
    if (!lua_getmetatable(L, -1)) {
      break;
    }
    lua_pushliteral(L, "__index");
    lua_rawget(L, -2);
    lua_remove(L, -2);  // the metatable
    lua_remove(L, -2);  // the table walked
  }
  lua_pop(L, 1);
}

// Inside the protected door: the line's scope, down the word's dotted path, then the keys there.
static bool complete_in_scope(lua_State *L, void *ud, char *err, size_t errlen)
{
  (void)err;
  (void)errlen;
  Completing *c = ud;
  push_scope(L, &c->line);
  const char *last = strrchr(c->word, '.');
  const char *prefix = last ? last + 1 : c->word;
  for (const char *at = c->word; last != NULL && at <= last;) {
    size_t n = strcspn(at, ".");
    if (lua_type(L, -1) != LUA_TTABLE || n == 0) {
      return true;  // "x.y" where x is no table: nothing completes it
    }
    lua_pushlstring(L, at, n);
    lua_gettable(L, -2);
    at += n + 1;
  }
  if (lua_type(L, -1) == LUA_TTABLE) {
    char base[FB_COMPLETE_LEN];
    snprintf(base, sizeof base, "%.*s", (int)(prefix - c->word), c->word);
    table_keys(L, lua_gettop(L), base, prefix, c->out);
  }
  return true;
}

// Inside a string: the names fb.set_param and its kind take (species, rules, their parameters).
static void complete_names(const fbSim *sim, const char *prefix, fbCompletion *out)
{
  const fbWorld *w = fbSim_World(sim);
  for (int s = 0; s < w->species_count; ++s) {
    add_candidate(out, "", w->species[s].name, prefix);
    for (int k = 0; k < w->species[s].rule_count; ++k) {
      add_candidate(out, "", fbSim_RuleName(sim, s, k), prefix);
      const fbParamSpecs *specs = fbSim_ParamSpecs(sim, s, k);
      for (int p = 0; specs != NULL && p < specs->count; ++p) {
        add_candidate(out, "", specs->item[p].name, prefix);
      }
    }
  }
}

void fbConsole_Complete(fbConsole *c, fbSim *sim, const char *word, bool in_string, fbCompletion *out)
{
  memset(out, 0, sizeof *out);
  if (in_string) {
    complete_names(sim, word, out);
  } else {
    char shown[64];
    Completing job = {{word, c->selected, c->frame, NULL, FB_CONSOLE_OK}, word, out};
    fbShowText unused = fbShowText_Of(shown, sizeof shown);
    job.line.out = &unused;
    char err[512];
    fbSim_RunInScenario(sim, "console completion", complete_in_scope, &job, err, sizeof err);
  }
  qsort(out->word, (size_t)out->count, sizeof out->word[0], compare_words);
}
