// grab.h — moving the scenario's goals, lamps and path points with the mouse while the simulation runs.
#ifndef FB_GRAB_H
#define FB_GRAB_H

#include "camera.h"

typedef enum fbGrabKind { FB_GRAB_NONE, FB_GRAB_GOAL, FB_GRAB_PATH_POINT } fbGrabKind;

// What the mouse holds: a goal (index), or control point `point` of path `index`.
typedef struct fbGrab {
  fbGrabKind kind;
  int index, point;
} fbGrab;

// The goal or path control point within a few pixels of screen point (x, y); goals first, since
// their markers are drawn on top. FB_GRAB_NONE if there is none.
fbGrab fbGrab_At(const fbSim *sim, const fbCamera *cam, int x, int y);

// Moves what g holds to screen point (x, y), kept inside the world. A path is rebuilt through its
// moved point, its object staying at the same fraction of its length; a move that would make the
// path invalid (two neighbouring points on top of each other) is refused and returns false.
bool fbGrab_MoveTo(fbSim *sim, const fbCamera *cam, fbGrab g, int x, int y);

// Path control points as small handles, so the user sees what can be dragged.
void fbGrab_DrawHandles(SDL_Renderer *sdl, const fbSim *sim, const fbCamera *cam);

#endif
