// flockbox_view.h — drawing a flockbox sim with SDL2 inside a program's own window and loop.
#ifndef FLOCKBOX_VIEW_H
#define FLOCKBOX_VIEW_H

#include <flockbox/flockbox.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The program owns the window, the renderer and the loop; a view only draws into the renderer's
 * current target, with the code flockbox's own window uses (ground or terrain, obstacles, paths,
 * goals, then every agent as a triangle in its species' colour). It never reads events, presents
 * the frame or changes the sim.
 */

struct SDL_Renderer;

typedef struct fbView fbView;

fbView *fbView_New(struct SDL_Renderer *renderer);
void fbView_Delete(fbView *view);

// Draws the sim as it is now, the whole world fitted (with a small margin) into the rectangle of
// x, y, width, height pixels of the renderer's target.
void fbView_Draw(fbView *view, const fbSim *sim, int x, int y, int width, int height);

// The sim was replaced by another one: a terrain drawn for the old one is built again.
void fbView_Forget(fbView *view);

// Draws the sim into an offscreen picture of width x height pixels and writes it as a PNG; no
// window needed. False with a message naming the path in err.
bool fbView_SavePng(const fbSim *sim, const char *path, int width, int height, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
