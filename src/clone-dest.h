/* clone-dest.h -- --clone-dest=DIR: find the file of an earlier
   snapshot that a destination can be cloned from.  */

#ifndef FCOPY_CLONE_DEST_H
#define FCOPY_CLONE_DEST_H

#include <stdbool.h>
#include <sys/stat.h>
#include "options.h"

struct clone_dests;

/* A file found in one of the directories, for a destination.  */
struct clone_match
{
  size_t dir;                   /* which --clone-dest, in the order given */
  char const *rel;              /* the destination's name under D */
};

/* The --clone-dest directories of OPTS, not opened yet; null if there
   are none.  */
struct clone_dests *clone_dests_new (struct fcopy_options const *opts);
void clone_dests_free (struct clone_dests *cd);

/* The destination operand DST_NAME is about to be copied: the target
   directory the files go in, or (PAIR) the DEST of one SOURCE DEST pair.
   The destination directory D that relative names and DIRs are taken
   from is the target; for a pair, DEST if it is made as a directory,
   else DEST's directory.  The first operand's D holds for the run: every
   operand of one command has the same.  */
void clone_dests_root (struct clone_dests *cd, char const *dst_name,
                       bool pair);

/* Open the file that the first directory holding one at DST_NAME's name
   under D holds there, if it is a regular file that matches the source
   SRC_FD (SRC_ST): the same size, and the same mtime or, with
   --checksum, the same bytes.  Return the descriptor, read-only, and
   fill *M; or -1.  Directories whose files were found not to clone into
   D are not looked in, but under --reflink=always.  Thread-safe.  */
int clone_dests_find (struct clone_dests *cd, char const *dst_name,
                      int src_fd, struct stat const *src_st,
                      struct clone_match *m);

/* The name of M's file, for messages; free it.  */
char *clone_dests_name (struct clone_dests const *cd,
                        struct clone_match const *m);

/* M's file could not be cloned (ERR, an errno of a refusal): where ERR
   says that the filesystems cannot (EXDEV, EOPNOTSUPP...), say once per
   directory that its files are copied from the sources instead, and
   look in it no more; else say so of this one file.  */
void clone_dests_cannot (struct clone_dests *cd, struct clone_match const *m,
                         int err);

#endif
