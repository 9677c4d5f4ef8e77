/* copy-file.h -- copy one non-directory operand.  */

#ifndef FCOPY_COPY_FILE_H
#define FCOPY_COPY_FILE_H

#include <stdbool.h>
#include <sys/stat.h>
#include "clone-dest.h"
#include "dest.h"
#include "engine.h"
#include "options.h"

/* What the copies of a run remember across files: the destination
   rules' memory (dest.c) and the clone step's (engine.c), side by side
   so that neither layer sees the other's; and the run's counts.  */
struct copy_memory
{
  struct dest_memory dest;
  struct clone_memo *clone;    /* or null: FICLONE is tried each time */
  struct copy_stats *stats;    /* or null: what was copied, counted */
  struct clone_dests *origins; /* or null: no --clone-dest */
};

/* Copy SRC_NAME to DST under OPTS.  Report any failure once, on
   stderr, and return false.  MEM holds the files made so far (never
   overwritten; the file made is added), -u's copies and the clone memo.  */
bool copy_file (char const *src_name, struct dst_path const *dst,
                struct fcopy_options const *opts,
                struct copy_memory const *mem);

/* copy_file of SRC_NAME, open read-only (and O_NONBLOCK) as SRC_FD,
   which SRC_ST is the fstat of.  Close SRC_FD.  */
bool copy_open_file (char const *src_name, int src_fd, struct stat *src_st,
                     struct dst_path const *dst,
                     struct fcopy_options const *opts,
                     struct copy_memory const *mem);

/* What copy_if_absent did.  */
enum absent_copy
{
  ABSENT_COPIED,                /* made DST, copied: all done */
  ABSENT_FAILED,                /* failed, said why: all done */
  ABSENT_LOOK                   /* SRC is open, DST untouched: look */
};

/* copy_file of SRC_NAME to DST, an operand no one looked at, guessing
   that nothing is there: if SRC_NAME is a regular file, make DST with
   O_EXCL and copy into it, as copy_file would have after a stat of DST
   found nothing (a call saved).  ABSENT_LOOK if SRC_NAME is something
   else, or if something is at DST (it may be a directory to copy into):
   then *SRC_FD is SRC_NAME open, *SRC_ST its status, for copy_open_file
   once DST is looked at.  Not for -v, whose line comes before the
   source is opened, and names the destination.  */
enum absent_copy copy_if_absent (char const *src_name,
                                 struct dst_path const *dst,
                                 struct fcopy_options const *opts,
                                 struct copy_memory const *mem, int *src_fd,
                                 struct stat *src_st);

/* Open NAME read-only, O_NONBLOCK (a FIFO must not block the open) and
   FLAGS (O_NOFOLLOW), and fstat it into *ST.  Return the descriptor, or
   -1 with errno set and nothing said.  */
int open_and_stat (char const *name, int flags, struct stat *st);

/* Say that SRC_NAME, which is there (ST), could not be opened
   (OPEN_ERRNO), after -v's line for a copy to VERBOSE_DST if not null,
   as cp does.  */
void report_unopenable (char const *src_name, struct stat const *st,
                        int open_errno, char const *verbose_dst);

#endif
