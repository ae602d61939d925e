// paths.h — finding the files a scenario names: beside its folder first, then as given, then in the data folder (fbSetDataFolder).
#ifndef FB_PATHS_H
#define FB_PATHS_H

#include "fb.h"

#include <stdio.h>

#define FB_MAX_SCRIPT_BYTES (16L * 1024 * 1024)  // a scenario, rule or helper module

// True for an existing regular file.
bool fbFilePath_IsFile(const char *path);

// True when something of any kind (file, folder, FIFO, device) is at path.
bool fbFilePath_Exists(const char *path);

// Opens `path` for reading only if it is a regular file of at most max_bytes: a FIFO, a device or
// a folder is refused without blocking (a FIFO's open would wait for a writer), and a size is
// checked before anything is read. On failure returns NULL with the reason in why
// ("not a regular file", "file is too large (over 16 MiB)", or the system's message).
FILE *fbFilePath_OpenRegular(const char *path, long max_bytes, long *size, char *why, size_t len);

// A path named by a scenario is looked for beside the scenario's folder first (scripts/../x, so a
// project folder carries its own behaviours/ and terrains/), then as given, then in the source
// tree; a file or a folder. scenario may be "" (a world built in C). When nothing exists, out is
// rel as given.
void fbFilePath_Resolve(const char *scenario, const char *rel, char *out, size_t len);

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
