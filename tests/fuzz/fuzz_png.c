// fuzz_png.c — libFuzzer target: arbitrary bytes loaded as a PNG terrain by fbTerrain_LoadPng.
#include <string.h>

#include "fuzz_util.h"
#include "terrain.h"

/*
 * What it feeds: the fuzzer's bytes, as they are, in a regular file named like a terrain, loaded
 * onto a fixed 100 x 100 world with heights up to 10. Then, if it loaded, heights and slopes are
 * read at the corners, the middle, outside the world and at NaN.
 *
 * Fine: the terrain loads, or the load is refused with a message (not a PNG, too large, a header
 * promising more than the file can hold, corrupt image data).
 * A bug: a crash, a leak, undefined behaviour, a sanitizer report, an allocation beyond the
 * fuzzer's -malloc_limit_mb (the loader must bound memory from the header before decoding), a
 * refusal without a message, or a loaded terrain with a size out of bounds or a height that is
 * not finite or lies outside [0, height scale].
 */

#define WORLD 100.0
#define HEIGHT_SCALE 10.0

static void fail(const char *what, const fbTerrain *t)
{
  fprintf(stderr, "fuzz_png: %s (terrain %dx%d)\n", what, t->width, t->height);
  abort();
}

// A loaded terrain: its size within bounds, every sample and every read height within [0, scale].
static void check_terrain(const fbTerrain *t)
{
  if (t->width < 1 || t->height < 1 || t->width > FB_TERRAIN_MAX_SIDE || t->height > FB_TERRAIN_MAX_SIDE) {
    fail("size out of bounds", t);
  }
  size_t count = (size_t)t->width * (size_t)t->height;
  for (size_t i = 0; i < count; ++i) {
    if (!(t->h[i] >= 0.0f && t->h[i] <= (float)HEIGHT_SCALE)) {
      fail("a sample is outside [0, height scale]", t);
    }
  }
  // Heights between samples may overshoot by a float rounding: fbTerrain_Height takes the
  // difference of two float samples in float (10.0f - 0.9019608f is off by 4e-7). More is a bug.
  const double slack = 1e-6 * HEIGHT_SCALE;
  static const double at[] = {0.0, 0.37, WORLD / 2, WORLD, -1e300, 1e300, NAN};
  size_t n = sizeof at / sizeof at[0];
  for (size_t i = 0; i < n; ++i) {
    double x = at[i], y = at[n - 1 - i];
    double h = fbTerrain_Height(t, x, y);
    fbVec2 g = fbTerrain_Gradient(t, x, y);
    if (!(h >= -slack && h <= HEIGHT_SCALE + slack) || !isfinite(g.x) || !isfinite(g.y) ||
        !isfinite(fbTerrain_Slope(t, x, y, fbV(1.0, -2.0)))) {
      fail("a height or slope read back is not finite or outside [0, height scale]", t);
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *path = fuzz_ScratchPath("terrain.png");
  fuzz_WriteFile(path, "", data, size, "");
  fbTerrain t;
  char err[1024] = "";
  if (fbTerrain_LoadPng(&t, path, WORLD, WORLD, HEIGHT_SCALE, err, sizeof err)) {
    check_terrain(&t);
  } else {
    fuzz_CheckMessage(err, "fbTerrain_LoadPng");
    if (!fbTerrain_IsFlat(&t)) {
      fail("a refused terrain is not left flat", &t);
    }
  }
  fbTerrain_Free(&t);
  return 0;
}
