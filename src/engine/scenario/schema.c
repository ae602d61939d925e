// schema.c — the field tables of scenarios, species and rule slots, and checked writes into their defs.
#include "schema.h"

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "names.h"

// ---- the tables -----------------------------------------------------------------------------------

static const fbChoices BOUNDS = {(const fbChoice[]){{"wrap", FB_BOUNDS_WRAP}, {"clamp", FB_BOUNDS_CLAMP}, {NULL, 0}}, NULL};
static const fbChoices UPDATES = {
    (const fbChoice[]){{"euler", FB_UPDATE_EULER}, {"semi_implicit", FB_UPDATE_SEMI_IMPLICIT}, {NULL, 0}}, NULL};
static const fbChoices DRAGS = {
    (const fbChoice[]){{"exact", FB_DRAG_EXACT}, {"gompert", FB_DRAG_GOMPERT}, {NULL, 0}}, NULL};
static const fbChoices SAMPLINGS = {
    (const fbChoice[]){{"exact", FB_SAMPLING_EXACT}, {"gamlen", FB_SAMPLING_GAMLEN}, {NULL, 0}}, NULL};
static const fbChoices COMBINERS = {NULL, fbAccum_Choice};  // the table in accumulate.c

#define SC(field) offsetof(fbScenarioDef, field)
#define SP(field) offsetof(fbSpeciesDef, field)
#define RU(field) offsetof(fbRuleDef, field)
#define PA(field) offsetof(fbPathDef, field)
#define FL(field) offsetof(fbFlowDef, field)
#define FIELDS(table) table, (int)(sizeof table / sizeof table[0])

static const fbField scenario_fields[] = {
    {"name", FB_FIELD_TEXT, SC(name), sizeof(((fbScenarioDef *)0)->name), 0, 0, NULL, false, "shown in the window's title and the summary"},
    {"view", FB_FIELD_LIST, SC(view), 3, 0, 1e7, NULL, false, "x, y, width: the part of the world the window shows first (default the whole world)"},
    {"description", FB_FIELD_TEXT, SC(description), FB_DESCRIPTION_LEN, 0, 0, NULL, false, "what it shows, in the window's About tab (default: the file's header comment)"},
    {"world.width", FB_FIELD_NUMBER, SC(world.width), 0, 1e-3, 1e7, NULL, false, "world units"},
    {"world.height", FB_FIELD_NUMBER, SC(world.height), 0, 1e-3, 1e7, NULL, false, "world units"},
    {"world.dt", FB_FIELD_NUMBER, SC(world.dt), 0, 1e-5, 1.0, NULL, false, "seconds per step"},
    {"world.bounds", FB_FIELD_CHOICE, SC(world.bounds), 0, 0, 0, &BOUNDS, false, "wrap (a torus) or clamp (walls)"},
    {"world.update", FB_FIELD_CHOICE, SC(world.update), 0, 0, 0, &UPDATES, false, "euler: move by the old velocity (Gompert); semi_implicit: by the new one (Parker)"},
    {"world.collision_iterations", FB_FIELD_INT, SC(world.collision_iterations), 0, 1, 64, NULL, false, "passes per step pushing overlapping bodies apart"},
    {"terrain.png", FB_FIELD_TEXT, SC(world.terrain.png), sizeof(((fbTerrainDef *)0)->png), 0, 0, NULL, false, "greyscale heightfield, 8 or 16 bits"},
    {"terrain.height", FB_FIELD_NUMBER, SC(world.terrain.height), 0, 0, 1e6, NULL, false, "world units: the height of white"},
    {"terrain.generate", FB_FIELD_NUMBER, SC(world.terrain.generate), 0, 0, 9.0e15, NULL, true, "seed of smooth random hills"},
    {"terrain.feature", FB_FIELD_NUMBER, SC(world.terrain.feature), 0, 0, 1e7, NULL, false, "world units across a generated hill"},
    {"terrain.samples", FB_FIELD_INT, SC(world.terrain.samples), 0, 2, FB_TERRAIN_MAX_SIDE, NULL, false, "generated samples per side"},
    {"obstacles", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "{ circle = {x, y, r} }, { polygon = { {x, y}, ... } } or { png = \"plan.png\", cell = c }: a floor plan's dark pixels"},
    {"goals", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "name = {x, y}"},
    {"paths", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "{ { name = ..., points = { {x, y}, ... }, closed = ..., speed = ..., start = ... }, ... }"},
    {"flow_fields", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "NAME = { png = ..., speed = ... } or { fn = function(x, y) return vx, vy end, cell = ... }"},
    {"regions", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "NAME = { {x, y}, ... }: a polygon, convex or not"},
    {"behaviours", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "the scenario's own rule folders"},
    {"species", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "a list of species"},
    {"on_step", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "function(step) after each step"},
    {"on_key", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "function(key) for keys the window does not use"},
    {"metrics", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "{ {\"column\", function() return number end}, ... }"},
};

/*
 * A species' fields in blocks, one per option group of fbSpeciesDef (flockbox.h). Each block says
 * where the running species (fbSpecies, world.h) holds the group and which function of defs.c
 * derives values from it: fbSpeciesDef_Build calls that function, so a new option is a field in
 * its group, a row in its block, a default in fbDefaultSpeciesDef (unless zero) and its consumer,
 * which reads it where the block says (docs/extending.md, "A species option").
 */
static const fbField species_fields[] = {
    // Who, and where it starts: read from the description by spawn.c; nothing runs from them.
    {"name", FB_FIELD_TEXT, SP(name), FB_NAME_LEN, 0, 0, NULL, false, "how rules, --set and hooks name it"},
    {"count", FB_FIELD_INT, SP(count), 0, 0, FB_MAX_AGENTS, NULL, false, "agents spawned at the start"},
    {"spawn.area", FB_FIELD_LIST, SP(spawn.area), 4, -1e7, 1e7, NULL, false, "x0, y0, x1, y1 (default: the world)"},
    {"spawn.around", FB_FIELD_LIST, SP(spawn.around), 3, -1e7, 1e7, NULL, false, "x, y, r: a disc instead of the area"},
    {"spawn.speed", FB_FIELD_RANGE, SP(spawn.speed), 0, 0, 1e7, NULL, true, "units/s, or {min, max} (default 0 to the cruising speed)"},
    {"spawn.heading", FB_FIELD_NUMBER, SP(spawn.heading), 0, -1e6, 1e6, NULL, false, "degrees, 0 = +x, 90 = +y (default random)"},
    {"agents", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "agents placed by hand: { {x, y, vx, vy}, ... }"},
    // Motion: fbSpecies.limits, derived by motion_limits (defs.c), the limits integrate.c moves a body
    // within (cruise_speed and body_length beside them).
    {"body_length", FB_FIELD_NUMBER, SP(body_length), 0, 1e-6, 1e6, NULL, false, "world units"},
    {"max_speed", FB_FIELD_NUMBER, SP(max_speed), 0, 1e-9, 1e7, NULL, false, "units/s"},
    {"min_speed", FB_FIELD_NUMBER, SP(min_speed), 0, 0, 1e7, NULL, false, "units/s"},
    {"cruise_speed", FB_FIELD_NUMBER, SP(cruise_speed), 0, 0, 1e7, NULL, true, "units/s (default 0.7 max_speed)"},
    {"max_accel", FB_FIELD_NUMBER, SP(max_accel), 0, 1e-9, 1e9, NULL, true, "units/s^2 (default 2 max_speed)"},
    {"max_turn", FB_FIELD_NUMBER, SP(max_turn), 0, 0, 1e9, NULL, true, "degrees per second (default unlimited)"},
    {"drag", FB_FIELD_CHOICE, SP(drag), 0, 0, 0, &DRAGS, false, "how its drag = true rules act: exact (solved over the step, the same at any dt) or gompert (his appendix: explicit, summed between steering updates; depends on dt)"},
    {"half_accel", FB_FIELD_BOOL, SP(half_accel), 0, 0, 0, NULL, false, "add 1/2 a dt^2 to the position"},
    {"slope_correction", FB_FIELD_BOOL, SP(slope_correction), 0, 0, 0, NULL, false, "move by v / sqrt(s^2 + 1) on slopes"},
    // Vision (fbVisionDef): in fbSpecies.vision.def whole; what perception tests (the cosine of half the
    // view, the separation radius) derived by vision_of (defs.c); vision.sees resolved by build.c.
    {"vision.radius", FB_FIELD_NUMBER, SP(vision.radius), 0, 0, 1e7, NULL, false, "world units"},
    {"vision.fov", FB_FIELD_NUMBER, SP(vision.fov), 0, 0, 360, NULL, false, "degrees, the full angle of view"},
    {"vision.separation", FB_FIELD_NUMBER, SP(vision.separation), 0, 0, 1e7, NULL, true, "comfort radius, world units (default 2 body lengths)"},
    {"vision.sees", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "species counted as flock-mates (default its own)"},
    {"vision.sample", FB_FIELD_INT, SP(vision.sample), 0, 0, 1e6, NULL, false, "flock-mates beyond the separation radius perceived, drawn at random each step; the closer ones always (Gamlen; 0: all)"},
    {"vision.sampling", FB_FIELD_CHOICE, SP(vision.sampling), 0, 0, 0, &SAMPLINGS, false, "how vision.sample draws: exact (k of those in view, uniformly; tests every candidate first) or gamlen (his Monte Carlo: k looks at flock-mates within the radius along each axis, those in view perceived: work that does not grow with the density, fewer perceived)"},
    // Steering, the body and drawing: each copied as it is into fbSpecies by fbSpeciesDef_Build.
    {"accumulator", FB_FIELD_CHOICE, SP(accumulator), 0, 0, 0, &COMBINERS, false, "how its rules combine (docs/rules.md, Combiners)"},
    {"update_every", FB_FIELD_INT, SP(update_every), 0, 1, 1000, NULL, false, "steps between steering updates (Gompert 8.2)"},
    {"player", FB_FIELD_BOOL, SP(player), 0, 0, 0, NULL, false, "driven by the arrow keys"},
    {"collide", FB_FIELD_BOOL, SP(collide), 0, 0, 0, NULL, false, "a solid body of radius body_length / 2, pushed apart from others (Gompert 8.1)"},
    {"draw_size", FB_FIELD_NUMBER, SP(draw_size), 0, 3, 64, NULL, false, "the smallest length the window draws an agent at, pixels (default 9: a predator may ask for more)"},
    {"colour", FB_FIELD_LIST, SP(colour), 3, 0, 255, NULL, false, "red, green, blue"},
    // ORCA (fbOrcaDef): in fbSpecies.orca whole, read by orca_stage.c; nothing derived.
    {"orca", FB_FIELD_BOOL, SP(orca.on), 0, 0, 0, NULL, false, "true (or a table of the orca fields): ORCA reciprocal collision avoidance after the rules (docs/steering-orca.md)"},
    {"orca.time_horizon", FB_FIELD_NUMBER, SP(orca.time_horizon), 0, 1e-3, 1e4, NULL, false, "seconds: collisions with agents avoided this far ahead (tau)"},
    {"orca.obstacle_horizon", FB_FIELD_NUMBER, SP(orca.obstacle_horizon), 0, 1e-3, 1e4, NULL, false, "seconds: collisions with obstacles avoided this far ahead (tau_o)"},
    {"orca.neighbours", FB_FIELD_INT, SP(orca.neighbours), 0, 0, 64, NULL, false, "the nearest agents avoided"},
    {"orca.distance", FB_FIELD_NUMBER, SP(orca.distance), 0, 0, 1e6, NULL, false, "world units: agents farther than this are not avoided"},
    {"orca.keep_right", FB_FIELD_NUMBER, SP(orca.keep_right), 0, -90, 90, NULL, false, "degrees: an agent that must give way aims this far to the right of its preferred velocity (negative: left; 0: the paper's), which breaks symmetric jams"},
    {"orca.layers", FB_FIELD_INT, SP(orca.layers), 0, 0, 2147483647, NULL, false, "bit set: the avoidance layers it is on (Godot's avoidance_layers; default 1)"},
    {"orca.mask", FB_FIELD_INT, SP(orca.mask), 0, 0, 2147483647, NULL, false, "bit set: it avoids an agent only if this meets that agent's layers (Godot's avoidance_mask; default 1)"},
    {"orca.priority", FB_FIELD_NUMBER, SP(orca.priority), 0, -1e6, 1e6, NULL, false, "against an agent of lower priority it takes no share of the avoidance and the other all of it (default 0: half each)"},
    {"orca.standing_speed", FB_FIELD_NUMBER, SP(orca.standing_speed), 0, 0, 1e6, NULL, false, "units/s: an agent slower than this stands (at its goal) and yields to every moving one, whatever the priorities (0: off)"},
    {"orca.patience", FB_FIELD_NUMBER, SP(orca.patience), 0, 0, 1e6, NULL, false, "seconds: an agent blocked (under half its preferred velocity made good) this long waits, then tries again (0: never)"},
    {"rules", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "{ \"rule\", weight = 1, params = {...} }, ..."},
};

static const fbField rule_fields[] = {
    {"rule", FB_FIELD_TEXT, RU(module), FB_NAME_LEN, 0, 0, NULL, false, "the module, behaviours/<rule>.lua"},
    {"name", FB_FIELD_TEXT, RU(name), FB_NAME_LEN, 0, 0, NULL, false, "how --set and hooks name it (default: the module)"},
    {"weight", FB_FIELD_NUMBER, RU(weight), 0, -1e9, 1e9, NULL, false, "multiplies or scales its output"},
    {"force", FB_FIELD_BOOL, RU(force), 0, 0, 0, NULL, false, "added after the accumulator, as a physical force"},
    {"drag", FB_FIELD_BOOL, RU(drag), 0, 0, 0, NULL, false, "a linear drag -k (v . n) n, integrated exactly (Gompert's terrain drag)"},
    {"preempt", FB_FIELD_BOOL, RU(preempt), 0, 0, 0, NULL, false, "accumulator \"strict\": when it acts, no other rule counts (Gamlen 3.6)"},
    {"params", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "overrides of the module's params"},
};

static const fbField path_fields[] = {
    {"name", FB_FIELD_TEXT, PA(name), FB_NAME_LEN, 0, 0, NULL, false, "how rules (fb.path) and hooks name it"},
    {"points", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "control points { {x, y}, ... }: 2 or more, 3 or more when closed"},
    {"closed", FB_FIELD_BOOL, PA(closed), 0, 0, 0, NULL, false, "a loop (default false: the object stops at the last point)"},
    {"speed", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "units/s, or { {time, speed}, ... } linear in time (default 0)"},
    {"start", FB_FIELD_NUMBER, PA(start), 0, 0, 1, NULL, false, "where the object starts, a fraction of the length"},
};

static const fbField flow_fields[] = {
    {"png", FB_FIELD_TEXT, FL(png), sizeof(((fbFlowDef *)0)->png), 0, 0, NULL, false, "a PNG: red = x, green = y, 128 = 0, stretched over the world"},
    {"speed", FB_FIELD_NUMBER, FL(speed), 0, 0, 1e6, NULL, false, "units/s of full red or green (a PNG field)"},
    {"fn", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "function(x, y) return vx, vy end, sampled when the scenario loads"},
    {"cell", FB_FIELD_NUMBER, FL(cell), 0, 1e-6, 1e7, NULL, false, "world units between a function's samples (default: 64 across the shorter side)"},
    {"route", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "{ to = {x, y} or { {x, y}, ... } or \"REGION\", ... }: a route to the goal, computed by the engine"},
};

#define RO(field) offsetof(fbFlowDef, route.field)
static const fbField route_fields[] = {
    {"to", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "the goal: {x, y}, several { {x, y}, ... }, or a region's name"},
    {"cell", FB_FIELD_NUMBER, FL(cell), 0, 1e-6, 1e7, NULL, false, "world units a grid cell (default: 64 across the shorter side)"},
    {"clearance", FB_FIELD_NUMBER, RO(clearance), 0, 0, 1e6, NULL, true, "units kept from walls (default: the largest body radius of the species)"},
    {"speed", FB_FIELD_NUMBER, RO(speed), 0, 0, 1e6, NULL, true, "the field's speed, units/s (default: the largest cruise speed of the species)"},
    {"cost", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "\"distance\" (default), \"energy\" (over the terrain) or function(x, y) return cost per unit length end"},
    {"inside", FB_FIELD_TEXT, RO(inside), sizeof(((fbRouteDef *)0)->inside), 0, 0, NULL, false, "a region the route keeps inside (its outside is a wall)"},
    {"walls", FB_FIELD_TABLE, 0, 0, 0, 0, NULL, false, "{ \"REGION\", ... }: regions the route keeps out of"},
};

const fbSchema fbScenarioSchema = {"scenario", FIELDS(scenario_fields), false};
const fbSchema fbSpeciesSchema = {"species", FIELDS(species_fields), false};
const fbSchema fbRuleSchema = {"rule", FIELDS(rule_fields), true};
const fbSchema fbPathSchema = {"path", FIELDS(path_fields), false};
const fbSchema fbFlowSchema = {"flow field", FIELDS(flow_fields), false};
const fbSchema fbRouteSchema = {"route", FIELDS(route_fields), false};

// ---- lookups --------------------------------------------------------------------------------------

const fbField *fbSchema_Find(const fbSchema *s, const char *name)
{
  for (int k = 0; k < s->count; ++k) {
    if (strcmp(s->fields[k].name, name) == 0) {
      return &s->fields[k];
    }
  }
  return NULL;
}

bool fbField_Choice(const fbField *f, int k, fbChoice *out)
{
  FB_ASSERT(f->kind == FB_FIELD_CHOICE);
  if (f->choices->at != NULL) {
    return f->choices->at(k, out);
  }
  for (int j = 0; f->choices->list[j].name != NULL; ++j) {
    if (j == k) {
      *out = f->choices->list[j];
      return true;
    }
  }
  return false;
}

const char *fbField_ChoiceName(const fbField *f, int value)
{
  fbChoice c;
  for (int k = 0; fbField_Choice(f, k, &c); ++k) {
    if (c.value == value) {
      return c.name;
    }
  }
  return NULL;
}

// The key of field f in the table at prefix ("" or "vision"), with its length; NULL if f is not
// directly in that table (a deeper field yields its first component below the prefix).
static const char *key_below(const fbField *f, const char *prefix, size_t *n)
{
  const char *name = f->name;
  size_t p = strlen(prefix);
  if (p > 0) {
    if (strncmp(name, prefix, p) != 0 || name[p] != '.') {
      return NULL;
    }
    name += p + 1;
  }
  const char *dot = strchr(name, '.');
  *n = dot ? (size_t)(dot - name) : strlen(name);
  return name;
}

bool fbSchema_HasKey(const fbSchema *s, const char *prefix, const char *key)
{
  size_t len = strlen(key);
  for (int k = 0; k < s->count; ++k) {
    size_t n;
    const char *name = key_below(&s->fields[k], prefix, &n);
    if (name != NULL && n == len && strncmp(name, key, n) == 0) {
      return true;
    }
  }
  return false;
}

void fbSchema_Keys(const fbSchema *s, const char *prefix, char *out, size_t len)
{
  size_t used = 0;
  out[0] = '\0';
  for (int k = 0; k < s->count; ++k) {
    size_t n;
    const char *name = key_below(&s->fields[k], prefix, &n);
    bool repeat = false;
    for (int j = 0; j < k && name != NULL && !repeat; ++j) {
      size_t m;
      const char *earlier = key_below(&s->fields[j], prefix, &m);
      repeat = earlier != NULL && m == n && strncmp(earlier, name, n) == 0;
    }
    if (name != NULL && !repeat && used < len) {
      used += (size_t)snprintf(out + used, len - used, "%s%.*s", used ? ", " : "", (int)n, name);
    }
  }
}

bool fbSchema_IsSwitch(const fbSchema *s, const char *name)
{
  const fbField *f = fbSchema_Find(s, name);
  size_t n = strlen(name);
  for (int k = 0; f != NULL && f->kind == FB_FIELD_BOOL && k < s->count; ++k) {
    if (strncmp(s->fields[k].name, name, n) == 0 && s->fields[k].name[n] == '.') {
      return true;
    }
  }
  return false;
}

// ---- writes ---------------------------------------------------------------------------------------

static bool say(char *msg, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static bool say(char *msg, size_t len, const char *fmt, ...)
{
  va_list args;
  va_start(args, fmt);
  vsnprintf(msg, len, fmt, args);
  va_end(args);
  return false;
}

static bool in_range(const fbField *f, double v, char *msg, size_t len)
{
  if (!isfinite(v) || v < f->lo || v > f->hi) {
    return say(msg, len, "must be between %g and %g (got %g)", f->lo, f->hi, v);
  }
  return true;
}

bool fbField_SetNumber(const fbField *f, void *def, double v, char *msg, size_t len)
{
  char *at = (char *)def + f->offset;
  if (f->kind == FB_FIELD_NUMBER) {
    if (in_range(f, v, msg, len)) {
      memcpy(at, &v, sizeof v);
      return true;
    }
    return false;
  }
  if (f->kind == FB_FIELD_INT) {
    // A count, a number of passes or of samples: 2.5 would run as 2, so it is refused, not cut.
    if (isfinite(v) && v != floor(v)) {
      return say(msg, len, "must be a whole number (got %g)", v);
    }
    if (in_range(f, v, msg, len)) {
      int i = (int)v;
      memcpy(at, &i, sizeof i);
      return true;
    }
    return false;
  }
  if (f->kind == FB_FIELD_LIST || f->kind == FB_FIELD_RANGE) {
    return fbField_SetList(f, def, &v, 1, msg, len);
  }
  return say(msg, len, "expected %s, got a number",
             f->kind == FB_FIELD_BOOL ? "true or false" : f->kind == FB_FIELD_TABLE ? "a table" : "a string");
}

bool fbField_SetBool(const fbField *f, void *def, bool v, char *msg, size_t len)
{
  if (f->kind != FB_FIELD_BOOL) {
    return say(msg, len, "expected %s, got a boolean", f->kind == FB_FIELD_TEXT || f->kind == FB_FIELD_CHOICE ? "a string" : "a number");
  }
  memcpy((char *)def + f->offset, &v, sizeof v);
  return true;
}

// "a", "b" or "c": the names a choice accepts, aliases left out.
static void choice_names(const fbField *f, char *out, size_t len)
{
  size_t used = 0;
  int total = 0;
  fbChoice c;
  for (int k = 0; fbField_Choice(f, k, &c); ++k) {
    total += fbField_ChoiceName(f, c.value) == c.name;  // the first name of its value
  }
  out[0] = '\0';
  for (int k = 0, listed = 0; fbField_Choice(f, k, &c) && used < len; ++k) {
    if (fbField_ChoiceName(f, c.value) == c.name) {
      const char *sep = listed == 0 ? "" : (listed == total - 1 ? " or " : ", ");
      used += (size_t)snprintf(out + used, len - used, "%s\"%s\"", sep, c.name);
      listed++;
    }
  }
}

bool fbField_SetText(const fbField *f, void *def, const char *text, char *msg, size_t len)
{
  char *at = (char *)def + f->offset;
  if (f->kind == FB_FIELD_CHOICE) {
    fbChoice c;
    for (int k = 0; fbField_Choice(f, k, &c); ++k) {
      if (strcmp(c.name, text) == 0) {
        memcpy(at, &c.value, sizeof(int));
        return true;
      }
    }
    char names[256];
    choice_names(f, names, sizeof names);
    return say(msg, len, "expected %s, got \"%s\"", names, text);
  }
  if (f->kind != FB_FIELD_TEXT) {
    return say(msg, len, "expected %s, got a string",
               f->kind == FB_FIELD_BOOL ? "true or false" : f->kind == FB_FIELD_TABLE ? "a table" : "a number");
  }
  size_t n = strlen(text);
  if (n == 0 || n >= (size_t)f->size) {
    return say(msg, len, "must be 1 to %d characters long", f->size - 1);
  }
  if (!fbName_CheckLine(text, n, msg, len)) {  // --set and the C API, as the scenario reader
    return false;
  }
  memcpy(at, text, n + 1);
  return true;
}

bool fbField_SetList(const fbField *f, void *def, const double *v, int n, char *msg, size_t len)
{
  double *at = (double *)((char *)def + f->offset);
  if (f->kind == FB_FIELD_RANGE) {
    double lo = v[0], hi = n == 2 ? v[1] : v[0];
    if (n < 1 || n > 2) {
      return say(msg, len, "expected a number or {min, max}");
    }
    if (!isfinite(lo) || !isfinite(hi) || lo > hi || lo < f->lo || hi > f->hi) {
      return say(msg, len, "expected %g <= min <= max <= %g", f->lo, f->hi);
    }
    at[0] = lo;
    at[1] = hi;
    return true;
  }
  if (f->kind != FB_FIELD_LIST) {
    return say(msg, len, "expected a single value, got a list");
  }
  if (n != f->size) {
    return say(msg, len, "expected a list of %d numbers", f->size);
  }
  for (int k = 0; k < n; ++k) {
    if (!isfinite(v[k]) || v[k] < f->lo || v[k] > f->hi) {
      return say(msg, len, "item %d: expected a number between %g and %g (got %g)", k + 1, f->lo, f->hi, v[k]);
    }
  }
  memcpy(at, v, sizeof(double) * (size_t)n);
  return true;
}

bool fbField_Parse(const fbField *f, void *def, const char *text, char *msg, size_t len)
{
  switch (f->kind) {
  case FB_FIELD_NUMBER:
  case FB_FIELD_INT: {
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end != '\0') {
      return say(msg, len, "expected a number, got '%s'", text);
    }
    return fbField_SetNumber(f, def, v, msg, len);
  }
  case FB_FIELD_BOOL:
    if (strcmp(text, "true") != 0 && strcmp(text, "false") != 0) {
      return say(msg, len, "expected true or false, got '%s'", text);
    }
    return fbField_SetBool(f, def, text[0] == 't', msg, len);
  case FB_FIELD_TEXT:
  case FB_FIELD_CHOICE: return fbField_SetText(f, def, text, msg, len);
  case FB_FIELD_LIST:
  case FB_FIELD_RANGE: {
    double v[8];
    int n = 0;
    const char *p = text;
    for (;;) {
      char *end;
      double x = strtod(p, &end);
      if (end == p || n == 8) {
        return say(msg, len, "expected numbers separated by commas, got '%s'", text);
      }
      v[n++] = x;
      if (*end == '\0') {
        break;
      }
      if (*end != ',') {
        return say(msg, len, "expected numbers separated by commas, got '%s'", text);
      }
      p = end + 1;
    }
    return fbField_SetList(f, def, v, n, msg, len);
  }
  case FB_FIELD_TABLE: break;
  }
  return say(msg, len, "cannot be set from the command line (edit the scenario)");
}

// The fields whose default is NaN, meaning "not given" (flockbox.h): a random heading, the whole
// world as the spawn area (in its first item; the rest are then unused). Anywhere else a NaN is a
// mistake, and one that would reach the step.
static bool nan_means_unset(const fbField *f)
{
  const fbField *end = species_fields + sizeof species_fields / sizeof species_fields[0];
  return f >= species_fields && f < end && (strcmp(f->name, "spawn.area") == 0 || strcmp(f->name, "spawn.heading") == 0);
}

// A number of field f as a def holds it: unset when it is the field's "not given" marker (NaN where
// nan_means_unset, a finite negative where derived), else checked against the range.
static bool check_number(const fbField *f, double v, char *msg, size_t len)
{
  bool unset = (nan_means_unset(f) && isnan(v)) || (f->derived && isfinite(v) && v < 0);
  return unset || in_range(f, v, msg, len);
}

// A RANGE as a def holds it: { min, max }, max negative where the field is derived (the spawn
// speed's default: up to the cruising speed).
static bool check_range(const fbField *f, const double *v, char *msg, size_t len)
{
  if (f->derived && isfinite(v[1]) && v[1] < 0) {
    return in_range(f, v[0], msg, len);
  }
  if (!isfinite(v[0]) || !isfinite(v[1]) || v[0] > v[1] || v[0] < f->lo || v[1] > f->hi) {
    return say(msg, len, "expected %g <= min <= max <= %g (got %g, %g)", f->lo, f->hi, v[0], v[1]);
  }
  return true;
}

// A def filled in C holds whatever its program wrote: an enum's int may name no choice, and a text
// may run to the end of its buffer without its zero byte.
static bool check_field(const fbField *f, const char *at, char *msg, size_t len)
{
  double v[8];
  int i;
  switch (f->kind) {
  case FB_FIELD_NUMBER: memcpy(v, at, sizeof(double)); return check_number(f, v[0], msg, len);
  case FB_FIELD_INT: memcpy(&i, at, sizeof i); return in_range(f, i, msg, len);
  case FB_FIELD_LIST:
    memcpy(v, at, sizeof(double) * (size_t)f->size);
    if (nan_means_unset(f) && isnan(v[0])) {
      return true;
    }
    for (int q = 0; q < f->size; ++q) {
      if (!in_range(f, v[q], msg, len)) {
        return say(msg, len, "item %d: expected a number between %g and %g (got %g)", q + 1, f->lo, f->hi, v[q]);
      }
    }
    return true;
  case FB_FIELD_RANGE: memcpy(v, at, 2 * sizeof(double)); return check_range(f, v, msg, len);
  case FB_FIELD_CHOICE:
    memcpy(&i, at, sizeof i);
    if (fbField_ChoiceName(f, i) == NULL) {
      char names[256];
      choice_names(f, names, sizeof names);
      return say(msg, len, "expected %s (got the value %d)", names, i);
    }
    return true;
  case FB_FIELD_TEXT:
    if (memchr(at, '\0', (size_t)f->size) == NULL) {
      return say(msg, len, "is not ended within its %d bytes (no zero byte)", f->size);
    }
    return true;
  case FB_FIELD_BOOL:
  case FB_FIELD_TABLE: break;
  }
  return true;
}

bool fbSchema_Check(const fbSchema *s, const void *def, const char **field, char *msg, size_t len)
{
  for (int k = 0; k < s->count; ++k) {
    const fbField *f = &s->fields[k];
    if (!check_field(f, (const char *)def + f->offset, msg, len)) {
      *field = f->name;
      return false;
    }
  }
  return true;
}
