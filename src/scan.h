/* scan.h -- --progress's totals: a walk of the sources beside the copy,
   which adds the regular files it finds, and their sizes, to the run's
   counts (stats.h), so the copy need not wait for it.  */

#ifndef FCOPY_SCAN_H
#define FCOPY_SCAN_H

#include <pthread.h>
#include <stdatomic.h>
#include "options.h"
#include "stats.h"

struct scan
{
  char **sources;               /* the source operands, null-terminated */
  struct fcopy_options const *opts;
  struct copy_stats *stats;
  pthread_t thread;
  bool started;
  atomic_bool stop;             /* the copy is over */
  pthread_mutex_t lock;         /* for WAKE: the stop comes at once */
  pthread_cond_t wake;
};

/* Start counting the N_SOURCES operands SOURCES as OPTS would copy them
   (-r, -L/-H/-P, -x; a file with several names once, with
   --preserve=links), into STATS's totals; STATS->scanned is set when
   done.  If no thread can start, there are no totals.  */
void scan_start (struct scan *s, char *const *sources, int n_sources,
                 struct fcopy_options const *opts, struct copy_stats *stats);

/* The copy is over: stop the scan if it still runs, and wait for it.  */
void scan_finish (struct scan *s);

#endif
