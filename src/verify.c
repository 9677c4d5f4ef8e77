/* verify.c -- compare two files' bytes, and verify a copy (design §9).  */

#include <config.h>
#include "verify.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extents.h"
#include "minmax.h"
#include "xalloc.h"

/* Each side is read in pieces of this size: large enough that the
   system calls cost nothing against the reads, small enough for the
   caches.  */
enum { COMPARE_BUF = 256 * 1024 };

/* Read up to LEN bytes of FD at POS into BUF, short only at the end of
   the file.  Return the count, or -1 with errno set.  */
static ssize_t
read_fully (int fd, char *buf, size_t len, off_t pos)
{
  size_t got = 0;
  while (got < len)
    {
      ssize_t n = pread (fd, buf + got, len - got, pos + got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -1;
      if (n == 0)
        break;
      got += n;
    }
  return got;
}

/* The first offset where the N bytes of A and B differ (N if none).  */
static size_t
first_difference (char const *a, char const *b, size_t n)
{
  size_t i = 0;
  while (i < n && a[i] == b[i])
    i++;
  return i;
}

enum compare_outcome
compare_bytes (int a_fd, off_t a_off, int b_fd, off_t b_off, off_t len,
               off_t *at)
{
  char *a = xmalloc (2 * COMPARE_BUF), *b = a + COMPARE_BUF;
  enum compare_outcome r = COMPARE_SAME;
  for (off_t done = 0; len < 0 || done < len; )
    {
      size_t want = len < 0 ? COMPARE_BUF : MIN (COMPARE_BUF, len - done);
      ssize_t na = read_fully (a_fd, a, want, a_off + done);
      if (na < 0)
        {
          r = COMPARE_A_FAILED;
          break;
        }
      ssize_t nb = read_fully (b_fd, b, want, b_off + done);
      if (nb < 0)
        {
          r = COMPARE_B_FAILED;
          break;
        }
      size_t same = first_difference (a, b, MIN (na, nb));
      if (same < MIN (na, nb) || na != nb
          || (len >= 0 && (size_t) na < want))
        {
          *at = done + same;
          r = COMPARE_DIFFERS;
          break;
        }
      if (na == 0)
        break;
      done += na;
    }
  int saved_errno = errno;
  free (a);
  errno = saved_errno;
  return r;
}

enum verify_outcome
verify_copy (int src_fd, off_t src_off, int dst_fd, off_t dst_off,
             off_t len, bool cloned, off_t *at)
{
  if (cloned && len < 0 && extents_shared (src_fd, dst_fd))
    return VERIFIED_EXTENTS;
  /* POSIX_FADV_DONTNEED drops clean pages only (mm/fadvise.c): the data
     must be written first.  On tmpfs, which has no disk, both do
     nothing and the pages are read.  */
  if (fdatasync (dst_fd) != 0)
    return VERIFY_SYNC_FAILED;
  (void) posix_fadvise (dst_fd, 0, 0, POSIX_FADV_DONTNEED);
  switch (compare_bytes (src_fd, src_off, dst_fd, dst_off, len, at))
    {
    case COMPARE_SAME: return VERIFIED_DATA;
    case COMPARE_DIFFERS: return VERIFY_DIFFERS;
    case COMPARE_A_FAILED: return VERIFY_SRC_FAILED;
    default: return VERIFY_DST_FAILED;
    }
}
