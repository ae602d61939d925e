// workers.c — the thread pool a simulation's phases run on.
#define _POSIX_C_SOURCE 200809L
#include "workers.h"

#include <string.h>
#include <unistd.h>

typedef struct WorkerArg {
  fbWorkers *pool;
  int t;
} WorkerArg;

static void *worker_main(void *arg)
{
  WorkerArg a = *(WorkerArg *)arg;
  free(arg);
  fbWorkers *w = a.pool;
  unsigned long seen = 0;
  pthread_mutex_lock(&w->lock);
  for (;;) {
    while (!w->quit && w->job == seen) {
      pthread_cond_wait(&w->wake, &w->lock);
    }
    if (w->quit) {
      break;
    }
    seen = w->job;
    void (*work)(void *, int) = w->work;
    void *context = w->context;
    pthread_mutex_unlock(&w->lock);
    work(context, a.t);
    pthread_mutex_lock(&w->lock);
    if (--w->busy == 0) {
      pthread_cond_signal(&w->finished);
    }
  }
  pthread_mutex_unlock(&w->lock);
  return NULL;
}

void fbWorkers_Start(fbWorkers *w, int count)
{
  memset(w, 0, sizeof *w);
  w->count = count < 1 ? 1 : (count > FB_MAX_THREADS ? FB_MAX_THREADS : count);
  w->started = 1;
  pthread_mutex_init(&w->lock, NULL);
  pthread_cond_init(&w->wake, NULL);
  pthread_cond_init(&w->finished, NULL);
  for (int t = 1; t < w->count; ++t) {
    WorkerArg *arg = malloc(sizeof *arg);
    FB_ASSERT(arg != NULL);
    *arg = (WorkerArg){w, w->started};
    if (pthread_create(&w->thread[w->started], NULL, worker_main, arg) != 0) {
      free(arg);
      break;  // fewer threads: the caller runs the other jobs itself, with the same result
    }
    w->started++;
  }
}

void fbWorkers_Stop(fbWorkers *w)
{
  if (w->count == 0) {
    return;
  }
  pthread_mutex_lock(&w->lock);
  w->quit = true;
  pthread_cond_broadcast(&w->wake);
  pthread_mutex_unlock(&w->lock);
  for (int t = 1; t < w->started; ++t) {
    pthread_join(w->thread[t], NULL);
  }
  pthread_cond_destroy(&w->wake);
  pthread_cond_destroy(&w->finished);
  pthread_mutex_destroy(&w->lock);
  memset(w, 0, sizeof *w);
}

void fbWorkers_Run(fbWorkers *w, void (*work)(void *context, int t), void *context)
{
  if (w->started > 1) {
    pthread_mutex_lock(&w->lock);
    w->work = work;
    w->context = context;
    w->busy = w->started - 1;
    w->job++;
    pthread_cond_broadcast(&w->wake);
    pthread_mutex_unlock(&w->lock);
  }
  work(context, 0);
  for (int t = w->started; t < w->count; ++t) {
    work(context, t);  // jobs whose thread could not start
  }
  if (w->started > 1) {
    pthread_mutex_lock(&w->lock);
    while (w->busy > 0) {
      pthread_cond_wait(&w->finished, &w->lock);
    }
    pthread_mutex_unlock(&w->lock);
  }
}

int fbWorkers_Cores(void)
{
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : (n > FB_MAX_THREADS ? FB_MAX_THREADS : (int)n);
}
