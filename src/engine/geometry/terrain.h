// terrain.h — heightfield ground: loaded from a greyscale PNG, generated from a seed, or flat.
#ifndef FB_TERRAIN_H
#define FB_TERRAIN_H

#include "fb.h"

// World coordinates: x to the right, y downward (image rows), both in [0, world_w] x [0, world_h].
// Sample (i, j) sits at the centre of pixel i of row j: x = (i + 0.5) * world_w / width.
typedef struct fbTerrain {
  int width, height;      // samples; 0 for flat ground
  float *h;               // width*height heights in world units (already times height_scale)
  double world_w, world_h;
  double height_scale;    // height of a white pixel
  double cell_w, cell_h;  // world size of one sample
  char source[600];       // the PNG file it was loaded from ("" when generated or flat), for the metadata
} fbTerrain;

// Largest image accepted, per side; larger ones are refused before decoding.
#define FB_TERRAIN_MAX_SIDE 8192
#define FB_TERRAIN_MAX_FILE_BYTES (256L * 1024 * 1024)  // a PNG terrain file, checked before reading

void fbTerrain_InitFlat(fbTerrain *t, double world_w, double world_h);

// Checks an open PNG of size bytes before anything decodes it: its signature and header, at most
// max_side pixels a side, a colour type and depth PNG defines, image data that can fit in the file,
// and chunk lengths within it (the checks the terrain's loader makes, shared with flow_field.c).
// Writes the PNG colour type (0 grey, 2 RGB, 3 palette, 4 grey and alpha, 6 RGBA) into *colour and
// leaves the file rewound; on failure returns false with one line naming the path in err.
bool fbPng_Check(FILE *f, long size, const char *path, int max_side, int *colour, char *err, size_t errlen);

// 8- or 16-bit greyscale (colour images are converted to grey). On failure returns false and
// writes one line into err naming the path and what is wrong; t is left flat.
bool fbTerrain_LoadPng(fbTerrain *t, const char *path, double world_w, double world_h,
                       double height_scale, char *err, size_t errlen);

// Smooth random hills: a sum of Gaussian bumps placed from the seed, `samples` per side,
// bumps about feature_size across, heights normalised to [0, height_scale].
void fbTerrain_Generate(fbTerrain *t, uint64_t seed, int samples, double world_w, double world_h,
                        double height_scale, double feature_size);

void fbTerrain_Free(fbTerrain *t);

// Bilinear height between sample centres; positions outside are clamped to the edge.
double fbTerrain_Height(const fbTerrain *t, double x, double y);

// Gradient (dh/dx, dh/dy) by central differences of the bilinear height, one sample apart.
fbVec2 fbTerrain_Gradient(const fbTerrain *t, double x, double y);

// Slope along a direction: g . dir / |dir| (0 for a zero direction). Gompert's s_v.
double fbTerrain_Slope(const fbTerrain *t, double x, double y, fbVec2 dir);

bool fbTerrain_IsFlat(const fbTerrain *t);

#endif
