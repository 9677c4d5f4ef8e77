/* parents.h -- --parents: DIRECTORY/SOURCE, leading directories made.  */

#ifndef FCOPY_PARENTS_H
#define FCOPY_PARENTS_H

#include <stdbool.h>
#include <stddef.h>
#include "options.h"

/* The leading directories of one destination that need their source's
   attributes once the copy is done.  */
struct parents
{
  char *dst_name;             /* a copy of the destination name */
  size_t src_offset;          /* where the source name starts in it */
  struct parent_dir *dir;
  size_t n_dirs;
  bool made_dir;              /* the directory DST_NAME goes in was made:
                                 DST_NAME cannot be there yet */
};

/* Make the missing leading directories of DST_NAME, whose source name
   starts at SRC_OFFSET, as copies of the source's.  Report failures
   and return false (P is then empty).  */
bool make_parents (struct parents *p, char const *dst_name,
                   size_t src_offset, struct fcopy_options const *opts);

/* After the copy: give the directories in P their attributes, then
   free P.  */
bool finish_parents (struct parents *p, struct fcopy_options const *opts);

#endif
