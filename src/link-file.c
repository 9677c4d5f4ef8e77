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

/* Make the link; with -f or -i, one name in the way is removed then.  */
static bool
make_link (char const *src_name, struct dst_path const *dst,
           struct fcopy_options const *opts)
{
  bool hard = opts->link == LINK_HARD;
  /* -L (the default with -l) links to what a symbolic link names, -H
     to what an operand names (cp's should_dereference).  */
  int follow = (deref_for (opts, dst->operand) != DEREF_NEVER
                ? AT_SYMLINK_FOLLOW : 0);
  for (int tries = 0; ; tries++)
    {
      if ((hard ? linkat (AT_FDCWD, src_name, dst->dirfd, dst->rel, follow)
           : symlinkat (src_name, dst->dirfd, dst->rel)) == 0)
        return true;
      /* -f, or -i answered yes: the name in the way goes (cp).  */
      if (errno != EEXIST || tries
          || (!opts->force && opts->interactive != I_ASK_USER)
          || unlinkat (dst->dirfd, dst->rel, 0) != 0)
        break;
    }
  error (0, errno, hard ? _("cannot create hard link %s to %s")
         : _("cannot create symbolic link %s to %s"),
         quoteaf_n (0, dst->name), quoteaf_n (1, src_name));
  return false;
}

bool
link_file (char const *src_name, struct stat const *src_st,
           struct dst_path const *dst, struct fcopy_options const *opts,
           struct dest_memory const *mem)
{
  struct dest d = { .path = *dst };
  decide_dest (&d, src_name, src_st, 0, mem, opts);
  enum dest_action a = act_on_dest (&d, src_name, mem, opts);
  bool ok = a != DEST_FAILED;
  if (dest_has_room (a)
      && (opts->link != LINK_SYMBOLIC
          || (ok = relative_link_ok (src_name, d.path.name))))
    {
      if (opts->verbose)
        report_verbose (src_name, d.path.name, d.backup);
      ok = make_link (src_name, &d.path, opts);
      if (ok)
        remember_dest (mem, &d.path);
    }
  dest_free (&d);
  return ok;
}
