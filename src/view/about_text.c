// about_text.c — what the About tab writes as a new user reads it: the scenario's path from where they stand, and its "Try:" commands naming the binary as they ran it.
#include "about_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

// The part of path below folder ("" for the folder itself), or NULL when path is not under it. A
// folder is a whole path component: /home/ann is not a prefix of /home/anna/x.
static const char *below(const char *path, const char *folder)
{
  size_t n = folder != NULL ? strlen(folder) : 0;
  while (n > 1 && folder[n - 1] == '/') {
    --n;  // "/home/ann/" as "/home/ann"
  }
  if (n == 0 || strncmp(path, folder, n) != 0) {
    return NULL;
  }
  if (path[n] == '\0') {
    return path + n;
  }
  if (path[n] == '/') {
    return path + n + 1;
  }
  return n == 1 && folder[0] == '/' ? path + 1 : NULL;  // under the root
}

void fbAbout_ShownPath(const char *path, const char *cwd, const char *home, char *out, size_t len)
{
  const char *rest = path[0] == '/' ? below(path, cwd) : NULL;
  if (rest != NULL && rest[0] != '\0') {
    snprintf(out, len, "%s", rest);
    return;
  }
  rest = path[0] == '/' ? below(path, home) : NULL;
  if (rest != NULL && !(home[0] == '/' && home[1] == '\0')) {
    snprintf(out, len, "~%s%s", rest[0] ? "/" : "", rest);
    return;
  }
  snprintf(out, len, "%s", path);
}

// A label is a word of letters and a colon ("Try:", "Sweep:"); the command follows it after a space.
void fbAbout_NameProgram(const char *line, const char *program, char *out, size_t len)
{
  static const char name[] = "flockbox";
  size_t label = strspn(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"), n = sizeof name - 1;
  bool labelled = label > 0 && line[label] == ':' && line[label + 1] == ' ';
  const char *command = labelled ? line + label + 2 : line;
  bool named = labelled && strncmp(command, name, n) == 0 && (command[n] == ' ' || command[n] == '\0');
  if (!named || program == NULL || program[0] == '\0') {
    snprintf(out, len, "%s", line);
    return;
  }
  snprintf(out, len, "%.*s%s%s", (int)(command - line), line, program, command + n);
}
