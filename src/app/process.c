// process.c — starting a program as a child process with fork/exec, and reading how it ended.
#define _POSIX_C_SOURCE 200809L
#include "process.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "paths.h"

// In the child between fork and exec the parent may have other threads (the Lua watchdog), so
// only async-signal-safe calls are allowed: open, dup2, chdir, sigaction, sigprocmask, write, exec.
static void write_text(int fd, const char *text) { (void)!write(fd, text, strlen(text)); }

static void become_child(char *const argv[], const char *log_path, const char *cwd)
{
  int in = open("/dev/null", O_RDONLY);
  int out = open(log_path ? log_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0) {
    _exit(127);
  }
  // The parent blocks and catches signals while it waits; the program starts with the defaults.
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  const int reset[] = {SIGINT, SIGTERM, SIGCHLD, SIGPIPE, SIGHUP};
  for (size_t k = 0; k < sizeof reset / sizeof reset[0]; ++k) {
    sigaction(reset[k], &dfl, NULL);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  if (cwd != NULL && chdir(cwd) != 0) {
    write_text(2, "cannot enter the folder ");
    write_text(2, cwd);
    write_text(2, "\n");
    _exit(127);
  }
  execv(argv[0], argv);
  write_text(2, "cannot execute ");
  write_text(2, argv[0]);
  write_text(2, "\n");
  _exit(127);
}

pid_t fbProcess_Start(char *const argv[], const char *log_path, const char *cwd, char *err, size_t errlen)
{
  if (access(argv[0], X_OK) != 0) {
    snprintf(err, errlen, "%s: cannot execute: %s", argv[0], strerror(errno));
    return -1;
  }
  char why[256];
  if (log_path != NULL && !fbFilePath_CheckOutput(log_path, why, sizeof why)) {  // the child would block on a FIFO
    snprintf(err, errlen, "%s: cannot be written: %s", log_path, why);
    return -1;
  }
  fflush(stdout);  // nothing buffered may be written twice
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(err, errlen, "cannot start %s: %s", argv[0], strerror(errno));
    return -1;
  }
  if (pid == 0) {
    become_child(argv, log_path, cwd);
  }
  return pid;
}

int fbProcess_ExitCode(int wait_status)
{
  if (WIFEXITED(wait_status)) {
    return WEXITSTATUS(wait_status);
  }
  return WIFSIGNALED(wait_status) ? 128 + WTERMSIG(wait_status) : 255;
}

int fbProcess_Wait(pid_t pid)
{
  int status;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      return -1;
    }
  }
  return fbProcess_ExitCode(status);
}

bool fbProcess_Self(char *out, size_t len)
{
  ssize_t n = readlink("/proc/self/exe", out, len - 1);
  if (n <= 0 || (size_t)n >= len - 1) {
    return false;
  }
  out[n] = '\0';
  return true;
}

bool fbProcess_Find(const char *program, char *out, size_t len)
{
  const char *path = getenv("PATH");
  if (path == NULL) {
    path = "/usr/local/bin:/usr/bin:/bin";
  }
  while (*path != '\0') {
    size_t n = strcspn(path, ":");
    if (n > 0) {
      snprintf(out, len, "%.*s/%s", (int)n, path, program);
      struct stat st;
      if (stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0) {
        return true;
      }
    }
    path += n + (path[n] == ':');
  }
  return false;
}
