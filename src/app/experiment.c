// experiment.c — reading an experiment (a Lua file returning a table) and the command-line options that change it.
#define _POSIX_C_SOURCE 200809L
#include "experiment.h"

#include <errno.h>
#include <lauxlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lua_host.h"
#include "lua_table.h"
#include "names.h"
#include "paths.h"
#include "sim.h"

#define MAX_STEPS 2000000000L

// The fields of an experiment file and the options that override them, in one table.
static const struct {
  const char *field, *option;
} FIELDS[] = {{"scenario", "--scenario"}, {"steps", "--steps"}, {"every", "--every"},
              {"sets", "--set"},          {"grid", "--grid"},   {"seeds", "--seeds"},
              {"seed_sets", "--seed-set"}, {"out", "--out"},    {"plot", "--plot"},
              {"design", "design"}};
#define FIELD_COUNT (int)(sizeof FIELDS / sizeof FIELDS[0])

// ---- small helpers ------------------------------------------------------------------------------

void fbTextList_Add(fbTextList *l, const char *text)
{
  char **items = realloc(l->items, (size_t)(l->count + 1) * sizeof *items);
  char *copy = strdup(text);
  FB_ASSERT(items != NULL && copy != NULL);
  l->items = items;
  l->items[l->count++] = copy;
}

void fbTextList_Free(fbTextList *l)
{
  for (int k = 0; k < l->count; ++k) {
    free(l->items[k]);
  }
  free(l->items);
  l->items = NULL;
  l->count = 0;
}

static void set_text(char **slot, const char *text)
{
  free(*slot);
  *slot = strdup(text);
  FB_ASSERT(*slot != NULL);
}


// A --set name: letters, digits, '_' and '.', as the schema and rule parameters are named.
static bool is_name(const char *name)
{
  if (name[0] == '\0' || strlen(name) >= 160) {
    return false;
  }
  for (const char *c = name; *c != '\0'; ++c) {
    bool ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_' ||
              *c == '.';
    if (!ok) {
      return false;
    }
  }
  return true;
}

// A value after "NAME=": not empty, one line, printable (it goes into CSV files and plan lines).
static bool is_value(const char *value)
{
  if (value[0] == '\0' || strlen(value) >= 256) {
    return false;
  }
  for (const unsigned char *c = (const unsigned char *)value; *c != '\0'; ++c) {
    if (*c < 0x20 || *c == '"') {
      return false;
    }
  }
  return true;
}

static bool is_assignment(const char *set)
{
  const char *eq = strchr(set, '=');
  if (eq == NULL || eq - set >= 160) {
    return false;
  }
  char name[160];
  snprintf(name, sizeof name, "%.*s", (int)(eq - set), set);
  return is_name(name) && is_value(eq + 1);
}

/*
 * A number as a --set value and a CSV cell: integers without a decimal point, others in the
 * shortest form that reads back as the same double (0.1, not 0.10000000000000001), so that a value
 * is written the same way in results.csv, summary.csv and the runs' command lines.
 */
static void format_number(double v, char *out, size_t len)
{
  if (v == (double)(long long)v && fabs(v) < 1e15) {
    snprintf(out, len, "%lld", (long long)v);
    return;
  }
  for (int digits = 15; digits <= 17; ++digits) {
    snprintf(out, len, "%.*g", digits, v);
    if (strtod(out, NULL) == v) {
      return;
    }
  }
}

/*
 * A grid parameter may be several names varied together, "wolf.max_speed,sheep.max_speed": each
 * value is set to every one of them (one value for both species, not a grid of all pairs). The
 * axis keeps the list as written; it names the parameter everywhere (its CSV column, quoted, and
 * plot = { x = ... }), and the runs get one --set per name.
 */
static bool is_name_list(const char *list)
{
  char name[160];
  size_t n;
  for (const char *c = list;; c += n + 1) {
    n = strcspn(c, ",");
    if (n == 0 || n >= sizeof name) {
      return false;
    }
    snprintf(name, sizeof name, "%.*s", (int)n, c);
    if (!is_name(name)) {
      return false;
    }
    if (c[n] == '\0') {
      return true;
    }
  }
}

// True if the name lists a and b share a name; writes it into shared.
static bool shares_name(const char *a, const char *b, char *shared, size_t len)
{
  size_t n;
  for (const char *c = a;; c += n + 1) {
    n = strcspn(c, ",");
    for (const char *d = b;; d += strcspn(d, ",") + 1) {
      if (strcspn(d, ",") == n && strncmp(c, d, n) == 0) {
        snprintf(shared, len, "%.*s", (int)n, c);
        return true;
      }
      if (d[strcspn(d, ",")] == '\0') {
        break;
      }
    }
    if (c[n] == '\0') {
      return false;
    }
  }
}

int fbAxis_NameCount(const fbAxis *axis)
{
  int count = 1;
  for (const char *c = axis->name; (c = strchr(c, ',')) != NULL; ++c) {
    ++count;
  }
  return count;
}

// The other axis (not `self`) that shares a name with `names`, with the name; or NULL.
static const fbAxis *axis_sharing(const fbExperiment *e, const fbAxis *self, const char *names, char *shared,
                                  size_t len)
{
  for (int a = 0; a < e->axis_count; ++a) {
    if (&e->axes[a] != self && shares_name(e->axes[a].name, names, shared, len)) {
      return &e->axes[a];
    }
  }
  return NULL;
}

static fbAxis *find_axis(fbExperiment *e, const char *name)
{
  for (int a = 0; a < e->axis_count; ++a) {
    if (strcmp(e->axes[a].name, name) == 0) {
      return &e->axes[a];
    }
  }
  return NULL;
}

void fbExperiment_Init(fbExperiment *e)
{
  memset(e, 0, sizeof *e);
  e->steps = 1000;
  e->seed_first = e->seed_last = 1;
}

void fbExperiment_Free(fbExperiment *e)
{
  free(e->source);
  free(e->scenario);
  free(e->out);
  free(e->plot_x);
  fbTextList_Free(&e->sets);
  fbTextList_Free(&e->seed_sets);
  fbTextList_Free(&e->plot_y);
  for (int a = 0; a < e->axis_count; ++a) {
    free(e->axes[a].name);
    fbTextList_Free(&e->axes[a].values);
  }
  memset(e, 0, sizeof *e);
}

// ---- the file -----------------------------------------------------------------------------------

// t[key] as a whole number in [lo, hi]; absent leaves *out. where names the table for messages.
static bool read_whole(fbTableReader *r, int t, const char *key, long long lo, long long hi, long long *out)
{
  lua_State *L = r->L;
  int type = lua_getfield(L, t, key);
  int exact = 0;
  long long v = type == LUA_TNUMBER ? (long long)lua_tointegerx(L, -1, &exact) : 0;
  lua_pop(L, 1);
  if (type == LUA_TNIL) {
    return true;
  }
  if (!exact || v < lo || v > hi) {
    return fbTable_Fail(r, "", key, "expected a whole number from %lld to %lld", lo, hi);
  }
  *out = v;
  return true;
}

// t[key] as a string; absent leaves *out.
static bool read_string(fbTableReader *r, int t, const char *key, char **out)
{
  int type = lua_getfield(r->L, t, key);
  bool ok = type == LUA_TNIL || type == LUA_TSTRING;
  char why[160];
  if (type == LUA_TSTRING) {
    // Folders and files end up in generated scripts and job lists: one line, never a command.
    size_t len = 0;
    const char *text = lua_tolstring(r->L, -1, &len);
    if (!fbName_CheckLine(text, len, why, sizeof why)) {
      return fbTable_Fail(r, "", key, "%s", why);
    }
    if (len == 0) {  // out = "" would have made the sweep's folders at /runs
      return fbTable_Fail(r, "", key, "an empty string names nothing (leave the field out for its default)");
    }
    set_text(out, text);
  }
  lua_pop(r->L, 1);
  return ok || fbTable_Fail(r, "", key, "expected a string, got a %s", lua_typename(r->L, type));
}

// The value on top of the stack as a --set value: a number, a string or a boolean.
static bool value_text(lua_State *L, char *out, size_t len)
{
  switch (lua_type(L, -1)) {
  case LUA_TNUMBER:
    if (lua_isinteger(L, -1)) {
      snprintf(out, len, "%lld", (long long)lua_tointeger(L, -1));
    } else {
      format_number(lua_tonumber(L, -1), out, len);
    }
    return isfinite(lua_tonumber(L, -1));
  case LUA_TSTRING: snprintf(out, len, "%s", lua_tostring(L, -1)); return is_value(out);
  case LUA_TBOOLEAN: snprintf(out, len, "%s", lua_toboolean(L, -1) ? "true" : "false"); return true;
  default: return false;
  }
}

// A list of strings at t[key], each checked by valid(); absent leaves the list as it is.
static bool read_strings(fbTableReader *r, int t, const char *key, bool (*valid)(const char *), const char *what,
                         fbTextList *out)
{
  lua_State *L = r->L;
  bool ok = true;
  int list = fbTable_Open(r, t, "", key, &ok);
  if (list == 0) {
    return ok;
  }
  int n = (int)lua_rawlen(L, list);
  for (int k = 1; ok && k <= n; ++k) {
    lua_rawgeti(L, list, k);
    char where[64];
    snprintf(where, sizeof where, "%s[%d]", key, k);
    char why[160];
    size_t len = 0;
    if (lua_type(L, -1) == LUA_TSTRING && !fbName_CheckLine(lua_tolstring(L, -1, &len), len, why, sizeof why)) {
      ok = fbTable_Fail(r, where, "", "%s", why);
    } else if (lua_type(L, -1) != LUA_TSTRING || !valid(lua_tostring(L, -1))) {
      ok = fbTable_Fail(r, where, "", "expected %s", what);
    } else {
      fbTextList_Add(out, lua_tostring(L, -1));
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return ok;
}

// One axis, { "name", { values } }, on top of the stack; k is its place in the grid.
static bool read_axis(fbTableReader *r, fbExperiment *e, int k)
{
  lua_State *L = r->L;
  int item = lua_gettop(L);
  char where[64];
  snprintf(where, sizeof where, "grid[%d]", k);
  if (!lua_istable(L, item) || lua_rawlen(L, item) != 2) {
    return fbTable_Fail(r, where, "", "expected { \"NAME\", { values... } }");
  }
  lua_rawgeti(L, item, 1);
  const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
  if (!is_name_list(name)) {
    return fbTable_Fail(r, where, "", "item 1: expected a --set name such as \"boid.max_speed\", or names varied "
                        "together: \"wolf.max_speed,sheep.max_speed\"");
  }
  char shared[160];
  if (axis_sharing(e, NULL, name, shared, sizeof shared) != NULL) {
    return fbTable_Fail(r, where, "", "'%s' is already a grid parameter", shared);
  }
  fbAxis *axis = &e->axes[e->axis_count++];
  axis->name = strdup(name);
  lua_rawgeti(L, item, 2);
  snprintf(where, sizeof where, "grid[%d][2]", k);
  int n = lua_istable(L, -1) ? (int)lua_rawlen(L, -1) : 0;
  if (n == 0) {
    return fbTable_Fail(r, where, "", "expected a non-empty list of numbers or strings");
  }
  for (int v = 1; v <= n; ++v) {
    lua_rawgeti(L, -1, v);
    char text[256];
    bool ok = value_text(L, text, sizeof text);
    lua_pop(L, 1);
    if (!ok) {
      snprintf(where, sizeof where, "grid[%d][2][%d]", k, v);
      return fbTable_Fail(r, where, "", "expected a finite number, a string (one line, no quotes) or a boolean");
    }
    fbTextList_Add(&axis->values, text);
  }
  lua_settop(L, item);
  return true;
}

// grid = { { "name", { values } }, ... }: the parameters in order, the last one varying fastest.
static bool read_grid(fbTableReader *r, fbExperiment *e, int t)
{
  lua_State *L = r->L;
  bool ok = true;
  int grid = fbTable_Open(r, t, "", "grid", &ok);
  if (grid == 0) {
    return ok;
  }
  int n = (int)lua_rawlen(L, grid);
  if (n == 0) {
    ok = fbTable_Fail(r, "", "grid", "empty (leave it out to run the seeds alone)");
  } else if (n > FB_SWEEP_MAX_AXES) {
    ok = fbTable_Fail(r, "", "grid", "at most %d parameters", FB_SWEEP_MAX_AXES);
  }
  for (int k = 1; ok && k <= n; ++k) {
    lua_rawgeti(L, grid, k);
    ok = read_axis(r, e, k);
    lua_settop(L, grid);
  }
  lua_pop(L, 1);
  return ok;
}

// seeds = { first, last } (inclusive), or one seed.
static bool read_seeds(fbTableReader *r, fbExperiment *e, int t)
{
  lua_State *L = r->L;
  int type = lua_getfield(L, t, "seeds");
  bool ok = true;
  if (type == LUA_TNUMBER) {
    lua_pop(L, 1);
    ok = read_whole(r, t, "seeds", 0, 0x7fffffffffffffffLL, &e->seed_first);
    e->seed_last = e->seed_first;
    return ok;
  }
  if (type != LUA_TNIL) {
    double v[2];
    ok = fbTable_Numbers(r, lua_gettop(L), "", "seeds", v, 2) && v[0] == floor(v[0]) && v[1] == floor(v[1]) &&
         v[0] >= 0 && v[0] <= v[1] && v[1] < 9.2e18;
    if (ok) {
      e->seed_first = (long long)v[0];
      e->seed_last = (long long)v[1];
    }
  }
  lua_pop(L, 1);
  return ok || fbTable_Fail(r, "", "seeds", "expected { first, last }: whole numbers from 0, first <= last");
}

static bool is_plot_measure(const char *y) { return is_name(y) || (strncmp(y, "outcome:", 8) == 0 && is_name(y + 8)); }

// plot = { x = "grid parameter", y = "measure" or { "measure", "outcome:label", ... } }
static bool read_plot(fbTableReader *r, fbExperiment *e, int t)
{
  lua_State *L = r->L;
  bool ok = true;
  int plot = fbTable_Open(r, t, "", "plot", &ok);
  if (plot == 0) {
    return ok;
  }
  lua_pushnil(L);
  while (ok && lua_next(L, plot) != 0) {
    lua_pop(L, 1);
    const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?";
    if (strcmp(key, "x") != 0 && strcmp(key, "y") != 0) {
      ok = fbTable_Fail(r, "plot", key, "unknown field (known: x, y)");
      lua_pop(L, 1);
    }
  }
  ok = ok && read_string(r, plot, "x", &e->plot_x);
  if (ok && lua_getfield(L, plot, "y") == LUA_TSTRING) {
    ok = is_plot_measure(lua_tostring(L, -1)) || fbTable_Fail(r, "plot", "y", "expected a measure's column name");
    fbTextList_Add(&e->plot_y, lua_tostring(L, -1));
    lua_pop(L, 1);
  } else if (ok) {
    lua_pop(L, 1);
    ok = read_strings(r, plot, "y", is_plot_measure, "a measure's column name, or \"outcome:LABEL\"", &e->plot_y);
  }
  if (ok && (e->plot_x == NULL || e->plot_y.count == 0)) {
    ok = fbTable_Fail(r, "", "plot", "expected both x (a grid parameter) and y (one or more measures)");
  }
  lua_pop(L, 1);
  return ok;
}

// design = { ... } (sweep_design.h): its parameters become the axes, holding a value per point.
static bool read_design(fbTableReader *r, fbExperiment *e, int t)
{
  fbExperimentDesign *d = &e->design;
  if (!fbSweepDesign_Read(r, t, d)) {
    return false;
  }
  if (d->method == 0) {
    return true;  // a grid, or the seeds alone
  }
  if (e->axis_count > 0) {
    return fbTable_Fail(r, "", "design", "a design lists its own points: leave grid out");
  }
  fbDesign points;
  fbSweepDesign_Make(d, &points);
  for (int a = 0; a < d->parameters; ++a) {
    fbAxis *axis = &e->axes[e->axis_count++];
    axis->name = strdup(d->name[a]);
    for (long p = 0; p < points.points; ++p) {
      char text[64];  // 17 digits: the --set value reads back as the same double
      snprintf(text, sizeof text, "%.17g", fbSweepDesign_Value(d, a, points.u[p * points.factors + a]));
      fbTextList_Add(&axis->values, text);
    }
  }
  fbDesign_Free(&points);
  return true;
}

static int field_index(const char *field)
{
  for (int k = 0; k < FIELD_COUNT; ++k) {
    if (strcmp(FIELDS[k].field, field) == 0) {
      return k;
    }
  }
  return -1;
}

static void known_fields(char *out, size_t len)
{
  out[0] = '\0';
  for (int k = 0; k < FIELD_COUNT; ++k) {
    size_t used = strlen(out);
    snprintf(out + used, len - used, "%s%s", k ? ", " : "", FIELDS[k].field);
  }
}

// Refuses names the experiment table does not know (a typo would otherwise be ignored).
static bool check_fields(fbTableReader *r, int t, bool accepts_fit)
{
  lua_State *L = r->L;
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    lua_pop(L, 1);
    const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    if (key != NULL && accepts_fit && strcmp(key, "fit") == 0) {
      continue;  // flockbox fit's own table
    }
    if (key == NULL || field_index(key) < 0) {
      char known[256];
      known_fields(known, sizeof known);
      bool ok = fbTable_Fail(r, "", key ? key : "(a list item)", "unknown field (known: %s)", known);
      lua_pop(L, 1);
      return ok;
    }
  }
  return true;
}

// The experiment's table is at index 1 (fbLuaHost_ProtectWith): its metamethods run while it is
// read, under the time limit.
static bool read_table(lua_State *L, void *ud, char *err, size_t errlen)
{
  fbExperiment *e = ud;
  fbTableReader reader = {L, e->source, err, errlen}, *r = &reader;
  int t = 1;
  if (!lua_istable(L, t)) {
    return fbFail(r->err, r->errlen, "%s: must return a table (got a %s)", r->file, luaL_typename(L, t));
  }
  long long steps = e->steps, every = e->every;
  bool ok = check_fields(r, t, e->accepts_fit) && read_string(r, t, "scenario", &e->scenario) &&
            read_whole(r, t, "steps", 1, MAX_STEPS, &steps) && read_whole(r, t, "every", 1, MAX_STEPS, &every) &&
            read_strings(r, t, "sets", is_assignment, "\"NAME=VALUE\"", &e->sets) && read_grid(r, e, t) &&
            read_design(r, e, t) &&
            read_seeds(r, e, t) && read_strings(r, t, "seed_sets", is_name, "a --set name", &e->seed_sets) &&
            read_string(r, t, "out", &e->out) && read_plot(r, e, t);
  e->steps = (long)steps;
  e->every = (long)every;
  e->file_sets = e->sets.count;
  e->file_seed_sets = e->seed_sets.count;
  return ok;
}

// "experiments/x.lua" -> "results/x": where a sweep writes when the file names no folder.
static void default_out(fbExperiment *e, const char *path)
{
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  size_t len = strlen(base);
  if (len > 4 && strcmp(base + len - 4, ".lua") == 0) {
    len -= 4;
  }
  char out[512];
  snprintf(out, sizeof out, "results/%.*s", (int)len, base);
  set_text(&e->out, out);
}

bool fbExperiment_Read(fbExperiment *e, const char *path, char *err, size_t errlen)
{
  set_text(&e->source, path);
  fbLuaHost host;
  if (!fbLuaHost_Create(&host, (size_t)64 << 20, 5000)) {
    return fbFail(err, errlen, "%s: cannot create a Lua state", path);
  }
  char about[600];
  snprintf(about, sizeof about, "%s: while reading the experiment", path);
  bool ok = fbLuaHost_RunFile(&host, path, err, errlen) &&
            fbLuaHost_ProtectWith(&host, 1, about, read_table, e, err, errlen);
  fbLuaHost_Destroy(&host);
  if (ok && e->out == NULL) {
    default_out(e, path);
  }
  return ok;
}

// ---- the command line ---------------------------------------------------------------------------

static bool parse_whole(const char *text, long long lo, long long hi, long long *out)
{
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v < lo || v > hi || text[0] == '-' || text[0] == '+') {
    return false;
  }
  *out = v;
  return true;
}

// The text of spec before the first sep into head (empty if there is no sep or it does not fit);
// returns what follows the sep, or NULL.
static const char *split_head(const char *spec, char sep, char *head, size_t len)
{
  const char *at = strchr(spec, sep);
  head[0] = '\0';
  if (at != NULL && (size_t)(at - spec) < len) {
    snprintf(head, len, "%.*s", (int)(at - spec), spec);
  }
  return at != NULL ? at + 1 : NULL;
}

// The next item of a comma-separated list at *list into item (cut to fit); false once the list is
// used up. The list is advanced past the item and its comma.
static bool next_item(const char **list, char *item, size_t len)
{
  if (*list == NULL) {
    return false;
  }
  size_t n = strcspn(*list, ",");
  snprintf(item, len, "%.*s", (int)(n < len ? n : len - 1), *list);
  *list = (*list)[n] == '\0' ? NULL : *list + n + 1;
  return true;
}

// --grid NAME=V1,V2,...: replaces the axis of that name, or adds one after the file's.
static bool option_grid(fbExperiment *e, const char *spec, char *err, size_t errlen)
{
  char name[160];
  const char *values = split_head(spec, '=', name, sizeof name);
  if (!is_name_list(name) || values[0] == '\0') {
    return fbFail(err, errlen, "--grid %s: expected NAME=V1,V2,... or NAME1,NAME2=V1,V2,...", spec);
  }
  fbAxis *axis = find_axis(e, name);
  char shared[160];
  const fbAxis *other = axis_sharing(e, axis, name, shared, sizeof shared);
  if (other != NULL) {
    return fbFail(err, errlen, "--grid %s: '%s' is already in grid parameter '%s'", spec, shared, other->name);
  }
  if (axis == NULL) {
    if (e->axis_count == FB_SWEEP_MAX_AXES) {
      return fbFail(err, errlen, "--grid %s: at most %d grid parameters", spec, FB_SWEEP_MAX_AXES);
    }
    axis = &e->axes[e->axis_count++];
    axis->name = strdup(name);
  }
  fbTextList_Free(&axis->values);
  axis->from_option = true;
  char value[256];
  while (next_item(&values, value, sizeof value)) {
    if (!is_value(value)) {
      return fbFail(err, errlen, "--grid %s: value %d is empty or not one line of text", spec, axis->values.count + 1);
    }
    fbTextList_Add(&axis->values, value);
  }
  return true;
}

// --seeds A-B (inclusive) or --seeds A.
static bool option_seeds(fbExperiment *e, const char *spec, char *err, size_t errlen)
{
  char first[32], last[32];
  const char *dash = strchr(spec, '-');
  size_t n = dash ? (size_t)(dash - spec) : strlen(spec);
  snprintf(first, sizeof first, "%.*s", (int)(n < sizeof first ? n : sizeof first - 1), spec);
  snprintf(last, sizeof last, "%s", dash ? dash + 1 : first);
  long long a, b;
  if (!parse_whole(first, 0, 0x7fffffffffffffffLL, &a) || !parse_whole(last, 0, 0x7fffffffffffffffLL, &b) || a > b) {
    return fbFail(err, errlen, "--seeds %s: expected A-B (whole numbers from 0, A <= B) or one seed", spec);
  }
  e->seed_first = a;
  e->seed_last = b;
  return true;
}

// --plot X:Y[,Y2,...]
static bool option_plot(fbExperiment *e, const char *spec, char *err, size_t errlen)
{
  char x[160];
  const char *measures = split_head(spec, ':', x, sizeof x);
  if (!is_name_list(x) || measures[0] == '\0') {
    return fbFail(err, errlen, "--plot %s: expected X:Y[,Y2,...] (a grid parameter, then measures)", spec);
  }
  set_text(&e->plot_x, x);
  fbTextList_Free(&e->plot_y);
  // "outcome:stuck" holds a colon itself: the list is split on commas only.
  char name[200];
  while (next_item(&measures, name, sizeof name)) {
    if (!is_plot_measure(name)) {
      return fbFail(err, errlen, "--plot %s: '%s' is not a measure's column name or outcome:LABEL", spec, name);
    }
    fbTextList_Add(&e->plot_y, name);
  }
  return true;
}

int fbExperiment_Option(fbExperiment *e, const char *opt, const char *value, char *err, size_t errlen)
{
  long long v;
  bool ok = true;
  for (int k = 0; k < FIELD_COUNT; ++k) {
    if (strcmp(FIELDS[k].option, opt) == 0) {
      e->given_by_option |= 1u << k;
    }
  }
  if (strcmp(opt, "--scenario") == 0) {
    set_text(&e->scenario, value);
  } else if (strcmp(opt, "--out") == 0) {
    ok = value[0] != '\0' || fbFail(err, errlen, "--out: expected a folder");
    set_text(&e->out, value);
  } else if (strcmp(opt, "--steps") == 0 || strcmp(opt, "--every") == 0) {
    ok = parse_whole(value, 1, MAX_STEPS, &v) ||
         fbFail(err, errlen, "%s %s: expected a whole number from 1 to %ld", opt, value, MAX_STEPS);
    if (ok) {
      *(opt[2] == 's' ? &e->steps : &e->every) = (long)v;
    }
  } else if (strcmp(opt, "--set") == 0) {
    ok = is_assignment(value) || fbFail(err, errlen, "--set %s: expected NAME=VALUE", value);
    if (ok) {
      fbTextList_Add(&e->sets, value);
    }
  } else if (strcmp(opt, "--seed-set") == 0) {
    ok = is_name(value) || fbFail(err, errlen, "--seed-set %s: expected a --set name", value);
    if (ok) {
      fbTextList_Add(&e->seed_sets, value);
    }
  } else if (strcmp(opt, "--grid") == 0) {
    ok = option_grid(e, value, err, errlen);
  } else if (strcmp(opt, "--seeds") == 0) {
    ok = option_seeds(e, value, err, errlen);
  } else if (strcmp(opt, "--plot") == 0) {
    ok = option_plot(e, value, err, errlen);
  } else {
    return -1;
  }
  return ok ? 0 : 2;
}

// ---- the whole ----------------------------------------------------------------------------------

void fbExperiment_Where(const fbExperiment *e, const char *field, char *out, size_t len)
{
  int k = field_index(field);
  FB_ASSERT(k >= 0);
  if (e->source == NULL || (e->given_by_option & (1u << k)) != 0) {
    snprintf(out, len, "%s", FIELDS[k].option);
  } else {
    snprintf(out, len, "%s: %s", e->source, field);
  }
}

bool fbExperiment_Check(const fbExperiment *e, char *err, size_t errlen)
{
  char where[600];
  if (e->scenario == NULL || !fbFilePath_IsFile(e->scenario)) {
    fbExperiment_Where(e, "scenario", where, sizeof where);
    return e->scenario == NULL
               ? fbFail(err, errlen, "%s: missing (the scenario file to run, e.g. scripts/herd_hills.lua)", where)
               : fbFail(err, errlen, "%s: no such file '%s' (paths are relative to the current folder)", where,
                      e->scenario);
  }
  if (e->out == NULL) {
    return fbFail(err, errlen, "--out: missing (the folder for the results)");
  }
  double runs = (double)(e->seed_last - e->seed_first) + 1.0;
  for (int a = 0; a < e->axis_count; ++a) {
    runs *= e->design.method != 0 && a > 0 ? 1 : e->axes[a].values.count;  // a design's axes are zipped
  }
  for (int a = 0; e->design.method != 0 && a < e->axis_count; ++a) {
    if (e->axes[a].from_option || e->axes[a].values.count != e->axes[0].values.count) {
      return fbFail(err, errlen, "--grid %s: the experiment has a design, whose points are listed: no grid with it",
                    e->axes[a].name);
    }
  }
  fbExperiment_Where(e, "seeds", where, sizeof where);
  if (runs > FB_SWEEP_MAX_RUNS) {
    return fbFail(err, errlen, "%s: %.0f runs with this grid (at most %ld)", where, runs, FB_SWEEP_MAX_RUNS);
  }
  fbExperiment_Where(e, "grid", where, sizeof where);
  int per_run = e->sets.count + e->seed_sets.count;
  for (int a = 0; a < e->axis_count; ++a) {
    per_run += fbAxis_NameCount(&e->axes[a]);
  }
  if (per_run > FB_MAX_SETS) {
    return fbFail(err, errlen, "%s: with sets and seed_sets, %d --set values per run (at most %d)", where, per_run,
                FB_MAX_SETS);
  }
  fbExperiment_Where(e, "seed_sets", where, sizeof where);
  for (int k = 0; k < e->seed_sets.count; ++k) {
    char shared[160];
    if (axis_sharing(e, NULL, e->seed_sets.items[k], shared, sizeof shared) != NULL) {
      return fbFail(err, errlen, "%s: '%s' is also a grid parameter (the seed would hide its value)", where,
                  e->seed_sets.items[k]);
    }
  }
  fbExperiment_Where(e, "plot", where, sizeof where);
  if (e->plot_x != NULL && find_axis((fbExperiment *)e, e->plot_x) == NULL) {
    return fbFail(err, errlen, "%s: x: '%s' is not a grid parameter", where, e->plot_x);
  }
  return true;
}
