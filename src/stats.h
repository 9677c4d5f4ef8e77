/* stats.h -- what a run counts, for --stats and the exit status.  */

#ifndef FCOPY_STATS_H
#define FCOPY_STATS_H

#include <stdint.h>

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
