/* stats.h -- what a run counts, for --stats and the exit status.  */

#ifndef FCOPY_STATS_H
#define FCOPY_STATS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* The steps of the copy ladder (engine.c), in the order they are tried;
   the statistics count the bytes each moved.  */
enum ladder_step
{
  LADDER_CLONE,                /* FICLONE, or FICLONERANGE in range mode */
  LADDER_OFFLOAD,              /* copy_file_range */
  LADDER_SPLICE,               /* splice through a pipe */
  LADDER_RW,                   /* read and write through a buffer */
  LADDER_STEPS
};

/* What a copy run has done so far, for --stats, --progress and the
   status line of SIGUSR1.  The threads of --jobs add to it as they go, so each count
   is an atomic; a reader sees each count as it was at some moment.  */
struct copy_stats
{
  atomic_uint_least64_t files;        /* regular files copied */
  atomic_uint_least64_t directories;  /* made, or copied into */
  atomic_uint_least64_t links;        /* symbolic links copied; links
                                         made (-l, -s, hard links kept) */
  atomic_uint_least64_t specials;     /* FIFOs, devices, sockets made */
  atomic_uint_least64_t skipped;      /* regular files left as they were
                                         (-n, -u, -i answered no) */
  atomic_uint_least64_t bytes[LADDER_STEPS];  /* moved by each step,
                                                 counted as they move */
  atomic_uint_least64_t holes;        /* bytes left as holes, not written */
  atomic_uint_least64_t skipped_bytes;  /* the sizes of the files skipped */
  atomic_uint_least64_t origin_files;   /* cloned from --clone-dest */
  atomic_uint_least64_t origin_bytes;   /* their sizes */
  struct timespec start;              /* CLOCK_MONOTONIC, at the start */

  /* --progress: what the scan beside the copy found so far (scan.c), and
     whether it is complete.  */
  atomic_uint_least64_t total_files, total_bytes;
  atomic_bool scanned;

  /* --dedupe (the counts above stay 0): pairs done, bytes compared in
     user space, bytes shared by FIDEDUPERANGE, as the pairs go.  */
  bool dedupe;
  atomic_uint_least64_t pairs, compared, deduped;

  bool clone_dest;                    /* --clone-dest: its counts shown */
};

/* Add N to the count *C of STATS, if STATS is not null.  Relaxed: the
   counts order nothing, they are only read.  */
#define STATS_ADD(stats, c, n) \
  ((stats) ? (void) atomic_fetch_add_explicit (&(stats)->c, (n), \
                                               memory_order_relaxed) \
   : (void) 0)

/* Count C of STATS, read once.  */
#define STATS_GET(stats, c) \
  ((uintmax_t) atomic_load_explicit (&(stats)->c, memory_order_relaxed))

/* The bytes STATS counts as moved, by all steps.  */
static inline uintmax_t
stats_moved (struct copy_stats *stats)
{
  uintmax_t total = 0;
  for (int i = 0; i < LADDER_STEPS; i++)
    total += STATS_GET (stats, bytes[i]);
  return total;
}

/* The milliseconds since START, on CLOCK_MONOTONIC.  */
static inline uintmax_t
ms_since (struct timespec start)
{
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  return ((now.tv_sec - start.tv_sec) * 1000
          + (now.tv_nsec - start.tv_nsec) / 1000000);
}

/* What became of one pair; the exit status follows cmp (0, 1, 2).  */
enum pair_outcome
{
  PAIR_DEDUPED,      /* DST now shares SRC's extents */
  PAIR_SHARED,       /* it already did: no ioctl was needed */
  PAIR_DIFFER,       /* the contents or sizes differ: nothing shared */
  PAIR_SKIPPED,      /* nothing to do: same file, or both empty */
  PAIR_FAILED        /* an error, reported on stderr */
};

struct dedupe_stats
{
  uintmax_t examined, deduped, shared, differing, skipped, failed;
  uintmax_t bytes;   /* bytes_deduped summed: not space freed */
};

#endif
