/* tree.h -- copy directories, links and special files (-r, -P, -a).  */

#ifndef FCOPY_TREE_H
#define FCOPY_TREE_H

#include <stdbool.h>
#include "copy-file.h"
#include "dest.h"
#include "engine.h"
#include "inode-set.h"
#include "jobs.h"
#include "options.h"

/* What lasts across operands.  */
struct tree_copy
{
  struct fcopy_options const *opts;
  struct inode_set *links;    /* --preserve=links and -u: first copy of
                                 each file with several names */
  struct clone_memo clone;    /* what FICLONE said in a walk */
  struct copy_memory mem;     /* files made, never to be overwritten;
                                 -u's copies (links again); CLONE */
  struct inode_set *sources;  /* operands seen, to warn of repeats */
  struct job_pool *pool;      /* --jobs: the workers, or null */
  size_t jobs_after;          /* no --jobs=N: files to copy one at a time
                                 before the workers start; 0: never */
};

/* STATS, the run's counts, is added to.  MANY_SOURCES: several operands go into one directory, where one may
   overwrite the copy of another (cp refuses) or repeat it (cp warns). */
void tree_init (struct tree_copy *t, struct fcopy_options const *opts,
                bool many_sources, struct copy_stats *stats);
void tree_free (struct tree_copy *t);

/* The flags of fts_open for a walk by OPTS's rules.  */
int tree_fts_flags (struct fcopy_options const *opts);

/* Copy SRC_NAME to DST (an operand's: its name, and what the plan's
   stat found there, if it took one) without following links that OPTS
   says not to follow, recursing into directories with -r.  NEW_DST:
   DST's directory was just made, so a directory there is not merged with
   but made, as cp (--parents -r src/sub/..: "File exists").  Report
   failures; return false if any.  */
bool copy_tree (struct tree_copy *t, char const *src_name,
                struct dst_path const *dst, bool new_dst);

#endif
