// floor_plan.c — walls read from a PNG floor plan: its dark pixels, merged into rectangles, become obstacles.
#include "floor_plan.h"

#include <stb_image.h>
#include <stdio.h>
#include <stdlib.h>

#include "paths.h"
#include "terrain.h"

/*
 * Merging the wall pixels into few rectangles (a greedy cover): scan the rows top to bottom; in
 * each, every maximal run of wall pixels not yet covered starts a rectangle that grows downward
 * while the next row holds the same run (same first and last column, none of it covered), and its
 * pixels are marked covered. A wall drawn as a straight band of any thickness becomes one
 * rectangle, a corner or a T two or three: few obstacles, which matters because ORCA considers at
 * most 16 obstacles round an agent and the route's raster queries each. The cover is exact (every
 * wall pixel in exactly one rectangle), not minimal; a diagonal wall becomes a staircase of
 * one-row rectangles, so plans are best drawn axis-aligned.
 */
static bool row_run_free(const unsigned char *wall, const unsigned char *covered, int w, int row, int i0, int i1)
{
  if ((i0 > 0 && wall[row * w + i0 - 1]) || (i1 + 1 < w && wall[row * w + i1 + 1])) {
    return false;  // the run is longer in this row: not the same run
  }
  for (int i = i0; i <= i1; ++i) {
    if (!wall[row * w + i] || covered[row * w + i]) {
      return false;
    }
  }
  return true;
}

static bool add_rectangle(fbObstacles *o, double cell, int i0, int i1, int j0, int j1, char *err, size_t errlen)
{
  double x0 = i0 * cell, x1 = (i1 + 1) * cell, y0 = j0 * cell, y1 = (j1 + 1) * cell;
  fbVec2 v[4] = {fbV(x0, y0), fbV(x1, y0), fbV(x1, y1), fbV(x0, y1)};
  return fbObstacles_AddPolygon(o, v, 4, err, errlen) >= 0;
}

static int cover(fbObstacles *o, const unsigned char *wall, int w, int h, double cell, char *err, size_t errlen)
{
  unsigned char *covered = calloc((size_t)w * h, 1);
  FB_ASSERT(covered != NULL);
  int count = 0;
  for (int j = 0; j < h && count >= 0; ++j) {
    for (int i = 0; i < w && count >= 0; ++i) {
      if (!wall[j * w + i] || covered[j * w + i]) {
        continue;
      }
      int i1 = i;
      while (i1 + 1 < w && wall[j * w + i1 + 1] && !covered[j * w + i1 + 1]) {
        ++i1;
      }
      int j1 = j;
      while (j1 + 1 < h && row_run_free(wall, covered, w, j1 + 1, i, i1)) {
        ++j1;
      }
      for (int jj = j; jj <= j1; ++jj) {
        for (int ii = i; ii <= i1; ++ii) {
          covered[jj * w + ii] = 1;
        }
      }
      count = add_rectangle(o, cell, i, i1, j, j1, err, errlen) ? count + 1 : -1;
      i = i1;
    }
  }
  free(covered);
  return count;
}

bool fbFloorPlan_AddWalls(fbObstacles *o, const char *path, double cell, int *walls, char *err, size_t errlen)
{
  *walls = 0;
  if (!(cell > 0 && cell < 1e6)) {
    return fbFail(err, errlen, "cell %g: expected metres a pixel, > 0", cell);
  }
  long size;
  char why[256];
  FILE *in = fbFilePath_OpenRegular(path, FB_PLAN_MAX_FILE_BYTES, &size, why, sizeof why);
  if (in == NULL) {
    return fbFail(err, errlen, "%s: cannot read: %s", path, why);
  }
  int colour = 0, w = 0, h = 0, n = 0;
  bool ok = fbPng_Check(in, size, path, FB_PLAN_MAX_SIDE, &colour, err, errlen);
  unsigned char *grey = ok ? stbi_load_from_file(in, &w, &h, &n, 1) : NULL;  // stb's luminance
  fclose(in);
  if (ok && grey == NULL) {
    return fbFail(err, errlen, "%s: the PNG's image data is corrupt or truncated", path);
  }
  if (!ok) {
    return false;
  }
  unsigned char *wall = malloc((size_t)w * h);
  FB_ASSERT(wall != NULL);
  int dark = 0;
  for (int k = 0; k < w * h; ++k) {
    wall[k] = grey[k] < 128;
    dark += wall[k];
  }
  stbi_image_free(grey);
  int count = dark > 0 ? cover(o, wall, w, h, cell, err, errlen) : 0;
  free(wall);
  if (dark == 0) {
    return fbFail(err, errlen, "%s: no wall in the plan (no pixel darker than grey 128)", path);
  }
  *walls = count;
  return count > 0;
}
