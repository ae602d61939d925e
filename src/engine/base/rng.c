// rng.c — counter-based random numbers built from the SplitMix64 finaliser.
#include "rng.h"

/*
 * Each input word is folded in with a distinct odd constant and passed through the
 * SplitMix64 finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number
 * generators", 2014): z ^= z >> 30; z *= 0xbf58476d1ce4e5b9; z ^= z >> 27;
 * z *= 0x94d049bb133111eb; z ^= z >> 31. Chaining the mix after each word makes the
 * output depend on every bit of every input, which is all a counter-based generator needs.
 */
static uint64_t mix64(uint64_t z)
{
  z ^= z >> 30;
  z *= 0xbf58476d1ce4e5b9ULL;
  z ^= z >> 27;
  z *= 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return z;
}

uint64_t fbRng_Prefix(uint64_t seed, uint64_t agent, uint64_t step)
{
  uint64_t h = mix64(seed + 0x9e3779b97f4a7c15ULL);
  h = mix64(h ^ (agent + 0xd1b54a32d192ed03ULL));
  return mix64(h ^ (step + 0x8cb92ba72f3d8dd7ULL));
}

uint64_t fbRng_Bits(uint64_t seed, uint64_t agent, uint64_t step, uint64_t stream)
{
  return fbRng_Stream(fbRng_Prefix(seed, agent, step), stream);
}

double fbRng_Uniform(uint64_t seed, uint64_t agent, uint64_t step, uint64_t stream)
{
  return (double)(fbRng_Bits(seed, agent, step, stream) >> 11) * 0x1.0p-53;
}
