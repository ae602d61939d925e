// obstacles.h — circles (trees) and convex polygons, with the geometric queries avoidance needs.
#ifndef FB_OBSTACLES_H
#define FB_OBSTACLES_H

#include "fb.h"

typedef enum fbObstacleKind { FB_OBSTACLE_CIRCLE, FB_OBSTACLE_POLYGON } fbObstacleKind;

typedef struct fbObstacle {
  fbObstacleKind kind;
  fbVec2 centre;     // circle centre, or polygon centroid
  double radius;     // circle radius, or polygon bounding radius about the centroid
  int first_vertex;  // polygons: vertices[first_vertex .. first_vertex + vertex_count), counter-clockwise
  int vertex_count;  //   in a y-down world "counter-clockwise" means positive signed area as computed by the shoelace formula
} fbObstacle;

typedef struct fbObstacles {
  fbObstacle *items;
  int count, capacity;
  fbVec2 *vertices;
  int vertex_count, vertex_capacity;
} fbObstacles;

typedef struct fbObstacleHit {
  int index;       // obstacle hit
  double distance; // along the ray from its origin
  fbVec2 point;    // where the (padded) surface was hit
  fbVec2 normal;   // outward unit normal there
} fbObstacleHit;

void fbObstacles_Init(fbObstacles *o);
void fbObstacles_Free(fbObstacles *o);
void fbObstacles_Clear(fbObstacles *o);

// Returns the new obstacle's index, or -1 with a message in err (radius <= 0 or not finite).
int fbObstacles_AddCircle(fbObstacles *o, fbVec2 centre, double radius, char *err, size_t errlen);

// Accepts either winding and stores it counter-clockwise; refuses (returns -1 with a message)
// fewer than 3 vertices, non-finite coordinates, zero area, or a polygon that is not convex.
int fbObstacles_AddPolygon(fbObstacles *o, const fbVec2 *v, int n, char *err, size_t errlen);

// Signed distance from p to the obstacle's surface (negative inside); closest surface point and
// outward unit normal there (either pointer may be NULL).
double fbObstacles_Distance(const fbObstacles *o, int index, fbVec2 p, fbVec2 *closest, fbVec2 *normal);

// The obstacle whose surface is nearest to p within range; false if none.
bool fbObstacles_Nearest(const fbObstacles *o, fbVec2 p, double range, int *index, double *distance);

// Indices (ascending) of obstacles whose surface lies within range of p; returns how many were
// found (may exceed max, only max are written).
int fbObstacles_Query(const fbObstacles *o, fbVec2 p, double range, int *out, int max);

// First surface met by a ray from origin along unit dir within max_len, every obstacle grown by pad
// (a feeler of Bourg ch. 4; pad = body radius). false if the ray is clear. A ray starting inside
// reports a hit at distance 0 with the normal pointing out.
bool fbObstacles_Raycast(const fbObstacles *o, fbVec2 origin, fbVec2 dir, double max_len, double pad,
                         fbObstacleHit *hit);

// Gompert 6.2, nearest silhouette edge: project the obstacle (grown by pad) onto the line through p
// perpendicular to unit dir. If the projection straddles the line of travel and the obstacle is
// ahead (not wholly behind p), write the world point just past the nearer silhouette edge into
// target and return true; otherwise (off to one side, or behind) return false.
bool fbObstacles_Silhouette(const fbObstacles *o, int index, fbVec2 p, fbVec2 dir, double pad, fbVec2 *target);

// As fbObstacles_Silhouette, a circle farther than two padded radii projected `comfort` times as
// wide (Gompert's 1.3; 1: at its size, as fbObstacles_Silhouette).
bool fbObstacles_SilhouetteComfort(const fbObstacles *o, int index, fbVec2 p, fbVec2 dir, double pad, double comfort,
                                   fbVec2 *target);

// How far the surface of obstacle index lies from its centre along the unit direction dir: the
// radius of a circle, the distance to the edge a ray from a polygon's centroid leaves by. Reynolds'
// hide puts the hiding spot this far past the centre, plus a gap, on the side away from the threat.
double fbObstacles_FarSide(const fbObstacles *o, int index, fbVec2 dir);

// Collision handling for a body of radius r moving from `from` to *to (Gompert 8.1): if the swept
// segment enters an obstacle, *to is moved to the contact point and then pushed out along the
// normal; a body that starts inside is pushed out to the surface. Writes the outward normal of the
// last contact into *normal (may be NULL) and returns true if it changed *to.
bool fbObstacles_Collide(const fbObstacles *o, fbVec2 from, fbVec2 *to, double r, fbVec2 *normal);

// Surfaces one move may meet before it stops: the first wall, the next one slid into, a third
// (in the plane two surfaces that meet in a corner already stop it).
#define FB_SLIDE_CONTACTS 3

// The surfaces met by one move of fbObstacles_Slide, in order.
typedef struct fbContacts {
  int count;
  fbVec2 normal[FB_SLIDE_CONTACTS];  // outward unit normals at the contacts
} fbContacts;

// Collide and slide: as fbObstacles_Collide, but what is left of the move at a contact goes on
// along the surface (its part into the surface dropped), cast again, up to FB_SLIDE_CONTACTS
// times; a corner stops it. Never ends inside an obstacle grown by r. Fills *contacts (count 0 if
// the move was clear) and returns true if it changed *to.
bool fbObstacles_Slide(const fbObstacles *o, fbVec2 from, fbVec2 *to, double r, fbContacts *contacts);

// The velocity v without its parts into the surfaces met (zero where they make a corner it heads into).
fbVec2 fbContacts_Clip(const fbContacts *c, fbVec2 v);

#endif
