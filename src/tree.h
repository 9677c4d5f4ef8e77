/* tree.h -- copy directories, links and special files (-r, -P, -a).  */

#ifndef FCOPY_TREE_H
#define FCOPY_TREE_H

#include <stdbool.h>
#include "hash.h"
#include "options.h"

/* What lasts across operands: the copies of files with several names,
   so that --preserve=links links them again.  */
struct tree_copy
{
  struct fcopy_options const *opts;
  Hash_table *links;
};

void tree_init (struct tree_copy *t, struct fcopy_options const *opts);
void tree_free (struct tree_copy *t);

/* Copy SRC_NAME to DST_NAME without following links that OPTS says not
   to follow, recursing into directories with -r.  Report failures; return
   false if any.  */
bool copy_tree (struct tree_copy *t, char const *src_name,
                char const *dst_name);

#endif
