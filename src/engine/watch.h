// watch.h — noticing saved files: inotify on folders, debounced, with an mtime-polling fallback.
#ifndef FB_WATCH_H
#define FB_WATCH_H

#include <sys/types.h>
#include <time.h>

#include "fb.h"

#define FB_WATCH_MAX_DIRS 16
#define FB_WATCH_MAX_FILES 256
#define FB_WATCH_MAX_PENDING 64

typedef struct fbWatchedFile {
  char path[512];
  struct timespec mtime;
  off_t size;
  bool exists;
} fbWatchedFile;

typedef struct fbWatch {
  int fd;                                   // inotify descriptor, -1 when polling
  int wd[FB_WATCH_MAX_DIRS];
  char dirs[FB_WATCH_MAX_DIRS][512];
  int dir_count;
  fbWatchedFile files[FB_WATCH_MAX_FILES];  // every .lua file in the folders, for polling and rescans
  int file_count;
  char pending[FB_WATCH_MAX_PENDING][512];  // changed, waiting for the burst of writes to settle
  int pending_count;
  double last_poll_ms;
  double last_event_ms;                     // newest event of the current burst
  int debounce_ms;
} fbWatch;

// Starts an empty watch: inotify unless `polling` is set or inotify is unavailable.
void fbWatch_Open(fbWatch *w, bool polling);
void fbWatch_Close(fbWatch *w);

// Watches the .lua files of a folder; false if it does not exist (a folder already watched is
// not added twice).
bool fbWatch_AddDir(fbWatch *w, const char *dir);

// Non-blocking. Writes up to max paths (folder/name.lua) whose changes have settled for the
// debounce time into out and returns how many; the same file saved many times in a burst is
// reported once. now_ms is a monotonic clock in milliseconds.
int fbWatch_Poll(fbWatch *w, double now_ms, char (*out)[512], int max);

bool fbWatch_UsesInotify(const fbWatch *w);

#endif
