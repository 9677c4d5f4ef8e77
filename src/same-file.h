/* same-file.h -- may a source be copied onto a name of its own file?  */

#ifndef FCOPY_SAME_FILE_H
#define FCOPY_SAME_FILE_H

#include <stdbool.h>
#include <sys/stat.h>
#include "dst-path.h"
#include "options.h"

/* Whether SRC_NAME (status SRC_ST, as the copy sees it) may be copied
   onto DST (status DST_ST) although they may be one file; false means
   cp's "are the same file".  Set *DONE when there is nothing left to
   do: the hard link asked for is there already.  */
bool same_file_ok (char const *src_name, struct stat const *src_st,
                   struct dst_path const *dst, struct stat const *dst_st,
                   struct fcopy_options const *opts, bool *done);

#endif
