// input.h — SDL events to viewer actions: keys, camera drag and zoom, agent picking, arrow-key steering.
#ifndef FB_INPUT_H
#define FB_INPUT_H

#include "keys.h"
#include "render.h"

// An action (keys.h) and what it needs.
typedef struct fbAction {
  fbActionKind kind;
  int x, y;                  // SELECT: the click
  const char *key;           // SCENARIO_KEY: SDL's name of the key ("A", "Left", ...)
  int dock;                  // DOCK: its index in fbDockTable (-1 for other actions)
} fbAction;

typedef struct fbInput {
  bool arrows[4];            // left, right, up, down held (tracked from events, so injected ones count)
  bool button;               // left button held over the world
  bool dragged;              // moved far enough since the press to be a drag, not a click
  int press_x, press_y;
} fbInput;

// Translates one event. Drags and wheel zooms change cam directly. With a player species, the
// arrow keys steer (fbInput_Steering) instead of going to the scenario.
fbAction fbInput_Event(fbInput *in, const SDL_Event *e, fbCamera *cam, bool has_player);

// The arrow keys as a steering input: x, y in [-1, 1], y down.
fbVec2 fbInput_Steering(const fbInput *in);

// Zooms by factor keeping the world point under screen point (sx, sy) in place.
void fbInput_ZoomAt(fbCamera *cam, double sx, double sy, double factor);

// The agent nearest the screen point, within a few pixels of its triangle; -1 if none.
int fbInput_Pick(const fbSim *sim, const fbCamera *cam, int sx, int sy);

// Centre of the flock (mean position; on a torus the circular mean, so a flock across an edge is
// followed where it is).
fbVec2 fbInput_FlockCentre(const fbSim *sim);

#endif
