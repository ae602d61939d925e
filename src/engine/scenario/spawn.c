// spawn.c — placing a scenario's agents at the start, from the species defs and the seed.
#include "spawn.h"

#include "fb_math.h"
#include "rng.h"

/*
 * Each new agent draws five uniforms u0..u4 from (seed, its id, step 0, streams 100..104):
 *   in a disc of radius R about c: r = R sqrt(u0), angle 2 pi u1 (uniform over the area);
 *   in a rectangle: x0 + (x1 - x0) u0, y0 + (y1 - y0) u1;
 *   heading: 2 pi u2 when none is given, else the given one spread by +-0.1 rad;
 *   speed: min + (max - min) u3.
 */
static void spawn_group(fbWorld *w, int s, const fbSpeciesDef *def)
{
  const fbSpawnDef *sp = &def->spawn;
  double area[4] = {0, 0, w->width, w->height};
  if (!isnan(sp->area[0])) {
    for (int k = 0; k < 4; ++k) {
      area[k] = sp->area[k];
    }
  }
  double lo = sp->speed[0], hi = sp->speed[1] < 0 ? w->species[s].cruise_speed : sp->speed[1];
  for (int k = 0; k < def->count; ++k) {
    uint64_t id = w->next_id;
    double u[5];
    for (int q = 0; q < 5; ++q) {
      u[q] = fbRng_Uniform(w->seed, id, 0, 100 + (uint64_t)q);
    }
    fbVec2 p;
    if (sp->around[2] >= 0) {
      double rad = sp->around[2] * sqrt(u[0]), ang = 2 * FB_PI * u[1];
      p = fbV(sp->around[0] + rad * fbMath_Cos(ang), sp->around[1] + rad * fbMath_Sin(ang));
    } else {
      p = fbV(area[0] + (area[2] - area[0]) * u[0], area[1] + (area[3] - area[1]) * u[1]);
    }
    double dir = isnan(sp->heading) ? 2 * FB_PI * u[2] : sp->heading * FB_PI / 180 + (u[2] - 0.5) * 0.2;
    double speed = lo + (hi - lo) * u[3];
    fbWorld_AddAgent(w, s, p, fbV(speed * fbMath_Cos(dir), speed * fbMath_Sin(dir)));
  }
}

void fbSpawn_All(fbWorld *w, const fbScenarioDef *d)
{
  for (int s = 0; s < d->species_count && s < w->species_count; ++s) {
    spawn_group(w, s, &d->species[s]);
    for (int k = 0; k < d->placed_count; ++k) {
      if (d->placed[k].species == s) {
        fbWorld_AddAgent(w, s, d->placed[k].p, d->placed[k].v);
      }
    }
  }
}
