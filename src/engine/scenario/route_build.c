// route_build.c — a route field from its description and the built world: walls rasterised, costs, goals (see route_build.h).
#include "route_build.h"

#include "integrate.h"

double fbRoute_DefaultClearance(const fbWorld *w)
{
  double r = 0.0;
  for (int s = 0; s < w->species_count; ++s) {
    r = fmax(r, 0.5 * w->species[s].body_length);
  }
  return r;
}

double fbRoute_DefaultSpeed(const fbWorld *w)
{
  double cruise = 0.0, top = 0.0;
  for (int s = 0; s < w->species_count; ++s) {
    cruise = fmax(cruise, w->species[s].cruise_speed);
    top = fmax(top, w->species[s].limits.max_speed);
  }
  return cruise > 0.0 ? cruise : (top > 0.0 ? top : 1.0);
}

// Whether no route may pass the point p: within `clear` of an obstacle, of the world's edge (a
// world that wraps has none), of the outside of the `inside` region, or of a wall region.
static bool blocked(const fbWorld *w, const fbRegion *inside, const fbRegion *const *walls, int wall_count, fbVec2 p,
                    double clear)
{
  if (w->bounds != FB_BOUNDS_WRAP && (p.x < clear || p.y < clear || p.x > w->width - clear || p.y > w->height - clear)) {
    return true;
  }
  if (fbObstacles_Query(&w->obstacles, p, clear, NULL, 0) > 0) {
    return true;
  }
  if (inside != NULL) {
    fbRegionQuery q = fbRegion_Query(inside, p);
    if (!q.inside || q.distance < clear) {
      return true;
    }
  }
  for (int k = 0; k < wall_count; ++k) {
    fbRegionQuery q = fbRegion_Query(walls[k], p);
    if (q.inside || q.distance < clear) {
      return true;
    }
  }
  return false;
}

/*
 * Energy per unit of horizontal length, the cost of cost = "energy". Gompert (section 5.2.2,
 * Figure 7; integrate.c has the curve E) counts the energy of a walk as its 3D length times E(s)
 * at the slope s walked, so crossing a horizontal length dl in direction u over ground of gradient
 * g costs
 *
 *   dE = sqrt(1 + s^2) E(s) dl,   s = g . u.
 *
 * That depends on the direction, and the eikonal equation fast marching solves (route_field.c)
 * takes a cost per cell that does not. The cost used is its mean over 8 directions u_k 45 degrees
 * apart, s_k = |g| cos(k pi / 4):
 *
 *   f = (1/8) sum_k sqrt(1 + s_k^2) E(s_k),
 *
 * which is E(0) on the level and grows with the steepness whichever way the slope faces, so a
 * route pays for a ridge and takes the pass. What it loses: a path along a contour of a steep
 * side costs as much as one up it, and downhill is not cheaper than uphill. Gompert's drag
 * (-K (v.g) g / |g|) slows an animal on a slope but is not in the energy the engine measures
 * (integrate.c), so it is not in the cost either.
 */
static double energy_cost(const fbTerrain *t, fbVec2 p)
{
  fbVec2 g = fbTerrain_Gradient(t, p.x, p.y);
  double steep = fbV_Length(g), sum = 0.0;
  static const double cosines[8] = {1, 0.70710678118654752, 0, -0.70710678118654752, -1, -0.70710678118654752, 0,
                                    0.70710678118654752};
  for (int k = 0; k < 8; ++k) {
    double s = steep * cosines[k];
    sum += sqrt(1 + s * s) * fbEnergy_PerDistance(s);
  }
  return sum / 8;
}

static const fbRegion *find_region(const fbWorld *w, const char *name, const char *field, const char *flow, char *err,
                                   size_t errlen)
{
  int k = fbRegions_Find(&w->regions, name);
  if (k < 0) {
    snprintf(err, errlen, "flow_fields.%s.route.%s: no region named '%s'", flow, field, name);
    return NULL;
  }
  return &w->regions.items[k];
}

// Walls, costs and goal cells of every cell, from the description and the world.
static bool fill_cells(fbRoute *r, const fbFlowDef *fd, const fbWorld *w, char *err, size_t errlen)
{
  const fbRouteDef *rd = &fd->route;
  const fbRegion *inside = NULL, *goal = NULL, *walls[FB_ROUTE_MAX_WALLS];
  if ((rd->inside[0] && !(inside = find_region(w, rd->inside, "inside", fd->name, err, errlen))) ||
      (rd->to_region[0] && !(goal = find_region(w, rd->to_region, "to", fd->name, err, errlen)))) {
    return false;
  }
  for (int k = 0; k < rd->wall_count; ++k) {
    if (!(walls[k] = find_region(w, rd->walls[k], "walls", fd->name, err, errlen))) {
      return false;
    }
  }
  double clear = rd->clearance >= 0 ? rd->clearance : fbRoute_DefaultClearance(w);
  bool hills = rd->cost == FB_ROUTE_ENERGY && !fbTerrain_IsFlat(&w->terrain);
  for (int k = 0; k < r->cols * r->rows; ++k) {
    fbVec2 p = fbFlowGrid_Centre(k % r->cols, k / r->cols, r->cols, r->rows, r->width, r->height);
    r->blocked[k] = blocked(w, inside, walls, rd->wall_count, p, clear);
    r->goal[k] = goal != NULL && fbRegion_Query(goal, p).inside;
    r->cost[k] = rd->cost == FB_ROUTE_FUNCTION ? rd->cost_samples[k]
                 : rd->cost == FB_ROUTE_ENERGY ? (hills ? energy_cost(&w->terrain, p) : fbEnergy_PerDistance(0.0))
                                               : 1.0;
  }
  return true;
}

bool fbRoute_Build(fbFlowField *f, const fbFlowDef *fd, const fbWorld *w, char *err, size_t errlen)
{
  const fbRouteDef *rd = &fd->route;
  if (rd->to_count == 0 && rd->to_region[0] == '\0') {
    snprintf(err, errlen, "flow_fields.%s.route.to: a route needs a goal: {x, y}, { {x, y}, ... } or a region's name",
             fd->name);
    return false;
  }
  fbRoute *r = malloc(sizeof *r);
  FB_ASSERT(r != NULL);
  char msg[256];
  double speed = rd->speed >= 0 ? rd->speed : fbRoute_DefaultSpeed(w);
  if (!fbRoute_Init(r, fd->cols, fd->rows, w->width, w->height, w->bounds == FB_BOUNDS_WRAP, speed, msg, sizeof msg)) {
    free(r);
    snprintf(err, errlen, "flow_fields.%s.route: %s", fd->name, msg);
    return false;
  }
  if (!fill_cells(r, fd, w, err, errlen)) {
    fbRoute_Free(r);
    free(r);
    return false;
  }
  fbRoute_SetGoals(r, rd->to, rd->to_count);
  if (!fbFlowField_InitRoute(f, fd->name, r, msg, sizeof msg)) {
    snprintf(err, errlen, "flow_fields.%s.route.to: %s", fd->name, msg);
    return false;
  }
  return true;
}
