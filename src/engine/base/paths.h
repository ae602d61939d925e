// paths.h — finding the files a scenario names: in its folder, beside it, as given, then in the data folder (fbSetDataFolder).
#ifndef FB_PATHS_H
#define FB_PATHS_H

#include "fb.h"

#include <limits.h>
#include <stdio.h>

#define FB_MAX_SCRIPT_BYTES (16L * 1024 * 1024)  // a scenario, rule or helper module
#define FB_MAX_TABLE_BYTES (1024L * 1024 * 1024)  // a CSV or a run's record read back

// True for an existing regular file.
bool fbFilePath_IsFile(const char *path);

// True when something of any kind (file, folder, FIFO, device) is at path.
bool fbFilePath_Exists(const char *path);

// Opens `path` for reading only if it is a regular file of at most max_bytes: a FIFO, a device or
// a folder is refused without blocking (a FIFO's open would wait for a writer), and a size is
// checked before anything is read. On failure returns NULL with the reason in why
// ("not a regular file", "file is too large (over 16 MiB)", or the system's message).
FILE *fbFilePath_OpenRegular(const char *path, long max_bytes, long *size, char *why, size_t len);

// Outputs (a state, a CSV, a PNG, a run's records, a sweep's files) go only where nothing is yet or
// a regular file is: a folder, a FIFO, a device or a socket there (or a link to one) is refused, so
// no write blocks on a FIFO and no rename replaces /dev/null with a file. True when path may be
// written; otherwise why says what is there ("not a regular file (a FIFO)").
bool fbFilePath_CheckOutput(const char *path, char *why, size_t len);

// Opens path for writing ("w": emptied; "a": appended to) after that check, and checks again what
// was opened (a FIFO put there meanwhile is refused, not waited on). NULL with the reason in why.
FILE *fbFilePath_OpenOutput(const char *path, const char *mode, char *why, size_t len);

// Where a path a scenario names may be, in the order it is looked for: in the scenario's own folder
// (scripts/x), beside that folder (scripts/../x: a project folder carries its behaviours/ and
// terrains/), as given (from the working directory), then in the data folders. An absolute path is
// its own only candidate; scenario may be "" (a world built in C). Returns how many (at most max).
#define FB_PATH_CANDIDATES 5
int fbFilePath_Candidates(const char *scenario, const char *rel, char out[][PATH_MAX], int max);

// The first of those candidates that exists, a file or a folder; rel as given when none does.
void fbFilePath_Resolve(const char *scenario, const char *rel, char *out, size_t len);

// A shipped file (lib/flockbox/test.lua, .luacheckrc, types/...) in the data folders only, never
// from the working directory: what the program brings with it, wherever it is run from. rel as
// given when no data folder has it.
void fbFilePath_DataFile(const char *rel, char *out, size_t len);

// A rule module: the scenario's own rule folders first, then behaviours/<module>.lua as above.
void fbFilePath_ResolveRule(const char (*dirs)[512], int dir_count, const char *scenario, const char *module, char *out,
                            size_t len);

// The folders a rule module is looked for in, in order, as "a, b, c" for messages.
void fbFilePath_RuleFolders(const char (*dirs)[512], int dir_count, const char *scenario, char *out, size_t len);

// The rule in those folders whose name is closest to module (edit distance, at most a third of its
// letters), or "" when none is that close.
void fbFilePath_ClosestRule(const char (*dirs)[512], int dir_count, const char *scenario, const char *module, char *out,
                            size_t len);

#endif
