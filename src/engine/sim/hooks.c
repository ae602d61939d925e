// hooks.c — the scenario's own Lua state: on_step, on_key and the metrics, read from the scenario and called.
#include "hooks.h"

#include <lauxlib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "measures.h"
#include "names.h"

bool fbHooks_Open(fbHooks *h, fbHookTarget on, size_t memory_limit, int timeout_ms, uint64_t seed)
{
  memset(h, 0, sizeof *h);
  h->on_step_ref = h->on_key_ref = h->each_pool_ref = LUA_NOREF;
  if (!fbLuaHost_Create(&h->host, memory_limit, timeout_ms)) {
    return false;
  }
  h->host.context = h;
  h->on = on;
  lua_State *L = h->host.L;
  // The scenario's own math.random is seeded from the run's seed, so scripts may use it freely.
  lua_getglobal(L, "math");
  lua_getfield(L, -1, "randomseed");
  lua_pushinteger(L, (lua_Integer)(seed & 0x7fffffffffffffffULL));
  lua_call(L, 1, 0);
  lua_pop(L, 1);
  return true;
}

void fbHooks_Close(fbHooks *h)
{
  fbLuaHost_Destroy(&h->host);
  fbCommands_Free(&h->queue);
  free(h->group[0]);
  free(h->group[1]);
  h->group[0] = h->group[1] = NULL;
  h->group_capacity = 0;
  fbClosestScratch_Free(&h->closest);
  free(h->ordered);
  free(h->id_slot);
  free(h->sort_keys);
  h->ordered = h->id_slot = NULL;
  h->sort_keys = NULL;
  h->ordered_capacity = h->sort_key_capacity = 0;
  h->id_slots = 0;
  h->on_step_ref = h->on_key_ref = h->each_pool_ref = LUA_NOREF;
  h->metric_count = 0;
}

static bool read_hook(lua_State *L, int root, const char *name, int *ref, const char *path, char *err, size_t errlen)
{
  int type = lua_getfield(L, root, name);
  if (type == LUA_TFUNCTION) {
    *ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return true;
  }
  lua_pop(L, 1);
  if (type != LUA_TNIL) {
    snprintf(err, errlen, "%s: %s: expected a function", path, name);
    return false;
  }
  return true;
}

typedef struct ReadJob {
  fbHooks *h;
  const char *path;
  char *err;
  size_t errlen;
} ReadJob;

// A metric's column must not repeat another metric's, nor a column telemetry writes itself
// (step, time, SPECIES.agents, ...): the CSV would have two columns of one name.
static bool column_is_free(const fbHooks *h, const char *name, char *why, size_t whylen)
{
  for (int m = 0; m < h->metric_count; ++m) {
    if (strcmp(h->metric_names[m], name) == 0) {
      snprintf(why, whylen, "two metrics are named '%s'", name);
      return false;
    }
  }
  if (fbMeasures_IsBuiltinColumn(name)) {
    snprintf(why, whylen, "'%s' is a column telemetry writes itself (step, time, SPECIES.agents, ...)", name);
    return false;
  }
  return true;
}

// The first key of table t that is not a position 1 .. n, described for a message ("the key 'speed'",
// "the key 2.5", "a boolean key"); false when every key is a position. A key the reader would not
// read must not pass silently: a map of metrics would give no column and no message.
static bool stray_key(lua_State *L, int t, lua_Integer n, char *out, size_t len)
{
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    lua_pop(L, 1);
    int isint = 0;
    lua_Integer k = lua_tointegerx(L, -1, &isint);
    if (lua_type(L, -1) == LUA_TNUMBER && isint && k >= 1 && k <= n) {
      continue;
    }
    size_t klen = 0;
    const char *text = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &klen) : NULL;
    char why[160];
    if (text != NULL && klen < FB_NAME_LEN && fbName_CheckLine(text, klen, why, sizeof why)) {
      snprintf(out, len, "the key '%s'", text);
    } else if (lua_type(L, -1) == LUA_TNUMBER) {
      snprintf(out, len, "the key %.17g", lua_tonumber(L, -1));
    } else {
      snprintf(out, len, "a %s key", luaL_typename(L, -1));
    }
    lua_pop(L, 1);
    return true;
  }
  return false;
}

static bool read_metrics(ReadJob *job, lua_State *L, int root)
{
  fbHooks *h = job->h;
  int type = lua_getfield(L, root, "metrics");
  if (type != LUA_TTABLE) {
    lua_pop(L, 1);
    if (type != LUA_TNIL) {
      snprintf(job->err, job->errlen, "%s: metrics: expected a table, got a %s", job->path, lua_typename(L, type));
      return false;
    }
    return true;
  }
  int t = lua_gettop(L);
  bool ok = true;
  char why[200];
  if (stray_key(L, t, (lua_Integer)lua_rawlen(L, t), why, sizeof why)) {
    snprintf(job->err, job->errlen, "%s: metrics: must be a list of { \"column_name\", function() return number end } "
             "entries, not a map (found %s)", job->path, why);
    lua_pop(L, 1);
    return false;
  }
  for (int k = 1; ok && k <= (int)lua_rawlen(L, t); ++k) {
    lua_rawgeti(L, t, k);
    bool entry = lua_istable(L, -1);
    if (entry) {
      lua_rawgeti(L, -1, 1);
      lua_rawgeti(L, -2, 2);
    } else {
      lua_pushnil(L);
      lua_pushnil(L);
    }
    const char *name = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
    if (h->metric_count >= FB_MAX_METRICS) {
      snprintf(job->err, job->errlen, "%s: metrics[%d]: too many metrics (at most %d)", job->path, k, FB_MAX_METRICS);
      ok = false;
    } else if (name == NULL || !lua_isfunction(L, -1)) {
      snprintf(job->err, job->errlen, "%s: metrics[%d]: expected { \"column_name\", function() return number end }",
               job->path, k);
      ok = false;
    } else if (stray_key(L, lua_absindex(L, -3), 2, why, sizeof why)) {
      snprintf(job->err, job->errlen, "%s: metrics[%d]: expected { \"column_name\", function() return number end }, "
               "and nothing else (found %s)", job->path, k, why);
      ok = false;
    } else if (!fbName_CheckColumn(name, lua_rawlen(L, -2), true, why, sizeof why) ||
               !column_is_free(h, name, why, sizeof why)) {
      snprintf(job->err, job->errlen, "%s: metrics[%d]: %s", job->path, k, why);
      ok = false;
    } else {
      snprintf(h->metric_names[h->metric_count], FB_NAME_LEN, "%s", name);
      h->metric_refs[h->metric_count++] = luaL_ref(L, LUA_REGISTRYINDEX);
      lua_pushnil(L);
    }
    lua_pop(L, 3);
  }
  lua_pop(L, 1);
  return ok;
}

// The scenario's table is at index 1 (fbLuaHost_ProtectWith).
static bool read_protected(lua_State *L, void *ud, char *err, size_t errlen)
{
  ReadJob *job = ud;  // job->err is err: fbHooks_Read passes its own to both
  return read_hook(L, 1, "on_step", &job->h->on_step_ref, job->path, err, errlen) &&
         read_hook(L, 1, "on_key", &job->h->on_key_ref, job->path, err, errlen) && read_metrics(job, L, 1);
}

bool fbHooks_Read(fbHooks *h, int root, const char *path, char *err, size_t errlen)
{
  lua_State *L = h->host.L;
  ReadJob job = {h, path, err, errlen};
  char about[600];  // under the time limit: a metamethod may loop
  snprintf(about, sizeof about, "%s: while reading the scenario", path);
  lua_pushvalue(L, root);
  return fbLuaHost_ProtectWith(&h->host, 1, about, read_protected, &job, err, errlen);
}

bool fbHooks_Step(fbHooks *h, uint64_t step, char *err, size_t errlen)
{
  if (h->on_step_ref == LUA_NOREF) {
    return true;
  }
  lua_State *L = h->host.L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, h->on_step_ref);
  lua_pushinteger(L, (lua_Integer)step);
  return fbLuaHost_Call(&h->host, 1, 0, err, errlen);
}

bool fbHooks_Key(fbHooks *h, const char *name, char *err, size_t errlen)
{
  if (h->on_key_ref == LUA_NOREF) {
    return true;
  }
  lua_State *L = h->host.L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, h->on_key_ref);
  lua_pushstring(L, name);
  return fbLuaHost_Call(&h->host, 1, 0, err, errlen);
}

// One metric's value into *value; false with the message in err if it failed or was not finite.
static bool eval_metric(fbHooks *h, int m, const char *path, double *value, char *err, size_t errlen)
{
  lua_State *L = h->host.L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, h->metric_refs[m]);
  char msg[1536];
  if (!fbLuaHost_Call(&h->host, 0, 1, msg, sizeof msg)) {
    snprintf(err, errlen, "metric '%s': %s", h->metric_names[m], msg);
    return false;
  }
  int isnum = 0;
  *value = lua_tonumberx(L, -1, &isnum);
  lua_pop(L, 1);
  if (!isnum) {
    snprintf(err, errlen, "%s: metric '%s' returned a non-number", path, h->metric_names[m]);
    return false;
  }
  // A column of nan or inf would pass for data in the CSV; and a sweep sums and squares every
  // run's value, which must stay finite too.
  if (!(fabs(*value) <= FB_MAX_METRIC)) {
    snprintf(err, errlen, "%s: metric '%s' returned %g; a metric must be a finite number within -1e150 .. 1e150", path,
             h->metric_names[m], *value);
    return false;
  }
  return true;
}

static void note_failure(fbHooks *h, const char *what, const char *name, uint64_t step)
{
  if (h->failures++ == 0) {
    snprintf(h->first_failure, sizeof h->first_failure, "%s '%s' failed at step %llu", what, name,
             (unsigned long long)step);
  }
}

bool fbHooks_Metrics(fbHooks *h, const char *path, double *values, bool keep_going, uint64_t step, char *err,
                     size_t errlen)
{
  for (int m = 0; m < h->metric_count; ++m) {
    values[m] = NAN;
    if (h->metric_off[m] || eval_metric(h, m, path, &values[m], err, errlen)) {
      continue;
    }
    values[m] = NAN;
    if (!keep_going) {
      return false;
    }
    h->metric_off[m] = true;
    note_failure(h, "metric", h->metric_names[m], step);
  }
  return true;
}

void fbHooks_SwitchOffStep(fbHooks *h, uint64_t step)
{
  luaL_unref(h->host.L, LUA_REGISTRYINDEX, h->on_step_ref);
  h->on_step_ref = LUA_NOREF;
  note_failure(h, "hook", "on_step", step);
}

void fbHooks_Move(fbHooks *to, fbHooks *from, fbHookTarget on)
{
  fbLuaHost_Move(&to->host, &from->host);  // the state now points at its new address
  to->host.context = to;
  to->on = on;
  to->on_step_ref = from->on_step_ref;
  to->on_key_ref = from->on_key_ref;
  to->each_pool_ref = from->each_pool_ref;  // a ref into the state that moved: it goes with it
  memcpy(to->metric_refs, from->metric_refs, sizeof to->metric_refs);
  memcpy(to->metric_names, from->metric_names, sizeof to->metric_names);
  to->metric_count = from->metric_count;
  memcpy(to->metric_off, from->metric_off, sizeof to->metric_off);
  to->failures = from->failures;
  memcpy(to->first_failure, from->first_failure, sizeof to->first_failure);
  memcpy(to->stop_label, from->stop_label, sizeof to->stop_label);
  to->stop_step = from->stop_step;
  to->queue = from->queue;
  memset(&from->queue, 0, sizeof from->queue);
  from->on_step_ref = from->on_key_ref = from->each_pool_ref = LUA_NOREF;
  from->metric_count = 0;
}
