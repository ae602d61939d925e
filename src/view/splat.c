// splat.c — software rasterising: small agents stamped and trails stroked into a canvas drawn as one texture.
#include "splat.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fb.h"
#include "fb_math.h"

/*
 * Why not SDL triangles: SDL's software renderer sets up and fills every triangle of a
 * SDL_RenderGeometry call on its own, and for a 9-pixel agent the set-up costs more than the
 * 30-odd pixels it fills. A stamp is the triangle rasterised once per direction as one run of
 * pixels per row; drawing an agent is then a few short stores per row.
 *
 * The canvas: the view's size, transparent where nothing was drawn. Invariant: after fbSplat_End
 * the texture equals the canvas. Each frame touches a rectangle (`drawn`); the next frame clears
 * only that rectangle on the canvas and writes the union of the two into the texture, so both the
 * clearing and the new pixels reach it and nothing else changes. Stamps scatter one byte per pixel
 * (a palette index), which keeps the canvas of a crowd in the cache; the palette turns it into
 * ARGB row by row as it goes into the texture.
 */

// ---- stamps -------------------------------------------------------------------------------------

// The row runs of a triangle with vertices a, b, c (pixel offsets, y down) whose pixel centres are
// inside: one run per row, as the triangle is convex. Returns false for a row with none.
static bool triangle_run(const double v[3][2], int dy, int radius, int *x0, int *len)
{
  int first = 1, last = 0;
  for (int dx = -radius; dx <= radius; ++dx) {
    bool inside = true;
    for (int e = 0; e < 3 && inside; ++e) {
      const double *p = v[e], *q = v[(e + 1) % 3];
      double cross = (q[0] - p[0]) * (dy - p[1]) - (q[1] - p[1]) * (dx - p[0]);
      inside = cross >= -1e-9;
    }
    if (inside) {
      first = first > last ? dx : first;
      last = dx;
    }
  }
  *x0 = first;
  *len = last - first + 1;
  return last >= first;
}

// The triangle of the window's agents: tip 0.6 length ahead, back corners 0.4 behind and 0.32 to
// each side; listed so that the edge test above is positive inside (y down).
static void agent_triangle(double length, double hx, double hy, double v[3][2])
{
  double nx = -hy, ny = hx;
  v[0][0] = 0.6 * length * hx;
  v[0][1] = 0.6 * length * hy;
  v[1][0] = -0.4 * length * hx + 0.32 * length * nx;
  v[1][1] = -0.4 * length * hy + 0.32 * length * ny;
  v[2][0] = -0.4 * length * hx - 0.32 * length * nx;
  v[2][1] = -0.4 * length * hy - 0.32 * length * ny;
}

void fbStamps_Build(fbStamps *st, double length, double outline)
{
  if (st->length == length && st->rows != NULL) {
    return;
  }
  st->length = length;
  st->radius = (int)ceil(0.6 * (length + outline)) + 1;
  int per_direction = 2 * st->radius + 1;
  int need = FB_SPLAT_DIRECTIONS * per_direction;
  if (need > st->capacity) {
    st->rows = realloc(st->rows, (size_t)need * sizeof *st->rows);
    FB_ASSERT(st->rows != NULL);
    st->capacity = need;
  }
  int n = 0;
  for (int d = 0; d < FB_SPLAT_DIRECTIONS; ++d) {
    st->first[d] = n;
    double angle = 2 * FB_PI * d / FB_SPLAT_DIRECTIONS, body[3][2], ring[3][2];
    double s, c;
    fbMath_SinCos(angle, &s, &c);
    agent_triangle(length, c, s, body);
    agent_triangle(length + outline, c, s, ring);
    for (int dy = -st->radius; dy <= st->radius; ++dy) {
      int ox = 0, olen = 0, bx = 0, blen = 0;
      bool has_ring = triangle_run(ring, dy, st->radius, &ox, &olen);
      bool has_body = triangle_run(body, dy, st->radius, &bx, &blen);
      if (has_ring || has_body) {
        st->rows[n++] = (fbStampRow){(int8_t)dy, (int8_t)ox, (int8_t)(has_ring ? olen : 0), (int8_t)bx,
                                     (int8_t)(has_body ? blen : 0)};
      }
    }
  }
  st->first[FB_SPLAT_DIRECTIONS] = n;
}

void fbStamps_Free(fbStamps *st)
{
  free(st->rows);
  memset(st, 0, sizeof *st);
}

// ---- the canvas ---------------------------------------------------------------------------------

static SDL_Rect rect_union(SDL_Rect a, SDL_Rect b)
{
  if (a.w <= 0 || a.h <= 0) {
    return b;
  }
  if (b.w <= 0 || b.h <= 0) {
    return a;
  }
  int x0 = a.x < b.x ? a.x : b.x, y0 = a.y < b.y ? a.y : b.y;
  int x1 = a.x + a.w > b.x + b.w ? a.x + a.w : b.x + b.w, y1 = a.y + a.h > b.y + b.h ? a.y + a.h : b.y + b.h;
  return (SDL_Rect){x0, y0, x1 - x0, y1 - y0};
}

// Grows the touched area by the canvas rectangle [x0, x1) x [y0, y1), clipped to the canvas.
static void touch(fbSplat *s, int x0, int y0, int x1, int y1)
{
  x0 = x0 < 0 ? 0 : x0;
  y0 = y0 < 0 ? 0 : y0;
  x1 = x1 > s->w ? s->w : x1;
  y1 = y1 > s->h ? s->h : y1;
  if (x1 > x0 && y1 > y0) {
    s->drawn = rect_union(s->drawn, (SDL_Rect){x0, y0, x1 - x0, y1 - y0});
  }
}

// A table from a unit heading's cell to its nearest direction, so that no agent needs an atan2.
static void build_heading_table(fbSplat *s)
{
  for (int j = 0; j < FB_SPLAT_HEADING_CELLS; ++j) {
    for (int i = 0; i < FB_SPLAT_HEADING_CELLS; ++i) {
      double hx = (i + 0.5) * 2.0 / FB_SPLAT_HEADING_CELLS - 1, hy = (j + 0.5) * 2.0 / FB_SPLAT_HEADING_CELLS - 1;
      double turns = fbMath_Atan2(hy, hx) / (2 * FB_PI);
      s->heading[j][i] = (uint8_t)((int)lround(turns * FB_SPLAT_DIRECTIONS + FB_SPLAT_DIRECTIONS) % FB_SPLAT_DIRECTIONS);
    }
  }
  s->heading_built = true;
}

// A heading component's cell, clamped before the conversion to int: a NaN or huge heading (which
// no step makes, but a bad value must not turn into undefined behaviour) gives an edge cell.
static int heading_cell(double h)
{
  double cell = (h + 1.0) * (0.5 * FB_SPLAT_HEADING_CELLS);
  return cell >= 0 ? (cell < FB_SPLAT_HEADING_CELLS - 1 ? (int)cell : FB_SPLAT_HEADING_CELLS - 1) : 0;
}

int fbSplat_Direction(fbSplat *s, double hx, double hy) { return s->heading[heading_cell(hy)][heading_cell(hx)]; }

// A canvas and texture of a new size, both transparent.
static void resize(fbSplat *s, int w, int h)
{
  if (s->texture != NULL) {
    SDL_DestroyTexture(s->texture);
  }
  free(s->pixels);
  free(s->index);
  s->w = w;
  s->h = h;
  s->pixels = calloc((size_t)w * h, sizeof *s->pixels);
  s->index = calloc((size_t)w * h, sizeof *s->index);
  FB_ASSERT(s->pixels != NULL && s->index != NULL);
  s->texture = SDL_CreateTexture(s->sdl, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING, w, h);
  if (s->texture != NULL) {
    SDL_SetTextureBlendMode(s->texture, SDL_BLENDMODE_BLEND);
    SDL_SetTextureScaleMode(s->texture, SDL_ScaleModeNearest);
  }
  s->last = (SDL_Rect){0, 0, w, h};  // the new texture's pixels are undefined: write them all
}

void fbSplat_Begin(fbSplat *s, SDL_Renderer *sdl, SDL_Rect view, bool blended)
{
  if (!s->heading_built) {
    build_heading_table(s);
  }
  int w = view.w > 1 ? view.w : 1, h = view.h > 1 ? view.h : 1;
  if (sdl != s->sdl || w != s->w || h != s->h || s->pixels == NULL) {
    s->sdl = sdl;
    resize(s, w, h);
  }
  s->view_x = view.x;
  s->view_y = view.y;
  for (int y = s->last.y; y < s->last.y + s->last.h; ++y) {
    if (s->blended) {
      memset(s->pixels + (size_t)y * s->w + s->last.x, 0, (size_t)s->last.w * sizeof *s->pixels);
    } else {
      memset(s->index + (size_t)y * s->w + s->last.x, 0, (size_t)s->last.w);
    }
  }
  s->blended = blended;
  s->drawn = (SDL_Rect){0, 0, 0, 0};
  s->lo_x = s->lo_y = INT32_MAX;
  s->hi_x = s->hi_y = INT32_MIN;
  s->radius = 0;
  s->colours = 1;
  s->palette[0] = 0;
}

uint8_t fbSplat_Colour(fbSplat *s, uint32_t argb)
{
  for (int k = 1; k < s->colours; ++k) {
    if (s->palette[k] == argb) {
      return (uint8_t)k;
    }
  }
  if (s->colours == 256) {
    return 255;
  }
  s->palette[s->colours] = argb;
  return (uint8_t)s->colours++;
}

static void fill(uint8_t *row, int x0, int len, int w, uint8_t colour)
{
  int x1 = x0 + len;
  x0 = x0 < 0 ? 0 : x0;
  x1 = x1 > w ? w : x1;
  for (int x = x0; x < x1; ++x) {
    row[x] = colour;
  }
}

void fbSplat_Stamp(fbSplat *s, const fbStamps *st, int direction, int x, int y, uint8_t colour, bool outline,
                   uint8_t outline_colour)
{
  if (x < -FB_SPLAT_FAR || x > FB_SPLAT_FAR || y < -FB_SPLAT_FAR || y > FB_SPLAT_FAR) {
    return;  // far off any canvas; subtracting the view could overflow
  }
  x -= s->view_x;
  y -= s->view_y;
  int r = st->radius;
  if (x + r < 0 || y + r < 0 || x - r >= s->w || y - r >= s->h) {
    return;
  }
  // The touched area is the anchors' extent grown by the largest radius (fbSplat_End).
  s->lo_x = x < s->lo_x ? x : s->lo_x;
  s->hi_x = x > s->hi_x ? x : s->hi_x;
  s->lo_y = y < s->lo_y ? y : s->lo_y;
  s->hi_y = y > s->hi_y ? y : s->hi_y;
  s->radius = r > s->radius ? r : s->radius;
  const fbStampRow *row = st->rows + st->first[direction], *end = st->rows + st->first[direction + 1];
  uint8_t *at = s->index + (ptrdiff_t)y * s->w + x;
  if (x - r >= 0 && y - r >= 0 && x + r < s->w && y + r < s->h) {  // all inside: no clipping
    for (; row < end; ++row) {
      uint8_t *line = at + (ptrdiff_t)row->dy * s->w;
      if (outline) {
        memset(line + row->outline_x, outline_colour, (size_t)row->outline_len);
      }
      memset(line + row->body_x, colour, (size_t)row->body_len);
    }
    return;
  }
  for (; row < end; ++row) {
    int py = y + row->dy;
    if (py >= 0 && py < s->h) {
      uint8_t *line = s->index + (size_t)py * s->w;
      if (outline) {
        fill(line, x + row->outline_x, row->outline_len, s->w, outline_colour);
      }
      fill(line, x + row->body_x, row->body_len, s->w, colour);
    }
  }
}

// ---- lines --------------------------------------------------------------------------------------

/*
 * Blending onto the canvas, whose colours are not premultiplied (SDL blends the texture as
 * out = src * a + dst * (1 - a)). Painting colour c with opacity a over a canvas pixel (C, A) must
 * give the pixel that, blended over anything, looks like C over it and then c over that:
 *   A' = a + A (1 - a),   C' = C + (c - C) a / A'.
 * A transparent pixel takes (c, a) as is; an opaque one is an ordinary mix.
 */
static void blend(uint32_t *p, uint32_t rgb, int a)
{
  uint32_t dst = *p;
  int A = (int)(dst >> 24);
  if (A == 0) {
    *p = ((uint32_t)a << 24) | rgb;
    return;
  }
  int out_a = a + A - (a * A + 127) / 255;
  int f = (a << 8) / (out_a > 0 ? out_a : 1);  // share of the new colour, of 256
  uint32_t out = (uint32_t)out_a << 24;
  for (int shift = 0; shift < 24; shift += 8) {
    int C = (int)((dst >> shift) & 255), c = (int)((rgb >> shift) & 255);
    out |= (uint32_t)(C + (((c - C) * f) >> 8)) << shift;
  }
  *p = out;
}

/*
 * A thick line by stepping one pixel at a time along its longer axis and blending a run across it
 * at each step. A run of n pixels across a line at angle t to the axis is n cos t wide, so the run
 * is width / cos t = width * length / (extent along the axis) long.
 */
void fbSplat_Line(fbSplat *s, float ax, float ay, float bx, float by, float width, uint32_t rgb, int alpha,
                  bool skip_start)
{
  ax -= (float)s->view_x + 0.5f;  // pixel centres at whole numbers
  ay -= (float)s->view_y + 0.5f;
  bx -= (float)s->view_x + 0.5f;
  by -= (float)s->view_y + 0.5f;
  bool steep = fabsf(by - ay) > fabsf(bx - ax);
  if (steep) {  // step along y: swap the axes, and swap back when writing
    float t = ax; ax = ay; ay = t;
    t = bx; bx = by; by = t;
  }
  float major = fabsf(bx - ax), length = sqrtf(major * major + (by - ay) * (by - ay));
  if (length < 1e-3f) {
    return;
  }
  // The pixel columns whose centres lie between the ends; the first is the previous piece's last.
  int u_first = (int)lroundf(ax), u_last = (int)lroundf(bx), dir = u_last >= u_first ? 1 : -1;
  float run = width * length / fmaxf(major, 1.0f);
  float slope = major > 1e-3f ? (by - ay) / (bx - ax) : 0.0f;
  int limit_u = steep ? s->h : s->w, limit_v = steep ? s->w : s->h;
  int umin = limit_u, umax = -1, vmin = limit_v, vmax = -1;
  for (int u = skip_start ? u_first + dir : u_first; u != u_last + dir; u += dir) {
    if (u < 0 || u >= limit_u) {
      continue;
    }
    float v = ay + slope * ((float)u - ax);
    int v0 = (int)lroundf(v - 0.5f * run), v1 = v0 + (int)fmaxf(1.0f, lroundf(run));
    v0 = v0 < 0 ? 0 : v0;
    v1 = v1 > limit_v ? limit_v : v1;
    for (int vv = v0; vv < v1; ++vv) {
      blend(steep ? &s->pixels[(size_t)u * s->w + vv] : &s->pixels[(size_t)vv * s->w + u], rgb, alpha);
    }
    umin = u < umin ? u : umin;
    umax = u > umax ? u : umax;
    vmin = v0 < vmin ? v0 : vmin;
    vmax = v1 > vmax ? v1 : vmax;
  }
  if (umax >= umin && vmax > vmin) {
    if (steep) {
      touch(s, vmin, umin, vmax, umax + 1);
    } else {
      touch(s, umin, vmin, umax + 1, vmax);
    }
  }
}

// ---- drawing the canvas -------------------------------------------------------------------------

// The part of the texture in `rect` from the canvas: palette colours or blended pixels.
static void write_texture(fbSplat *s, SDL_Rect rect)
{
  void *out;
  int pitch;
  if (SDL_LockTexture(s->texture, &rect, &out, &pitch) != 0) {
    return;
  }
  for (int y = 0; y < rect.h; ++y) {
    uint32_t *dst = (uint32_t *)((uint8_t *)out + (size_t)y * pitch);
    size_t at = (size_t)(rect.y + y) * s->w + rect.x;
    if (s->blended) {
      memcpy(dst, s->pixels + at, (size_t)rect.w * sizeof *dst);
    } else {
      const uint8_t *src = s->index + at;
      for (int x = 0; x < rect.w; ++x) {
        dst[x] = s->palette[src[x]];
      }
    }
  }
  SDL_UnlockTexture(s->texture);
}

void fbSplat_End(fbSplat *s)
{
  if (s->hi_x >= s->lo_x) {
    touch(s, s->lo_x - s->radius, s->lo_y - s->radius, s->hi_x + s->radius + 1, s->hi_y + s->radius + 1);
  }
  SDL_Rect write = rect_union(s->last, s->drawn);
  if (s->texture == NULL) {
    return;
  }
  if (write.w > 0 && write.h > 0) {
    write_texture(s, write);
  }
  if (s->drawn.w > 0 && s->drawn.h > 0) {
    SDL_Rect dst = {s->view_x + s->drawn.x, s->view_y + s->drawn.y, s->drawn.w, s->drawn.h};
    SDL_RenderCopy(s->sdl, s->texture, &s->drawn, &dst);
  }
  s->last = s->drawn;
}

void fbSplat_Free(fbSplat *s)
{
  if (s->texture != NULL) {
    SDL_DestroyTexture(s->texture);
  }
  free(s->pixels);
  free(s->index);
  memset(s, 0, sizeof *s);
}
