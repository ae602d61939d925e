// rule_test.c — flockbox test PATH...: finding *_test.lua files, running each with the harness, the exit status.
#include "rule_test.h"

#include <dirent.h>
#include <lauxlib.h>
#include <limits.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "paths.h"
#include "test_world.h"

#define MAX_TEST_FILES 1024
#define TEST_CPU_SECONDS 120.0  // CPU time one test file may use (its worlds' steps included)

typedef struct TestFiles {
  char *paths[MAX_TEST_FILES];
  int count;
  bool overflow;
} TestFiles;

static bool is_test_file(const char *name)
{
  size_t n = strlen(name);
  return n > 9 && strcmp(name + n - 9, "_test.lua") == 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void add_file(TestFiles *files, const char *path)
{
  if (files->count == MAX_TEST_FILES) {
    files->overflow = true;
    return;
  }
  files->paths[files->count++] = strdup(path);
}

// A folder's *_test.lua files and those of its sub-folders (hidden ones and build folders skipped),
// each folder's in name order, so the output reads the same on every machine.
static void collect(TestFiles *files, const char *folder, int depth)
{
  DIR *dir = depth < 8 ? opendir(folder) : NULL;
  if (dir == NULL) {
    return;
  }
  int first = files->count;
  char *subs[256];
  int sub_count = 0;
  struct dirent *e;
  while ((e = readdir(dir)) != NULL) {
    if (e->d_name[0] == '.' || strncmp(e->d_name, "build", 5) == 0) {
      continue;
    }
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
    struct stat st;
    if (stat(path, &st) != 0) {
      continue;
    }
    if (S_ISDIR(st.st_mode) && sub_count < 256) {
      subs[sub_count++] = strdup(path);
    } else if (S_ISREG(st.st_mode) && is_test_file(e->d_name)) {
      add_file(files, path);
    }
  }
  closedir(dir);
  qsort(files->paths + first, (size_t)(files->count - first), sizeof(char *), by_name);
  qsort(subs, (size_t)sub_count, sizeof(char *), by_name);
  for (int k = 0; k < sub_count; ++k) {
    collect(files, subs[k], depth + 1);
    free(subs[k]);
  }
}

// ---- one file ---------------------------------------------------------------------------------------

/*
 * A test that loops must not hang a CI job, and the limit must not depend on how busy the machine
 * is: a count hook reads this thread's CPU time every 10 000 instructions and raises an error past
 * TEST_CPU_SECONDS. The worlds a test steps run on this thread (one worker), so their time counts.
 */
static double thread_cpu_seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_deadline;

static void cpu_limit_hook(lua_State *L, lua_Debug *ar)
{
  (void)ar;
  if (thread_cpu_seconds() > cpu_deadline) {
    luaL_error(L, "the test file used more than %.0f s of CPU time", TEST_CPU_SECONDS);
  }
}

static int traceback(lua_State *L)
{
  const char *msg = lua_tostring(L, 1);
  luaL_traceback(L, L, msg ? msg : "(an error that is not a string)", 1);
  return 1;
}

// The folder of the harness (lib/ in the data folder), put first on package.path.
static void set_package_path(lua_State *L)
{
  char harness[PATH_MAX], lib[PATH_MAX + 16];
  fbFilePath_DataFile("lib/flockbox/test.lua", harness, sizeof harness);
  char *cut = strstr(harness, "/flockbox/test.lua");
  if (cut != NULL) {
    *cut = '\0';
  }
  snprintf(lib, sizeof lib, "%s/?.lua;", harness);
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "path");
  lua_pushstring(L, lib);
  lua_insert(L, -2);
  lua_concat(L, 2);
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, fbTestWorld_OpenCore);
  lua_setfield(L, -2, "flockbox.core");
  lua_pop(L, 1);
}

typedef struct FileResult {
  int passed, failed;
  bool bad;  // did not load, or the harness could not run it
} FileResult;

// Runs one test file: loads and runs its chunk (which declares its tests), then the harness runs
// them, printing a line each. Errors before the tests run make the file bad (exit status 2).
static FileResult run_file(const char *path)
{
  FileResult r = {0, 0, false};
  lua_State *L = luaL_newstate();
  if (L == NULL) {
    fprintf(stderr, "flockbox: test: out of memory\n");
    r.bad = true;
    return r;
  }
  luaL_openlibs(L);
  set_package_path(L);
  cpu_deadline = thread_cpu_seconds() + TEST_CPU_SECONDS;
  lua_sethook(L, cpu_limit_hook, LUA_MASKCOUNT, 10000);
  lua_pushcfunction(L, traceback);
  int handler = lua_gettop(L);
  // harness = require("flockbox.test"); harness.begin(path)
  lua_getglobal(L, "require");
  lua_pushstring(L, "flockbox.test");
  if (lua_pcall(L, 1, 1, handler) != LUA_OK) {
    fprintf(stderr, "flockbox: test: the harness flockbox.test does not load: %s\n", lua_tostring(L, -1));
    r.bad = true;
    lua_close(L);
    return r;
  }
  int harness = lua_gettop(L);
  lua_getfield(L, harness, "begin");
  lua_pushstring(L, path);
  lua_call(L, 1, 0);
  if (luaL_loadfile(L, path) != LUA_OK || lua_pcall(L, 0, 0, handler) != LUA_OK) {
    printf("BAD  %s: does not load: %s\n", path, lua_tostring(L, -1));
    r.bad = true;
    lua_close(L);
    return r;
  }
  lua_getfield(L, harness, "run");
  if (lua_pcall(L, 0, 2, handler) != LUA_OK) {
    printf("BAD  %s: the harness failed: %s\n", path, lua_tostring(L, -1));
    r.bad = true;
  } else {
    r.passed = (int)lua_tointeger(L, -2);
    r.failed = (int)lua_tointeger(L, -1);
  }
  lua_close(L);
  return r;
}

static void print_usage(FILE *out)
{
  fputs("usage: flockbox test PATH...\n"
        "Runs rule tests: each PATH is a *_test.lua file or a folder searched (with its sub-folders)\n"
        "for them. A test file says local t = require(\"flockbox.test\") and declares tests with\n"
        "t.test(name, function() ... end); see docs/writing-rules.md, \"Testing your rules\".\n"
        "Exit status: 0 when every test passed, 1 when one failed, 2 on bad input (no such path, no\n"
        "test files, a file that does not load).\n",
        out);
}

int fbRuleTest_Main(int argc, char **argv)
{
  if (argc < 2) {
    print_usage(stderr);
    return 2;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    print_usage(stdout);
    return 0;
  }
  TestFiles files = {.count = 0};
  for (int k = 1; k < argc; ++k) {
    struct stat st;
    if (stat(argv[k], &st) != 0) {
      fprintf(stderr, "flockbox: test: %s: no such file or folder\n", argv[k]);
      return 2;
    }
    if (S_ISDIR(st.st_mode)) {
      size_t n = strlen(argv[k]);
      char folder[PATH_MAX];
      snprintf(folder, sizeof folder, "%.*s", (int)(n > 1 && argv[k][n - 1] == '/' ? n - 1 : n), argv[k]);
      collect(&files, folder, 0);
    } else {
      add_file(&files, argv[k]);
    }
  }
  if (files.count == 0) {
    fprintf(stderr, "flockbox: test: no *_test.lua files in %s%s\n", argv[1], argc > 2 ? " ..." : "");
    return 2;
  }
  if (files.overflow) {
    fprintf(stderr, "flockbox: test: more than %d test files; only the first are run\n", MAX_TEST_FILES);
  }
  int passed = 0, failed = 0, bad = 0;
  for (int k = 0; k < files.count; ++k) {
    FileResult r = run_file(files.paths[k]);
    passed += r.passed;
    failed += r.failed;
    bad += r.bad;
    free(files.paths[k]);
  }
  printf("%d passed, %d failed", passed, failed);
  if (bad > 0) {
    printf(", %d file%s did not load", bad, bad == 1 ? "" : "s");
  }
  printf(" (%d file%s)\n", files.count, files.count == 1 ? "" : "s");
  return bad > 0 ? 2 : failed > 0 ? 1 : 0;
}
