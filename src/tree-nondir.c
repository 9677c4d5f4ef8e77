/* tree-nondir.c -- what a tree walk copies that is not a directory:
   regular files (through copy-file.c), symbolic links copied as links,
   FIFOs and device nodes made anew, hard links to an earlier copy
   (--preserve=links), and links instead of copies (-l, -s).  */

#include <config.h>
#include "tree-walk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "copy-file.h"
#include "dest.h"
#include "error.h"
#include "i18n.h"
#include "link-file.h"
#include "metadata.h"
#include "quote-name.h"
#include "report.h"
#include "xalloc.h"

/* Give DST, made from ENT, its metadata by name (no descriptor).  */
static bool
metadata_by_name (struct walk const *w, FTSENT const *ent,
                  struct dst_path const *dst, mode_t created_mode)
{
  struct meta_job m = { -1, -1, ent->fts_path, *dst, ent->fts_statp,
                        true, created_mode, PLAIN_ASK };
  return copy_metadata (&m, w->t->opts);
}

/* Make room for a new link, FIFO or device node at DST: dest.c removes
   what is there where cp does (-P; not -L, nor under --attributes-only:
   then making it fails, "File exists").  Return false if DST is to stay,
   with *OK.  */
static bool
clear_dest (struct walk const *w, FTSENT const *ent,
            struct dst_path const *dst, bool *ok)
{
  struct fcopy_options const *opts = w->t->opts;
  struct dest d = { .path = *dst };
  decide_dest (&d, ent->fts_path, ent->fts_statp, 0, &w->t->mem.dest, opts);
  enum dest_action a = act_on_dest (&d, ent->fts_path, &w->t->mem.dest, opts);
  bool make = dest_has_room (a);
  *ok = a != DEST_FAILED;
  if (make && opts->verbose)
    report_verbose (ent->fts_path, d.path.name, d.backup);
  dest_free (&d);
  return make;
}

static bool
copy_symlink (struct walk const *w, FTSENT const *ent,
              struct dst_path const *dst)
{
  /* st_size is the target's length; one more byte shows truncation.  */
  size_t size = ent->fts_statp->st_size + 1;
  char *target = xmalloc (size);
  ssize_t len = readlink (ent->fts_accpath, target, size);
  bool ok = false;
  if (len < 0 || (size_t) len == size)
    error (0, len < 0 ? errno : ENAMETOOLONG,
           _("cannot read symbolic link %s"), quoteaf (ent->fts_path));
  else
    {
      target[len] = '\0';
      if (clear_dest (w, ent, dst, &ok))
        {
          ok = symlinkat (target, dst->dirfd, dst->rel) == 0;
          if (!ok)
            error (0, errno, _("cannot create symbolic link %s"),
                   quoteaf (dst->name));
          else
            {
              remember_dest (&w->t->mem.dest, dst);
              STATS_ADD (w->t->mem.stats, links, 1);
              ok = metadata_by_name (w, ent, dst, 0);
            }
        }
    }
  free (target);
  return ok;
}

/* FIFOs, sockets and device nodes are made anew, not read.  */
static bool
copy_special (struct walk const *w, FTSENT const *ent,
              struct dst_path const *dst)
{
  struct stat const *st = ent->fts_statp;
  mode_t mode = creation_mode (st, w->t->opts);
  bool ok;
  if (!clear_dest (w, ent, dst, &ok))
    return ok;
  if (mknodat (dst->dirfd, dst->rel, (st->st_mode & S_IFMT) | mode,
               st->st_rdev) != 0)
    {
      error (0, errno, S_ISFIFO (st->st_mode) ? _("cannot create fifo %s")
             : _("cannot create special file %s"), quoteaf (dst->name));
      return false;
    }
  remember_dest (&w->t->mem.dest, dst);
  STATS_ADD (w->t->mem.stats, specials, 1);
  return metadata_by_name (w, ent, dst, mode);
}

/* Whether ENT's copy may have to be one file with another copy: with
   --preserve=links, a file with other names, or (as cp) any file reached
   through a symbolic link followed, which other links may reach too.  */
static bool
may_share (struct walk const *w, FTSENT const *ent)
{
  enum dereference deref = w->t->opts->dereference;
  return (w->t->opts->preserve_links
          && (1 < ent->fts_statp->st_nlink || deref == DEREF_ALWAYS
              || (deref == DEREF_COMMAND_LINE
                  && ent->fts_level == FTS_ROOTLEVEL)));
}

/* With --preserve=links, make DST a link to the copy already made of
   ENT's file and return true with *OK set; else return false.  As cp, a
   file left there after the checks is replaced, and -v says "removed"
   after the copy's line.  */
static bool
link_to_earlier (struct walk const *w, FTSENT const *ent,
                 struct dst_path const *dst, bool *ok)
{
  char const *first;
  if (!may_share (w, ent)
      || !(first = inode_set_find (w->t->links, ent->fts_statp)))
    return false;
  struct fcopy_options const *opts = w->t->opts;
  struct dest d = { .path = *dst };
  decide_dest (&d, ent->fts_path, ent->fts_statp, 0, &w->t->mem.dest, opts);
  enum dest_action a = act_on_dest (&d, ent->fts_path, &w->t->mem.dest, opts);
  *ok = a != DEST_FAILED;
  if (dest_has_room (a))
    {
      if (opts->verbose)
        report_verbose (ent->fts_path, d.path.name, d.backup);
      *ok = link_to_copy (dst, first, a == DEST_WRITE_OVER, opts);
      if (*ok)
        STATS_ADD (w->t->mem.stats, links, 1);
    }
  dest_free (&d);
  return true;
}

/* FTS_NOSTAT: fts reads a non-directory's type from its directory
   entry (d_type) and does not stat it.  A regular file the walk would
   copy is opened and fstat'd: two calls, where fts's lstat and then the
   copy's open and fstat made three, and the status is the open file's,
   which the copy then reads.  Not with -u, which mostly leaves a file
   alone after a look at both ends: a name's stat is one call.  Anything
   else is stat'd by name as fts would have, and so is a file that
   cannot be opened, which is then reported (*SRC_FD -1, *OPEN_ERRNO)
   only if it is to be copied.  Fill ENT's fts_statp; return false after
   a message if there is no status.  */
static bool
examine_entry (struct walk const *w, FTSENT *ent, int *src_fd,
               int *open_errno)
{
  struct fcopy_options const *opts = w->t->opts;
  bool follow = opts->dereference == DEREF_ALWAYS;
  *src_fd = -1;
  *open_errno = 0;
  if (S_ISREG (ent->fts_statp->st_mode) && opts->link == LINK_NONE
      && opts->update == UPDATE_ALL)
    {
      *src_fd = open_and_stat (ent->fts_accpath, follow ? 0 : O_NOFOLLOW,
                               ent->fts_statp);
      if (0 <= *src_fd)
        return true;
      /* Out of descriptors, which --jobs's queue may hold many of: not
         this file's fault; the copy opens it by name when its turn
         comes.  */
      if (errno != EMFILE && errno != ENFILE)
        *open_errno = errno;
    }
  if (fstatat (AT_FDCWD, ent->fts_accpath, ent->fts_statp,
               follow ? 0 : AT_SYMLINK_NOFOLLOW) == 0)
    return true;
  error (0, errno, _("cannot stat %s"), quoteaf (ent->fts_path));
  return false;
}

/* Whether ENT, a regular file, may be copied by a worker of --jobs
   while the walk goes on, rather than by the walk now.  Not so:
   - an operand: it has no directory of the walk to be held by, and the
     walk of an operand ends with its files anyway;
   - a FIFO or a device read as a file (--copy-contents, or without -r):
     reading it may wait for a writer that waits for the files before it
     to be read, in the walk's order, as cp reads them;
   - a file whose copy a later name of it is to be linked to
     (--preserve=links): the link needs the copy complete, and the set of
     first copies is the walk's;
   - with -u, a file with several names: dest.c then remembers its copy
     in the walk's set too, to link its other names to.
   -i runs no workers at all (cli.c): its prompts come in the walk's
   order.  */
static bool
may_copy_later (struct walk *w, FTSENT const *ent)
{
  struct stat const *st = ent->fts_statp;
  return (ent->fts_level != FTS_ROOTLEVEL
          && S_ISREG (st->st_mode) && !may_share (w, ent)
          && !(w->t->opts->update == UPDATE_OLDER && 1 < st->st_nlink)
          && walk_has_workers (w, ent));
}

/* Copy ENT, a regular file (or a file read as one), open as SRC_FD if
   the walk opened it (else OPEN_ERRNO says why not, or is 0), to DST:
   now, or later by a worker.  */
static bool
copy_regular (struct walk *w, FTSENT *ent, int src_fd, int open_errno,
              struct dst_path const *dst)
{
  struct fcopy_options const *opts = w->t->opts;
  if (open_errno)
    {
      report_unopenable (ent->fts_path, ent->fts_statp, open_errno,
                         opts->verbose && !opts->debug ? dst->name : NULL);
      return false;
    }
  if (src_fd < 0)
    return copy_file (ent->fts_path, dst, opts, &w->t->mem);
  if (!may_copy_later (w, ent))
    return copy_open_file (ent->fts_path, src_fd, ent->fts_statp, dst, opts,
                           &w->t->mem);
  copy_file_later (w, ent, src_fd, dst);
  return true;
}

/* Remember that DST_NAME is the copy of ENT's file.  */
static void
remember_link (struct walk const *w, FTSENT const *ent, char const *dst_name)
{
  if (may_share (w, ent))
    inode_set_add (w->t->links, ent->fts_statp, dst_name);
}

bool
copy_nondir (struct walk *w, FTSENT *ent, struct dst_path const *dst)
{
  int src_fd = -1, open_errno = 0;
  if (ent->fts_info == FTS_NSOK
      && !examine_entry (w, ent, &src_fd, &open_errno))
    return false;
  bool ok;
  struct fcopy_options const *opts = w->t->opts;
  mode_t type = ent->fts_statp->st_mode & S_IFMT;
  /* Without -r, or with --copy-contents, cp reads a FIFO or device like
     a file.  */
  if ((!opts->recursive || opts->copy_contents) && type != S_IFLNK)
    type = S_IFREG;
  bool linked = link_to_earlier (w, ent, dst, &ok);
  if (!linked && opts->link != LINK_NONE)
    {
      ok = link_file (ent->fts_path, ent->fts_statp, dst, opts, &w->t->mem);
      linked = true;
    }
  /* Only the copy of a regular file reads the source the walk opened.  */
  if (0 <= src_fd && (linked || type != S_IFREG))
    close (src_fd);
  if (linked)
    return ok;
  if (type == S_IFREG)
    ok = copy_regular (w, ent, src_fd, open_errno, dst);
  else
    ok = (type == S_IFLNK ? copy_symlink : copy_special) (w, ent, dst);
  if (ok)
    remember_link (w, ent, dst->name);
  return ok;
}
