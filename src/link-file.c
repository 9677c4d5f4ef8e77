/* link-file.c -- -l and -s: the destination becomes a link, no data is
   copied and no attribute is changed (a hard link shares the source's;
   a symbolic link's are its own).  */

#include <config.h>
#include "link-file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic.h"
#include "dest.h"
#include "dirname.h"
#include "error.h"
#include "i18n.h"
#include "quote-name.h"
#include "report.h"
#include "same-inode.h"

/* Whether a symbolic link named DST_NAME to the relative name SRC_NAME
   would find it: only if the link is made in the current directory.  */
static bool
relative_link_ok (char const *src_name, char const *dst_name)
{
  if (*src_name == '/')
    return true;
  char *dst_dir = dir_name (dst_name);
  struct stat dot, dir;
  bool ok = (strcmp (dst_dir, ".") == 0 || stat (".", &dot) != 0
             || stat (dst_dir, &dir) != 0 || SAME_INODE (dot, dir));
  free (dst_dir);
  if (!ok)
    error (0, 0, _("%s: can make relative symbolic links only in current "
           "directory"), quotef (dst_name));
  return ok;
}

/* The link to make, in any directory and under any name.  */
struct link_order
{
  char const *src_name;
  bool hard;
  int follow;                   /* AT_SYMLINK_FOLLOW or 0, for linkat */
};

static int
make_entry (int dir_fd, char const *name, void const *arg)
{
  struct link_order const *l = arg;
  return (l->hard ? linkat (AT_FDCWD, l->src_name, dir_fd, name, l->follow)
          : symlinkat (l->src_name, dir_fd, name));
}

/* Make the link; with -f, or -i answered yes, it replaces the name in
   the way by a rename, so that DST is never missing (cp since coreutils
   8.27; before, cp unlinked it first).  */
static bool
make_link (char const *src_name, struct dst_path const *dst,
           struct fcopy_options const *opts)
{
  struct link_order l = { src_name, opts->link == LINK_HARD, 0 };
  /* -L (the default with -l) links to what a symbolic link names, -H
     to what an operand names (cp's should_dereference).  */
  if (deref_for (opts, dst->operand) != DEREF_NEVER)
    l.follow = AT_SYMLINK_FOLLOW;
  bool ok = (make_entry (dst->dirfd, dst->rel, &l) == 0
             || (errno == EEXIST
                 && (opts->force || opts->interactive == I_ASK_USER)
                 && replace_entry (dst, make_entry, &l)));
  if (!ok)
    error (0, errno, l.hard ? _("cannot create hard link %s to %s")
           : _("cannot create symbolic link %s to %s"),
           quoteaf_n (0, dst->name), quoteaf_n (1, src_name));
  return ok;
}

bool
link_file (char const *src_name, struct stat const *src_st,
           struct dst_path const *dst, struct fcopy_options const *opts,
           struct copy_memory const *mem)
{
  struct dest d = { .path = *dst };
  decide_dest (&d, src_name, src_st, 0, &mem->dest, opts);
  enum dest_action a = act_on_dest (&d, src_name, &mem->dest, opts);
  bool ok = a != DEST_FAILED;
  if (dest_has_room (a)
      && (opts->link != LINK_SYMBOLIC
          || (ok = relative_link_ok (src_name, d.path.name))))
    {
      if (opts->verbose)
        report_verbose (src_name, d.path.name, d.backup);
      ok = make_link (src_name, &d.path, opts);
      if (ok)
        {
          remember_dest (&mem->dest, &d.path);
          STATS_ADD (mem->stats, links, 1);
        }
    }
  dest_free (&d);
  return ok;
}
