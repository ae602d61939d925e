// names.h — what a name may hold once it becomes a Lua key, a CSV column, a --set path or a line of a script.
#ifndef FB_NAMES_H
#define FB_NAMES_H

#include <stdbool.h>
#include <stddef.h>

// A Lua identifier: a letter or '_', then letters, digits and '_'.
bool fbName_IsIdentifier(const char *s);

// A rule module's name, as a scenario's rules list and a C def give it: one or more letters, digits
// and '_' (no '/', no '.': the file is <rule folder>/<name>.lua, never a path out of the folders).
bool fbName_IsModule(const char *s);

/*
 * A name that becomes part of a CSV header and of --set paths: species ("boid" -> "boid.agents",
 * "boid.max_speed") and metrics. 1 to 63 bytes (len counts a zero byte inside, which C would cut
 * the name at), none of them a control character (CR, LF, tab...), a comma, a quote or a
 * backslash, no space at either end, and a dot only where `dots` allows it (a species' dot would
 * make "a.b.agents" ambiguous). False with the reason in why.
 */
bool fbName_CheckColumn(const char *s, size_t len, bool dots, char *why, size_t whylen);

// Text written as one line of a generated script, job list or CSV cell (a folder, a file, a --set):
// no zero byte and no control character, so that a newline can never end the line and start a
// command. False with the reason in why.
bool fbName_CheckLine(const char *s, size_t len, char *why, size_t whylen);

// A rule's string parameter, wherever it comes from (a module's default, a scenario, --set, the
// panel, the embedding API): shorter than FB_PARAM_TEXT and one line (fbName_CheckLine). A zero byte
// would cut the text short in C, so the rule would run with less than it was given; a newline would
// be accepted here and fail later, blamed on the rule. False with the reason in why.
bool fbName_CheckParamText(const char *s, size_t len, char *why, size_t whylen);

#endif
