/* metadata.h -- timestamps, owner, xattrs, mode and ACL of a copy.  */

#ifndef FCOPY_METADATA_H
#define FCOPY_METADATA_H

#include <stdbool.h>
#include <sys/stat.h>
#include "dst-path.h"
#include "options.h"

/* One copied file, both ends open; or, for symbolic links and special
   files, DST_FD -1 and the copy reached by DST (links not followed;
   their xattrs are not copied).  */
struct meta_job
{
  int src_fd, dst_fd;
  char const *src_name;
  struct dst_path dst;
  struct stat const *src_st;
  bool created;      /* the destination is new, made by fcopy */
  mode_t created_mode;  /* its mode then, if created (a directory's: the
                           mode it got, before its owner's bits were
                           added to fill it) */
  enum { PLAIN_ASK, PLAIN_NO, PLAIN_YES } plain;  /* plain_copy's answer,
                           if the caller asked it already */
};

/* The mode to create a new copy of SRC_ST with: the permission bits,
   less what a pending change of owner forbids (the kernel applies the
   umask, or the directory's default ACL).  */
mode_t creation_mode (struct stat const *src_st,
                      struct fcopy_options const *opts);

/* The same for a regular file or directory made at DST.  A plain new
   one (dst-path.h) whose source is already this process's user's and
   group's holds nothing back: no owner change is pending, so no other
   user may open it too early; and a mode that then comes out as the
   source's needs no chmod afterwards.  */
mode_t file_creation_mode (struct stat const *src_st,
                           struct dst_path const *dst,
                           struct fcopy_options const *opts);

/* Whether M's copy is new, made in a directory that handed it nothing
   (dst-path.h), and its source has no ACL (and, if they are to be
   copied, no extended attributes at all): then the copy has no ACL
   either, and its mode is a chmod.  One call to find out instead of
   libattr's and gnulib's five to seven.  A directory is asked by name:
   a plain one need not be opened at all.  */
bool plain_copy (struct meta_job const *m, struct fcopy_options const *opts);

/* A directory just made at DST with MODE, open as FD (O_PATH if
   PATH_ONLY), is to be filled before it gets its metadata: let its owner
   read, write and search it till then.  Say why not, and return false.  */
bool let_owner_fill (int fd, bool path_only, mode_t mode,
                     struct dst_path const *dst);

/* Give M's destination what OPTS preserves of M's source, in the order
   times, owner, xattrs, mode + ACL.  Report each failure once; return
   false if one of them fails the copy (as cp: only those asked for).  */
bool copy_metadata (struct meta_job const *m,
                    struct fcopy_options const *opts);

#endif
