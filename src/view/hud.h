// hud.h — text on screen with SDL2_ttf: a cache of rendered lines, the status HUD and the inspector.
#ifndef FB_HUD_H
#define FB_HUD_H

#include <SDL.h>
#include <SDL_ttf.h>

#include "sim.h"

#define FB_HUD_CACHE 192
#define FB_HUD_TEXT 512

// A rendered line, kept while it is drawn: most HUD lines are the same from frame to frame, and
// rasterising text every frame would cost more than drawing 20 000 agents.
typedef struct fbHudLine {
  char text[FB_HUD_TEXT];
  SDL_Color colour;
  int wrap;                // wrap width in pixels, 0 = one line
  SDL_Texture *texture;
  int w, h;
  long used;               // frame it was last drawn in
} fbHudLine;

typedef struct fbHud {
  SDL_Renderer *sdl;
  TTF_Font *font;          // NULL if the font could not be opened: the window then runs without text
  int line_h;
  fbHudLine cache[FB_HUD_CACHE];
  long frame;
  int status_h, inspector_h;  // heights of the panels last frame (their boxes are drawn first)
} fbHud;

// What the window knows that the sim does not.
typedef struct fbHudStatus {
  double frames_per_s, steps_per_s;
  double time_scale, steps_per_frame;
  fbStepCost cost;         // averaged over the last half second
  bool paused, finished;   // finished: --steps reached
  bool following_flock, following_agent;
  bool scenario_failed;    // the last hook or metric call failed: show sim->error
  const char *load_error;  // a restart whose scenario failed to load (no sim to show), or NULL
  const char *notice;      // a short message (screenshot saved, ...), or NULL
  const double *metrics;   // the scenario's metrics at the last CSV row (sim->metric_count), or NULL
} fbHudStatus;

bool fbHud_Init(fbHud *hud, SDL_Renderer *sdl, const char *font_path, int size, char *err, size_t errlen);
void fbHud_Free(fbHud *hud);

// Starts a frame: lines not drawn for a while are freed.
void fbHud_Begin(fbHud *hud);

// Draws text (UTF-8) with its top-left corner at x, y, wrapped at `wrap` pixels if > 0; writes its
// size into w, h (either may be NULL). Nothing is drawn without a font.
void fbHud_Text(fbHud *hud, int x, int y, SDL_Color c, int wrap, const char *text, int *w, int *h);

// Size of text without drawing it.
void fbHud_Measure(fbHud *hud, const char *text, int *w, int *h);

// A translucent dark box behind text.
void fbHud_Box(fbHud *hud, SDL_Rect r);

// The status panel (top left): scenario, state, rates, agents per species, step cost, and every live
// rule or scenario error. sim may be NULL when a restart failed. Returns the area it covers.
SDL_Rect fbHud_Status(fbHud *hud, const fbSim *sim, const fbHudStatus *st);

// The inspector (bottom left, ending at y = bottom): the fields of the selected agent (index) and
// its rules' last outputs.
SDL_Rect fbHud_Inspector(fbHud *hud, const fbSim *sim, int agent, int bottom);

// Key help along the bottom (wrapped on narrow windows); returns its box.
SDL_Rect fbHud_Help(fbHud *hud, int view_w, int view_h);

// Goal names next to their markers (positions already on screen).
void fbHud_Label(fbHud *hud, double x, double y, const char *text);

#endif
