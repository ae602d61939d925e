// fit_method.c — reflection into the unit box and the methods' seeded random numbers.
#include "fit_method.h"

#include <math.h>

#include "rng.h"

double fbFit_Reflect(double u)
{
  if (!isfinite(u)) {
    return 0.5;
  }
  double m = fmod(fabs(u), 2.0);  // the triangle wave has period 2 and is even
  return m <= 1.0 ? m : 2.0 - m;
}

double fbFitRandom_Uniform(fbFitRandom *r) { return fbRng_Uniform(r->seed, 0x66697421u, r->count++, 0); }

// Box–Muller: two uniforms give one standard normal (the second is thrown away: simpler than
// keeping state, and these numbers are never the bottleneck next to a simulation).
double fbFitRandom_Normal(fbFitRandom *r)
{
  double u1 = fbFitRandom_Uniform(r), u2 = fbFitRandom_Uniform(r);
  if (u1 < 1e-300) {
    u1 = 1e-300;
  }
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}
