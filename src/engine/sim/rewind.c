// rewind.c — a ring of snapshots under a memory budget, thinned by halves, and moving back and forth through it.
#include "rewind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memory.h"

void fbRewind_Init(fbRewind *r, size_t budget)
{
  memset(r, 0, sizeof *r);
  r->budget = budget;
  r->interval = FB_REWIND_INTERVAL;
}

void fbRewind_Clear(fbRewind *r)
{
  for (int k = 0; k < r->count; ++k) {
    free(r->shots[k].data);
  }
  r->count = 0;
  r->bytes = 0;
  r->interval = FB_REWIND_INTERVAL;
  r->off = false;
  r->why[0] = '\0';
}

void fbRewind_Free(fbRewind *r)
{
  fbRewind_Clear(r);
  free(r->shots);
  memset(r, 0, sizeof *r);
}

// Keeps the snapshots at multiples of twice the interval (the first one too), and doubles it.
static void thin(fbRewind *r)
{
  r->interval *= 2;
  int kept = 0;
  for (int k = 0; k < r->count; ++k) {
    fbRewindShot s = r->shots[k];
    if (k == 0 || s.step % r->interval == 0) {
      r->shots[kept++] = s;
    } else {
      r->bytes -= s.len;
      free(s.data);
    }
  }
  r->count = kept;
}

void fbRewind_Forget(fbRewind *r, uint64_t step)
{
  while (r->count > 0 && r->shots[r->count - 1].step > step) {
    fbRewindShot *s = &r->shots[--r->count];
    r->bytes -= s->len;
    free(s->data);
  }
}

void fbRewind_Note(fbRewind *r, fbSim *sim)
{
  uint64_t step = fbSim_World(sim)->step;
  if (r->off || r->budget == 0 || step % r->interval != 0 || (r->count > 0 && r->shots[r->count - 1].step >= step)) {
    return;
  }
  fbBytes b = {0};
  if (!fbState_Snapshot(sim, &b, r->why, sizeof r->why)) {
    r->off = true;  // said once by the window; the run goes on without rewind
    fbBytes_Free(&b);
    return;
  }
  while (r->count > 1 && r->bytes + b.len > r->budget) {
    thin(r);
  }
  if (r->count == r->capacity) {
    r->capacity = r->capacity > 0 ? 2 * r->capacity : 64;
    r->shots = fbMemory_Grow(r->shots, sizeof *r->shots, (size_t)r->capacity);
  }
  r->shots[r->count++] = (fbRewindShot){step, b.data, b.len};
  r->bytes += b.len;
}

int fbRewind_Find(const fbRewind *r, uint64_t step)
{
  int k = r->count - 1;
  while (k >= 0 && r->shots[k].step > step) {
    --k;
  }
  return k;
}

bool fbRewind_Restore(const fbRewind *r, int k, fbSim *sim, char *err, size_t errlen)
{
  return fbState_Restore(sim, r->shots[k].data, r->shots[k].len, true, err, errlen);
}

// Why there is no snapshot to go to: rewind is off (and why), or the ring has none there.
static bool none(const fbRewind *r, const char *where, char *err, size_t errlen)
{
  if (r->off) {
    snprintf(err, errlen, "%s", r->why);
  } else if (r->budget == 0) {
    snprintf(err, errlen, "rewind is off (--rewind-mb 0)");
  } else {
    snprintf(err, errlen, "no %s snapshot to go to", where);
  }
  return false;
}

bool fbRewind_Back(fbRewind *r, fbSim *sim, char *err, size_t errlen)
{
  uint64_t now = fbSim_World(sim)->step;
  int k = now > 0 ? fbRewind_Find(r, now - 1) : -1;
  return k >= 0 ? fbRewind_Restore(r, k, sim, err, errlen) : none(r, "earlier", err, errlen);
}

bool fbRewind_Forward(fbRewind *r, fbSim *sim, char *err, size_t errlen)
{
  int k = fbRewind_Find(r, fbSim_World(sim)->step) + 1;
  return k < r->count ? fbRewind_Restore(r, k, sim, err, errlen) : none(r, "later", err, errlen);
}
