/* dest.h -- a destination that already exists: keep it (-n, -u, -i),
   move it aside (-b), remove it, or let it be written over.  */

#ifndef FCOPY_DEST_H
#define FCOPY_DEST_H

#include <stdbool.h>
#include <sys/stat.h>
#include "dst-path.h"
#include "hash.h"
#include "inode-set.h"
#include "options.h"

enum dest_verdict
{
  DEST_ABSENT,       /* nothing is there, or no longer: make it anew */
  DEST_EXISTS,       /* a non-directory is there and may be written over */
  DEST_KEEP,         /* leave it as it is; not an error */
  DEST_FAILED        /* reported */
};

/* How the caller will make the destination.  */
enum
{
  DEST_FOLLOW = 1,   /* stat the name, not lstat: data goes through links */
  DEST_SAME_OK = 2,  /* the source may be the destination (apart ranges) */
  DEST_ATOMIC = 4    /* --atomic: the copy will be renamed over it: do not
                        remove it nor back it up now, but name the
                        backup in BACKUP */
};

struct dest
{
  struct dst_path path;
  struct stat st;    /* what is there, unless DEST_ABSENT */
  char *backup;      /* the name it was moved to (-b), or NULL */
  char *own_name;    /* PATH's name when it had to be worked out */
};

struct clone_memo;

/* What a run remembers across files; any may be null.  */
struct dest_memory
{
  Hash_table *operands;      /* the operands' destinations made so far
                                (gnulib's file-set: name, device, inode),
                                when there are several operands */
  struct inode_set *copies;  /* -u: the destination of each source file
                                with other names (hard links) */
  struct clone_memo *clone;  /* the walk's filesystems cannot clone */
  bool one_pair;             /* the command line is one SOURCE DEST pair:
                                "cp -fb a a" backs a up */
};

/* Decide, as cp does and in its order, what becomes of D->path before a
   copy of SRC_NAME (status SRC_ST) is made there under FLAGS: -n,
   --update, "are the same file", -i, a directory in the way, an
   operand's destination made earlier in this run (in MEM, which may be
   null), --backup, --remove-destination, a symbolic link made earlier
   in this run.  D->path may change (cp's backup copy of a
   source onto itself); dest_free D afterwards.  */
enum dest_verdict prepare_dest (struct dest *d, char const *src_name,
                                struct stat const *src_st, int flags,
                                struct dest_memory const *mem,
                                struct fcopy_options const *opts);

void dest_free (struct dest *d);

/* PATH was just made or written: remember it if it is an operand's
   destination (MEM may be null).  */
void remember_dest (struct dest_memory const *mem,
                    struct dst_path const *path);

/* Make DST a hard link to EARLIER, the copy already made of the same
   source file, removing first what is at DST if REPLACE (-v says so).
   Report a failure and return false.  */
bool link_to_copy (struct dst_path const *dst, char const *earlier,
                   bool replace, struct fcopy_options const *opts);

#endif
