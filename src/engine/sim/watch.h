// watch.h — noticing saved files: inotify on folders, a save reported when its writer is done, with an mtime-polling fallback.
#ifndef FB_WATCH_H
#define FB_WATCH_H

#include <sys/types.h>
#include <time.h>

#include "fb.h"

#define FB_WATCH_MAX_DIRS 16
#define FB_WATCH_MAX_FILES 256
#define FB_WATCH_MAX_PENDING 64
#define FB_WATCH_QUIET_MS 150  // what waits for quiet waits this long (watch.c says what does)
#define FB_WATCH_POLL_MS 50    // how often polling compares modification times

typedef struct fbWatchedFile {
  char path[512];
  struct timespec mtime;
  off_t size;
  bool exists;
  int open;  // opens inotify reported minus closes: someone may still be writing while above 0
} fbWatchedFile;

// What the latest event says of a changed file's content.
typedef enum fbWatchChange {
  FB_CHANGE_WHOLE,    // its writer closed it, or it was renamed into place: report it now
  FB_CHANGE_WRITING,  // written, created or seen changed, no close yet: wait for the close or for quiet
  FB_CHANGE_GONE,     // deleted or renamed away: report it once quiet, unless it comes back
} fbWatchChange;

typedef struct fbWatchPending {
  char path[512];
  fbWatchChange change;
  double since_ms;  // its latest event
} fbWatchPending;

typedef struct fbWatch {
  int fd;                                   // inotify descriptor, -1 when polling
  int wd[FB_WATCH_MAX_DIRS];                // -1 for a folder deleted or moved away (watched again when back)
  char dirs[FB_WATCH_MAX_DIRS][512];
  int dir_count;
  fbWatchedFile files[FB_WATCH_MAX_FILES];  // every .lua file in the folders, for polling and rescans
  int file_count;
  fbWatchPending pending[FB_WATCH_MAX_PENDING];  // changed, not reported yet
  int pending_count;
  int held[FB_WATCH_MAX_PENDING];  // descriptors holding the files last reported against writers
  int held_count;
  double last_poll_ms;
  int quiet_ms;
} fbWatch;

// Starts an empty watch: inotify unless `polling` is set or inotify is unavailable.
void fbWatch_Open(fbWatch *w, bool polling);
void fbWatch_Close(fbWatch *w);

// Watches the .lua files of a folder; false if it does not exist (a folder already watched is
// not added twice).
bool fbWatch_AddDir(fbWatch *w, const char *dir);

// Non-blocking. Writes up to max paths (folder/name.lua) of saves that are complete into out and
// returns how many; a file saved many times before a poll is reported once. now_ms is a monotonic
// clock in milliseconds. Each file reported is held against writers until fbWatch_Release (a
// process opening it for writing waits), so that reading it reads one whole version; a file that a
// process has open for writing is not reported until it is closed.
int fbWatch_Poll(fbWatch *w, double now_ms, char (*out)[512], int max);

// Ends the hold on the files the last poll reported: call it as soon as they are read.
void fbWatch_Release(fbWatch *w);

bool fbWatch_UsesInotify(const fbWatch *w);

#endif
