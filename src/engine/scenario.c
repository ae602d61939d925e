// scenario.c — reading a scenario script's table into the world, with one clear message per mistake.
#define _XOPEN_SOURCE 700
#include "scenario.h"

#include <lauxlib.h>
#include <stdarg.h>
#include <string.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rng.h"

// Where a value sits in the scenario, for messages: "scripts/flock.lua: species[1].vision.fov".
typedef struct Reader {
  lua_State *L;
  const char *file;
  char *err;
  size_t errlen;
} Reader;

static bool fail(Reader *r, const char *where, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static bool fail(Reader *r, const char *where, const char *key, const char *fmt, ...)
{
  char msg[512];
  va_list args;
  va_start(args, fmt);
  vsnprintf(msg, sizeof msg, fmt, args);
  va_end(args);
  snprintf(r->err, r->errlen, "%s: %s%s%s: %s", r->file, where, key[0] ? "." : "", key, msg);
  return false;
}

// Reads t[key] as a number in [lo, hi]; absent keys keep *out.
static bool read_number(Reader *r, int t, const char *where, const char *key, double lo, double hi, double *out)
{
  int type = lua_getfield(r->L, t, key);
  if (type == LUA_TNIL) {
    lua_pop(r->L, 1);
    return true;
  }
  if (type != LUA_TNUMBER) {
    bool ok = fail(r, where, key, "expected a number, got a %s", lua_typename(r->L, type));
    lua_pop(r->L, 1);
    return ok;
  }
  double v = lua_tonumber(r->L, -1);
  lua_pop(r->L, 1);
  if (!isfinite(v) || v < lo || v > hi) {
    return fail(r, where, key, "must be between %g and %g (got %g)", lo, hi, v);
  }
  *out = v;
  return true;
}

static bool read_bool(Reader *r, int t, const char *where, const char *key, bool *out)
{
  int type = lua_getfield(r->L, t, key);
  bool ok = true;
  if (type == LUA_TBOOLEAN) {
    *out = lua_toboolean(r->L, -1);
  } else if (type != LUA_TNIL) {
    ok = fail(r, where, key, "expected true or false, got a %s", lua_typename(r->L, type));
  }
  lua_pop(r->L, 1);
  return ok;
}

// Reads t[key] as a string into out (absent keeps out); refuses other types and over-long strings.
static bool read_string(Reader *r, int t, const char *where, const char *key, char *out, size_t len)
{
  int type = lua_getfield(r->L, t, key);
  bool ok = true;
  if (type == LUA_TSTRING) {
    size_t n;
    const char *s = lua_tolstring(r->L, -1, &n);
    if (n == 0 || n >= len) {
      ok = fail(r, where, key, "must be 1 to %zu characters long", len - 1);
    } else {
      memcpy(out, s, n + 1);
    }
  } else if (type != LUA_TNIL) {
    ok = fail(r, where, key, "expected a string, got a %s", lua_typename(r->L, type));
  }
  lua_pop(r->L, 1);
  return ok;
}

// Reads an array of n numbers at index t (the `{x, y, r}` shorthand).
static bool read_numbers(Reader *r, int t, const char *where, const char *key, double *out, int n)
{
  if (!lua_istable(r->L, t) || (int)lua_rawlen(r->L, t) != n) {
    return fail(r, where, key, "expected a list of %d numbers", n);
  }
  for (int k = 0; k < n; ++k) {
    lua_rawgeti(r->L, t, k + 1);
    int isnum = 0;
    out[k] = lua_tonumberx(r->L, -1, &isnum);
    lua_pop(r->L, 1);
    if (!isnum || lua_type(r->L, t) != LUA_TTABLE || !isfinite(out[k])) {
      return fail(r, where, key, "item %d: expected a finite number", k + 1);
    }
  }
  return true;
}

// Refuses keys not in `known` (catches typos such as max_sped).
static bool check_keys(Reader *r, int t, const char *where, const char *const *known, bool allow_array)
{
  lua_pushnil(r->L);
  while (lua_next(r->L, t) != 0) {
    lua_pop(r->L, 1);
    if (lua_type(r->L, -1) == LUA_TNUMBER && allow_array) {
      continue;
    }
    if (lua_type(r->L, -1) != LUA_TSTRING) {
      lua_pop(r->L, 1);
      return fail(r, where, "", "unexpected non-name key");
    }
    const char *key = lua_tostring(r->L, -1);
    bool found = false;
    for (int k = 0; known[k] != NULL && !found; ++k) {
      found = strcmp(known[k], key) == 0;
    }
    if (!found) {
      char list[512] = "";
      for (int k = 0; known[k] != NULL; ++k) {
        strncat(list, k ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, known[k], sizeof list - strlen(list) - 1);
      }
      bool ok = fail(r, where, key, "unknown field (known: %s)", list);
      lua_pop(r->L, 1);
      return ok;
    }
  }
  return true;
}

// Pushes t[key] if it is a table (returns its absolute index), 0 if absent; fails on other types.
static int open_table(Reader *r, int t, const char *where, const char *key, bool *ok)
{
  int type = lua_getfield(r->L, t, key);
  if (type == LUA_TTABLE) {
    return lua_gettop(r->L);
  }
  if (type != LUA_TNIL) {
    *ok = fail(r, where, key, "expected a table, got a %s", lua_typename(r->L, type));
  }
  lua_pop(r->L, 1);
  return 0;
}

static bool file_exists(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

// Shortens a found path for messages: relative to the working directory when it lies below it
// ("behaviours/cohesion.lua:12:" rather than "scripts/../behaviours/cohesion.lua:12:").
static void tidy_path(char *path, size_t len)
{
  char real[PATH_MAX], cwd[PATH_MAX];
  if (realpath(path, real) == NULL || getcwd(cwd, sizeof cwd) == NULL) {
    return;
  }
  size_t n = strlen(cwd);
  if (strncmp(real, cwd, n) == 0 && real[n] == '/') {
    snprintf(path, len, "%.*s", (int)len - 1, real + n + 1);
  } else if (strstr(path, "/../") != NULL) {
    snprintf(path, len, "%.*s", (int)len - 1, real);
  }
}

// A path named by a scenario is looked for beside the scenario's folder first (scripts/../x, so a
// project folder carries its own behaviours/ and terrains/), then as given, then in the source tree.
static void resolve(const char *scenario, const char *rel, char *out, size_t len)
{
  if (rel[0] == '/') {
    snprintf(out, len, "%s", rel);
    return;
  }
  const char *slash = strrchr(scenario, '/');
  int dir = slash ? (int)(slash - scenario) : 0;
  snprintf(out, len, "%.*s%s../%s", dir, scenario, dir ? "/" : "", rel);
  if (file_exists(out)) {
    tidy_path(out, len);
    return;
  }
  snprintf(out, len, "%s", rel);
  if (file_exists(out)) {
    return;
  }
  snprintf(out, len, "%s/%s", FB_SOURCE_DIR, rel);
  if (!file_exists(out)) {
    snprintf(out, len, "%s", rel);
  }
}

// ---- world, terrain, obstacles, goals ------------------------------------------------------------

static bool read_world(Reader *r, fbWorld *w, int root)
{
  bool ok = true;
  int t = open_table(r, root, "", "world", &ok);
  if (!t) {
    return ok;
  }
  static const char *const known[] = {"width", "height", "dt", "bounds", NULL};
  char bounds[16] = "wrap";
  ok = check_keys(r, t, "world", known, false) && read_number(r, t, "world", "width", 1e-3, 1e7, &w->width) &&
       read_number(r, t, "world", "height", 1e-3, 1e7, &w->height) &&
       read_number(r, t, "world", "dt", 1e-5, 1.0, &w->dt) &&
       read_string(r, t, "world", "bounds", bounds, sizeof bounds);
  if (ok && strcmp(bounds, "wrap") != 0 && strcmp(bounds, "clamp") != 0) {
    ok = fail(r, "world", "bounds", "expected \"wrap\" or \"clamp\", got \"%s\"", bounds);
  }
  w->bounds = strcmp(bounds, "clamp") == 0 ? FB_BOUNDS_CLAMP : FB_BOUNDS_WRAP;
  lua_pop(r->L, 1);
  return ok;
}

static bool read_terrain(Reader *r, fbWorld *w, int root, const char *scenario_path)
{
  bool ok = true;
  fbTerrain_InitFlat(&w->terrain, w->width, w->height);
  if (lua_getfield(r->L, root, "terrain") == LUA_TSTRING) {  // shorthand: terrain = "terrains/x.png"
    lua_newtable(r->L);
    lua_insert(r->L, -2);
    lua_setfield(r->L, -2, "png");
  }
  int t = lua_istable(r->L, -1) ? lua_gettop(r->L) : 0;
  if (!t) {
    ok = lua_isnil(r->L, -1) || fail(r, "", "terrain", "expected a table or a PNG path");
    lua_pop(r->L, 1);
    return ok;
  }
  static const char *const known[] = {"png", "height", "generate", "feature", "samples", NULL};
  char png[400] = "";
  double height = 10, seed = -1, feature = 0, samples = 256;
  ok = check_keys(r, t, "terrain", known, false) && read_string(r, t, "terrain", "png", png, sizeof png) &&
       read_number(r, t, "terrain", "height", 0, 1e6, &height) &&
       read_number(r, t, "terrain", "generate", 0, 9.0e15, &seed) &&
       read_number(r, t, "terrain", "feature", 0, 1e7, &feature) &&
       read_number(r, t, "terrain", "samples", 2, FB_TERRAIN_MAX_SIDE, &samples);
  if (ok && png[0]) {
    char path[600], msg[700];
    resolve(scenario_path, png, path, sizeof path);
    if (!fbTerrain_LoadPng(&w->terrain, path, w->width, w->height, height, msg, sizeof msg)) {
      ok = fail(r, "terrain", "png", "%s", msg);
    }
  } else if (ok && seed >= 0) {
    double f = feature > 0 ? feature : fmin(w->width, w->height) / 4;
    fbTerrain_Generate(&w->terrain, (uint64_t)seed, (int)samples, w->width, w->height, height, f);
  } else if (ok) {
    ok = fail(r, "terrain", "", "give png = \"terrains/NAME.png\" or generate = SEED");
  }
  lua_pop(r->L, 1);
  return ok;
}

static bool read_obstacle(Reader *r, fbWorld *w, int t, const char *where)
{
  static const char *const known[] = {"circle", "polygon", NULL};
  if (!check_keys(r, t, where, known, false)) {
    return false;
  }
  char msg[256];
  bool ok = true;
  if (lua_getfield(r->L, t, "circle") != LUA_TNIL) {
    double c[3];
    ok = read_numbers(r, lua_gettop(r->L), where, "circle", c, 3);
    if (ok && fbObstacles_AddCircle(&w->obstacles, fbV(c[0], c[1]), c[2], msg, sizeof msg) < 0) {
      ok = fail(r, where, "circle", "%s", msg);
    }
    lua_pop(r->L, 1);
    return ok;
  }
  lua_pop(r->L, 1);
  if (lua_getfield(r->L, t, "polygon") != LUA_TTABLE) {
    lua_pop(r->L, 1);
    return fail(r, where, "", "expected { circle = {x, y, r} } or { polygon = { {x, y}, ... } }");
  }
  int p = lua_gettop(r->L);
  int n = (int)lua_rawlen(r->L, p);
  fbVec2 v[64];
  if (n < 3 || n > 64) {
    ok = fail(r, where, "polygon", "expected 3 to 64 vertices, got %d", n);
  }
  for (int k = 0; ok && k < n; ++k) {
    lua_rawgeti(r->L, p, k + 1);
    double xy[2];
    char item[80];
    snprintf(item, sizeof item, "polygon[%d]", k + 1);
    ok = read_numbers(r, lua_gettop(r->L), where, item, xy, 2);
    v[k] = fbV(xy[0], xy[1]);
    lua_pop(r->L, 1);
  }
  if (ok && fbObstacles_AddPolygon(&w->obstacles, v, n, msg, sizeof msg) < 0) {
    ok = fail(r, where, "polygon", "%s", msg);
  }
  lua_pop(r->L, 1);
  return ok;
}

static bool read_obstacles(Reader *r, fbWorld *w, int root)
{
  bool ok = true;
  int t = open_table(r, root, "", "obstacles", &ok);
  for (int k = 1; ok && t && k <= (int)lua_rawlen(r->L, t); ++k) {
    char where[64];
    snprintf(where, sizeof where, "obstacles[%d]", k);
    if (lua_rawgeti(r->L, t, k) != LUA_TTABLE) {
      ok = fail(r, where, "", "expected a table");
    } else {
      ok = read_obstacle(r, w, lua_gettop(r->L), where);
    }
    lua_pop(r->L, 1);
  }
  if (t) {
    lua_pop(r->L, 1);
  }
  return ok;
}

static bool read_goals(Reader *r, fbWorld *w, int root)
{
  bool ok = true;
  int t = open_table(r, root, "", "goals", &ok);
  if (!t) {
    return ok;
  }
  lua_pushnil(r->L);
  while (ok && lua_next(r->L, t) != 0) {
    const char *name = lua_type(r->L, -2) == LUA_TSTRING ? lua_tostring(r->L, -2) : NULL;
    double xy[2];
    if (name == NULL || strlen(name) >= FB_NAME_LEN) {
      ok = fail(r, "goals", "", "keys must be names shorter than %d characters", FB_NAME_LEN);
    } else if (w->goal_count >= FB_MAX_GOALS) {
      ok = fail(r, "goals", name, "too many goals (at most %d)", FB_MAX_GOALS);
    } else if ((ok = read_numbers(r, lua_gettop(r->L), "goals", name, xy, 2))) {
      fbGoal *g = &w->goals[w->goal_count++];
      snprintf(g->name, sizeof g->name, "%s", name);
      g->p = fbV(xy[0], xy[1]);
    }
    lua_pop(r->L, 1);
  }
  if (!ok) {
    lua_pop(r->L, 1);
  }
  lua_pop(r->L, 1);
  return ok;
}

// ---- species ------------------------------------------------------------------------------------

static void species_defaults(fbSpecies *s)
{
  memset(s, 0, sizeof *s);
  s->body_length = 1.0;
  s->limits.max_speed = 10.0;
  s->limits.min_speed = 0.0;
  s->cruise_speed = -1.0;  // Gompert's 0.7 * max_speed once max_speed is known
  s->limits.max_accel = -1.0;  // Gompert's 2 * max_speed
  s->limits.max_turn = FB_PI * 1000;
  s->limits.slope_correction = true;
  s->fov_degrees = 270.0;
  s->vision.radius = 10.0;
  s->vision.separation_radius = -1.0;
  s->accumulator = FB_ACCUM_WEIGHTED;
  s->update_every = 1;
  s->colour[0] = 240;
  s->colour[1] = 200;
  s->colour[2] = 60;
}

static bool read_vision(Reader *r, fbSpecies *s, int t, const char *where)
{
  bool ok = true;
  char here[160];
  snprintf(here, sizeof here, "%s.vision", where);
  int v = open_table(r, t, where, "vision", &ok);
  if (!v) {
    return ok;
  }
  static const char *const known[] = {"radius", "fov", "separation", "sees", NULL};
  ok = check_keys(r, v, here, known, false) && read_number(r, v, here, "radius", 0, 1e7, &s->vision.radius) &&
       read_number(r, v, here, "fov", 0, 360, &s->fov_degrees) &&
       read_number(r, v, here, "separation", 0, 1e7, &s->vision.separation_radius);
  lua_pop(r->L, 1);
  return ok;
}

// vision.sees names species, so it is read once every species is known.
static bool read_sees(Reader *r, fbWorld *w, int index, int t, const char *where)
{
  fbSpecies *s = &w->species[index];
  s->vision.sees = 1u << index;
  bool ok = true;
  int v = open_table(r, t, where, "vision", &ok);
  if (!v) {
    return ok;
  }
  if (lua_getfield(r->L, v, "sees") == LUA_TTABLE) {
    s->vision.sees = 0;
    for (int k = 1; ok && k <= (int)lua_rawlen(r->L, -1); ++k) {
      lua_rawgeti(r->L, -1, k);
      const char *name = lua_tostring(r->L, -1);
      int other = name ? fbWorld_FindSpecies(w, name) : -1;
      if (other < 0) {
        char key[64];
        snprintf(key, sizeof key, "sees[%d]", k);
        ok = fail(r, where, key, "unknown species '%s'", name ? name : "?");
      } else {
        s->vision.sees |= 1u << other;
      }
      lua_pop(r->L, 1);
    }
  } else if (!lua_isnil(r->L, -1)) {
    ok = fail(r, where, "vision.sees", "expected a list of species names");
  }
  lua_pop(r->L, 2);
  return ok;
}

static bool read_limits(Reader *r, const fbWorld *w, fbSpecies *s, int t, const char *where)
{
  double turn = -1;
  bool ok = read_number(r, t, where, "body_length", 1e-6, 1e6, &s->body_length) &&
            read_number(r, t, where, "max_speed", 1e-9, 1e7, &s->limits.max_speed) &&
            read_number(r, t, where, "min_speed", 0, 1e7, &s->limits.min_speed) &&
            read_number(r, t, where, "cruise_speed", 0, 1e7, &s->cruise_speed) &&
            read_number(r, t, where, "max_accel", 1e-9, 1e9, &s->limits.max_accel) &&
            read_number(r, t, where, "max_turn", 0, 1e9, &turn) &&
            read_bool(r, t, where, "half_accel", &s->limits.half_accel_term) &&
            read_bool(r, t, where, "slope_correction", &s->limits.slope_correction);
  if (!ok) {
    return false;
  }
  // Landmarks of Gompert Table 1: cruising speed within [0, max speed]; min speed below max.
  if (s->cruise_speed < 0) {
    s->cruise_speed = 0.7 * s->limits.max_speed;
  } else if (s->cruise_speed > s->limits.max_speed) {
    return fail(r, where, "cruise_speed", "must not exceed max_speed (%g > %g; Gompert Table 1)", s->cruise_speed,
                s->limits.max_speed);
  }
  if (s->limits.min_speed > s->limits.max_speed) {
    return fail(r, where, "min_speed", "must not exceed max_speed (%g > %g)", s->limits.min_speed,
                s->limits.max_speed);
  }
  if (s->limits.max_accel < 0) {
    s->limits.max_accel = 2.0 * s->limits.max_speed;
  }
  if (turn >= 0) {
    s->limits.max_turn = turn * FB_PI / 180.0 * w->dt;  // degrees per second in, radians per step out
  }
  s->limits.body_radius = s->body_length / 2;
  return true;
}

static bool read_style(Reader *r, fbSpecies *s, int t, const char *where)
{
  char accumulator[32] = "weighted";
  double every = 1;
  bool ok = read_string(r, t, where, "accumulator", accumulator, sizeof accumulator) &&
            read_number(r, t, where, "update_every", 1, 1000, &every) &&
            read_bool(r, t, where, "player", &s->player);
  if (ok && !fbAccum_ParseKind(accumulator, &s->accumulator)) {
    ok = fail(r, where, "accumulator", "expected \"weighted\", \"prioritised\" or \"exclusive\", got \"%s\"",
              accumulator);
  }
  s->update_every = (int)every;
  if (ok && lua_getfield(r->L, t, "colour") != LUA_TNIL) {
    double rgb[3];
    ok = read_numbers(r, lua_gettop(r->L), where, "colour", rgb, 3);
    for (int k = 0; ok && k < 3; ++k) {
      s->colour[k] = (uint8_t)fmin(255, fmax(0, rgb[k]));
    }
    lua_pop(r->L, 1);
  } else if (ok) {
    lua_pop(r->L, 1);
  }
  return ok;
}

// behaviours = { "folder", ... }: the scenario's own rule folders, searched before behaviours/.
static bool read_rule_dirs(Reader *r, fbWorld *w, int root, const char *scenario_path)
{
  bool ok = true;
  int t = open_table(r, root, "", "behaviours", &ok);
  int n = t ? (int)lua_rawlen(r->L, t) : 0;
  if (n > FB_MAX_RULE_DIRS) {
    ok = fail(r, "", "behaviours", "at most %d folders", FB_MAX_RULE_DIRS);
  }
  for (int k = 1; ok && k <= n; ++k) {
    lua_rawgeti(r->L, t, k);
    const char *dir = lua_type(r->L, -1) == LUA_TSTRING ? lua_tostring(r->L, -1) : NULL;
    struct stat st;
    char *out = w->rule_dirs[w->rule_dir_count];
    if (dir != NULL) {
      resolve(scenario_path, dir, out, sizeof w->rule_dirs[0]);
    }
    if (dir == NULL || stat(out, &st) != 0 || !S_ISDIR(st.st_mode)) {
      char key[32];
      snprintf(key, sizeof key, "behaviours[%d]", k);
      ok = fail(r, "", key, "expected the name of an existing folder");
    } else {
      w->rule_dir_count++;
    }
    lua_pop(r->L, 1);
  }
  if (t) {
    lua_pop(r->L, 1);
  }
  return ok;
}

static void resolve_rule(const fbWorld *w, const char *scenario_path, const char *name, char *out, size_t len)
{
  char module[FB_NAME_LEN];  // a copy: out and name may both live in the world's species table
  snprintf(module, sizeof module, "%s", name);
  for (int d = 0; d < w->rule_dir_count; ++d) {
    snprintf(out, len, "%s/%s.lua", w->rule_dirs[d], module);
    if (file_exists(out)) {
      return;
    }
  }
  char rel[128];
  snprintf(rel, sizeof rel, "behaviours/%s.lua", module);
  resolve(scenario_path, rel, out, len);
}

static bool read_rule_slot(Reader *r, const fbWorld *w, fbSpecies *s, int t, const char *where,
                           const char *scenario_path)
{
  static const char *const known[] = {"rule", "name", "weight", "force", "params", NULL};
  if (!check_keys(r, t, where, known, true)) {
    return false;
  }
  fbRuleSlot *slot = &s->rules[s->rule_count];
  memset(slot, 0, sizeof *slot);
  slot->weight = 1.0;
  lua_rawgeti(r->L, t, 1);
  if (lua_type(r->L, -1) == LUA_TSTRING) {
    lua_setfield(r->L, t, "rule");
  } else {
    lua_pop(r->L, 1);
  }
  bool ok = read_string(r, t, where, "rule", slot->module, sizeof slot->module) &&
            read_number(r, t, where, "weight", -1e9, 1e9, &slot->weight) &&
            read_bool(r, t, where, "force", &slot->force);
  if (ok && slot->module[0] == '\0') {
    return fail(r, where, "", "name the rule first: { \"cohesion\", weight = 1 }");
  }
  for (const char *c = slot->module; ok && *c; ++c) {
    if (!(*c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9'))) {
      ok = fail(r, where, "rule", "'%s' is not a module name (letters, digits and _ only)", slot->module);
    }
  }
  memcpy(slot->name, slot->module, sizeof slot->name);
  ok = ok && read_string(r, t, where, "name", slot->name, sizeof slot->name);
  if (!ok) {
    return false;
  }
  for (int k = 0; k < s->rule_count; ++k) {
    if (strcmp(s->rules[k].name, slot->name) == 0) {
      return fail(r, where, "name", "species already has a rule named '%s' (give this one a name = \"...\")",
                  slot->name);
    }
  }
  resolve_rule(w, scenario_path, slot->module, slot->path, sizeof slot->path);
  if (!file_exists(slot->path)) {
    return fail(r, where, "rule", "unknown rule '%s' (no file behaviours/%s.lua)", slot->module, slot->module);
  }
  s->rule_count++;
  return true;
}

static bool read_rules(Reader *r, const fbWorld *w, fbSpecies *s, int t, const char *where,
                       const char *scenario_path)
{
  bool ok = true;
  int rules = open_table(r, t, where, "rules", &ok);
  if (!rules) {
    return ok;
  }
  int n = (int)lua_rawlen(r->L, rules);
  if (n > FB_MAX_RULES) {
    ok = fail(r, where, "rules", "too many rules (%d; at most %d)", n, FB_MAX_RULES);
  }
  for (int k = 1; ok && k <= n; ++k) {
    char here[128];
    snprintf(here, sizeof here, "%s.rules[%d]", where, k);
    if (lua_rawgeti(r->L, rules, k) == LUA_TSTRING) {  // shorthand: rules = { "cohesion", ... }
      lua_createtable(r->L, 1, 0);
      lua_insert(r->L, -2);
      lua_rawseti(r->L, -2, 1);
      lua_pushvalue(r->L, -1);
      lua_rawseti(r->L, rules, k);
    }
    if (!lua_istable(r->L, -1)) {
      ok = fail(r, here, "", "expected { \"rule_name\", weight = ... }");
    } else {
      ok = read_rule_slot(r, w, s, lua_gettop(r->L), here, scenario_path);
    }
    lua_pop(r->L, 1);
  }
  lua_pop(r->L, 1);
  return ok;
}

static const char *const species_keys[] = {
    "name",         "count",      "spawn",       "agents",    "body_length", "max_speed",  "min_speed",
    "cruise_speed", "max_accel",  "max_turn",    "vision",    "accumulator", "update_every", "half_accel",
    "slope_correction", "colour", "player",      "rules",     NULL};

static bool read_species_entry(Reader *r, fbWorld *w, int t, const char *where, const char *scenario_path)
{
  fbSpecies *s = &w->species[w->species_count];
  species_defaults(s);
  bool ok = check_keys(r, t, where, species_keys, false) &&
            read_string(r, t, where, "name", s->name, sizeof s->name);
  if (ok && s->name[0] == '\0') {
    ok = fail(r, where, "name", "every species needs a name");
  }
  if (ok && fbWorld_FindSpecies(w, s->name) >= 0) {
    ok = fail(r, where, "name", "two species are named '%s'", s->name);
  }
  ok = ok && read_limits(r, w, s, t, where) && read_vision(r, s, t, where) && read_style(r, s, t, where) &&
       read_rules(r, w, s, t, where, scenario_path);
  if (!ok) {
    return false;
  }
  // Gompert Table 1: the comfort (separation) zone is at least the animal's size.
  if (s->vision.separation_radius < 0) {
    s->vision.separation_radius = fmin(s->vision.radius, 2.0 * s->body_length);
  }
  s->vision.cos_half_fov = s->fov_degrees >= 360.0 ? -2.0 : cos(s->fov_degrees * FB_PI / 360.0);
  w->species_count++;
  return true;
}

static bool read_species(Reader *r, fbWorld *w, int root, const char *scenario_path)
{
  bool ok = true;
  int t = open_table(r, root, "", "species", &ok);
  if (!t) {
    return ok ? fail(r, "", "species", "a scenario needs at least one species") : false;
  }
  int n = (int)lua_rawlen(r->L, t);
  if (n < 1 || n > FB_MAX_SPECIES) {
    ok = fail(r, "", "species", "expected a list of 1 to %d species, got %d", FB_MAX_SPECIES, n);
  }
  for (int k = 1; ok && k <= n; ++k) {
    char where[96];
    snprintf(where, sizeof where, "species[%d]", k);
    if (lua_rawgeti(r->L, t, k) != LUA_TTABLE) {
      ok = fail(r, where, "", "expected a table");
    } else {
      ok = read_species_entry(r, w, lua_gettop(r->L), where, scenario_path);
    }
    lua_pop(r->L, 1);
  }
  for (int k = 1; ok && k <= n; ++k) {
    char where[96];
    snprintf(where, sizeof where, "species[%d]", k);
    lua_rawgeti(r->L, t, k);
    ok = read_sees(r, w, k - 1, lua_gettop(r->L), where);
    lua_pop(r->L, 1);
  }
  lua_pop(r->L, 1);
  return ok;
}

// ---- rules into every Lua state ------------------------------------------------------------------

static bool load_rules(Reader *r, fbSim *sim, int root)
{
  fbWorld *w = &sim->world;
  lua_getfield(r->L, root, "species");
  int list = lua_gettop(r->L);
  bool ok = true;
  for (int s = 0; ok && s < w->species_count; ++s) {
    for (int t = 0; t < sim->threads; ++t) {
      fbRules_SetSpecies(&sim->runners[t], w, s);
    }
    lua_rawgeti(r->L, list, s + 1);
    lua_getfield(r->L, -1, "rules");
    for (int k = 0; ok && k < w->species[s].rule_count; ++k) {
      lua_rawgeti(r->L, -1, k + 1);
      int params = lua_getfield(r->L, -1, "params") == LUA_TTABLE ? lua_gettop(r->L) : 0;
      char what[768];
      snprintf(what, sizeof what, "%s: species '%s' rule '%s'", r->file, w->species[s].name,
               w->species[s].rules[k].name);
      if (!params && !lua_isnil(r->L, -1)) {
        ok = fail(r, what + strlen(r->file) + 2, "params", "expected a table");
      }
      for (int t = 0; ok && t < sim->threads; ++t) {
        ok = fbRules_Load(&sim->runners[t], w, s, k, r->L, params, what, r->err, r->errlen);
      }
      lua_pop(r->L, 2);
    }
    lua_pop(r->L, 2);
  }
  lua_pop(r->L, 1);
  return ok;
}

static bool read_hooks(Reader *r, fbSim *sim, int root)
{
  int type = lua_getfield(r->L, root, "on_step");
  if (type == LUA_TFUNCTION) {
    sim->on_step_ref = luaL_ref(r->L, LUA_REGISTRYINDEX);
  } else {
    lua_pop(r->L, 1);
    if (type != LUA_TNIL) {
      return fail(r, "", "on_step", "expected a function");
    }
  }
  type = lua_getfield(r->L, root, "on_key");
  if (type == LUA_TFUNCTION) {
    sim->on_key_ref = luaL_ref(r->L, LUA_REGISTRYINDEX);
  } else {
    lua_pop(r->L, 1);
    if (type != LUA_TNIL) {
      return fail(r, "", "on_key", "expected a function");
    }
  }
  bool ok = true;
  int t = open_table(r, root, "", "metrics", &ok);
  for (int k = 1; ok && t && k <= (int)lua_rawlen(r->L, t); ++k) {
    char where[64];
    snprintf(where, sizeof where, "metrics[%d]", k);
    lua_rawgeti(r->L, t, k);
    lua_rawgeti(r->L, -1, 1);
    lua_rawgeti(r->L, -2, 2);
    const char *name = lua_type(r->L, -2) == LUA_TSTRING ? lua_tostring(r->L, -2) : NULL;
    if (sim->metric_count >= FB_MAX_METRICS) {
      ok = fail(r, where, "", "too many metrics (at most %d)", FB_MAX_METRICS);
    } else if (name == NULL || strlen(name) >= FB_NAME_LEN || strpbrk(name, ",\"\n") || !lua_isfunction(r->L, -1)) {
      ok = fail(r, where, "", "expected { \"column_name\", function() return number end }");
    } else {
      snprintf(sim->metric_names[sim->metric_count], FB_NAME_LEN, "%s", name);
      sim->metric_refs[sim->metric_count++] = luaL_ref(r->L, LUA_REGISTRYINDEX);
      lua_pushnil(r->L);
    }
    lua_pop(r->L, 3);
  }
  if (t) {
    lua_pop(r->L, 1);
  }
  return ok;
}

bool fbScenario_Read(fbSim *sim, char *err, size_t errlen)
{
  Reader r = {sim->scenario.L, sim->path, err, errlen};
  int root = lua_gettop(r.L);
  fbWorld *w = &sim->world;
  static const char *const known[] = {"name",    "world",  "terrain", "obstacles", "goals", "species",
                                      "on_step", "on_key", "metrics", "behaviours", NULL};
  bool ok = check_keys(&r, root, "scenario", known, false) &&
            read_string(&r, root, "", "name", sim->name, sizeof sim->name) && read_world(&r, w, root) &&
            read_terrain(&r, w, root, sim->path) && read_obstacles(&r, w, root) && read_goals(&r, w, root) &&
            read_rule_dirs(&r, w, root, sim->path) && read_species(&r, w, root, sim->path) && load_rules(&r, sim, root) && read_hooks(&r, sim, root);
  return ok;
}

// ---- spawning -----------------------------------------------------------------------------------

static bool read_range(Reader *r, int t, const char *where, const char *key, double *lo, double *hi)
{
  int type = lua_getfield(r->L, t, key);
  bool ok = true;
  if (type == LUA_TNUMBER) {
    *lo = *hi = lua_tonumber(r->L, -1);
  } else if (type == LUA_TTABLE) {
    double v[2];
    ok = read_numbers(r, lua_gettop(r->L), where, key, v, 2);
    *lo = v[0];
    *hi = v[1];
  } else if (type != LUA_TNIL) {
    ok = fail(r, where, key, "expected a number or {min, max}");
  }
  lua_pop(r->L, 1);
  if (ok && (!isfinite(*lo) || !isfinite(*hi) || *lo > *hi || *lo < 0)) {
    ok = fail(r, where, key, "expected 0 <= min <= max");
  }
  return ok;
}

// Spawn region and speeds: area = {x0, y0, x1, y1} or around = {x, y, r}; speed = v or {min, max};
// heading in degrees (0 = +x, 90 = +y, i.e. down the screen), random when absent.
static bool spawn_group(Reader *r, fbWorld *w, int s, int count, int t, const char *where)
{
  double area[4] = {0, 0, w->width, w->height}, around[3] = {0, 0, -1};
  double lo = 0, hi = w->species[s].cruise_speed, heading = NAN;
  static const char *const known[] = {"area", "around", "speed", "heading", NULL};
  bool ok = !t || check_keys(r, t, where, known, false);
  if (ok && t && lua_getfield(r->L, t, "area") != LUA_TNIL) {
    ok = read_numbers(r, lua_gettop(r->L), where, "area", area, 4);
  }
  if (t) {
    lua_pop(r->L, 1);
  }
  if (ok && t && lua_getfield(r->L, t, "around") != LUA_TNIL) {
    ok = read_numbers(r, lua_gettop(r->L), where, "around", around, 3);
  }
  if (t) {
    lua_pop(r->L, 1);
  }
  ok = ok && (!t || (read_range(r, t, where, "speed", &lo, &hi) &&
                     read_number(r, t, where, "heading", -1e6, 1e6, &heading)));
  for (int k = 0; ok && k < count; ++k) {
    uint64_t id = w->next_id;
    double u[5];
    for (int q = 0; q < 5; ++q) {
      u[q] = fbRng_Uniform(w->seed, id, 0, 100 + (uint64_t)q);
    }
    fbVec2 p;
    if (around[2] >= 0) {
      double rad = around[2] * sqrt(u[0]), ang = 2 * FB_PI * u[1];
      p = fbV(around[0] + rad * cos(ang), around[1] + rad * sin(ang));
    } else {
      p = fbV(area[0] + (area[2] - area[0]) * u[0], area[1] + (area[3] - area[1]) * u[1]);
    }
    double dir = isnan(heading) ? 2 * FB_PI * u[2] : heading * FB_PI / 180 + (u[2] - 0.5) * 0.2;
    double speed = lo + (hi - lo) * u[3];
    fbWorld_AddAgent(w, s, p, fbV(speed * cos(dir), speed * sin(dir)));
  }
  return ok;
}

// agents = { {x, y, vx, vy}, ... } places agents by hand (tests, formations).
static bool spawn_listed(Reader *r, fbWorld *w, int s, int t, const char *where)
{
  bool ok = true;
  int list = open_table(r, t, where, "agents", &ok);
  for (int k = 1; ok && list && k <= (int)lua_rawlen(r->L, list); ++k) {
    char key[64];
    snprintf(key, sizeof key, "agents[%d]", k);
    lua_rawgeti(r->L, list, k);
    double v[4] = {0, 0, 0, 0};
    int n = lua_istable(r->L, -1) ? (int)lua_rawlen(r->L, -1) : 0;
    ok = (n == 2 || n == 4) ? read_numbers(r, lua_gettop(r->L), where, key, v, n)
                            : fail(r, where, key, "expected {x, y} or {x, y, vx, vy}");
    if (ok) {
      fbWorld_AddAgent(w, s, fbV(v[0], v[1]), fbV(v[2], v[3]));
    }
    lua_pop(r->L, 1);
  }
  if (list) {
    lua_pop(r->L, 1);
  }
  return ok;
}

bool fbScenario_Spawn(fbSim *sim, char *err, size_t errlen)
{
  Reader r = {sim->scenario.L, sim->path, err, errlen};
  fbWorld *w = &sim->world;
  lua_rawgeti(r.L, LUA_REGISTRYINDEX, sim->scenario_ref);
  lua_getfield(r.L, -1, "species");
  bool ok = true;
  for (int s = 0; ok && s < w->species_count; ++s) {
    char where[96];
    snprintf(where, sizeof where, "species[%d]", s + 1);
    lua_rawgeti(r.L, -1, s + 1);
    int t = lua_gettop(r.L);
    double count = 0;
    ok = read_number(&r, t, where, "count", 0, 5e7, &count);
    int spawn = ok ? open_table(&r, t, where, "spawn", &ok) : 0;
    char here[128];
    snprintf(here, sizeof here, "%s.spawn", where);
    ok = ok && spawn_group(&r, w, s, (int)count, spawn, here) && spawn_listed(&r, w, s, t, where);
    lua_settop(r.L, t - 1);
  }
  lua_pop(r.L, 2);
  return ok;
}

// ---- --set NAME=VALUE ---------------------------------------------------------------------------

static void push_set_value(lua_State *L, const char *text)
{
  char *end;
  double v = strtod(text, &end);
  if (end != text && *end == '\0') {
    lua_pushnumber(L, v);
  } else if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0) {
    lua_pushboolean(L, text[0] == 't');
  } else {
    lua_pushstring(L, text);
  }
}

// Gets (creating if needed) table t[key] and leaves it on the stack.
static void sub_table(lua_State *L, int t, const char *key)
{
  if (lua_getfield(L, t, key) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, t, key);
  }
}

// Leaves species[i] named `name` on the stack, or returns false.
static bool find_species_table(lua_State *L, int root, const char *name)
{
  if (lua_getfield(L, root, "species") == LUA_TTABLE) {
    for (int k = 1; k <= (int)lua_rawlen(L, -1); ++k) {
      lua_rawgeti(L, -1, k);
      if (lua_istable(L, -1)) {
        bool match = lua_getfield(L, -1, "name") == LUA_TSTRING && strcmp(lua_tostring(L, -1), name) == 0;
        lua_pop(L, 1);
        if (match) {
          lua_remove(L, -2);
          return true;
        }
      }
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  return false;
}

// Leaves the rules[] entry named `name` (by name = or by module) on the stack, or returns false.
static bool find_rule_table(lua_State *L, int species, const char *name)
{
  if (lua_getfield(L, species, "rules") == LUA_TTABLE) {
    for (int k = 1; k <= (int)lua_rawlen(L, -1); ++k) {
      lua_rawgeti(L, -1, k);
      if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), name) == 0) {
        lua_createtable(L, 1, 0);  // expand the shorthand so a parameter can be set on it
        lua_insert(L, -2);
        lua_rawseti(L, -2, 1);
        lua_pushvalue(L, -1);
        lua_rawseti(L, -3, k);
      }
      if (lua_istable(L, -1)) {
        int nt = lua_getfield(L, -1, "name");
        lua_rawgeti(L, -2, 1);
        int rt = lua_getfield(L, -3, "rule");
        bool match = (nt == LUA_TSTRING && strcmp(lua_tostring(L, -3), name) == 0) ||
                     (nt == LUA_TNIL && ((lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), name) == 0) ||
                                         (rt == LUA_TSTRING && strcmp(lua_tostring(L, -1), name) == 0)));
        lua_pop(L, 3);
        if (match) {
          lua_remove(L, -2);
          return true;
        }
      }
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  return false;
}

static bool apply_set(lua_State *L, int root, const char *file, const char *set, char *err, size_t errlen)
{
  char name[256];
  const char *eq = strchr(set, '=');
  if (eq == NULL || eq == set || (size_t)(eq - set) >= sizeof name) {
    snprintf(err, errlen, "--set %s: expected NAME=VALUE", set);
    return false;
  }
  snprintf(name, sizeof name, "%.*s", (int)(eq - set), set);
  char *parts[4] = {NULL, NULL, NULL, NULL};
  int n = 0;
  for (char *tok = strtok(name, "."); tok && n < 4; tok = strtok(NULL, ".")) {
    parts[n++] = tok;
  }
  int top = lua_gettop(L);
  bool ok = true;
  if (n == 2 && (strcmp(parts[0], "world") == 0 || strcmp(parts[0], "terrain") == 0)) {
    sub_table(L, root, parts[0]);
    push_set_value(L, eq + 1);
    lua_setfield(L, -2, parts[1]);
  } else if (n == 1 && strcmp(parts[0], "name") == 0) {
    push_set_value(L, eq + 1);
    lua_setfield(L, root, "name");
  } else if (n >= 2 && find_species_table(L, root, parts[0])) {
    int s = lua_gettop(L);
    bool species_key = false;
    for (int k = 0; species_keys[k] && !species_key; ++k) {
      species_key = strcmp(species_keys[k], parts[1]) == 0;
    }
    if (n == 2 && species_key) {
      push_set_value(L, eq + 1);
      lua_setfield(L, s, parts[1]);
    } else if (n == 3 && strcmp(parts[1], "vision") == 0) {
      sub_table(L, s, "vision");
      push_set_value(L, eq + 1);
      lua_setfield(L, -2, parts[2]);
    } else if (n == 3 && find_rule_table(L, s, parts[1])) {
      bool slot_key = strcmp(parts[2], "weight") == 0 || strcmp(parts[2], "force") == 0;
      if (!slot_key) {
        sub_table(L, lua_gettop(L), "params");
      }
      push_set_value(L, eq + 1);
      lua_setfield(L, -2, parts[2]);
    } else {
      ok = false;
      snprintf(err, errlen, "--set %s: species '%s' has no field or rule '%s'", set, parts[0], parts[1]);
    }
  } else {
    ok = false;
    snprintf(err, errlen, "--set %s: %s has no world field, terrain field or species named '%s'", set, file, parts[0]);
  }
  lua_settop(L, top);
  return ok;
}

bool fbScenario_ApplySets(lua_State *L, const char *file, const char *const *sets, int count, char *err,
                          size_t errlen)
{
  int root = lua_gettop(L);
  for (int k = 0; k < count; ++k) {
    if (!apply_set(L, root, file, sets[k], err, errlen)) {
      return false;
    }
  }
  return true;
}
