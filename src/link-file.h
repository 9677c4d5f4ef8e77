/* link-file.h -- -l and -s: make a link where a copy would go.  */

#ifndef FCOPY_LINK_FILE_H
#define FCOPY_LINK_FILE_H

#include <stdbool.h>
#include <sys/stat.h>
#include "copy-file.h"
#include "options.h"

/* Make DST a hard (-l) or symbolic (-s) link to SRC_NAME, whose
   status is SRC_ST, after cp's checks of an existing DST (MEM as
   for copy_file).  Report failures; return false.  */
bool link_file (char const *src_name, struct stat const *src_st,
                struct dst_path const *dst, struct fcopy_options const *opts,
                struct copy_memory const *mem);

#endif
