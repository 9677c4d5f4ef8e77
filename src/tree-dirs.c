/* tree-dirs.c -- a directory's metadata, once everything in it is done:
   set by the walk as it leaves the directory, or with --jobs by the
   thread that finished the last file copied into it (tree-jobs.c).  */

#include <config.h>
#include "tree-walk.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "atomic.h"
#include "error.h"
#include "i18n.h"
#include "metadata.h"
#include "quote-name.h"

bool
set_dir_metadata (struct fcopy_options const *opts, struct left_dir const *d)
{
  bool created = d->made;
  struct dst_path const *dst = &d->dst;
  if (!created && !opts->preserve_mode && !opts->preserve_timestamps
      && !opts->preserve_ownership && !opts->preserve_xattr && !opts->fsync)
    {
      close (d->fd);
      return true;
    }
  /* The directory filled, through the descriptor held since, not the
     name, which may lead elsewhere by now; one that may be read.  */
  int dst_fd = d->fd;
  if (d->path_only)
    {
      dst_fd = openat (d->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      close (d->fd);
    }
  int src_fd = -1;
  bool ok = 0 <= dst_fd;
  if (!ok)
    error (0, errno, _("cannot open directory %s"), quoteaf (dst->name));
  else
    {
      struct meta_job m = { -1, dst_fd, d->src_path, *dst, d->st,
                            created, d->made_mode, PLAIN_ASK };
      m.plain = plain_copy (&m, opts) ? PLAIN_YES : PLAIN_NO;
      /* Read for its extended attributes and ACLs, if it has any.  A
         source directory that cannot be read (FTS_DNR) still gives its
         copy its attributes, by name (but its extended attributes).  */
      if (m.plain == PLAIN_NO)
        m.src_fd = src_fd = open (d->src_acc,
                                  O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      ok = copy_metadata (&m, opts);
      /* --fsync: each directory once, after its last change; the
         operand's also in its parent.  */
      if (opts->fsync && fsync (dst_fd) != 0)
        {
          error (0, errno, _("failed to sync %s"), quoteaf (dst->name));
          ok = false;
        }
      if (opts->fsync && created && d->root)
        ok &= sync_parent (dst->dirfd, dst->rel, dst->name);
    }
  if (0 <= src_fd)
    close (src_fd);
  if (0 <= dst_fd)
    close (dst_fd);
  return ok;
}
