// watch.c — inotify on folders (close-after-write and rename-into), debounced; mtime polling as fallback.
#define _GNU_SOURCE
#include "watch.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Editors save in two ways: writing the file in place (IN_CLOSE_WRITE) or writing a temporary
 * file and renaming it over the original (IN_MOVED_TO). Both are watched on the folder, not the
 * file, because a rename replaces the file's inode and a watch on the old inode would go quiet.
 * A save often arrives as a burst of events (truncate, write, close; or several files at once),
 * so a changed path is reported only once no event has arrived for debounce_ms. A full event
 * queue (IN_Q_OVERFLOW) loses events: then every file is compared with its last known mtime and
 * size, which is also how the polling fallback works when inotify is unavailable.
 */

static bool is_lua(const char *name)
{
  size_t n = strlen(name);
  return n > 4 && strcmp(name + n - 4, ".lua") == 0 && name[0] != '.';
}

static void stat_file(fbWatchedFile *f)
{
  struct stat st;
  f->exists = stat(f->path, &st) == 0;
  f->mtime = f->exists ? st.st_mtim : (struct timespec){0, 0};
  f->size = f->exists ? st.st_size : 0;
}

static int find_file(const fbWatch *w, const char *path)
{
  for (int k = 0; k < w->file_count; ++k) {
    if (strcmp(w->files[k].path, path) == 0) {
      return k;
    }
  }
  return -1;
}

static void track_file(fbWatch *w, const char *path)
{
  if (find_file(w, path) >= 0 || w->file_count >= FB_WATCH_MAX_FILES) {
    return;
  }
  fbWatchedFile *f = &w->files[w->file_count++];
  snprintf(f->path, sizeof f->path, "%s", path);
  stat_file(f);
}

static void scan_dir(fbWatch *w, const char *dir)
{
  DIR *d = opendir(dir);
  if (d == NULL) {
    return;
  }
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (is_lua(e->d_name)) {
      char path[512];
      snprintf(path, sizeof path, "%.400s/%.100s", dir, e->d_name);
      track_file(w, path);
    }
  }
  closedir(d);
}

static void mark_pending(fbWatch *w, const char *path, double now_ms)
{
  w->last_event_ms = now_ms;
  for (int k = 0; k < w->pending_count; ++k) {
    if (strcmp(w->pending[k], path) == 0) {
      return;
    }
  }
  if (w->pending_count < FB_WATCH_MAX_PENDING) {
    snprintf(w->pending[w->pending_count++], sizeof w->pending[0], "%s", path);
  }
}

// Compares every known file (and any new one in the folders) with its last mtime and size.
static void rescan(fbWatch *w, double now_ms)
{
  for (int d = 0; d < w->dir_count; ++d) {
    scan_dir(w, w->dirs[d]);
  }
  for (int k = 0; k < w->file_count; ++k) {
    fbWatchedFile *f = &w->files[k];
    fbWatchedFile before = *f;
    stat_file(f);
    if (before.exists != f->exists || before.size != f->size || before.mtime.tv_sec != f->mtime.tv_sec ||
        before.mtime.tv_nsec != f->mtime.tv_nsec) {
      mark_pending(w, f->path, now_ms);
    }
  }
}

bool fbWatch_AddDir(fbWatch *w, const char *dir)
{
  char real[PATH_MAX];
  if (realpath(dir, real) == NULL || w->dir_count >= FB_WATCH_MAX_DIRS) {
    return false;
  }
  for (int d = 0; d < w->dir_count; ++d) {
    if (strcmp(w->dirs[d], real) == 0) {
      return true;
    }
  }
  if (strlen(real) >= sizeof w->dirs[0] - 110) {
    return false;  // leaves room for "/name.lua" in the paths built from it
  }
  snprintf(w->dirs[w->dir_count], sizeof w->dirs[0], "%.400s", real);
  w->wd[w->dir_count] = -1;
  if (w->fd >= 0) {
    uint32_t mask = IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE;
    w->wd[w->dir_count] = inotify_add_watch(w->fd, real, mask);
  }
  scan_dir(w, real);
  w->dir_count++;
  return true;
}

void fbWatch_Open(fbWatch *w, bool polling)
{
  memset(w, 0, sizeof *w);
  w->debounce_ms = 150;
  w->fd = polling ? -1 : inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
}

void fbWatch_Close(fbWatch *w)
{
  if (w->fd >= 0) {
    close(w->fd);
  }
  w->fd = -1;
  w->dir_count = 0;
}

bool fbWatch_UsesInotify(const fbWatch *w) { return w->fd >= 0; }

static const char *dir_of(const fbWatch *w, int wd)
{
  for (int d = 0; d < w->dir_count; ++d) {
    if (w->wd[d] == wd) {
      return w->dirs[d];
    }
  }
  return NULL;
}

static void read_events(fbWatch *w, double now_ms)
{
  char buffer[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
  for (;;) {
    ssize_t n = read(w->fd, buffer, sizeof buffer);
    if (n <= 0) {
      return;  // EAGAIN: nothing more for now
    }
    for (char *p = buffer; p < buffer + n;) {
      const struct inotify_event *e = (const struct inotify_event *)p;
      p += sizeof *e + e->len;
      const char *dir = dir_of(w, e->wd);
      if (e->mask & IN_Q_OVERFLOW) {
        rescan(w, now_ms);
      } else if (dir != NULL && e->len > 0 && is_lua(e->name)) {
        char path[512];
        snprintf(path, sizeof path, "%.400s/%.100s", dir, e->name);
        track_file(w, path);
        mark_pending(w, path, now_ms);
      }
    }
  }
}

int fbWatch_Poll(fbWatch *w, double now_ms, char (*out)[512], int max)
{
  if (w->fd >= 0) {
    read_events(w, now_ms);
  } else if (now_ms - w->last_poll_ms >= 100) {
    w->last_poll_ms = now_ms;
    rescan(w, now_ms);
  }
  // Report only when the whole burst has gone quiet: saving several files together gives one reload each.
  if (w->pending_count == 0 || now_ms - w->last_event_ms < w->debounce_ms) {
    return 0;
  }
  int n = w->pending_count < max ? w->pending_count : max;
  for (int k = 0; k < n; ++k) {
    snprintf(out[k], 512, "%s", w->pending[k]);
    int f = find_file(w, w->pending[k]);
    if (f >= 0) {
      stat_file(&w->files[f]);
    }
  }
  memmove(w->pending, w->pending + n, sizeof w->pending[0] * (size_t)(w->pending_count - n));
  w->pending_count -= n;
  return n;
}
