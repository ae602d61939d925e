// test_util.h — helpers shared by the cmocka tests (include after <cmocka.h>).
#ifndef FB_TEST_UTIL_H
#define FB_TEST_UTIL_H

#include <math.h>
#include <stdlib.h>

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

#endif
