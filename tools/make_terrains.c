// make_terrains.c — writes the shipped terrains; from the repo root: gcc -std=c11 -O2 tools/make_terrains.c $(pkg-config --cflags --libs stb) -lm -o /tmp/make_terrains && /tmp/make_terrains [outdir]
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <stb_image_write.h>

/*
 * Each terrain is a function of (u, v) in [0, 1]^2, u to the right and v down the image
 * (the engine's x and y), sampled at pixel centres, scaled so its highest point is white and
 * written as an 8-bit grey 256 x 256 PNG. All shapes are Gaussians so the ground is smooth
 * and the gradient the herd feels has no kinks apart from 8-bit steps.
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

static int write_terrain(const char *dir, const char *name, Shape shape)
{
  static double value[SIDE * SIDE];
  static unsigned char grey[SIDE * SIDE];
  double top = 0.0;
  for (int j = 0; j < SIDE; ++j) {
    for (int i = 0; i < SIDE; ++i) {
      value[j * SIDE + i] = shape((i + 0.5) / SIDE, (j + 0.5) / SIDE);
      top = fmax(top, value[j * SIDE + i]);
    }
  }
  for (int k = 0; k < SIDE * SIDE; ++k) {
    grey[k] = (unsigned char)lround(255.0 * value[k] / top);
  }
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  if (!stbi_write_png(path, SIDE, SIDE, 1, grey, SIDE)) {
    fprintf(stderr, "%s: cannot write\n", path);
    return 1;
  }
  printf("wrote %s\n", path);
  return 0;
}

int main(int argc, char **argv)
{
  const char *dir = argc > 1 ? argv[1] : "terrains";
  int failures = write_terrain(dir, "hills.png", hills);
  failures += write_terrain(dir, "ridge_gap.png", ridge_gap);
  failures += write_terrain(dir, "single_hill.png", single_hill);
  return failures == 0 ? 0 : 1;
}
