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

/* Open SRC_NAME read-only and fstat it into *ST; FIFOs do not block.
   Report a failure (as cp words it) and return -1; if VERBOSE_DST is not
   null, print -v's line for a copy to it first when the source is there
   but cannot be opened.  */
int open_source (char const *src_name, struct stat *st,
                 char const *verbose_dst);

#endif
