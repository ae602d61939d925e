// test_util.h — helpers shared by the cmocka tests (include after <cmocka.h>).
#ifndef FB_TEST_UTIL_H
#define FB_TEST_UTIL_H

#include <math.h>

// cmocka 1.1 compares floats only in float precision: doubles get their own check.
#define assert_near(got, want, eps)                                                        \
  do {                                                                                     \
    double got_ = (got), want_ = (want);                                                   \
    if (!(fabs(got_ - want_) <= (eps))) {                                                  \
      fail_msg("%s = %.17g, expected %.17g within %g", #got, got_, want_, (double)(eps)); \
    }                                                                                      \
  } while (0)

#endif
