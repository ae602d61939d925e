// render.h — drawing the world top-down: terrain, obstacles, goals, paths, agents; on screen or into a PNG.
#ifndef FB_RENDER_H
#define FB_RENDER_H

#include <SDL.h>

#include "sim.h"

// Draws the sim's current state through the same code the window uses into an offscreen software
// surface of width x height pixels fitting the whole world, and writes it as a PNG with
// stb_image_write. On failure writes one line naming the path into err.
bool fbRender_SavePng(const fbSim *sim, const char *path, int width, int height, char *err, size_t errlen);

// World to screen: screen = (world - centre) * scale + view origin + view size / 2. Both have y
// down. The view is the part of the window the world is drawn in: what the docked panels leave.
typedef struct fbCamera {
  double cx, cy;          // world point at the centre of the view
  double scale;           // pixels per world unit
  int view_x, view_y;     // top-left corner of the view in the window, pixels
  int view_w, view_h;     // pixels
} fbCamera;

// Centres the world in the view rectangle (which the camera takes) and scales it to fit with a
// margin in pixels.
void fbCamera_Fit(fbCamera *c, double world_w, double world_h, SDL_Rect view, int margin);

// The view rectangle.
SDL_Rect fbCamera_View(const fbCamera *c);
fbVec2 fbCamera_ToScreen(const fbCamera *c, fbVec2 world);
fbVec2 fbCamera_ToWorld(const fbCamera *c, fbVec2 screen);

#define FB_TRAIL_LENGTH 16

// The last FB_TRAIL_LENGTH positions of every agent, one snapshot per step, matched by id.
typedef struct fbTrails {
  int count[FB_TRAIL_LENGTH];
  int capacity[FB_TRAIL_LENGTH];
  uint32_t *id[FB_TRAIL_LENGTH];
  float *x[FB_TRAIL_LENGTH], *y[FB_TRAIL_LENGTH];
  int newest;             // snapshot written last
  int filled;             // snapshots holding data
} fbTrails;

// Growable geometry: all triangles of one kind go to SDL in a single SDL_RenderGeometry call.
typedef struct fbBatch {
  SDL_Vertex *v;
  int count, capacity;
} fbBatch;

typedef struct fbRenderer {
  SDL_Renderer *sdl;
  SDL_Texture *terrain;   // shaded heightfield with contour lines, built once per sim
  bool terrain_built;
  fbBatch batch;
  fbTrails trails;
  double trail_seconds;
} fbRenderer;

void fbRender_Init(fbRenderer *r, SDL_Renderer *sdl);
void fbRender_Free(fbRenderer *r);

// The sim was (re)loaded: the terrain texture is rebuilt on the next draw and trails start over.
void fbRender_Forget(fbRenderer *r);

// Ground (terrain or a plain field with a faint grid), world border, obstacles, paths (a line along
// the spline, a diamond for the path object) and goals.
void fbRender_World(fbRenderer *r, const fbSim *sim, const fbCamera *cam);

// Every agent as a triangle pointing along its heading, in one SDL_RenderGeometry call.
void fbRender_Agents(fbRenderer *r, const fbSim *sim, const fbCamera *cam);

// Remembers the agents' positions after a step; draws the fading tails; forgets them.
void fbRender_RecordTrails(fbRenderer *r, const fbSim *sim);
void fbRender_ClearTrails(fbRenderer *r);
void fbRender_SetTrailSeconds(fbRenderer *r, double seconds);
double fbRender_TrailSeconds(const fbRenderer *r);

// How agents were drawn last frame when that is not one outlined triangle each, for the HUD; or NULL.
const char *fbRender_AgentMode(const fbRenderer *r);
void fbRender_Trails(fbRenderer *r, const fbSim *sim, const fbCamera *cam);

// A distance the selected agent perceives with, drawn as a circle round it.
typedef struct fbSelectionCircle {
  double radius;          // world units
  SDL_Color colour;
  char label[FB_NAME_LEN * 2 + 16];  // "vision 10", "predator.radius 90"
} fbSelectionCircle;

#define FB_MAX_SELECTION_CIRCLES 24

// The circles round agent i: its vision radius, its separation radius, and every rule parameter
// declared with circle = true whose value is positive (in the rule's colour).
int fbRender_SelectionCircles(const fbSim *sim, int agent, fbSelectionCircle *out, int max);

// Each rule's contribution to agent i's acceleration in the last step (fbAccum_Contributions: after
// weight and priority), forces and drags weighted; *truncated: the sum exceeded max_accel.
void fbRender_Contributions(const fbSim *sim, int agent, fbVec2 contributions[FB_MAX_RULES], bool ran[FB_MAX_RULES],
                            bool *truncated);

// The selected agent (index): its vision volume, its circles, lines to the flock-mates it sees now
// (sim->seen, from fbSim_Seen), each rule's contribution as an arrow in the rule's colour and the
// combined acceleration in white, all on one scale: *px_per_accel pixels per world unit/s^2.
void fbRender_Selection(fbRenderer *r, const fbSim *sim, const fbCamera *cam, int agent, double *px_per_accel);

// 1, 2 or 5 times a power of ten, the smallest not below x (grid spacings, scale bars).
double fbRender_NiceStep(double x);

// The colour an agent is drawn in: the player's species green, leaders red, else its species colour.
SDL_Color fbRender_AgentColour(const fbWorld *w, int agent, int leader_field);

// The colour of rule k's steering vector (also used by the inspector's legend).
SDL_Color fbRender_RuleColour(int k);

// Reads the renderer's current target and writes it as a PNG.
bool fbRender_WritePng(SDL_Renderer *sdl, const char *path, char *err, size_t errlen);

#endif
