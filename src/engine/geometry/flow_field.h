// flow_field.h — named fields of desired velocities over the world (Reynolds 1999, flow field following): a grid of samples read bilinearly.
#ifndef FB_FLOW_FIELD_H
#define FB_FLOW_FIELD_H

#include "fb.h"
#include "route_field.h"

#define FB_MAX_FLOW_FIELDS 16
#define FB_FLOW_MAX_CELLS (1 << 20)  // samples per field: 1024 x 1024, 16 MB of doubles
#define FB_FLOW_MAX_SIDE 4096        // pixels a side of a flow PNG
#define FB_FLOW_MAX_FILE_BYTES (64L * 1024 * 1024)

// A grid of cols x rows velocity samples over the rectangle [0, width] x [0, height]: sample
// (i, j) stands at its cell's centre ((i + 1/2) width / cols, (j + 1/2) height / rows), stored row
// by row (index j * cols + i). Filled once when the world is built and only read afterwards.
typedef struct fbFlowField {
  char name[FB_NAME_LEN];
  int cols, rows;
  double width, height;  // world units covered
  double *vx, *vy;       // owned: units/s
  double top_speed;      // the largest |v| of any sample (the window scales its arrows by it)
  fbRoute *route;        // owned: a route field's grid (route_field.h), solved again when its goal moves; or NULL
} fbFlowField;

typedef struct fbFlowFields {
  fbFlowField *items;
  int count;
} fbFlowFields;

// The grid a function sampled every `cell` world units over width x height gets: ceil(width / cell)
// by ceil(height / cell) samples, at least 1 each. Returns the count of samples as a double (it may
// be far beyond an int for a tiny cell), so a caller can refuse too many before allocating.
double fbFlowGrid_Size(double width, double height, double cell, int *cols, int *rows);

// Where sample (i, j) of a cols x rows grid over width x height stands.
static inline fbVec2 fbFlowGrid_Centre(int i, int j, int cols, int rows, double width, double height)
{
  return fbV((i + 0.5) * width / cols, (j + 0.5) * height / rows);
}

// A field of copies of vx and vy (cols * rows each, row by row). false with a message for a grid of
// no or too many samples, a rectangle that is not finite and positive, or a sample that is not a
// finite number within FB_MAX_MAGNITUDE (named by its cell).
bool fbFlowField_Init(fbFlowField *f, const char *name, int cols, int rows, double width, double height,
                      const double *vx, const double *vy, char *err, size_t errlen);

// A field from a PNG of at least 2 x 2 pixels stretched over width x height: red is x, green is y,
// 128 is 0, and v = (c - 128) / 127 * speed clamped to [-speed, speed] (255 is +speed, 1 and 0 are
// -speed); a 16-bit PNG is read at 8 bits. A greyscale PNG is refused (it has no second channel).
// false with one line naming the path on any failure.
bool fbFlowField_LoadPng(fbFlowField *f, const char *name, const char *path, double speed, double width, double height,
                         char *err, size_t errlen);

// A route field: takes the route (malloc'd, filled, not yet solved), samples on its cells, and
// solves it. false with a message when nothing but the goals can be reached.
bool fbFlowField_InitRoute(fbFlowField *f, const char *name, fbRoute *route, char *err, size_t errlen);

// A route field solved again after its goals moved (fbRoute_SetGoals); returns the cells reached.
int fbFlowField_Reroute(fbFlowField *f);

// The field's velocity at (x, y), bilinear between the four nearest samples; beyond the outermost
// sample centres it holds the edge's value (flow_field.c has the maths).
fbVec2 fbFlowField_Sample(const fbFlowField *f, double x, double y);

void fbFlowField_Free(fbFlowField *f);

// Index of the field with this name, -1 if none.
int fbFlowFields_Find(const fbFlowFields *fs, const char *name);
void fbFlowFields_Free(fbFlowFields *fs);

#endif
