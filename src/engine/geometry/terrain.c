// terrain.c — heightfield ground: bilinear height and gradient, PNG loading, seeded generation.
#include "terrain.h"
#include "paths.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include <stb_image.h>

#include "fb_math.h"
#include "rng.h"

/*
 * The maths (Gompert, "Flocking Over 3D Terrain", 2003, section 5): the ground is a height
 * field z = h(x, y); the herd uses its gradient g = (dh/dx, dh/dy), the slope s = |g| and
 * the slope along the velocity s_v = v.g / |v| (section 5.1).
 *
 * Height. Sample (i, j) stands at its pixel centre x_i = (i + 1/2) cw, y_j = (j + 1/2) ch.
 * Between the four surrounding centres h is bilinear: with u = x / cw - 1/2 = i + fx and
 * v = y / ch - 1/2 = j + fy,
 *   h = (1-fx)(1-fy) h[i,j] + fx (1-fy) h[i+1,j] + (1-fx) fy h[i,j+1] + fx fy h[i+1,j+1].
 * u and v are clamped to [0, n-1], so within half a sample of the border, and outside the
 * world, the height is that of the nearest edge (no cliff at the border).
 *
 * Gradient. A central difference of that bilinear height with its two points one sample
 * apart: dh/dx = (h(x + cw/2, y) - h(x - cw/2, y)) / cw, likewise in y. Unlike the
 * derivative of the bilinear patch, this is continuous everywhere (along a row it is the
 * linear interpolation of the slopes between neighbouring samples), so steering forces do
 * not jump when an agent crosses a sample centre; at a sample centre it is the classic
 * (h[i+1] - h[i-1]) / 2cw. Edges: the position is first clamped into the rectangle of sample
 * centres and the two points are kept inside it, dividing by their actual distance, so at
 * the border the difference becomes one-sided (the slope of the last cell) instead of being
 * halved by the clamped height. A single row or column has no slope across it.
 *
 * Flat ground (width == 0) has height 0 and gradient (0, 0) everywhere.
 */

void fbTerrain_InitFlat(fbTerrain *t, double world_w, double world_h)
{
  memset(t, 0, sizeof *t);
  t->world_w = world_w;
  t->world_h = world_h;
  t->cell_w = world_w;  // no samples: one notional cell covering the world, so callers that
  t->cell_h = world_h;  // step by a cell never get a zero step on a real world
}

void fbTerrain_Free(fbTerrain *t)
{
  free(t->h);
  fbTerrain_InitFlat(t, t->world_w, t->world_h);
}

bool fbTerrain_IsFlat(const fbTerrain *t) { return t->width <= 0 || t->height <= 0 || t->h == NULL; }

// Takes ownership of h (width*height finished heights).
static void set_grid(fbTerrain *t, float *h, int width, int height, double world_w, double world_h,
                     double height_scale)
{
  t->width = width;
  t->height = height;
  t->h = h;
  t->world_w = world_w;
  t->world_h = world_h;
  t->height_scale = height_scale;
  t->cell_w = world_w / width;
  t->cell_h = world_h / height;
}

// ---- sampling ----------------------------------------------------------------------------

// Cell index i (with i + 1 the other corner) and fraction for a coordinate along one axis.
// Written with !(u > 0) so that NaN lands on the edge instead of reaching an int conversion.
static int locate(double pos, double cell, int n, double *frac)
{
  double u = pos / cell - 0.5;
  if (!(u > 0.0)) {
    u = 0.0;
  }
  if (u > n - 1) {
    u = n - 1;
  }
  int i = (int)u;
  if (i > n - 2) {
    i = n >= 2 ? n - 2 : 0;
  }
  *frac = u - i;
  return i;
}

double fbTerrain_Height(const fbTerrain *t, double x, double y)
{
  if (fbTerrain_IsFlat(t)) {
    return 0.0;
  }
  double fx, fy;
  int i = locate(x, t->cell_w, t->width, &fx);
  int j = locate(y, t->cell_h, t->height, &fy);
  int i1 = i + (t->width > 1), j1 = j + (t->height > 1);
  const float *r0 = t->h + (size_t)j * t->width, *r1 = t->h + (size_t)j1 * t->width;
  double top = r0[i] + fx * (r0[i1] - r0[i]);
  double bottom = r1[i] + fx * (r1[i1] - r1[i]);
  return top + fy * (bottom - top);
}

// The two ends of a one-sample stencil round pos, kept within the sample centres [lo, hi].
static void stencil(double pos, double cell, int n, double *a, double *b)
{
  double lo = 0.5 * cell, hi = (n - 0.5) * cell;
  pos = fmin(fmax(pos, lo), hi);  // fmax(NaN, lo) is lo
  *a = fmax(pos - 0.5 * cell, lo);
  *b = fmin(pos + 0.5 * cell, hi);
}

fbVec2 fbTerrain_Gradient(const fbTerrain *t, double x, double y)
{
  if (fbTerrain_IsFlat(t)) {
    return fbV(0.0, 0.0);
  }
  double xa, xb, ya, yb;
  stencil(x, t->cell_w, t->width, &xa, &xb);
  stencil(y, t->cell_h, t->height, &ya, &yb);
  // Across the stencil's axis the other coordinate is passed as is: Height clamps it.
  double gx = xb > xa ? (fbTerrain_Height(t, xb, y) - fbTerrain_Height(t, xa, y)) / (xb - xa) : 0.0;
  double gy = yb > ya ? (fbTerrain_Height(t, x, yb) - fbTerrain_Height(t, x, ya)) / (yb - ya) : 0.0;
  return fbV(gx, gy);
}

double fbTerrain_Slope(const fbTerrain *t, double x, double y, fbVec2 dir)
{
  double len = fbV_Length(dir);
  if (!(len > 0.0)) {
    return 0.0;
  }
  return fbV_Dot(fbTerrain_Gradient(t, x, y), dir) / len;
}

// ---- loading -----------------------------------------------------------------------------


static bool valid_size(double world_w, double world_h)
{
  return isfinite(world_w) && isfinite(world_h) && world_w > 0.0 && world_h > 0.0;
}

static uint32_t be32(const unsigned char *p)
{
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/*
 * The PNG header, read by us (PNG spec, 11.2.2 IHDR): width and height, bit depth and colour type
 * give the image data's size before decoding, raw = h * (1 + ceil(w * channels * depth / 8)) bytes
 * (one filter byte per row). That data is deflate-compressed, and deflate cannot shrink anything
 * by more than 1032:1 (RFC 1951's longest match, 258 bytes, in a 2-bit code), so an image whose raw
 * size exceeds 1032 times the file is corrupt or truncated: refused before the decoder allocates
 * for it. stbi_info also refuses 0-pixel and huge images, but with a bare "Corrupt PNG".
 */
typedef struct PngHeader {
  uint32_t w, h;
  int depth, colour;
} PngHeader;

// Returns false on a read error (errno says why); otherwise *bad is NULL or what is wrong.
static bool read_png_header(FILE *f, PngHeader *png, const char **bad)
{
  static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  unsigned char head[26];
  size_t got = fread(head, 1, sizeof head, f);
  int read_errno = ferror(f) ? errno : 0;
  rewind(f);
  errno = read_errno;
  *bad = NULL;
  if (read_errno != 0) {
    return false;
  }
  if (got < 8 || memcmp(head, sig, 8) != 0) {
    *bad = "no PNG signature";
  } else if (got < sizeof head || memcmp(head + 12, "IHDR", 4) != 0) {
    *bad = "no IHDR header";
  } else {
    png->w = be32(head + 16);
    png->h = be32(head + 20);
    png->depth = head[24];
    png->colour = head[25];
  }
  return true;
}

/*
 * The chunks after the signature (PNG spec, 5.3): each is a 4-byte length, a 4-byte type, that many
 * bytes of data and a 4-byte CRC. Two things stb_image does with IDAT chunks are checked first,
 * both found by tests/fuzz/fuzz_png:
 * - it trusts the length and grows its buffer to hold the chunk before reading a byte of it, so a
 *   72-byte file whose IDAT claimed 1.2 GB made it allocate 1.2 GB before failing. A chunk cannot
 *   be longer than the rest of the file: checking every length up to IEND bounds that buffer by
 *   the file's size;
 * - an empty first IDAT makes it copy 0 bytes to its still-NULL buffer (memcpy(NULL, p, 0)), which
 *   is undefined behaviour, however harmless it looks. Such a file is legal but pointless (no
 *   encoder writes one), so it is refused rather than decoded.
 * Sets *bad to what is wrong, or NULL; returns false on a read error (errno says why).
 */
static bool check_chunks(FILE *f, long size, const char **bad)
{
  *bad = NULL;
  long at = 8;  // after the signature
  bool image_data = false;  // an IDAT with data seen
  unsigned char head[8];
  while (*bad == NULL && size - at >= 8 && fseek(f, at, SEEK_SET) == 0 && fread(head, 1, 8, f) == 8) {
    uint32_t length = be32(head);
    if (memcmp(head + 4, "IEND", 4) == 0) {
      break;  // the decoder reads nothing after it
    }
    if (length > 0x7fffffffu || (long)length > size - at - 12) {  // the spec caps lengths at 2^31 - 1
      *bad = "a chunk is longer than the rest of the file";
    } else if (memcmp(head + 4, "IDAT", 4) == 0) {
      if (length == 0 && !image_data) {
        *bad = "its first IDAT chunk is empty";
      }
      image_data = true;
    }
    at += 12 + (long)length;
  }
  int read_errno = ferror(f) ? errno : 0;
  rewind(f);
  errno = read_errno;
  return read_errno == 0;
}

// Channels per pixel of a PNG colour type, 0 for a type the spec does not have.
static int png_channels(int colour)
{
  switch (colour) {
  case 0: return 1;  // grey
  case 2: return 3;  // RGB
  case 3: return 1;  // palette index
  case 4: return 2;  // grey and alpha
  case 6: return 4;  // RGBA
  default: return 0;
  }
}

// Decodes to one grey channel (stb converts colour to luma and drops alpha) and turns it into
// heights in [0, height_scale]: 0 is black, height_scale is full white at either bit depth.
static float *decode_heights(FILE *f, int *w, int *h, double height_scale)
{
  int n;
  bool wide = stbi_is_16_bit_from_file(f);
  void *pixels = wide ? (void *)stbi_load_from_file_16(f, w, h, &n, 1) : (void *)stbi_load_from_file(f, w, h, &n, 1);
  if (pixels == NULL) {
    return NULL;
  }
  size_t count = (size_t)*w * (size_t)*h;
  float *out = malloc(count * sizeof *out);
  FB_ASSERT(out != NULL);
  double k = height_scale / (wide ? 65535.0 : 255.0);
  for (size_t i = 0; i < count; ++i) {
    out[i] = (float)(k * (wide ? ((const stbi_us *)pixels)[i] : ((const stbi_uc *)pixels)[i]));
  }
  stbi_image_free(pixels);
  return out;
}

bool fbPng_Check(FILE *f, long size, const char *path, int max_side, int *colour, char *err, size_t errlen)
{
  PngHeader png = {0, 0, 0, 0};
  const char *bad;
  if (!read_png_header(f, &png, &bad)) {
    return fbFail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
  }
  if (bad != NULL) {
    return fbFail(err, errlen, "%s: not a PNG image (%s)", path, bad);
  }
  if (png.w == 0 || png.h == 0) {
    return fbFail(err, errlen, "%s: image is %" PRIu32 "x%" PRIu32, path, png.w, png.h);
  }
  if (png.w > (uint32_t)max_side || png.h > (uint32_t)max_side) {
    return fbFail(err, errlen, "%s: image %" PRIu32 "x%" PRIu32 " is larger than %d per side", path, png.w, png.h,
                max_side);
  }
  int channels = png_channels(png.colour);
  if (channels == 0 || !(png.depth == 1 || png.depth == 2 || png.depth == 4 || png.depth == 8 || png.depth == 16)) {
    return fbFail(err, errlen, "%s: PNG header has colour type %d and bit depth %d, which PNG does not define", path,
                png.colour, png.depth);
  }
  double raw = (double)png.h * (1.0 + ceil((double)png.w * channels * png.depth / 8.0));
  if (raw > 1032.0 * (double)size + 1024.0) {
    return fbFail(err, errlen, "%s: a %" PRIu32 "x%" PRIu32 " image cannot fit in %ld bytes: the file is truncated or corrupt",
                path, png.w, png.h, size);
  }
  if (!check_chunks(f, size, &bad)) {
    return fbFail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
  }
  if (bad != NULL) {
    return fbFail(err, errlen, "%s: the PNG's image data is corrupt or truncated: %s (%" PRIu32 "x%" PRIu32 ", %ld bytes)",
                path, bad, png.w, png.h, size);
  }
  *colour = png.colour;
  return true;
}

// Everything after the file is open (size bytes); the caller closes it.
static bool load_file(fbTerrain *t, FILE *f, long size, const char *path, double world_w, double world_h,
                      double height_scale, char *err, size_t errlen)
{
  int colour;
  if (!fbPng_Check(f, size, path, FB_TERRAIN_MAX_SIDE, &colour, err, errlen)) {
    return false;
  }
  PngHeader png;  // the header fbPng_Check found sound, for the message below
  const char *bad;
  read_png_header(f, &png, &bad);
  int iw, ih, n;
  float *heights = stbi_info_from_file(f, &iw, &ih, &n) ? decode_heights(f, &iw, &ih, height_scale) : NULL;
  if (heights == NULL) {
    // The header is sound, so the image data is not; stb's own reason can name another format's
    // decoder (it tries them in turn), so it is not repeated here.
    return fbFail(err, errlen, "%s: the PNG's image data is corrupt or truncated (%" PRIu32 "x%" PRIu32 ", %ld bytes)",
                path, png.w, png.h, size);
  }
  set_grid(t, heights, iw, ih, world_w, world_h, height_scale);
  return true;
}

bool fbTerrain_LoadPng(fbTerrain *t, const char *path, double world_w, double world_h,
                       double height_scale, char *err, size_t errlen)
{
  // Whatever happens below, a failure leaves flat ground (of the requested size if it is sane).
  bool sane = valid_size(world_w, world_h);
  fbTerrain_InitFlat(t, sane ? world_w : 0.0, sane ? world_h : 0.0);
  if (!sane) {
    return fbFail(err, errlen, "%s: world size %gx%g must be finite and positive", path, world_w, world_h);
  }
  if (!isfinite(height_scale) || height_scale < 0.0) {
    return fbFail(err, errlen, "%s: height scale %g must be finite and not negative", path, height_scale);
  }
  long size;
  char why[256];
  FILE *f = fbFilePath_OpenRegular(path, FB_TERRAIN_MAX_FILE_BYTES, &size, why, sizeof why);
  if (f == NULL) {
    return fbFail(err, errlen, "%s: cannot read: %s", path, why);
  }
  bool ok = load_file(t, f, size, path, world_w, world_h, height_scale, err, errlen);
  fclose(f);
  return ok;
}

// ---- generation --------------------------------------------------------------------------

// One draw per stream and bump: fbRng_Uniform(seed, bump, 0, stream).
enum { GEN_X, GEN_Y, GEN_SIZE, GEN_HEIGHT };

#define GEN_CUTOFF 4.0  // bumps stop at 4 sigma, where exp(-8) = 3e-4 of their height is left

// Adds one Gaussian bump, touching only the samples within GEN_CUTOFF sigma of its centre.
static void add_bump(fbTerrain *t, double cx, double cy, double sigma, double height)
{
  double r = GEN_CUTOFF * sigma;
  int i0 = (int)fmax(0.0, floor((cx - r) / t->cell_w)), i1 = (int)fmin(t->width - 1, ceil((cx + r) / t->cell_w));
  int j0 = (int)fmax(0.0, floor((cy - r) / t->cell_h)), j1 = (int)fmin(t->height - 1, ceil((cy + r) / t->cell_h));
  double k = -0.5 / (sigma * sigma);
  for (int j = j0; j <= j1; ++j) {
    double dy = (j + 0.5) * t->cell_h - cy;
    for (int i = i0; i <= i1; ++i) {
      double dx = (i + 0.5) * t->cell_w - cx;
      double d2 = dx * dx + dy * dy;
      if (d2 < r * r) {
        t->h[(size_t)j * t->width + i] += (float)(height * fbMath_Exp(k * d2));
      }
    }
  }
}

// Stretches the heights to exactly [0, height_scale] (all zero if they are all equal).
static void normalise(fbTerrain *t, double height_scale)
{
  size_t count = (size_t)t->width * (size_t)t->height;
  float lo = t->h[0], hi = t->h[0];
  for (size_t i = 1; i < count; ++i) {
    lo = fminf(lo, t->h[i]);
    hi = fmaxf(hi, t->h[i]);
  }
  double k = hi > lo ? height_scale / ((double)hi - lo) : 0.0;
  for (size_t i = 0; i < count; ++i) {
    t->h[i] = (float)fmin(height_scale, k * ((double)t->h[i] - lo));
  }
}

void fbTerrain_Generate(fbTerrain *t, uint64_t seed, int samples, double world_w, double world_h,
                        double height_scale, double feature_size)
{
  // Callers validate user input; bad values here are programming errors.
  FB_ASSERT(samples >= 1 && samples <= FB_TERRAIN_MAX_SIDE);
  FB_ASSERT(valid_size(world_w, world_h));
  FB_ASSERT(isfinite(height_scale) && height_scale >= 0.0);
  FB_ASSERT(isfinite(feature_size) && feature_size > 0.0);
  size_t count = (size_t)samples * (size_t)samples;
  float *h = calloc(count, sizeof *h);
  FB_ASSERT(h != NULL);
  set_grid(t, h, samples, samples, world_w, world_h, height_scale);
  // About one bump per feature_size square; capped at one per sample, beyond which more
  // bumps only cost time.
  double want = ceil(world_w * world_h / (feature_size * feature_size));
  uint64_t bumps = (uint64_t)fmin(fmax(want, 1.0), (double)count);
  for (uint64_t b = 0; b < bumps; ++b) {
    double cx = world_w * fbRng_Uniform(seed, b, 0, GEN_X);
    double cy = world_h * fbRng_Uniform(seed, b, 0, GEN_Y);
    double sigma = feature_size * (0.15 + 0.2 * fbRng_Uniform(seed, b, 0, GEN_SIZE));  // 4 sigma ~ 0.6-1.4 x feature_size
    double height = 0.25 + 0.75 * fbRng_Uniform(seed, b, 0, GEN_HEIGHT);
    add_bump(t, cx, cy, sigma, height);
  }
  normalise(t, height_scale);
}
