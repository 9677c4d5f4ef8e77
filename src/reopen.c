/* reopen.c -- open the file behind a descriptor again, with other flags.

   Needed where the first open could not be the one that reads or writes:
   a FIFO opened without blocking must be opened again, blocking, to wait
   for a writer; --dedupe opens a name O_PATH, to see its type without
   opening a device, and reads only a regular file; FIDEDUPERANGE before
   Linux 4.19 wants the destination open for writing.  */

#include <config.h>
#include "reopen.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "same-inode.h"

/* Open the file that FD is open on (or reaches, for an O_PATH FD) again,
   with FLAGS.  ST is its status.  Through /proc/self/fd/FD, which leads
   to that very inode whatever has become of its name; where /proc is not
   mounted, by NAME, and then only if NAME still leads to the same file.
   Return the new descriptor; -1 with errno set if the open failed;
   REOPEN_REPLACED if NAME now leads to another file.  */
int
reopen (int fd, char const *name, struct stat const *st, int flags)
{
  struct proc_fd_name proc;
  int new_fd = open (proc_fd_name (&proc, fd), flags);
  if (0 <= new_fd || errno != ENOENT)
    return new_fd;

  /* No /proc.  */
  new_fd = open (name, flags);
  if (new_fd < 0)
    return -1;
  struct stat new_st;
  if (fstat (new_fd, &new_st) != 0)
    {
      int err = errno;
      close (new_fd);
      errno = err;
      return -1;
    }
  if (!SAME_INODE (*st, new_st))
    {
      close (new_fd);
      return REOPEN_REPLACED;
    }
  return new_fd;
}
