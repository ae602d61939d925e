// show_value.c — Lua values as readable text: tables opened to a depth with sorted keys, cycles marked, long ones cut (see show_value.h).
#include "show_value.h"

#include <lauxlib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_host.h"
#include "names.h"

fbShowText fbShowText_Of(char *buffer, size_t cap)
{
  fbShowText t = {buffer, cap, 0, false};
  if (cap > 0) {
    buffer[0] = '\0';
  }
  return t;
}

void fbShowText_Add(fbShowText *t, const char *format, ...)
{
  if (t->cut || t->cap == 0) {
    t->cut = true;
    return;
  }
  va_list args;
  va_start(args, format);
  int n = vsnprintf(t->s + t->len, t->cap - t->len, format, args);
  va_end(args);
  if (n < 0 || (size_t)n >= t->cap - t->len) {
    t->len = t->cap - 1;
    t->s[t->len] = '\0';
    t->cut = true;
    return;
  }
  t->len += (size_t)n;
}

// Raw bytes (a string may hold zeros), up to what fits.
static void add_bytes(fbShowText *t, const char *p, size_t n)
{
  for (size_t k = 0; k < n && !t->cut; ++k) {
    fbShowText_Add(t, "%c", p[k] != '\0' ? p[k] : ' ');
  }
}

// A string inside a table: quoted, escaped as Lua reads it back, long ones cut with their length.
#define QUOTED_MAX 160
static void add_quoted(fbShowText *t, const char *s, size_t len, bool whole)
{
  size_t max = whole ? len : QUOTED_MAX;
  fbShowText_Add(t, "\"");
  for (size_t k = 0; k < len && k < max; ++k) {
    unsigned char c = (unsigned char)s[k];
    if (c == '"' || c == '\\') {
      fbShowText_Add(t, "\\%c", c);
    } else if (c == '\n') {
      fbShowText_Add(t, "\\n");
    } else if (c < 0x20 || c == 0x7f) {
      fbShowText_Add(t, "\\%03d", c);
    } else {
      fbShowText_Add(t, "%c", c);
    }
  }
  fbShowText_Add(t, len > max ? "\"... (%zu bytes)" : "\"", len);
}

// What one walk keeps: the tables on the way down from the top (a stack slot), for cycles.
typedef struct Show {
  lua_State *L;
  int path;
  fbShowText *out;
  bool source;  // fbLua_ShowSource: a Lua expression, not text for a person
  bool data;    // fbLua_ShowData: a table's C functions left out
} Show;

static void show_value(Show *sh, int idx, int depth, bool top);

// A number as Lua itself writes it (an integer as 3, a float as 3.0 or 0.1), from a copy: converting
// the value in place would turn a key into a string.
static void add_number(Show *sh, int idx)
{
  if (sh->source && !lua_isinteger(sh->L, idx)) {
    lua_Number v = lua_tonumber(sh->L, idx);
    if (isnan(v)) {
      fbShowText_Add(sh->out, "(0/0)");
    } else if (isinf(v)) {
      fbShowText_Add(sh->out, v > 0 ? "(1/0)" : "(-1/0)");
    } else {
      fbShowText_Add(sh->out, "%.17g", (double)v);
    }
    return;
  }
  if (sh->source && lua_tointeger(sh->L, idx) == LUA_MININTEGER) {
    fbShowText_Add(sh->out, "(-9223372036854775807 - 1)");
    return;
  }
  lua_pushvalue(sh->L, idx);
  fbShowText_Add(sh->out, "%s", lua_tostring(sh->L, -1));
  lua_pop(sh->L, 1);
}

// The value's __tostring answer, in a protected call of its own; false when it has none.
static bool add_tostring(Show *sh, int idx)
{
  lua_State *L = sh->L;
  if (sh->source || sh->data || luaL_getmetafield(L, idx, "__tostring") == LUA_TNIL) {
    return false;
  }
  lua_pushvalue(L, idx);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    fbShowText_Add(sh->out, "<%s whose __tostring failed>", luaL_typename(L, idx));
  } else if (lua_type(L, -1) != LUA_TSTRING) {
    fbShowText_Add(sh->out, "<%s whose __tostring gave a %s>", luaL_typename(L, idx), luaL_typename(L, -1));
  } else {
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    add_bytes(sh->out, s, len);
  }
  lua_pop(L, 1);
  return true;
}

/*
 * Keys are sorted so that the same table reads the same on every run (table order follows hashes of
 * addresses): numbers by value, then strings by their bytes, then every other kind by its type name
 * and, within one, in the order met. Each key stays anchored in a Lua table while its text is used,
 * so a __tostring that changes the table cannot free a string being compared.
 */
typedef struct Key {
  int rank;  // 0 number, 1 string, 2 anything else
  lua_Number number;
  const char *text;
  size_t len;
  int slot;  // where it is anchored
} Key;

static int compare_keys(const void *pa, const void *pb)
{
  const Key *a = pa, *b = pb;
  if (a->rank != b->rank) {
    return a->rank - b->rank;
  }
  if (a->rank == 0 && a->number != b->number) {
    return a->number < b->number ? -1 : 1;
  }
  if (a->text != NULL && b->text != NULL) {
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->text, b->text, n);
    if (c != 0 || a->len != b->len) {
      return c != 0 ? c : (a->len < b->len ? -1 : 1);
    }
  }
  return a->slot - b->slot;
}

// At most this many keys beyond the list part are sorted; a larger table shows the first it meets.
#define SORT_MAX 4096

// A name Lua reserves: it cannot stand as a bare key (`["end"] = 1`, not `end = 1`).
static bool is_keyword(const char *s)
{
  static const char *const words[] = {"and", "break", "do", "else", "elseif", "end", "false", "for", "function",
                                      "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then",
                                      "true", "until", "while"};
  for (size_t k = 0; k < sizeof words / sizeof words[0]; ++k) {
    if (strcmp(s, words[k]) == 0) {
      return true;
    }
  }
  return false;
}

static void add_key(Show *sh, const Key *k)
{
  lua_State *L = sh->L;
  if (k->rank == 1 && strlen(k->text) == k->len && fbName_IsIdentifier(k->text) && !is_keyword(k->text)) {
    fbShowText_Add(sh->out, "%s = ", k->text);
    return;
  }
  fbShowText_Add(sh->out, "[");
  if (k->rank == 1) {
    add_quoted(sh->out, k->text, k->len, sh->source);
  } else if (k->rank == 0) {
    add_number(sh, lua_gettop(L));
  } else {
    show_value(sh, lua_gettop(L), FB_SHOW_DEPTH, false);  // the key is on top: shown, not opened
  }
  fbShowText_Add(sh->out, "] = ");
}

// The keys of table t outside its list part 1..n, anchored in a new table and described in a new
// userdata (both left on the stack); returns how many were met, *kept of them sorted.
static int collect_keys(Show *sh, int t, lua_Integer n, int *kept)
{
  lua_State *L = sh->L;
  lua_newtable(L);
  int anchor = lua_gettop(L);
  Key *keys = lua_newuserdatauv(L, sizeof(Key) * SORT_MAX, 0);
  int met = 0;
  *kept = 0;
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    lua_pop(L, 1);
    int isint = 0;
    lua_Integer i = lua_tointegerx(L, -1, &isint);
    if (lua_type(L, -1) == LUA_TNUMBER && isint && i >= 1 && i <= n) {
      continue;
    }
    if (met++ >= SORT_MAX) {
      continue;
    }
    Key *k = &keys[*kept];
    int type = lua_type(L, -1);
    k->rank = type == LUA_TNUMBER ? 0 : type == LUA_TSTRING ? 1 : 2;
    k->number = type == LUA_TNUMBER ? lua_tonumber(L, -1) : 0;
    k->text = type == LUA_TSTRING ? lua_tolstring(L, -1, &k->len) : lua_typename(L, type);
    if (type != LUA_TSTRING) {
      k->len = strlen(k->text);
    }
    k->slot = ++*kept;
    lua_pushvalue(L, -1);
    lua_rawseti(L, anchor, k->slot);
  }
  qsort(keys, (size_t)*kept, sizeof(Key), compare_keys);
  return met;
}

static void show_table(Show *sh, int t, int depth)
{
  lua_State *L = sh->L;
  lua_pushvalue(L, t);
  if (lua_rawget(L, sh->path) != LUA_TNIL) {
    lua_pop(L, 1);
    fbShowText_Add(sh->out, sh->source ? "nil" : "<cycle>");
    return;
  }
  if (sh->source && depth >= FB_SHOW_SOURCE_DEPTH) {
    fbShowText_Add(sh->out, "nil");
    return;
  }
  lua_pop(L, 1);
  lua_Integer n = (lua_Integer)lua_rawlen(L, t);
  int kept = 0, top = lua_gettop(L);
  int others = collect_keys(sh, t, n, &kept);
  const Key *keys = lua_touserdata(L, -1);
  if (!sh->source && depth >= FB_SHOW_DEPTH) {
    long long count = (long long)n + others;
    fbShowText_Add(sh->out, count == 0 ? "{}" : count == 1 ? "{... 1 entry}" : "{... %lld entries}", count);
    lua_settop(L, top);
    return;
  }
  lua_pushvalue(L, t);
  lua_pushboolean(L, 1);
  lua_rawset(L, sh->path);
  fbShowText_Add(sh->out, "{");
  long long shown = 0, most = sh->source ? FB_SHOW_SOURCE_ENTRIES : FB_SHOW_ENTRIES, hidden = 0;
  for (lua_Integer i = 1; i <= n && shown < most && !sh->out->cut; ++i, ++shown) {
    fbShowText_Add(sh->out, shown ? ", " : "");
    lua_rawgeti(L, t, i);
    show_value(sh, lua_gettop(L), depth + 1, false);
    lua_pop(L, 1);
  }
  for (int k = 0; k < kept && shown < most && !sh->out->cut; ++k, ++shown) {
    if (sh->source && keys[k].rank == 2) {
      --shown;  // a key that is a table, a function ...: no copy of it could find the same entry
      continue;
    }
    lua_rawgeti(L, top + 1, keys[k].slot);
    lua_pushvalue(L, -1);
    lua_rawget(L, t);  // the key, anchored, gives the value (nil if a __tostring removed it meanwhile)
    if (sh->data && lua_iscfunction(L, -1)) {
      lua_pop(L, 2);
      --shown;
      ++hidden;  // a method of a view: not data
      continue;
    }
    lua_pop(L, 1);
    fbShowText_Add(sh->out, shown ? ", " : "");
    add_key(sh, &keys[k]);
    lua_rawget(L, t);
    show_value(sh, lua_gettop(L), depth + 1, false);
    lua_pop(L, 1);
  }
  long long total = (long long)n + others - hidden;
  if (sh->source || shown >= total) {
    fbShowText_Add(sh->out, "}");
  } else {
    fbShowText_Add(sh->out, "%s... (%lld more)}", shown ? ", " : "", total - shown);
  }
  lua_pushvalue(L, t);
  lua_pushnil(L);
  lua_rawset(L, sh->path);
  lua_settop(L, top);
}

// A function by where it was defined (addresses change from run to run; places do not).
static void show_function(Show *sh, int idx)
{
  char where[320];
  fbLua_FunctionWhere(sh->L, idx, where, sizeof where);
  char text[400];
  snprintf(text, sizeof text, strcmp(where, "?") == 0 ? "function (C)" : "function (%s)", where);
  if (sh->source) {
    add_quoted(sh->out, text, strlen(text), true);
  } else {
    fbShowText_Add(sh->out, "%s", text);
  }
}

static void show_value(Show *sh, int idx, int depth, bool top)
{
  lua_State *L = sh->L;
  if (!lua_checkstack(L, 8)) {
    fbShowText_Add(sh->out, "...");
    return;
  }
  switch (lua_type(L, idx)) {
  case LUA_TNIL: fbShowText_Add(sh->out, "nil"); break;
  case LUA_TBOOLEAN: fbShowText_Add(sh->out, lua_toboolean(L, idx) ? "true" : "false"); break;
  case LUA_TNUMBER: add_number(sh, idx); break;
  case LUA_TSTRING: {
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    if (top && !sh->source) {
      add_bytes(sh->out, s, len);
    } else {
      add_quoted(sh->out, s, len, sh->source);
    }
    break;
  }
  case LUA_TTABLE:
    if (!add_tostring(sh, idx)) {
      show_table(sh, idx, depth);
    }
    break;
  case LUA_TFUNCTION: show_function(sh, idx); break;
  default:
    if (sh->source) {
      fbShowText_Add(sh->out, "\"%s\"", luaL_typename(L, idx));
    } else if (!add_tostring(sh, idx)) {
      fbShowText_Add(sh->out, "%s", luaL_typename(L, idx));
    }
    break;
  }
}

static void show(lua_State *L, int idx, Show sh, bool top)
{
  idx = lua_absindex(L, idx);
  lua_newtable(L);
  sh.L = L;
  sh.path = lua_gettop(L);
  show_value(&sh, idx, 0, top);
  lua_pop(L, 1);
}

void fbLua_Show(lua_State *L, int idx, bool top, fbShowText *out) { show(L, idx, (Show){.out = out}, top); }

void fbLua_ShowData(lua_State *L, int idx, fbShowText *out) { show(L, idx, (Show){.out = out, .data = true}, false); }

void fbLua_ShowSource(lua_State *L, int idx, fbShowText *out)
{
  show(L, idx, (Show){.out = out, .source = true, .data = true}, true);
}
