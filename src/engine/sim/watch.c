// watch.c — inotify on folders: a save is reported once its writer has closed it or renamed it into place; mtime polling as fallback.
#define _GNU_SOURCE
#include "watch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef __EMSCRIPTEN__
// A web page has no inotify (emscripten declares it, but has no code for it): the watch polls
// modification times there, as fbWatch_Open falls back to whenever inotify cannot start.
#define inotify_init1(flags) ((void)(flags), errno = ENOSYS, -1)
#define inotify_add_watch(fd, path, mask) ((void)(fd), (void)(path), (void)(mask), errno = ENOSYS, -1)
#define inotify_rm_watch(fd, wd) ((void)(fd), (void)(wd), errno = ENOSYS, -1)
#endif

/*
 * When is a saved file whole? Editors save in one of three ways:
 * - in place: open (truncating), write, close. inotify says IN_MODIFY at each write and
 *   IN_CLOSE_WRITE at the close; the content is whole at the close and not before, however long
 *   the writer pauses between its writes;
 * - a temporary file renamed over the original (IN_MOVED_TO): whole at once. The folder is
 *   watched, not the file, because the rename puts a new inode under the name;
 * - the original renamed away as a backup, or deleted, then a new file written (IN_MOVED_FROM or
 *   IN_DELETE, IN_CREATE, writes, IN_CLOSE_WRITE): whole at the close.
 * So a close after writing, or a rename into place, is reported at the next poll, with no delay.
 * Only what has no close to wait for waits for quiet (quiet_ms with no other event on the file):
 * - a change while nobody holds the file open: a link made into the folder (IN_CREATE alone), a
 *   truncate by path (IN_MODIFY alone). inotify reports every open and close of a watched file, so
 *   a file still held open (by a writer between two writes, say) counts above zero: it waits for
 *   the close, which reports it whole;
 * - a deletion or a rename away, which an editor may follow at once with the new file;
 * - a change found by comparing modification times and sizes: when polling, which sees no opens
 *   or closes, and in the rescan after a full event queue (IN_Q_OVERFLOW), after which the open
 *   counts are unknown. There only the hold below keeps a writer who pauses from being read half-way.
 * A whole file is held back while another one is open and being written, at most for quiet_ms, so
 * that an editor's "save all" (a rule and the helper it requires) applies together.
 * Writes through a shared mmap make no inotify event at all; only polling sees them.
 * A file is reported only if nobody has it open for writing at that moment, and it stays held
 * against writers while it is read (hold_file): so however the events came, and with polling too,
 * no half of a save that is still being written through an open file is read.
 */

#define WATCH_MASK                                                                                    \
  (IN_OPEN | IN_MODIFY | IN_CLOSE_WRITE | IN_CLOSE_NOWRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | \
   IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

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

static fbWatchedFile *find_file(fbWatch *w, const char *path)
{
  for (int k = 0; k < w->file_count; ++k) {
    if (strcmp(w->files[k].path, path) == 0) {
      return &w->files[k];
    }
  }
  return NULL;
}

// The file's entry, made (with its current mtime and size) if it is new; NULL when the table is full.
static fbWatchedFile *track_file(fbWatch *w, const char *path, bool *is_new)
{
  fbWatchedFile *f = find_file(w, path);
  *is_new = f == NULL && w->file_count < FB_WATCH_MAX_FILES;
  if (*is_new) {
    f = &w->files[w->file_count++];
    memset(f, 0, sizeof *f);
    snprintf(f->path, sizeof f->path, "%s", path);
    stat_file(f);
  }
  return f;
}

// ---- changes waiting to be reported ---------------------------------------------------------------

// The latest event on a file decides: a close after a truncate is whole, a write after a close is not.
static void note_change(fbWatch *w, const char *path, fbWatchChange change, double now_ms)
{
  fbWatchPending *p = NULL;
  for (int k = 0; k < w->pending_count && p == NULL; ++k) {
    p = strcmp(w->pending[k].path, path) == 0 ? &w->pending[k] : NULL;
  }
  if (p == NULL && w->pending_count < FB_WATCH_MAX_PENDING) {
    p = &w->pending[w->pending_count++];
    snprintf(p->path, sizeof p->path, "%s", path);
  }
  if (p != NULL) {
    p->change = change;
    p->since_ms = now_ms;
  }
}

static int open_count(fbWatch *w, const char *path)
{
  const fbWatchedFile *f = find_file(w, path);
  return f != NULL ? f->open : 0;
}

// Another file of a save under way: open, with writes not closed yet.
static bool another_being_written(fbWatch *w, const fbWatchPending *p)
{
  for (int k = 0; k < w->pending_count; ++k) {
    const fbWatchPending *q = &w->pending[k];
    if (q != p && q->change == FB_CHANGE_WRITING && open_count(w, q->path) > 0) {
      return true;
    }
  }
  return false;
}

static bool settled(fbWatch *w, const fbWatchPending *p, double now_ms)
{
  bool quiet = now_ms - p->since_ms >= w->quiet_ms;
  switch (p->change) {
    case FB_CHANGE_WHOLE:
      return quiet || !another_being_written(w, p);
    case FB_CHANGE_WRITING:
      return quiet && open_count(w, p->path) == 0;
    case FB_CHANGE_GONE:
      return quiet;
  }
  return true;
}

// ---- holding a file against writers while it is read ----------------------------------------------

/*
 * A close says that a version is whole, but the next save may begin while it is being read (a
 * script saving in a loop, a formatter saving after the editor): a truncating open between the
 * event and the loader's read would hand it an empty or half file. A read lease closes that gap.
 * The kernel refuses it while any process has the file open for writing (EAGAIN: it is being
 * written, so not whole), and while it is held, an open for writing waits until it is released.
 * The kernel tells a lease's holder that someone waits with SIGIO, whose default action ends the
 * process: the signal is made SIGURG (ignored by default) before the lease is taken, and the
 * descriptor's owner is cleared after, so that no signal is sent at all. Leases need the file's
 * owner (or CAP_LEASE) and a local file system; without one the file is read unheld.
 */
typedef enum HoldResult { HOLD_HELD, HOLD_BUSY, HOLD_NONE } HoldResult;

static HoldResult hold_file(const char *path, int *fd_out)
{
  *fd_out = -1;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    return HOLD_NONE;  // gone: the loader will say so
  }
  if (fcntl(fd, F_SETSIG, SIGURG) == 0 && fcntl(fd, F_SETLEASE, F_RDLCK) == 0) {
    fcntl(fd, F_SETOWN, 0);
    *fd_out = fd;
    return HOLD_HELD;
  }
  bool busy = errno == EAGAIN;
  close(fd);
  return busy ? HOLD_BUSY : HOLD_NONE;
}

// False when a writer has the file open: it is not whole yet.
static bool take_hold(fbWatch *w, const char *path)
{
  int fd;
  HoldResult hold = hold_file(path, &fd);
  if (hold == HOLD_HELD) {
    w->held[w->held_count++] = fd;
  }
  return hold != HOLD_BUSY;
}

void fbWatch_Release(fbWatch *w)
{
  for (int k = 0; k < w->held_count; ++k) {
    fcntl(w->held[k], F_SETLEASE, F_UNLCK);
    close(w->held[k]);
  }
  w->held_count = 0;
}

// Moves up to max settled paths into out, oldest first, each held against writers; the others stay
// pending, and one that a writer turns out to have open waits again as being written.
static int take_settled(fbWatch *w, double now_ms, char (*out)[512], int max)
{
  bool ready[FB_WATCH_MAX_PENDING];
  for (int k = 0; k < w->pending_count; ++k) {
    ready[k] = settled(w, &w->pending[k], now_ms);  // all decided before any is removed
  }
  int n = 0, kept = 0;
  for (int k = 0; k < w->pending_count; ++k) {
    fbWatchPending p = w->pending[k];
    if (ready[k] && n < max && take_hold(w, p.path)) {
      snprintf(out[n++], 512, "%s", p.path);
      fbWatchedFile *f = find_file(w, p.path);
      if (f != NULL) {
        stat_file(f);  // the version reported is the one the next comparison starts from
      }
      continue;
    }
    if (ready[k] && n < max) {
      p.change = FB_CHANGE_WRITING;  // its close (or, polling, quiet) reports it
      p.since_ms = now_ms;
    }
    w->pending[kept++] = p;
  }
  w->pending_count = kept;
  return n;
}

// ---- comparing modification times (polling, and after lost events) ------------------------------

static void scan_dir(fbWatch *w, const char *dir, bool note_new, double now_ms)
{
  DIR *d = opendir(dir);
  if (d == NULL) {
    return;
  }
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (is_lua(e->d_name)) {
      char path[512];
      bool is_new;
      snprintf(path, sizeof path, "%.400s/%.100s", dir, e->d_name);
      if (track_file(w, path, &is_new) != NULL && is_new && note_new) {
        note_change(w, path, FB_CHANGE_WRITING, now_ms);
      }
    }
  }
  closedir(d);
}

// Compares every known file (and finds any new one in the folders) with its last mtime and size.
// Nothing says whether a changed file is still being written, so it waits for quiet; the open
// counts start again from zero.
static void rescan(fbWatch *w, double now_ms)
{
  for (int d = 0; d < w->dir_count; ++d) {
    scan_dir(w, w->dirs[d], true, now_ms);
  }
  for (int k = 0; k < w->file_count; ++k) {
    fbWatchedFile *f = &w->files[k];
    fbWatchedFile before = *f;
    stat_file(f);
    f->open = 0;
    if (before.exists != f->exists || before.size != f->size || before.mtime.tv_sec != f->mtime.tv_sec ||
        before.mtime.tv_nsec != f->mtime.tv_nsec) {
      note_change(w, f->path, f->exists ? FB_CHANGE_WRITING : FB_CHANGE_GONE, now_ms);
    }
  }
}

// ---- inotify events -------------------------------------------------------------------------------

static int dir_index(const fbWatch *w, int wd)
{
  for (int d = 0; d < w->dir_count; ++d) {
    if (w->wd[d] == wd) {
      return d;
    }
  }
  return -1;
}

// A watched folder deleted or moved away: its watch would follow the moved folder and name its
// files wrongly, so it is dropped until a folder is back at the path (rewatch_lost_dirs).
static void lose_dir(fbWatch *w, int d)
{
  inotify_rm_watch(w->fd, w->wd[d]);  // fails harmlessly when the kernel already dropped it
  w->wd[d] = -1;
}

static void rewatch_lost_dirs(fbWatch *w, double now_ms)
{
  bool back = false;
  for (int d = 0; d < w->dir_count; ++d) {
    if (w->wd[d] < 0) {
      w->wd[d] = inotify_add_watch(w->fd, w->dirs[d], WATCH_MASK);
      back = back || w->wd[d] >= 0;
    }
  }
  if (back) {
    rescan(w, now_ms);  // what the new folder holds is compared with what the old one did
  }
}

// What one event on a .lua file says: its open count, and whether its content is whole.
static void on_file_event(fbWatch *w, const char *path, uint32_t mask, double now_ms)
{
  bool is_new;
  fbWatchedFile *f = track_file(w, path, &is_new);
  fbWatchedFile none = {.open = 0};
  f = f != NULL ? f : &none;
  if (mask & IN_OPEN) {
    f->open++;
  }
  if ((mask & (IN_CLOSE_WRITE | IN_CLOSE_NOWRITE)) && f->open > 0) {
    f->open--;  // a close of an open made before the watch began is not counted
  }
  if (mask & (IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)) {
    f->open = 0;  // another inode under the name from now on
  }
  if (mask & (IN_CLOSE_WRITE | IN_MOVED_TO)) {
    note_change(w, path, FB_CHANGE_WHOLE, now_ms);
  } else if (mask & (IN_MODIFY | IN_CREATE)) {
    note_change(w, path, FB_CHANGE_WRITING, now_ms);
  } else if (mask & (IN_DELETE | IN_MOVED_FROM)) {
    note_change(w, path, FB_CHANGE_GONE, now_ms);
  }
}

static void on_event(fbWatch *w, const struct inotify_event *e, double now_ms)
{
  if (e->mask & IN_Q_OVERFLOW) {
    rescan(w, now_ms);
    return;
  }
  int d = dir_index(w, e->wd);
  if (d < 0) {
    return;  // the end of a watch already dropped
  }
  if (e->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) {
    lose_dir(w, d);
  } else if (e->len > 0 && !(e->mask & IN_ISDIR) && is_lua(e->name)) {
    char path[512];
    snprintf(path, sizeof path, "%.400s/%.100s", w->dirs[d], e->name);
    on_file_event(w, path, e->mask, now_ms);
  }
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
      on_event(w, e, now_ms);
    }
  }
}

// ---- the watch ------------------------------------------------------------------------------------

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
  w->wd[w->dir_count] = w->fd >= 0 ? inotify_add_watch(w->fd, real, WATCH_MASK) : -1;
  scan_dir(w, real, false, 0);
  w->dir_count++;
  return true;
}

void fbWatch_Open(fbWatch *w, bool polling)
{
  memset(w, 0, sizeof *w);
  w->quiet_ms = FB_WATCH_QUIET_MS;
  w->fd = polling ? -1 : inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
}

void fbWatch_Close(fbWatch *w)
{
  fbWatch_Release(w);
  if (w->fd >= 0) {
    close(w->fd);
  }
  w->fd = -1;
  w->dir_count = 0;
}

bool fbWatch_UsesInotify(const fbWatch *w) { return w->fd >= 0; }

int fbWatch_Poll(fbWatch *w, double now_ms, char (*out)[512], int max)
{
  fbWatch_Release(w);  // in case the last poll's caller did not
  if (w->fd >= 0) {
    read_events(w, now_ms);
  }
  if (now_ms - w->last_poll_ms >= FB_WATCH_POLL_MS) {
    w->last_poll_ms = now_ms;
    if (w->fd >= 0) {
      rewatch_lost_dirs(w, now_ms);
    } else {
      rescan(w, now_ms);
    }
  }
  return take_settled(w, now_ms, out, max);
}
