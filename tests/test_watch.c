// test_watch.c — the watch reports a save as soon as it is whole, and never while it is half-written.
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"
#include "watch.h"

// Time is the tests' own: fbWatch_Poll is given it, so "later" costs no waiting and no test
// depends on how fast the machine is.
static fbWatch w;
static char dir[64];
static char out[FB_WATCH_MAX_PENDING][512];

static const char *whole = "return { params = {}, steer = function(a, p) return 1, 0 end }\n";

static char *in_dir(const char *name)
{
  static char paths[4][512];
  static int next;
  char *p = paths[next++ % 4];
  snprintf(p, 512, "%s/%s", dir, name);
  return p;
}

static void save(const char *name, const char *text)
{
  FILE *f = fopen(in_dir(name), "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static void read_whole(const char *name, char *text, size_t len)
{
  FILE *f = fopen(in_dir(name), "r");
  assert_non_null(f);
  text[fread(text, 1, len - 1, f)] = '\0';
  fclose(f);
}

// Polls at a time, ends the hold at once, and returns how many files were reported.
static int poll_at(double now_ms)
{
  int n = fbWatch_Poll(&w, now_ms, out, FB_WATCH_MAX_PENDING);
  fbWatch_Release(&w);
  return n;
}

static bool reported(int n, const char *name)
{
  for (int k = 0; k < n; ++k) {
    if (strcmp(out[k], in_dir(name)) == 0) {
      return true;
    }
  }
  return false;
}

static int setup(void **state)
{
  (void)state;
  snprintf(dir, sizeof dir, "/tmp/flockbox_watch_XXXXXX");
  assert_non_null(mkdtemp(dir));
  return 0;
}

static int teardown(void **state)
{
  (void)state;
  fbWatch_Close(&w);
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf %s %s.old", dir, dir);
  return system(cmd) == 0 ? 0 : -1;
}

static void open_watch(bool polling)
{
  fbWatch_Open(&w, polling);
  if (!polling && !fbWatch_UsesInotify(&w)) {
    skip();  // no inotify here: the polling tests cover the fallback
  }
  assert_true(fbWatch_AddDir(&w, dir));
}

// Whether this file system gives read leases (what holds a file against writers while it is read).
static bool leases_work(void)
{
  int fd = open(in_dir("lease_probe"), O_RDONLY | O_CREAT, 0600);
  assert_true(fd >= 0);
  bool ok = fcntl(fd, F_SETSIG, SIGURG) == 0 && fcntl(fd, F_SETLEASE, F_RDLCK) == 0;
  close(fd);
  unlink(in_dir("lease_probe"));
  return ok;
}

// ---- a save is reported as soon as it is whole -----------------------------------------------------

static void test_a_close_after_writing_is_reported_at_once(void **state)
{
  (void)state;
  save("rule.lua", "-- before\n");
  open_watch(false);
  save("rule.lua", whole);
  int n = poll_at(1000);
  assert_int_equal(n, 1);
  assert_true(reported(n, "rule.lua"));
}

static void test_a_rename_into_place_is_reported_at_once(void **state)
{
  (void)state;
  save("rule.lua", "-- before\n");
  open_watch(false);
  save("rule.lua.tmp~", whole);
  assert_int_equal(rename(in_dir("rule.lua.tmp~"), in_dir("rule.lua")), 0);
  int n = poll_at(1000);
  assert_int_equal(n, 1);
  assert_true(reported(n, "rule.lua"));
}

static void test_a_burst_of_saves_is_reported_once(void **state)
{
  (void)state;
  open_watch(false);
  for (int k = 0; k < 5; ++k) {
    save("rule.lua", whole);
  }
  assert_int_equal(poll_at(1000), 1);
  assert_int_equal(poll_at(100000), 0);
}

// Loading a reported file opens and reads it: that is no save.
static void test_reading_a_file_is_no_save(void **state)
{
  (void)state;
  open_watch(false);
  save("rule.lua", whole);
  assert_int_equal(poll_at(1000), 1);
  char text[256];
  read_whole("rule.lua", text, sizeof text);
  assert_int_equal(poll_at(1001), 0);
  assert_int_equal(poll_at(100000), 0);
}

// An editor that deletes the file (or renames it to a backup) and writes a new one.
static void test_a_file_deleted_and_written_again_is_reported_at_once(void **state)
{
  (void)state;
  save("rule.lua", "-- before\n");
  open_watch(false);
  assert_int_equal(rename(in_dir("rule.lua"), in_dir("rule.lua~")), 0);
  save("rule.lua", whole);
  int n = poll_at(1000);
  assert_int_equal(n, 1);
  assert_true(reported(n, "rule.lua"));
}

// A deletion alone may be the first half of such a save: it waits for quiet.
static void test_a_deletion_waits_for_quiet(void **state)
{
  (void)state;
  save("rule.lua", whole);
  open_watch(false);
  unlink(in_dir("rule.lua"));
  assert_int_equal(poll_at(1000), 0);
  assert_int_equal(poll_at(1000 + w.quiet_ms - 1), 0);
  int n = poll_at(1000 + w.quiet_ms);
  assert_int_equal(n, 1);
  assert_true(reported(n, "rule.lua"));
}

// A link made into the folder has no close to wait for; nobody holds it open, so quiet reports it.
static void test_a_link_is_reported_once_quiet(void **state)
{
  (void)state;
  save("elsewhere.txt", whole);
  open_watch(false);
  assert_int_equal(link(in_dir("elsewhere.txt"), in_dir("rule.lua")), 0);
  assert_int_equal(poll_at(1000), 0);
  int n = poll_at(1000 + w.quiet_ms);
  assert_int_equal(n, 1);
  assert_true(reported(n, "rule.lua"));
}

// ---- a half-written file is never reported ---------------------------------------------------------

// Truncated, then written in two parts with a long pause between, closed only at the end: the
// half (on its own a syntax error) is never reported, however long the pause; the whole is, at the close.
static void write_in_two_parts_and_check(double later_ms)
{
  int fd = open(in_dir("rule.lua"), O_WRONLY);
  assert_true(fd >= 0);
  assert_int_equal(ftruncate(fd, 0), 0);
  size_t half = strlen(whole) / 2;
  assert_int_equal(write(fd, whole, half), (ssize_t)half);
  for (double t = 1000; t <= 1000 + later_ms; t += later_ms / 8) {
    assert_int_equal(poll_at(t), 0);
  }
  assert_int_equal(write(fd, whole + half, strlen(whole) - half), (ssize_t)(strlen(whole) - half));
  assert_int_equal(poll_at(2000 + later_ms), 0);  // whole, but not closed yet
  close(fd);
  int n = 0;
  for (double t = 2000 + later_ms; n == 0 && t <= 2000 + later_ms + w.quiet_ms + FB_WATCH_POLL_MS; t += 10) {
    n = poll_at(t);
  }
  assert_int_equal(n, 1);
  char text[256];
  read_whole("rule.lua", text, sizeof text);
  assert_string_equal(text, whole);
}

static void test_a_half_written_file_is_never_reported(void **state)
{
  (void)state;
  save("rule.lua", "-- before\n");
  open_watch(false);
  write_in_two_parts_and_check(60000);
}

// With no events to go by, polling relies on the hold: a file some process has open for writing
// is not reported. (Where the file system gives no leases, polling can only wait for quiet.)
static void test_polling_never_reports_a_file_still_open_for_writing(void **state)
{
  (void)state;
  if (!leases_work()) {
    skip();
  }
  save("rule.lua", "-- before\n");
  open_watch(true);
  poll_at(0);
  write_in_two_parts_and_check(60000);
}

// A file written through a descriptor opened before the watch began: its open was not counted,
// yet it is not reported while the writer has it open.
static void test_a_writer_older_than_the_watch_is_waited_for(void **state)
{
  (void)state;
  if (!leases_work()) {
    skip();
  }
  save("rule.lua", "-- before\n");
  int fd = open(in_dir("rule.lua"), O_WRONLY | O_TRUNC);
  assert_true(fd >= 0);
  open_watch(false);
  assert_int_equal(write(fd, whole, 10), 10);
  for (double t = 1000; t < 100000; t += 1000) {
    assert_int_equal(poll_at(t), 0);
  }
  assert_int_equal(write(fd, whole + 10, strlen(whole) - 10), (ssize_t)(strlen(whole) - 10));
  close(fd);
  assert_int_equal(poll_at(100000), 1);
}

// While a reported file is read, a process opening it for writing (the next save) waits: what is
// read is one whole version.
static void test_a_reported_file_is_held_against_writers(void **state)
{
  (void)state;
  if (!leases_work()) {
    skip();
  }
  open_watch(false);
  save("rule.lua", whole);
  assert_int_equal(fbWatch_Poll(&w, 1000, out, FB_WATCH_MAX_PENDING), 1);
  for (int held = 1; held >= 0; --held) {
    pid_t child = fork();
    if (child == 0) {  // a writer that will not wait: its open fails while the file is held
      int fd = open(in_dir("rule.lua"), O_WRONLY | O_NONBLOCK);
      _exit(fd >= 0 ? 0 : errno == EWOULDBLOCK ? 1 : 2);
    }
    int status;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_int_equal(WEXITSTATUS(status), held ? 1 : 0);
    fbWatch_Release(&w);
  }
}

// An editor's "save all": a helper closed while the rule is still being written is reported with
// the rule, once that is closed, so that they apply together.
static void test_files_saved_together_are_reported_together(void **state)
{
  (void)state;
  save("rule.lua", "-- before\n");
  open_watch(false);
  int fd = open(in_dir("rule.lua"), O_WRONLY | O_TRUNC);
  assert_int_equal(write(fd, whole, 10), 10);
  save("helper.lua", "return { pull = 2 }\n");
  assert_int_equal(poll_at(1000), 0);
  assert_int_equal(write(fd, whole + 10, strlen(whole) - 10), (ssize_t)(strlen(whole) - 10));
  close(fd);
  int n = poll_at(1001);
  assert_int_equal(n, 2);
  assert_true(reported(n, "rule.lua") && reported(n, "helper.lua"));
}

// ... but a file another program keeps open does not hold a whole one back for longer than quiet.
static void test_a_whole_file_is_held_back_at_most_for_quiet(void **state)
{
  (void)state;
  open_watch(false);
  int fd = open(in_dir("log.lua"), O_WRONLY | O_CREAT, 0600);
  assert_int_equal(write(fd, "--", 2), 2);
  save("rule.lua", whole);
  assert_int_equal(poll_at(1000), 0);
  int n = poll_at(1000 + w.quiet_ms);
  assert_int_equal(n, 1);
  assert_true(reported(n, "rule.lua"));
  close(fd);
}

// ---- folders ------------------------------------------------------------------------------------------

// A folder replaced whole (moved away, another put at its path) is watched again, and what differs
// in it is reported.
static void test_a_folder_replaced_whole_is_watched_again(void **state)
{
  (void)state;
  save("rule.lua", "-- before\n");
  open_watch(false);
  char old[80];
  snprintf(old, sizeof old, "%s.old", dir);
  assert_int_equal(rename(dir, old), 0);
  assert_int_equal(mkdir(dir, 0700), 0);
  save("rule.lua", whole);
  int n = 0;
  for (double t = 1000; n == 0 && t <= 1000 + w.quiet_ms + 2 * FB_WATCH_POLL_MS; t += 10) {
    n = poll_at(t);
  }
  assert_int_equal(n, 1);
  assert_true(reported(n, "rule.lua"));
  save("rule.lua", "-- after\n");  // and the new folder's saves are seen as any
  assert_true(reported(poll_at(5000), "rule.lua"));
}

// ---- polling ------------------------------------------------------------------------------------------

// Polling sees no closes: a change is reported once the file has stayed as it is for quiet_ms.
static void test_polling_reports_a_save_once_quiet(void **state)
{
  (void)state;
  save("rule.lua", "-- before\n");
  open_watch(true);
  assert_int_equal(poll_at(0), 0);
  save("rule.lua", whole);
  assert_int_equal(poll_at(FB_WATCH_POLL_MS), 0);  // seen changed
  assert_int_equal(poll_at(FB_WATCH_POLL_MS + w.quiet_ms - 1), 0);
  assert_true(reported(poll_at(FB_WATCH_POLL_MS + w.quiet_ms), "rule.lua"));
  assert_int_equal(poll_at(100000), 0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_a_close_after_writing_is_reported_at_once, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_rename_into_place_is_reported_at_once, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_burst_of_saves_is_reported_once, setup, teardown),
      cmocka_unit_test_setup_teardown(test_reading_a_file_is_no_save, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_file_deleted_and_written_again_is_reported_at_once, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_deletion_waits_for_quiet, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_link_is_reported_once_quiet, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_half_written_file_is_never_reported, setup, teardown),
      cmocka_unit_test_setup_teardown(test_polling_never_reports_a_file_still_open_for_writing, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_writer_older_than_the_watch_is_waited_for, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_reported_file_is_held_against_writers, setup, teardown),
      cmocka_unit_test_setup_teardown(test_files_saved_together_are_reported_together, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_whole_file_is_held_back_at_most_for_quiet, setup, teardown),
      cmocka_unit_test_setup_teardown(test_a_folder_replaced_whole_is_watched_again, setup, teardown),
      cmocka_unit_test_setup_teardown(test_polling_reports_a_save_once_quiet, setup, teardown),
  };
  return fb_run_tests(tests);
}
