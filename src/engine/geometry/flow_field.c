// flow_field.c — flow fields: a grid of velocity samples from a PNG or a sampled function, read bilinearly.
#include "flow_field.h"

#include <stb_image.h>

#include "fb_math.h"
#include "paths.h"
#include "terrain.h"

double fbFlowGrid_Size(double width, double height, double cell, int *cols, int *rows)
{
  double c = fmax(1.0, ceil(width / cell)), r = fmax(1.0, ceil(height / cell));
  *cols = c < FB_FLOW_MAX_CELLS ? (int)c : FB_FLOW_MAX_CELLS;
  *rows = r < FB_FLOW_MAX_CELLS ? (int)r : FB_FLOW_MAX_CELLS;
  return c * r;
}

static bool allocate(fbFlowField *f, const char *name, int cols, int rows, double width, double height, char *err,
                     size_t errlen)
{
  memset(f, 0, sizeof *f);
  if (cols < 1 || rows < 1 || (double)cols * rows > FB_FLOW_MAX_CELLS) {
    return fbFail(err, errlen, "a %dx%d grid: a field has 1 to %d samples", cols, rows, FB_FLOW_MAX_CELLS);
  }
  if (!(isfinite(width) && isfinite(height) && width > 0 && height > 0)) {
    return fbFail(err, errlen, "the area %gx%g must be finite and positive", width, height);
  }
  snprintf(f->name, sizeof f->name, "%s", name);
  f->cols = cols;
  f->rows = rows;
  f->width = width;
  f->height = height;
  f->vx = malloc(sizeof *f->vx * (size_t)cols * (size_t)rows);
  f->vy = malloc(sizeof *f->vy * (size_t)cols * (size_t)rows);
  FB_ASSERT(f->vx != NULL && f->vy != NULL);
  return true;
}

static void note_top_speed(fbFlowField *f)
{
  for (int k = 0; k < f->cols * f->rows; ++k) {
    f->top_speed = fmax(f->top_speed, fbMath_Hypot(f->vx[k], f->vy[k]));
  }
}

bool fbFlowField_Init(fbFlowField *f, const char *name, int cols, int rows, double width, double height,
                      const double *vx, const double *vy, char *err, size_t errlen)
{
  if (!allocate(f, name, cols, rows, width, height, err, errlen)) {
    return false;
  }
  for (int k = 0; k < cols * rows; ++k) {
    if (!(fabs(vx[k]) <= FB_MAX_MAGNITUDE && fabs(vy[k]) <= FB_MAX_MAGNITUDE)) {
      fbVec2 at = fbFlowGrid_Centre(k % cols, k / cols, cols, rows, width, height);
      fbFlowField_Free(f);
      return fbFail(err, errlen, "at (%g, %g): the velocity (%g, %g) is not a finite number within +-%g", at.x, at.y,
                    vx[k], vy[k], FB_MAX_MAGNITUDE);
    }
    f->vx[k] = vx[k];
    f->vy[k] = vy[k];
  }
  note_top_speed(f);
  return true;
}

// ---- a route ------------------------------------------------------------------------------------

int fbFlowField_Reroute(fbFlowField *f)
{
  int reached = fbRoute_Solve(f->route, f->vx, f->vy);
  f->top_speed = 0.0;
  note_top_speed(f);
  return reached;
}

bool fbFlowField_InitRoute(fbFlowField *f, const char *name, fbRoute *route, char *err, size_t errlen)
{
  if (!allocate(f, name, route->cols, route->rows, route->width, route->height, err, errlen)) {
    fbRoute_Free(route);
    free(route);
    return false;
  }
  f->route = route;
  if (fbFlowField_Reroute(f) <= 1) {
    fbFlowField_Free(f);
    return fbFail(err, errlen, "no free cell round the goal: is it inside a wall or its clearance?");
  }
  return true;
}

// ---- from a PNG ---------------------------------------------------------------------------------

// One channel byte as a velocity component: 128 is still, 255 is +speed, 1 (and 0) -speed.
static double channel_velocity(unsigned char c, double speed)
{
  double u = (c - 128.0) / 127.0;
  return speed * (u < -1.0 ? -1.0 : u);
}

static bool decode(fbFlowField *f, FILE *f_in, const char *name, const char *path, double speed, double width,
                   double height, char *err, size_t errlen)
{
  int w, h, n;
  unsigned char *rgb = stbi_load_from_file(f_in, &w, &h, &n, 3);
  if (rgb == NULL) {
    return fbFail(err, errlen, "%s: the PNG's image data is corrupt or truncated", path);
  }
  bool ok = w >= 2 && h >= 2 && (double)w * h <= FB_FLOW_MAX_CELLS;
  if (!ok) {
    fbFail(err, errlen, "%s: image is %dx%d; a flow field needs 2x2 to %d pixels in all", path, w, h,
           FB_FLOW_MAX_CELLS);
  } else {
    ok = allocate(f, name, w, h, width, height, err, errlen);
  }
  for (int k = 0; ok && k < w * h; ++k) {
    f->vx[k] = channel_velocity(rgb[3 * k], speed);
    f->vy[k] = channel_velocity(rgb[3 * k + 1], speed);
  }
  stbi_image_free(rgb);
  if (ok) {
    note_top_speed(f);
  }
  return ok;
}

bool fbFlowField_LoadPng(fbFlowField *f, const char *name, const char *path, double speed, double width, double height,
                         char *err, size_t errlen)
{
  memset(f, 0, sizeof *f);
  long size;
  char why[256];
  FILE *in = fbFilePath_OpenRegular(path, FB_FLOW_MAX_FILE_BYTES, &size, why, sizeof why);
  if (in == NULL) {
    return fbFail(err, errlen, "%s: cannot read: %s", path, why);
  }
  int colour = 0;
  bool ok = fbPng_Check(in, size, path, FB_FLOW_MAX_SIDE, &colour, err, errlen);
  if (ok && (colour == 0 || colour == 4)) {
    ok = fbFail(err, errlen, "%s: a greyscale PNG; a flow field needs red (x) and green (y) channels", path);
  }
  ok = ok && decode(f, in, name, path, speed, width, height, err, errlen);
  fclose(in);
  return ok;
}

// ---- reading it ---------------------------------------------------------------------------------

/*
 * Bilinear sampling (the terrain's scheme, terrain.c, applied to each component). Sample (i, j)
 * stands at its cell centre x_i = (i + 1/2) cw, y_j = (j + 1/2) ch, with cw = width / cols and
 * ch = height / rows. For a point (x, y) let
 *
 *   u = x / cw - 1/2,  v = y / ch - 1/2,  both clamped to [0, cols - 1] and [0, rows - 1],
 *   i = min(floor(u), cols - 2),  j = min(floor(v), rows - 2)   (0 on an axis of one sample),
 *   fx = u - i,  fy = v - j,  both in [0, 1];
 *
 *   V(x, y) = (1 - fx)(1 - fy) V(i, j) + fx (1 - fy) V(i+1, j) + (1 - fx) fy V(i, j+1) + fx fy V(i+1, j+1).
 *
 * At a sample centre it is that sample; along a row of centres it is linear; the clamp makes the
 * field constant outward from the outermost centres (the last half cell before the world's edge,
 * and anything beyond it), so no velocity is made up past the data.
 */
static void axis(double t, int n, int *i, double *f)
{
  t = !(t > 0.0) ? 0.0 : (t > n - 1 ? n - 1 : t);  // NaN reads as 0
  int k = n < 2 ? 0 : (int)floor(t);
  k = k > n - 2 ? (n < 2 ? 0 : n - 2) : k;
  *i = k;
  *f = n < 2 ? 0.0 : t - k;
}

fbVec2 fbFlowField_Sample(const fbFlowField *f, double x, double y)
{
  int i, j;
  double fx, fy;
  axis(x * f->cols / f->width - 0.5, f->cols, &i, &fx);
  axis(y * f->rows / f->height - 0.5, f->rows, &j, &fy);
  int i1 = f->cols < 2 ? i : i + 1, j1 = f->rows < 2 ? j : j + 1;
  int k00 = j * f->cols + i, k10 = j * f->cols + i1, k01 = j1 * f->cols + i, k11 = j1 * f->cols + i1;
  double w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy;
  return fbV(w00 * f->vx[k00] + w10 * f->vx[k10] + w01 * f->vx[k01] + w11 * f->vx[k11],
             w00 * f->vy[k00] + w10 * f->vy[k10] + w01 * f->vy[k01] + w11 * f->vy[k11]);
}

void fbFlowField_Free(fbFlowField *f)
{
  if (f->route != NULL) {
    fbRoute_Free(f->route);
    free(f->route);
  }
  free(f->vx);
  free(f->vy);
  memset(f, 0, sizeof *f);
}

int fbFlowFields_Find(const fbFlowFields *fs, const char *name)
{
  for (int k = 0; k < fs->count; ++k) {
    if (strcmp(fs->items[k].name, name) == 0) {
      return k;
    }
  }
  return -1;
}

void fbFlowFields_Free(fbFlowFields *fs)
{
  for (int k = 0; k < fs->count; ++k) {
    fbFlowField_Free(&fs->items[k]);
  }
  free(fs->items);
  memset(fs, 0, sizeof *fs);
}
