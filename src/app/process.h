// process.h — a child process: a program started by fork/exec with no shell, its output in a file.
#ifndef FB_PROCESS_H
#define FB_PROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

// Starts argv[0] (a path: no PATH search, no shell) with stdin from /dev/null and stdout and stderr
// appended to log_path (truncated first; NULL: /dev/null), in folder cwd (NULL: ours), with the
// signal mask and the signal handlers the program expects. Returns the pid, or -1 with the reason
// in err. A program that cannot be executed exits 127 with the reason in its log.
pid_t fbProcess_Start(char *const argv[], const char *log_path, const char *cwd, char *err, size_t errlen);

// Waits for pid, retrying when a signal interrupts the wait; returns its exit code as a shell would
// (128 + the signal for a child killed by one), or -1 if pid is not our child.
int fbProcess_Wait(pid_t pid);

// An exit code (as fbProcess_Wait returns) from a status returned by waitpid.
int fbProcess_ExitCode(int wait_status);

// The absolute path of the running executable (/proc/self/exe), so that children run this very
// build; false if it cannot be read.
bool fbProcess_Self(char *out, size_t len);

// The full path of program in $PATH ("gnuplot" -> "/usr/bin/gnuplot"); false if it is not there.
bool fbProcess_Find(const char *program, char *out, size_t len);

#endif
