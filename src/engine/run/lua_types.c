// lua_types.c — the editor's view of the Lua API: LuaLS type definitions and luacheck's globals, written from the engine's own tables and sandboxes.
#include "lua_types.h"

#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

#include "agent_view.h"
#include "fb_api.h"
#include "hooks.h"
#include "rule_module.h"
#include "rules.h"
#include "sandbox.h"
#include "scenario_api.h"
#include "scenario_types.h"

/*
 * Nothing here is a second list of the API. The functions come from the tables the engine sets
 * them up from (fbRuleApi_ViewMethods; fbFbApi_Functions, fb's in rules and scenarios), the fields
 * from the tables it pushes them from (view keys, species, fb.world, a hook's record), the steering
 * library from the library itself (its table, each function's parameter names, and the comment
 * above it in steering.lua), and luacheck's globals from the environment a rule, a scenario and
 * an experiment really get. A test (tests/cli_lua_types.sh) compares the files in types/ with
 * what this writes, so they cannot drift from the engine.
 *
 * A scenario file's table comes from the schema's field tables (scenario_types.c). The shapes
 * of the files a user writes (a rule's params, fields, steer and validate; a scenario's hooks)
 * are the one part written here: the engine reads those keys one by one where
 * it uses them (rules.c, params.c, hooks.c) and keeps no table of them.
 */

#define LUA_MEMORY ((size_t)64 << 20)
#define LUA_TIMEOUT_MS 2000

// "name type, name? type" -> one ---@param (or ---@return, types first) line per entry.
static void write_list(FILE *out, const char *list, bool returns)
{
  char entry[256];
  for (const char *p = list; p != NULL && *p != '\0';) {
    size_t n = strcspn(p, ",");
    snprintf(entry, sizeof entry, "%.*s", (int)n, p);
    char *space = strchr(entry, ' ');
    if (space != NULL) {
      *space = '\0';
      if (returns) {
        fprintf(out, "---@return %s %s\n", space + 1, entry);
      } else {
        fprintf(out, "---@param %s %s\n", entry, space + 1);
      }
    }
    p += n;
    p += strspn(p, ", ");
  }
}

// "k integer, name? string" -> "k, name": the names of a parameter list.
static void write_names(FILE *out, const char *list)
{
  bool first = true;
  for (const char *p = list; *p != '\0';) {
    size_t n = strcspn(p, " ?,");
    fprintf(out, "%s%.*s", first ? "" : ", ", (int)n, p);
    first = false;
    p += strcspn(p, ",");
    p += strspn(p, ", ");
  }
}

// One function of a C table as owner.name (or owner:name for a method); where says where it exists.
static void write_function(FILE *out, const char *owner, char sep, const fbApiFunction *f, const char *where)
{
  fprintf(out, "\n---%s%s\n", f->help, where);
  if (strncmp(f->help, "the older", 9) == 0) {
    fputs("---@deprecated\n", out);
  }
  write_list(out, f->params, false);
  write_list(out, f->returns, true);
  fprintf(out, "function %s%c%s(", owner, sep, f->name);
  write_names(out, f->params);
  fputs(") end\n", out);
}

static void write_fields(FILE *out, const fbApiField *fields)
{
  for (const fbApiField *f = fields; f->name != NULL; ++f) {
    fprintf(out, "---@field %s %s %s\n", f->name, f->type, f->help);
  }
}

// The fb of a rule or of a scenario: the table's functions offered there, each saying whether the
// other state has one of that name too.
static void write_fb(FILE *out, const char *class, const char *about, fbFbStates state, fbFbStates other,
                     const char *other_name)
{
  fprintf(out, "\n---%s\n---@class %s\n---@field world fbWorld the world's size, bounds and step (read only)\n", about,
          class);
  fprintf(out, "local %s = {}\n", class);
  char also[128], not_in[128];
  snprintf(also, sizeof also, " (also %s)", other_name);
  snprintf(not_in, sizeof not_in, " (not %s)", other_name);
  for (const fbFbFunction *f = fbFbApi_Functions; f->name != NULL; ++f) {
    if (f->offered & state) {
      fbApiFunction api = {f->name, f->func, f->params, f->returns, f->help};
      write_function(out, class, '.', &api, fbFbApi_Offers(other, f->name) ? also : not_in);
    }
  }
}

// ---- the steering library ---------------------------------------------------------------------

typedef struct Source {
  char *text;
  char **line;  // line[k - 1]: line k, without its newline
  int count;
} Source;

static bool read_source(const char *path, Source *src, char *err, size_t errlen)
{
  size_t len = 0;
  src->text = fbSandbox_ReadFile(path, &len, err, errlen);
  if (src->text == NULL) {
    return false;
  }
  src->count = 0;
  src->line = malloc(sizeof *src->line * (len + 1));
  FB_ASSERT(src->line != NULL);
  for (char *p = src->text; *p != '\0' || p == src->text;) {
    src->line[src->count++] = p;
    char *nl = strchr(p, '\n');
    if (nl == NULL) {
      break;
    }
    *nl = '\0';
    p = nl + 1;
  }
  return true;
}

static bool is_comment(const char *line)
{
  line += strspn(line, " \t");
  return strncmp(line, "--", 2) == 0;
}

static int by_string(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

// The keys of the table at idx that are strings, sorted (the caller frees the array, not the keys,
// which stay valid while the table is on the stack).
static int sorted_keys(lua_State *L, int idx, const char ***out)
{
  idx = lua_absindex(L, idx);
  int n = 0, cap = 16;
  const char **keys = malloc(sizeof *keys * (size_t)cap);
  FB_ASSERT(keys != NULL);
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING) {
      if (n == cap) {
        cap *= 2;
        keys = realloc(keys, sizeof *keys * (size_t)cap);
        FB_ASSERT(keys != NULL);
      }
      keys[n++] = lua_tostring(L, -1);
    }
  }
  qsort(keys, (size_t)n, sizeof *keys, by_string);
  *out = keys;
  return n;
}

// The LuaLS type of a steering function's parameter not annotated in steering.lua: the agent view
// and the species table go by the names every rule gives them; everything else is a number.
static const char *param_type(const char *name)
{
  return strcmp(name, "a") == 0 ? "fbAgentView" : strcmp(name, "s") == 0 ? "fbSpecies" : "number";
}

// The function steering.<name> (on top of the stack), from its comment block in steering.lua:
// "--" lines become its description, "---@" lines are kept as they are, and every parameter the
// block does not annotate gets its type by name. A function with no ---@return is refused: what
// it returns is what an editor most needs to show.
static bool write_steering_function(FILE *out, lua_State *L, const char *name, const Source *src, const char *path,
                                    char *err, size_t errlen)
{
  lua_Debug ar;
  lua_pushvalue(L, -1);
  lua_getinfo(L, ">Su", &ar);
  int first = ar.linedefined - 1;  // 0-based index of the line above the definition, going up
  int top = first;
  while (top > 0 && is_comment(src->line[top - 1])) {
    --top;
  }
  bool returns = false;
  fputc('\n', out);
  for (int k = top; k < first; ++k) {
    const char *line = src->line[k] + strspn(src->line[k], " \t");
    if (strncmp(line, "---@", 4) == 0) {
      returns |= strncmp(line, "---@return", 10) == 0;
      fprintf(out, "%s\n", line);
    } else {
      fprintf(out, "---%s\n", line + 2);
    }
  }
  if (!returns) {
    snprintf(err, errlen, "%s:%d: steering.%s has no ---@return line above it (the editor's types need one)", path,
             ar.linedefined, name);
    return false;
  }
  for (int p = 1; p <= ar.nparams; ++p) {
    lua_pushvalue(L, -1);
    const char *param = lua_getlocal(L, NULL, p);
    bool annotated = false;
    char tag[128];
    snprintf(tag, sizeof tag, "---@param %s", param);
    for (int k = top; k < first; ++k) {
      const char *line = src->line[k] + strspn(src->line[k], " \t");
      size_t n = strlen(tag);
      annotated |= strncmp(line, tag, n) == 0 && (line[n] == ' ' || line[n] == '?');
    }
    if (!annotated) {
      fprintf(out, "---@param %s %s\n", param, param_type(param));
    }
    lua_pop(L, 1);
  }
  fprintf(out, "function steering.%s(", name);
  for (int p = 1; p <= ar.nparams; ++p) {
    lua_pushvalue(L, -1);
    fprintf(out, "%s%s", p > 1 ? ", " : "", lua_getlocal(L, NULL, p));
    lua_pop(L, 1);
  }
  fputs(") end\n", out);
  return true;
}

static bool open_rules(fbRuleRunner *r, const fbWorld *w, const char *steering, char *err, size_t errlen)
{
  if (!fbRules_Open(r, LUA_MEMORY, LUA_TIMEOUT_MS, w, "")) {
    snprintf(err, errlen, "cannot create a Lua state");
    return false;
  }
  if (!fbRuleModule_LoadLibrary(r, steering, err, errlen)) {
    fbRules_Close(r);
    return false;
  }
  return true;
}

static bool write_steering(FILE *out, const char *steering, char *err, size_t errlen)
{
  fbWorld *w = calloc(1, sizeof *w);  // large: not on the stack; only fb.world's numbers are read, all 0
  fbRuleRunner *r = calloc(1, sizeof *r);
  FB_ASSERT(w != NULL && r != NULL);
  Source src = {NULL, NULL, 0};
  bool ok = open_rules(r, w, steering, err, errlen) && read_source(steering, &src, err, errlen);
  if (ok) {
    lua_State *L = r->host.L;
    fputs("\n---The steering library every rule gets as `steering` (behaviours/lib/steering.lua): vectors go in\n"
          "---and come out as separate numbers, never tables.\n---@class fbSteering\nsteering = {}\n",
          out);
    lua_getglobal(L, "steering");
    const char **names;
    int n = sorted_keys(L, -1, &names);
    for (int k = 0; ok && k < n; ++k) {
      if (lua_getfield(L, -1, names[k]) == LUA_TFUNCTION) {
        ok = write_steering_function(out, L, names[k], &src, steering, err, errlen);
      }
      lua_pop(L, 1);
    }
    free(names);
    fbRules_Close(r);
  }
  free(src.line);
  free(src.text);
  free(r);
  free(w);
  return ok;
}

// ---- the whole file ----------------------------------------------------------------------------

static void write_view(FILE *out)
{
  fputs("\n---The agent view `a`, a rule's first argument: the agent's own values as fields (read by name:\n"
        "---the view is filled lazily), declared per-agent fields by their names, and its queries as methods.\n"
        "---Queries answer the offset (dx, dy) from the agent first, then the distance, then the rest.\n"
        "---@class fbAgentView\n",
        out);
  for (int k = 0; k < FB_VIEW_KEYS; ++k) {
    fbApiField f = fbAgentViews_Key(k);
    fprintf(out, "---@field %s %s %s\n", f.name, f.type, f.help);
  }
  fputs("---@field [string] number a declared per-agent field (fields = { name = 0 }), as at the start of the step\n"
        "local fbAgentView = {}\n",
        out);
  for (const fbApiFunction *f = fbRuleApi_ViewMethods; f->name != NULL; ++f) {
    write_function(out, "fbAgentView", ':', f, "");
  }
}

static const char *const shapes =
    "\n---A declared parameter: { default, min = .., max = .., help = \"..\", circle = true } (docs/writing-rules.md)\n"
    "---@class fbParamDecl\n"
    "---@field [1] number|string|boolean the default\n"
    "---@field min? number the lowest value a scenario, --set, a hook or the panel may give\n"
    "---@field max? number the highest\n"
    "---@field help? string one line: what it is, in which units\n"
    "---@field circle? boolean a distance from the agent, drawn round the selected agent\n"
    "---@field integer? boolean a count: a fraction is refused, the rule gets a Lua integer\n"
    "\n---What a rule file returns (rules.c, params.c read these keys).\n"
    "---@class fbRule\n"
    "---@field params? table<string, number|string|boolean|fbParamDecl> the rule's parameters and defaults\n"
    "---@field fields? table<string, number> per-agent fields and their initial values\n"
    "---@field steer fun(a: fbAgentView, p: table<string, any>, s: fbSpecies): number, number the acceleration, "
    "units/s^2\n"
    "---@field validate? fun(p: table<string, any>, s: fbSpecies): string?, string? nil, or a parameter name and a "
    "message\n"
    "\n---A scenario's functions (hooks.c reads these keys; the world's description: docs/scenarios.md).\n"
    "---@class fbScenarioHooks\n"
    "---@field on_step? fun(step: integer) after each step\n"
    "---@field on_key? fun(key: string) a key pressed in the window\n"
    "---@field metrics? { [1]: string, [2]: fun(): number }[] extra CSV columns\n";

bool fbLuaTypes_Write(FILE *out, const char *steering, char *err, size_t errlen)
{
  fputs("---@meta flockbox\n"
        "-- types/flockbox.lua — what flockbox's rules and scenarios see, for lua-language-server: written by\n"
        "-- `flockbox --lua-types` from the engine's tables (do not edit; tests/cli_lua_types.sh checks it).\n",
        out);
  write_view(out);
  fputs("\n---The species table `s`, a rule's third argument (s.dt, s.width, s.height, s.wraps: older spellings\n"
        "---of fb.world's).\n---@class fbSpecies\n",
        out);
  write_fields(out, fbRuleModule_SpeciesFields);
  fputs("\n---fb.world, the same in rules and scenarios (fb.world() is the older spelling: width, height, wraps).\n"
        "---@class fbWorld\n",
        out);
  write_fields(out, fbRuleApi_WorldFields);
  fputs("\n---One agent as a scenario's function sees it (fb.agents, fb.find): a snapshot; declared fields by name.\n"
        "---@class fbAgentRecord\n",
        out);
  write_fields(out, fbScenarioApi_RecordFields);
  fputs("---@field [string] number a declared per-agent field\n", out);
  write_fb(out, "fbRuleFb", "The `fb` of a rule.", FB_IN_RULES, FB_IN_SCENARIOS, "in scenarios");
  write_fb(out, "fbHookFb", "The `fb` of a scenario's functions (on_step, on_key, metrics).", FB_IN_SCENARIOS,
           FB_IN_RULES, "in rules");
  fputs("\n---In a rule: fbRuleFb; in a scenario's functions: fbHookFb. Each function says where it exists.\n"
        "---@type fbRuleFb|fbHookFb\nfb = {}\n",
        out);
  fputs(shapes, out);
  fbScenarioTypes_Write(out);
  return write_steering(out, steering, err, errlen);
}

// ---- luacheck's globals -------------------------------------------------------------------------

/*
 * The globals of a module environment (on top of the stack) as a luacheck std: every global read
 * only, a table with its fields (and theirs, one level down: fb.world). Fields a rule state
 * refuses (math.random) are left out, so luacheck flags them as it flags os or io: not there.
 */
static void write_std_table(FILE *out, lua_State *L, int depth, const char *path, bool refuse_random)
{
  const char **names;
  int n = sorted_keys(L, -1, &names);
  for (int k = 0; k < n; ++k) {
    char inner[128];
    snprintf(inner, sizeof inner, "%s%s%s", path, path[0] ? "." : "", names[k]);
    bool refused = false;
    for (int r = 0; refuse_random && fbRules_RefusedMath[r] != NULL && strcmp(path, "math") == 0; ++r) {
      refused |= strcmp(names[k], fbRules_RefusedMath[r]) == 0;
    }
    int type = lua_getfield(L, -1, names[k]);
    if (!refused) {
      fprintf(out, "%*s%s = {", 6 + 2 * depth, "", names[k]);
      if (strcmp(inner, "_G") == 0) {
        fputs(" other_fields = true },\n", out);  // the environment itself: any global
      } else if (type == LUA_TTABLE && depth < 2) {
        fputs(" fields = {\n", out);
        write_std_table(out, L, depth + 1, inner, refuse_random);
        fprintf(out, "%*s} },\n", 6 + 2 * depth, "");
      } else {
        fputs("},\n", out);
      }
    }
    lua_pop(L, 1);
  }
  free(names);
}

static void write_std(FILE *out, lua_State *L, const char *name, const char *about, bool refuse_random)
{
  fprintf(out, "  -- %s\n  %s = {\n    read_globals = {\n", about, name);
  fbSandbox_PushEnv(L, "", "");
  write_std_table(out, L, 0, "", refuse_random);
  lua_pop(L, 1);
  fputs("    },\n  },\n", out);
}

bool fbLuaTypes_WriteLuacheck(FILE *out, const char *steering, char *err, size_t errlen)
{
  fbWorld *w = calloc(1, sizeof *w);  // large: not on the stack; only the names of fb.world's fields are read
  fbRuleRunner *r = calloc(1, sizeof *r);
  fbHooks *h = calloc(1, sizeof *h);
  FB_ASSERT(w != NULL && r != NULL && h != NULL);
  bool ok = open_rules(r, w, steering, err, errlen);
  if (ok && !fbHooks_Open(h, (fbHookTarget){w, NULL, NULL}, LUA_MEMORY, LUA_TIMEOUT_MS, 1)) {
    snprintf(err, errlen, "cannot create a Lua state");
    fbRules_Close(r);
    ok = false;
  }
  if (ok) {
    fbScenarioApi_OpenFb(h);
  }
  fbLuaHost bare;
  if (ok && !fbLuaHost_Create(&bare, LUA_MEMORY, LUA_TIMEOUT_MS)) {
    snprintf(err, errlen, "cannot create a Lua state");
    fbRules_Close(r);
    fbHooks_Close(h);
    ok = false;
  }
  if (ok) {
    fbScenarioApi_SetWorld(h, w);
    fputs("-- types/luacheck_std.lua — the globals flockbox's sandboxes give a rule, a scenario and an experiment\n"
          "-- file, for luacheck (.luacheckrc reads it): written by `flockbox --luacheck-std` from the environments\n"
          "-- the engine makes (do not edit; tests/cli_lua_types.sh checks it).\n"
          "return {\n",
          out);
    write_std(out, r->host.L, "rule", "a rule or a helper module it requires (behaviours/)", true);
    write_std(out, h->host.L, "scenario", "a scenario and its functions (scripts/)", false);
    write_std(out, bare.L, "experiment", "a sweep's experiment file (experiments/): data, no fb", false);
    fputs("}\n", out);
    fbRules_Close(r);
    fbHooks_Close(h);
    fbLuaHost_Destroy(&bare);
  }
  free(r);
  free(h);
  free(w);
  return ok;
}
