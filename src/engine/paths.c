// paths.c — finding the files a scenario names (terrains, rule modules, rule folders).
#define _XOPEN_SOURCE 700
#include "paths.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool fbPath_IsFile(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

// A regular file or a folder: what a scenario may name.
static bool exists(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
}

// Shortens a found path for messages: relative to the working directory when it lies below it
// ("behaviours/cohesion.lua:12:" rather than "scripts/../behaviours/cohesion.lua:12:").
static void tidy_path(char *path, size_t len)
{
  char real[PATH_MAX], cwd[PATH_MAX];
  if (realpath(path, real) == NULL || getcwd(cwd, sizeof cwd) == NULL) {
    return;
  }
  size_t n = strlen(cwd);
  if (strncmp(real, cwd, n) == 0 && real[n] == '/') {
    snprintf(path, len, "%.*s", (int)len - 1, real + n + 1);
  } else if (strstr(path, "/../") != NULL) {
    snprintf(path, len, "%.*s", (int)len - 1, real);
  }
}

void fbPath_Resolve(const char *scenario, const char *rel, char *out, size_t len)
{
  if (rel[0] == '/') {
    snprintf(out, len, "%s", rel);
    return;
  }
  const char *slash = strrchr(scenario, '/');
  int dir = slash ? (int)(slash - scenario) : 0;
  snprintf(out, len, "%.*s%s../%s", dir, scenario, dir ? "/" : "", rel);
  if (scenario[0] != '\0' && exists(out)) {
    tidy_path(out, len);
    return;
  }
  snprintf(out, len, "%s", rel);
  if (exists(out)) {
    return;
  }
  snprintf(out, len, "%s/%s", FB_SOURCE_DIR, rel);
  if (!exists(out)) {
    snprintf(out, len, "%s", rel);
  }
}

void fbPath_ResolveRule(const char (*dirs)[512], int dir_count, const char *scenario_path, const char *name, char *out,
                        size_t len)
{
  char module[FB_NAME_LEN];  // a copy: out and name may be the same buffer
  snprintf(module, sizeof module, "%s", name);
  for (int d = 0; d < dir_count; ++d) {
    snprintf(out, len, "%s/%s.lua", dirs[d], module);
    if (fbPath_IsFile(out)) {
      return;
    }
  }
  char rel[128];
  snprintf(rel, sizeof rel, "behaviours/%s.lua", module);
  fbPath_Resolve(scenario_path, rel, out, len);
}

