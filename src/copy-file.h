/* copy-file.h -- copy one non-directory operand.  */

#ifndef FCOPY_COPY_FILE_H
#define FCOPY_COPY_FILE_H

#include <stdbool.h>
#include <sys/stat.h>
#include "inode-set.h"
#include "options.h"

/* Copy SRC_NAME to DST_NAME under OPTS.  Report any failure once, on
   stderr, and return false.  If CREATED is not null, refuse to overwrite
   a file in it, and add the file made to it.  */
bool copy_file (char const *src_name, char const *dst_name,
                struct fcopy_options const *opts,
                struct inode_set *created);

/* Open SRC_NAME read-only and fstat it into *ST; FIFOs do not block.
   Report a failure (as cp words it) and return -1.  */
int open_source (char const *src_name, struct stat *st);

#endif
