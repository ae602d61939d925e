// make_terrains.c — writes the shipped terrains; from the repo root: gcc -std=c11 -O2 tools/make_terrains.c $(pkg-config --cflags --libs stb) -lm -o /tmp/make_terrains && /tmp/make_terrains [outdir]
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <stb_image_write.h>

/*
 * Each terrain is a function of (u, v), u to the right and v down the image (the engine's x and
 * y), both in units of the image's height (v in [0, 1]), sampled at pixel centres, scaled so its
 * highest point is white and written as an 8-bit grey PNG 256 pixels high. Most are square; a
 * wider one continues the same function to the right, so its first 256 columns are the square
 * one's. All shapes are Gaussians so the ground is smooth and the gradient the herd feels has no
 * kinks apart from 8-bit steps.
 */

#define SIDE 256

typedef double (*Shape)(double u, double v);

static double bump(double u, double v, double cu, double cv, double sigma)
{
  double du = u - cu, dv = v - cv;
  return exp(-(du * du + dv * dv) / (2.0 * sigma * sigma));
}

// Five hills of different heights, two rows of them above and below v = 0.5: every hill is at
// least 3 sigma from the middle line, so a clear valley runs left to right through the map
// and a herd crossing it can swerve round the hills.
static double hills(double u, double v)
{
  return 1.00 * bump(u, v, 0.22, 0.20, 0.085) + 0.60 * bump(u, v, 0.55, 0.18, 0.075) +
         0.80 * bump(u, v, 0.85, 0.24, 0.080) + 0.70 * bump(u, v, 0.35, 0.80, 0.090) +
         0.45 * bump(u, v, 0.75, 0.79, 0.070);
}

// A ridge from the left edge to the right along v = 0.5, with one pass at u = 0.7 where it
// drops to a fifth of its height: the lowest way across is off-centre, so a herd heading
// straight down the middle has to find it.
static double ridge_gap(double u, double v)
{
  double across = exp(-(v - 0.5) * (v - 0.5) / (2.0 * 0.05 * 0.05));
  double pass = 1.0 - 0.8 * exp(-(u - 0.7) * (u - 0.7) / (2.0 * 0.05 * 0.05));
  return across * pass;
}

// One round hill in the middle, its foot well inside the map, for a herd to split round.
static double single_hill(double u, double v) { return bump(u, v, 0.5, 0.5, 0.12); }

// Writes shape as a PNG `widths` squares wide (1: 256 x 256).
static int write_terrain(const char *dir, const char *name, Shape shape, int widths)
{
  enum { MAX_WIDTHS = 3 };
  static double value[MAX_WIDTHS * SIDE * SIDE];
  static unsigned char grey[MAX_WIDTHS * SIDE * SIDE];
  int cols = widths * SIDE;
  if (widths < 1 || widths > MAX_WIDTHS) {
    fprintf(stderr, "%s: %d squares wide, at most %d\n", name, widths, MAX_WIDTHS);
    return 1;
  }
  double top = 0.0;
  for (int j = 0; j < SIDE; ++j) {
    for (int i = 0; i < cols; ++i) {
      value[j * cols + i] = shape((i + 0.5) / SIDE, (j + 0.5) / SIDE);
      top = fmax(top, value[j * cols + i]);
    }
  }
  for (int k = 0; k < cols * SIDE; ++k) {
    grey[k] = (unsigned char)lround(255.0 * value[k] / top);
  }
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (!stbi_write_png(path, cols, SIDE, 1, grey, cols)) {
    fprintf(stderr, "%s: cannot write\n", path);
    return 1;
  }
  printf("wrote %s\n", path);
  return 0;
}

int main(int argc, char **argv)
{
  const char *dir = argc > 1 ? argv[1] : "terrains";
  int failures = write_terrain(dir, "hills.png", hills, 1);
  failures += write_terrain(dir, "ridge_gap.png", ridge_gap, 1);
  failures += write_terrain(dir, "single_hill.png", single_hill, 1);
  // The same hill with flat ground three times as far east (a world 600 x 200 at single_hill's
  // 200 x 200 scale): room for a herd to walk on past it toward a far goal (Figure 13 experiments).
  failures += write_terrain(dir, "single_hill_long.png", single_hill, 3);
  return failures == 0 ? 0 : 1;
}
