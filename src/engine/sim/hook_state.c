// hook_state.c — walking the scenario hooks' upvalues to save their data and set it again, matched by path.
#include "hook_state.h"

#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_NIL, TAG_FALSE, TAG_TRUE, TAG_INT, TAG_FLOAT, TAG_STRING, TAG_TABLE, TAG_KEEP };

#define PATH_LEN 512
#define MAX_NODES (1u << 22)  // values in one state: far beyond a scenario's counters, short of a crash

/*
 * The walks recurse, a table or a function a level, and every level keeps a few values on the Lua
 * stack (a table's sorted keys, the key and the value being written; the function whose upvalues
 * are walked). A C function is promised only LUA_MINSTACK (20) slots, so each level asks for its
 * own room first (lua_checkstack), and the depth is bounded before that: FB_HOOK_STATE_DEPTH
 * levels of tables, and as many of functions reached through upvalues.
 */
#define LEVEL_SLOTS 8  // the most one level holds at once (the keys, a key, its value, a lookup's two), and spare

// ---- the walk: every data upvalue of the hooks' closures, by path --------------------------------

typedef struct Walk Walk;
// Called with a data upvalue on top of the stack: upvalue i of the function at index f.
typedef bool (*Visit)(lua_State *L, Walk *w, int f, int i, const char *path, char *err, size_t errlen);

struct Walk {
  fbHooks *h;
  Visit visit;
  int visited;            // stack index of a table of the functions walked already
  fbBytes *out;           // saving
  uint32_t count;         // saving: records written
  int on_path;            // saving: stack index of a table of the tables being written, each to its depth
  size_t path_len[FB_HOOK_STATE_DEPTH];  // saving: the length of the path of the table at each depth
  const unsigned char *data;  // restoring: the hook section, checked
  struct Record {
    char path[PATH_LEN];
    size_t at, end;       // where its value starts and ends in data
  } *records;
  uint32_t record_count;
};

static bool walk_function(lua_State *L, Walk *w, int f, const char *prefix, int depth, char *err, size_t errlen)
{
  if (lua_iscfunction(L, f)) {
    return true;  // a C function's upvalues are the engine's (math.random's is saved on its own)
  }
  if (depth >= FB_HOOK_STATE_DEPTH) {
    snprintf(err, errlen,
             "hook upvalue '%s' is a function nested %d deep in the hooks' upvalues, deeper than a saved state "
             "follows (at most %d)",
             prefix, depth + 1, FB_HOOK_STATE_DEPTH);
    return false;
  }
  if (!lua_checkstack(L, LEVEL_SLOTS)) {
    snprintf(err, errlen, "hook upvalue '%s': the Lua stack cannot grow to walk it (not enough memory)", prefix);
    return false;
  }
  lua_pushvalue(L, f);
  if (lua_rawget(L, w->visited) != LUA_TNIL) {
    lua_pop(L, 1);
    return true;
  }
  lua_pop(L, 1);
  lua_pushvalue(L, f);
  lua_pushboolean(L, 1);
  lua_rawset(L, w->visited);
  for (int i = 1;; ++i) {
    const char *name = lua_getupvalue(L, f, i);
    if (name == NULL) {
      return true;
    }
    char path[PATH_LEN];
    snprintf(path, sizeof path, "%s.%s", prefix, name[0] ? name : "?");
    bool ok = true;
    if (strcmp(name, "_ENV") == 0) {
      ok = true;
    } else if (lua_type(L, -1) == LUA_TFUNCTION) {
      ok = walk_function(L, w, lua_gettop(L), path, depth + 1, err, errlen);
    } else {
      ok = w->visit(L, w, f, i, path, err, errlen);
    }
    lua_pop(L, 1);
    if (!ok) {
      return false;
    }
  }
}

// on_step, on_key, then each metric: the order of the records, the same on save and on load.
static bool walk_hooks(lua_State *L, Walk *w, char *err, size_t errlen)
{
  lua_newtable(L);
  w->visited = lua_gettop(L);
  const fbHooks *h = w->h;
  int refs[2 + FB_MAX_METRICS];
  char names[2 + FB_MAX_METRICS][FB_NAME_LEN + 16];
  int n = 0;
  refs[n] = h->on_step_ref, snprintf(names[n++], sizeof names[0], "on_step");
  refs[n] = h->on_key_ref, snprintf(names[n++], sizeof names[0], "on_key");
  for (int m = 0; m < h->metric_count; ++m) {
    refs[n] = h->metric_refs[m], snprintf(names[n++], sizeof names[0], "metrics.%s", h->metric_names[m]);
  }
  for (int k = 0; k < n; ++k) {
    if (refs[k] == LUA_NOREF || refs[k] == LUA_REFNIL) {
      continue;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, refs[k]);
    bool ok = lua_type(L, -1) != LUA_TFUNCTION || walk_function(L, w, lua_gettop(L), names[k], 0, err, errlen);
    lua_pop(L, 1);
    if (!ok) {
      return false;
    }
  }
  lua_pop(L, 1);
  return true;
}

// math.random's generator: the userdata that is its first upvalue (Lua 5.4's lmathlib), or NULL.
static void *random_state(lua_State *L, size_t *len)
{
  void *p = NULL;
  *len = 0;
  if (lua_getglobal(L, "math") == LUA_TTABLE && lua_getfield(L, -1, "random") == LUA_TFUNCTION &&
      lua_iscfunction(L, -1) && lua_getupvalue(L, -1, 1) != NULL) {
    if (lua_type(L, -1) == LUA_TUSERDATA) {
      p = lua_touserdata(L, -1);
      *len = lua_rawlen(L, -1);
    }
    lua_pop(L, 1);
  }
  lua_settop(L, 0);
  return p;
}

// ---- saving ------------------------------------------------------------------------------------

typedef struct Key {
  int type;  // LUA_TBOOLEAN, LUA_TNUMBER (integer), LUA_TNUMBER + 100 (float), LUA_TSTRING
  lua_Integer i;
  double d;
  const char *s;
  size_t n;
} Key;

static int key_order(const void *pa, const void *pb)
{
  const Key *a = pa, *b = pb;
  if (a->type != b->type) {
    return a->type < b->type ? -1 : 1;
  }
  if (a->type == LUA_TSTRING) {
    int c = memcmp(a->s, b->s, a->n < b->n ? a->n : b->n);
    return c != 0 ? c : (a->n < b->n ? -1 : a->n > b->n);
  }
  if (a->type == LUA_TNUMBER + 100) {
    return a->d < b->d ? -1 : a->d > b->d;
  }
  return a->i < b->i ? -1 : a->i > b->i;
}

static bool refuse(const char *path, const char *what, char *err, size_t errlen)
{
  snprintf(err, errlen,
           "hook upvalue '%s' %s, which a saved state cannot hold (keep hook state in numbers, strings, "
           "booleans and plain tables of them)",
           path, what);
  return false;
}

static bool write_value(lua_State *L, Walk *w, int idx, const char *path, int depth, char *err, size_t errlen);

static bool read_key(lua_State *L, int idx, Key *k, const char *path, char *err, size_t errlen)
{
  int t = lua_type(L, idx);
  *k = (Key){.type = t};
  if (t == LUA_TBOOLEAN) {
    k->i = lua_toboolean(L, idx);
  } else if (t == LUA_TNUMBER && lua_isinteger(L, idx)) {
    k->i = lua_tointeger(L, idx);
  } else if (t == LUA_TNUMBER) {
    k->type = LUA_TNUMBER + 100, k->d = lua_tonumber(L, idx);
  } else if (t == LUA_TSTRING) {
    k->s = lua_tolstring(L, idx, &k->n);
  } else {
    char what[96];
    snprintf(what, sizeof what, "has a key that is a %s", lua_typename(L, t));
    return refuse(path, what, err, errlen);
  }
  return true;
}

/*
 * A table may hold itself, directly (t.self = t) or further down: written as a tree it would never
 * end. The tables on the path from the upvalue down to the one being written are kept in
 * w->on_path (each to its depth), so a table met again on its own path is a cycle, refused naming
 * where it starts; a table met twice elsewhere (shared, no cycle) is written twice.
 */
static bool enter_table(lua_State *L, Walk *w, int idx, const char *path, int depth, char *err, size_t errlen)
{
  if (!lua_checkstack(L, LEVEL_SLOTS)) {
    return refuse(path, "nests tables deeper than the Lua stack can grow (not enough memory)", err, errlen);
  }
  if (lua_getmetatable(L, idx)) {
    lua_pop(L, 1);
    return refuse(path, "is a table with a metatable", err, errlen);
  }
  lua_pushvalue(L, idx);
  if (lua_rawget(L, w->on_path) == LUA_TNUMBER) {
    char start[PATH_LEN], what[PATH_LEN + 64];
    snprintf(start, sizeof start, "%.*s", (int)w->path_len[lua_tointeger(L, -1)], path);
    snprintf(what, sizeof what, "contains itself: a cycle through '%s'", path);
    return refuse(start, what, err, errlen);
  }
  lua_pop(L, 1);
  if (depth >= FB_HOOK_STATE_DEPTH) {
    char what[64];
    snprintf(what, sizeof what, "is a table nested %d deep (at most %d)", depth + 1, FB_HOOK_STATE_DEPTH);
    return refuse(path, what, err, errlen);
  }
  w->path_len[depth] = strlen(path);
  lua_pushvalue(L, idx);
  lua_pushinteger(L, depth);
  lua_rawset(L, w->on_path);
  return true;
}

static void leave_table(lua_State *L, Walk *w, int idx)
{
  lua_pushvalue(L, idx);
  lua_pushnil(L);
  lua_rawset(L, w->on_path);
}

// The table at idx, its keys in a fixed order (so a refilled table is filled the same way each time).
static bool write_table(lua_State *L, Walk *w, int idx, const char *path, int depth, char *err, size_t errlen)
{
  if (!enter_table(L, w, idx, path, depth, err, errlen)) {
    return false;
  }
  size_t n = 0;
  for (lua_pushnil(L); lua_next(L, idx); lua_pop(L, 1)) {
    ++n;
  }
  Key *keys = lua_newuserdatauv(L, (n > 0 ? n : 1) * sizeof *keys, 0);  // collected if an error unwinds
  size_t k = 0;
  for (lua_pushnil(L); lua_next(L, idx) && k < n; lua_pop(L, 1)) {
    if (!read_key(L, -2, &keys[k++], path, err, errlen)) {
      return false;
    }
  }
  qsort(keys, n, sizeof *keys, key_order);
  fbBytes_U8(w->out, TAG_TABLE);
  fbBytes_U32(w->out, (uint32_t)n);
  for (k = 0; k < n; ++k) {
    const Key *key = &keys[k];
    char sub[PATH_LEN];
    if (key->type == LUA_TSTRING) {
      lua_pushlstring(L, key->s, key->n);
      snprintf(sub, sizeof sub, "%s.%.*s", path, (int)(key->n < 64 ? key->n : 64), key->s);
    } else if (key->type == LUA_TBOOLEAN) {
      lua_pushboolean(L, (int)key->i);
      snprintf(sub, sizeof sub, "%s[%s]", path, key->i ? "true" : "false");
    } else if (key->type == LUA_TNUMBER) {
      lua_pushinteger(L, key->i);
      snprintf(sub, sizeof sub, "%s[%lld]", path, (long long)key->i);
    } else {
      lua_pushnumber(L, key->d);
      snprintf(sub, sizeof sub, "%s[%.17g]", path, key->d);
    }
    int top = lua_gettop(L);
    lua_pushvalue(L, top);
    lua_rawget(L, idx);
    bool ok = write_value(L, w, top, sub, depth + 1, err, errlen) &&
              write_value(L, w, top + 1, sub, depth + 1, err, errlen);
    lua_settop(L, top - 1);
    if (!ok) {
      return false;
    }
  }
  lua_pop(L, 1);  // the keys
  leave_table(L, w, idx);
  return true;
}

static bool write_value(lua_State *L, Walk *w, int idx, const char *path, int depth, char *err, size_t errlen)
{
  if (++w->count > MAX_NODES) {
    return refuse(path, "makes the state too large", err, errlen);
  }
  int t = lua_type(L, idx);
  size_t n;
  const char *s;
  switch (t) {
  case LUA_TNIL: fbBytes_U8(w->out, TAG_NIL); return true;
  case LUA_TBOOLEAN: fbBytes_U8(w->out, lua_toboolean(L, idx) ? TAG_TRUE : TAG_FALSE); return true;
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx)) {
      fbBytes_U8(w->out, TAG_INT);
      fbBytes_U64(w->out, (uint64_t)lua_tointeger(L, idx));
    } else {
      fbBytes_U8(w->out, TAG_FLOAT);
      fbBytes_F64(w->out, lua_tonumber(L, idx));
    }
    return true;
  case LUA_TSTRING:
    s = lua_tolstring(L, idx, &n);
    fbBytes_U8(w->out, TAG_STRING);
    fbBytes_Blob(w->out, s, n);
    return true;
  case LUA_TTABLE: return write_table(L, w, lua_absindex(L, idx), path, depth, err, errlen);
  case LUA_TFUNCTION:
    if (lua_iscfunction(L, idx) && depth > 0) {
      fbBytes_U8(w->out, TAG_KEEP);
      return true;
    }
    return refuse(path, "is a Lua function inside a table", err, errlen);
  case LUA_TTHREAD: return refuse(path, "is a thread (a coroutine)", err, errlen);
  default: {
    char what[64];
    snprintf(what, sizeof what, "is a %s", lua_typename(L, t));
    return refuse(path, what, err, errlen);
  }
  }
}

static bool save_visit(lua_State *L, Walk *w, int f, int i, const char *path, char *err, size_t errlen)
{
  (void)f, (void)i;
  fbBytes_Str(w->out, path);
  w->record_count++;
  return write_value(L, w, lua_gettop(L), path, 0, err, errlen);
}

static bool save_protected(lua_State *L, void *ud, char *err, size_t errlen)
{
  Walk *w = ud;
  size_t len;
  void *rng = random_state(L, &len);
  fbBytes_Blob(w->out, rng, rng ? len : 0);
  size_t count_at = w->out->len;
  fbBytes_U32(w->out, 0);
  lua_newtable(L);
  w->on_path = lua_gettop(L);
  if (!walk_hooks(L, w, err, errlen)) {
    return false;
  }
  memcpy(w->out->data + count_at, &w->record_count, sizeof w->record_count);
  return true;
}

bool fbHookState_Save(fbHooks *h, fbBytes *out, char *err, size_t errlen)
{
  Walk w = {.h = h, .visit = save_visit, .out = out};
  return fbLuaHost_Protect(&h->host, "saving the hooks' state", save_protected, &w, err, errlen);
}

// ---- restoring ---------------------------------------------------------------------------------

// Checks one value without making it: tags, lengths, depth and keys (no nil or NaN key).
static bool skip_value(fbReader *r, int depth, bool key, uint32_t *nodes)
{
  if (++*nodes > MAX_NODES || depth > FB_HOOK_STATE_DEPTH) {
    return false;
  }
  size_t n;
  double d;
  switch (fbReader_U8(r)) {
  case TAG_NIL: case TAG_KEEP: return !key && !r->bad;
  case TAG_FALSE: case TAG_TRUE: return !r->bad;
  case TAG_INT: fbReader_U64(r); return !r->bad;
  case TAG_FLOAT: d = fbReader_F64(r); return !r->bad && !(key && d != d);
  case TAG_STRING: return fbReader_Blob(r, &n) != NULL;
  case TAG_TABLE:
    if (key || depth >= FB_HOOK_STATE_DEPTH) {  // as deep as saving allows, no deeper
      return false;
    }
    n = fbReader_U32(r);
    for (size_t k = 0; k < n; ++k) {
      if (!skip_value(r, depth + 1, true, nodes) || !skip_value(r, depth + 1, false, nodes)) {
        return false;
      }
    }
    return !r->bad;
  default: return false;
  }
}

static void decode_value(lua_State *L, fbReader *r);

// The entries of a saved table (its tag read) into the table at idx; a KEEP value leaves the entry be.
static void decode_entries(lua_State *L, fbReader *r, int idx)
{
  uint32_t n = fbReader_U32(r);
  for (uint32_t k = 0; k < n; ++k) {
    decode_value(L, r);
    size_t at = r->at;
    if (fbReader_U8(r) == TAG_KEEP) {
      lua_pop(L, 1);
      continue;
    }
    r->at = at;
    decode_value(L, r);
    lua_rawset(L, idx);
  }
}

// Pushes a value skip_value has checked: at most FB_HOOK_STATE_DEPTH tables deep, each level
// holding its table, a key and a value on the stack (an error inside the protected call if the stack
// cannot grow, which only a lack of memory makes it).
static void decode_value(lua_State *L, fbReader *r)
{
  size_t n;
  const unsigned char *s;
  luaL_checkstack(L, LEVEL_SLOTS, "restoring the hooks' state");
  switch (fbReader_U8(r)) {
  case TAG_FALSE: lua_pushboolean(L, 0); break;
  case TAG_TRUE: lua_pushboolean(L, 1); break;
  case TAG_INT: lua_pushinteger(L, (lua_Integer)fbReader_U64(r)); break;
  case TAG_FLOAT: lua_pushnumber(L, fbReader_F64(r)); break;
  case TAG_STRING: s = fbReader_Blob(r, &n), lua_pushlstring(L, (const char *)s, n); break;
  case TAG_TABLE: lua_newtable(L), decode_entries(L, r, lua_gettop(L)); break;
  default: lua_pushnil(L); break;
  }
}

// Empties the table at idx in place but for its C functions (kept as the script made them).
static void clear_table(lua_State *L, int idx)
{
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    bool keep = lua_iscfunction(L, -1);
    lua_pop(L, 1);
    if (!keep) {
      lua_pushvalue(L, -1);
      lua_pushnil(L);
      lua_rawset(L, idx);  // clearing a field during the traversal is allowed (lua_next)
    }
  }
}

static bool restore_visit(lua_State *L, Walk *w, int f, int i, const char *path, char *err, size_t errlen)
{
  (void)err, (void)errlen;
  for (uint32_t k = 0; k < w->record_count; ++k) {
    if (strcmp(w->records[k].path, path) != 0) {
      continue;
    }
    fbReader r = fbReader_Of(w->data, w->records[k].end);  // checked whole by skip_value
    r.at = w->records[k].at;
    if (w->data[r.at] == TAG_TABLE && lua_type(L, -1) == LUA_TTABLE && !lua_getmetatable(L, -1)) {
      r.at++;
      clear_table(L, lua_gettop(L));
      decode_entries(L, &r, lua_gettop(L));  // in place: closures sharing the table see it
    } else {
      decode_value(L, &r);
      lua_setupvalue(L, f, i);
    }
    return true;
  }
  return true;
}

typedef struct Restore {
  Walk walk;
  const unsigned char *rng;
  size_t rng_len;
} Restore;

static bool restore_protected(lua_State *L, void *ud, char *err, size_t errlen)
{
  Restore *job = ud;
  size_t len;
  void *rng = random_state(L, &len);
  if (rng != NULL && job->rng_len == len) {
    memcpy(rng, job->rng, len);
  }
  return walk_hooks(L, &job->walk, err, errlen);
}

bool fbHookState_Restore(fbHooks *h, fbReader *in, char *err, size_t errlen)
{
  Restore job = {.walk = {.h = h, .visit = restore_visit, .data = in->p}};
  job.rng = fbReader_Blob(in, &job.rng_len);
  uint32_t count = fbReader_U32(in), nodes = 0;
  if (in->bad || !fbReader_Has(in, count, 5)) {  // each record is at least a length and a tag
    snprintf(err, errlen, "the hooks' state is truncated");
    return false;
  }
  job.walk.records = calloc(count ? count : 1, sizeof *job.walk.records);
  bool ok = job.walk.records != NULL;
  uint32_t k = 0;
  for (; ok && k < count; ++k) {
    ok = fbReader_Str(in, job.walk.records[k].path, PATH_LEN);
    job.walk.records[k].at = in->at;
    ok = ok && skip_value(in, 0, false, &nodes);
    job.walk.records[k].end = in->at;
  }
  job.walk.record_count = count;
  if (!ok) {
    snprintf(err, errlen, "the hooks' state is malformed (record %u of %u)", k, count);
  } else {
    ok = fbLuaHost_Protect(&h->host, "restoring the hooks' state", restore_protected, &job, err, errlen);
  }
  free(job.walk.records);
  return ok;
}
