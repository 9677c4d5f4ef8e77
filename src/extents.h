/* extents.h -- compare two files' extent maps.  */

#ifndef FCOPY_EXTENTS_H
#define FCOPY_EXTENTS_H

#include <stdbool.h>

/* Whether every byte of SRC_FD's file sits at the same physical address
   as the same byte of DST_FD's file, i.e. the two already share all
   their data.  False when it cannot be told (no FIEMAP, inline data).  */
bool extents_shared (int src_fd, int dst_fd);

/* What FIEMAP proves of a copy, for --debug.  */
enum share_fact
{
  SHARE_UNKNOWN,                /* no FIEMAP, or not asked */
  SHARE_NO,                     /* some byte of DST has its own block */
  SHARE_YES                     /* every byte shares SRC's block */
};

enum share_fact extents_share_fact (int src_fd, int dst_fd);

#endif
