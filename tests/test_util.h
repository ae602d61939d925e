// test_util.h — helpers shared by the cmocka tests (include after <cmocka.h>).
#ifndef FB_TEST_UTIL_H
#define FB_TEST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

// cmocka 1.1 compares floats only in float precision: doubles get their own check.
#define assert_near(got, want, eps)                                                        \
  do {                                                                                     \
    double got_ = (got), want_ = (want);                                                   \
    if (!(fabs(got_ - want_) <= (eps))) {                                                  \
      fail_msg("%s = %.17g, expected %.17g within %g", #got, got_, want_, (double)(eps)); \
    }                                                                                      \
  } while (0)

// Runs a group of tests; FB_TEST_FILTER=pattern (cmocka's * and ?) runs only the matching ones,
// for chasing one failure under a debugger or a sanitizer.
#define fb_run_tests(tests)                                  \
  (getenv("FB_TEST_FILTER") != NULL ? cmocka_set_test_filter(getenv("FB_TEST_FILTER")) : (void)0, \
   cmocka_run_group_tests(tests, NULL, NULL))

// A path for a scratch file `name` in a folder of this test process's own under $TMPDIR (or /tmp),
// made on first use and removed with its files at exit: a test never writes into the source tree,
// so any build folder (`cmake -B out`) and two builds testing at once both work.
static char fbTest_scratch_dir_[256];

static void fbTest_RemoveScratch_(void)
{
  char command[300];
  snprintf(command, sizeof command, "rm -rf '%s'", fbTest_scratch_dir_);
  if (system(command) != 0) {
    fprintf(stderr, "test: could not remove %s\n", fbTest_scratch_dir_);
  }
}

static inline const char *fbTest_ScratchPath(const char *name)
{
  static char path[512];
  if (fbTest_scratch_dir_[0] == 0) {
    const char *tmp = getenv("TMPDIR");
    snprintf(fbTest_scratch_dir_, sizeof fbTest_scratch_dir_, "%s/flockbox_test_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (mkdtemp(fbTest_scratch_dir_) == NULL) {
      perror("test: mkdtemp");
      abort();
    }
    atexit(fbTest_RemoveScratch_);
  }
  snprintf(path, sizeof path, "%s/%s", fbTest_scratch_dir_, name);
  return path;
}

#endif
