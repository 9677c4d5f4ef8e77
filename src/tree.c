/* tree.c -- copy what is not a plain followed file: directory trees
   (-r), and operands that are symbolic links (-P, -d, -a), FIFOs or
   devices, or hard links of each other (--preserve=links); what is not
   a directory is copied by tree-nondir.c.

   The walk is fts's: directories are made on the way down and given
   their metadata on the way up, after their contents, so that a
   read-only or back-dated directory can still be filled (with --jobs,
   after the last file a worker copies into it: tree-jobs.c).  Each one made
   or entered is held open (O_NOFOLLOW: hold_dir), and what goes in it is
   made relative to it.  */

#include <config.h>
#include "tree.h"
#include "i18n.h"
#include "tree-walk.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/xattr.h>

#include "atomic.h"
#include "dirname.h"
#include "error.h"
#include "filenamecat.h"
#include "fts_.h"
#include "hash-triple.h"
#include "intprops.h"
#include "metadata.h"
#include "quote-name.h"
#include "report.h"
#include "same-inode.h"
#include "xalloc.h"

void
tree_init (struct tree_copy *t, struct fcopy_options const *opts,
           bool many_sources, struct copy_stats *stats)
{
  *t = (struct tree_copy) { .opts = opts };
  t->mem.clone = &t->clone;
  t->mem.stats = stats;
  t->mem.origins = clone_dests_new (opts);
  /* A walk holds a descriptor for each level of the destination it is
     in: let it have as many as the hard limit allows.  */
  struct rlimit r;
  if (opts->recursive && getrlimit (RLIMIT_NOFILE, &r) == 0
      && r.rlim_cur < r.rlim_max)
    {
      r.rlim_cur = r.rlim_max;
      setrlimit (RLIMIT_NOFILE, &r);
    }
  /* cp keeps one table of copies for both.  */
  if (opts->preserve_links || opts->update == UPDATE_OLDER)
    t->links = inode_set_new ();
  if (opts->update == UPDATE_OLDER)
    t->mem.dest.copies = t->links;
  if (many_sources)
    {
      t->mem.dest.operands = hash_initialize (61, NULL, triple_hash,
                                         triple_compare_ino_str, triple_free);
      if (!t->mem.dest.operands)
        xalloc_die ();
      t->sources = inode_set_new ();
    }
  /* Workers copy regular files, so not for links instead of copies.
     Unasked, they start only for a tree big enough to be worth them
     (tree-jobs.c).  */
  if (1 < opts->jobs && opts->recursive && opts->link == LINK_NONE)
    {
      if (opts->jobs_auto)
        t->jobs_after = JOBS_AUTO_AFTER;
      else
        t->pool = tree_jobs_start (t);
    }
}

void
tree_free (struct tree_copy *t)
{
  jobs_stop (t->pool);
  inode_set_free (t->links);
  if (t->mem.dest.operands)
    hash_free (t->mem.dest.operands);
  inode_set_free (t->sources);
  clone_dests_free (t->mem.origins);
}


/* The destination name of ENT.  */
static char *
dest_name (struct walk const *w, FTSENT const *ent)
{
  char const *rel = ent->fts_path + w->src_root_len;
  while (*rel == '/')
    rel++;
  return *rel ? file_name_concat (w->dst_root, rel, NULL)
              : xstrdup (w->dst_root);
}

/* W's hold on the directory at LEVEL, made room for.  */
static struct held_dir *
held_at (struct walk *w, size_t level)
{
  if (w->held_alloc <= level)
    {
      size_t old = w->held_alloc;
      w->held_alloc = level + 16;
      w->held = xreallocarray (w->held, w->held_alloc, sizeof *w->held);
      for (size_t i = old; i < w->held_alloc; i++)
        w->held[i] = (struct held_dir) { .how = DIR_NOT_HAD, .fd = -1 };
    }
  return &w->held[level];
}

/* Hold DST, the directory made or found for ENT, open for the *at
   calls that make its entries and for its metadata.  O_NOFOLLOW: a
   symbolic link put in its place since is not followed (but the one
   --keep-directory-symlink asks to use).  Open to read, so that its
   metadata takes no second open, where it may be read; O_PATH where it
   may not (a directory found with mode 0, or made without its owner's
   read bit, which made_dir gives it only after).  */
static struct held_dir *
hold_dir (struct walk *w, FTSENT const *ent, struct dst_path const *dst)
{
  size_t level = ent->fts_level;
  int flags = (O_DIRECTORY | O_CLOEXEC
               | (w->t->opts->keep_directory_symlink ? 0 : O_NOFOLLOW));
  int fd = openat (dst->dirfd, dst->rel, O_RDONLY | flags);
  bool path_only = fd < 0 && errno == EACCES;
  if (path_only)
    fd = openat (dst->dirfd, dst->rel, O_PATH | flags);
  if (fd < 0)
    {
      error (0, errno, _("cannot open directory %s"), quoteaf (dst->name));
      return NULL;
    }
  struct held_dir *h = held_at (w, level);
  *h = (struct held_dir) { .how = DIR_FOUND, .fd = fd,
                           .path_only = path_only };
  if (w->t->pool)
    h->ref = dir_ref_new (fd, level == FTS_ROOTLEVEL ? NULL
                          : w->held[level - 1].ref, w->t->opts);
  return h;
}

/* The directory H holds, DST, was made in a directory that hands its
   new files something (or in one this run did not make): ask it for
   the mode it got and its device, and whether it hands on its group or
   a default ACL in turn.  */
static bool
ask_made_dir (struct held_dir *h, struct dst_path const *dst)
{
  struct stat st;
  if (fstat (h->fd, &st) != 0)
    {
      error (0, errno, _("cannot fstat %s"), quoteaf (dst->name));
      return false;
    }
  h->mode = st.st_mode & 07777;
  h->dev = st.st_dev;
  /* An O_PATH descriptor takes no f*xattr, but its /proc name leads to
     it and nowhere else.  */
  char proc[sizeof "/proc/self/fd/" + INT_STRLEN_BOUND (int)];
  sprintf (proc, "/proc/self/fd/%d", h->fd);
  char const *acl = "system.posix_acl_default";
  h->inherits = ((h->mode & S_ISGID)
                 || (h->path_only ? getxattr (proc, acl, NULL, 0)
                     : fgetxattr (h->fd, acl, NULL, 0)) >= 0
                 || (errno != ENODATA && errno != ENOTSUP));
  return true;
}

/* H holds DST, just made with MODE: record the mode it got (from MODE,
   the umask or a default ACL); until its metadata is set, its owner
   must be able to fill it.  */
static bool
made_dir (struct walk *w, struct held_dir *h, struct dst_path const *dst,
          mode_t mode)
{
  h->how = DIR_MADE;
  if (dst->plain)
    {
      /* Where the parent hands nothing down, mkdir(2) gives the mode
         asked less the umask, and no setgid group or default ACL; and
         the new directory is on its parent's file system (no mount point
         yet).  Its device tells the files copied into it whether a clone
         was already refused there (engine.c).  */
      h->mode = mode & (S_IRWXU | S_IRWXG | S_IRWXO | S_ISVTX)
                & ~w->t->opts->umask;
      h->dev = dst->dev;
    }
  else if (!ask_made_dir (h, dst))
    return false;
  return let_owner_fill (h->fd, h->path_only, h->mode, dst);
}

/* On the way down: make the directory, or use the one there.  Its
   metadata comes on the way up; until then its owner can write in it.
   If it cannot be had, the walk's hold at its level says so (fts still
   returns it on the way up).  */
static bool
enter_dir (struct walk *w, FTSENT *ent, struct dst_path const *dst)
{
  struct stat st;
  mode_t mode = file_creation_mode (ent->fts_statp, dst, w->t->opts);
  held_at (w, ent->fts_level)->how = DIR_NOT_HAD;
  if (mkdirat (dst->dirfd, dst->rel, mode) == 0)
    {
      struct held_dir *h = hold_dir (w, ent, dst);
      if (!h || !made_dir (w, h, dst, mode))
        return false;
      /* fts may have shortened the operand ("src//"); cp prints it as
         given.  */
      if (w->t->opts->verbose)
        report_verbose (ent->fts_level == FTS_ROOTLEVEL ? w->src_root
                        : ent->fts_path, dst->name, NULL);
      STATS_ADD (w->t->mem.stats, directories, 1);
      return true;
    }
  int mkdir_errno = errno;
  /* A symbolic link in the destination, even to a directory, is not a
     directory to copy into (it could lead anywhere), unless
     --keep-directory-symlink says the user put it there to be used.  */
  int at_flags = w->t->opts->keep_directory_symlink ? 0 : AT_SYMLINK_NOFOLLOW;
  bool new_root = w->new_root && ent->fts_level == FTS_ROOTLEVEL;
  if (mkdir_errno == EEXIST && !new_root
      && fstatat (dst->dirfd, dst->rel, &st, at_flags) == 0
      && S_ISDIR (st.st_mode))
    {
      bool held = hold_dir (w, ent, dst) != NULL;
      if (held)
        STATS_ADD (w->t->mem.stats, directories, 1);
      return held;
    }
  errno = mkdir_errno;
  if (errno == EEXIST && !new_root)
    error (0, 0, _("cannot overwrite non-directory %s with directory %s"),
           quoteaf_n (0, dst->name), quoteaf_n (1, ent->fts_path));
  else
    error (0, errno, _("cannot create directory %s"), quoteaf (dst->name));
  return false;
}

/* Whether the walk holds a copy of ENT, a directory it entered.  */
static bool
dir_held (struct walk const *w, FTSENT const *ent)
{
  return ((size_t) ent->fts_level < w->held_alloc
          && w->held[ent->fts_level].how != DIR_NOT_HAD);
}

/* On the way up: the directory's metadata, now that it is filled, or
   with --jobs once the last file copied into it is.  */
static bool
leave_dir (struct walk *w, FTSENT const *ent, struct dst_path const *dst)
{
  if (!dir_held (w, ent))
    return true;
  struct held_dir *h = &w->held[ent->fts_level];
  bool made = h->how == DIR_MADE;
  struct left_dir d = { h->fd, h->path_only, ent->fts_accpath,
                        ent->fts_path, ent->fts_statp, made,
                        made ? h->mode : 0,
                        ent->fts_level == FTS_ROOTLEVEL, *dst };
  struct dir_ref *ref = h->ref;
  *h = (struct held_dir) { .how = DIR_NOT_HAD, .fd = -1 };
  return ref ? dir_ref_leave (ref, &d) : set_dir_metadata (w->t->opts, &d);
}

/* ENT's destination in *DST; return its whole name, to be freed.  */
static char *
entry_dst (struct walk const *w, FTSENT const *ent, struct dst_path *dst)
{
  char *name = dest_name (w, ent);
  bool top = ent->fts_level == FTS_ROOTLEVEL;
  struct held_dir const *parent = top ? NULL : &w->held[ent->fts_level - 1];
  bool fresh = parent && parent->how == DIR_MADE;
  *dst = (struct dst_path) { top ? AT_FDCWD : parent->fd,
                             top ? name : ent->fts_name, name, fresh,
                             fresh && !parent->inherits,
                             fresh ? parent->dev : 0, top, false, NULL };
  return name;
}

/* leave_dir for ENT, outside of FTS_DP.  */
static void
finish_dir (struct walk *w, FTSENT const *ent)
{
  struct dst_path dst;
  char *dst_name = entry_dst (w, ent, &dst);
  leave_dir (w, ent, &dst);
  free (dst_name);
}

/* Copy one entry of the walk.  */
static bool
copy_entry (struct walk *w, FTS *fts, FTSENT *ent)
{
  struct fcopy_options const *opts = w->t->opts;
  report_status_if_asked (w->t->mem.stats);
  if (ent->fts_level == FTS_ROOTLEVEL)
    w->src_root_len = ent->fts_pathlen;
  switch (ent->fts_info)
    {
    case FTS_DC:
      error (0, 0, _("cannot copy cyclic symbolic link %s"),
             quoteaf (ent->fts_path));
      return false;
    case FTS_DNR: case FTS_ERR: case FTS_NS:
      error (0, ent->fts_errno, ent->fts_info == FTS_NS
             ? _("cannot stat %s") : _("cannot access %s"),
             quoteaf (ent->fts_path));
      /* A directory that could not be read was entered (FTS_D) first:
         its copy gets its metadata all the same, as cp gives it.  */
      if (ent->fts_info == FTS_DNR && opts->recursive && dir_held (w, ent))
        finish_dir (w, ent);
      return false;
    case FTS_SLNONE:
      if (opts->dereference == DEREF_ALWAYS
          || (opts->dereference == DEREF_COMMAND_LINE && ent->fts_level == 0))
        {
          error (0, ENOENT, _("cannot stat %s"), quoteaf (ent->fts_path));
          return false;
        }
      break;
    case FTS_D:
      if (!opts->recursive)
        {
          report_omitted_dir (ent->fts_path);
          fts_set (fts, ent, FTS_SKIP);
          held_at (w, ent->fts_level)->how = DIR_NOT_HAD;
          return false;
        }
      break;
    case FTS_DP:
      if (!dir_held (w, ent))
        return true;
      break;
    default:
      break;
    }

  struct dst_path dst;
  char *dst_name = entry_dst (w, ent, &dst);
  bool ok;
  if (ent->fts_info == FTS_D)
    {
      ok = enter_dir (w, ent, &dst);
      if (!ok)
        fts_set (fts, ent, FTS_SKIP);
    }
  else if (ent->fts_info == FTS_DP)
    ok = leave_dir (w, ent, &dst);
  else
    ok = copy_nondir (w, ent, &dst);
  free (dst_name);
  return ok;
}

/* The order of a directory's entries: by inode number, as cp reads
   them (gnulib's savedir), which is also the order that reads a
   directory's files fastest from disk.  */
static int
by_inode (FTSENT const **a, FTSENT const **b)
{
  ino_t x = (*a)->fts_statp->st_ino, y = (*b)->fts_statp->st_ino;
  return (x > y) - (x < y);
}

/* Whether DST_NAME lies inside the directory SRC_NAME, which a copy of
   it would then never stop filling.  */
static bool
inside_itself (char const *src_name, char const *dst_name)
{
  char *src = realpath (src_name, NULL);
  char *parent = mdir_name (dst_name);
  char *dst_dir = parent ? realpath (parent, NULL) : NULL;
  bool inside = false;
  if (src && dst_dir)
    {
      char *dst = file_name_concat (dst_dir, last_component (dst_name), NULL);
      size_t len = strlen (src);
      inside = (strncmp (dst, src, len) == 0
                && (dst[len] == '/' || dst[len] == '\0'));
      free (dst);
    }
  free (src);
  free (parent);
  free (dst_dir);
  return inside;
}

int
tree_fts_flags (struct fcopy_options const *opts)
{
  /* FTS_DEFER_STAT: fts then sorts a directory's entries by their
     d_ino, as cp reads them, and only then stats each (following a
     link with -L), so the order is cp's under -L as well.  FTS_NOSTAT:
     what d_type says is not a directory is not stat'd at all (nor a
     symbolic link under -L); copy_nondir learns its status itself.  */
  int flags = FTS_NOCHDIR | FTS_DEFER_STAT | FTS_NOSTAT;
  flags |= (opts->dereference == DEREF_ALWAYS ? FTS_LOGICAL
            : opts->dereference == DEREF_COMMAND_LINE
            ? FTS_PHYSICAL | FTS_COMFOLLOW : FTS_PHYSICAL);
  if (opts->one_file_system)
    flags |= FTS_XDEV;
  return flags;
}

bool
copy_tree (struct tree_copy *t, char const *src_name,
           struct dst_path const *dst, bool new_dst)
{
  struct fcopy_options const *opts = t->opts;
  int flags = tree_fts_flags (opts);
  char const *dst_name = dst->name;

  /* cp's two refusals of a directory, before anything is made.  */
  struct stat src_st, dst_st;
  bool src_dir = (opts->recursive && stat (src_name, &src_st) == 0
                  && S_ISDIR (src_st.st_mode));
  if (src_dir && dst_path_stat (dst, &dst_st) == 0
      && SAME_INODE (src_st, dst_st))
    {
      error (0, 0, _("%s and %s are the same file"),
             quoteaf_n (0, src_name), quoteaf_n (1, dst_name));
      return false;
    }
  if (src_dir && inside_itself (src_name, dst_name))
    {
      error (0, 0, _("cannot copy a directory, %s, into itself, %s"),
             quoteaf_n (0, src_name), quoteaf_n (1, dst_name));
      return false;
    }

  char *roots[] = { (char *) src_name, NULL };
  FTS *fts = fts_open (roots, flags, by_inode);
  if (!fts)
    {
      error (0, errno, _("cannot access %s"), quoteaf (src_name));
      return false;
    }
  /* src_root_len: until the root is read.  */
  struct walk w = { t, src_name, dst_name, strlen (src_name), NULL, 0,
                    new_dst };
  bool ok = true;
  FTSENT *ent;
  while ((ent = fts_read (fts)) != NULL)
    ok &= copy_entry (&w, fts, ent);
  if (errno != 0 || fts_close (fts) != 0)
    {
      error (0, errno, _("cannot walk %s"), quoteaf (src_name));
      ok = false;
    }
  /* --jobs: the operand is done when its last file is, before the next
     operand, which may go to the same place, is looked at.  */
  if (t->pool)
    ok &= jobs_wait (t->pool);
  /* A walk cut short leaves directories it did not leave.  */
  for (size_t i = 0; i < w.held_alloc; i++)
    if (w.held[i].ref)
      dir_ref_abandon (w.held[i].ref);
    else if (0 <= w.held[i].fd)
      close (w.held[i].fd);
  free (w.held);
  return ok;
}
