/* scan.c -- --progress's totals (scan.h).

   The walk follows the copy's rules (tree_fts_flags), but stats every
   entry: the copy's walk learns a file's size only when it opens it.
   Errors are not reported here: the copy meets the same ones and says
   so.  */

#include <config.h>
#include "scan.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fts_.h"
#include "inode-set.h"
#include "tree.h"
#include "xalloc.h"

/* When the walk starts: half a second before progress.c draws its first
   line, so that a small tree's totals are complete by then.  */
enum { SCAN_DELAY_MS = 500 };

/* Count the file of status ST, unless LINKS has seen it by another
   name.  */
static void
count_file (struct scan *s, struct inode_set *links, struct stat const *st)
{
  if (links && 1 < st->st_nlink)
    {
      if (inode_set_find (links, st))
        return;
      inode_set_add (links, st, "");
    }
  STATS_ADD (s->stats, total_files, 1);
  STATS_ADD (s->stats, total_bytes, st->st_size);
}

/* Count the regular files under the operands, in one walk; false if
   it could not start or was stopped.  */
static bool
scan_tree (struct scan *s, struct inode_set *links)
{
  /* Not FTS_NOSTAT: the sizes are what is wanted.  */
  FTS *fts = fts_open (s->sources, tree_fts_flags (s->opts) & ~FTS_NOSTAT,
                       NULL);
  if (!fts)
    return false;
  FTSENT *ent = NULL;
  while (!atomic_load_explicit (&s->stop, memory_order_relaxed)
         && (ent = fts_read (fts)) != NULL)
    if (ent->fts_info == FTS_F)
      count_file (s, links, ent->fts_statp);
    else if (ent->fts_info == FTS_D && !s->opts->recursive)
      fts_set (fts, ent, FTS_SKIP);
  /* What it says is the copy's to say.  */
  (void) !fts_close (fts);
  return !ent;
}

static void *
run (void *arg)
{
  struct scan *s = arg;
  /* The copy comes first: the scan takes only a CPU that would be idle
     (SCHED_IDLE, Linux 2.6.23; a thread may take it without privilege).
     A copy bound by its disk leaves plenty; one bound by the CPU, as on
     a warm tmpfs, shows "of >=N" for longer instead of going slower.  */
  struct sched_param idle = { 0 };
  pthread_setschedparam (pthread_self (), SCHED_IDLE, &idle);
  /* Nothing is shown before a second has passed (progress.c), and a
     copy done within half of it pays nothing for totals.  */
  struct timespec at;
  clock_gettime (CLOCK_MONOTONIC, &at);
  at.tv_nsec += SCAN_DELAY_MS * 1000000L;
  if (1000000000L <= at.tv_nsec)
    {
      at.tv_sec++;
      at.tv_nsec -= 1000000000L;
    }
  pthread_mutex_lock (&s->lock);
  while (!atomic_load (&s->stop)
         && pthread_cond_timedwait (&s->wake, &s->lock, &at) != ETIMEDOUT)
    continue;
  pthread_mutex_unlock (&s->lock);
  if (atomic_load (&s->stop))
    return NULL;
  struct inode_set *links = (s->opts->preserve_links ? inode_set_new ()
                             : NULL);
  bool complete = scan_tree (s, links);
  if (links)
    inode_set_free (links);
  /* Else the totals stay lower bounds.  */
  if (complete)
    atomic_store (&s->stats->scanned, true);
  return NULL;
}

void
scan_start (struct scan *s, char *const *sources, int n_sources,
            struct fcopy_options const *opts, struct copy_stats *stats)
{
  *s = (struct scan) { .opts = opts, .stats = stats,
                       .lock = PTHREAD_MUTEX_INITIALIZER };
  /* The delay is on the monotonic clock.  */
  pthread_condattr_t attr;
  pthread_condattr_init (&attr);
  pthread_condattr_setclock (&attr, CLOCK_MONOTONIC);
  pthread_cond_init (&s->wake, &attr);
  pthread_condattr_destroy (&attr);
  s->sources = xnmalloc (n_sources + 1, sizeof *s->sources);
  memcpy (s->sources, sources, n_sources * sizeof *sources);
  s->sources[n_sources] = NULL;
  s->started = pthread_create (&s->thread, NULL, run, s) == 0;
}

void
scan_finish (struct scan *s)
{
  if (s->started)
    {
      pthread_mutex_lock (&s->lock);
      atomic_store (&s->stop, true);
      pthread_cond_signal (&s->wake);
      pthread_mutex_unlock (&s->lock);
      pthread_join (s->thread, NULL);
    }
  pthread_cond_destroy (&s->wake);
  free (s->sources);
}
