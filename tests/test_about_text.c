// test_about_text.c — the About tab's path from the working directory (or ~) and its "Try:" lines naming the binary as it was run.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "about_text.h"

static void shown(const char *path, const char *cwd, const char *home, const char *expected)
{
  char out[256];
  fbAbout_ShownPath(path, cwd, home, out, sizeof out);
  assert_string_equal(out, expected);
}

static void test_path_under_the_working_directory_is_relative(void **state)
{
  (void)state;
  shown("/home/ann/flockbox/scripts/couzin.lua", "/home/ann/flockbox", "/home/ann", "scripts/couzin.lua");
  shown("/home/ann/flockbox/scripts/couzin.lua", "/home/ann/flockbox/", "/home/ann", "scripts/couzin.lua");
  shown("/srv/x.lua", "/", NULL, "srv/x.lua");
}

static void test_path_elsewhere_under_home_gets_a_tilde(void **state)
{
  (void)state;
  shown("/home/ann/flocks/mine.lua", "/home/ann/flockbox", "/home/ann", "~/flocks/mine.lua");
  shown("/home/anna/mine.lua", "/tmp", "/home/ann", "/home/anna/mine.lua");  // not ann's home
  shown("/home/anna/mine.lua", "/home/ann", "/home/ann", "/home/anna/mine.lua");
  shown("/opt/mine.lua", "/tmp", "/", "/opt/mine.lua");  // a home of / says nothing
}

static void test_path_otherwise_unchanged(void **state)
{
  (void)state;
  shown("/opt/mine.lua", "/tmp", "/home/ann", "/opt/mine.lua");
  shown("scripts/x.lua", "/tmp", "/home/ann", "scripts/x.lua");  // already relative
  shown("/opt/mine.lua", NULL, NULL, "/opt/mine.lua");
  shown("", "/tmp", "/home/ann", "");                             // a world built in C
}

static void named(const char *line, const char *program, const char *expected)
{
  char out[256];
  fbAbout_NameProgram(line, program, out, sizeof out);
  assert_string_equal(out, expected);
}

static void test_try_lines_name_the_program_as_run(void **state)
{
  (void)state;
  named("Try: flockbox --headless scripts/couzin.lua", "build/flockbox", "Try: build/flockbox --headless scripts/couzin.lua");
  named("Try: flockbox --headless scripts/couzin.lua", "flockbox", "Try: flockbox --headless scripts/couzin.lua");
  named("Try: flockbox --headless scripts/couzin.lua", NULL, "Try: flockbox --headless scripts/couzin.lua");
  named("Try: flockboxes are fun", "build/flockbox", "Try: flockboxes are fun");
  named("flockbox integrates the drag exactly", "build/flockbox", "flockbox integrates the drag exactly");
  named("Sweep: flockbox sweep experiments/couzin_phases.lua (P and M)", "./flockbox",
        "Sweep: ./flockbox sweep experiments/couzin_phases.lua (P and M)");
  named("Try: flockbox", "build/flockbox", "Try: build/flockbox");
  named("Note: the flockbox way", "build/flockbox", "Note: the flockbox way");
  named("", "build/flockbox", "");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_path_under_the_working_directory_is_relative),
      cmocka_unit_test(test_path_elsewhere_under_home_gets_a_tilde),
      cmocka_unit_test(test_path_otherwise_unchanged),
      cmocka_unit_test(test_try_lines_name_the_program_as_run),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
