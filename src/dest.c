/* dest.c -- what becomes of a destination that already exists.

   cp's rules (coreutils 9.1, copy.c, copy_internal), in cp's order: -n
   leaves any existing name alone, even the source itself; then a source
   that is its own destination is an error (same-file.c); -u keeps a
   destination that is not older; -i asks; a directory is never replaced
   by a file; nor is an operand's destination made earlier in this run,
   by a later operand; -b renames the old file aside;
   --remove-destination (and a new link or special file, which cannot be
   written over) removes it; and a later operand is never written through
   a symbolic link an earlier one made.

   decide_dest only looks (stat, -i's question) and says what is to be
   done; act_on_dest alone does it (link_to_copy, which it calls, also
   serves --preserve=links), then makes cp's last check, for an earlier
   operand's link, which must see what the change left.  */

#include <config.h>
#include "dest.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backupfile.h"
#include "dirname.h"
#include "error.h"
#include "file-set.h"
#include "filemode.h"
#include "i18n.h"
#include "out-order.h"
#include "progname.h"
#include "quote-name.h"
#include "report.h"
#include "same-file.h"
#include "same-inode.h"
#include "utimecmp.h"
#include "xalloc.h"
#include "xvasprintf.h"
#include "yesno.h"

void
dest_free (struct dest *d)
{
  free (d->backup);
  free (d->own_name);
}

void
remember_dest (struct dest_memory const *mem, struct dst_path const *path)
{
  struct stat st;
  if (path->operand && mem && mem->operands
      && fstatat (path->dirfd, path->rel, &st, AT_SYMLINK_NOFOLLOW) == 0)
    record_file (mem->operands, path->rel, &st);
}

/* Whether D (status ST) is an operand's destination made earlier in
   this run: "cp a/f b/f dir" must not let b/f undo a/f's copy.  */
static bool
made_by_operand (struct dest const *d, struct stat const *st,
                 struct dest_memory const *mem)
{
  return (d->path.operand && mem && mem->operands
          && seen_file (mem->operands, d->path.rel, st));
}

/* -i: ask whether D may be overwritten; true if the answer is yes.  A
   file its user could not write is named with its mode, as cp does.  */
static bool
overwrite_ok (struct dest const *d, struct fcopy_options const *opts)
{
  out_hold_status (true);
  bool writable = (S_ISLNK (d->st.st_mode) || geteuid () == 0
                   || faccessat (d->path.dirfd, d->path.rel, W_OK,
                                 AT_EACCESS) == 0);
  if (writable)
    fprintf (stderr, _("%s: overwrite %s? "), program_name,
             quoteaf (d->path.name));
  else
    {
      char perms[12];           /* "-rwxrwxrwx " */
      strmode (d->st.st_mode, perms);
      perms[10] = '\0';
      fprintf (stderr,
               (opts->remove_destination || opts->force
                ? _("%s: replace %s, overriding mode %04lo (%s)? ")
                : _("%s: unwritable %s (mode %04lo, %s); try anyway? ")),
               program_name, quoteaf (d->path.name),
               (unsigned long) (d->st.st_mode & 07777), &perms[1]);
    }
  bool yes = yesno ();
  out_hold_status (false);
  return yes;
}

/* Whether renaming D to its simple backup name would move SRC_NAME
   (status SRC_ST) itself: "cp -b a~ a" would destroy its source.  */
static bool
source_is_backup (char const *src_name, struct stat const *src_st,
                  struct dest const *d)
{
  char const *src_base = last_component (src_name);
  char const *dst_base = last_component (d->path.rel);
  size_t dst_len = strlen (dst_base);
  if (strncmp (src_base, dst_base, dst_len) != 0
      || strcmp (src_base + dst_len, simple_backup_suffix) != 0)
    return false;
  char *backup = xasprintf ("%s%s", d->path.rel, simple_backup_suffix);
  struct stat st;
  bool is = (fstatat (d->path.dirfd, backup, &st, 0) == 0
             && SAME_INODE (*src_st, st));
  free (backup);
  return is;
}

/* The refusal of a backup that would move the source (SRC_NAME, status
   SRC_ST) itself; false after its message.  */
static bool
backup_spares_source (struct dest const *d, char const *src_name,
                      struct stat const *src_st)
{
  if (!source_is_backup (src_name, src_st, d))
    return true;
  error (0, 0, _("backing up %s might destroy source;  %s not copied"),
         quoteaf_n (0, d->path.name), quoteaf_n (1, src_name));
  return false;
}

/* --atomic: work out the name of D's backup, to be made when the copy
   is put in place, not now.  */
static void
name_backup (struct dest *d, struct fcopy_options const *opts)
{
  char *backup = find_backup_file_name (d->path.dirfd, d->path.rel,
                                        opts->backup);
  char const *base = last_component (d->path.name);
  d->backup = xasprintf ("%.*s%s", (int) (base - d->path.name),
                         d->path.name, last_component (backup));
  free (backup);
}

/* Whether this is "cp -fb a a", cp's special case: the command line's
   one pair (MEM), SRC_NAME and DEST spelt alike, a regular file.  */
static bool
backs_itself_up (struct dest const *d, char const *src_name,
                 struct stat const *src_st, struct dest_memory const *mem,
                 struct fcopy_options const *opts)
{
  return (opts->force && opts->backup != no_backups
          && S_ISREG (src_st->st_mode) && mem && mem->one_pair
          && d->path.dirfd == AT_FDCWD && strcmp (src_name, d->path.name) == 0);
}

/* cp's answer to "cp -fb a a": a backup copy of the source.  The copy
   goes to the backup's name instead of D's: write over what is there,
   or make it.  */
static enum dest_action
copy_to_backup (struct dest *d, struct fcopy_options const *opts)
{
  d->own_name = find_backup_file_name (d->path.dirfd, d->path.rel,
                                       opts->backup);
  d->path.rel = d->own_name;
  if (d->path.dirfd == AT_FDCWD)
    d->path.name = d->own_name;
  return (fstatat (d->path.dirfd, d->path.rel, &d->st, AT_SYMLINK_NOFOLLOW)
          == 0 ? DEST_WRITE_OVER : DEST_MAKE);
}

/* -u keeps D.  But cp remembers D as the copy of the source even then,
   and a later name of the same source file (a hard link) that -u keeps
   too is made a link to it, whatever it held (even if it was one
   already: cp says "removed" then too): do the same.  */
static enum dest_action
kept_by_update (struct dest *d, struct stat const *src_st,
                struct dest_memory const *mem)
{
  if (!mem || !mem->copies || src_st->st_nlink < 2)
    return DEST_KEEP;
  d->earlier = inode_set_find (mem->copies, src_st);
  if (!d->earlier)
    {
      inode_set_add (mem->copies, src_st, d->path.name);
      return DEST_KEEP;
    }
  return DEST_LINK_TO_COPY;
}

/* utimecmpat keeps what it learns of each file system's timestamp
   resolution in a static table of gnulib's, which two threads (--jobs)
   must not change at once: one call at a time.  The lock is as global
   as the table it guards.  */
static pthread_mutex_t utimecmp_lock = PTHREAD_MUTEX_INITIALIZER;

/* -u: whether D is older than the source, whose time is cut to what the
   destination's filesystem keeps, so a copy made with -p is not "older"
   on a coarser one.  */
static bool
older (struct dest const *d, struct stat const *src_st,
       struct fcopy_options const *opts)
{
  pthread_mutex_lock (&utimecmp_lock);
  int cmp = utimecmpat (d->path.dirfd, d->path.rel, &d->st, src_st,
                        opts->preserve_timestamps
                        ? UTIMECMP_TRUNCATE_SOURCE : 0);
  pthread_mutex_unlock (&utimecmp_lock);
  return cmp < 0;
}

/* The checks that may keep D as it is, or refuse the copy.  */
static enum dest_action
keep_or_refuse (struct dest *d, char const *src_name,
                struct stat const *src_st, int flags,
                struct dest_memory const *mem,
                struct fcopy_options const *opts)
{
  if (opts->interactive == I_ALWAYS_NO || opts->update == UPDATE_NONE)
    return DEST_KEEP;
  if (opts->update == UPDATE_NONE_FAIL)
    {
      error (0, 0, _("not replacing %s"), quoteaf (d->path.name));
      return DEST_FAILED;
    }
  bool done = false;
  if (!(flags & DEST_SAME_OK) && opts->interactive != I_ALWAYS_NO)
    {
      /* "cp -fb a a" backs the source up and copies the backup (cp's
         special case, before its check).  */
      if (SAME_INODE (*src_st, d->st)
          && backs_itself_up (d, src_name, src_st, mem, opts))
        return copy_to_backup (d, opts);
      if (!same_file_ok (src_name, src_st, &d->path, &d->st, opts, &done))
        {
          error (0, 0, _("%s and %s are the same file"),
                 quoteaf_n (0, src_name), quoteaf_n (1, d->path.name));
          return DEST_FAILED;
        }
    }
  if (opts->update == UPDATE_OLDER && !older (d, src_st, opts))
    return kept_by_update (d, src_st, mem);
  if (opts->interactive == I_ASK_USER && !overwrite_ok (d, opts))
    return DEST_KEEP;
  return done ? DEST_KEEP : DEST_WRITE_OVER;
}

/* Stat D: through a symbolic link only where the data would go through
   it: a regular file, no backup, no removal first (as cp).  Return true
   if something is there to decide about (D->st); else set D->action:
   DEST_MAKE if nothing is there, DEST_WRITE_OVER if it is a loop of
   links -f removes, DEST_FAILED after a message.  */
static bool
stat_dest (struct dest *d, int flags, struct fcopy_options const *opts)
{
  bool follow = ((flags & DEST_FOLLOW) && opts->backup == no_backups
                 && !opts->remove_destination);
  /* The plan's stat of the operand, handed on: a stat saved.  A name
     that appears meanwhile is not followed: a file is made with O_EXCL.
     One that changes meanwhile could as well have changed after it. */
  if ((follow ? dst_path_stat (&d->path, &d->st)
       : fstatat (d->path.dirfd, d->path.rel, &d->st,
                  AT_SYMLINK_NOFOLLOW)) == 0)
    return true;
  if (errno == ENOENT)
    return false;
  /* A loop of symbolic links is a name -f removes when it cannot be
     opened (cp >= 8.30), not an error; nothing else to check then.  */
  if (errno == ELOOP && opts->force
      && fstatat (d->path.dirfd, d->path.rel, &d->st,
                  AT_SYMLINK_NOFOLLOW) == 0)
    d->action = DEST_WRITE_OVER;
  else
    {
      error (0, errno, _("cannot stat %s"), quoteaf (d->path.name));
      d->action = DEST_FAILED;
    }
  return false;
}

/* How to make room for the copy at D, which is there (D->st) and may
   go: a backup, a removal, or nothing (write over it).  */
static enum dest_action
making_room (struct dest *d, char const *src_name,
             struct stat const *src_st, int flags,
             struct fcopy_options const *opts)
{
  if (opts->backup != no_backups
      && !backup_spares_source (d, src_name, src_st))
    return DEST_FAILED;
  if (flags & DEST_ATOMIC)
    {
      if (opts->backup != no_backups)
        name_backup (d, opts);
      return DEST_WRITE_OVER;
    }
  if (opts->backup != no_backups)
    return DEST_BACK_UP_FIRST;
  /* Removed first, as cp: under --remove-destination; under
     --preserve=links a destination linked elsewhere, whose other names
     would change too if written through; a link or special file copied
     as such (-P), which cannot be written over.  But not under
     --attributes-only, which writes no data: then making a link or
     special file fails ("File exists"), as in cp.  */
  if (opts->remove_destination
      || (!opts->attributes_only
          && ((opts->preserve_links && 1 < d->st.st_nlink)
              || (deref_for (opts, d->path.operand) == DEREF_NEVER
                  && !S_ISREG (src_st->st_mode)))))
    return DEST_REMOVE_FIRST;
  return DEST_WRITE_OVER;
}

/* Decide about D, which is there (status D->st).  */
static enum dest_action
existing_dest (struct dest *d, char const *src_name,
               struct stat const *src_st, int flags,
               struct dest_memory const *mem,
               struct fcopy_options const *opts)
{
  enum dest_action a = keep_or_refuse (d, src_name, src_st, flags, mem,
                                       opts);
  if (a != DEST_WRITE_OVER || d->own_name)
    return a;
  if (S_ISDIR (d->st.st_mode))
    {
      error (0, 0, _("cannot overwrite directory %s with non-directory"),
             quoteaf (d->path.name));
      return DEST_FAILED;
    }
  /* A numbered backup keeps both copies.  */
  if (opts->backup != numbered_backups && made_by_operand (d, &d->st, mem))
    {
      error (0, 0, _("will not overwrite just-created %s with %s"),
             quoteaf_n (0, d->path.name), quoteaf_n (1, src_name));
      return DEST_FAILED;
    }
  return making_room (d, src_name, src_st, flags, opts);
}

enum dest_action
decide_dest (struct dest *d, char const *src_name,
             struct stat const *src_st, int flags,
             struct dest_memory const *mem, struct fcopy_options const *opts)
{
  d->backup = d->own_name = NULL;
  d->earlier = NULL;
  d->action = DEST_MAKE;
  /* A walk visits each name once, so in a directory it just made there
     is nothing to check: a stat saved per file.  */
  if (!d->path.fresh && stat_dest (d, flags, opts))
    d->action = existing_dest (d, src_name, src_st, flags, mem, opts);
  return d->action;
}

/* -b: rename D aside; one already gone is fine.  */
static bool
back_up (struct dest *d, struct fcopy_options const *opts)
{
  /* The directory's descriptor and a name without a directory part:
     the gnulib of Debian 12 renames a simple backup made under
     --backup=existing relative to the wrong directory otherwise (gnulib
     bug 55029).  */
  char const *rel_base = last_component (d->path.rel);
  int dir_fd = d->path.dirfd;
  if (rel_base != d->path.rel)
    {
      char *dir = dir_name (d->path.rel);
      dir_fd = openat (d->path.dirfd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      free (dir);
    }
  char *backup = (dir_fd < 0 && dir_fd != AT_FDCWD ? NULL
                  : backup_file_rename (dir_fd, rel_base, opts->backup));
  int saved_errno = errno;
  if (dir_fd != d->path.dirfd && 0 <= dir_fd)
    close (dir_fd);
  if (!backup && saved_errno != ENOENT)
    {
      error (0, saved_errno, _("cannot backup %s"), quoteaf (d->path.name));
      return false;
    }
  char const *base = last_component (d->path.name);
  if (backup)
    d->backup = xasprintf ("%.*s%s", (int) (base - d->path.name),
                           d->path.name, backup);
  free (backup);
  return true;
}

/* Remove D, saying so with -v.  GONE_OK: a name already gone is fine,
   as cp has it before it opens (--remove-destination and the like);
   not so -f's removal of a file that could not be opened, where cp
   reports it.  */
static bool
remove_dest (struct dest const *d, bool gone_ok,
             struct fcopy_options const *opts)
{
  if (unlinkat (d->path.dirfd, d->path.rel, 0) != 0
      && !(gone_ok && errno == ENOENT))
    {
      error (0, errno, _("cannot remove %s"), quoteaf (d->path.name));
      return false;
    }
  if (opts->verbose)
    report_removed (d->path.name);
  return true;
}

bool
link_to_copy (struct dst_path const *dst, char const *earlier, bool replace,
              struct fcopy_options const *opts)
{
  if ((replace && unlinkat (dst->dirfd, dst->rel, 0) != 0)
      || linkat (AT_FDCWD, earlier, dst->dirfd, dst->rel, 0) != 0)
    {
      error (0, errno, _("cannot create hard link %s to %s"),
             quoteaf_n (0, dst->name), quoteaf_n (1, earlier));
      return false;
    }
  if (replace && opts->verbose)
    report_removed (dst->name);
  return true;
}

/* What D's action leaves to do once carried out: removed or moved
   aside, D is to be made; the -u link is the end of it.  */
static enum dest_action
carry_out (struct dest *d, struct fcopy_options const *opts)
{
  switch (d->action)
    {
    case DEST_REMOVE_FIRST:
      return remove_dest (d, true, opts) ? DEST_MAKE : DEST_FAILED;
    case DEST_REMOVE_UNOPENABLE:
      return remove_dest (d, false, opts) ? DEST_MAKE : DEST_FAILED;
    case DEST_BACK_UP_FIRST:
      return back_up (d, opts) ? DEST_MAKE : DEST_FAILED;
    case DEST_LINK_TO_COPY:
      return (link_to_copy (&d->path, d->earlier, true, opts)
              ? DEST_KEEP : DEST_FAILED);
    default:
      return d->action;
    }
}

/* Whether D, about to be written, is a symbolic link an earlier
   operand made (cp's abuse test: "cp -dR a/1 b/1 c", a/1 a link to
   ../t, must not write b/1 into t, whether t is there or not).  A
   backup moves the link aside, so then it is not.  */
static bool
through_new_link (struct dest const *d, char const *src_name,
                  struct dest_memory const *mem,
                  struct fcopy_options const *opts)
{
  struct stat st;
  if (!d->path.operand || !mem || !mem->operands
      || opts->backup != no_backups
      || fstatat (d->path.dirfd, d->path.rel, &st, AT_SYMLINK_NOFOLLOW) != 0
      || !S_ISLNK (st.st_mode) || !made_by_operand (d, &st, mem))
    return false;
  error (0, 0, _("will not copy %s through just-created symlink %s"),
         quoteaf_n (0, src_name), quoteaf_n (1, d->path.name));
  return true;
}

enum dest_action
act_on_dest (struct dest *d, char const *src_name,
             struct dest_memory const *mem, struct fcopy_options const *opts)
{
  /* cp looks for an earlier operand's link once room is made, at what
     is there then, and not again after -f's removal of a file that
     could not be opened.  */
  bool look = d->action != DEST_REMOVE_UNOPENABLE;
  d->action = carry_out (d, opts);
  if (look && dest_has_room (d->action)
      && through_new_link (d, src_name, mem, opts))
    d->action = DEST_FAILED;
  return d->action;
}
