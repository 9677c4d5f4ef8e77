/* atomic.c -- --atomic: the destination is either the old file or the
   complete new one, never a mix or a truncated file.

   The data goes into an O_TMPFILE in the destination's directory, which
   has no name until it is complete: a crash or a kill -9 while it is
   written leaves nothing.  Then it is given a temporary name (linkat
   cannot replace a name) and renamed over the destination; signals are
   held off between the two, so a SIGINT cannot leave the name behind.
   Where the file system has no O_TMPFILE, the temporary is created with
   a random name (O_EXCL) from the start, and signals.c removes it if a
   signal comes.  With --fsync the file is synced before the rename and
   the directory after it (PostgreSQL's durable_rename; fsync(2)).  */

#include <config.h>
#include "atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dirname.h"
#include "error.h"
#include "i18n.h"
#include "quote-name.h"
#include "reopen.h"
#include "signals.h"
#include "tempname.h"

/* The temporaries' names: hidden, recognisably fcopy's.  */
#define TEMP_TEMPLATE ".fcopy-XXXXXX"

static int
try_create (char *name, void *arg)
{
  struct temp_file *t = arg;
  t->fd = openat (t->dir_fd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
                  t->mode);
  return t->fd;
}

static int
try_link (char *name, void *arg)
{
  struct temp_file *t = arg;
  struct proc_fd_name proc;
  /* Through /proc, which needs no privilege; AT_EMPTY_PATH needs
     CAP_DAC_READ_SEARCH.  */
  int r = linkat (AT_FDCWD, proc_fd_name (&proc, t->fd), t->dir_fd, name,
                  AT_SYMLINK_FOLLOW);
  if (r != 0 && errno == ENOENT)
    r = linkat (t->fd, "", t->dir_fd, name, AT_EMPTY_PATH);
  return r;
}

/* Name the temporary with TRY (create it, or link it), with the signals
   held off until signals.c knows the name.  */
static bool
give_name (struct temp_file *t, int (*try) (char *, void *))
{
  sigset_t old;
  block_signals (&old);
  t->place = claim_on_signal ();
  strcpy (t->name, TEMP_TEMPLATE);
  bool ok = 0 <= try_tempname (t->name, 0, t, try);
  t->named = ok;
  remove_on_signal (t->place, t->dir_fd, ok ? t->name : NULL);
  unblock_signals (&old);
  return ok;
}

int
temp_create (struct temp_file *t, struct dst_path const *dst, mode_t mode)
{
  *t = (struct temp_file) { .dir_fd = dst->dirfd, .fd = -1, .mode = mode,
                            .base = last_component (dst->rel) };
  if (t->base != dst->rel)
    {
      char *dir = dir_name (dst->rel);
      t->dir_fd = openat (dst->dirfd, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
      free (dir);
      if (t->dir_fd < 0)
        {
          error (0, errno, _("cannot open the directory of %s"),
                 quoteaf (dst->name));
          return -1;
        }
      t->own_dir_fd = true;
    }
  /* Readable: --verify reads the copy back.  */
  t->fd = openat (t->dir_fd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
  /* EOPNOTSUPP, EISDIR (kernels that do not know O_TMPFILE)...: a
     temporary with a name, then, which others could open while it is
     written: its owner's bits only; the mode asked for comes last
     (metadata.c's set_mode, since T->mode says what it got).  */
  if (t->fd < 0)
    t->mode = mode & S_IRWXU;
  if (t->fd < 0 && !give_name (t, try_create))
    {
      error (0, errno, _("cannot create a temporary file for %s"),
             quoteaf (dst->name));
      temp_discard (t);
      return -1;
    }
  return t->fd;
}

void
temp_discard (struct temp_file *t)
{
  sigset_t old;
  block_signals (&old);
  if (t->named)
    {
      unlinkat (t->dir_fd, t->name, 0);
      forget_on_signal (t->place);
    }
  t->named = false;
  unblock_signals (&old);
  if (0 <= t->fd)
    close (t->fd);
  t->fd = -1;
  if (t->own_dir_fd)
    close (t->dir_fd);
  t->own_dir_fd = false;
}

bool
sync_dir (int dir_fd, char const *name)
{
  int fd = openat (dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  bool ok = 0 <= fd && fsync (fd) == 0;
  if (!ok)
    error (0, errno, _("failed to sync the directory of %s"), quoteaf (name));
  if (0 <= fd)
    close (fd);
  return ok;
}

bool
sync_parent (int dir_fd, char const *rel, char const *name)
{
  char *parent = dir_name (rel);
  int fd = openat (dir_fd, parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
  free (parent);
  bool ok = 0 <= fd && sync_dir (fd, name);
  if (fd < 0)
    error (0, errno, _("failed to sync the directory of %s"), quoteaf (name));
  else
    close (fd);
  return ok;
}

/* What replace_name makes its temporary name with.  */
struct replacing
{
  int dir_fd;
  entry_maker make;
  void const *arg;
};

static int
try_make (char *name, void *arg)
{
  struct replacing const *r = arg;
  return r->make (r->dir_fd, name, r->arg);
}

/* Make the entry BASE in DIR_FD with MAKE, over the one there: MAKE
   makes it under a temporary name and a rename puts it in place, so
   that BASE is never missing and a failure leaves it as it was (cp's
   force_linkat, coreutils 8.27).  The signals are held off meanwhile;
   with --jobs one may come to another thread, so signals.c knows the
   temporary name too, where it catches them (--atomic).  */
static bool
replace_name (int dir_fd, char const *base, entry_maker make,
              void const *arg)
{
  struct replacing r = { dir_fd, make, arg };
  char name[sizeof TEMP_TEMPLATE];
  strcpy (name, TEMP_TEMPLATE);
  sigset_t old;
  block_signals (&old);
  int place = claim_on_signal ();
  bool ok = 0 <= try_tempname (name, 0, &r, try_make);
  remove_on_signal (place, dir_fd, ok ? name : NULL);
  if (ok)
    {
      ok = renameat (dir_fd, name, dir_fd, base) == 0;
      /* Also after a success: a rename between two names of one file
         does nothing (DEST may be a hard link to SRC already).  */
      int err = errno;
      unlinkat (dir_fd, name, 0);
      forget_on_signal (place);
      errno = err;
    }
  unblock_signals (&old);
  return ok;
}

bool
replace_entry (struct dst_path const *dst, entry_maker make,
               void const *arg)
{
  char const *base = last_component (dst->rel);
  if (base == dst->rel)
    return replace_name (dst->dirfd, base, make, arg);
  char *dir = dir_name (dst->rel);
  int dir_fd = openat (dst->dirfd, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
  free (dir);
  if (dir_fd < 0)
    return false;
  bool ok = replace_name (dir_fd, base, make, arg);
  int err = errno;
  close (dir_fd);
  errno = err;
  return ok;
}

static int
link_old (int dir_fd, char const *name, void const *arg)
{
  struct temp_file const *t = arg;
  return linkat (t->dir_fd, t->base, dir_fd, name, 0);
}

/* Make BACKUP a second name of the old destination of T, so that DEST
   itself is never missing.  An old backup of that name is replaced as
   a rename would replace it: a failure leaves it as it was.  */
static bool
link_backup (struct temp_file const *t, char const *backup)
{
  if (linkat (t->dir_fd, t->base, t->dir_fd, backup, 0) == 0
      || errno == ENOENT)       /* no old file, no backup */
    return true;
  return errno == EEXIST && replace_name (t->dir_fd, backup, link_old, t);
}

/* Rename the named temporary over the destination, after linking the
   old file to BACKUP.  */
static bool
put_in_place (struct temp_file *t, struct dst_path const *dst,
              char const *backup)
{
  if (backup && !link_backup (t, last_component (backup)))
    {
      error (0, errno, _("cannot backup %s"), quoteaf (dst->name));
      return false;
    }
  if (renameat (t->dir_fd, t->name, t->dir_fd, t->base) != 0)
    {
      error (0, errno, _("cannot put the copy in place of %s"),
             quoteaf (dst->name));
      return false;
    }
  t->named = false;
  forget_on_signal (t->place);
  return true;
}

/* Write the temporary's data out before its rename.  With --fsync,
   with its metadata and through the disk's cache; a failed fsync is not
   retried and trusted: the data may be lost.  Without --fsync too: else
   the rename may reach the disk's journal before the data that delayed
   allocation has not placed yet, and a crash leaves DEST empty
   (tests/crash.bats saw it on XFS and ext4 alike).  sync_file_range
   waits for the writes, not for the disk's cache: the journal commit
   that holds the rename flushes that first.  EINVAL and the like: no
   writeback to wait for.  */
static bool
write_out (struct temp_file const *t, struct dst_path const *dst,
           struct fcopy_options const *opts)
{
  if (opts->fsync ? fsync (t->fd) == 0
      : (sync_file_range (t->fd, 0, 0, SYNC_FILE_RANGE_WAIT_BEFORE
                          | SYNC_FILE_RANGE_WRITE
                          | SYNC_FILE_RANGE_WAIT_AFTER) == 0
         || errno == EINVAL || errno == ESPIPE || errno == ENOSYS))
    return true;
  error (0, errno,
         opts->fsync ? _("failed to sync %s") : _("failed to write %s"),
         quoteaf (dst->name));
  return false;
}

bool
temp_commit (struct temp_file *t, struct dst_path const *dst,
             char const *backup, struct fcopy_options const *opts)
{
  bool ok = write_out (t, dst, opts);
  if (ok && !t->named && !give_name (t, try_link))
    {
      error (0, errno, _("cannot link a temporary file for %s"),
             quoteaf (dst->name));
      ok = false;
    }
  if (ok)
    {
      sigset_t old;
      block_signals (&old);
      ok = put_in_place (t, dst, backup);
      unblock_signals (&old);
    }
  /* A tree's directories are synced once, after their last change; an
     operand's, here.  */
  if (ok && opts->fsync && dst->dirfd == AT_FDCWD)
    ok = sync_dir (t->dir_fd, dst->name);
  if (close (t->fd) != 0 && ok)
    {
      error (0, errno, _("failed to close %s"), quoteaf (dst->name));
      ok = false;
    }
  t->fd = -1;
  temp_discard (t);
  return ok;
}
