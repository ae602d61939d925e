// workers.h — a fixed set of threads that run one job, split by thread index, and wait for the next.
#ifndef FB_WORKERS_H
#define FB_WORKERS_H

#include <pthread.h>

#include "fb.h"

#define FB_MAX_THREADS 16

/*
 * A step has phases (perception and rules, then integration) that each run over every agent,
 * split into one range per thread. Starting threads for every phase costs more than a small
 * world's whole phase, so the threads are started once and wait on a condition variable between
 * jobs. Job t always runs work(context, t), whichever thread takes it, and the caller runs t = 0.
 */
typedef struct fbWorkers {
  int count;                   // threads, the caller included
  int started;                 // of which are running (threads that failed to start are covered by the caller)
  pthread_t thread[FB_MAX_THREADS];
  pthread_mutex_t lock;
  pthread_cond_t wake, finished;
  unsigned long job;           // bumped for every job: a worker runs each job once
  int busy;                    // workers still in the current job
  bool quit;
  void (*work)(void *context, int t);
  void *context;
} fbWorkers;

// count <= 1 starts no thread: jobs then run on the caller alone.
void fbWorkers_Start(fbWorkers *w, int count);
void fbWorkers_Stop(fbWorkers *w);

// Runs work(context, t) for t = 0 .. count - 1 at once and returns when all have returned.
void fbWorkers_Run(fbWorkers *w, void (*work)(void *context, int t), void *context);

// The machine's processors (at least 1, at most FB_MAX_THREADS).
int fbWorkers_Cores(void);

#endif
