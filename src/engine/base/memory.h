// memory.h — growing the engine's arrays: one realloc with the size checked and one failure policy.
#ifndef FB_MEMORY_H
#define FB_MEMORY_H

#include <stddef.h>

// Returns p reallocated to hold n elements of elem bytes (room for one when n is 0, so the result
// is never NULL). Running out of memory, or an n * elem past SIZE_MAX, aborts with a message: the
// engine bounds what a script may make it allocate (FB_MAX_AGENTS, FB_MAX_COMMANDS), so what is
// left to fail is the machine, and no caller has a way to go on without its array.
void *fbMemory_Grow(void *p, size_t elem, size_t n);

#endif
