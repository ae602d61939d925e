// render.h — drawing the world top-down: terrain, obstacles, goals, paths, agents; on screen or into a PNG.
#ifndef FB_RENDER_H
#define FB_RENDER_H

#include <SDL.h>

#include "camera.h"
#include "sim.h"
#include "splat.h"
#include "trails.h"

// Draws the sim's current state through the same code the window uses into an offscreen software
// surface of width x height pixels fitting the whole world, and writes it as a PNG
// (fbPicture_WritePng, picture.h). On failure writes one line naming the path into err.
// The size of such a picture: the largest with the world's aspect (width : height) inside a box of
// box_w x box_h pixels, a bound of 0 being no bound that way (both 0: 1024 x 1024). At least 1 x 1.
void fbRender_PictureSize(const fbSim *sim, int box_w, int box_h, int *width, int *height);

bool fbRender_SavePng(const fbSim *sim, const char *path, int width, int height, char *err, size_t errlen);


// Above this many agents none has an outline: it would double the pixels to fill.
#define FB_RENDER_OUTLINE_MAX 5000

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
  fbSplat agent_canvas;   // agents at most FB_SPLAT_MAX_LENGTH pixels long, stamped
  fbSplat trail_canvas;
  fbStamps stamps[FB_MAX_SPECIES];
  char mode[192];         // what the last fbRender_Agents drew (fbRender_AgentMode)
  bool hide_flow;         // the V key: no flow-field arrows (drawn by default)
} fbRenderer;

void fbRender_Init(fbRenderer *r, SDL_Renderer *sdl);
void fbRender_Free(fbRenderer *r);

// The sim was (re)loaded: the terrain texture is rebuilt on the next draw and trails start over.
void fbRender_Forget(fbRenderer *r);

// Ground (terrain or a plain field with a faint grid), world border, obstacles, regions (outlines),
// flow fields (arrows, unless hide_flow), paths (a line along the spline, a diamond for the path
// object) and goals.
void fbRender_World(fbRenderer *r, const fbSim *sim, const fbCamera *cam);

// Every agent as a triangle pointing along its heading, with a dark outline when there are at most
// FB_RENDER_OUTLINE_MAX agents. Agents up to FB_SPLAT_MAX_LENGTH pixels long are stamped into one
// texture (splat.h), longer ones go to SDL as triangles in one SDL_RenderGeometry call.
void fbRender_Agents(fbRenderer *r, const fbSim *sim, const fbCamera *cam);

// What the last frame drew, for the HUD, e.g. "50000 agents drawn as 9-px stamps (no outlines
// above 5000); trails 4.0 s on 1 in 4 agents". Empty before the first fbRender_Agents.
const char *fbRender_AgentMode(const fbRenderer *r);

// The fading tails of the agents in view (trails.h records them: fbTrails_Record after each step),
// within a budget of pieces per frame.
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
// (fbSim_SeenList, from fbSim_Seen), each rule's contribution as an arrow in the rule's colour and the
// combined acceleration in white, all on one scale: *px_per_accel pixels per world unit/s^2.
void fbRender_Selection(fbRenderer *r, const fbSim *sim, const fbCamera *cam, int agent, double *px_per_accel);

// 1, 2 or 5 times a power of ten, the smallest not below x (grid spacings, scale bars).
double fbRender_NiceStep(double x);

// The colour a species is drawn in: the player's green, else the scenario's colour.
SDL_Color fbRender_SpeciesColour(const fbSpecies *s);

// The colour an agent is drawn in: the player's species green, leaders red, else its species colour.
SDL_Color fbRender_AgentColour(const fbWorld *w, int agent, int leader_field);

// The colour of rule k's steering vector (also used by the inspector's legend).
SDL_Color fbRender_RuleColour(int k);

#endif
