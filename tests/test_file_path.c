// test_file_path.c — paths.c's doors to files: read only regular files of a bounded size, write only where nothing or a regular file is.
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paths.h"

static char folder[64], fifo[128], sub[128], null_link[128], dangling[128], file[128], fresh[128];

static int setup(void **state)
{
  (void)state;
  snprintf(folder, sizeof folder, "/tmp/flockbox_test_file_path_XXXXXX");
  assert_non_null(mkdtemp(folder));
  snprintf(fifo, sizeof fifo, "%s/fifo", folder);
  snprintf(sub, sizeof sub, "%s/folder", folder);
  snprintf(null_link, sizeof null_link, "%s/null", folder);
  snprintf(dangling, sizeof dangling, "%s/dangling", folder);
  snprintf(file, sizeof file, "%s/file", folder);
  snprintf(fresh, sizeof fresh, "%s/fresh", folder);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  assert_int_equal(mkdir(sub, 0700), 0);
  assert_int_equal(symlink("/dev/null", null_link), 0);
  assert_int_equal(symlink("nowhere", dangling), 0);
  FILE *f = fopen(file, "w");
  fputs("old text\n", f);
  fclose(f);
  return 0;
}

static int teardown(void **state)
{
  (void)state;
  const char *made[] = {fifo, null_link, dangling, file, fresh};
  for (size_t k = 0; k < sizeof made / sizeof made[0]; ++k) {
    unlink(made[k]);  // a link itself, never its target
  }
  rmdir(sub);
  rmdir(folder);
  return 0;
}

static void test_outputs_go_only_where_a_file_may_be(void **state)
{
  (void)state;
  char why[256];
  assert_true(fbFilePath_CheckOutput(file, why, sizeof why));
  assert_true(fbFilePath_CheckOutput(fresh, why, sizeof why));
  assert_true(fbFilePath_CheckOutput(dangling, why, sizeof why));  // writing makes its target, a file
  const struct {
    const char *path, *kind;
  } refused[] = {{fifo, "a FIFO"}, {sub, "a folder"}, {null_link, "a device"}, {"/dev/zero", "a device"}};
  for (size_t k = 0; k < sizeof refused / sizeof refused[0]; ++k) {
    why[0] = '\0';
    assert_false(fbFilePath_CheckOutput(refused[k].path, why, sizeof why));
    char want[64];
    snprintf(want, sizeof want, "not a regular file (%s)", refused[k].kind);
    assert_string_equal(why, want);
    assert_null(fbFilePath_OpenOutput(refused[k].path, "w", why, sizeof why));  // never blocks on the FIFO
  }
  struct stat st;
  assert_true(stat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
  assert_true(lstat(null_link, &st) == 0 && S_ISLNK(st.st_mode));
}

static void test_open_output_empties_or_appends(void **state)
{
  (void)state;
  char why[256], text[64] = "";
  FILE *f = fbFilePath_OpenOutput(file, "a", why, sizeof why);
  assert_non_null(f);
  fputs("more\n", f);
  fclose(f);
  f = fopen(file, "r");
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  assert_string_equal(text, "old text\nmore\n");
  f = fbFilePath_OpenOutput(file, "w", why, sizeof why);
  assert_non_null(f);
  fputs("new\n", f);
  fclose(f);
  f = fopen(file, "r");
  n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  assert_string_equal(text, "new\n");
  f = fbFilePath_OpenOutput(fresh, "w", why, sizeof why);
  assert_non_null(f);
  fclose(f);
}

static void test_inputs_are_regular_files_of_a_bounded_size(void **state)
{
  (void)state;
  char why[256];
  long size = -1;
  FILE *f = fbFilePath_OpenRegular(file, 1024, &size, why, sizeof why);
  assert_non_null(f);
  fclose(f);
  assert_true(size > 0);
  const char *refused[] = {fifo, sub, null_link, "/dev/zero"};
  for (size_t k = 0; k < sizeof refused / sizeof refused[0]; ++k) {
    assert_null(fbFilePath_OpenRegular(refused[k], 1024, NULL, why, sizeof why));
    assert_string_equal(why, "not a regular file");
  }
  assert_null(fbFilePath_OpenRegular(file, 2, NULL, why, sizeof why));
  assert_string_equal(why, "file is too large (over 2 bytes)");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_outputs_go_only_where_a_file_may_be),
      cmocka_unit_test(test_open_output_empties_or_appends),
      cmocka_unit_test(test_inputs_are_regular_files_of_a_bounded_size),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
