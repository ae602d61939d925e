// spline_path.h — paths through control points (centripetal Catmull-Rom, by arc length) and the path objects that move along them (Gamlen 3.5).
#ifndef FB_SPLINE_PATH_H
#define FB_SPLINE_PATH_H

#include "fb.h"

#define FB_MAX_PATHS 16
#define FB_PATH_MAX_POINTS 1024
#define FB_PATH_MAX_KEYS 256
#define FB_PATH_SUBDIV 16        // arc-length samples per segment (each integrated by Gauss-Legendre)
#define FB_PATH_MAX_SPEED 1e6    // units/s
#define FB_PATH_MAX_COORD 1e7    // |x|, |y| of a control point

// One entry of a speed table: from `time` (seconds) the speed moves linearly to the next key's.
typedef struct fbSpeedKey {
  double time, speed;
} fbSpeedKey;

// One segment, from control point i to i + 1, as a cubic in u in [0, 1], with its arc length.
typedef struct fbPathSegment {
  fbVec2 c[4];                          // p(u) = c0 + c1 u + c2 u^2 + c3 u^3
  double start;                         // arc length from the path's start to u = 0
  double table[FB_PATH_SUBDIV + 1];     // arc length from u = 0 to u = k / FB_PATH_SUBDIV
} fbPathSegment;

/*
 * A path and its object. The object is at arc length s; it moves at the speed its table gives
 * for the world's time (piecewise linear between keys, the first and last speeds held before and
 * after them), or at the speed a hook set (fb.set_path_speed), which then holds until a hook
 * clears it. A closed path wraps: s stays in [0, length). An open path's object stops at the end
 * and stays there (speed 0): it never jumps back, since a flock cannot follow a jump.
 */
typedef struct fbPath {
  char name[FB_NAME_LEN];
  bool closed;
  int point_count, segment_count;
  fbVec2 *points;                       // the control points
  fbPathSegment *segments;              // point_count (closed) or point_count - 1 (open)
  double length;                        // world units
  fbSpeedKey *keys;                     // the speed table, in time order; none: speed 0
  int key_count;
  double speed_override;                // from a hook; < 0: the table holds
  // The path object, moved once per step.
  double s;                             // arc length from the first control point
  double speed;                         // units/s now (0 at the end of an open path)
  fbVec2 p, tangent;                    // where it is, and the unit tangent there (direction of travel)
} fbPath;

typedef struct fbPaths {
  fbPath *items;
  int count;
} fbPaths;

// Builds the spline and its arc-length table, and puts the object at start (a fraction of the
// length, 0..1) at time 0. Checks everything a scenario may get wrong: too few points (2 open, 3
// closed), non-finite or huge coordinates, neighbouring points that coincide, speeds out of
// [0, FB_PATH_MAX_SPEED] or keys out of time order. On failure writes a message that starts with
// the field within the path ("points[3]: ...", "speed[2]: ...", "start: ...") and p is untouched.
bool fbPath_Init(fbPath *p, const char *name, const fbVec2 *points, int n, bool closed, const fbSpeedKey *keys,
                 int key_count, double start, char *err, size_t errlen);
void fbPath_Free(fbPath *p);

// Fits the path again with point `point` moved to `to` at time t; the object keeps its fraction of
// the length, its speed table and any speed a hook set. False (path unchanged) if it cannot be fitted.
bool fbPath_MovePoint(fbPath *p, int point, fbVec2 to, double t);

// The spline at parameter u in [0, 1] of a segment (segment k runs from control point k), and
// its derivative dp/du when derivative is not NULL.
fbVec2 fbPath_SegmentPoint(const fbPath *p, int segment, double u, fbVec2 *derivative);

// The point at arc length s (wrapped on a closed path, clamped to [0, length] on an open one),
// and the unit tangent there when tangent is not NULL.
fbVec2 fbPath_PointAt(const fbPath *p, double s, fbVec2 *tangent);

// The table's speed at time t, and the distance it covers from t0 to t1 (exact: the integral of
// a piecewise-linear function).
double fbPath_TableSpeed(const fbPath *p, double t);
double fbPath_TableDistance(const fbPath *p, double t0, double t1);

// Puts the object at arc length s at time t: its position, tangent and speed.
void fbPath_Place(fbPath *p, double s, double t);

// Moves the object over the step from time t0 to t1.
void fbPath_Advance(fbPath *p, double t0, double t1);

// A hook's speed (units/s, >= 0) from now on; a negative v hands the speed back to the table.
void fbPath_SetSpeed(fbPath *p, double v, double t);

int fbPaths_Find(const fbPaths *ps, const char *name);
void fbPaths_Advance(fbPaths *ps, double t0, double t1);
void fbPaths_Free(fbPaths *ps);

#endif
