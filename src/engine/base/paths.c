// paths.c — finding the files a scenario names (terrains, rule modules, rule folders).
#define _XOPEN_SOURCE 700
#include "paths.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "closest_name.h"

bool fbFilePath_IsFile(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool fbFilePath_Exists(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0;
}

// Keeps fd if it was opened on a regular file (its size in *bytes); else closes it, with why.
static bool regular_or_close(int fd, off_t *bytes, char *why, size_t len)
{
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    snprintf(why, len, "not a regular file");
    close(fd);
    return false;
  }
  *bytes = st.st_size;
  return true;
}

// fd, opened with O_NONBLOCK (so that a FIFO never made the open wait), as a blocking stream;
// closed on failure, with why.
static FILE *stream_of(int fd, const char *mode, char *why, size_t len)
{
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  FILE *f = fdopen(fd, mode);
  if (f == NULL) {
    snprintf(why, len, "%s", strerror(errno));
    close(fd);
  }
  return f;
}

FILE *fbFilePath_OpenRegular(const char *path, long max_bytes, long *size, char *why, size_t len)
{
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);  // O_NONBLOCK: a FIFO opens at once
  if (fd < 0) {
    snprintf(why, len, "%s", strerror(errno));
    return NULL;
  }
  off_t bytes;
  if (!regular_or_close(fd, &bytes, why, len)) {
    return NULL;
  }
  if (bytes > max_bytes) {
    if (max_bytes % (1024 * 1024) == 0) {
      snprintf(why, len, "file is too large (over %ld MiB)", max_bytes / (1024 * 1024));
    } else {
      snprintf(why, len, "file is too large (over %ld bytes)", max_bytes);
    }
    close(fd);
    return NULL;
  }
  FILE *f = stream_of(fd, "rb", why, len);
  if (f != NULL && size != NULL) {
    *size = (long)bytes;
  }
  return f;
}

// What is at a path that is not a regular file, for messages.
static const char *kind_of(mode_t mode)
{
  return S_ISDIR(mode) ? "a folder" : S_ISFIFO(mode) ? "a FIFO" : S_ISSOCK(mode) ? "a socket"
         : S_ISCHR(mode) || S_ISBLK(mode) ? "a device" : "not a file";
}

bool fbFilePath_CheckOutput(const char *path, char *why, size_t len)
{
  struct stat st;
  if (stat(path, &st) != 0) {  // follows links: a link to /dev/null is a device
    return true;  // nothing there, or a dangling link (writing creates a file), or a folder we may not
                  // enter: the open then says why, as any output that cannot be written
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(why, len, "not a regular file (%s)", kind_of(st.st_mode));
    return false;
  }
  return true;
}

FILE *fbFilePath_OpenOutput(const char *path, const char *mode, char *why, size_t len)
{
  if (!fbFilePath_CheckOutput(path, why, len)) {
    return NULL;
  }
  bool append = mode[0] == 'a';
  // O_NONBLOCK: a FIFO made there since the check fails to open or opens at once, never waits;
  // no O_TRUNC until fstat says it is a regular file.
  int fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (append ? O_APPEND : 0), 0644);
  if (fd < 0) {
    snprintf(why, len, "%s", strerror(errno));
    return NULL;
  }
  off_t bytes;
  if (!regular_or_close(fd, &bytes, why, len)) {
    return NULL;
  }
  if (!append && ftruncate(fd, 0) != 0) {
    snprintf(why, len, "%s", strerror(errno));
    close(fd);
    return NULL;
  }
  return stream_of(fd, append ? "a" : "w", why, len);
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

/*
 * The shipped files (behaviours/, behaviours/lib/steering.lua, terrains/) are looked for last in a
 * data folder: the one the program set with fbSetDataFolder, else the source tree the library was
 * built from (a build folder's tests and the program run from it), else the installed
 * <prefix>/share/flockbox (an installed library whose source tree is gone). A folder the program
 * set is the only one: an embedder who names a folder never gets files from elsewhere.
 */
static char data_folder[PATH_MAX];

void fbSetDataFolder(const char *folder) { snprintf(data_folder, sizeof data_folder, "%s", folder ? folder : ""); }

static int data_folders(const char *out[2])
{
  if (data_folder[0] != '\0') {
    out[0] = data_folder;
    return 1;
  }
  int n = 0;
#ifdef FB_SOURCE_DIR
  out[n++] = FB_SOURCE_DIR;
#endif
#ifdef FB_DATA_DIR
  out[n++] = FB_DATA_DIR;
#endif
  return n;
}

int fbFilePath_Candidates(const char *scenario, const char *rel, char out[][PATH_MAX], int max)
{
  int n = 0;
  if (rel[0] == '/') {
    snprintf(out[n++], PATH_MAX, "%s", rel);
    return n;
  }
  const char *slash = strrchr(scenario, '/');
  int dir = slash ? (int)(slash - scenario) : 0;
  if (scenario[0] != '\0' && n < max) {  // in the scenario's own folder
    snprintf(out[n++], PATH_MAX, "%.*s%s%s", dir, scenario, dir ? "/" : "", rel);
  }
  if (scenario[0] != '\0' && n < max) {  // beside it: the project folder of scripts/x.lua
    snprintf(out[n++], PATH_MAX, "%.*s%s../%s", dir, scenario, dir ? "/" : "", rel);
  }
  if (n < max) {  // as given: from the working directory
    snprintf(out[n++], PATH_MAX, "%s", rel);
  }
  const char *data[2];
  for (int k = 0, count = data_folders(data); k < count && n < max; ++k) {
    snprintf(out[n++], PATH_MAX, "%s/%s", data[k], rel);
  }
  return n;
}

void fbFilePath_DataFile(const char *rel, char *out, size_t len)
{
  const char *data[2];
  for (int k = 0, count = data_folders(data); k < count; ++k) {
    snprintf(out, len, "%s/%s", data[k], rel);
    if (fbFilePath_Exists(out)) {
      return;
    }
  }
  snprintf(out, len, "%s", rel);
}

void fbFilePath_Resolve(const char *scenario, const char *rel, char *out, size_t len)
{
  char candidates[FB_PATH_CANDIDATES][PATH_MAX];
  int n = fbFilePath_Candidates(scenario, rel, candidates, FB_PATH_CANDIDATES);
  int beside = rel[0] != '/' && scenario[0] != '\0' ? 2 : 0;  // the candidates found from the scenario
  for (int k = 0; k < n; ++k) {
    if (exists(candidates[k])) {
      snprintf(out, len, "%s", candidates[k]);
      if (k < beside) {
        tidy_path(out, len);  // "scripts/../terrains/x.png" reads better as "terrains/x.png"
      }
      return;
    }
  }
  snprintf(out, len, "%s", rel);
}

void fbFilePath_ResolveRule(const char (*dirs)[512], int dir_count, const char *scenario_path, const char *name,
                            char *out, size_t len)
{
  char module[FB_NAME_LEN];  // a copy: out and name may be the same buffer
  snprintf(module, sizeof module, "%s", name);
  for (int d = 0; d < dir_count; ++d) {
    snprintf(out, len, "%s/%s.lua", dirs[d], module);
    if (fbFilePath_Exists(out)) {  // not only regular files: a FIFO there is named, not skipped
      return;
    }
  }
  char rel[128];
  snprintf(rel, sizeof rel, "behaviours/%s.lua", module);
  fbFilePath_Resolve(scenario_path, rel, out, len);
}


// The folders behaviours/<module>.lua is looked for in after the scenario's own: in the scenario's
// folder, beside it, as given, in the data folders (fbFilePath_Candidates' order).
static int fallback_folders(const char *scenario, char out[FB_PATH_CANDIDATES][PATH_MAX])
{
  int n = fbFilePath_Candidates(scenario, "behaviours", out, FB_PATH_CANDIDATES);
  for (int k = 0; k < n; ++k) {
    tidy_path(out[k], PATH_MAX);
  }
  return n;
}

void fbFilePath_RuleFolders(const char (*dirs)[512], int dir_count, const char *scenario, char *out, size_t len)
{
  char fallback[FB_PATH_CANDIDATES][PATH_MAX];
  int n = fallback_folders(scenario, fallback);
  size_t used = 0;
  out[0] = '\0';
  for (int k = 0; k < dir_count + n && used < len; ++k) {
    const char *folder = k < dir_count ? dirs[k] : fallback[k - dir_count];
    if (k >= dir_count && (!exists(folder) || strstr(out, folder) != NULL)) {
      continue;  // a fallback that is missing, or the same folder reached twice
    }
    used += (size_t)snprintf(out + used, len - used, "%s%s", used ? ", " : "", folder);
  }
}

// Offers every *.lua in folder, by its name without the extension.
static void offer_rules_in(const char *folder, fbClosestName *closest)
{
  DIR *dir = opendir(folder);
  if (dir == NULL) {
    return;
  }
  for (struct dirent *e; (e = readdir(dir)) != NULL;) {
    size_t n = strlen(e->d_name);
    if (n <= 4 || n - 4 >= FB_NAME_LEN || strcmp(e->d_name + n - 4, ".lua") != 0) {
      continue;
    }
    char name[FB_NAME_LEN];
    snprintf(name, sizeof name, "%.*s", (int)(n - 4), e->d_name);
    fbClosestName_Offer(closest, name);
  }
  closedir(dir);
}

void fbFilePath_ClosestRule(const char (*dirs)[512], int dir_count, const char *scenario, const char *module, char *out,
                            size_t len)
{
  char fallback[FB_PATH_CANDIDATES][PATH_MAX];
  int n = fallback_folders(scenario, fallback);
  fbClosestName closest;
  fbClosestName_Begin(&closest, module);
  for (int k = 0; k < dir_count + n; ++k) {
    offer_rules_in(k < dir_count ? dirs[k] : fallback[k - dir_count], &closest);
  }
  snprintf(out, len, "%s", fbClosestName_Suggestion(&closest));
}
