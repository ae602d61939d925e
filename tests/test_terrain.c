// test_terrain.c — terrain heights and gradients against analytic surfaces, PNG loading, generation.
#define _POSIX_C_SOURCE 200809L  // getpid for per-process temp file names

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <stb_image_write.h>

#include "rng.h"
#include "terrain.h"

#ifndef FB_SOURCE_DIR
#define FB_SOURCE_DIR "."  // built by hand: run from the repository root
#endif

// libstb exports the zlib compressor that stbi_write_png uses, but its header only declares it
// inside the implementation section. It returns a malloc'd zlib stream (freed with free()).
unsigned char *stbi_zlib_compress(unsigned char *data, int data_len, int *out_len, int quality);

// cmocka's assert_float_equal compares in single precision; these checks need double.
#define assert_near(a, b, tol) near_at((a), (b), (tol), #a, __FILE__, __LINE__)

static void near_at(double a, double b, double tol, const char *expr, const char *file, int line)
{
  if (!(fabs(a - b) <= tol)) {
    fail_msg("%s:%d: %s = %.17g, expected %.17g within %g", file, line, expr, a, b, tol);
  }
}

// ---- temporary files ---------------------------------------------------------------------

static const char *tmp_path(const char *name)
{
  static char path[256];
  snprintf(path, sizeof path, "/tmp/fb_test_terrain_%ld_%s", (long)getpid(), name);
  return path;
}

static void write_bytes(const char *path, const void *bytes, size_t n)
{
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(bytes, 1, n, f), n);
  assert_int_equal(fclose(f), 0);
}

// ---- a minimal PNG writer for what stb_image_write cannot write ---------------------------

static uint32_t crc32_update(uint32_t crc, const unsigned char *p, size_t n)
{
  // Bitwise CRC-32 (polynomial 0xEDB88320, as PNG specifies); speed does not matter here.
  for (size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k) {
      crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
  }
  return crc;
}

static void put32(unsigned char *p, uint32_t v)
{
  p[0] = (unsigned char)(v >> 24);
  p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8);
  p[3] = (unsigned char)v;
}

static void write_chunk(FILE *f, const char *type, const unsigned char *data, uint32_t n)
{
  unsigned char word[4];
  put32(word, n);
  fwrite(word, 1, 4, f);
  fwrite(type, 1, 4, f);
  if (n > 0) {
    fwrite(data, 1, n, f);
  }
  uint32_t crc = crc32_update(0xFFFFFFFFu, (const unsigned char *)type, 4);
  crc = crc32_update(crc, data, n) ^ 0xFFFFFFFFu;
  put32(word, crc);
  fwrite(word, 1, 4, f);
}

// Signature and IHDR only (greyscale, the given depth); the caller adds IDAT and IEND.
static FILE *begin_png(const char *path, uint32_t w, uint32_t h, int depth)
{
  static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  unsigned char ihdr[13] = {0};
  put32(ihdr, w);
  put32(ihdr + 4, h);
  ihdr[8] = (unsigned char)depth;  // colour type 0 (grey), deflate, filter 0, no interlace
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fwrite(sig, 1, 8, f);
  write_chunk(f, "IHDR", ihdr, 13);
  return f;
}

// A PNG whose header claims w x h but which has no pixel data: stbi_info reads only the header.
static void write_header_only_png(const char *path, uint32_t w, uint32_t h)
{
  FILE *f = begin_png(path, w, h, 8);
  write_chunk(f, "IEND", NULL, 0);
  assert_int_equal(fclose(f), 0);
}

// 16-bit greyscale: each row is filter byte 0 then big-endian samples.
static void write_png16(const char *path, int w, int h, const uint16_t *pixels)
{
  size_t row = 1 + 2 * (size_t)w, n = row * (size_t)h;
  unsigned char *raw = calloc(n, 1);
  assert_non_null(raw);
  for (int j = 0; j < h; ++j) {
    for (int i = 0; i < w; ++i) {
      uint16_t v = pixels[(size_t)j * w + i];
      raw[j * row + 1 + 2 * i] = (unsigned char)(v >> 8);
      raw[j * row + 2 + 2 * i] = (unsigned char)v;
    }
  }
  int zlen = 0;
  unsigned char *z = stbi_zlib_compress(raw, (int)n, &zlen, 8);
  assert_non_null(z);
  FILE *f = begin_png(path, (uint32_t)w, (uint32_t)h, 16);
  write_chunk(f, "IDAT", z, (uint32_t)zlen);
  write_chunk(f, "IEND", NULL, 0);
  assert_int_equal(fclose(f), 0);
  free(z);
  free(raw);
}

// ---- the analytic surface ----------------------------------------------------------------

/*
 * f(x, y) in [0.05, 0.95] (never clipped by quantisation): a tilted plane plus a round
 * Gaussian bump, in world units, on a 64 x 48 image of a 128 x 72 world, so the cells are
 * 2 x 1.5 and a swap of x and y or of cell sizes cannot go unnoticed.
 */
enum { IMG_W = 64, IMG_H = 48 };
static const double WORLD_W = 128.0, WORLD_H = 72.0, SCALE = 100.0;
static const double BUMP_X = 51.2, BUMP_Y = 39.6, SIGMA = 12.0, BUMP_A = 0.45;

static double surface(double x, double y, fbVec2 *grad)
{
  double dx = x - BUMP_X, dy = y - BUMP_Y;
  double e = BUMP_A * exp(-(dx * dx + dy * dy) / (2.0 * SIGMA * SIGMA));
  if (grad != NULL) {
    *grad = fbV(SCALE * (0.35 / WORLD_W - e * dx / (SIGMA * SIGMA)),
                SCALE * (-0.1 / WORLD_H - e * dy / (SIGMA * SIGMA)));
  }
  return SCALE * (0.05 + 0.35 * x / WORLD_W + 0.1 * (1.0 - y / WORLD_H) + e);
}

static double centre_x(int i) { return (i + 0.5) * WORLD_W / IMG_W; }
static double centre_y(int j) { return (j + 0.5) * WORLD_H / IMG_H; }

// Pixels rounded to `levels` (255 or 65535) from the surface at the sample centres.
static void surface_pixels(double levels, uint8_t *p8, uint16_t *p16)
{
  for (int j = 0; j < IMG_H; ++j) {
    for (int i = 0; i < IMG_W; ++i) {
      long v = lround(levels * surface(centre_x(i), centre_y(j), NULL) / SCALE);
      if (p8 != NULL) {
        p8[j * IMG_W + i] = (uint8_t)v;
      } else {
        p16[j * IMG_W + i] = (uint16_t)v;
      }
    }
  }
}

/*
 * Tolerances. With q = SCALE / levels the height of one grey level:
 *  - at sample centres the height is the rounded sample: |error| <= q/2;
 *  - the gradient is a (convex combination of) difference(s) of two samples at least one cell
 *    apart, so quantisation adds at most q / cell;
 *  - truncation: along a row the x-gradient is the linear interpolation of one-cell difference
 *    quotients taken at cell midpoints, each within cw^2/24 |h_xxx| of h_x, and linear
 *    interpolation adds cw^2/8 |h_xxx|; across rows it is linearly interpolated in y, adding
 *    ch^2/8 |h_xyy|. The plane has no third derivatives; for the Gaussian A exp(-r^2/2s^2),
 *    |h_xxx| <= 1.38 A/s^3 and |h_xyy| <= 0.61 A/s^3, so M3 = 1.4 A/s^3 bounds both, and the
 *    error is at most (cell^2/6 + other^2/8) M3 (likewise in y);
 *  - heights between centres: bilinear interpolation is within (cw^2 + ch^2)/8 max|h''| and
 *    |h''| <= A/s^2 for the Gaussian.
 * Heights are stored as float: 1e-4 covers that (relative 6e-8 of at most 100).
 */
static const double FLOAT_SLACK = 1e-4;

static double truncation_tol(double cell, double other)
{
  double m3 = 1.4 * SCALE * BUMP_A / (SIGMA * SIGMA * SIGMA);
  return (cell * cell / 6.0 + other * other / 8.0) * m3;
}

static void check_against_surface(const fbTerrain *t, double levels)
{
  double q = SCALE / levels, cw = WORLD_W / IMG_W, ch = WORLD_H / IMG_H;
  assert_int_equal(t->width, IMG_W);
  assert_int_equal(t->height, IMG_H);
  assert_near(t->cell_w, cw, 1e-12);
  assert_near(t->cell_h, ch, 1e-12);
  for (int j = 0; j < IMG_H; ++j) {
    for (int i = 0; i < IMG_W; ++i) {
      double x = centre_x(i), y = centre_y(j);
      assert_near(fbTerrain_Height(t, x, y), surface(x, y, NULL), q / 2 + FLOAT_SLACK);
    }
  }
  double between = (cw * cw + ch * ch) / 8.0 * SCALE * BUMP_A / (SIGMA * SIGMA) + q / 2 + FLOAT_SLACK;
  double tol_x = q / cw + truncation_tol(cw, ch) + FLOAT_SLACK;
  double tol_y = q / ch + truncation_tol(ch, cw) + FLOAT_SLACK;
  // Interior points (the stencil stays clear of the edges), spread by irrational steps.
  for (int k = 0; k < 500; ++k) {
    double x = cw + (WORLD_W - 2 * cw) * fmod(k * 0.6180339887, 1.0);
    double y = ch + (WORLD_H - 2 * ch) * fmod(k * 0.4142135624, 1.0);
    fbVec2 want, got = fbTerrain_Gradient(t, x, y);
    double h = surface(x, y, &want);
    assert_near(fbTerrain_Height(t, x, y), h, between);
    assert_near(got.x, want.x, tol_x);
    assert_near(got.y, want.y, tol_y);
  }
}

static void test_8bit_png_matches_analytic_surface(void **state)
{
  (void)state;
  static uint8_t pixels[IMG_W * IMG_H];
  surface_pixels(255.0, pixels, NULL);
  const char *path = tmp_path("surface8.png");
  assert_true(stbi_write_png(path, IMG_W, IMG_H, 1, pixels, IMG_W));
  fbTerrain t;
  char err[256] = "";
  assert_true(fbTerrain_LoadPng(&t, path, WORLD_W, WORLD_H, SCALE, err, sizeof err));
  assert_false(fbTerrain_IsFlat(&t));
  assert_near(t.height_scale, SCALE, 0.0);
  check_against_surface(&t, 255.0);
  fbTerrain_Free(&t);
  assert_true(fbTerrain_IsFlat(&t));
  remove(path);
}

static void test_16bit_png_matches_analytic_surface(void **state)
{
  (void)state;
  static uint16_t pixels[IMG_W * IMG_H];
  surface_pixels(65535.0, NULL, pixels);
  const char *path = tmp_path("surface16.png");
  write_png16(path, IMG_W, IMG_H, pixels);
  fbTerrain t;
  char err[256] = "";
  assert_true(fbTerrain_LoadPng(&t, path, WORLD_W, WORLD_H, SCALE, err, sizeof err));
  check_against_surface(&t, 65535.0);  // 256 times tighter than the 8-bit run would pass
  fbTerrain_Free(&t);
  remove(path);
}

// Neighbouring 16-bit levels must stay distinct: an 8-bit path would merge 256 and 257.
static void test_16bit_png_keeps_every_level(void **state)
{
  (void)state;
  static const uint16_t pixels[6] = {0, 256, 257, 65535, 1, 32768};
  const char *path = tmp_path("levels16.png");
  write_png16(path, 3, 2, pixels);
  fbTerrain t;
  char err[256] = "";
  assert_true(fbTerrain_LoadPng(&t, path, 3.0, 2.0, 65535.0, err, sizeof err));
  assert_int_equal(t.width, 3);
  assert_int_equal(t.height, 2);
  for (int k = 0; k < 6; ++k) {
    assert_near(t.h[k], pixels[k], 0.0);  // scale 65535: heights are the raw levels
  }
  assert_near(fbTerrain_Height(&t, 1.5, 0.5) - fbTerrain_Height(&t, 0.5, 0.5), 256.0, 0.0);
  fbTerrain_Free(&t);
  remove(path);
}

static void test_colour_png_is_read_as_grey(void **state)
{
  (void)state;
  unsigned char rgb[2 * 3] = {200, 200, 200, 10, 10, 10};
  const char *path = tmp_path("rgb.png");
  assert_true(stbi_write_png(path, 2, 1, 3, rgb, 2 * 3));
  fbTerrain t;
  char err[256] = "";
  assert_true(fbTerrain_LoadPng(&t, path, 2.0, 1.0, 255.0, err, sizeof err));
  assert_near(t.h[0], 200.0, 0.0);
  assert_near(t.h[1], 10.0, 0.0);
  fbTerrain_Free(&t);
  remove(path);
}

// ---- flat ground, edges, slope -----------------------------------------------------------

static void test_flat_terrain(void **state)
{
  (void)state;
  fbTerrain t;
  fbTerrain_InitFlat(&t, 100.0, 50.0);
  assert_true(fbTerrain_IsFlat(&t));
  assert_int_equal(t.width, 0);
  assert_near(t.world_w, 100.0, 0.0);
  assert_near(t.world_h, 50.0, 0.0);
  const double xs[] = {0.0, 37.5, 100.0, -10.0, 1e9, NAN};
  for (size_t k = 0; k < sizeof xs / sizeof xs[0]; ++k) {
    assert_near(fbTerrain_Height(&t, xs[k], 20.0), 0.0, 0.0);
    fbVec2 g = fbTerrain_Gradient(&t, xs[k], 20.0);
    assert_near(g.x, 0.0, 0.0);
    assert_near(g.y, 0.0, 0.0);
    assert_near(fbTerrain_Slope(&t, xs[k], 20.0, fbV(1.0, 2.0)), 0.0, 0.0);
  }
  fbTerrain_Free(&t);  // harmless on flat ground
  assert_true(fbTerrain_IsFlat(&t));
}

// A 4 x 3 ramp h = 10 i + j: clamped outside, exact inside, one-sided (not halved) at the edge.
static void test_edges_clamp(void **state)
{
  (void)state;
  unsigned char px[12];
  for (int j = 0; j < 3; ++j) {
    for (int i = 0; i < 4; ++i) {
      px[j * 4 + i] = (unsigned char)(10 * i + j);
    }
  }
  const char *path = tmp_path("ramp.png");
  assert_true(stbi_write_png(path, 4, 3, 1, px, 4));
  fbTerrain t;
  char err[256] = "";
  assert_true(fbTerrain_LoadPng(&t, path, 8.0, 3.0, 255.0, err, sizeof err));  // cells 2 x 1
  assert_near(fbTerrain_Height(&t, -5.0, 0.5), 0.0, 1e-9);
  assert_near(fbTerrain_Height(&t, 100.0, 100.0), 32.0, 1e-9);
  assert_near(fbTerrain_Height(&t, 2.0, 1.0), 5.5, 1e-9);  // between four centres
  assert_true(isfinite(fbTerrain_Height(&t, NAN, INFINITY)));
  const double xs[] = {-3.0, 1.0, 2.0, 4.0, 7.0, 8.0, 50.0};
  for (size_t k = 0; k < sizeof xs / sizeof xs[0]; ++k) {
    fbVec2 g = fbTerrain_Gradient(&t, xs[k], 1.5);
    assert_near(g.x, 5.0, 1e-9);  // 10 per 2-unit cell, everywhere
    assert_near(g.y, 1.0, 1e-9);
  }
  fbVec2 g = fbTerrain_Gradient(&t, NAN, NAN);
  assert_true(isfinite(g.x) && isfinite(g.y));
  fbTerrain_Free(&t);
  remove(path);
}

static void test_slope_along_direction(void **state)
{
  (void)state;
  fbTerrain t;
  fbTerrain_Generate(&t, 7, 32, 50.0, 40.0, 10.0, 12.0);
  for (uint64_t k = 0; k < 200; ++k) {
    double x = 50.0 * fbRng_Uniform(1, k, 0, 0), y = 40.0 * fbRng_Uniform(1, k, 0, 1);
    fbVec2 dir = fbV(fbRng_Uniform(1, k, 0, 2) - 0.5, fbRng_Uniform(1, k, 0, 3) - 0.5);
    dir = fbV_Scale(dir, 1.0 + 9.0 * fbRng_Uniform(1, k, 0, 4));  // the length must not matter
    fbVec2 g = fbTerrain_Gradient(&t, x, y);
    assert_near(fbTerrain_Slope(&t, x, y, dir), fbV_Dot(g, dir) / fbV_Length(dir), 1e-12);
    // Gompert's s = |g| is the slope straight uphill.
    if (fbV_Length(g) > 0.0) {
      assert_near(fbTerrain_Slope(&t, x, y, g), fbV_Length(g), 1e-12);
    }
  }
  assert_near(fbTerrain_Slope(&t, 10.0, 10.0, fbV(0.0, 0.0)), 0.0, 0.0);
  fbTerrain_Free(&t);
}

// ---- generation --------------------------------------------------------------------------

static void test_generate_is_deterministic_and_normalised(void **state)
{
  (void)state;
  fbTerrain a, b, c;
  fbTerrain_Generate(&a, 42, 96, 200.0, 120.0, 30.0, 25.0);
  fbTerrain_Generate(&b, 42, 96, 200.0, 120.0, 30.0, 25.0);
  fbTerrain_Generate(&c, 43, 96, 200.0, 120.0, 30.0, 25.0);
  assert_int_equal(a.width, 96);
  assert_int_equal(a.height, 96);
  assert_near(a.world_w, 200.0, 0.0);
  assert_near(a.world_h, 120.0, 0.0);
  size_t n = (size_t)a.width * a.height;
  assert_memory_equal(a.h, b.h, n * sizeof *a.h);
  assert_memory_not_equal(a.h, c.h, n * sizeof *a.h);
  const fbTerrain *both[] = {&a, &c};
  for (int k = 0; k < 2; ++k) {
    float lo = both[k]->h[0], hi = both[k]->h[0];
    for (size_t i = 0; i < n; ++i) {
      assert_true(both[k]->h[i] >= 0.0f && both[k]->h[i] <= 30.0f);
      lo = fminf(lo, both[k]->h[i]);
      hi = fmaxf(hi, both[k]->h[i]);
    }
    assert_near(lo, 0.0, 0.0);  // normalised: the full range is used
    assert_near(hi, 30.0, 1e-5);
  }
  fbTerrain_Free(&a);
  fbTerrain_Free(&b);
  fbTerrain_Free(&c);
}

static void test_generate_extremes(void **state)
{
  (void)state;
  fbTerrain t;
  fbTerrain_Generate(&t, 1, 1, 10.0, 10.0, 5.0, 3.0);  // one sample: nothing to stretch
  assert_near(t.h[0], 0.0, 0.0);
  fbTerrain_Free(&t);
  fbTerrain_Generate(&t, 2, 64, 1000.0, 1000.0, 5.0, 0.5);  // features far below a cell
  for (int i = 0; i < 64 * 64; ++i) {
    assert_true(t.h[i] >= 0.0f && t.h[i] <= 5.0f);
  }
  fbTerrain_Free(&t);
  fbTerrain_Generate(&t, 3, 16, 10.0, 10.0, 0.0, 1e6);  // height scale 0 is level ground
  assert_near(fbTerrain_Height(&t, 5.0, 5.0), 0.0, 0.0);
  fbTerrain_Free(&t);
}

// ---- bad input ---------------------------------------------------------------------------

// Expects failure, flat ground left behind, and one line naming the path and the problem.
static void expect_refused(const char *path, double ww, double wh, double scale, const char *what)
{
  fbTerrain t;
  memset(&t, 0x5a, sizeof t);  // whatever was there before must not survive
  char err[256] = "";
  assert_false(fbTerrain_LoadPng(&t, path, ww, wh, scale, err, sizeof err));
  assert_true(fbTerrain_IsFlat(&t));
  assert_null(t.h);
  assert_near(fbTerrain_Height(&t, 1.0, 1.0), 0.0, 0.0);
  if (strstr(err, path) == NULL || strstr(err, what) == NULL || strchr(err, '\n') != NULL) {
    fail_msg("message '%s' should name '%s' and say '%s'", err, path, what);
  }
  fbTerrain_Free(&t);
}

static void test_missing_file(void **state)
{
  (void)state;
  expect_refused(tmp_path("does_not_exist.png"), 10.0, 10.0, 1.0, "cannot read: No such file");
}

static void test_random_bytes(void **state)
{
  (void)state;
  unsigned char junk[300];
  for (size_t i = 0; i < sizeof junk; ++i) {
    junk[i] = (unsigned char)(fbRng_Bits(99, i, 0, 0) & 0xff);
  }
  const char *path = tmp_path("junk.png");
  write_bytes(path, junk, sizeof junk);
  expect_refused(path, 10.0, 10.0, 1.0, "not a PNG image");
  write_bytes(path, junk, 0);  // empty
  expect_refused(path, 10.0, 10.0, 1.0, "not a PNG image");
  remove(path);
}

// A real PNG of noise (so it does not compress to nothing) cut short in two places.
static void test_truncated_png(void **state)
{
  (void)state;
  static unsigned char noise[64 * 64];
  for (size_t i = 0; i < sizeof noise; ++i) {
    noise[i] = (unsigned char)(fbRng_Bits(5, i, 0, 0) & 0xff);
  }
  const char *path = tmp_path("truncated.png");
  assert_true(stbi_write_png(path, 64, 64, 1, noise, 64));
  static unsigned char png[64 * 64 * 2];
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  size_t len = fread(png, 1, sizeof png, f);
  fclose(f);
  assert_true(len > 1000 && len < sizeof png);
  write_bytes(path, png, len / 2);  // header fine, image data cut
  expect_refused(path, 10.0, 10.0, 1.0, "the PNG's image data is corrupt or truncated");
  write_bytes(path, png, 20);  // signature, IHDR cut
  expect_refused(path, 10.0, 10.0, 1.0, "not a PNG image");
  remove(path);
}

static void test_absurd_sizes(void **state)
{
  (void)state;
  const char *path = tmp_path("header.png");
  write_header_only_png(path, 0, 0);
  expect_refused(path, 10.0, 10.0, 1.0, "image is 0x0");
  write_header_only_png(path, 100000, 100000);
  expect_refused(path, 10.0, 10.0, 1.0, "image 100000x100000 is larger than 8192 per side");
  write_header_only_png(path, 20000, 16);  // one side too long is enough
  expect_refused(path, 10.0, 10.0, 1.0, "image 20000x16 is larger than 8192 per side");
  write_header_only_png(path, 8000, 8000);  // 64 MB of pixels cannot come out of 45 bytes of deflate
  expect_refused(path, 10.0, 10.0, 1.0, "a 8000x8000 image cannot fit in 45 bytes");
  write_header_only_png(path, 64, 64);  // a sane size but no pixel data: fails decoding
  expect_refused(path, 10.0, 10.0, 1.0, "the PNG's image data is corrupt or truncated");
  remove(path);
}

// Two chunk lists stb_image mishandles, found by tests/fuzz/fuzz_png (its corpus keeps both files).
static void test_bad_chunks(void **state)
{
  (void)state;
  const char *path = tmp_path("chunks.png");
  // An IDAT claiming 1.2 GB in a small file: refused before stb_image allocates that much.
  FILE *f = begin_png(path, 4, 4, 8);
  unsigned char header[8] = {0x49, 0x48, 0x44, 0x52, 'I', 'D', 'A', 'T'};  // 1229472850 bytes
  fwrite(header, 1, sizeof header, f);
  fwrite("x\x9c\x63\x60", 1, 4, f);
  write_chunk(f, "IEND", NULL, 0);
  assert_int_equal(fclose(f), 0);
  expect_refused(path, 10.0, 10.0, 1.0, "a chunk is longer than the rest of the file");
  // An empty IDAT before the image data: legal, but stb_image would copy 0 bytes to NULL.
  unsigned char raw[5 * 4] = {0};  // 4 rows of a filter byte and 4 black pixels
  int zlen = 0;
  unsigned char *z = stbi_zlib_compress(raw, sizeof raw, &zlen, 8);
  assert_non_null(z);
  f = begin_png(path, 4, 4, 8);
  write_chunk(f, "IDAT", NULL, 0);
  write_chunk(f, "IDAT", z, (uint32_t)zlen);
  write_chunk(f, "IEND", NULL, 0);
  assert_int_equal(fclose(f), 0);
  expect_refused(path, 10.0, 10.0, 1.0, "its first IDAT chunk is empty");
  // The same data without the empty chunk loads; an empty IDAT after it is harmless and allowed.
  f = begin_png(path, 4, 4, 8);
  write_chunk(f, "IDAT", z, (uint32_t)zlen);
  write_chunk(f, "IDAT", NULL, 0);
  write_chunk(f, "IEND", NULL, 0);
  assert_int_equal(fclose(f), 0);
  fbTerrain t;
  char err[256] = "";
  if (!fbTerrain_LoadPng(&t, path, 10.0, 10.0, 1.0, err, sizeof err)) {
    fail_msg("%s", err);
  }
  assert_int_equal(t.width, 4);
  fbTerrain_Free(&t);
  free(z);
  remove(path);
}

static void test_bad_world_size_and_scale(void **state)
{
  (void)state;
  unsigned char px[4] = {0, 1, 2, 3};
  const char *path = tmp_path("small.png");
  assert_true(stbi_write_png(path, 2, 2, 1, px, 2));
  expect_refused(path, 0.0, 10.0, 1.0, "world size");
  expect_refused(path, 10.0, -1.0, 1.0, "world size");
  expect_refused(path, NAN, 10.0, 1.0, "world size");
  expect_refused(path, 10.0, INFINITY, 1.0, "world size");
  expect_refused(path, 10.0, 10.0, -1.0, "height scale");
  expect_refused(path, 10.0, 10.0, NAN, "height scale");
  fbTerrain t;
  assert_false(fbTerrain_LoadPng(&t, path, 10.0, 10.0, INFINITY, NULL, 0));  // no buffer: no crash
  assert_true(fbTerrain_LoadPng(&t, path, 10.0, 10.0, 0.0, NULL, 0));  // scale 0 is allowed
  fbTerrain_Free(&t);
  remove(path);
}

// ---- the shipped terrains ----------------------------------------------------------------

static void load_shipped(fbTerrain *t, const char *name)
{
  char path[512], err[512] = "";
  snprintf(path, sizeof path, "%s/terrains/%s", FB_SOURCE_DIR, name);
  if (!fbTerrain_LoadPng(t, path, 256.0, 256.0, 1.0, err, sizeof err)) {
    fail_msg("%s", err);
  }
  assert_int_equal(t->width, 256);
  assert_int_equal(t->height, 256);
}

static void test_shipped_terrains(void **state)
{
  (void)state;
  fbTerrain t;
  load_shipped(&t, "single_hill.png");  // the top is in the middle
  assert_true(fbTerrain_Height(&t, 128.0, 128.0) > 0.95);
  assert_true(fbTerrain_Height(&t, 10.0, 10.0) < 0.01);
  fbTerrain_Free(&t);
  load_shipped(&t, "ridge_gap.png");  // along the ridge crest the lowest point is the pass at 70%
  double lowest = 1e9, at = -1.0;
  for (double x = 5.0; x < 251.0; x += 1.0) {
    double h = fbTerrain_Height(&t, x, 128.0);
    if (h < lowest) {
      lowest = h;
      at = x;
    }
  }
  assert_near(at, 0.7 * 256.0, 3.0);
  assert_true(lowest < 0.5 * fbTerrain_Height(&t, 0.3 * 256.0, 128.0));
  assert_true(fbTerrain_Height(&t, 128.0, 30.0) < 0.01);  // open ground either side
  fbTerrain_Free(&t);
  load_shipped(&t, "hills.png");  // hills, and a free valley along the middle
  double valley = 0.0;
  for (double x = 0.0; x <= 256.0; x += 1.0) {
    valley = fmax(valley, fbTerrain_Height(&t, x, 128.0));
  }
  assert_true(valley < 0.05);
  fbTerrain_Free(&t);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_8bit_png_matches_analytic_surface),
      cmocka_unit_test(test_16bit_png_matches_analytic_surface),
      cmocka_unit_test(test_16bit_png_keeps_every_level),
      cmocka_unit_test(test_colour_png_is_read_as_grey),
      cmocka_unit_test(test_flat_terrain),
      cmocka_unit_test(test_edges_clamp),
      cmocka_unit_test(test_slope_along_direction),
      cmocka_unit_test(test_generate_is_deterministic_and_normalised),
      cmocka_unit_test(test_generate_extremes),
      cmocka_unit_test(test_missing_file),
      cmocka_unit_test(test_random_bytes),
      cmocka_unit_test(test_truncated_png),
      cmocka_unit_test(test_absurd_sizes),
      cmocka_unit_test(test_bad_chunks),
      cmocka_unit_test(test_bad_world_size_and_scale),
      cmocka_unit_test(test_shipped_terrains),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
