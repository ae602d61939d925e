// defs.h — worlds described by plain C structs with defaults: what a Lua scenario is read into, what --set changes, what a C test fills in.
#ifndef FB_DEFS_H
#define FB_DEFS_H

#include "world.h"

/*
 * In the manner of Box2D's b2DefaultBodyDef(): every def starts from fbDefault...Def() (or
 * fbScenarioDef_New, which fills in those defaults), the caller changes what it needs, and
 * fbSim_Create builds a world from it. Values are in the units a scenario writes (degrees,
 * degrees per second); a negative value marks "derived from others" where the seeds say so
 * (cruise speed, max acceleration, comfort zone). The Lua scenario reader and --set both reach
 * these fields through one schema (schema.h), so they can never disagree on a name or a range.
 */

#define FB_MAX_PARAMS 16
#define FB_PARAM_TEXT 64
#define FB_MAX_PLACED (1 << 20)

typedef enum fbValueKind { FB_VALUE_NUMBER, FB_VALUE_INTEGER, FB_VALUE_BOOL, FB_VALUE_STRING } fbValueKind;

// One rule parameter a scenario sets, overriding the module's default of the same name and type.
typedef struct fbParamDef {
  char name[FB_NAME_LEN];
  fbValueKind kind;
  double number;               // NUMBER, INTEGER (exact up to 2^53), BOOL (0 or 1)
  char text[FB_PARAM_TEXT];    // STRING
} fbParamDef;

typedef struct fbRuleDef {
  char module[FB_NAME_LEN];    // behaviours/<module>.lua ("" for a native rule)
  char name[FB_NAME_LEN];      // how the scenario, --set and hooks address it ("": the module's name)
  double weight;               // 1: multiplies the output (weighted) or scales it (prioritised, exclusive)
  bool force;                  // added after the accumulator as an external force (Gompert's terrain drag)
  bool preempt;                // accumulator "strict": when it acts it wins outright (Gamlen 3.6)
  bool drag;                   // a linear drag -k (v . n) n after the accumulator, integrated exactly
  fbNativeRule native;         // a rule written in C (tests, the benchmark's baseline): no Lua module
  fbParamDef params[FB_MAX_PARAMS];
  int param_count;
} fbRuleDef;

typedef struct fbSpawnDef {
  double area[4];              // x0, y0, x1, y1; NAN in area[0]: the whole world
  double around[3];            // x, y, r: a disc instead of the area when r >= 0 (default r = -1)
  double speed[2];             // min, max; max < 0: the species' cruising speed (default 0 .. that)
  double heading;              // degrees (0 = +x, 90 = +y, down the screen); NAN: random
} fbSpawnDef;

typedef struct fbVisionDef {
  double radius;               // 10
  double fov;                  // 270 degrees, the full angle of view
  double separation;           // comfort zone; -1: min(radius, 2 body lengths) (Gompert Table 1)
  char sees[FB_MAX_SPECIES][FB_NAME_LEN];  // species counted as flock-mates; none listed: its own
  int sees_count;
  int sample;                  // 0: every flock-mate in view; k > 0: a random k of them each step (Gamlen)
} fbVisionDef;

typedef struct fbSpeciesDef {
  char name[FB_NAME_LEN];
  int count;                   // agents spawned at the start
  fbSpawnDef spawn;
  double body_length;          // 1 (Bourg's unit length; the body radius is half of it)
  double max_speed;            // 10
  double min_speed;            // 0
  double cruise_speed;         // -1: 0.7 max_speed (Gompert's appendix)
  double max_accel;            // -1: 2 max_speed (Gompert's appendix)
  double max_turn;             // degrees per second; -1: unlimited
  fbVisionDef vision;
  fbAccumKind accumulator;     // weighted
  int update_every;            // 1: steering recomputed every step (Gompert 8.2)
  bool half_accel;             // add 1/2 a dt^2 to the position (Gompert eq. 1)
  bool slope_correction;       // true: move by v / sqrt(s_v^2 + 1) (Gompert eq. 10)
  bool player;                 // driven by the arrow keys or fb.set_input
  bool collide;                // true: a solid body, pushed apart from the other colliding ones (Gompert 8.1)
  double colour[3];            // 0..255
  fbRuleDef rules[FB_MAX_RULES];
  int rule_count;
} fbSpeciesDef;

typedef struct fbTerrainDef {
  char png[400];               // a greyscale PNG, as the scenario names it ("" for none)
  double height;               // 10: the height of white (or of the highest generated point)
  double generate;             // -1: none; else the seed of smooth random hills
  double feature;              // generated hills' size; 0: a quarter of the smaller world side
  int samples;                 // 256 generated samples per side
} fbTerrainDef;

typedef struct fbWorldDef {
  double width, height;        // 100 x 100
  double dt;                   // 0.05 s
  fbBounds bounds;             // wrap
  fbUpdate update;             // euler (Gompert eq. 1-2); semi_implicit moves by the new velocity (Parker)
  int collision_iterations;    // 1: passes per step pushing overlapping bodies apart
  fbTerrainDef terrain;        // flat when neither png nor generate is given
} fbWorldDef;

// An agent placed by hand (tests, formations), spawned after its species' random ones.
typedef struct fbPlacedAgent {
  int species;
  fbVec2 p, v;
} fbPlacedAgent;

// A path through control points with an object moving along it (spline_path.h); a scenario's
// paths = { { name = ..., points = ..., closed = ..., speed = ..., start = ... } }.
typedef struct fbPathDef {
  char name[FB_NAME_LEN];      // how rules (fb.path) and hooks (fb.set_path_speed) name it
  fbVec2 *points;              // owned: control points, 2 or more (open), 3 or more (closed)
  int point_count;
  bool closed;                 // false: the object stops at the last point; true: it goes round
  double start;                // 0: where the object starts, as a fraction of the length (0..1)
  fbSpeedKey *keys;            // owned: {time, speed} keys, linear between them; none: speed 0
  int key_count;               // 1: a constant speed
} fbPathDef;

// A whole scenario: the world, its obstacles, goals and paths, the species with their rules.
typedef struct fbScenarioDef {
  char path[512];              // the scenario file ("" for a world built in C): paths start beside it
  char name[128];
  fbWorldDef world;
  fbObstacles obstacles;       // owned until fbSim_Create hands them to the world
  fbGoal goals[FB_MAX_GOALS];
  int goal_count;
  fbPathDef paths[FB_MAX_PATHS];
  int path_count;
  char rule_dirs[FB_MAX_RULE_DIRS][512];  // the scenario's own rule folders, searched first
  int rule_dir_count;
  fbSpeciesDef species[FB_MAX_SPECIES];
  int species_count;
  fbPlacedAgent *placed;
  int placed_count, placed_capacity;
} fbScenarioDef;

fbWorldDef fbDefaultWorldDef(void);
fbSpeciesDef fbDefaultSpeciesDef(void);
fbRuleDef fbDefaultRuleDef(void);

// A scenario def with the defaults above and no species, on the heap (it is large); free it with
// fbScenarioDef_Delete, which also frees obstacles the world has not taken.
fbScenarioDef *fbScenarioDef_New(void);
void fbScenarioDef_Delete(fbScenarioDef *d);

// Appends a species with the defaults and this name; NULL when FB_MAX_SPECIES are there.
fbSpeciesDef *fbScenarioDef_AddSpecies(fbScenarioDef *d, const char *name);
fbSpeciesDef *fbScenarioDef_FindSpecies(fbScenarioDef *d, const char *name);

// Appends a rule with the defaults; module names a behaviours/ file (NULL or "" for a native rule).
fbRuleDef *fbSpeciesDef_AddRule(fbSpeciesDef *s, const char *module);

// The rule a scenario, --set or a hook means by `name`: its given name, else its module's.
fbRuleDef *fbSpeciesDef_FindRule(fbSpeciesDef *s, const char *name);
const char *fbRuleDef_Name(const fbRuleDef *r);

// Sets (or replaces) a parameter override; false when FB_MAX_PARAMS differ already or the name or
// text is too long.
bool fbRuleDef_SetParam(fbRuleDef *r, const fbParamDef *p);
bool fbRuleDef_SetNumber(fbRuleDef *r, const char *name, double value);

bool fbScenarioDef_PlaceAgent(fbScenarioDef *d, int species, fbVec2 p, fbVec2 v);

// Appends a path through a copy of these points (open, starting at 0, speed 0); NULL when
// FB_MAX_PATHS are there or the name is too long. Points and speeds are checked when the world is
// built (fbBuild_World), with the scenario's messages.
fbPathDef *fbScenarioDef_AddPath(fbScenarioDef *d, const char *name, const fbVec2 *points, int n);

// The path's speed table: a copy of n keys (n = 1: a constant speed). fbPathDef_SetSpeed(p, v) for
// a constant speed v.
void fbPathDef_SetKeys(fbPathDef *p, const fbSpeedKey *keys, int n);
void fbPathDef_SetSpeed(fbPathDef *p, double v);

// The landmarks of Gompert's Table 1 and the derived defaults: checks a species def and writes the
// engine's species (limits in radians per step, the stored cosine of the view). `where` prefixes
// a message ("scripts/x.lua: species[1]"). Sees, rules and colour are left to the caller.
bool fbSpeciesDef_Build(const fbSpeciesDef *d, double dt, fbSpecies *out, const char *where, char *err,
                        size_t errlen);

#endif
