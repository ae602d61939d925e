// test_trajectory.c — the trajectory CSV read field by field, and its statistics on cases known by hand (aligned, a mill, groups, shifted samples).
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fb.h"
#include "trajectory_stats.h"

static char path[64];

static const char *write_file(const char *text)
{
  snprintf(path, sizeof path, "/tmp/test_trajectory_%d.csv", (int)getpid());
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  return path;
}

static int teardown(void **state)
{
  (void)state;
  unlink(path);
  return 0;
}

// Ten agents moving the same way: polarisation 1, no milling.
static void test_aligned_agents_have_polarisation_one(void **state)
{
  (void)state;
  double x[10], y[10], vx[10], vy[10];
  for (int i = 0; i < 10; ++i) {
    x[i] = i * 3.0;
    y[i] = (i % 3) * 2.0;
    vx[i] = 0.6 * (1 + i);  // speeds differ, the direction does not
    vy[i] = 0.8 * (1 + i);
  }
  fbFrame f = {x, y, vx, vy, 10, false, 0, 0};
  fbFrameStats s;
  fbFrameStats_Compute(&f, 1.0, &s, NULL, NULL);
  assert_true(fabs(s.polarisation - 1.0) < 1e-12);
  assert_int_equal(s.agents, 10);
}

// Agents on a ring, each moving along its tangent: a mill, rotation 1 and polarisation 0; the
// same ring across a torus's seam (centre by the circular mean) too.
static void ring(double cx, double cy, bool wrap, fbFrameStats *s)
{
  enum { N = 24 };
  double x[N], y[N], vx[N], vy[N];
  for (int i = 0; i < N; ++i) {
    double a = 2 * FB_PI * i / N;
    x[i] = fmod(cx + 10 * cos(a) + 100, 100);
    y[i] = fmod(cy + 10 * sin(a) + 100, 100);
    vx[i] = -sin(a) * 2;
    vy[i] = cos(a) * 2;
  }
  fbFrame f = {x, y, vx, vy, N, wrap, 100, 100};
  fbFrameStats_Compute(&f, 1.0, s, NULL, NULL);
}

static void test_a_ring_has_rotation_one(void **state)
{
  (void)state;
  fbFrameStats s;
  ring(50, 50, false, &s);
  assert_true(fabs(s.rotation - 1.0) < 1e-12);
  assert_true(s.polarisation < 1e-12);
  assert_true(fabs(s.mean_nn - 2 * 10 * sin(FB_PI / 24)) < 1e-9);  // the chord between neighbours
  ring(2, 98, true, &s);
  assert_true(fabs(s.rotation - 1.0) < 1e-9);
}

// Two clusters of three, 50 apart, linked within 2: two groups of three; within 100: one of six.
static void test_groups_are_linked_clusters(void **state)
{
  (void)state;
  double x[] = {0, 1, 2, 50, 51, 52}, y[6] = {0}, vx[6] = {1, 1, 1, 1, 1, 1}, vy[6] = {0};
  fbFrame f = {x, y, vx, vy, 6, false, 0, 0};
  fbFrameStats s;
  fbFrameStats_Compute(&f, 2.0, &s, NULL, NULL);
  assert_int_equal(s.groups, 2);
  assert_int_equal(s.largest_group, 3);
  fbFrameStats_Compute(&f, 100.0, &s, NULL, NULL);
  assert_int_equal(s.groups, 1);
  assert_int_equal(s.largest_group, 6);
}

// W1 between a sample and the same shifted by c is c; between different sizes the area of the CDFs.
static void test_wasserstein_of_shifted_samples_is_the_shift(void **state)
{
  (void)state;
  double a[] = {0.5, 1, 2, 3.5, 7}, b[5];
  for (int i = 0; i < 5; ++i) {
    b[i] = a[i] + 0.75;
  }
  assert_true(fabs(fbStats_Wasserstein1(a, 5, b, 5) - 0.75) < 1e-12);
  assert_true(fabs(fbStats_Wasserstein1(b, 5, a, 5) - 0.75) < 1e-12);
  assert_true(fbStats_Wasserstein1(a, 5, a, 5) == 0.0);
  double c[] = {0, 1}, d[] = {0.5};  // F_c - F_d: 1/2 on [0, 0.5), then -1/2 on [0.5, 1)
  assert_true(fabs(fbStats_Wasserstein1(c, 2, d, 1) - 0.5) < 1e-12);
  assert_true(isnan(fbStats_Wasserstein1(a, 5, d, 0)));
  double q[] = {1, 2, 3, 4};
  assert_true(fabs(fbStats_Quantile(q, 4, 0.5) - 2.5) < 1e-12);
}

// A file read back: header words, frames, groups, velocities by differences when absent.
static void test_a_file_is_read_by_frames(void **state)
{
  (void)state;
  const char *p = write_file("# flockbox trajectories: fps=2 unit=m world=10,20 wrap=0\n"
                             "id,t,x,y,group,note\n"
                             "1,0,0,0,a,x\n2,0,5,5,b,y\n"
                             "2,0.5,5,6,b,z\n1,0.5,1,0,a,w\n");
  fbTrajectories tr;
  char err[512];
  assert_true(fbTrajectories_Read(&tr, p, err, sizeof err));
  assert_int_equal(tr.rows, 4);
  assert_int_equal(tr.frames, 2);
  assert_true(tr.fps == 2 && strcmp(tr.unit, "m") == 0 && tr.world_w == 10 && tr.world_h == 20 && !tr.wrap);
  assert_int_equal(tr.group_count, 2);
  assert_string_equal(tr.groups[tr.group[1]], "b");
  assert_false(tr.has_velocity);
  assert_true(tr.vx[0] == 2.0 && tr.vy[0] == 0.0);  // agent 1: (1 - 0) / 0.5, forward
  assert_true(tr.vx[3] == 2.0);                      // and backward in the last frame
  assert_true(tr.vy[1] == 2.0 && tr.vy[2] == 2.0);   // agent 2
  fbTrajectories_Free(&tr);
}

// Each bad field is one message with the file, the line and the column.
static void test_bad_fields_are_named(void **state)
{
  (void)state;
  static const struct {
    const char *text, *message;
  } cases[] = {
      {"t,id,x,y\n0,1,2,abc\n", ":2: column 4 (y): expected a number, got 'abc'"},
      {"t,id,x,y\n0,1.5,2,3\n", ":2: column 2 (id): expected a whole number, got '1.5'"},
      {"t,id,x\n0,1,2\n", ":1: the header names no column 'y'"},
      {"# fps=fast\nt,id,x,y\n", ":1: fps: expected a positive number, got 'fast'"},
      {"t,id,x,y\n1,1,0,0\n0,2,0,0\n", ":3: column 1 (t): time goes back"},
      {"t,id,x,y\n0,1,0,0\n0,1,1,1\n", "id 1 appears twice in the frame at t = 0"},
      {"t,id,x,y,vx\n", "vx and vy come together"},
      {"t,id,x,y\n0,1\n", ":2: expected a field for column 'x'"},
      {"", "no header row"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    const char *p = write_file(cases[k].text);
    fbTrajectories tr;
    char err[512] = "";
    assert_false(fbTrajectories_Read(&tr, p, err, sizeof err));
    if (strstr(err, cases[k].message) == NULL || strncmp(err, p, strlen(p)) != 0) {
      fail_msg("case %zu: got \"%s\", expected \"%s\"", k, err, cases[k].message);
    }
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_aligned_agents_have_polarisation_one),
      cmocka_unit_test(test_a_ring_has_rotation_one),
      cmocka_unit_test(test_groups_are_linked_clusters),
      cmocka_unit_test(test_wasserstein_of_shifted_samples_is_the_shift),
      cmocka_unit_test_teardown(test_a_file_is_read_by_frames, teardown),
      cmocka_unit_test_teardown(test_bad_fields_are_named, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
