// fuzz_util.c — the fuzz targets' scratch folder, input files, run options and invariant checks.
#define _POSIX_C_SOURCE 200809L
#include "fuzz_util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char scratch[PATH_MAX];  // the folder; "" until made

// What the scratch folder holds besides files: removed in this order, links before folders.
static const char *const links[] = {"behaviours", "terrains"};
static const char *const folders[] = {"scripts", "rules"};

// The files handed out by fuzz_ScratchPath, so that cleaning up removes exactly those and never
// walks into the linked repo folders.
#define MAX_FILES 16
static char files[MAX_FILES][PATH_MAX];
static int file_count;

static void join(char *out, const char *name)
{
  int n = snprintf(out, PATH_MAX, "%s/%s", scratch, name);
  if (n < 0 || n >= PATH_MAX) {
    fprintf(stderr, "fuzz: scratch path too long: %s/%s\n", scratch, name);
    abort();
  }
}

static void remove_scratch(void)
{
  char path[PATH_MAX];
  for (int k = 0; k < file_count; ++k) {
    unlink(files[k]);
  }
  for (size_t k = 0; k < sizeof links / sizeof links[0]; ++k) {
    join(path, links[k]);
    unlink(path);  // the link itself: unlink never follows it
  }
  for (size_t k = 0; k < sizeof folders / sizeof folders[0]; ++k) {
    join(path, folders[k]);
    rmdir(path);
  }
  rmdir(scratch);
}

/*
 * $TMPDIR if set, else /dev/shm where there is one, else /tmp. Every input rewrites a file, and on
 * ext4 rewriting a file through truncation makes the close wait for the data to reach the disk
 * (auto_da_alloc): 130 executions a second in /tmp against thousands in memory (tmpfs).
 */
static const char *scratch_parent(void)
{
  const char *tmp = getenv("TMPDIR");
  struct stat st;
  if (tmp != NULL && tmp[0] != '\0') {
    return tmp;
  }
  return stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
}

static void make_scratch(void)
{
  snprintf(scratch, sizeof scratch, "%s/flockbox_fuzz_XXXXXX", scratch_parent());
  if (mkdtemp(scratch) == NULL) {
    perror("fuzz: cannot make a scratch folder");
    abort();
  }
  atexit(remove_scratch);
  char path[PATH_MAX], target[PATH_MAX];
  for (size_t k = 0; k < sizeof folders / sizeof folders[0]; ++k) {
    join(path, folders[k]);
    if (mkdir(path, 0700) != 0) {
      perror("fuzz: cannot make a scratch folder");
      abort();
    }
  }
  for (size_t k = 0; k < sizeof links / sizeof links[0]; ++k) {
    join(path, links[k]);
    snprintf(target, sizeof target, "%s/%s", FB_SOURCE_DIR, links[k]);
    if (symlink(target, path) != 0) {
      perror("fuzz: cannot link the repo's folders into the scratch folder");
      abort();
    }
  }
}

const char *fuzz_ScratchPath(const char *name)
{
  if (scratch[0] == '\0') {
    make_scratch();
  }
  static char path[PATH_MAX];
  join(path, name);
  bool known = false;
  for (int k = 0; k < file_count && !known; ++k) {
    known = strcmp(files[k], path) == 0;
  }
  if (!known) {
    if (file_count == MAX_FILES) {
      fprintf(stderr, "fuzz: more than %d scratch files\n", MAX_FILES);
      abort();
    }
    snprintf(files[file_count++], PATH_MAX, "%s", path);
  }
  return path;
}

void fuzz_WriteFile(const char *path, const char *prefix, const uint8_t *data, size_t size, const char *suffix)
{
  FILE *f = fopen(path, "wb");
  bool ok = f != NULL && fputs(prefix, f) >= 0 && (size == 0 || fwrite(data, 1, size, f) == size) && fputs(suffix, f) >= 0;
  if (f == NULL || fclose(f) != 0 || !ok) {
    perror(path);
    abort();
  }
}

void fuzz_RunOptions(fbRunOptions *o)
{
  fbRunOptions_Default(o);
  o->threads = 1;
  o->lua_memory = (size_t)64 << 20;
  o->lua_timeout_ms = 200;
  o->headless = true;
}

void fuzz_CheckAgentsFinite(const fbSim *sim, const char *when)
{
  const fbAgents *a = &sim->world.agents;
  for (int i = 0; i < a->count; ++i) {
    if (a->active[i] && !(isfinite(a->px[i]) && isfinite(a->py[i]) && isfinite(a->vx[i]) && isfinite(a->vy[i]))) {
      fprintf(stderr, "fuzz: %s: agent %u (species %d) at (%g, %g) moving (%g, %g): not finite\n", when, a->id[i],
              a->species[i], a->px[i], a->py[i], a->vx[i], a->vy[i]);
      abort();
    }
  }
}

void fuzz_CheckMessage(const char *err, const char *what)
{
  if (err[0] == '\0') {
    fprintf(stderr, "fuzz: %s failed without a message\n", what);
    abort();
  }
}
