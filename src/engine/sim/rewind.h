// rewind.h — snapshots of a running scenario kept in memory under a budget, to go back in time to (the window's Backspace and timeline).
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
#define FB_REWIND_BUDGET_MB 256                // megabytes of snapshots unless --rewind-mb says (docs/window.md)
#define FB_REWIND_INTERVAL 50                  // steps between snapshots at the start

typedef struct fbRewindShot {
  uint64_t step;
  unsigned char *data;
  size_t len;
} fbRewindShot;

/*
 * Going back does not forget the snapshots after the moment gone back to: the timeline can go
 * forward to them again. They are forgotten when the run goes on from there (fbRewind_Forget),
 * since the steps that follow, with the rules as they are now, need not be the ones they saw.
 */
typedef struct fbRewind {
  fbRewindShot *shots;
  int count, capacity;
  size_t bytes, budget;
  uint64_t interval;
  bool off;                  // a snapshot was refused (a hook's upvalue it cannot hold): why says so
  char why[512];
} fbRewind;

// budget in bytes; 0 keeps no snapshots (rewind off, and fbRewind_Back says so).
void fbRewind_Init(fbRewind *r, size_t budget);
void fbRewind_Free(fbRewind *r);
// Forgets every snapshot (a restart, another scenario) and starts again at the first interval.
void fbRewind_Clear(fbRewind *r);

// Takes a snapshot of sim if its step is due (a multiple of the interval, and newer than the last).
void fbRewind_Note(fbRewind *r, fbSim *sim);

// Forgets the snapshots after step: the run goes on from there.
void fbRewind_Forget(fbRewind *r, uint64_t step);

// The index of the newest snapshot at or before step, or -1 if there is none.
int fbRewind_Find(const fbRewind *r, uint64_t step);

// Sets sim to snapshot k, keeping the rules as they are now (rule weights included): the run goes on
// from there with them. False with the reason if it cannot be restored.
bool fbRewind_Restore(const fbRewind *r, int k, fbSim *sim, char *err, size_t errlen);

// Sets sim back to the newest snapshot older than its step. False with the reason if there is none.
bool fbRewind_Back(fbRewind *r, fbSim *sim, char *err, size_t errlen);

// Sets sim forward to the oldest snapshot newer than its step (one kept after going back). False
// with the reason if there is none.
bool fbRewind_Forward(fbRewind *r, fbSim *sim, char *err, size_t errlen);

#endif
