// lint.c — flockbox --lint FILE...: luacheck with the sandbox's globals, before a rule or a scenario runs.
#include "lint.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "paths.h"
#include "process.h"

/*
 * Why luacheck and not a checker of our own: luacheck already parses Lua 5.4 and knows its scoping
 * (locals, upvalues, shadowing, unused values); what it lacks is which globals exist, and that is
 * what types/luacheck_std.lua gives it, written from the environments the engine really makes. So
 * the ctest over the shipped files, an editor's luacheck plugin and this command all check the same
 * thing with one configuration (.luacheckrc); this command picks the std a file runs in and says
 * what a warning means in the sandbox.
 */

// What a file is, from its name and what it returns: NAME_test.lua is a rule test, a rule has steer, a scenario species, an experiment its
// scenario; anything else is a helper module, which runs in a rule's sandbox. NULL with why for a
// file that cannot be read, is not a regular file (a FIFO would block, /dev/zero never ends) or is
// larger than a script may be.
static const char *std_of(const char *path, char *why, size_t len)
{
  FILE *f = fbFilePath_OpenRegular(path, FB_MAX_SCRIPT_BYTES, NULL, why, len);
  if (f == NULL) {
    return NULL;
  }
  bool steer = false, species = false, scenario = false;
  char line[4096];
  while (fgets(line, sizeof line, f) != NULL) {
    const char *code = line + strspn(line, " \t");
    if (strncmp(code, "--", 2) == 0) {
      continue;
    }
    steer |= strstr(code, "steer =") != NULL || strstr(code, "steer=") != NULL;
    species |= strstr(code, "species =") != NULL || strstr(code, "species=") != NULL;
    scenario |= strncmp(code, "scenario =", 10) == 0 || strncmp(code, "scenario=", 9) == 0;
  }
  fclose(f);
  size_t n = strlen(path);
  if (n > 9 && strcmp(path + n - 9, "_test.lua") == 0) {
    return "flockbox_test";  // a rule test (flockbox test): plain Lua 5.4
  }
  return steer ? "flockbox_rule" : species ? "flockbox_scenario" : scenario ? "flockbox_experiment" : "flockbox_rule";
}

// What a warning means when the file runs: luacheck says "undefined", the sandbox says "not there".
static void explain(const char *line, const char *std)
{
  const char *where = strcmp(std, "flockbox_rule") == 0       ? "a rule's sandbox"
                      : strcmp(std, "flockbox_scenario") == 0 ? "a scenario's sandbox"
                      : strcmp(std, "flockbox_test") == 0     ? "a rule test (plain Lua 5.4)"
                                                              : "an experiment file";
  if (strstr(line, "(W113)") != NULL) {
    printf("    %s has no such global: this fails when it runs (no os, io, debug, dofile, loadfile)\n", where);
  } else if (strstr(line, "(W143)") != NULL) {
    printf("    %s has no such field: this fails when it runs%s\n", where,
           strstr(line, "'random'") != NULL ? " (rules draw numbers with a:random(stream))" : "");
  } else if (strstr(line, "(W111)") != NULL || strstr(line, "(W112)") != NULL) {
    printf("    a global of the module's own environment: declare it local\n");
  }
}

// Runs luacheck on one file; prints its findings with what they mean. Returns luacheck's status.
static int lint_file(const char *luacheck, const char *config, const char *path, const char *log)
{
  char why[256];
  const char *std = std_of(path, why, sizeof why);
  if (std == NULL) {
    fprintf(stderr, "flockbox: --lint: %s: cannot read: %s\n", path, why);
    return 2;
  }
  const char *globals = strcmp(std, "flockbox_test") == 0 ? "lua54" : std;
  char *argv[] = {(char *)luacheck, "--config", (char *)config, "--std", (char *)globals, "--no-color", "--codes",
                  "--formatter", "plain", (char *)path, NULL};
  char err[512];
  pid_t pid = fbProcess_Start(argv, log, NULL, err, sizeof err);
  int status = pid < 0 ? 127 : fbProcess_Wait(pid);
  FILE *out = fopen(log, "r");
  int findings = 0;
  char line[2048];
  while (out != NULL && fgets(line, sizeof line, out) != NULL) {
    fputs(line, stdout);
    explain(line, std);
    findings++;
  }
  if (out != NULL) {
    fclose(out);
  }
  if (status == 0) {
    printf("%s: OK (%s)\n", path, std + 9);
  } else if (status <= 2) {
    printf("%s: %d problem%s (checked as a %s)\n", path, findings, findings == 1 ? "" : "s", std + 9);
  }
  return status;
}

int fbLint_Main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: flockbox --lint FILE.lua...  (rules, helper modules, scenarios, experiments)\n");
    return 2;
  }
  char luacheck[1024], config[1024], log[] = "/tmp/flockbox-lint-XXXXXX";
  if (!fbProcess_Find("luacheck", luacheck, sizeof luacheck)) {
    fprintf(stderr, "flockbox: --lint needs luacheck (Debian: apt-get install lua-check; ./setup.sh installs it)\n");
    return 2;
  }
  // The program's own configuration and types, wherever it runs from: .luacheckrc requires
  // types.luacheck_std, which luacheck (a Lua 5.1 program) finds through LUA_PATH, so the data
  // folder goes first on it. A user's folder has neither file, nor should it need them.
  fbFilePath_DataFile(".luacheckrc", config, sizeof config);
  char lua_path[PATH_MAX + 64];
  const char *slash = strrchr(config, '/');
  snprintf(lua_path, sizeof lua_path, "%.*s/?.lua;;", slash ? (int)(slash - config) : 1, slash ? config : ".");
  setenv("LUA_PATH", lua_path, 1);
  int fd = mkstemp(log);
  if (fd < 0) {
    fprintf(stderr, "flockbox: --lint: cannot make a temporary file\n");
    return 2;
  }
  close(fd);
  int worst = 0;
  for (int k = 1; k < argc; ++k) {
    int status = lint_file(luacheck, config, argv[k], log);
    if (status > 2) {
      fprintf(stderr, "flockbox: --lint: luacheck failed on %s (status %d; configuration %s)\n", argv[k], status,
              config);
    }
    worst = status > worst ? status : worst;
  }
  unlink(log);
  return worst == 0 ? 0 : 2;
}
