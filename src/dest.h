/* dest.h -- what becomes of a destination that already exists: kept
   (-n, -u, -i), moved aside (-b), removed, or written over.  First
   decided (decide_dest), then done (act_on_dest).  */

#ifndef FCOPY_DEST_H
#define FCOPY_DEST_H

#include <stdbool.h>
#include <sys/stat.h>
#include "dst-path.h"
#include "hash.h"
#include "inode-set.h"
#include "options.h"

/* What is to become of a destination, and then what became of it.
   decide_dest only looks and says which; act_on_dest does it.  */
enum dest_action
{
  DEST_MAKE,              /* nothing is there (or no longer): make it */
  DEST_WRITE_OVER,        /* what is there stays to be written over:
                             open it; --atomic: rename the copy over it,
                             first linking it to BACKUP if that is set */
  DEST_REMOVE_FIRST,      /* remove it, then make it anew; a name gone
                             meanwhile is fine */
  DEST_BACK_UP_FIRST,     /* rename it aside (-b), then make it anew */
  DEST_LINK_TO_COPY,      /* -u keeps it, yet it becomes a hard link to
                             EARLIER, the copy made of its source file */
  DEST_KEEP,              /* leave it as it is; not an error */
  DEST_FAILED,            /* refused or failed, and reported */
  DEST_REMOVE_UNOPENABLE  /* set by the caller, not decided: -f, and what
                             was to be written over cannot be opened:
                             remove it (it must be there), make it anew */
};

/* Whether act_on_dest left A, room for the copy to be made: nothing is
   there, or what is stays to be written over.  */
static inline bool
dest_has_room (enum dest_action a)
{
  return a == DEST_MAKE || a == DEST_WRITE_OVER;
}

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
  enum dest_action action;
  struct stat st;       /* what is there, unless the action is DEST_MAKE
                           from the start */
  char *backup;         /* the name it is moved to (-b), or NULL */
  char *own_name;       /* PATH's name when it had to be worked out */
  char const *earlier;  /* DEST_LINK_TO_COPY: the copy to link to */
};

/* What a run remembers across files; any may be null.  */
struct dest_memory
{
  Hash_table *operands;      /* the operands' destinations made so far
                                (gnulib's file-set: name, device, inode),
                                when there are several operands */
  struct inode_set *copies;  /* -u: the destination of each source file
                                with other names (hard links) */
  bool one_pair;             /* the command line is one SOURCE DEST pair:
                                "cp -fb a a" backs a up */
};

/* Decide, as cp does and in its order, what is to become of D->path
   before a copy of SRC_NAME (status SRC_ST: not a directory, which
   tree.c decides about) is made there under FLAGS:
   -n, --update, "are the same file", -i, a directory in the way, an
   operand's destination made earlier in this run (in MEM, which may be
   null), --backup, --remove-destination.  Nothing is changed on disk:
   set D->action and return it, after a message if DEST_FAILED.  D->path
   may change (cp's backup copy of a source onto itself); dest_free D
   afterwards.  */
enum dest_action decide_dest (struct dest *d, char const *src_name,
                              struct stat const *src_st, int flags,
                              struct dest_memory const *mem,
                              struct fcopy_options const *opts);

/* Carry out D->action (for a copy of SRC_NAME; MEM as above): remove D
   or rename it aside (-v says "removed"), or make it the -u link.  Then
   refuse, as cp, to make the copy through a symbolic link an earlier
   operand made there.  Set D->action to what is left to do, DEST_MAKE,
   DEST_WRITE_OVER, DEST_KEEP or DEST_FAILED (reported), and return it.  */
enum dest_action act_on_dest (struct dest *d, char const *src_name,
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
