/* jobs.h -- --jobs=N: a bounded queue of copies, N - 1 threads that run
   them, and the walk's own thread as the Nth.

   The walk stays in the main thread and queues the files it may copy
   out of order; each worker takes the oldest job, runs it and takes the
   next.  When the queue is full, the walk runs the job it was about to
   queue itself instead of waiting: so at most N files are copied at
   once, and no thread sleeps while there is work (N threads on N CPUs,
   with no wake-ups between them).  What a job is, and what must wait
   for it, is the caller's (tree-jobs.c).  */

#ifndef FCOPY_JOBS_H
#define FCOPY_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include "dest.h"
#include "out-order.h"

/* One piece of work, the first member of the caller's own struct.  */
struct job
{
  struct job *next;
  struct out_slot *slot;       /* its place in the output (out-order.h) */
  /* Do the work, free the job, and return false if the work failed
     (and was reported).  MEM is the run's memory, as the thread that
     runs the job sees it.  */
  bool (*run) (struct job *job, struct dest_memory const *mem);
};

struct job_pool;

/* Start N_JOBS - 1 worker threads (N_JOBS is at least 2).  WALK_MEM is
   the run's memory as the walk's thread sees it; a worker sees no -u
   copies (the walk copies the files that need them), no operands (the
   walk copies those) and a clone memo of its own.  If no thread can
   start, say so and return NULL: the walk copies everything itself.  */
struct job_pool *jobs_start (size_t n_jobs,
                             struct dest_memory const *walk_mem);

/* Queue JOB for the workers, or run it now if the queue is full.  */
void jobs_submit (struct job_pool *pool, struct job *job);

/* Run the jobs still queued, wait for those running: then every job
   submitted is done.  Return false if one of them failed since the last
   call.  */
bool jobs_wait (struct job_pool *pool);

/* Wait for the jobs, end the threads and free POOL (if not null).  */
void jobs_stop (struct job_pool *pool);

#endif
