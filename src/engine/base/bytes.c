// bytes.c — a growing byte buffer and a reader of one that checks every length.
#include "bytes.h"

#include <stdlib.h>
#include <string.h>

#include "memory.h"

void fbBytes_Put(fbBytes *b, const void *p, size_t n)
{
  if (b->len + n > b->cap) {
    size_t cap = b->cap > 0 ? b->cap : 4096;
    while (cap < b->len + n) {
      cap *= 2;
    }
    b->data = fbMemory_Grow(b->data, 1, cap);
    b->cap = cap;
  }
  if (n > 0) {
    memcpy(b->data + b->len, p, n);
  }
  b->len += n;
}

void fbBytes_U8(fbBytes *b, uint8_t v) { fbBytes_Put(b, &v, 1); }
void fbBytes_U32(fbBytes *b, uint32_t v) { fbBytes_Put(b, &v, sizeof v); }
void fbBytes_U64(fbBytes *b, uint64_t v) { fbBytes_Put(b, &v, sizeof v); }
void fbBytes_F64(fbBytes *b, double v) { fbBytes_Put(b, &v, sizeof v); }

void fbBytes_Blob(fbBytes *b, const void *p, size_t n)
{
  fbBytes_U32(b, (uint32_t)n);
  fbBytes_Put(b, p, n);
}

void fbBytes_Str(fbBytes *b, const char *s) { fbBytes_Blob(b, s, strlen(s)); }

void fbBytes_Free(fbBytes *b)
{
  free(b->data);
  *b = (fbBytes){0};
}

fbReader fbReader_Of(const void *data, size_t len) { return (fbReader){data, len, 0, false}; }

bool fbReader_Has(fbReader *r, size_t n, size_t elem)
{
  if (!r->bad && elem > 0 && n > (r->len - r->at) / elem) {
    r->bad = true;
  }
  return !r->bad;
}

bool fbReader_Get(fbReader *r, void *out, size_t n)
{
  if (!fbReader_Has(r, n, 1)) {
    memset(out, 0, n);
    return false;
  }
  memcpy(out, r->p + r->at, n);
  r->at += n;
  return true;
}

uint8_t fbReader_U8(fbReader *r)
{
  uint8_t v;
  fbReader_Get(r, &v, sizeof v);
  return v;
}

uint32_t fbReader_U32(fbReader *r)
{
  uint32_t v;
  fbReader_Get(r, &v, sizeof v);
  return v;
}

uint64_t fbReader_U64(fbReader *r)
{
  uint64_t v;
  fbReader_Get(r, &v, sizeof v);
  return v;
}

double fbReader_F64(fbReader *r)
{
  double v;
  fbReader_Get(r, &v, sizeof v);
  return v;
}

const unsigned char *fbReader_Blob(fbReader *r, size_t *n)
{
  *n = fbReader_U32(r);
  if (!fbReader_Has(r, *n, 1)) {
    *n = 0;
    return NULL;
  }
  const unsigned char *p = r->p + r->at;
  r->at += *n;
  return p;
}

bool fbReader_Str(fbReader *r, char *out, size_t cap)
{
  size_t n;
  const unsigned char *p = fbReader_Blob(r, &n);
  out[0] = '\0';
  if (p == NULL || n >= cap || memchr(p, '\0', n) != NULL) {
    r->bad = true;
    return false;
  }
  memcpy(out, p, n);
  out[n] = '\0';
  return true;
}
