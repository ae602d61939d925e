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
 *
 * The structs a program fills (world, species, vision, spawn, rule, parameter) and the functions
 * that make them are public, in include/flockbox/flockbox.h; what only the engine's readers fill
 * (obstacles, goals, paths, rule folders, the whole scenario) is here.
 */

#define FB_MAX_PLACED (1 << 20)
#define FB_DESCRIPTION_LEN 3000

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

// A route field's description (route_field.h): flow_fields = { NAME = { route = { to = ..., ... } } }.
typedef enum fbRouteCost { FB_ROUTE_DISTANCE, FB_ROUTE_ENERGY, FB_ROUTE_FUNCTION } fbRouteCost;
#define FB_ROUTE_MAX_WALLS 8
typedef struct fbRouteDef {
  bool on;                     // this flow field is a route
  fbVec2 to[16];               // goal points (FB_ROUTE_MAX_GOALS)
  int to_count;
  char to_region[FB_NAME_LEN]; // or a region whose inside is the goal ("": none)
  char inside[FB_NAME_LEN];    // a region the route keeps inside ("": none)
  char walls[FB_ROUTE_MAX_WALLS][FB_NAME_LEN];  // regions the route keeps out of
  int wall_count;
  double clearance;            // distance kept from walls; < 0: the largest body radius of the species
  double speed;                // the field's speed, units/s; <= 0: the largest cruise speed of the species
  fbRouteCost cost;
  double *cost_samples;        // owned: cost = function(x, y), sampled at the cells (cols x rows)
} fbRouteDef;

// A flow field (flow_field.h); a scenario's flow_fields = { NAME = { png = ..., speed = ... } } or
// { NAME = { fn = function(x, y) return vx, vy end, cell = ... } }. A function is sampled while the
// scenario is read (scenario_flow.c), over the world as it was then, into cols x rows samples.
typedef struct fbFlowDef {
  char name[FB_NAME_LEN];
  char png[256];               // red = x, green = y, 128 = 0; or "" for a sampled function
  double speed;                // PNG: the velocity of full red or green, units/s
  double cell;                 // function: world units between samples
  int cols, rows;              // function: the samples, row by row, over width x height
  double width, height;
  double *vx, *vy;             // owned: the sampled function (NULL for a PNG)
  fbRouteDef route;            // route = { ... }: computed by the engine when the world is built
} fbFlowDef;

// A polygonal region (region.h); a scenario's regions = { NAME = { {x, y}, ... } }.
typedef struct fbRegionDef {
  char name[FB_NAME_LEN];
  fbVec2 *points;              // owned
  int point_count;
} fbRegionDef;

// A whole scenario: the world, its obstacles, goals and paths, the species with their rules.
typedef struct fbScenarioDef {
  char path[512];              // the scenario file ("" for a world built in C): paths start beside it
  char name[128];
  char description[FB_DESCRIPTION_LEN];  // what it shows, for the window's About tab ("": the file's header comment)
  double view[3];              // x, y, width: what the window shows first (width 0: the whole world)
  fbWorldDef world;
  fbObstacles obstacles;       // owned until fbSim_Create hands them to the world
  fbGoal goals[FB_MAX_GOALS];
  int goal_count;
  fbPathDef paths[FB_MAX_PATHS];
  int path_count;
  fbFlowDef flows[FB_MAX_FLOW_FIELDS];
  int flow_count;
  fbRegionDef regions[FB_MAX_REGIONS];
  int region_count;
  char rule_dirs[FB_MAX_RULE_DIRS][512];  // the scenario's own rule folders, searched first
  int rule_dir_count;
  fbSpeciesDef species[FB_MAX_SPECIES];
  int species_count;
  fbPlacedAgent *placed;
  int placed_count, placed_capacity;
} fbScenarioDef;

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
