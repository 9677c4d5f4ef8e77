/* pairs.h -- the sources of --dedupe's pairs besides operands.  */

#ifndef FCOPY_PAIRS_H
#define FCOPY_PAIRS_H

#include <stdbool.h>
#include "dedupe.h"

/* Pair each regular file below SRC_DIR with the file of the same
   relative name below DST_DIR.  With -v, name the files that only one
   side has.  Return false if a tree could not be read (reported).  */
bool dedupe_trees (struct deduper *d, char const *src_dir,
                   char const *dst_dir);

/* Deduplicate the pairs (or, with GROUPS, the fdupes-style groups) that
   the file LIST_NAME ("-": stdin) lists.  Return false on a malformed
   list or a read error (reported).  */
bool dedupe_list (struct deduper *d, char const *list_name, bool groups);

#endif
