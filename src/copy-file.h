/* copy-file.h -- copy one non-directory operand.  */

#ifndef FCOPY_COPY_FILE_H
#define FCOPY_COPY_FILE_H

#include <stdbool.h>
#include <sys/stat.h>
#include "dest.h"
#include "options.h"

/* Copy SRC_NAME to DST under OPTS.  Report any failure once, on
   stderr, and return false.  MEM, if not null, holds the files made so
   far (never overwritten; the file made is added) and -u's copies.  */
bool copy_file (char const *src_name, struct dst_path const *dst,
                struct fcopy_options const *opts,
                struct dest_memory const *mem);

/* copy_file of SRC_NAME, open read-only (and O_NONBLOCK) as SRC_FD,
   which SRC_ST is the fstat of.  Close SRC_FD.  */
bool copy_open_file (char const *src_name, int src_fd, struct stat *src_st,
                     struct dst_path const *dst,
                     struct fcopy_options const *opts,
                     struct dest_memory const *mem);

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
