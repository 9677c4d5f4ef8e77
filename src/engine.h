/* engine.h -- move the bytes of one file, nothing else.

   The caller opens both files and reports errors (it knows the names);
   the engine climbs the ladder of design §4: clone, copy_file_range,
   splice, read/write, and keeps holes as §5 says.  */

#ifndef FCOPY_ENGINE_H
#define FCOPY_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include "extents.h"
#include "options.h"
#include "stats.h"
#include "verify.h"

/* What the clone step learned about a pair of filesystems, kept across
   files: a source device whose files a destination device could not
   clone (EOPNOTSUPP, EXDEV...).  */
struct clone_memo
{
  bool known;
  dev_t src_dev, dst_dev;
};

struct copy_job
{
  int src_fd, dst_fd;
  struct stat const *src_st;   /* from the caller's fstat, not taken again */
  bool dst_new;                /* the caller made dst for this copy; else
                                  it was opened as engine_truncates says */
  struct clone_memo *clone_memo;  /* or null */
  dev_t dst_dev;               /* the destination's device, with CLONE_MEMO */
  struct copy_stats *stats;    /* or null: counts the bytes as they move */
  bool has_origin;             /* --clone-dest found a file to clone */
  int origin_fd;               /* it, tried before the source's ladder */

  /* Range mode: copy LEN bytes from SRC_OFF to DST_OFF, leaving the rest
     of the destination as it is; holes are not looked for.  */
  bool range;
  off_t src_off, dst_off, len;
};

/* What became of one step: the answer of one try of it, and what the
   report keeps of the last try.  */
enum step_state
{
  STEP_NOT_TRIED,              /* not reached: an earlier step did the work */
  STEP_AVOIDED,                /* ruled out for this file by an option or
                                  by the kind of file */
  STEP_NEVER,                  /* the clone, ruled out by --reflink=never
                                  (cp's --debug says "reflink: no") */
  STEP_DONE,
  STEP_UNSUPPORTED,            /* fell to the next step, nothing moved */
  STEP_NO_DATA,                /* copy_file_range gave nothing where data
                                  was claimed (/proc): read/write's turn */
  STEP_FAILED
};

enum hole_method
{
  HOLES_NONE,                  /* every byte copied as data */
  HOLES_SEEK,                  /* source holes found with SEEK_DATA/SEEK_HOLE */
  HOLES_ZEROS,                 /* runs of zero blocks punched */
  HOLES_SEEK_ZEROS             /* both */
};

/* Which name an error belongs to, so the caller can word it as cp does.  */
enum copy_failure
{
  FAILED_NONE,
  FAILED_CLONE,                /* "failed to clone DST from SRC" */
  FAILED_COPY,                 /* "error copying SRC to DST" */
  FAILED_READ,                 /* "error reading SRC" */
  FAILED_WRITE,                /* "error writing DST" */
  FAILED_EXTEND                /* "failed to extend DST" */
};

/* What became of the clone from JOB's origin (--clone-dest).  */
enum origin_use
{
  ORIGIN_NONE,                 /* none, or not tried */
  ORIGIN_CLONED,               /* the data is the origin's extents */
  ORIGIN_UNSUPPORTED,          /* the filesystems cannot (ORIGIN_ERRNO):
                                  the source was copied */
  ORIGIN_FAILED                /* the clone failed, and the copy with it
                                  (--reflink=always: also where the
                                  filesystems cannot clone) */
};

/* What the ladder did, for --debug and for the caller's error message.
   The engine writes it and never reads it back.  */
struct copy_report
{
  enum step_state step[LADDER_STEPS];
  enum hole_method holes;
  enum copy_failure failure;
  enum share_fact shared;       /* filled for --debug by the caller */
  uintmax_t bytes[LADDER_STEPS];  /* moved by each step */
  uintmax_t bytes_in_holes;     /* left as holes */
  enum origin_use origin;
  int origin_errno;
  char const *cloned_from;      /* the origin's name, by the caller */
  enum verify_outcome verified; /* --verify, by the caller */
};

/* Whether an existing destination is to be opened with O_TRUNC for a
   copy of its whole data under OPTS (RANGE: range mode).  Not under
   --reflink=always: a clone that cannot be made must leave the file as
   it was, so the engine empties it only once it knows the clone works.
   Not in range mode, which keeps the bytes around the range.  */
bool engine_truncates (struct fcopy_options const *opts, bool range);

/* Whether the copy that failed as REPORT says wrote nothing at all to
   its destination: a clone failed.  A destination the caller made for
   it is then to be removed; one that was there is as it was.  */
bool engine_wrote_nothing (struct copy_report const *report);

/* Copy JOB's data under OPTS, filling REPORT: by a clone of JOB's
   origin if it has one and the filesystems can, else from the source.
   Under --reflink=always a clone that cannot be made fails the copy.
   On failure return false with errno set and REPORT->failure saying
   which side failed.  */
bool copy_data (struct copy_job const *job, struct fcopy_options const *opts,
                struct copy_report *report);

#endif
