/* parents.c -- --parents: copy a/b/c into DIR as DIR/a/b/c, making DIR/a
   and DIR/a/b when they are missing.

   The directories are made as copies of a and a/b: with their mode (less
   what must wait for the owner), and, after the copy, with what the
   options preserve.  Until then their owner may write and search them,
   so a read-only a/b can still be filled.  As cp does, nothing is done
   to leading directories when the immediate parent already exists.

   Each directory is held by a descriptor opened with O_NOFOLLOW when it
   is made or found, and given its attributes through it: a component
   swapped for a symbolic link while the copy runs cannot lead the chmod
   or chown to a directory elsewhere (cp 9.1 sets them by name).  */

#include <config.h>
#include "parents.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>

#include "dirname.h"
#include "error.h"
#include "i18n.h"
#include "metadata.h"
#include "report.h"
#include "quote-name.h"
#include "xalloc.h"

struct parent_dir
{
  struct stat src_st;         /* the source directory's status */
  int fd;                     /* the copy, opened O_NOFOLLOW */
  size_t end;                 /* its name ends here in dst_name */
  bool made;                  /* fcopy made it */
  mode_t made_mode;           /* with this mode */
};

/* Add P->dst_name up to END to P's list.  Return false if the source of
   that name is not a directory.  */
static bool
add_dir (struct parents *p, size_t end, bool made)
{
  char *src = p->dst_name + p->src_offset;
  struct parent_dir d = { .fd = -1, .end = end, .made = made };
  int err = (stat (src, &d.src_st) != 0 ? errno
             : S_ISDIR (d.src_st.st_mode) ? 0 : ENOTDIR);
  if (err)
    {
      error (0, err, _("failed to get attributes of %s"), quoteaf (src));
      return false;
    }
  p->dir = xreallocarray (p->dir, p->n_dirs + 1, sizeof *p->dir);
  p->dir[p->n_dirs++] = d;
  return true;
}

/* Open D, P->dst_name (cut at a slash), to hold it: one just made
   without following a link there, one that was there as stat found it
   (a link to a directory of the user's is used, as by cp).  */
static bool
hold_dir (struct parents const *p, struct parent_dir *d)
{
  d->fd = open (p->dst_name, (O_RDONLY | O_DIRECTORY | O_CLOEXEC
                              | (d->made ? O_NOFOLLOW : 0)));
  if (0 <= d->fd)
    return true;
  error (0, errno, _("cannot open directory %s"), quoteaf (p->dst_name));
  return false;
}

/* Close P's directories and free P.  */
static void
parents_free (struct parents *p)
{
  for (size_t i = 0; i < p->n_dirs; i++)
    if (0 <= p->dir[i].fd)
      close (p->dir[i].fd);
  free (p->dir);
  free (p->dst_name);
}

/* Make the directory P->dst_name (cut at a slash), a copy of the source
   directory last added to P.  */
static bool
make_dir (struct parents *p, struct fcopy_options const *opts)
{
  struct parent_dir *d = &p->dir[p->n_dirs - 1];
  /* As tree.c's made_dir: record the mode it got, and let its owner
     fill it until it is finished.  */
  struct stat st;
  d->made_mode = creation_mode (&d->src_st, opts);
  if (mkdir (p->dst_name, d->made_mode) != 0)
    {
      error (0, errno, _("cannot make directory %s"), quoteaf (p->dst_name));
      return false;
    }
  if (!hold_dir (p, d))
    return false;
  if (fstat (d->fd, &st) == 0)
    d->made_mode = st.st_mode & 07777;
  if (!let_owner_fill (d->fd, false, d->made_mode,
                       &DST_PATH_CWD (p->dst_name)))
    return false;
  if (opts->verbose)
    report_parent_dir (p->dst_name + p->src_offset, p->dst_name);
  return true;
}

/* Walk P's source part component by component.  */
static bool
make_each (struct parents *p, struct fcopy_options const *opts)
{
  bool preserving = (opts->preserve_mode || opts->preserve_ownership
                     || opts->preserve_timestamps);
  char *slash = p->dst_name + p->src_offset;
  while (*slash == '/')
    slash++;
  while ((slash = strchr (slash, '/')))
    {
      struct stat st;
      *slash = '\0';
      bool missing = stat (p->dst_name, &st) != 0;
      if ((missing || preserving)
          && !add_dir (p, slash - p->dst_name, missing))
        return false;
      if (missing ? !make_dir (p, opts) : !S_ISDIR (st.st_mode))
        {
          if (!missing)
            error (0, 0, _("%s exists but is not a directory"),
                   quoteaf (p->dst_name));
          return false;
        }
      if (!missing && preserving && !hold_dir (p, &p->dir[p->n_dirs - 1]))
        return false;
      *slash++ = '/';
      while (*slash == '/')
        slash++;
    }
  return true;
}

bool
make_parents (struct parents *p, char const *dst_name, size_t src_offset,
              struct fcopy_options const *opts)
{
  *p = (struct parents) { xstrdup (dst_name), src_offset, NULL, 0, false };
  char *parent = dir_name (dst_name);
  struct stat st;
  bool ok = true;
  if (stat (parent, &st) != 0)
    ok = p->made_dir = make_each (p, opts);
  else if (!S_ISDIR (st.st_mode))
    {
      error (0, 0, _("%s exists but is not a directory"), quoteaf (parent));
      ok = false;
    }
  free (parent);
  if (!ok)
    parents_free (p);
  return ok;
}

bool
finish_parents (struct parents *p, struct fcopy_options const *opts)
{
  /* cp gives leading directories all but their extended attributes.  */
  struct fcopy_options o = *opts;
  o.preserve_xattr = false;
  bool ok = true;
  /* The deepest first: a parent's times are set after its children's
     changes, and its mode after it need no longer be searched.  The
     first failure ends it, as in cp (cp.c, re_protect).  */
  for (size_t i = p->n_dirs; ok && 0 < i--; )
    {
      struct parent_dir const *d = &p->dir[i];
      char saved = p->dst_name[d->end];
      p->dst_name[d->end] = '\0';
      struct meta_job m = { -1, d->fd, p->dst_name + p->src_offset,
                            DST_PATH_CWD (p->dst_name), &d->src_st,
                            d->made, d->made_mode, PLAIN_ASK };
      ok = copy_metadata (&m, &o);
      p->dst_name[d->end] = saved;
    }
  parents_free (p);
  return ok;
}
