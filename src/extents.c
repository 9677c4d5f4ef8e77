/* extents.c -- do two files already share all their extents?  (FIEMAP)

   The FIEMAP "shared" flag alone is no proof: it says an extent is shared
   with some file, not with this source.  Two files share their data when
   every byte maps to the same physical address in both, so the maps are
   compared address by address (design §7).  */

#include <config.h>
#include "extents.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>

#include "xalloc.h"

/* One run of bytes that are contiguous both in the file and on disk.  */
struct run
{
  uint64_t logical, physical, length;
};

struct extent_map
{
  struct run *run;
  size_t n, alloc;
};

/* Extents per FIEMAP call: large enough that most files take one.  */
enum { EXTENTS_PER_CALL = 256 };

/* Flags under which fe_physical is no address another file could share:
   data not yet on disk, inline in metadata, or of unknown place.  For an
   encoded (btrfs: compressed) extent it is the start of the whole extent,
   whichever part of it a file uses, so two files using different parts
   would look alike.  */
enum
{
  UNSHAREABLE = (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC
                 | FIEMAP_EXTENT_ENCODED
                 | FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_NOT_ALIGNED
                 | FIEMAP_EXTENT_DATA_TAIL | FIEMAP_EXTENT_UNWRITTEN)
};

/* Append an extent to MAP, merging it with the last run when it
   continues that run both logically and physically: filesystems split
   extents differently in two files that share the same blocks.  */
static void
add_run (struct extent_map *map, struct fiemap_extent const *fe)
{
  struct run *last = map->n ? &map->run[map->n - 1] : NULL;
  if (last && last->logical + last->length == fe->fe_logical
      && last->physical + last->length == fe->fe_physical)
    {
      last->length += fe->fe_length;
      return;
    }
  if (map->n == map->alloc)
    map->run = x2nrealloc (map->run, &map->alloc, sizeof *map->run);
  map->run[map->n++] = (struct run) { fe->fe_logical, fe->fe_physical,
                                      fe->fe_length };
}

/* Read FD's extent map into MAP.  Return false if it cannot be had or
   has an extent that cannot be shared; with NEED_SHARED, also if an
   extent is not flagged shared (then it is shared with nobody).  */
static bool
read_map (int fd, bool need_shared, struct extent_map *map)
{
  size_t size = sizeof (struct fiemap)
                + EXTENTS_PER_CALL * sizeof (struct fiemap_extent);
  struct fiemap *fm = xzalloc (size);
  uint64_t start = 0;
  bool ok = true, last = false;
  /* FIEMAP_FLAG_SYNC: delayed-allocation data gets its real address.  */
  uint32_t flags = FIEMAP_FLAG_SYNC;

  while (ok && !last)
    {
      memset (fm, 0, size);
      fm->fm_start = start;
      fm->fm_length = FIEMAP_MAX_OFFSET - start;
      fm->fm_flags = flags;
      fm->fm_extent_count = EXTENTS_PER_CALL;
      if (ioctl (fd, FS_IOC_FIEMAP, fm) != 0)
        ok = false;             /* a partial map proves nothing */
      if (!ok || fm->fm_mapped_extents == 0)
        break;
      flags = 0;
      for (uint32_t i = 0; ok && i < fm->fm_mapped_extents; i++)
        {
          struct fiemap_extent const *fe = &fm->fm_extents[i];
          ok = (!(fe->fe_flags & UNSHAREABLE)
                && (!need_shared || (fe->fe_flags & FIEMAP_EXTENT_SHARED)));
          add_run (map, fe);
          last = fe->fe_flags & FIEMAP_EXTENT_LAST;
          start = fe->fe_logical + fe->fe_length;
        }
    }
  free (fm);
  return ok && map->n != 0;
}

bool
extents_shared (int src_fd, int dst_fd)
{
  struct extent_map src = { 0 }, dst = { 0 };
  /* An extent of SRC that is shared with nobody is not shared with DST:
     then DST's map need not be read at all.  */
  bool same = (read_map (src_fd, true, &src) && read_map (dst_fd, true, &dst)
               && src.n == dst.n
               && memcmp (src.run, dst.run, src.n * sizeof *src.run) == 0);
  free (src.run);
  free (dst.run);
  return same;
}

enum share_fact
extents_share_fact (int src_fd, int dst_fd)
{
  if (extents_shared (src_fd, dst_fd))
    return SHARE_YES;
  /* Not shared is proven only by a map of DST whose every extent has
     an address another file could share: not by data inline in the
     metadata (btrfs keeps small files so and clones them by copying),
     nor where FIEMAP is missing (tmpfs, Linux 6.1).  */
  struct extent_map dst = { 0 };
  bool mapped = read_map (dst_fd, false, &dst);
  free (dst.run);
  return mapped ? SHARE_NO : SHARE_UNKNOWN;
}
