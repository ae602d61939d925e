// splat.h — software rasterising: small agents stamped and trails stroked into a canvas drawn as one texture.
#ifndef FB_SPLAT_H
#define FB_SPLAT_H

#include <SDL.h>
#include <stdbool.h>
#include <stdint.h>

// Headings are rounded to one of this many directions: 5.6 degrees apart, which moves the tip of
// a 24-pixel agent by at most 0.6 pixel.
#define FB_SPLAT_DIRECTIONS 64
// The stamp's longest side, in pixels; longer agents are drawn as triangles by SDL.
#define FB_SPLAT_MAX_LENGTH 24.0
// The heading table's cells per side (see fbSplat_Direction).
#define FB_SPLAT_HEADING_CELLS 128

// One row of a stamp, relative to the agent's pixel: the outline's run, then the body's run over it.
typedef struct fbStampRow {
  int8_t dy;
  int8_t outline_x, outline_len;
  int8_t body_x, body_len;
} fbStampRow;

// An agent's triangle at one on-screen length, rasterised once for every direction.
typedef struct fbStamps {
  double length;          // on-screen length the rows were built for (0: none yet)
  int radius;             // every row lies within this many pixels of the agent's pixel
  int first[FB_SPLAT_DIRECTIONS + 1];  // direction d's rows are rows[first[d] .. first[d + 1])
  fbStampRow *rows;
  int capacity;
} fbStamps;

// A canvas of the view's size, transparent where nothing was drawn, and its texture. Stamps go to
// one byte per pixel (a palette index: a quarter of the memory to scatter into), lines are blended
// in ARGB8888; a frame uses one or the other.
typedef struct fbSplat {
  SDL_Renderer *sdl;
  SDL_Texture *texture;
  bool blended;           // this frame draws lines into pixels, not stamps into index
  uint8_t *index;         // palette index per pixel, 0 transparent
  uint32_t *pixels;       // ARGB8888
  uint32_t palette[256];  // ARGB8888 of each index; [0] transparent
  int colours;            // palette entries in use
  int w, h;               // canvas size: the view rectangle's
  int view_x, view_y;     // where the canvas goes in the window
  SDL_Rect drawn;         // area touched this frame (empty: w or h 0)
  int lo_x, lo_y, hi_x, hi_y;  // stamp anchors' extent this frame (canvas pixels)
  int radius;             // the largest stamp radius this frame
  SDL_Rect last;          // area touched last frame: cleared by the next fbSplat_Begin
  uint8_t heading[FB_SPLAT_HEADING_CELLS][FB_SPLAT_HEADING_CELLS];  // direction of a unit heading
  bool heading_built;
} fbSplat;

// Builds (or keeps, if the length is unchanged) the rows of a triangle `length` pixels long,
// pointing along each direction: 0.6 of it ahead of the agent, 0.4 behind, 0.64 wide at the back,
// as the SDL triangles are; the outline is the same triangle `outline` pixels longer.
void fbStamps_Build(fbStamps *st, double length, double outline);
void fbStamps_Free(fbStamps *st);

// Starts a frame of stamps (blended false) or lines (true): the canvas takes the view's size and the
// last frame's pixels are cleared.
void fbSplat_Begin(fbSplat *s, SDL_Renderer *sdl, SDL_Rect view, bool blended);

// The palette index of an opaque ARGB colour for fbSplat_Stamp (at most 255 colours a frame; more
// come out as the last one).
uint8_t fbSplat_Colour(fbSplat *s, uint32_t argb);

// The direction index (0 .. FB_SPLAT_DIRECTIONS - 1) nearest a unit heading.
int fbSplat_Direction(fbSplat *s, double hx, double hy);

// Pixels beyond this distance from the origin are off every canvas (fbSplat_Stamp draws nothing).
#define FB_SPLAT_FAR (1 << 28)

// Stamps an agent at window pixel (x, y) in palette colour `colour`, with the outline's rows first
// in outline_colour if `outline`.
void fbSplat_Stamp(fbSplat *s, const fbStamps *st, int direction, int x, int y, uint8_t colour, bool outline,
                   uint8_t outline_colour);

// Blends a line `width` pixels wide from a to b (window pixels) in colour rgb (0xRRGGBB) with
// opacity alpha (0-255). skip_start leaves the first pixel column out, so that the pieces of a
// polyline do not blend twice where they meet.
void fbSplat_Line(fbSplat *s, float ax, float ay, float bx, float by, float width, uint32_t rgb, int alpha,
                  bool skip_start);

// Uploads what changed and draws the touched part of the canvas over the window, blended.
void fbSplat_End(fbSplat *s);

void fbSplat_Free(fbSplat *s);

#endif
