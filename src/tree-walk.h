/* tree-walk.h -- what the parts of a tree copy share: the walk of one
   operand (tree.c) and the copy of what is not a directory in it
   (tree-nondir.c).  */

#ifndef FCOPY_TREE_WALK_H
#define FCOPY_TREE_WALK_H

#include <stdbool.h>
#include <sys/types.h>
#include "dst-path.h"
#include "fts_.h"
#include "tree.h"

/* One walk: an operand SRC copied to DST.  */
struct walk
{
  struct tree_copy *t;
  char const *src_root, *dst_root;  /* the operands as given */
  size_t src_root_len;          /* of the root's fts_path, which fts may
                                   have shortened ("src//" -> "src/") */
  int *dir_fd;                  /* dir_fd[L]: the destination directory of
                                   the directory being copied at level L,
                                   opened O_PATH | O_NOFOLLOW */
  dev_t *dir_dev;                /* dir_dev[L]: its device, if made */
  size_t dir_fd_alloc;
};

/* Copy ENT, which is not a directory, to DST: a regular file, a
   symbolic link, a FIFO or device, or a hard link to an earlier copy
   (--preserve=links), or a link (-l, -s).  */
bool copy_nondir (struct walk const *w, FTSENT const *ent,
                  struct dst_path const *dst);

#endif
