/* dedupe.h -- --dedupe: share the extents of identical pairs of files.  */

#ifndef FCOPY_DEDUPE_H
#define FCOPY_DEDUPE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "jobs.h"
#include "options.h"
#include "stats.h"

/* Two compare buffers, one set for each thread that compares.  */
struct compare_bufs
{
  struct compare_bufs *next;    /* in the deduper's list of spare ones */
  char *buf[2];
};

/* One pair while it is worked on.  */
struct pair
{
  char const *src_name, *dst_name;
  int src_fd, dst_fd;
  bool dst_rw;       /* DST had to be reopened for writing */
  char **buf;        /* the compare buffers of the thread */
  uintmax_t bytes;   /* bytes_deduped, summed */
  struct copy_stats *live;  /* or null: counts for --progress, SIGUSR1 */
};

/* The state kept across pairs: the counts, the pair to read ahead, and
   with --jobs the threads that take pairs and their buffers.  */
struct deduper
{
  struct fcopy_options const *opts;
  struct dedupe_stats stats;            /* under LOCK while threads run */
  struct copy_stats *live;              /* or null: counts as pairs go */
  pthread_mutex_t lock;
  struct compare_bufs *spare;           /* under LOCK */
  size_t n_bufs;                        /* sets made, under LOCK */
  pthread_cond_t bufs_free;             /* a set was put back */
  char const *next_src, *next_dst;      /* without threads */
  struct job_pool *pool;
  size_t pairs_before_jobs;  /* without --jobs=N: pairs to take one at a
                                time before the threads start; 0: never */
};

/* LIVE, or null, gets counts as the pairs go (stats.h).  */
bool deduper_init (struct deduper *d, struct fcopy_options const *opts,
                   struct copy_stats *live);

/* Wait for the pairs handed to threads: then the counts are complete.  */
void deduper_finish (struct deduper *d);
void deduper_free (struct deduper *d);

/* Deduplicate DST_NAME against SRC_NAME, count the outcome, report; or,
   with threads, have one of them do it later.  */
void dedupe_pair (struct deduper *d, char const *src_name,
                  char const *dst_name);

/* Name the pair that comes after the one of the next dedupe_pair call
   (NULL: none).  That call starts reading it when done with its own
   reads, so that the disk works on it while the kernel compares.  The
   names must stay valid during that call.  Nothing with threads: they
   read pairs side by side anyway.  */
void dedupe_read_ahead (struct deduper *d, char const *src_name,
                        char const *dst_name);

/* 0 all pairs shared, 1 some differed or were skipped, 2 some failed.  */
int dedupe_exit_status (struct dedupe_stats const *s);

#endif
