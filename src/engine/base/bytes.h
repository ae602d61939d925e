// bytes.h — a growing byte buffer to write into and a reader of one that checks every length: the state file's encoding.
#ifndef FB_BYTES_H
#define FB_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Values are written as the machine holds them (little-endian on every host flockbox builds on;
 * the state's header carries a byte-order mark, so a file from another order is refused rather
 * than misread). Strings and arrays carry their length first as a u32.
 */
typedef struct fbBytes {
  unsigned char *data;
  size_t len, cap;
} fbBytes;

void fbBytes_Put(fbBytes *b, const void *p, size_t n);
void fbBytes_U8(fbBytes *b, uint8_t v);
void fbBytes_U32(fbBytes *b, uint32_t v);
void fbBytes_U64(fbBytes *b, uint64_t v);
void fbBytes_F64(fbBytes *b, double v);
void fbBytes_Str(fbBytes *b, const char *s);
void fbBytes_Blob(fbBytes *b, const void *p, size_t n);  // u32 length, then the bytes
void fbBytes_Free(fbBytes *b);

/*
 * Reading never goes past the end: a read that would sets `bad` and yields zeros, and so does
 * every read after it, so a caller reads a whole record and checks `bad` once. A length read
 * from the data is checked against what is left before anything is allocated for it.
 */
typedef struct fbReader {
  const unsigned char *p;
  size_t len, at;
  bool bad;
} fbReader;

fbReader fbReader_Of(const void *data, size_t len);
bool fbReader_Get(fbReader *r, void *out, size_t n);
uint8_t fbReader_U8(fbReader *r);
uint32_t fbReader_U32(fbReader *r);
uint64_t fbReader_U64(fbReader *r);
double fbReader_F64(fbReader *r);
// A string into out (NUL-terminated); bad if it does not fit in cap or holds a NUL.
bool fbReader_Str(fbReader *r, char *out, size_t cap);
// A blob's bytes in place (no copy), *n its length; NULL (and bad) if it runs past the end.
const unsigned char *fbReader_Blob(fbReader *r, size_t *n);
// n items of elem bytes: false (and bad) unless that many are left.
bool fbReader_Has(fbReader *r, size_t n, size_t elem);

#endif
