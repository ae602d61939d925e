// region.h — named polygonal regions a scenario declares (Reynolds 1999, containment): inside or not, the nearest edge point and the inward normal.
#ifndef FB_REGION_H
#define FB_REGION_H

#include "fb.h"

#define FB_MAX_REGIONS 16
#define FB_REGION_MAX_POINTS 1024

// A simple polygon, convex or not (its edges may not cross or touch but at shared corners), either
// winding. area_sign is +1 when the shoelace sum is positive (counter-clockwise in the sense of
// obstacles.h), -1 otherwise: it turns an edge's direction into its inward normal.
typedef struct fbRegion {
  char name[FB_NAME_LEN];
  fbVec2 *points;  // owned
  int count;
  double area_sign;
} fbRegion;

typedef struct fbRegions {
  fbRegion *items;
  int count;
} fbRegions;

// Where a point stands relative to a region.
typedef struct fbRegionQuery {
  fbVec2 closest;   // the nearest point of the region's edge
  double distance;  // from the point to it, >= 0
  fbVec2 normal;    // unit, pointing into the region at closest (round a corner it turns with the point)
  bool inside;
} fbRegionQuery;

// A region through copies of the n points. false with a message ("point 4 is ...") for fewer than
// 3 or more than FB_REGION_MAX_POINTS points, a coordinate that is not finite within
// FB_MAX_MAGNITUDE, two neighbouring points that are the same, no area, or two edges that cross.
bool fbRegion_Init(fbRegion *r, const char *name, const fbVec2 *points, int n, char *err, size_t errlen);

// Where p stands: inside or not, the nearest edge point and the inward normal there (region.c has
// the maths).
fbRegionQuery fbRegion_Query(const fbRegion *r, fbVec2 p);

void fbRegion_Free(fbRegion *r);

// Index of the region with this name, -1 if none.
int fbRegions_Find(const fbRegions *rs, const char *name);
void fbRegions_Free(fbRegions *rs);

#endif
