// rewind.h — snapshots of a running scenario kept in memory under a budget, to go back in time to (the window's Backspace).
#ifndef FB_REWIND_H
#define FB_REWIND_H

#include "state.h"

/*
 * A snapshot (state.h, without the file's header) every `interval` steps, oldest first. When the
 * next one would take the ring past its memory budget, every other snapshot is dropped and the
 * interval doubles: the ring always reaches back to the start of the run, more coarsely the longer
 * the run. A snapshot is about 112 bytes per agent (13 doubles, id, species, active, held) plus 16
 * per declared field, plus the hooks' data.
 */
#define FB_REWIND_BUDGET ((size_t)256 << 20)   // bytes of snapshots (docs/window.md)
#define FB_REWIND_INTERVAL 50                  // steps between snapshots at the start

typedef struct fbRewindShot {
  uint64_t step;
  unsigned char *data;
  size_t len;
} fbRewindShot;

typedef struct fbRewind {
  fbRewindShot *shots;
  int count, capacity;
  size_t bytes, budget;
  uint64_t interval;
  bool off;                  // a snapshot was refused (a hook's upvalue it cannot hold): why says so
  char why[512];
} fbRewind;

void fbRewind_Init(fbRewind *r, size_t budget);
void fbRewind_Free(fbRewind *r);
// Forgets every snapshot (a restart, another scenario) and starts again at the first interval.
void fbRewind_Clear(fbRewind *r);

// Takes a snapshot of sim if its step is due (a multiple of the interval, and newer than the last).
void fbRewind_Note(fbRewind *r, fbSim *sim);

// Sets sim back to the newest snapshot older than its step and forgets those after it (the run
// goes on from there with the rules as they are now, rule weights included). False with the
// reason if there is none.
bool fbRewind_Back(fbRewind *r, fbSim *sim, char *err, size_t errlen);

#endif
