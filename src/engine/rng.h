// rng.h — counter-based random numbers: a pure function of (seed, agent id, step, stream).
#ifndef FB_RNG_H
#define FB_RNG_H

#include <stdint.h>

// No generator state is shared, so results do not depend on the order in which agents or
// threads ask for numbers: the same four integers always give the same value.
uint64_t fbRng_Bits(uint64_t seed, uint64_t agent, uint64_t step, uint64_t stream);

// Uniform in [0, 1) with 53 random bits.
double fbRng_Uniform(uint64_t seed, uint64_t agent, uint64_t step, uint64_t stream);

#endif
