/* same-file.c -- whether a source and the destination it would be
   copied onto may be "the same file".

   cp's rule (coreutils 9.1, copy.c, same_file_ok), without mv's part:
   one file can be reached by two names through hard links and symbolic
   links, and copying it onto itself would truncate the source before it
   is read.  It is fine when the destination is removed before it is
   written (--remove-destination, a backup, a new symbolic link) and the
   source survives that; not when the two are one directory entry.  */

#include <config.h>
#include "same-file.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "same.h"
#include "same-inode.h"

/* Both were copied as links (-P): SRC and DST are symbolic links.  Fine
   unless they are one entry; two hard links of one symbolic link are
   already the same (*DONE) unless a backup is asked for.  */
static bool
both_links_ok (char const *src_name, struct dst_path const *dst, bool same,
               struct fcopy_options const *opts, bool *done)
{
  if (same_nameat (AT_FDCWD, src_name, dst->dirfd, dst->rel))
    return false;
  if (opts->backup == no_backups && same)
    *done = true;
  return true;
}

/* -P: whether what SRC_ST and DST_ST point to is one file; with -l that
   is a link already there (*DONE, unless it replaces a symbolic link).  */
static bool
targets_ok (char const *src_name, struct stat const *src_st,
            struct dst_path const *dst, struct stat const *dst_st,
            struct fcopy_options const *opts, bool *done)
{
  struct stat s = *src_st, d = *dst_st;
  if ((S_ISLNK (s.st_mode) && stat (src_name, &s) != 0)
      || (S_ISLNK (d.st_mode) && fstatat (dst->dirfd, dst->rel, &d, 0) != 0)
      || !SAME_INODE (s, d))
    return true;
  if (opts->link != LINK_HARD)
    return false;
  *done = !S_ISLNK (dst_st->st_mode);
  return true;
}

/* What is left of the rule once SRC_L and DST_L, the two names' own
   status (not followed where NEVER is, -P), are known, and SAME_LINK says whether they are
   one file.  */
static bool
links_ok (char const *src_name, struct stat const *src_l,
          struct dst_path const *dst, struct stat const *dst_l,
          bool same_link, struct fcopy_options const *opts, bool *done)
{
  bool never = deref_for (opts, dst->operand) == DEREF_NEVER;
  if (opts->backup != no_backups)
    {
      /* The backup keeps the destination's data, but moving aside the
         entry that is the source itself would lose it; and a followed
         source link would dangle once its target is moved aside.  */
      if (same_link)
        return !same_nameat (AT_FDCWD, src_name, dst->dirfd, dst->rel);
      return (never || !S_ISLNK (src_l->st_mode)
              || S_ISLNK (dst_l->st_mode));
    }
  if (opts->remove_destination)
    {
      /* The name is removed first: removing a link loses nothing, but
         of two hard links of the source, only the other remains.  */
      if (S_ISLNK (dst_l->st_mode))
        return true;
      if (same_link && 1 < dst_l->st_nlink
          && !same_nameat (AT_FDCWD, src_name, dst->dirfd, dst->rel))
        return true;
    }
  if (!S_ISLNK (src_l->st_mode) && !S_ISLNK (dst_l->st_mode))
    {
      if (!SAME_INODE (*src_l, *dst_l))
        return true;
      if (opts->link == LINK_HARD)
        {
          *done = true;
          return true;
        }
    }
  /* A symbolic link in the way is made again.  */
  if (opts->link == LINK_SYMBOLIC && S_ISLNK (dst_l->st_mode))
    return true;
  if (never)
    return targets_ok (src_name, src_l, dst, dst_l, opts, done);
  return false;
}

bool
same_file_ok (char const *src_name, struct stat const *src_st,
              struct dst_path const *dst, struct stat const *dst_st,
              struct fcopy_options const *opts, bool *done)
{
  bool same = SAME_INODE (*src_st, *dst_st);
  bool never = deref_for (opts, dst->operand) == DEREF_NEVER;
  *done = false;
  /* -l onto a link of the source: the link is there already.  */
  if (same && opts->link == LINK_HARD)
    {
      *done = true;
      return true;
    }
  if (never)
    {
      if (S_ISLNK (src_st->st_mode) && S_ISLNK (dst_st->st_mode))
        return both_links_ok (src_name, dst, same, opts, done);
      return links_ok (src_name, src_st, dst, dst_st, same, opts, done);
    }
  if (!same)
    return true;
  /* Followed, they are one file: decide on the names' own status.  */
  struct stat src_l, dst_l;
  if (fstatat (dst->dirfd, dst->rel, &dst_l, AT_SYMLINK_NOFOLLOW) != 0
      || lstat (src_name, &src_l) != 0)
    return true;
  /* Two links to one file: fine if the destination link is removed,
     not written through (that would truncate the source).  */
  if (S_ISLNK (src_l.st_mode) && S_ISLNK (dst_l.st_mode)
      && opts->remove_destination)
    return true;
  return links_ok (src_name, &src_l, dst, &dst_l, SAME_INODE (src_l, dst_l),
                   opts, done);
}
