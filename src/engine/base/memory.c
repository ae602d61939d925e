// memory.c — growing the engine's arrays.
#include "memory.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "log.h"

void *fbMemory_Grow(void *p, size_t elem, size_t n)
{
  if (n == 0) {
    n = 1;
  }
  void *q = elem != 0 && n > SIZE_MAX / elem ? NULL : realloc(p, elem * n);
  if (q == NULL) {
    fbLog(FB_LOG_ERROR, "out of memory growing an array to %zu elements of %zu bytes", n, elem);
    abort();
  }
  return q;
}
