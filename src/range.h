/* range.h -- arithmetic of the one range that --src-offset,
   --dst-offset and --length give, shared by copies (copy-file.c), which
   copy what the source has of it, and --dedupe (dedupe.c), which
   refuses a range that goes past an end.  */

#ifndef FCOPY_RANGE_H
#define FCOPY_RANGE_H

#include <stdbool.h>
#include <sys/types.h>

/* How many bytes a file of SIZE bytes has from OFFSET on.  */
static inline off_t
range_after (off_t size, off_t offset)
{
  return offset < size ? size - offset : 0;
}

/* Whether the LEN bytes at A and the LEN bytes at B share one: two
   ranges of one file must not, since FICLONERANGE and FIDEDUPERANGE
   refuse it (EINVAL) and a copy would read bytes it already wrote.  */
static inline bool
ranges_overlap (off_t a, off_t b, off_t len)
{
  return a < b + len && b < a + len;
}

#endif
