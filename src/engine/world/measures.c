// measures.c — the built-in flock measures of a group of agents, and their table.
#include "measures.h"

#include <string.h>

#include "fb_math.h"
#include "radius_query.h"

/*
 * The measures of each group of agents, from the grid with the agents sorted for their current
 * positions:
 *   mean speed       (1/n) sum |v_i|                                 world units per second
 *   polarisation     |(1/n) sum h_i|, h_i the unit heading           0 .. 1
 *   mean nn distance (1/n) sum min_j |p_i - p_j|, j of the same group
 *   mean energy      (1/n) sum E_i, Gompert's energy (section 5.2.2)  energy units
 *   rotation         |(1/n) sum u_i x h_i|, u_i the unit offset of     0 .. 1
 *                    agent i from the group's centre c (Couzin et al. 2002's angular momentum
 *                    m_group, in the plane: 1 for a mill turning about c, near 0 for a swarm
 *                    or a group moving in parallel). Within walls the centre is the mean of the
 *                    positions; on a wrapped world, where a group across an edge has no such
 *                    mean, it is the circular mean along each axis, c = L/(2 pi) atan2(sum sin
 *                    2 pi x/L, sum cos 2 pi x/L), and u_i goes to the nearest image of agent i.
 * A group is a species (group_of = the agent's species, mask its bit) or every agent (group 0,
 * mask all). One pass over the agents fills every group. The nearest neighbour is searched
 * outward from the agent's own cell, ring by ring (fbPerception_Nearest with an infinite radius),
 * and the search nearly always stops at the first ring: the measures cost about one perception
 * pass, O(agents), at any size. With no agent the means are NaN, and so is the nearest distance
 * with only one: there is nothing to average.
 */
// The centre of each group along one axis of length size: the mean of the positions (sum / n),
// or on a torus the circular mean (angles 2 pi x / size, their sums in sum_sin and sum_cos).
double fbMeasures_AxisCentre(bool wrap, double sum, double sum_sin, double sum_cos, int n, double size)
{
  if (n == 0) {
    return 0.0;
  }
  if (!wrap) {
    return sum / n;
  }
  const double c = size * fbMath_Atan2(sum_sin, sum_cos) / (2.0 * FB_PI);
  return c < 0.0 ? c + size : c;
}

// Each group's centre, then the sum of u_i x h_i into m[g].rotation (see the table above).
static void add_rotation(const fbAgents *a, const fbGrid *grid, bool by_species, fbMeasures *m, int groups)
{
  const bool wrap = grid->wrap;
  const double W = grid->world_w, H = grid->world_h;
  double sx[FB_MAX_SPECIES] = {0}, sy[FB_MAX_SPECIES] = {0};
  double sin_x[FB_MAX_SPECIES] = {0}, cos_x[FB_MAX_SPECIES] = {0}, sin_y[FB_MAX_SPECIES] = {0}, cos_y[FB_MAX_SPECIES] = {0};
  for (int i = 0; i < a->count; ++i) {
    int g = by_species ? a->species[i] : 0;
    sx[g] += a->px[i];
    sy[g] += a->py[i];
    if (wrap) {  // one argument reduction for each sine and cosine pair
      double s, c;
      fbMath_SinCos(2.0 * FB_PI * a->px[i] / W, &s, &c);
      sin_x[g] += s;
      cos_x[g] += c;
      fbMath_SinCos(2.0 * FB_PI * a->py[i] / H, &s, &c);
      sin_y[g] += s;
      cos_y[g] += c;
    }
  }
  double cx[FB_MAX_SPECIES], cy[FB_MAX_SPECIES];
  for (int g = 0; g < groups; ++g) {
    cx[g] = fbMeasures_AxisCentre(wrap, sx[g], sin_x[g], cos_x[g], m[g].agents, W);
    cy[g] = fbMeasures_AxisCentre(wrap, sy[g], sin_y[g], cos_y[g], m[g].agents, H);
  }
  for (int i = 0; i < a->count; ++i) {
    int g = by_species ? a->species[i] : 0;
    double ux = a->px[i] - cx[g], uy = a->py[i] - cy[g];
    if (wrap) {
      ux = fbGrid_MinImage(ux, W);
      uy = fbGrid_MinImage(uy, H);
    }
    const double r = sqrt(ux * ux + uy * uy);
    if (r > 0.0) {
      m[g].rotation += (ux * a->hy[i] - uy * a->hx[i]) / r;
    }
  }
}

void fbMeasures_Compute(const fbAgents *a, const fbPerceptionInput *in, bool by_species, fbMeasures *m, int groups)
{
  double hx[FB_MAX_SPECIES] = {0}, hy[FB_MAX_SPECIES] = {0};
  memset(m, 0, sizeof *m * (size_t)groups);
  for (int i = 0; i < a->count; ++i) {
    int g = by_species ? a->species[i] : 0;
    uint32_t mask = by_species ? 1u << g : UINT32_MAX;
    m[g].agents++;
    m[g].mean_speed += sqrt(a->vx[i] * a->vx[i] + a->vy[i] * a->vy[i]);
    hx[g] += a->hx[i];
    hy[g] += a->hy[i];
    m[g].mean_energy += a->energy[i];
    double d = INFINITY;
    fbPerception_Nearest(in, fbV(a->px[i], a->py[i]), INFINITY, mask, i, NULL, &d);
    m[g].mean_nn += isfinite(d) ? d : NAN;  // infinite: nobody else of the group to be near
  }
  add_rotation(a, in->grid, by_species, m, groups);
  for (int g = 0; g < groups; ++g) {
    double n = m[g].agents > 0 ? m[g].agents : NAN;
    m[g].mean_speed /= n;
    m[g].polarisation = sqrt(hx[g] * hx[g] + hy[g] * hy[g]) / n;
    m[g].mean_nn = m[g].agents > 1 ? m[g].mean_nn / n : NAN;
    m[g].mean_energy /= n;
    m[g].rotation = fabs(m[g].rotation) / n;
  }
}

#define MEASURE(field) offsetof(fbMeasures, field)

// The built-in measures: column, plot title, where measure() leaves it, an int?, plotted on 0..1?
const fbMeasure fbMeasureTable[] = {
    {"agents", "agents", MEASURE(agents), true, false},
    {"mean_speed", "mean speed (u/s)", MEASURE(mean_speed), false, false},
    {"polarisation", "polarisation (0-1)", MEASURE(polarisation), false, true},
    {"mean_nn_distance", "nearest neighbour (u)", MEASURE(mean_nn), false, false},
    {"mean_energy", "energy spent", MEASURE(mean_energy), false, false},
    {"rotation", "rotation (0-1)", MEASURE(rotation), false, true},
};
// Sized by its entries, not by FB_MEASURES: a count left behind would add a zero entry or drop one.
_Static_assert(sizeof fbMeasureTable / sizeof fbMeasureTable[0] == FB_MEASURES,
               "FB_MEASURES (measures.h) must count fbMeasureTable's entries");

double fbMeasures_Value(const fbMeasures *m, int k)
{
  const fbMeasure *d = &fbMeasureTable[k];
  return fbNumberAt((const char *)m + d->offset, d->count);
}

bool fbMeasures_IsBuiltinColumn(const char *name)
{
  if (strcmp(name, "step") == 0 || strcmp(name, "time") == 0) {
    return true;
  }
  // SPECIES.<column>: species names hold no dot, so any name ending so may collide with one
  const char *dot = strrchr(name, '.');
  for (int k = 0; dot != NULL && dot > name && k < FB_MEASURES; ++k) {
    if (strcmp(dot + 1, fbMeasureTable[k].column) == 0) {
      return true;
    }
  }
  return false;
}
