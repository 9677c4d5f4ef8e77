/* clone-dest.c -- --clone-dest=DIR (design §9): rsync's --link-dest,
   with clones instead of hard links.

   A destination's relative name is its name under the destination
   directory D; a relative DIR is taken from D, as rsync takes it.  The
   directories are opened when the first file is looked up, since D may
   be the tree the copy makes.  */

#include <config.h>
#include "clone-dest.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#ifdef SYS_openat2
# include <linux/openat2.h>
#endif

#include "dirname.h"
#include "error.h"
#include "filenamecat.h"
#include "i18n.h"
#include "quote-name.h"
#include "stat-time.h"
#include "timespec.h"
#include "verify.h"
#include "xalloc.h"

struct clone_dir
{
  char const *arg;              /* as given */
  char *name;                   /* as it is shown: ARG, or D/ARG */
  int fd;                       /* O_PATH, or -1: not there */
  atomic_bool said;             /* the notice that it cannot clone */
  atomic_bool no_clone;         /* its files do not clone into D */
};

struct clone_dests
{
  struct fcopy_options const *opts;
  char *root;                   /* the first operand's destination */
  bool pair;                    /* ROOT is the DEST of a pair */
  pthread_mutex_t lock;         /* held while the directories are opened */
  atomic_bool opened;
  char *d;                      /* D, as named */
  size_t n;
  struct clone_dir *dir;
};

struct clone_dests *
clone_dests_new (struct fcopy_options const *opts)
{
  if (!opts->n_clone_dest)
    return NULL;
  struct clone_dests *cd = xzalloc (sizeof *cd);
  cd->opts = opts;
  pthread_mutex_init (&cd->lock, NULL);
  cd->n = opts->n_clone_dest;
  cd->dir = xcalloc (cd->n, sizeof *cd->dir);
  for (size_t i = 0; i < cd->n; i++)
    {
      cd->dir[i].arg = opts->clone_dest[i];
      cd->dir[i].fd = -1;
    }
  return cd;
}

void
clone_dests_free (struct clone_dests *cd)
{
  if (!cd)
    return;
  for (size_t i = 0; i < cd->n; i++)
    {
      if (0 <= cd->dir[i].fd)
        close (cd->dir[i].fd);
      free (cd->dir[i].name);
    }
  free (cd->dir);
  free (cd->root);
  free (cd->d);
  pthread_mutex_destroy (&cd->lock);
  free (cd);
}

void
clone_dests_root (struct clone_dests *cd, char const *dst_name, bool pair)
{
  if (cd && !cd->root)
    {
      cd->root = xstrdup (dst_name);
      cd->pair = pair;
    }
}

/* DST_NAME's name under D, or null if it is not under it.  A pair's
   DEST itself is a file in DEST's directory.  */
static char const *
relative_name (struct clone_dests const *cd, char const *dst_name)
{
  if (cd->pair && strcmp (dst_name, cd->root) == 0)
    return last_component (dst_name);
  size_t len = strlen (cd->root);
  if (len == 0 || strncmp (dst_name, cd->root, len) != 0)
    return NULL;
  char const *rel = dst_name + len;
  while (*rel == '/')
    rel++;
  return *rel && (rel != dst_name + len || cd->root[len - 1] == '/')
         ? rel : NULL;
}

/* Open the directories, taking D from the first destination DST_NAME
   (a pair's DEST itself: its directory).  Say which cannot be opened:
   their files are copied, as rsync copies when its --link-dest is not
   there, a first snapshot's case.  */
static void
open_dirs (struct clone_dests *cd, char const *dst_name)
{
  cd->d = (cd->pair && strcmp (dst_name, cd->root) == 0
           ? dir_name (cd->root) : xstrdup (cd->root));
  for (size_t i = 0; i < cd->n; i++)
    {
      struct clone_dir *dir = &cd->dir[i];
      dir->name = (dir->arg[0] == '/' ? xstrdup (dir->arg)
                   : file_name_concat (cd->d, dir->arg, NULL));
      dir->fd = open (dir->name, O_PATH | O_DIRECTORY | O_CLOEXEC);
      if (dir->fd < 0)
        error (0, errno, _("warning: cannot open --clone-dest directory %s"),
               quoteaf (dir->name));
    }
}

/* Open REL under DIR_FD read-only, never through a symbolic link nor
   out of DIR_FD's tree (openat2's RESOLVE_BENEATH, Linux 5.6); where
   openat2 is missing, without following a link at REL itself.
   O_NONBLOCK: a FIFO there must not block the open.  */
static int
open_beneath (int dir_fd, char const *rel)
{
  int flags = O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC;
#ifdef SYS_openat2
  static atomic_bool no_openat2;
  if (!atomic_load_explicit (&no_openat2, memory_order_relaxed))
    {
      struct open_how how = { .flags = flags,
                              .resolve = (RESOLVE_BENEATH
                                          | RESOLVE_NO_SYMLINKS
                                          | RESOLVE_NO_MAGICLINKS) };
      int fd = syscall (SYS_openat2, dir_fd, rel, &how, sizeof how);
      if (0 <= fd || errno != ENOSYS)
        return fd;
      atomic_store_explicit (&no_openat2, true, memory_order_relaxed);
    }
#endif
  return openat (dir_fd, rel, flags | O_NOFOLLOW);
}

/* Whether FD (ST) matches the source SRC_FD (SRC_ST).  */
static bool
matches (struct clone_dests const *cd, int fd, struct stat const *st,
         int src_fd, struct stat const *src_st)
{
  if (!S_ISREG (st->st_mode) || st->st_size != src_st->st_size)
    return false;
  if (!cd->opts->checksum)
    return timespec_cmp (get_stat_mtime (st), get_stat_mtime (src_st)) == 0;
  off_t at;
  return compare_bytes (src_fd, 0, fd, 0, -1, &at) == COMPARE_SAME;
}

int
clone_dests_find (struct clone_dests *cd, char const *dst_name, int src_fd,
                  struct stat const *src_st, struct clone_match *m)
{
  if (!cd || !S_ISREG (src_st->st_mode))
    return -1;
  if (!atomic_load_explicit (&cd->opened, memory_order_acquire))
    {
      pthread_mutex_lock (&cd->lock);
      if (!atomic_load_explicit (&cd->opened, memory_order_relaxed))
        {
          open_dirs (cd, dst_name);
          atomic_store_explicit (&cd->opened, true, memory_order_release);
        }
      pthread_mutex_unlock (&cd->lock);
    }
  char const *rel = relative_name (cd, dst_name);
  bool always = cd->opts->reflink == REFLINK_ALWAYS;
  for (size_t i = 0; rel && i < cd->n; i++)
    {
      struct clone_dir *dir = &cd->dir[i];
      if (dir->fd < 0
          || (!always && atomic_load_explicit (&dir->no_clone,
                                               memory_order_relaxed)))
        continue;
      int fd = open_beneath (dir->fd, rel);
      struct stat st;
      if (fd < 0)
        continue;
      if (fstat (fd, &st) == 0 && matches (cd, fd, &st, src_fd, src_st))
        {
          *m = (struct clone_match) { i, rel };
          return fd;
        }
      close (fd);
    }
  return -1;
}

char *
clone_dests_name (struct clone_dests const *cd, struct clone_match const *m)
{
  return file_name_concat (cd->dir[m->dir].name, m->rel, NULL);
}

void
clone_dests_cannot (struct clone_dests *cd, struct clone_match const *m,
                    int err)
{
  struct clone_dir *dir = &cd->dir[m->dir];
  /* These say that no file of DIR's filesystem clones into D's; other
     refusals (EINVAL, ETXTBSY...) may be the one file's.  */
  if (!(err == EXDEV || err == EOPNOTSUPP || err == ENOTTY || err == ENOSYS))
    {
      char *name = clone_dests_name (cd, m);
      error (0, err, _("notice: %s cannot be cloned, copied from the source "
                       "instead"), quoteaf (name));
      free (name);
      return;
    }
  atomic_store_explicit (&dir->no_clone, true, memory_order_relaxed);
  if (!atomic_exchange (&dir->said, true))
    error (0, err, _("notice: files of %s cannot be cloned into %s, "
                     "copied from the sources instead"),
           quoteaf_n (0, dir->name), quoteaf_n (1, cd->d));
}
