// sha256.c — SHA-256 (FIPS 180-4), for the content hashes in a run's metadata.
#include "sha256.h"

#include <stdio.h>
#include <string.h>

#include "paths.h"

/*
 * FIPS 180-4, section 6.2. The message is padded with a 1 bit, zeros, and its length in bits as a
 * 64-bit big-endian number, to a multiple of 512 bits. Each 512-bit block is expanded into 64
 * words, W_t = sigma1(W_{t-2}) + W_{t-7} + sigma0(W_{t-15}) + W_{t-16}, and mixed into the eight
 * working variables over 64 rounds with the constants K_t (the first 32 bits of the fractional
 * parts of the cube roots of the first 64 primes); the state starts at the fractional parts of
 * the square roots of the first 8 primes. Checked against sha256sum in the tests.
 */
static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void compress(uint32_t s[8], const unsigned char *p)
{
  uint32_t w[64];
  for (int t = 0; t < 16; ++t) {
    w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 | (uint32_t)p[4 * t + 2] << 8 | p[4 * t + 3];
  }
  for (int t = 16; t < 64; ++t) {
    uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = s1 + w[t - 7] + s0 + w[t - 16];
  }
  uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
  for (int t = 0; t < 64; ++t) {
    uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
    uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
  }
  s[0] += a, s[1] += b, s[2] += c, s[3] += d, s[4] += e, s[5] += f, s[6] += g, s[7] += h;
}

void fbSha256_Init(fbSha256 *c)
{
  static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  memcpy(c->state, h0, sizeof h0);
  c->bytes = 0;
  c->used = 0;
}

void fbSha256_Update(fbSha256 *c, const void *data, size_t len)
{
  const unsigned char *p = data;
  c->bytes += len;
  while (len > 0) {
    size_t take = 64 - c->used < len ? 64 - c->used : len;
    memcpy(c->block + c->used, p, take);
    c->used += take, p += take, len -= take;
    if (c->used == 64) {
      compress(c->state, c->block);
      c->used = 0;
    }
  }
}

void fbSha256_Hex(fbSha256 *c, char hex[65])
{
  uint64_t bits = c->bytes * 8;
  unsigned char pad[72] = {0x80};
  size_t zeros = (c->used < 56 ? 56 : 120) - c->used;
  for (int k = 0; k < 8; ++k) {
    pad[zeros + k] = (unsigned char)(bits >> (56 - 8 * k));
  }
  fbSha256_Update(c, pad, zeros + 8);
  for (int k = 0; k < 8; ++k) {
    snprintf(hex + 8 * k, 9, "%08x", c->state[k]);
  }
}

bool fbSha256_File(const char *path, char hex[65])
{
  hex[0] = '\0';
  char why[256];
  FILE *f = fbFilePath_OpenRegular(path, LONG_MAX, NULL, why, sizeof why);  // a FIFO would block
  if (f == NULL) {
    return false;
  }
  fbSha256 c;
  fbSha256_Init(&c);
  unsigned char buf[16384];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
    fbSha256_Update(&c, buf, n);
  }
  bool ok = !ferror(f);
  fclose(f);
  if (ok) {
    fbSha256_Hex(&c, hex);
  }
  return ok;
}
