// floor_plan.h — obstacles from a floor plan drawn as a PNG, black walls on white floor, one pixel a square of the world.
#ifndef FB_FLOOR_PLAN_H
#define FB_FLOOR_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "obstacles.h"

#define FB_PLAN_MAX_SIDE 4096                       // pixels on a side
#define FB_PLAN_MAX_FILE_BYTES (64L * 1024 * 1024)  // checked before reading

/*
 * Adds the walls of the floor plan at `path` to `o`: pixel (i, j), column i from the left and row j
 * from the top, is the square [i c, (i + 1) c] × [j c, (j + 1) c] of the world (y down, as the
 * screen), c = `cell` metres a pixel; it is a wall when its grey level (stb_image's luminance of R, G
 * and B; alpha ignored) is below 128. Returns the count of rectangles added in *walls, or false with the
 * file named in err (unreadable, not a PNG, too large, no wall in it).
 */
bool fbFloorPlan_AddWalls(fbObstacles *o, const char *path, double cell, int *walls, char *err, size_t errlen);

#endif
