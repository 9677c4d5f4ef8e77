/* reopen.h -- open the file behind a descriptor again.  */
#ifndef FCOPY_REOPEN_H
#define FCOPY_REOPEN_H

#include <stdio.h>
#include <sys/stat.h>

#include "intprops.h"

/* "/proc/self/fd/N": a name for the file behind descriptor N.  */
struct proc_fd_name
{
  char s[sizeof "/proc/self/fd/" + INT_STRLEN_BOUND (int)];
};

static inline char const *
proc_fd_name (struct proc_fd_name *buf, int fd)
{
  sprintf (buf->s, "/proc/self/fd/%d", fd);
  return buf->s;
}

/* What reopen returns when NAME no longer leads to the file.  */
enum { REOPEN_REPLACED = -2 };

int reopen (int fd, char const *name, struct stat const *st, int flags);

#endif
