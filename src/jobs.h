/* jobs.h -- --jobs=N: a bounded queue of copies, N - 1 threads that run
   them, and the walk's own thread as the Nth.

   The walk stays in the main thread and queues the files it may copy
   out of order; each worker takes the oldest job, runs it and takes the
   next.  When the queue is full, the walk runs the job it was about to
   queue itself instead of waiting: so at most N files are copied at
   once, and no thread sleeps while there is work (N threads on N CPUs,
   with no wake-ups between them).  What a job is, what state a thread
   runs it with, and what must wait for it, is the caller's (tree-jobs.c,
   dedupe.c).  */

#ifndef FCOPY_JOBS_H
#define FCOPY_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include "out-order.h"

/* One piece of work, the first member of the caller's own struct.  */
struct job
{
  struct job *next;
  struct out_slot *slot;       /* its place in the output (out-order.h) */
  /* Do the work, free the job, and return false if the work failed
     (and was reported).  STATE is the running thread's (jobs_crew).  */
  bool (*run) (struct job *job, void *state);
};

/* The threads of a pool and what each works with.  */
struct jobs_crew
{
  size_t n_jobs;                /* threads, the walk's one included: at
                                   least 2 */
  void *walk_state;             /* what the walk's thread runs jobs with */
  /* A worker's own state, made from WALK_STATE before the worker
     starts, and freed after it ended; both may be null (the worker runs
     with WALK_STATE then).  */
  void *(*worker_init) (void *walk_state);
  void (*worker_free) (void *worker_state);
};

struct job_pool;

/* Start CREW's workers.  If no thread can start, say so and return
   NULL: the walk does everything itself.  */
struct job_pool *jobs_start (struct jobs_crew const *crew);

/* Without --jobs=N the threads start only once a run has shown it is
   big enough to be worth them: the caller counts its items down from
   *COUNTDOWN (0: never) and starts the pool when this says so, once.  */
bool jobs_due (size_t *countdown);

/* Queue JOB for the workers, or run it now if the queue is full.  */
void jobs_submit (struct job_pool *pool, struct job *job);

/* Run the jobs still queued, wait for those running: then every job
   submitted is done.  Return false if one of them failed since the last
   call.  */
bool jobs_wait (struct job_pool *pool);

/* Wait for the jobs, end the threads and free POOL (if not null).  */
void jobs_stop (struct job_pool *pool);

#endif
