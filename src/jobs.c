/* jobs.c -- the queue of --jobs and its workers.

   One lock guards the queue and the counts; a thread holds it only to
   take a job and to count it done, never while it copies.  The queue is
   bounded, so that the walk, which is faster than the copies, runs jobs
   itself rather than fill memory with names (peak RSS stays that of a
   few dozen jobs).  */

#include <config.h>
#include "jobs.h"

#include <pthread.h>
#include <stdlib.h>

#include "error.h"
#include "i18n.h"
#include "quote-name.h"
#include "xalloc.h"

/* Jobs queued per worker: enough to keep it busy while the walk reads
   the next directory or copies a file of its own.  */
enum { QUEUED_PER_WORKER = 16 };

struct worker
{
  struct job_pool *pool;
  pthread_t thread;
  void *state;                 /* what it runs its jobs with */
};

struct job_pool
{
  pthread_mutex_t lock;
  pthread_cond_t work;         /* a job was queued, or the pool stops */
  pthread_cond_t idle;         /* no job is pending any more */
  struct job *head, *tail;     /* the queue, oldest first */
  size_t queued, capacity;
  size_t pending;              /* queued or running */
  bool failed;                 /* a job failed since the last jobs_wait */
  bool stopping;
  struct jobs_crew crew;
  size_t n_workers;
  struct worker worker[];
};

/* Take the oldest job, or NULL if there is none.  Call with the lock
   held.  */
static struct job *
take_job (struct job_pool *p)
{
  struct job *job = p->head;
  if (job)
    {
      p->head = job->next;
      if (!p->head)
        p->tail = NULL;
      p->queued--;
    }
  return job;
}

/* Run JOB with STATE, printing at its place in the output.  */
static bool
run_job (struct job *job, void *state)
{
  struct out_slot *slot = job->slot;
  struct out_slot *previous = out_slot_begin (slot);
  bool ok = job->run (job, state);
  out_slot_end (slot, previous);
  return ok;
}

/* Count a job done, that ran with result OK.  Call with the lock held. */
static void
job_done (struct job_pool *p, bool ok)
{
  p->failed |= !ok;
  if (--p->pending == 0)
    pthread_cond_broadcast (&p->idle);
}

static void *
work (void *arg)
{
  struct worker *w = arg;
  struct job_pool *p = w->pool;
  pthread_mutex_lock (&p->lock);
  while (!p->stopping)
    {
      struct job *job = take_job (p);
      if (!job)
        {
          pthread_cond_wait (&p->work, &p->lock);
          continue;
        }
      pthread_mutex_unlock (&p->lock);
      bool ok = run_job (job, w->state);
      pthread_mutex_lock (&p->lock);
      job_done (p, ok);
    }
  pthread_mutex_unlock (&p->lock);
  quote_name_free ();
  return NULL;
}

/* Start the pool's threads; return how many started.  */
static size_t
start_workers (struct job_pool *p)
{
  size_t n;
  for (n = 0; n < p->n_workers; n++)
    {
      struct worker *w = &p->worker[n];
      *w = (struct worker) { .pool = p, .state = p->crew.walk_state };
      if (p->crew.worker_init)
        w->state = p->crew.worker_init (p->crew.walk_state);
      int err = pthread_create (&w->thread, NULL, work, w);
      if (err)
        {
          if (p->crew.worker_free)
            p->crew.worker_free (w->state);
          error (0, err, _("warning: --jobs=%zu: only %zu threads started"),
                 p->n_workers + 1, n + 1);
          break;
        }
    }
  return n;
}

bool
jobs_due (size_t *countdown)
{
  return *countdown != 0 && --*countdown == 0;
}

struct job_pool *
jobs_start (struct jobs_crew const *crew)
{
  size_t n_workers = crew->n_jobs - 1;
  struct job_pool *p = xmalloc (sizeof *p + n_workers * sizeof *p->worker);
  *p = (struct job_pool) { .capacity = QUEUED_PER_WORKER * n_workers,
                           .crew = *crew, .n_workers = n_workers };
  pthread_mutex_init (&p->lock, NULL);
  pthread_cond_init (&p->work, NULL);
  pthread_cond_init (&p->idle, NULL);
  p->n_workers = start_workers (p);
  if (p->n_workers == 0)
    {
      jobs_stop (p);
      return NULL;
    }
  return p;
}

void
jobs_submit (struct job_pool *p, struct job *job)
{
  job->next = NULL;
  /* Its place, even if the walk runs it: when it does, what it prints
     may still have to wait for the jobs before it.  */
  job->slot = out_slot_new ();
  pthread_mutex_lock (&p->lock);
  bool full = p->capacity <= p->queued;
  if (!full)
    {
      if (p->tail)
        p->tail->next = job;
      else
        p->head = job;
      p->tail = job;
      p->queued++;
      p->pending++;
      pthread_cond_signal (&p->work);
    }
  pthread_mutex_unlock (&p->lock);
  if (full && !run_job (job, p->crew.walk_state))
    {
      pthread_mutex_lock (&p->lock);
      p->failed = true;
      pthread_mutex_unlock (&p->lock);
    }
}

bool
jobs_wait (struct job_pool *p)
{
  pthread_mutex_lock (&p->lock);
  struct job *job;
  while ((job = take_job (p)))
    {
      pthread_mutex_unlock (&p->lock);
      bool ok = run_job (job, p->crew.walk_state);
      pthread_mutex_lock (&p->lock);
      job_done (p, ok);
    }
  while (p->pending)
    pthread_cond_wait (&p->idle, &p->lock);
  bool ok = !p->failed;
  p->failed = false;
  pthread_mutex_unlock (&p->lock);
  return ok;
}

void
jobs_stop (struct job_pool *p)
{
  if (!p)
    return;
  jobs_wait (p);
  pthread_mutex_lock (&p->lock);
  p->stopping = true;
  pthread_cond_broadcast (&p->work);
  pthread_mutex_unlock (&p->lock);
  for (size_t i = 0; i < p->n_workers; i++)
    {
      pthread_join (p->worker[i].thread, NULL);
      if (p->crew.worker_free)
        p->crew.worker_free (p->worker[i].state);
    }
  pthread_mutex_destroy (&p->lock);
  pthread_cond_destroy (&p->work);
  pthread_cond_destroy (&p->idle);
  free (p);
}
