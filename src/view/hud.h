// hud.h — text on screen (font.h): a cache of rendered lines, the status HUD and the inspector.
#ifndef FB_HUD_H
#define FB_HUD_H

#include <SDL.h>

#include "font.h"
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
  fbFont *font;            // NULL if the font could not be opened: the window then runs without text
  int line_h;
  fbHudLine cache[FB_HUD_CACHE];
  long frame;
} fbHud;

// What the window knows that the sim does not.
typedef struct fbHudStatus {
  double frames_per_s, steps_per_s;
  double time_scale, steps_per_frame;
  fbStepCost cost;         // averaged over the last half second
  const fbProfileRow *profile;  // the cost of each rule over the last half second, most costly first
  int profile_rows;
  bool paused, finished;   // finished: --steps reached
  bool following_flock, following_agent;
  bool scenario_failed;    // the last hook or metric call failed: show fbSim_Error(sim)
  const char *load_error;  // a restart whose scenario failed to load (no sim to show), or NULL
  const char *notice;      // a short message (screenshot saved, ...), or NULL
  const double *metrics;   // the scenario's metrics at the last CSV row (fbSim_MetricCount), or NULL
  const char *drawing;     // how agents are drawn when it is not one triangle each (a cut shown to the user), or NULL
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

// text cut with "…" to fit max_w pixels (at a space where it can), into out.
void fbHud_Elide(fbHud *hud, const char *text, int max_w, char *out, size_t len);

// One line of text at x, y cut with "…" (fbHud_Elide) to end within max_w pixels: text in a box
// that would otherwise be clipped at its edge. Writes the line's height into h (may be NULL).
void fbHud_TextFitted(fbHud *hud, int x, int y, SDL_Color c, int max_w, const char *text, int *h);

// A translucent dark box behind text.
void fbHud_Box(fbHud *hud, SDL_Rect r);

// A dialog of w x h pixels centred in the window (at most the window less a margin): a nearly opaque
// box with a border, and the clip set to it (the caller clears the clip). Returns its box.
SDL_Rect fbHud_Dialog(fbHud *hud, int window_w, int window_h, int w, int h);

// The species' colour made readable as text on the dark panels (dark reds and blues are lightened,
// keeping their hue); the player's species is green.
SDL_Color fbHud_SpeciesColour(const fbSpecies *sp);

// Formats v with printf format fmt, never as "-0" (a tiny negative rounds to a plain 0).
void fbHud_Number(char *out, size_t len, const char *fmt, double v);

// The status (top of the info dock): scenario, state, rates, the legend of species and roles with
// their counts, the scenario's metrics, step cost, and every live rule or scenario error. sim may
// be NULL when a restart failed. Draws inside area; returns the part it used.
SDL_Rect fbHud_Status(fbHud *hud, const fbSim *sim, const fbHudStatus *st, SDL_Rect area);

// The inspector (in the info dock, from area.y down): the selected agent's own fields (those its
// rules declare), its circles, and each rule's contribution after weight and priority, with a
// legend of the arrows; px_per_accel is the arrows' scale.
SDL_Rect fbHud_Inspector(fbHud *hud, const fbSim *sim, int agent, SDL_Rect area, double px_per_accel);

// A scale bar in the bottom-left corner of the view: a round length of world units about 120 px long.
void fbHud_ScaleBar(fbHud *hud, SDL_Rect view, double px_per_unit);

// Goal names next to their markers (positions already on screen).
void fbHud_Label(fbHud *hud, double x, double y, const char *text);

#endif
