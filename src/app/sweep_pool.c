// sweep_pool.c — a pool of child processes, one per run, waited for without races and stopped cleanly on a signal.
#define _POSIX_C_SOURCE 200809L
#include "sweep_pool.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fb.h"
#include "lua_host.h"
#include "process.h"
#include "run_record.h"

static const int STOP_SIGNALS[] = {SIGINT, SIGTERM, SIGHUP};
#define STOP_COUNT (sizeof STOP_SIGNALS / sizeof STOP_SIGNALS[0])

static volatile sig_atomic_t stop_signal;

static void on_stop(int signal_number)
{
  stop_signal = signal_number;
  fbLuaHost_RequestStop();  // a script stuck in this process (reading the experiment) stops too
}
static void on_child(int signal_number) { (void)signal_number; }

static void waited_signals(sigset_t *set)
{
  sigemptyset(set);
  sigaddset(set, SIGCHLD);
  for (size_t k = 0; k < STOP_COUNT; ++k) {
    sigaddset(set, STOP_SIGNALS[k]);
  }
}

void fbSweepPool_BlockSignals(void)
{
  sigset_t set;
  waited_signals(&set);
  pthread_sigmask(SIG_BLOCK, &set, NULL);
}

bool fbSweepPool_CatchStops(bool on)
{
  sigset_t stops;
  sigemptyset(&stops);
  for (size_t k = 0; k < STOP_COUNT; ++k) {
    sigaddset(&stops, STOP_SIGNALS[k]);
  }
  if (on) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    for (size_t k = 0; k < STOP_COUNT; ++k) {
      sigaction(STOP_SIGNALS[k], &sa, NULL);
    }
  }
  pthread_sigmask(on ? SIG_UNBLOCK : SIG_BLOCK, &stops, NULL);
  return stop_signal != 0;
}

static void catch_signals(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop;
  for (size_t k = 0; k < STOP_COUNT; ++k) {
    sigaction(STOP_SIGNALS[k], &sa, NULL);
  }
  sa.sa_handler = on_child;
  sa.sa_flags = SA_NOCLDSTOP;
  sigaction(SIGCHLD, &sa, NULL);
}

// ---- progress -----------------------------------------------------------------------------------

typedef struct progress {
  long done, total;
  int running;
  bool quiet, terminal;
  long printed_tenth;   // off a terminal: the last tenth of the plan reported
  long printed_done;    // and how many runs were done then
} progress;

static void show(progress *s, bool last)
{
  if (s->quiet) {
    return;
  }
  if (s->terminal) {
    fprintf(stderr, "\rsweep: %ld/%ld done, %d running   %s", s->done, s->total, s->running, last ? "\n" : "");
    return;
  }
  long tenth = s->total > 0 ? s->done * 10 / s->total : 10;
  if (tenth > s->printed_tenth || (last && s->done != s->printed_done)) {
    fprintf(stderr, "sweep: %ld/%ld done, %d running\n", s->done, s->total, s->running);
    s->printed_tenth = tenth;
    s->printed_done = s->done;
  }
}

// ---- the pool -----------------------------------------------------------------------------------

typedef struct slot {
  pid_t pid;   // 0: free
  long run;
  int claim;   // the run's claim (run_record.h), held while it is made
} slot;

// Claims the run and starts it; a run another process is making, or has made since the plan was
// read, is left to it (*started false). False only when the run cannot be started.
static bool start(const fbPlan *p, long run, bool retry_failed, slot *s, bool *started, char *err, size_t errlen)
{
  *started = false;
  int claim = fbRunRecord_Claim(p, run, err, errlen);
  if (claim < 0) {
    return err[0] == '\0';
  }
  int exit_status;
  fbRunState state = fbRunRecord_State(p, run, &exit_status);
  if (state != FB_RUN_PENDING && !(retry_failed && state == FB_RUN_FAILED)) {
    fbRunRecord_Release(claim);
    return true;
  }
  fbRunRecord_Clear(p, run);
  char log[4200];
  fbPlan_RunFile(p, run, ".log", log, sizeof log);
  char **argv = fbPlan_RunArgs(p, run);
  pid_t pid = fbProcess_Start(argv, log, NULL, err, errlen);
  fbPlan_FreeArgs(argv);
  s->pid = pid > 0 ? pid : 0;
  s->run = run;
  s->claim = claim;
  if (pid <= 0) {
    fbRunRecord_Release(claim);
  }
  *started = pid > 0;
  return pid > 0;
}

// Collects every child that has exited; false if a status file could not be written.
static bool reap(const fbPlan *p, slot *slots, int jobs, progress *s, char *err, size_t errlen)
{
  bool ok = true;
  int status;
  pid_t pid;
  while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
    for (int k = 0; k < jobs; ++k) {
      if (slots[k].pid != pid) {
        continue;
      }
      int code = fbProcess_ExitCode(status);
      if (!fbRunRecord_Finish(p, slots[k].run, code)) {
        snprintf(err, errlen, "%s/runs/%ld.status: cannot be written: %s", p->e->out, slots[k].run, strerror(errno));
        ok = false;
      }
      s->done += fbRunState_OfExit(code) != FB_RUN_PENDING;
      s->running--;
      slots[k].pid = 0;
      fbRunRecord_Release(slots[k].claim);
    }
  }
  return ok;
}

/*
 * The loop waits in sigsuspend with SIGCHLD and the stop signals blocked everywhere else
 * (fbSweepPool_BlockSignals): a child that ends, or a Ctrl-C, between the check and the wait stays
 * pending and ends the wait at once, so neither can be missed. A Ctrl-C on a terminal reaches the
 * runs too (same process group); a SIGTERM sent to the sweep alone (kill, a batch system) reaches
 * them through the sweep. Either way each run ends after its current step with exit status 130,
 * leaves no status file, and is made again by the next sweep.
 */
bool fbSweepPool_Run(const fbPlan *p, const long *runs, long count, const fbPoolOptions *o, bool *interrupted,
                     char *err, size_t errlen)
{
  int jobs = o->jobs > 0 ? o->jobs : 1;
  slot *slots = calloc((size_t)jobs, sizeof *slots);
  FB_ASSERT(slots != NULL);
  progress s = {o->done_before, p->runs, 0, o->quiet, isatty(2), -1, -1};
  sigset_t waiting;
  pthread_sigmask(SIG_SETMASK, NULL, &waiting);
  sigset_t blocked;
  waited_signals(&blocked);
  for (size_t k = 0; k < STOP_COUNT + 1; ++k) {
    sigdelset(&waiting, k < STOP_COUNT ? STOP_SIGNALS[k] : SIGCHLD);
  }
  pthread_sigmask(SIG_BLOCK, &blocked, NULL);
  stop_signal = 0;
  catch_signals();
  bool ok = true, forwarded = false;
  long next = 0;
  for (;;) {
    ok = reap(p, slots, jobs, &s, err, errlen) && ok;
    if (stop_signal != 0 && !forwarded) {
      for (int k = 0; k < jobs; ++k) {
        if (slots[k].pid > 0) {
          kill(slots[k].pid, stop_signal == SIGHUP ? SIGTERM : stop_signal);
        }
      }
      forwarded = true;
    }
    for (int k = 0; k < jobs && ok && stop_signal == 0 && next < count; ++k) {
      bool started = false;
      while (ok && slots[k].pid == 0 && !started && next < count) {
        ok = start(p, runs[next++], o->retry_failed, &slots[k], &started, err, errlen);
        s.running += started;
        s.done += ok && !started;  // made by another process: done as far as this one is concerned
      }
    }
    show(&s, false);
    if (s.running == 0 && (next == count || stop_signal != 0 || !ok)) {
      break;
    }
    sigsuspend(&waiting);
  }
  show(&s, true);
  free(slots);
  *interrupted = stop_signal != 0;
  return ok;
}
