// render.c — drawing the world top-down with SDL2: terrain, obstacles, goals, paths, agents, selection; the world offscreen into a PNG.
#include "render.h"

#include <string.h>

#include "accumulate.h"
#include "fb_math.h"
#include "picture.h"
#include "trails.h"

static const SDL_Color BACKGROUND = {22, 24, 28, 255};
static const SDL_Color FIELD = {64, 80, 66, 255};
static const SDL_Color OBSTACLE = {38, 58, 40, 255};
static const SDL_Color OBSTACLE_EDGE = {16, 28, 18, 255};
static const SDL_Color GOAL = {255, 214, 64, 255};
static const SDL_Color PATH = {150, 200, 255, 120};
static const SDL_Color PATH_OBJECT = {255, 150, 60, 255};
static const SDL_Color FLOW = {210, 235, 255, 120};
static const SDL_Color REGION = {255, 120, 210, 210};
static const SDL_Color LEADER = {255, 0, 0, 255};
static const SDL_Color PLAYER = {0, 255, 0, 255};
static const SDL_Color OUTLINE = {10, 12, 14, 255};

// ---- geometry batch -----------------------------------------------------------------------------

static SDL_Vertex *batch_add(fbBatch *b, int n)
{
  if (b->count + n > b->capacity) {
    int cap = b->capacity ? b->capacity : 4096;
    while (cap < b->count + n) {
      cap *= 2;
    }
    b->v = realloc(b->v, (size_t)cap * sizeof *b->v);
    FB_ASSERT(b->v != NULL);
    b->capacity = cap;
  }
  SDL_Vertex *v = b->v + b->count;
  b->count += n;
  return v;
}

static void batch_flush(fbRenderer *r)
{
  if (r->batch.count > 0) {
    SDL_RenderGeometry(r->sdl, NULL, r->batch.v, r->batch.count, NULL, 0);
  }
  r->batch.count = 0;
}

static void batch_triangle(fbBatch *b, fbVec2 p0, fbVec2 p1, fbVec2 p2, SDL_Color c)
{
  SDL_Vertex *v = batch_add(b, 3);
  v[0] = (SDL_Vertex){{(float)p0.x, (float)p0.y}, c, {0, 0}};
  v[1] = (SDL_Vertex){{(float)p1.x, (float)p1.y}, c, {0, 0}};
  v[2] = (SDL_Vertex){{(float)p2.x, (float)p2.y}, c, {0, 0}};
}

// A line of the given width (pixels) as two triangles: SDL2 lines are always one pixel wide.
static void batch_line(fbBatch *b, fbVec2 a, fbVec2 e, double width, SDL_Color c)
{
  fbVec2 d = fbV_Sub(e, a);
  double len = fbV_Length(d);
  if (len < 1e-9) {
    return;
  }
  fbVec2 n = fbV_Scale(fbV(-d.y, d.x), 0.5 * width / len);
  fbVec2 a0 = fbV_Add(a, n), a1 = fbV_Sub(a, n), e0 = fbV_Add(e, n), e1 = fbV_Sub(e, n);
  batch_triangle(b, a0, a1, e0, c);
  batch_triangle(b, a1, e1, e0, c);
}

static int circle_segments(double radius_px) { return (int)fmin(64, fmax(12, radius_px * 0.7)); }

// A filled sector from angle a0 to a1 (radians, y down); a full disc when a1 - a0 >= 2 pi.
static void batch_sector(fbBatch *b, fbVec2 centre, double radius, double a0, double a1, SDL_Color c)
{
  int n = circle_segments(radius);
  for (int k = 0; k < n; ++k) {
    double t0 = a0 + (a1 - a0) * k / n, t1 = a0 + (a1 - a0) * (k + 1) / n;
    fbVec2 p0 = fbV_Add(centre, fbV(fbMath_Cos(t0) * radius, fbMath_Sin(t0) * radius));
    fbVec2 p1 = fbV_Add(centre, fbV(fbMath_Cos(t1) * radius, fbMath_Sin(t1) * radius));
    batch_triangle(b, centre, p0, p1, c);
  }
}

static void batch_arc(fbBatch *b, fbVec2 centre, double radius, double a0, double a1, double width, SDL_Color c)
{
  int n = circle_segments(radius);
  for (int k = 0; k < n; ++k) {
    double t0 = a0 + (a1 - a0) * k / n, t1 = a0 + (a1 - a0) * (k + 1) / n;
    batch_line(b, fbV_Add(centre, fbV(fbMath_Cos(t0) * radius, fbMath_Sin(t0) * radius)),
               fbV_Add(centre, fbV(fbMath_Cos(t1) * radius, fbMath_Sin(t1) * radius)), width, c);
  }
}

static void batch_arrow(fbBatch *b, fbVec2 from, fbVec2 to, double width, SDL_Color c)
{
  fbVec2 d = fbV_Sub(to, from);
  double len = fbV_Length(d);
  if (len < 1.0) {
    return;
  }
  fbVec2 u = fbV_Scale(d, 1.0 / len), n = fbV(-u.y, u.x);
  double head = fmin(len * 0.5, 4.0 + 2.5 * width);
  fbVec2 base = fbV_Sub(to, fbV_Scale(u, head));
  batch_line(b, from, base, width, c);
  batch_triangle(b, to, fbV_Add(base, fbV_Scale(n, head * 0.5)), fbV_Sub(base, fbV_Scale(n, head * 0.5)), c);
}

// ---- terrain ------------------------------------------------------------------------------------

// 1, 2 or 5 times a power of ten, the smallest not below x: contour intervals and grid spacings.
double fbRender_NiceStep(double x)
{
  double p = fbMath_Pow(10.0, floor(fbMath_Log10(x)));
  double m = x / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

// Hypsometric tints from low ground to high: green valleys, olive slopes, brown and pale tops.
static void height_tint(double u, double rgb[3])
{
  static const double stops[5][3] = {
      {62, 98, 60}, {104, 126, 70}, {150, 138, 88}, {138, 108, 80}, {196, 188, 176}};
  double x = fmin(fmax(u, 0.0), 1.0) * 4.0;
  int k = (int)fmin(3, floor(x));
  double f = x - k;
  for (int c = 0; c < 3; ++c) {
    rgb[c] = stops[k][c] + (stops[k + 1][c] - stops[k][c]) * f;
  }
}

/*
 * One texel: tint by height, hill shading from the north-west (the surface normal of the height
 * gradient dotted with the light), and anti-aliased contour lines. A contour is where height /
 * interval is a whole number; the distance to it in texels is the distance in levels divided by the
 * level's gradient per texel, so lines keep one width on steep and gentle slopes alike.
 */
static uint32_t terrain_texel(double h, double gx, double gy, double lo, double range, double interval,
                              double texel_w, double texel_h)
{
  double rgb[3];
  height_tint(range > 0 ? (h - lo) / range : 0.0, rgb);
  double nx = -gx, ny = -gy, nz = 1.0;
  double lx = -0.5, ly = -0.5, lz = 0.7;
  double shade = (nx * lx + ny * ly + nz * lz) / sqrt(nx * nx + ny * ny + nz * nz) / lz;
  shade = fmin(1.3, fmax(0.45, shade));
  double alpha = 0.0;
  if (interval > 0) {
    double level = (h - lo) / interval;
    double d = fabs(level - round(level));
    double g = fbMath_Hypot(gx * texel_w, gy * texel_h) / interval;  // levels per texel
    if (g > 1e-9 && round(level) > 0) {
      double px = d / g;
      bool major = ((long)round(level)) % 5 == 0;
      alpha = fmin(1.0, fmax(0.0, (major ? 1.4 : 1.0) - px)) * (major ? 0.75 : 0.45);
    }
  }
  uint8_t out[4];
  for (int c = 0; c < 3; ++c) {
    double v = rgb[c] * shade;
    v = v * (1 - alpha) + 40 * alpha;
    out[c] = (uint8_t)fmin(255, fmax(0, v));
  }
  out[3] = 255;
  uint32_t px;
  memcpy(&px, out, 4);
  return px;
}

// One pass of a box blur of the given radius along rows (step 1) or columns (step = width).
static void box_blur(const float *in, float *out, int w, int h, int radius, bool rows)
{
  int lines = rows ? h : w, len = rows ? w : h, along = rows ? 1 : w, across = rows ? w : 1;
  for (int l = 0; l < lines; ++l) {
    const float *src = in + (size_t)l * across;
    float *dst = out + (size_t)l * across;
    for (int k = 0; k < len; ++k) {
      double sum = 0;
      for (int d = -radius; d <= radius; ++d) {
        int q = k + d < 0 ? 0 : (k + d >= len ? len - 1 : k + d);
        sum += src[(size_t)q * along];
      }
      dst[(size_t)k * along] = (float)(sum / (2 * radius + 1));
    }
  }
}

/*
 * Heights from an 8-bit image rise in steps; between samples the bilinear surface is a ramp of
 * flat facets, and shading or contouring its exact gradient draws every step as a ripple. Two box
 * blurs about one sample wide (close to a Gaussian) smooth the steps away without moving the hills.
 */
static void smooth_heights(float *h, int w, int hgt, double texels_per_sample)
{
  int radius = (int)fmax(1, round(texels_per_sample * 1.25));
  float *tmp = malloc((size_t)w * hgt * sizeof *tmp);
  FB_ASSERT(tmp != NULL);
  for (int pass = 0; pass < 2; ++pass) {
    box_blur(h, tmp, w, hgt, radius, true);
    box_blur(tmp, h, w, hgt, radius, false);
  }
  free(tmp);
}

// The heightfield as a texture about 1024 texels on its longer side (SDL scales it with the camera).
static void build_terrain(fbRenderer *r, const fbWorld *w)
{
  const fbTerrain *t = &w->terrain;
  int tw = w->width >= w->height ? 1024 : (int)fmax(16, 1024 * w->width / w->height);
  int th = w->height >= w->width ? 1024 : (int)fmax(16, 1024 * w->height / w->width);
  double cw = w->width / tw, ch = w->height / th;
  float *h = malloc((size_t)tw * th * sizeof *h);
  uint32_t *pixels = malloc((size_t)tw * th * sizeof *pixels);
  FB_ASSERT(h != NULL && pixels != NULL);
  double lo = INFINITY, hi = -INFINITY;
  for (int j = 0; j < th; ++j) {
    for (int i = 0; i < tw; ++i) {
      double v = fbTerrain_Height(t, (i + 0.5) * cw, (j + 0.5) * ch);
      h[j * tw + i] = (float)v;
      lo = fmin(lo, v);
      hi = fmax(hi, v);
    }
  }
  smooth_heights(h, tw, th, (double)tw / t->width);
  double range = hi - lo, interval = range > 0 ? fbRender_NiceStep(range / 12) : 0;
  for (int j = 0; j < th; ++j) {
    for (int i = 0; i < tw; ++i) {
      int il = i > 0 ? i - 1 : i, ir = i < tw - 1 ? i + 1 : i;
      int ju = j > 0 ? j - 1 : j, jd = j < th - 1 ? j + 1 : j;
      double gx = (h[j * tw + ir] - h[j * tw + il]) / ((ir - il) * cw);
      double gy = (h[jd * tw + i] - h[ju * tw + i]) / ((jd - ju) * ch);
      pixels[j * tw + i] = terrain_texel(h[j * tw + i], gx, gy, lo, range, interval, cw, ch);
    }
  }
  r->terrain = SDL_CreateTexture(r->sdl, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STATIC, tw, th);
  if (r->terrain != NULL) {
    SDL_UpdateTexture(r->terrain, NULL, pixels, tw * 4);
    SDL_SetTextureScaleMode(r->terrain, SDL_ScaleModeLinear);
  }
  free(h);
  free(pixels);
}

// ---- the world ----------------------------------------------------------------------------------

void fbRender_Init(fbRenderer *r, SDL_Renderer *sdl)
{
  memset(r, 0, sizeof *r);
  r->sdl = sdl;
  fbTrails_Init(&r->trails);
}

void fbRender_Forget(fbRenderer *r)
{
  if (r->terrain != NULL) {
    SDL_DestroyTexture(r->terrain);
  }
  r->terrain = NULL;
  r->terrain_built = false;
  fbTrails_Clear(&r->trails);
}

void fbRender_Free(fbRenderer *r)
{
  fbRender_Forget(r);
  free(r->batch.v);
  fbTrails_Free(&r->trails);
  fbSplat_Free(&r->agent_canvas);
  fbSplat_Free(&r->trail_canvas);
  for (int s = 0; s < FB_MAX_SPECIES; ++s) {
    fbStamps_Free(&r->stamps[s]);
  }
  memset(r, 0, sizeof *r);
}

// A screen point farther than margin pixels outside the view.
// Written as "not inside" so that a NaN position (which no comparison holds for) is off the view
// too, and never reaches an int conversion.
static bool off_view(const fbCamera *c, fbVec2 p, double margin)
{
  return !(p.x >= c->view_x - margin && p.y >= c->view_y - margin && p.x <= c->view_x + c->view_w + margin &&
           p.y <= c->view_y + c->view_h + margin);
}

static SDL_FRect world_rect(const fbWorld *w, const fbCamera *cam)
{
  fbVec2 a = fbCamera_ToScreen(cam, fbV(0, 0)), b = fbCamera_ToScreen(cam, fbV(w->width, w->height));
  return (SDL_FRect){(float)a.x, (float)a.y, (float)(b.x - a.x), (float)(b.y - a.y)};
}

static void set_colour(SDL_Renderer *sdl, SDL_Color c) { SDL_SetRenderDrawColor(sdl, c.r, c.g, c.b, c.a); }

// Flat ground: a plain field with faint lines every "nice" distance, at least 40 pixels apart.
static void draw_field(fbRenderer *r, const fbWorld *w, const fbCamera *cam, SDL_FRect area)
{
  set_colour(r->sdl, FIELD);
  SDL_RenderFillRectF(r->sdl, &area);
  double step = fbRender_NiceStep(40.0 / cam->scale);
  fbVec2 lo = fbCamera_ToWorld(cam, fbV(cam->view_x, cam->view_y));
  fbVec2 hi = fbCamera_ToWorld(cam, fbV(cam->view_x + cam->view_w, cam->view_y + cam->view_h));
  double x0 = fmax(0, ceil(lo.x / step) * step), y0 = fmax(0, ceil(lo.y / step) * step);
  double x1 = fmin(w->width, hi.x), y1 = fmin(w->height, hi.y);
  SDL_SetRenderDrawColor(r->sdl, 255, 255, 255, 22);
  for (double x = x0; x <= x1; x += step) {
    float sx = (float)fbCamera_ToScreen(cam, fbV(x, 0)).x;
    SDL_RenderDrawLineF(r->sdl, sx, area.y, sx, area.y + area.h);
  }
  for (double y = y0; y <= y1; y += step) {
    float sy = (float)fbCamera_ToScreen(cam, fbV(0, y)).y;
    SDL_RenderDrawLineF(r->sdl, area.x, sy, area.x + area.w, sy);
  }
}

static void draw_obstacles(fbRenderer *r, const fbWorld *w, const fbCamera *cam)
{
  const fbObstacles *o = &w->obstacles;
  fbBatch *b = &r->batch;
  for (int pass = 0; pass < 2; ++pass) {
    for (int k = 0; k < o->count; ++k) {
      const fbObstacle *ob = &o->items[k];
      fbVec2 c = fbCamera_ToScreen(cam, ob->centre);
      if (ob->kind == FB_OBSTACLE_CIRCLE) {
        double rad = ob->radius * cam->scale;
        if (pass == 0) {
          batch_sector(b, c, rad, 0, 2 * FB_PI, OBSTACLE);
        } else {
          batch_arc(b, c, rad, 0, 2 * FB_PI, 1.5, OBSTACLE_EDGE);
        }
        continue;
      }
      // Convex polygons: a fan from the centroid, then the edges.
      for (int v = 0; v < ob->vertex_count; ++v) {
        fbVec2 p0 = fbCamera_ToScreen(cam, o->vertices[ob->first_vertex + v]);
        fbVec2 p1 = fbCamera_ToScreen(cam, o->vertices[ob->first_vertex + (v + 1) % ob->vertex_count]);
        if (pass == 0) {
          batch_triangle(b, c, p0, p1, OBSTACLE);
        } else {
          batch_line(b, p0, p1, 1.5, OBSTACLE_EDGE);
        }
      }
    }
  }
  batch_flush(r);
}

static void draw_goals(fbRenderer *r, const fbWorld *w, const fbCamera *cam)
{
  for (int g = 0; g < w->goal_count; ++g) {
    fbVec2 c = fbCamera_ToScreen(cam, w->goals[g].p);
    batch_arc(&r->batch, c, 9, 0, 2 * FB_PI, 2.5, GOAL);
    batch_line(&r->batch, fbV(c.x - 5, c.y), fbV(c.x + 5, c.y), 2, GOAL);
    batch_line(&r->batch, fbV(c.x, c.y - 5), fbV(c.x, c.y + 5), 2, GOAL);
  }
  batch_flush(r);
}

// A path as a polyline through samples of its spline, each segment cut into pieces about 6 pixels
// long on screen (at least 4), so a bend is smooth at any zoom.
static void draw_path_line(fbRenderer *r, const fbPath *p, const fbCamera *cam)
{
  for (int i = 0; i < p->segment_count; ++i) {
    const fbPathSegment *seg = &p->segments[i];
    double pixels = seg->table[FB_PATH_SUBDIV] * cam->scale;
    int pieces = (int)fmin(256, fmax(4, pixels / 6));
    fbVec2 prev = fbCamera_ToScreen(cam, fbPath_SegmentPoint(p, i, 0.0, NULL));
    for (int k = 1; k <= pieces; ++k) {
      fbVec2 next = fbCamera_ToScreen(cam, fbPath_SegmentPoint(p, i, (double)k / pieces, NULL));
      batch_line(&r->batch, prev, next, 2.0, PATH);
      prev = next;
    }
  }
}

// The path object: a diamond pointing along the path, with a dot at its centre.
static void draw_path_object(fbRenderer *r, const fbPath *p, const fbCamera *cam)
{
  fbVec2 c = fbCamera_ToScreen(cam, p->p);
  fbVec2 t = p->tangent, n = fbV(-t.y, t.x);  // the screen has y down as the world does
  fbVec2 front = fbV_Add(c, fbV_Scale(t, 11)), back = fbV_Sub(c, fbV_Scale(t, 7));
  fbVec2 left = fbV_Add(c, fbV_Scale(n, 6)), right = fbV_Sub(c, fbV_Scale(n, 6));
  batch_line(&r->batch, back, left, 2.5, PATH_OBJECT);
  batch_line(&r->batch, left, front, 2.5, PATH_OBJECT);
  batch_line(&r->batch, front, right, 2.5, PATH_OBJECT);
  batch_line(&r->batch, right, back, 2.5, PATH_OBJECT);
  batch_sector(&r->batch, c, 2.5, 0, 2 * FB_PI, PATH_OBJECT);
}

static void draw_paths(fbRenderer *r, const fbWorld *w, const fbCamera *cam)
{
  for (int k = 0; k < w->paths.count; ++k) {
    draw_path_line(r, &w->paths.items[k], cam);
  }
  for (int k = 0; k < w->paths.count; ++k) {
    draw_path_object(r, &w->paths.items[k], cam);
  }
  batch_flush(r);
}

// Each region's edge, closed, in one colour: containment keeps agents inside it.
static void draw_regions(fbRenderer *r, const fbWorld *w, const fbCamera *cam)
{
  for (int k = 0; k < w->regions.count; ++k) {
    const fbRegion *g = &w->regions.items[k];
    for (int v = 0; v < g->count; ++v) {
      batch_line(&r->batch, fbCamera_ToScreen(cam, g->points[v]), fbCamera_ToScreen(cam, g->points[(v + 1) % g->count]),
                 2.0, REGION);
    }
  }
  batch_flush(r);
}

// A route field's distance to its goal as bands of shade under its arrows: every cell reached
// through free space tinted by T over the field's largest T, in 12 bands (isochrones: a band's
// edge is a line of equal cost to the goal), nearest darkest; one fill call per band.
#define ROUTE_BANDS 12
static void draw_route_bands(fbRenderer *r, const fbFlowField *f, const fbCamera *cam)
{
  const fbRoute *route = f->route;
  double top = 0.0;
  for (int k = 0; k < route->cols * route->rows; ++k) {
    top = route->reach[k] == FB_ROUTE_FREE ? fmax(top, route->distance[k]) : top;
  }
  if (!(top > 0.0)) {
    return;
  }
  SDL_FRect *rects = malloc(sizeof *rects * (size_t)route->cols * (size_t)route->rows);
  FB_ASSERT(rects != NULL);
  double w = route->hx * cam->scale, h = route->hy * cam->scale;
  for (int band = 0; band < ROUTE_BANDS; ++band) {
    int n = 0;
    for (int k = 0; k < route->cols * route->rows; ++k) {
      int b = (int)fmin(ROUTE_BANDS - 1, route->distance[k] / top * ROUTE_BANDS);
      if (route->reach[k] != FB_ROUTE_FREE || b != band) {
        continue;
      }
      int i = k % route->cols, j = k / route->cols;
      fbVec2 a = fbCamera_ToScreen(cam, fbV(i * route->hx, j * route->hy));
      fbVec2 z = fbCamera_ToScreen(cam, fbV((i + 1) * route->hx, (j + 1) * route->hy));
      a = fbV(floor(a.x), floor(a.y));  // whole pixels, edge to edge: no seam drawn twice
      z = fbV(floor(z.x), floor(z.y));
      if (!off_view(cam, a, w + h) && z.x > a.x && z.y > a.y) {
        rects[n++] = (SDL_FRect){(float)a.x, (float)a.y, (float)(z.x - a.x), (float)(z.y - a.y)};
      }
    }
    Uint8 light = (Uint8)(band % 2 ? 54 : 24);  // alternate bands, so each isochrone shows
    SDL_SetRenderDrawColor(r->sdl, 255, 220, 120, light);
    SDL_RenderFillRectsF(r->sdl, rects, n);
  }
  free(rects);
}

// A flow field as arrows on a lattice at least 24 pixels apart (a multiple of its own cells, so an
// arrow sits on a sample), each pointing along the bilinear velocity there and as long as its speed
// over the field's top speed allows, within the visible part of the world; a route's distance
// shaded beneath.
static void draw_flow(fbRenderer *r, const fbFlowField *f, const fbCamera *cam)
{
  double top = f->top_speed, cell_px = fmin(f->width / f->cols, f->height / f->rows) * cam->scale;
  if (top <= 0.0 || !(cell_px > 0.0)) {
    return;
  }
  if (f->route != NULL) {
    draw_route_bands(r, f, cam);
  }
  int stride = (int)fmax(1.0, ceil(24.0 / cell_px));
  double spacing = stride * cell_px;
  for (int j = stride / 2; j < f->rows; j += stride) {
    for (int i = stride / 2; i < f->cols; i += stride) {
      fbVec2 at = fbFlowGrid_Centre(i, j, f->cols, f->rows, f->width, f->height);
      fbVec2 s = fbCamera_ToScreen(cam, at);
      if (off_view(cam, s, spacing)) {
        continue;
      }
      fbVec2 v = fbFlowField_Sample(f, at.x, at.y);
      fbVec2 half = fbV_Scale(v, 0.4 * spacing / top);
      batch_arrow(&r->batch, fbV_Sub(s, half), fbV_Add(s, half), 1.2, FLOW);
    }
  }
  batch_flush(r);
}

void fbRender_World(fbRenderer *r, const fbSim *sim, const fbCamera *cam)
{
  const fbWorld *w = fbSim_World(sim);
  SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
  set_colour(r->sdl, BACKGROUND);
  SDL_RenderClear(r->sdl);
  SDL_FRect area = world_rect(w, cam);
  if (fbTerrain_IsFlat(&w->terrain)) {
    draw_field(r, w, cam, area);
  } else {
    if (!r->terrain_built) {
      build_terrain(r, w);
      r->terrain_built = true;
    }
    if (r->terrain != NULL) {
      SDL_RenderCopyF(r->sdl, r->terrain, NULL, &area);
    }
  }
  // A solid edge for walls, a faint one for a torus.
  if (w->bounds == FB_BOUNDS_CLAMP) {
    SDL_SetRenderDrawColor(r->sdl, 220, 220, 220, 150);
  } else {
    SDL_SetRenderDrawColor(r->sdl, 140, 180, 240, 90);
  }
  SDL_RenderDrawRectF(r->sdl, &area);
  draw_obstacles(r, w, cam);
  for (int k = 0; !r->hide_flow && k < w->flows.count; ++k) {
    draw_flow(r, &w->flows.items[k], cam);
  }
  draw_regions(r, w, cam);
  draw_paths(r, w, cam);
  draw_goals(r, w, cam);
}

// ---- agents -------------------------------------------------------------------------------------

SDL_Color fbRender_SpeciesColour(const fbSpecies *s)
{
  return s->player ? PLAYER : (SDL_Color){s->colour[0], s->colour[1], s->colour[2], 255};
}

SDL_Color fbRender_AgentColour(const fbWorld *w, int i, int leader_field)
{
  const fbSpecies *s = &w->species[w->agents.species[i]];
  if (!s->player && leader_field >= 0 && w->agents.field[leader_field][i] != 0) {
    return LEADER;
  }
  return fbRender_SpeciesColour(s);
}

// On-screen length of an agent: its body length, but never shorter than its species' draw_size
// (9 px unless the scenario asks for more: so that it does not disappear, or a predator stands out).
static double agent_length(const fbSpecies *s, double scale) { return fmax(s->body_length * scale, s->draw_size); }

static uint32_t argb(SDL_Color c) { return (uint32_t)c.a << 24 | (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b; }

// A dark triangle 3 pixels longer behind the coloured one, so that agents stand out on any ground.
#define OUTLINE_EXTRA 3.0

static void agent_triangles(fbBatch *b, fbVec2 p, fbVec2 h, double len, bool outline, SDL_Color c)
{
  fbVec2 n = fbV(-h.y, h.x);
  for (int layer = outline ? 0 : 1; layer < 2; ++layer) {
    double l = layer == 0 ? len + OUTLINE_EXTRA : len;
    fbVec2 tip = fbV_Add(p, fbV_Scale(h, 0.6 * l)), back = fbV_Sub(p, fbV_Scale(h, 0.4 * l));
    batch_triangle(b, tip, fbV_Add(back, fbV_Scale(n, 0.32 * l)), fbV_Sub(back, fbV_Scale(n, 0.32 * l)),
                   layer == 0 ? OUTLINE : c);
  }
}

// The HUD's line: how many agents were drawn how, and what was left out.
static void describe(fbRenderer *r, int stamped, double stamp_lo, double stamp_hi, int triangles, bool outline)
{
  char *m = r->mode;
  size_t n = sizeof r->mode;
  int len = snprintf(m, n, "%d agents drawn", stamped + triangles);
  if (stamped > 0) {
    if (lround(stamp_lo) == lround(stamp_hi)) {
      len += snprintf(m + len, n - len, "%s as %ld-px stamps", triangles ? "," : "", lround(stamp_lo));
    } else {
      len += snprintf(m + len, n - len, "%s as %ld-%ld-px stamps", triangles ? "," : "", lround(stamp_lo),
                      lround(stamp_hi));
    }
    if (triangles > 0) {
      len += snprintf(m + len, n - len, " (%d) and triangles (%d)", stamped, triangles);
    }
  }
  if (!outline && stamped + triangles > 0) {
    len += snprintf(m + len, n - len, " (no outlines above %d)", FB_RENDER_OUTLINE_MAX);
  }
  if (r->trails.every == 1) {
    snprintf(m + len, n - len, "; trails %.1f s", r->trails.seconds);
  } else if (r->trails.every > 1) {
    snprintf(m + len, n - len, "; trails %.1f s on 1 in %d agents", r->trails.seconds, r->trails.every);
  }
  r->trails.every = 0;  // until fbRender_Trails draws again
}

const char *fbRender_AgentMode(const fbRenderer *r) { return r->mode; }

void fbRender_Agents(fbRenderer *r, const fbSim *sim, const fbCamera *cam)
{
  const fbWorld *w = fbSim_World(sim);
  const fbAgents *a = &w->agents;
  int leader = fbWorld_FindField(w, "leader");
  // Crowds of many thousands (which hide the ground anyway) go without outlines: they would double
  // the pixels to fill. fbRender_AgentMode says so.
  bool outline = a->count <= FB_RENDER_OUTLINE_MAX;
  double lengths[FB_MAX_SPECIES];
  bool stamp[FB_MAX_SPECIES];
  for (int s = 0; s < w->species_count; ++s) {
    lengths[s] = agent_length(&w->species[s], cam->scale);
    stamp[s] = lengths[s] <= FB_SPLAT_MAX_LENGTH;
    if (stamp[s]) {
      fbStamps_Build(&r->stamps[s], lengths[s], OUTLINE_EXTRA);
    }
  }
  fbSplat *canvas = &r->agent_canvas;
  fbSplat_Begin(canvas, r->sdl, fbCamera_View(cam), false);
  uint8_t outline_colour = fbSplat_Colour(canvas, argb(OUTLINE));
  uint32_t last_colour = 0;  // neighbours mostly share a colour: look the palette up on a change
  uint8_t last_index = 0;
  int stamped = 0, triangles = 0;
  double stamp_lo = INFINITY, stamp_hi = 0;
  for (int i = 0; i < a->count; ++i) {
    if (!a->active[i]) {
      continue;
    }
    int s = a->species[i];
    fbVec2 p = fbCamera_ToScreen(cam, fbV(a->px[i], a->py[i]));
    if (off_view(cam, p, lengths[s])) {
      continue;
    }
    SDL_Color c = fbRender_AgentColour(w, i, leader);
    if (a->held[i]) {  // held still (a perched bird): a darker shade, sitting among those that fly
      c = (SDL_Color){(uint8_t)(c.r * 0.45), (uint8_t)(c.g * 0.45), (uint8_t)(c.b * 0.45), c.a};
    }
    if (stamp[s]) {
      if (argb(c) != last_colour || last_index == 0) {
        last_colour = argb(c);
        last_index = fbSplat_Colour(canvas, last_colour);
      }
      int d = fbSplat_Direction(canvas, a->hx[i], a->hy[i]);
      fbSplat_Stamp(canvas, &r->stamps[s], d, (int)floor(p.x), (int)floor(p.y), last_index, outline, outline_colour);
      stamped++;
      stamp_lo = fmin(stamp_lo, lengths[s]);
      stamp_hi = fmax(stamp_hi, lengths[s]);
    } else {
      agent_triangles(&r->batch, p, fbV(a->hx[i], a->hy[i]), lengths[s], outline, c);
      triangles++;
    }
  }
  fbSplat_End(canvas);
  // Every agent is opaque: without blending both the software and the GL renderer fill faster.
  SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_NONE);
  batch_flush(r);
  SDL_SetRenderDrawBlendMode(r->sdl, SDL_BLENDMODE_BLEND);
  describe(r, stamped, stamp_lo, stamp_hi, triangles, outline);
}

// ---- trails -------------------------------------------------------------------------------------

// Trail pieces drawn per frame, at most: each is a few pixels long and blended twice (under-stroke
// and line). Past it only the trails of 1 agent in `every` (chosen by id, so the same ones each
// frame) are drawn, and fbRender_AgentMode says so.
#define TRAIL_PIECE_BUDGET 40000

void fbRender_Trails(fbRenderer *r, const fbSim *sim, const fbCamera *cam)
{
  fbTrails *t = &r->trails;
  const fbWorld *w = fbSim_World(sim);
  const fbAgents *a = &w->agents;
  int leader = fbWorld_FindField(w, "leader");
  // Agents off screen are skipped unless their tail (at most max_speed for the trail's length) can
  // reach into the view.
  double reach[FB_MAX_SPECIES];
  for (int s = 0; s < w->species_count; ++s) {
    reach[s] = w->species[s].limits.max_speed * t->seconds * cam->scale + FB_TRAIL_UNDER_WIDTH;
  }
  int pieces = (int)fmin(t->filled, ceil(t->seconds / w->dt / fbTrails_Interval(t->seconds, w->dt)));
  t->every = (int)fmax(1, ceil((double)a->count * pieces / TRAIL_PIECE_BUDGET));
  fbSplat_Begin(&r->trail_canvas, r->sdl, fbCamera_View(cam), true);
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < a->count; ++i) {
      if (!a->active[i] || a->id[i] % (uint32_t)t->every != 0) {
        continue;
      }
      fbVec2 s = fbCamera_ToScreen(cam, fbV(a->px[i], a->py[i]));
      if (!off_view(cam, s, reach[a->species[i]])) {
        SDL_Color c = pass == 0 ? OUTLINE : fbRender_AgentColour(w, i, leader);
        fbTrails_DrawAgent(t, &r->trail_canvas, sim, cam, i, argb(c) & 0xffffff, pass);
      }
    }
  }
  fbSplat_End(&r->trail_canvas);
}

// ---- the selected agent -------------------------------------------------------------------------

SDL_Color fbRender_RuleColour(int k)
{
  static const SDL_Color palette[] = {{255, 99, 71, 255},  {65, 160, 255, 255}, {255, 200, 0, 255},
                                      {180, 110, 255, 255}, {0, 220, 200, 255}, {255, 140, 200, 255},
                                      {160, 230, 60, 255},  {255, 160, 60, 255}};
  return palette[k % (int)(sizeof palette / sizeof palette[0])];
}

int fbRender_SelectionCircles(const fbSim *sim, int i, fbSelectionCircle *out, int max)
{
  const fbWorld *w = fbSim_World(sim);
  int s = w->agents.species[i], n = 0;
  const fbSpecies *sp = &w->species[s];
  static const SDL_Color WHITE = {255, 255, 255, 150};
  if (n < max && sp->vision.radius > 0) {
    out[n++] = (fbSelectionCircle){sp->vision.radius, WHITE, ""};
    snprintf(out[n - 1].label, sizeof out[0].label, "vision %g", sp->vision.radius);
  }
  if (n < max && sp->vision.separation_radius > 0) {
    out[n++] = (fbSelectionCircle){sp->vision.separation_radius, {255, 255, 255, 90}, ""};
    snprintf(out[n - 1].label, sizeof out[0].label, "separation %g", sp->vision.separation_radius);
  }
  for (int k = 0; k < sp->rule_count; ++k) {
    char names[32][FB_NAME_LEN];
    double values[32];
    int count = fbSim_ListParams(sim, s, k, names, values, 32);
    for (int q = 0; q < count && n < max; ++q) {
      const fbParamSpec *spec = fbSim_ParamSpec(sim, s, k, names[q]);
      if (spec != NULL && spec->circle && values[q] > 0 && !sp->rules[k].disabled) {
        SDL_Color c = fbRender_RuleColour(k);
        c.a = 200;
        out[n++] = (fbSelectionCircle){values[q], c, ""};
        snprintf(out[n - 1].label, sizeof out[0].label, "%.*s.%.*s %g", FB_NAME_LEN - 1, fbSim_RuleName(sim, s, k),
                 FB_NAME_LEN - 1, names[q], values[q]);
      }
    }
  }
  return n;
}

void fbRender_Contributions(const fbSim *sim, int i, fbVec2 contributions[FB_MAX_RULES], bool ran[FB_MAX_RULES],
                            bool *truncated)
{
  const fbSpecies *sp = &fbSim_World(sim)->species[fbSim_World(sim)->agents.species[i]];
  fbVec2 outs[FB_MAX_RULES];
  double weights[FB_MAX_RULES];
  bool steering[FB_MAX_RULES], preempt[FB_MAX_RULES];
  for (int k = 0; k < sp->rule_count; ++k) {
    ran[k] = fbSim_InspectOutput(sim, k, &outs[k]) && !sp->rules[k].disabled;
    bool physical = sp->rules[k].force || sp->rules[k].drag;
    steering[k] = ran[k] && !physical;  // forces and drags are not steering: they bypass the accumulator
    weights[k] = sp->rules[k].weight;
    preempt[k] = sp->rules[k].preempt;
  }
  fbAccum_Contributions(sp->accumulator, sp->limits.max_accel, sp->rule_count, outs, steering, weights, preempt,
                        contributions, truncated);
  for (int k = 0; k < sp->rule_count; ++k) {
    if (ran[k] && !steering[k]) {
      contributions[k] = fbV_Scale(outs[k], weights[k]);
    }
  }
}

/*
 * The inspected agent's ORCA problem (orca.h), drawn in velocity space round the agent: a velocity
 * v is the point the agent would reach in `seconds` at it. Each half-plane is the part of its line
 * within 1.25 max_speed, hatched on the forbidden side (obstacles' orange, agents' cyan); the
 * max-speed disc faint, at least 90 px in radius whatever the zoom; the preferred velocity yellow, the chosen one green.
 */
static void orca_half_plane(fbBatch *b, const fbCamera *cam, fbVec2 at, const fbOrcaLine *l, double reach,
                            double seconds, SDL_Color c)
{
  double along = fbV_Dot(l->point, l->dir);
  double disc = along * along - fbV_Length2(l->point) + reach * reach;
  if (disc <= 0) {
    return;  // the line misses the disc: it forbids nothing the agent could do
  }
  fbVec2 forbidden = fbV(l->dir.y, -l->dir.x);  // the right of the line
  for (int k = 0; k <= 8; ++k) {
    double t = -along - sqrt(disc) + 2 * sqrt(disc) * k / 8.0;
    fbVec2 v = fbV_Add(l->point, fbV_Scale(l->dir, t));
    fbVec2 q = fbCamera_ToScreen(cam, fbV_Add(at, fbV_Scale(v, seconds)));
    batch_line(b, q, fbV_Add(q, fbV_Scale(forbidden, 7.0)), 1.0, (SDL_Color){c.r, c.g, c.b, 110});
  }
  fbVec2 v0 = fbV_Add(l->point, fbV_Scale(l->dir, -along - sqrt(disc)));
  fbVec2 v1 = fbV_Add(l->point, fbV_Scale(l->dir, -along + sqrt(disc)));
  batch_line(b, fbCamera_ToScreen(cam, fbV_Add(at, fbV_Scale(v0, seconds))),
             fbCamera_ToScreen(cam, fbV_Add(at, fbV_Scale(v1, seconds))), 1.5, c);
}

static void orca_plan(fbBatch *b, const fbSim *sim, const fbCamera *cam, int i)
{
  const fbWorld *w = fbSim_World(sim);
  const fbOrcaPlan *plan = fbSim_OrcaPlan(sim, w->agents.id[i]);
  const fbSpecies *s = &w->species[w->agents.species[i]];
  if (plan == NULL) {
    return;
  }
  fbVec2 at = fbV(w->agents.px[i], w->agents.py[i]);
  double max_speed = s->limits.max_speed;
  // The max-speed disc at least 90 px across on screen, so the half-planes read at any zoom.
  double seconds = fmax(90.0 / cam->scale, fmax(s->vision.radius, 4 * s->body_length)) / max_speed;
  fbVec2 p = fbCamera_ToScreen(cam, at);
  batch_arc(b, p, max_speed * seconds * cam->scale, 0, 2 * FB_PI, 1.0, (SDL_Color){255, 255, 255, 70});
  for (int k = 0; k < plan->count; ++k) {
    SDL_Color c = k < plan->obstacle_count ? (SDL_Color){255, 150, 40, 220} : (SDL_Color){60, 220, 255, 220};
    orca_half_plane(b, cam, at, &plan->lines[k], 1.25 * max_speed, seconds, c);
  }
  batch_arrow(b, p, fbCamera_ToScreen(cam, fbV_Add(at, fbV_Scale(plan->preferred, seconds))), 2.5,
              (SDL_Color){255, 230, 0, 230});
  batch_arrow(b, p, fbCamera_ToScreen(cam, fbV_Add(at, fbV_Scale(plan->chosen, seconds))), 2.5,
              (SDL_Color){80, 255, 120, 230});
}

void fbRender_Selection(fbRenderer *r, const fbSim *sim, const fbCamera *cam, int i, double *px_per_accel)
{
  const fbWorld *w = fbSim_World(sim);
  const fbAgents *a = &w->agents;
  const fbSpecies *s = &w->species[a->species[i]];
  fbBatch *b = &r->batch;
  fbVec2 pw = fbV(a->px[i], a->py[i]), p = fbCamera_ToScreen(cam, pw);
  double radius = s->vision.radius * cam->scale, heading = fbMath_Atan2(a->hy[i], a->hx[i]);
  double half = s->vision.def.fov >= 360 ? FB_PI : s->vision.def.fov * FB_PI / 360.0;
  batch_sector(b, p, radius, heading - half, heading + half, (SDL_Color){255, 255, 255, 34});
  if (half < FB_PI) {
    batch_line(b, p, fbV_Add(p, fbV(fbMath_Cos(heading - half) * radius, fbMath_Sin(heading - half) * radius)), 1.5,
               (SDL_Color){255, 255, 255, 150});
    batch_line(b, p, fbV_Add(p, fbV(fbMath_Cos(heading + half) * radius, fbMath_Sin(heading + half) * radius)), 1.5,
               (SDL_Color){255, 255, 255, 150});
  }
  fbSelectionCircle circles[FB_MAX_SELECTION_CIRCLES];
  int n = fbRender_SelectionCircles(sim, i, circles, FB_MAX_SELECTION_CIRCLES);
  for (int c = 0; c < n; ++c) {
    double rc = circles[c].radius * cam->scale;
    bool vision = c == 0 && s->vision.radius > 0;
    batch_arc(b, p, rc, vision ? heading - half : 0, vision ? heading + half : 2 * FB_PI, 1.5, circles[c].colour);
  }
  uint32_t whose = 0;
  const fbNeighbourList *seen = fbSim_SeenList(sim, &whose);  // fbSim_Seen, called by the viewer for this agent
  for (int k = 0; whose == a->id[i] && k < seen->len; ++k) {
    fbVec2 q = fbV_Add(pw, fbV(seen->dx[k], seen->dy[k]));
    batch_line(b, p, fbCamera_ToScreen(cam, q), 1.0, (SDL_Color){255, 255, 255, 120});
  }
  // Contributions, to scale with each other: the longest of them (rules and the combined
  // acceleration in white) reaches 0.8 of the vision radius. Their sizes are in the inspector.
  fbVec2 parts[FB_MAX_RULES];
  bool ran[FB_MAX_RULES], truncated;
  fbRender_Contributions(sim, i, parts, ran, &truncated);
  fbVec2 total = fbV(a->ax[i], a->ay[i]);
  double longest = fbV_Length(total);
  for (int k = 0; k < s->rule_count; ++k) {
    longest = ran[k] ? fmax(longest, fbV_Length(parts[k])) : longest;
  }
  double per_accel = longest > 0 ? fmax(0.8 * radius, 40.0) / longest : 0;  // inside the circle and its label
  // The total first, wide, so the rules' arrows along it stay visible on top of it.
  batch_arrow(b, p, fbV_Add(p, fbV_Scale(total, per_accel)), 5.0, (SDL_Color){255, 255, 255, 200});
  for (int k = 0; k < s->rule_count; ++k) {
    if (ran[k]) {
      batch_arrow(b, p, fbV_Add(p, fbV_Scale(parts[k], per_accel)), 2.0, fbRender_RuleColour(k));
    }
  }
  batch_arc(b, p, agent_length(s, cam->scale) * 0.9, 0, 2 * FB_PI, 2.0, (SDL_Color){255, 255, 255, 230});
  orca_plan(b, sim, cam, i);
  batch_flush(r);
  if (px_per_accel != NULL) {
    *px_per_accel = per_accel;
  }
}

// ---- the world in a picture ---------------------------------------------------------------------

/*
 * A world of W x H units in a box of bw x bh pixels keeps its aspect at the scale
 * s = min(bw / W, bh / H) pixels a unit (a missing bound drops out of the min): the picture is
 * round(s W) x round(s H), so one side fills the box and the other is no larger than it.
 */
void fbRender_PictureSize(const fbSim *sim, int box_w, int box_h, int *width, int *height)
{
  if (box_w <= 0 && box_h <= 0) {
    box_w = box_h = 1024;
  }
  const fbWorld *w = fbSim_World(sim);
  double ww = w->width > 0 ? w->width : 1, wh = w->height > 0 ? w->height : 1;
  double scale = box_w > 0 ? box_w / ww : box_h / wh;
  if (box_h > 0 && box_h / wh < scale) {
    scale = box_h / wh;
  }
  *width = (int)fmax(1, lround(scale * ww));
  *height = (int)fmax(1, lround(scale * wh));
}

bool fbRender_SavePng(const fbSim *sim, const char *path, int width, int height, char *err, size_t errlen)
{
  if (width < 1 || height < 1 || width > 16384 || height > 16384) {
    snprintf(err, errlen, "%s: picture size %dx%d out of range", path, width, height);
    return false;
  }
  SDL_Surface *surface = SDL_CreateRGBSurfaceWithFormat(0, width, height, 32, SDL_PIXELFORMAT_RGBA32);
  SDL_Renderer *sdl = surface ? SDL_CreateSoftwareRenderer(surface) : NULL;
  if (sdl == NULL) {
    snprintf(err, errlen, "%s: cannot create a %dx%d drawing surface: %s", path, width, height, SDL_GetError());
    SDL_FreeSurface(surface);
    return false;
  }
  fbRenderer r;
  fbRender_Init(&r, sdl);
  fbCamera cam;
  fbCamera_FitScenario(&cam, sim, (SDL_Rect){0, 0, width, height}, 8);
  fbRender_World(&r, sim, &cam);
  fbRender_Agents(&r, sim, &cam);
  bool ok = fbPicture_WritePng(sdl, path, err, errlen);
  fbRender_Free(&r);
  SDL_DestroyRenderer(sdl);
  SDL_FreeSurface(surface);
  return ok;
}
