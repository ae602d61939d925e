// about_text.h — what the About tab writes as a new user reads it: the scenario's path from where they stand, and its "Try:" commands naming the binary as they ran it.
#ifndef FB_ABOUT_TEXT_H
#define FB_ABOUT_TEXT_H

#include <stddef.h>

// path as it reads from the working directory cwd: relative when under it ("scripts/couzin.lua"),
// else with ~ for the home folder ("~/flocks/mine.lua"), else as it is. cwd and home may be NULL.
void fbAbout_ShownPath(const char *path, const char *cwd, const char *home, char *out, size_t len);

// A "Try: flockbox ARGS" line (or "Sweep: flockbox ...": any one-word label) with `flockbox`
// replaced by program (argv[0]: "build/flockbox"), so the command can be pasted as it is; any other
// line, or a NULL program, copied unchanged.
void fbAbout_NameProgram(const char *line, const char *program, char *out, size_t len);

#endif
