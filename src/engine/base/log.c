// log.c — messages from the engine to the program's log function (default: stderr).
#include "log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void write_stderr(fbLogLevel level, const char *message, void *context)
{
  (void)level;
  (void)context;
  fprintf(stderr, "flockbox: %s\n", message);
}

// Set before any sim runs (a program's first lines): workers read it while a step runs.
static fbLogFcn *log_fcn = write_stderr;
static void *log_context = NULL;
// A rule's print runs on a worker thread, and several sims may run on several threads: the
// program's function is called by one thread at a time, for every sim of the process.
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static void deliver(fbLogLevel level, const char *message)
{
  pthread_mutex_lock(&log_lock);
  log_fcn(level, message, log_context);
  pthread_mutex_unlock(&log_lock);
}

// Under the lock: a program may set it while another sim's worker is delivering a message.
void fbSetLogFunction(fbLogFcn *fcn, void *context)
{
  pthread_mutex_lock(&log_lock);
  log_fcn = fcn != NULL ? fcn : write_stderr;
  log_context = fcn != NULL ? context : NULL;
  pthread_mutex_unlock(&log_lock);
}

void fbLog(fbLogLevel level, const char *fmt, ...)
{
  char small[1024];
  va_list args;
  va_start(args, fmt);
  int n = vsnprintf(small, sizeof small, fmt, args);
  va_end(args);
  if (n < 0) {
    return;
  }
  if ((size_t)n < sizeof small) {
    deliver(level, small);
    return;
  }
  // A long message (a Lua traceback) is passed whole rather than cut at an arbitrary byte.
  char *big = malloc((size_t)n + 1);
  if (big == NULL) {
    deliver(level, small);
    return;
  }
  va_start(args, fmt);
  vsnprintf(big, (size_t)n + 1, fmt, args);
  va_end(args);
  deliver(level, big);
  free(big);
}
