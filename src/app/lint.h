// lint.h — flockbox --lint FILE...: what would fail in the sandbox, found before the file runs.
#ifndef FB_LINT_H
#define FB_LINT_H

// argv[0] is "--lint", the files follow. Runs luacheck with the shipped .luacheckrc on each file,
// as a rule (or helper), a scenario or an experiment by what it returns, and prints its findings
// with what they mean in the sandbox. Returns 0 when every file is clean, 2 otherwise (problems,
// no luacheck, a file that cannot be read).
int fbLint_Main(int argc, char **argv);

#endif
