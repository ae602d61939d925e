// rng.h — counter-based random numbers: a pure function of (seed, agent id, step, stream).
#ifndef FB_RNG_H
#define FB_RNG_H

#include <stdint.h>

// No generator state is shared, so results do not depend on the order in which agents or
// threads ask for numbers: the same four integers always give the same value.
uint64_t fbRng_Bits(uint64_t seed, uint64_t agent, uint64_t step, uint64_t stream);

// Uniform in [0, 1) with 53 random bits.
double fbRng_Uniform(uint64_t seed, uint64_t agent, uint64_t step, uint64_t stream);

// fbRng_Bits in two parts, for many streams of one (seed, agent, step) at the cost of one mix each:
// fbRng_Stream(fbRng_Prefix(seed, agent, step), stream) == fbRng_Bits(seed, agent, step, stream).
uint64_t fbRng_Prefix(uint64_t seed, uint64_t agent, uint64_t step);

static inline uint64_t fbRng_Stream(uint64_t prefix, uint64_t stream)
{
  uint64_t z = prefix ^ (stream + 0xa0761d6478bd642fULL);  // rng.c's last fold, inlined
  z ^= z >> 30;
  z *= 0xbf58476d1ce4e5b9ULL;
  z ^= z >> 27;
  z *= 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

#endif
