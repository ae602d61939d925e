// sha256.h — SHA-256 of a file, so a run's metadata names the exact scenario and rules that made it.
#ifndef FB_SHA256_H
#define FB_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct fbSha256 {
  uint32_t state[8];
  uint64_t bytes;          // message length so far
  unsigned char block[64];
  size_t used;             // bytes waiting in block
} fbSha256;

void fbSha256_Init(fbSha256 *c);
void fbSha256_Update(fbSha256 *c, const void *data, size_t len);
// The digest as 64 lowercase hex digits and a terminating zero (the form sha256sum prints).
void fbSha256_Hex(fbSha256 *c, char hex[65]);

// The digest of a whole file into hex; false (hex = "") if it cannot be read.
bool fbSha256_File(const char *path, char hex[65]);

#endif
