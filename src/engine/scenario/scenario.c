// scenario.c — reading the table a scenario script returns into an fbScenarioDef, one clear message per mistake.
#include "scenario.h"

#include <lauxlib.h>
#include <string.h>
#include <sys/stat.h>

#include "floor_plan.h"
#include "lua_host.h"
#include "lua_table.h"
#include "names.h"
#include "paths.h"
#include "scenario_flow.h"
#include "scenario_paths.h"

// ---- obstacles, goals, rule folders ----------------------------------------------------------------

// { png = "plan.png", cell = c }: the walls of a floor plan, its dark pixels (floor_plan.h), the
// path relative to the scenario as a terrain's is.
static bool read_floor_plan(fbTableReader *r, fbScenarioDef *d, int t, const char *where)
{
  lua_State *L = r->L;
  bool ok = true;
  double cell = 0;
  if (lua_getfield(L, t, "cell") != LUA_TNUMBER) {
    ok = fbTable_Fail(r, where, "cell", "expected the metres (world units) a pixel of the plan covers");
  } else {
    cell = lua_tonumber(L, -1);
  }
  lua_pop(L, 1);
  lua_getfield(L, t, "png");
  if (ok && !lua_isstring(L, -1)) {
    ok = fbTable_Fail(r, where, "png", "expected the PNG's file name");
  }
  if (ok) {
    char path[600], msg[700];
    int walls;
    fbFilePath_Resolve(d->path, lua_tostring(L, -1), path, sizeof path);
    if (!fbFloorPlan_AddWalls(&d->obstacles, path, cell, &walls, msg, sizeof msg)) {
      ok = fbTable_Fail(r, where, "png", "%s", msg);
    }
  }
  lua_pop(L, 1);
  return ok;
}

static bool read_obstacle(fbTableReader *r, fbScenarioDef *d, int t, const char *where)
{
  lua_State *L = r->L;
  fbObstacles *o = &d->obstacles;
  bool plan = false;
  lua_pushnil(L);
  while (lua_next(L, t) != 0) {
    lua_pop(L, 1);
    const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    bool known = key != NULL && (strcmp(key, "circle") == 0 || strcmp(key, "polygon") == 0 ||
                                 strcmp(key, "png") == 0 || strcmp(key, "cell") == 0);
    if (!known) {
      bool ok = fbTable_Fail(r, where, key ? key : "", "unknown field (known: circle, polygon, png with cell)");
      lua_pop(L, 1);
      return ok;
    }
    plan = plan || strcmp(key, "png") == 0 || strcmp(key, "cell") == 0;
  }
  if (plan) {
    return read_floor_plan(r, d, t, where);
  }
  char msg[256];
  bool ok = true;
  if (lua_getfield(L, t, "circle") != LUA_TNIL) {
    double c[3];
    ok = fbTable_Numbers(r, lua_gettop(L), where, "circle", c, 3);
    if (ok && fbObstacles_AddCircle(o, fbV(c[0], c[1]), c[2], msg, sizeof msg) < 0) {
      ok = fbTable_Fail(r, where, "circle", "%s", msg);
    }
    lua_pop(L, 1);
    return ok;
  }
  lua_pop(L, 1);
  if (lua_getfield(L, t, "polygon") != LUA_TTABLE) {
    lua_pop(L, 1);
    return fbTable_Fail(r, where, "", "expected { circle = {x, y, r} }, { polygon = { {x, y}, ... } } or { png = \"plan.png\", cell = c }");
  }
  int p = lua_gettop(L);
  int n = (int)lua_rawlen(L, p);
  fbVec2 v[64];
  if (n < 3 || n > 64) {
    ok = fbTable_Fail(r, where, "polygon", "expected 3 to 64 vertices, got %d", n);
  }
  for (int k = 0; ok && k < n; ++k) {
    lua_rawgeti(L, p, k + 1);
    double xy[2];
    char item[80];
    snprintf(item, sizeof item, "polygon[%d]", k + 1);
    ok = fbTable_Numbers(r, lua_gettop(L), where, item, xy, 2);
    v[k] = fbV(xy[0], xy[1]);
    lua_pop(L, 1);
  }
  if (ok && fbObstacles_AddPolygon(o, v, n, msg, sizeof msg) < 0) {
    ok = fbTable_Fail(r, where, "polygon", "%s", msg);
  }
  lua_pop(L, 1);
  return ok;
}

static bool read_obstacles(fbTableReader *r, fbScenarioDef *d, int root)
{
  bool ok = true;
  int t = fbTable_Open(r, root, "", "obstacles", &ok);
  for (int k = 1; ok && t && k <= (int)lua_rawlen(r->L, t); ++k) {
    char where[64];
    snprintf(where, sizeof where, "obstacles[%d]", k);
    if (lua_rawgeti(r->L, t, k) != LUA_TTABLE) {
      ok = fbTable_Fail(r, where, "", "expected a table");
    } else {
      ok = read_obstacle(r, d, lua_gettop(r->L), where);
    }
    lua_pop(r->L, 1);
  }
  if (t) {
    lua_pop(r->L, 1);
  }
  return ok;
}

static bool read_goals(fbTableReader *r, fbScenarioDef *d, int root)
{
  bool ok = true;
  int t = fbTable_Open(r, root, "", "goals", &ok);
  if (!t) {
    return ok;
  }
  lua_pushnil(r->L);
  while (ok && lua_next(r->L, t) != 0) {
    size_t len = 0;
    const char *name = lua_type(r->L, -2) == LUA_TSTRING ? lua_tolstring(r->L, -2, &len) : NULL;
    double xy[2];
    char why[160];
    if (name == NULL || len >= FB_NAME_LEN) {
      ok = fbTable_Fail(r, "goals", "", "keys must be names shorter than %d characters", FB_NAME_LEN);
    } else if (!fbName_CheckLine(name, len, why, sizeof why)) {  // a rule's string parameter names it
      ok = fbTable_Fail(r, "goals", "", "a goal's name %s", why);
    } else if (d->goal_count >= FB_MAX_GOALS) {
      ok = fbTable_Fail(r, "goals", name, "too many goals (at most %d)", FB_MAX_GOALS);
    } else if ((ok = fbTable_Numbers(r, lua_gettop(r->L), "goals", name, xy, 2))) {
      fbGoal *g = &d->goals[d->goal_count++];
      snprintf(g->name, sizeof g->name, "%s", name);
      g->p = fbV(xy[0], xy[1]);
    }
    lua_pop(r->L, 1);
  }
  if (!ok) {
    lua_pop(r->L, 1);  // the key lua_next left
  }
  lua_pop(r->L, 1);
  return ok;
}

// behaviours[k] names no folder: the message lists every place it was looked for.
static bool refuse_rule_dir(fbTableReader *r, const char *scenario, int k, const char *dir)
{
  char key[32];
  snprintf(key, sizeof key, "behaviours[%d]", k);
  if (dir == NULL) {
    return fbTable_Fail(r, "", key, "expected the name of a folder");
  }
  char tried[FB_PATH_CANDIDATES][PATH_MAX], list[4 * 512] = "";
  int n = fbFilePath_Candidates(scenario, dir, tried, FB_PATH_CANDIDATES);
  for (int j = 0, used = 0; j < n && used < (int)sizeof list; ++j) {
    used += snprintf(list + used, sizeof list - (size_t)used, "%s%s", j ? ", " : "", tried[j]);
  }
  return fbTable_Fail(r, "", key, "no folder '%s' (looked for %s)", dir, list);
}

// behaviours = { "folder", ... }: the scenario's own rule folders, searched before behaviours/,
// found as any path it names is (fbFilePath_Candidates: its own folder first).
static bool read_rule_dirs(fbTableReader *r, fbScenarioDef *d, int root)
{
  bool ok = true;
  int t = fbTable_Open(r, root, "", "behaviours", &ok);
  int n = t ? (int)lua_rawlen(r->L, t) : 0;
  if (n > FB_MAX_RULE_DIRS) {
    ok = fbTable_Fail(r, "", "behaviours", "at most %d folders", FB_MAX_RULE_DIRS);
  }
  for (int k = 1; ok && k <= n; ++k) {
    lua_rawgeti(r->L, t, k);
    const char *dir = lua_type(r->L, -1) == LUA_TSTRING ? lua_tostring(r->L, -1) : NULL;
    char *out = d->rule_dirs[d->rule_dir_count];
    struct stat st;
    if (dir != NULL) {
      fbFilePath_Resolve(d->path, dir, out, sizeof d->rule_dirs[0]);
    }
    if (dir == NULL || stat(out, &st) != 0 || !S_ISDIR(st.st_mode)) {
      ok = refuse_rule_dir(r, d->path, k, dir);
    } else {
      d->rule_dir_count++;
    }
    lua_pop(r->L, 1);
  }
  if (t) {
    lua_pop(r->L, 1);
  }
  return ok;
}

// ---- rules ------------------------------------------------------------------------------------------

// params = { name = value }: numbers, booleans and strings, as the module's defaults are.
static bool read_params(fbTableReader *r, fbRuleDef *rule, int t, const char *where)
{
  lua_State *L = r->L;
  bool ok = true;
  int p = fbTable_Open(r, t, where, "params", &ok);
  if (!p) {
    return ok;
  }
  lua_pushnil(L);
  while (ok && lua_next(L, p) != 0) {
    char key[FB_NAME_LEN + 16] = "params";
    fbParamDef param;
    memset(&param, 0, sizeof param);
    const char *name = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
    int type = lua_type(L, -1);
    if (name != NULL) {
      snprintf(key, sizeof key, "params.%s", name);
    }
    if (name == NULL || strlen(name) >= FB_NAME_LEN) {
      ok = fbTable_Fail(r, where, key, "keys must be names shorter than %d characters", FB_NAME_LEN);
    } else if (type == LUA_TNUMBER) {
      param.kind = lua_isinteger(L, -1) ? FB_VALUE_INTEGER : FB_VALUE_NUMBER;
      param.number = lua_tonumber(L, -1);
    } else if (type == LUA_TBOOLEAN) {
      param.kind = FB_VALUE_BOOL;
      param.number = lua_toboolean(L, -1);
    } else if (type == LUA_TSTRING) {
      size_t len = 0;
      const char *text = lua_tolstring(L, -1, &len);
      char why[160];
      param.kind = FB_VALUE_STRING;
      ok = fbName_CheckParamText(text, len, why, sizeof why) || fbTable_Fail(r, where, key, "%s", why);
      snprintf(param.text, sizeof param.text, "%s", text);
    } else {
      ok = fbTable_Fail(r, where, key, "a %s cannot be used here (numbers, booleans and strings shorter than %d "
                        "characters only)", lua_typename(L, type), FB_PARAM_TEXT);
    }
    if (ok) {
      snprintf(param.name, sizeof param.name, "%s", name);
      ok = fbRuleDef_SetParam(rule, &param) ||
           fbTable_Fail(r, where, key, "too many parameters (at most %d)", FB_MAX_PARAMS);
    }
    lua_pop(L, 1);
  }
  if (!ok) {
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return ok;
}

// One entry of a species' rules: "cohesion", or { "cohesion", name = ..., weight = ..., force = ..., params = {...} }.
static bool read_rule(fbTableReader *r, fbSpeciesDef *s, int t, const char *where)
{
  lua_State *L = r->L;
  fbRuleDef *rule = fbSpeciesDef_AddRule(s, NULL);
  bool ok = fbTable_ReadDef(r, t, where, &fbRuleSchema, rule);
  if (ok && lua_rawgeti(L, t, 1) == LUA_TSTRING) {
    const char *module = lua_tostring(L, -1);
    ok = strlen(module) < FB_NAME_LEN || fbTable_Fail(r, where, "rule", "names are at most %d characters", FB_NAME_LEN - 1);
    snprintf(rule->module, sizeof rule->module, "%s", module);
  }
  lua_pop(L, 1);
  if (ok && rule->module[0] == '\0') {
    return fbTable_Fail(r, where, "", "name the rule first: { \"cohesion\", weight = 1 }");
  }
  if (ok && !fbName_IsModule(rule->module)) {
    return fbTable_Fail(r, where, "rule", "'%s' is not a module name (letters, digits and _ only)", rule->module);
  }
  for (int k = 0; ok && k < s->rule_count - 1; ++k) {
    if (strcmp(fbRuleDef_Name(&s->rules[k]), fbRuleDef_Name(rule)) == 0) {
      return fbTable_Fail(r, where, "name", "species already has a rule named '%s' (give this one a name = \"...\")",
                          fbRuleDef_Name(rule));
    }
  }
  return ok && read_params(r, rule, t, where);
}

static bool read_rules(fbTableReader *r, fbSpeciesDef *s, int t, const char *where)
{
  lua_State *L = r->L;
  bool ok = true;
  int rules = fbTable_Open(r, t, where, "rules", &ok);
  if (!rules) {
    return ok;
  }
  int n = (int)lua_rawlen(L, rules);
  if (n > FB_MAX_RULES) {
    ok = fbTable_Fail(r, where, "rules", "too many rules (%d; at most %d)", n, FB_MAX_RULES);
  }
  for (int k = 1; ok && k <= n; ++k) {
    char here[128];
    snprintf(here, sizeof here, "%s.rules[%d]", where, k);
    int type = lua_rawgeti(L, rules, k);
    if (type == LUA_TSTRING) {  // shorthand: rules = { "cohesion", ... }
      lua_createtable(L, 1, 0);
      lua_insert(L, -2);
      lua_rawseti(L, -2, 1);
    }
    if (!lua_istable(L, -1)) {
      ok = fbTable_Fail(r, here, "", "expected { \"rule_name\", weight = ... }");
    } else {
      ok = read_rule(r, s, lua_gettop(L), here);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return ok;
}

// ---- species ----------------------------------------------------------------------------------------

// vision.sees = { "herd", ... }: names, checked against the species once all are known (fbSim_Create).
static bool read_sees(fbTableReader *r, fbSpeciesDef *s, int t, const char *where)
{
  lua_State *L = r->L;
  bool ok = true;
  if (lua_getfield(L, t, "vision") != LUA_TTABLE) {
    lua_pop(L, 1);
    return true;
  }
  int type = lua_getfield(L, -1, "sees");
  if (type == LUA_TTABLE) {
    int n = (int)lua_rawlen(L, -1);
    for (int k = 1; ok && k <= n; ++k) {
      lua_rawgeti(L, -1, k);
      const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
      char key[64];
      snprintf(key, sizeof key, "vision.sees[%d]", k);
      if (name == NULL || strlen(name) >= FB_NAME_LEN || s->vision.sees_count >= FB_MAX_SPECIES) {
        ok = fbTable_Fail(r, where, key, "expected the name of a species");
      } else {
        snprintf(s->vision.sees[s->vision.sees_count++], FB_NAME_LEN, "%s", name);
      }
      lua_pop(L, 1);
    }
  } else if (type != LUA_TNIL) {
    ok = fbTable_Fail(r, where, "vision.sees", "expected a list of species names");
  }
  lua_pop(L, 2);
  return ok;
}

// agents = { {x, y, vx, vy}, ... } places agents by hand (tests, formations).
static bool read_placed(fbTableReader *r, fbScenarioDef *d, int species, int t, const char *where)
{
  lua_State *L = r->L;
  bool ok = true;
  int list = fbTable_Open(r, t, where, "agents", &ok);
  for (int k = 1; ok && list && k <= (int)lua_rawlen(L, list); ++k) {
    char key[64];
    snprintf(key, sizeof key, "agents[%d]", k);
    lua_rawgeti(L, list, k);
    double v[4] = {0, 0, 0, 0};
    int n = lua_istable(L, -1) ? (int)lua_rawlen(L, -1) : 0;
    ok = (n == 2 || n == 4) ? fbTable_Numbers(r, lua_gettop(L), where, key, v, n)
                            : fbTable_Fail(r, where, key, "expected {x, y} or {x, y, vx, vy}");
    ok = ok && (fbScenarioDef_PlaceAgent(d, species, fbV(v[0], v[1]), fbV(v[2], v[3])) ||
                fbTable_Fail(r, where, key, "too many agents placed by hand (at most %d)", FB_MAX_PLACED));
    lua_pop(L, 1);
  }
  if (list) {
    lua_pop(L, 1);
  }
  return ok;
}

static bool read_species_entry(fbTableReader *r, fbScenarioDef *d, int t, const char *where)
{
  fbSpeciesDef *s = &d->species[d->species_count];
  *s = fbDefaultSpeciesDef();
  bool ok = fbTable_ReadDef(r, t, where, &fbSpeciesSchema, s);
  if (ok && s->name[0] == '\0') {
    ok = fbTable_Fail(r, where, "name", "every species needs a name");
  }
  if (ok && fbScenarioDef_FindSpecies(d, s->name) != NULL) {
    ok = fbTable_Fail(r, where, "name", "two species are named '%s'", s->name);
  }
  ok = ok && read_sees(r, s, t, where) && read_rules(r, s, t, where);
  if (ok) {
    d->species_count++;  // before its agents placed by hand, which name it by its index
  }
  return ok && read_placed(r, d, d->species_count - 1, t, where);
}

static bool read_species(fbTableReader *r, fbScenarioDef *d, int root)
{
  bool ok = true;
  int t = fbTable_Open(r, root, "", "species", &ok);
  if (!t) {
    return ok ? fbTable_Fail(r, "", "species", "a scenario needs at least one species") : false;
  }
  int n = (int)lua_rawlen(r->L, t);
  if (n < 1 || n > FB_MAX_SPECIES) {
    ok = fbTable_Fail(r, "", "species", "expected a list of 1 to %d species, got %d", FB_MAX_SPECIES, n);
  }
  for (int k = 1; ok && k <= n; ++k) {
    char where[96];
    snprintf(where, sizeof where, "species[%d]", k);
    if (lua_rawgeti(r->L, t, k) != LUA_TTABLE) {
      ok = fbTable_Fail(r, where, "", "expected a table");
    } else {
      ok = read_species_entry(r, d, lua_gettop(r->L), where);
    }
    lua_pop(r->L, 1);
  }
  lua_pop(r->L, 1);
  return ok;
}

// ---- the whole table ------------------------------------------------------------------------------

// terrain = "terrains/x.png" is short for terrain = { png = "terrains/x.png" }; an empty terrain
// table says nothing about the ground, which is refused.
static bool read_terrain_shorthand(fbTableReader *r, int root, bool *given)
{
  lua_State *L = r->L;
  int type = lua_getfield(L, root, "terrain");
  *given = type != LUA_TNIL;
  if (type == LUA_TSTRING) {
    lua_newtable(L);
    lua_insert(L, -2);
    lua_setfield(L, -2, "png");
    lua_setfield(L, root, "terrain");
    return true;
  }
  lua_pop(L, 1);
  return type == LUA_TNIL || type == LUA_TTABLE || fbTable_Fail(r, "", "terrain", "expected a table or a PNG path");
}

// The scenario's table is at index 1 (fbLuaHost_ProtectWith).
static bool read_protected(lua_State *L, void *ud, char *err, size_t errlen)
{
  fbScenarioDef *d = ud;
  fbTableReader reader = {L, d->path, err, errlen}, *r = &reader;
  int root = 1;
  bool terrain = false;
  bool ok = read_terrain_shorthand(r, root, &terrain) && fbTable_ReadDef(r, root, "", &fbScenarioSchema, d);
  if (ok && terrain && d->world.terrain.png[0] == '\0' && d->world.terrain.generate < 0) {
    ok = fbTable_Fail(r, "terrain", "", "give png = \"terrains/NAME.png\" or generate = SEED");
  }
  return ok && read_obstacles(r, d, root) && read_goals(r, d, root) && fbScenario_ReadPaths(r, d, root) &&
         fbScenario_ReadFlows(r, d, root) && fbScenario_ReadRegions(r, d, root) && read_rule_dirs(r, d, root) &&
         read_species(r, d, root);
}

/*
 * The comment a scenario file opens with, as a scenario's default description: every line from
 * the top that starts with "--", without the dashes and the one space after them, up to the first
 * line that does not (blank lines end it too). Text that does not fit in len is cut at a line.
 */
void fbScenario_HeaderComment(const char *path, char *out, size_t len)
{
  out[0] = '\0';
  char why[128];
  FILE *f = fbFilePath_OpenRegular(path, FB_MAX_SCRIPT_BYTES, NULL, why, sizeof why);
  if (f == NULL) {
    return;
  }
  char line[1024];
  size_t used = 0;
  while (fgets(line, sizeof line, f) != NULL && strncmp(line, "--", 2) == 0) {
    const char *text = line + 2 + (line[2] == ' ');
    size_t n = strlen(text);
    if (used + n + 1 > len) {
      break;
    }
    memcpy(out + used, text, n + 1);
    used += n;
  }
  fclose(f);
  while (used > 0 && out[used - 1] == '\n') {
    out[--used] = '\0';
  }
}

bool fbScenario_Read(lua_State *L, int root, const char *path, fbScenarioDef *d, char *err, size_t errlen)
{
  snprintf(d->path, sizeof d->path, "%s", path);
  root = lua_absindex(L, root);
  if (!lua_istable(L, root)) {
    snprintf(err, errlen, "%s: must return a table (the scenario), got %s", path, luaL_typename(L, root));
    return false;
  }
  // Metamethods of the scenario's tables run while it is read (under the time limit: one may
  // loop): an error in one is the scenario's error, reported with its file, never a crash.
  char about[600];
  snprintf(about, sizeof about, "%s: while reading the scenario", path);
  lua_pushvalue(L, root);
  return fbLuaHost_ProtectWith(fbLuaHost_Of(L), 1, about, read_protected, d, err, errlen);
}
