/* dst-path.h -- a destination's name: the directory it is made in and
   its name there, and its whole name for messages.

   A tree's destinations are made relative to the descriptor of their
   directory, which was opened without following symbolic links: a link
   swapped into the destination tree while fcopy works is never followed
   to put a file elsewhere (as cp).  Operands are relative to the current
   directory, as the user named them.  */

#ifndef FCOPY_DST_PATH_H
#define FCOPY_DST_PATH_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

struct dst_path
{
  int dirfd;           /* the directory it goes in, or AT_FDCWD */
  char const *rel;     /* its name there */
  char const *name;    /* its whole name */
  bool fresh;          /* DIRFD is a directory this run made: nothing is
                          in it but what the run put there, so REL is
                          not there yet (no need to look) */
  bool plain;          /* FRESH, and a new file there inherits nothing
                          from DIRFD: neither a setgid group nor a
                          default ACL */
  dev_t dev;           /* DIRFD's device, if FRESH */
  bool operand;        /* the destination of an operand, not of a file
                          found in a tree: cp's rules for what this run
                          made apply to these (dest.c) */
  bool missing;        /* stat, following links, just found nothing at
                          NAME (ENOENT): where data would go through a
                          link, there is nothing to look at again */
  struct stat const *followed;  /* or what that stat found there */
};

/* What stat, following links, finds at DST, in *ST: the plan's answer
   if it took one (MISSING, FOLLOWED), else a stat now.  0, or -1 with
   errno set.  */
static inline int
dst_path_stat (struct dst_path const *dst, struct stat *st)
{
  if (dst->missing)
    {
      errno = ENOENT;
      return -1;
    }
  if (dst->followed)
    {
      *st = *dst->followed;
      return 0;
    }
  return fstatat (dst->dirfd, dst->rel, st, 0);
}

/* NAME, relative to the current directory.  */
#define DST_PATH_CWD(name) \
  ((struct dst_path) { AT_FDCWD, (name), (name), false, false, 0, false, \
                       false, NULL })

/* The destination NAME of an operand.  */
#define DST_PATH_OPERAND(name) \
  ((struct dst_path) { AT_FDCWD, (name), (name), false, false, 0, true, \
                       false, NULL })

#endif
