/* metadata.c -- give a copy its source's metadata (design §6).

   The order matters: timestamps first (nothing after them writes data),
   then the owner (a chown clears setuid/setgid, and an unprivileged one
   that fails means those bits must not be given), then extended
   attributes, then the mode and ACL last, so that a file is never more
   open to others than its source while it is being made.  */

#include <config.h>
#include "metadata.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/xattr.h>
#include <attr/libattr.h>
#include <attr/error_context.h>

#include "acl.h"
#include "error.h"
#include "i18n.h"
#include "intprops.h"
#include "quote-name.h"
#include "stat-time.h"

/* Permission bits that chmod can set.  */
enum { MODE_BITS = S_ISUID | S_ISGID | S_ISVTX | S_IRWXU | S_IRWXG | S_IRWXO };

/* futimens itself, not gnulib's fdutimens: that one works around
   kernels older than 2.6.32 and records what it found in static flags,
   which the threads of --jobs would write at once.  */
static bool
preserve_times (struct meta_job const *m, struct fcopy_options const *opts)
{
  struct timespec ts[2] = { get_stat_atime (m->src_st),
                            get_stat_mtime (m->src_st) };
  if ((m->dst_fd < 0
       ? utimensat (m->dst.dirfd, m->dst.rel, ts, AT_SYMLINK_NOFOLLOW)
       : futimens (m->dst_fd, ts)) == 0)
    return true;
  error (0, errno, _("preserving times for %s"), quoteaf (m->dst.name));
  return !opts->require_preserve;
}

/* fchown, or by name when the copy has no descriptor.  */
static int
chown_dest (struct meta_job const *m, uid_t uid, gid_t gid)
{
  return (m->dst_fd < 0
          ? fchownat (m->dst.dirfd, m->dst.rel, uid, gid, AT_SYMLINK_NOFOLLOW)
          : fchown (m->dst_fd, uid, gid));
}

/* Give the copy the source's owner and group.  Return true if it has
   them; if an unprivileged user may not give them (EPERM, EINVAL), try
   the group alone and set *DROP to the mode bits that must then not be
   copied, silently, as cp does.  Any other failure sets *DROP too, and
   is reported.  */
static bool
preserve_owner (struct meta_job const *m, struct fcopy_options const *opts,
                mode_t *drop)
{
  uid_t uid = m->src_st->st_uid;
  gid_t gid = m->src_st->st_gid;
  if (chown_dest (m, uid, gid) == 0)
    return true;
  if ((errno == EPERM || errno == EINVAL) && geteuid () != 0)
    {
      int saved_errno = errno;
      (void) !chown_dest (m, -1, gid);
      errno = saved_errno;
      *drop = S_ISUID | S_ISGID | S_ISVTX;
      return true;
    }
  /* A privileged chown that failed (no CAP_CHOWN, an unmapped id...):
     the copy keeps our owner and group, so the source's setuid and
     setgid bits, and what it let its group and others do, were meant
     for others: the copy gets the owner's bits alone, as cp leaves it. */
  *drop = S_ISUID | S_ISGID | S_ISVTX | S_IRWXG | S_IRWXO;
  error (0, errno, _("failed to preserve ownership for %s"),
         quoteaf (m->dst.name));
  return !opts->require_preserve;
}

/* libattr reads /etc/xattr.conf into a static list on its first call
   (and on every call while the file is unreadable or malformed), which
   two threads (--jobs) must not build at once: one call at a time.  The
   lock is as global as the list it guards.  */
static pthread_mutex_t xattr_conf_lock = PTHREAD_MUTEX_INITIALIZER;

/* attr_copy_fd's filter: ACLs are copied with the mode, SELinux labels
   only with --preserve=context; /etc/xattr.conf says what else to skip. */
static int
copy_xattr_name (char const *name, struct error_context *ctx)
{
  if (strncmp (name, "system.posix_acl_", 17) == 0
      || strcmp (name, "security.selinux") == 0)
    return 0;
  pthread_mutex_lock (&xattr_conf_lock);
  int copy = attr_copy_check_permissions (name, ctx);
  pthread_mutex_unlock (&xattr_conf_lock);
  return copy;
}

static void
xattr_error (struct error_context *ctx _GL_UNUSED, char const *fmt, ...)
{
  /* libattr formats "%s: %s" style messages; cp words them itself.  */
  (void) fmt;
}

/* A name of M's destination for calls that take no descriptor: through
   /proc, relative to the descriptor of its directory, so that it cannot
   lead elsewhere; its whole name where there is no /proc.  BUF holds
   the name made.  */
static char const *
dst_at_name (struct meta_job const *m, char *buf, size_t size,
             struct fcopy_options const *opts)
{
  if (m->dst.dirfd == AT_FDCWD)
    return m->dst.rel;
  int n = snprintf (buf, size, "/proc/self/fd/%d/%s", m->dst.dirfd,
                    m->dst.rel);
  return 0 < n && n < size && opts->proc_fds ? buf : m->dst.name;
}

static bool
preserve_xattrs (struct meta_job const *m, struct fcopy_options const *opts)
{
  /* Errors are reported only when xattrs were asked for by name: a user
     of --preserve=all may not care that a filesystem has none.  */
  struct error_context ctx = { .error = xattr_error };
  int r;
  if (m->src_fd < 0 && m->dst_fd < 0)
    {
      /* A symbolic link or special file: libattr's by-name copy works
         with the l*xattr calls, which do not follow links.  */
      char buf[PATH_MAX];
      r = attr_copy_file (m->src_name, dst_at_name (m, buf, sizeof buf, opts),
                          copy_xattr_name, &ctx);
    }
  else if (m->src_fd < 0 || m->dst_fd < 0)
    r = 0;          /* an unreadable source directory: not by name */
  else
    r = attr_copy_fd (m->src_name, m->src_fd, m->dst.name, m->dst_fd,
                      copy_xattr_name, &ctx);
  if (r == 0 || !opts->require_preserve_xattr)
    return true;
  error (0, errno, _("failed to preserve extended attributes for %s"),
         quoteaf (m->dst.name));
  return false;
}

/* The permission bits a new copy of SRC_ST is made without, as cp:
   until the owner is settled, the group and others get nothing, and a
   directory is not writable by them until its special bits are set.  */
static mode_t
omitted_bits (struct stat const *src_st, struct fcopy_options const *opts)
{
  return (opts->preserve_ownership ? S_IRWXG | S_IRWXO
          : S_ISDIR (src_st->st_mode) ? S_IWGRP | S_IWOTH : 0);
}

/* The mode, last: with -p the source's (and its ACL), less DROP; else a
   new file gets back the bits it was created without.  PLAIN: see
   plain_copy.  */
static bool
set_mode (struct meta_job const *m, struct fcopy_options const *opts,
          mode_t drop, bool plain)
{
  mode_t src_mode = m->src_st->st_mode & MODE_BITS & ~drop;
  bool dir = S_ISDIR (m->src_st->st_mode);
  if (S_ISLNK (m->src_st->st_mode))
    return true;                /* a link's mode means nothing */
  if (opts->preserve_mode && plain)
    {
      /* A plain new file has the mode it was made with, less the umask
         (open(2)); a directory, the mode it got and the owner's bits it
         was filled with (tree.c): often the source's already.  */
      mode_t now = (dir ? m->created_mode | S_IRWXU
                    : m->created_mode & ~opts->umask);
      /* As qcopy_acl sets it: a mode without setuid, setgid or sticky
         bits (as DROP may leave it) leaves those the copy has (mkdir's
         sticky bit) as they are.  */
      mode_t perms = S_IRWXU | S_IRWXG | S_IRWXO;
      mode_t want = (src_mode & ~perms ? src_mode
                     : (now & ~perms) | src_mode);
      if (now == want || fchmod (m->dst_fd, want) == 0)
        return true;
      error (0, errno, _("preserving permissions for %s"),
             quoteaf (m->dst.name));
      return !opts->require_preserve;
    }
  if (opts->preserve_mode)
    {
      /* gnulib sets a directory's default ACL by name: no call takes a
         descriptor for it.  Give it a name of the descriptor, which
         cannot lead elsewhere, where /proc has one.  */
      char fd_name[PATH_MAX];
      char const *acl_name = m->dst.name;
      sprintf (fd_name, "/proc/self/fd/%d", m->dst_fd);
      if (m->dst_fd < 0)
        acl_name = dst_at_name (m, fd_name, sizeof fd_name, opts);
      else if (dir && opts->proc_fds)
        acl_name = fd_name;
      int r;
      /* After a failed chown (DROP holds the group's and others' bits),
         no ACL: the source's was meant for another owner and group.  */
      if (drop & S_IRWXO)
        r = (0 <= m->dst_fd && !dir ? fchmod (m->dst_fd, src_mode)
             : chmod (acl_name, src_mode));
      else
        /* With the file type, so that a directory's default ACL goes
           too.  */
        r = qcopy_acl (m->src_name, m->src_fd, acl_name, m->dst_fd,
                       (m->src_st->st_mode & S_IFMT) | src_mode);
      if (r == 0)
        return true;
      error (0, errno, _("preserving permissions for %s"),
             quoteaf (m->dst.name));
      return !opts->require_preserve;
    }
  if (!m->created)
    return true;
  /* The kernel gave the new file its mode less the umask, or as a
     default ACL of its directory says; only bits held back at creation
     (or --no-preserve=mode) call for a chmod.  */
  mode_t perms = src_mode & (S_IRWXU | S_IRWXG | S_IRWXO);
  mode_t made = m->created_mode & (S_IRWXU | S_IRWXG | S_IRWXO);
  mode_t mode;
  /* A directory keeps the sticky bit it was made with, as cp's does.  */
  if (opts->no_preserve_mode)
    mode = (dir ? S_IRWXU | S_IRWXG | S_IRWXO | (m->created_mode & S_ISVTX)
            : S_IRUSR | S_IWUSR | S_IRGRP | S_IWGRP | S_IROTH | S_IWOTH)
           & ~opts->umask;
  else if (dir)
    {
      /* cp's rule for a directory: CREATED_MODE is the mode it got.  It
         gets back the bits held back that the umask allows, and loses
         the owner's bits it was filled with, only if they differ, so that
         the mask of a default ACL stands.  */
      mode_t omitted = perms & omitted_bits (m->src_st, opts) & ~opts->umask;
      if ((made & S_IRWXU) == S_IRWXU && !(omitted & ~made))
        return true;
      mode = (m->created_mode & MODE_BITS) | omitted;
    }
  else if (made != perms)
    mode = (perms | (m->created_mode & S_ISVTX)) & ~opts->umask;
  else
    return true;
  if ((m->dst_fd < 0 ? fchmodat (m->dst.dirfd, m->dst.rel, mode, 0)
       : fchmod (m->dst_fd, mode)) == 0)
    return true;
  error (0, errno, _("setting permissions for %s"), quoteaf (m->dst.name));
  return false;
}

mode_t
creation_mode (struct stat const *src_st, struct fcopy_options const *opts)
{
  mode_t mode = src_st->st_mode & (S_IRWXU | S_IRWXG | S_IRWXO);
  /* mkdir keeps the sticky bit, as cp gives it to directories.  */
  if (S_ISDIR (src_st->st_mode))
    mode |= src_st->st_mode & S_ISVTX;
  return mode & ~omitted_bits (src_st, opts);
}

mode_t
file_creation_mode (struct stat const *src_st, struct dst_path const *dst,
                    struct fcopy_options const *opts)
{
  bool dir = S_ISDIR (src_st->st_mode);
  /* A setgid directory's bit is no mkdir's to give: until a chmod
     does, its group and others must not make files in it that would
     not get its group.  */
  if (dst->plain && src_st->st_uid == opts->euid
      && src_st->st_gid == opts->egid && !(dir && (src_st->st_mode & S_ISGID)))
    return src_st->st_mode & (S_IRWXU | S_IRWXG | S_IRWXO
                              | (dir ? S_ISVTX : 0));
  return creation_mode (src_st, opts);
}

bool
plain_copy (struct meta_job const *m, struct fcopy_options const *opts)
{
  if (!m->created || !m->dst.plain || m->dst_fd < 0
      || !(opts->preserve_xattr || opts->preserve_mode))
    return false;
  /* A directory's two ACLs (access, default) are extended attributes:
     one listing tells of both.  */
  if (S_ISDIR (m->src_st->st_mode))
    return (0 <= m->src_fd ? flistxattr (m->src_fd, NULL, 0)
            : listxattr (m->src_name, NULL, 0)) == 0;
  if (m->src_fd < 0 || !S_ISREG (m->src_st->st_mode))
    return false;
  if (opts->preserve_xattr)
    return flistxattr (m->src_fd, NULL, 0) == 0;
  return (fgetxattr (m->src_fd, "system.posix_acl_access", NULL, 0) < 0
          && errno == ENODATA);
}

/* Whether a new plain copy already has the owner and group to give it:
   made by this process, it has its effective ones.  */
static bool
owned_already (struct meta_job const *m, struct fcopy_options const *opts)
{
  return (m->created && m->dst.plain && m->src_st->st_uid == opts->euid
          && m->src_st->st_gid == opts->egid);
}

bool
copy_metadata (struct meta_job const *m, struct fcopy_options const *opts)
{
  mode_t drop = 0;
  bool ok = true;
  bool plain = (m->plain == PLAIN_ASK ? plain_copy (m, opts)
                : m->plain == PLAIN_YES);
  if (opts->preserve_timestamps)
    ok &= preserve_times (m, opts);
  if (opts->preserve_ownership && !owned_already (m, opts))
    ok &= preserve_owner (m, opts, &drop);
  if (opts->preserve_xattr && !plain)
    ok &= preserve_xattrs (m, opts);
  ok &= set_mode (m, opts, drop, plain);
  return ok;
}

bool
let_owner_fill (int fd, bool path_only, mode_t mode,
                struct dst_path const *dst)
{
  if ((mode & S_IRWXU) == S_IRWXU)
    return true;
  /* An O_PATH descriptor takes no fchmod, but its /proc name leads to
     it and nowhere else; without /proc, the name in its directory.  */
  char proc[sizeof "/proc/self/fd/" + INT_STRLEN_BOUND (int)];
  sprintf (proc, "/proc/self/fd/%d", fd);
  mode_t fill_mode = mode | S_IRWXU;
  if ((!path_only ? fchmod (fd, fill_mode) : chmod (proc, fill_mode)) == 0
      || (path_only && errno == ENOENT
          && fchmodat (dst->dirfd, dst->rel, fill_mode, 0) == 0))
    return true;
  error (0, errno, _("setting permissions for %s"), quoteaf (dst->name));
  return false;
}
