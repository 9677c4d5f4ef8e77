/* fault-shim.c -- LD_PRELOAD library that makes chosen system calls fail.

   The copy ladder of fcopy has a fallback rule at every step (clone, then
   copy_file_range, then splice, then read/write) and a different rule once
   bytes have moved.  Real filesystems rarely fail on demand, so the tests
   preload this library to make the Nth call of one function fail, return a
   short count or return 0, and then check what fcopy did about it.

   Usage:
     LD_PRELOAD=tests/fault-shim.so FCOPY_FAULT='SPEC[,SPEC]...' fcopy ...
     SPEC   = NAME:WHEN:ACTION
     NAME   = ficlone | ficlonerange | fideduperange | ioctl | copy_file_range
              | splice | read | write | open | ftruncate | fsync | fdatasync
              | close | fstat | lseek | pwrite | pread | fchmod | fchown
              | futimens | fsetxattr | linkat | renameat
              | tmpfile (an open with O_TMPFILE; also counted as open)
              | fallocate | mkdirat | unlinkat | symlinkat | readlinkat
              | utimensat | fchownat | fchmodat | mknodat | setxattr
              (each *at name counts its plain form too: mkdir, unlink,
              symlink, readlink, chown and lchown, chmod; setxattr
              counts lsetxattr)
              | pthread_create (an errno ACTION is returned, as
              pthread_create returns its error, not -1)
     WHEN   = N (only the Nth call, 1-based) | N+ (the Nth and later) | *
     ACTION = an errno name (EIO, ENOSPC, ...) or a number: the call is not
              made and returns -1 with that errno
            | short    clamp the byte count to min (count, 4099), then call
            | short=K  clamp the byte count to K, then call
            | zero     return 0 without calling (EOF for read-like calls)
            | stall    wait for a signal, for ever (the call is not made)
            | stall=S  wait S seconds (signals may come), then make the call
   With stall, FCOPY_SHIM_STALLED=FILE is created when the wait starts, so
   that a test knows when to send its signal.
   FCOPY_SHIM_LOG=FILE appends one line "NAME" per intercepted call.
   FCOPY_SHIM_HOOK_ON=SUFFIX with FCOPY_SHIM_HOOK=COMMAND: before the first
   open whose file name ends in SUFFIX, run COMMAND with sh -c (without
   the shim), once; this is how a test changes the files under fcopy at
   a chosen moment, e.g. swaps a symlink into the destination tree.

   Calls are counted per NAME in this process; several libc entry points
   share one NAME (open, open64, openat, openat64 are all "open").  An
   ioctl is counted under "ioctl" and, when it is FICLONE, FICLONERANGE or
   FIDEDUPERANGE, also under that name; it is logged under the most specific
   name.  A malformed FCOPY_FAULT aborts the process with status 125, so a
   typo in a test fails that test instead of silently testing nothing.

   Only calls that go through the dynamic linker are seen: calls glibc
   makes to itself (stdio, the loader) are not, which is what the tests
   want -- they count what fcopy asks of the kernel.  */

/* The shim defines open, lseek, fstat... under their own names, so it must
   see the plain declarations: with _FILE_OFFSET_BITS=64 glibc would redirect
   them to the *64 names, and with _FORTIFY_SOURCE it would define inline
   wrappers of read and open that clash with the definitions below.  */
#undef _FILE_OFFSET_BITS
#undef _FORTIFY_SOURCE
#define _GNU_SOURCE 1

#include <dlfcn.h>
#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <linux/fs.h>

/* The byte count that "short" without "=K" leaves: odd and not a multiple
   of any block or page size, so a caller that assumes aligned progress
   shows it.  */
enum { DEFAULT_SHORT = 4099 };

enum counter
{
  C_FICLONE, C_FICLONERANGE, C_FIDEDUPERANGE, C_IOCTL, C_COPY_FILE_RANGE,
  C_SPLICE, C_READ, C_WRITE, C_OPEN, C_FTRUNCATE, C_FSYNC, C_FDATASYNC,
  C_CLOSE, C_FSTAT, C_LSEEK, C_PWRITE, C_PREAD, C_FCHMOD, C_FCHOWN,
  C_FUTIMENS, C_FSETXATTR, C_LINKAT, C_RENAMEAT, C_TMPFILE,
  C_FALLOCATE, C_MKDIRAT, C_UNLINKAT, C_SYMLINKAT, C_READLINKAT,
  C_UTIMENSAT, C_FCHOWNAT, C_FCHMODAT, C_MKNODAT, C_SETXATTR,
  C_PTHREAD_CREATE, C_COUNT
};

static char const *const counter_name[C_COUNT] =
{
  "ficlone", "ficlonerange", "fideduperange", "ioctl", "copy_file_range",
  "splice", "read", "write", "open", "ftruncate", "fsync", "fdatasync",
  "close", "fstat", "lseek", "pwrite", "pread", "fchmod", "fchown",
  "futimens", "fsetxattr", "linkat", "renameat", "tmpfile",
  "fallocate", "mkdirat", "unlinkat", "symlinkat", "readlinkat",
  "utimensat", "fchownat", "fchmodat", "mknodat", "setxattr",
  "pthread_create"
};

/* Which counters take a byte count that "short" can clamp.  */
static bool
has_count (enum counter c)
{
  return (c == C_READ || c == C_WRITE || c == C_COPY_FILE_RANGE
          || c == C_SPLICE || c == C_PREAD || c == C_PWRITE);
}

enum action_kind { ACT_ERRNO, ACT_SHORT, ACT_ZERO, ACT_STALL };

struct fault
{
  enum counter name;
  unsigned long first;          /* first call hit, 1-based */
  unsigned long last;           /* last call hit; ULONG_MAX = no end */
  enum action_kind kind;
  int err;                      /* ACT_ERRNO */
  size_t clamp;                 /* ACT_SHORT */
  unsigned long seconds;        /* ACT_STALL; 0 = for ever */
};

/* A test names a handful of faults; more is a mistake in the test.  */
enum { MAX_FAULTS = 32 };
static struct fault faults[MAX_FAULTS];
static int n_faults;

static unsigned long calls[C_COUNT];
static int log_fd = -1;

/* What fault, if any, applies to the call that the counter numbers N.  */
struct verdict
{
  bool hit;
  struct fault const *f;
};

#define ERRNO_ENTRY(e) { #e, e }
static struct { char const *name; int value; } const errno_names[] =
{
  ERRNO_ENTRY (EPERM), ERRNO_ENTRY (ENOENT), ERRNO_ENTRY (EINTR),
  ERRNO_ENTRY (EIO), ERRNO_ENTRY (ENXIO), ERRNO_ENTRY (E2BIG),
  ERRNO_ENTRY (EBADF), ERRNO_ENTRY (EAGAIN), ERRNO_ENTRY (EWOULDBLOCK),
  ERRNO_ENTRY (ENOMEM), ERRNO_ENTRY (EACCES), ERRNO_ENTRY (EFAULT),
  ERRNO_ENTRY (EBUSY), ERRNO_ENTRY (EEXIST), ERRNO_ENTRY (EXDEV),
  ERRNO_ENTRY (ENODEV), ERRNO_ENTRY (ENOTDIR), ERRNO_ENTRY (EISDIR),
  ERRNO_ENTRY (EINVAL), ERRNO_ENTRY (ENFILE), ERRNO_ENTRY (EMFILE),
  ERRNO_ENTRY (ENOTTY), ERRNO_ENTRY (ETXTBSY), ERRNO_ENTRY (EFBIG),
  ERRNO_ENTRY (ENOSPC), ERRNO_ENTRY (ESPIPE), ERRNO_ENTRY (EROFS),
  ERRNO_ENTRY (EMLINK), ERRNO_ENTRY (EPIPE), ERRNO_ENTRY (ENAMETOOLONG),
  ERRNO_ENTRY (ENOSYS), ERRNO_ENTRY (ENOTEMPTY), ERRNO_ENTRY (ELOOP),
  ERRNO_ENTRY (ENODATA), ERRNO_ENTRY (EOVERFLOW), ERRNO_ENTRY (EOPNOTSUPP),
  ERRNO_ENTRY (ENOTSUP), ERRNO_ENTRY (ESTALE), ERRNO_ENTRY (EDQUOT),
  ERRNO_ENTRY (ECANCELED), ERRNO_ENTRY (EREMOTEIO),
};

/* Report a bad FCOPY_FAULT and stop: see the comment at the top.
   Only async-signal-safe, unintercepted calls are used here.  */
static void __attribute__ ((noreturn))
bad_spec (char const *spec, char const *why)
{
  char msg[512];
  int n = snprintf (msg, sizeof msg, "fault-shim: bad FCOPY_FAULT spec '%s': %s\n",
                    spec, why);
  if (0 < n)
    syscall (SYS_write, STDERR_FILENO, msg,
             (size_t) n < sizeof msg ? (size_t) n : sizeof msg - 1);
  _exit (125);
}

/* Parse a decimal number of at least 1 from [S, END); false if it is not.  */
static bool
parse_ulong (char const *s, char const *end, unsigned long *result)
{
  unsigned long v = 0;
  if (s == end)
    return false;
  for (; s < end; s++)
    {
      if (*s < '0' || '9' < *s || (ULONG_MAX - (*s - '0')) / 10 < v)
        return false;
      v = v * 10 + (*s - '0');
    }
  *result = v;
  return 0 < v;
}

/* Parse one SPEC, NAME:WHEN:ACTION, into F.  SPEC is NUL-terminated.  */
static void
parse_one (char const *spec, struct fault *f)
{
  char const *c1 = strchr (spec, ':');
  char const *c2 = c1 ? strchr (c1 + 1, ':') : NULL;
  if (!c2)
    bad_spec (spec, "expected NAME:WHEN:ACTION");

  size_t name_len = c1 - spec;
  int i;
  for (i = 0; i < C_COUNT; i++)
    if (strlen (counter_name[i]) == name_len
        && memcmp (counter_name[i], spec, name_len) == 0)
      break;
  if (i == C_COUNT)
    bad_spec (spec, "unknown NAME");
  f->name = i;

  char const *when = c1 + 1;
  if (c2 - when == 1 && *when == '*')
    {
      f->first = 1;
      f->last = ULONG_MAX;
    }
  else if (when < c2 && c2[-1] == '+')
    {
      if (!parse_ulong (when, c2 - 1, &f->first))
        bad_spec (spec, "WHEN must be N, N+ or *, with N >= 1");
      f->last = ULONG_MAX;
    }
  else
    {
      if (!parse_ulong (when, c2, &f->first))
        bad_spec (spec, "WHEN must be N, N+ or *, with N >= 1");
      f->last = f->first;
    }

  char const *action = c2 + 1;
  char const *action_end = action + strlen (action);
  if (strcmp (action, "zero") == 0)
    f->kind = ACT_ZERO;
  else if (strcmp (action, "stall") == 0
           || strncmp (action, "stall=", 6) == 0)
    {
      f->kind = ACT_STALL;
      f->seconds = 0;
      if (action[5] == '='
          && !parse_ulong (action + 6, action_end, &f->seconds))
        bad_spec (spec, "stall=S needs S >= 1");
    }
  else if (strcmp (action, "short") == 0
           || strncmp (action, "short=", 6) == 0)
    {
      unsigned long k = DEFAULT_SHORT;
      if (action[5] == '=' && !parse_ulong (action + 6, action_end, &k))
        bad_spec (spec, "short=K needs K >= 1");
      if (!has_count (f->name))
        bad_spec (spec, "short applies only to calls with a byte count");
      f->kind = ACT_SHORT;
      f->clamp = k;
    }
  else
    {
      unsigned long num;
      f->kind = ACT_ERRNO;
      f->err = 0;
      for (size_t j = 0; j < sizeof errno_names / sizeof *errno_names; j++)
        if (strcmp (errno_names[j].name, action) == 0)
          f->err = errno_names[j].value;
      if (!f->err && parse_ulong (action, action_end, &num) && num < 4096)
        f->err = num;
      if (!f->err)
        bad_spec (spec, "ACTION must be an errno name, short, short=K or zero");
    }
}

/* Read FCOPY_FAULT and FCOPY_SHIM_LOG once, before main runs.  */
static void __attribute__ ((constructor))
shim_init (void)
{
  char const *log = getenv ("FCOPY_SHIM_LOG");
  if (log && *log)
    /* A raw system call: the shim's own open would count itself.  */
    log_fd = syscall (SYS_openat, AT_FDCWD, log,
                      O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);

  char const *env = getenv ("FCOPY_FAULT");
  if (!env || !*env)
    return;
  char buf[4096];
  if (sizeof buf <= strlen (env))
    bad_spec (env, "too long");
  strcpy (buf, env);
  for (char *save, *spec = strtok_r (buf, ",", &save); spec;
       spec = strtok_r (NULL, ",", &save))
    {
      if (n_faults == MAX_FAULTS)
        bad_spec (spec, "too many specs");
      parse_one (spec, &faults[n_faults++]);
    }
}

/* Count one call under C, log it as LOGGED, and say which fault applies.
   errno is kept, since the real call that may follow must not see ours.  */
static struct verdict
count_call (enum counter c, enum counter logged)
{
  int saved_errno = errno;
  unsigned long n = __atomic_add_fetch (&calls[c], 1, __ATOMIC_RELAXED);
  struct verdict v = { false, NULL };

  if (c == logged && 0 <= log_fd)
    {
      char line[32];
      size_t len = strlen (counter_name[c]);
      memcpy (line, counter_name[c], len);
      line[len++] = '\n';
      /* One write per line on an O_APPEND fd keeps lines whole.  */
      syscall (SYS_write, log_fd, line, len);
    }

  for (int i = 0; i < n_faults; i++)
    if (faults[i].name == c && faults[i].first <= n && n <= faults[i].last)
      {
        v.hit = true;
        v.f = &faults[i];
        break;
      }
  errno = saved_errno;
  return v;
}

/* The usual case: a call known under one name only.  */
static struct verdict
check (enum counter c)
{
  return count_call (c, c);
}

/* Apply V to a call whose result is an int or ssize_t; true if the real
   call must be skipped, with *RESULT to return.  */
/* ACT_STALL: say so in FCOPY_SHIM_STALLED, then wait.  */
static void
stall (struct fault const *f)
{
  int saved_errno = errno;
  char const *flag = getenv ("FCOPY_SHIM_STALLED");
  if (flag && *flag)
    {
      long fd = syscall (SYS_openat, AT_FDCWD, flag,
                         O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
      if (0 <= fd)
        syscall (SYS_close, fd);
    }
  if (!f->seconds)
    for (;;)
      pause ();
  struct timespec left = { (time_t) f->seconds, 0 };
  while (nanosleep (&left, &left) != 0 && errno == EINTR)
    continue;
  errno = saved_errno;
}

static bool
fake_result (struct verdict v, long *result)
{
  if (v.hit && v.f->kind == ACT_STALL)
    stall (v.f);
  if (!v.hit || v.f->kind == ACT_SHORT || v.f->kind == ACT_STALL)
    return false;
  if (v.f->kind == ACT_ZERO)
    *result = 0;
  else
    {
      errno = v.f->err;
      *result = -1;
    }
  return true;
}

/* The count to pass to the real call under V.  */
static size_t
clamp (struct verdict v, size_t count)
{
  if (v.hit && v.f->kind == ACT_SHORT && v.f->clamp < count)
    return v.f->clamp;
  return count;
}

/* The next definition of NAME after this library, looked up on first use.
   Two threads racing here both store the same pointer, so a relaxed
   atomic is enough.  */
#define REAL(name)                                                      \
  ({                                                                    \
    static __typeof__ (name) *real_##name;                              \
    __typeof__ (name) *fn = __atomic_load_n (&real_##name,              \
                                             __ATOMIC_RELAXED);         \
    if (!fn)                                                            \
      {                                                                 \
        fn = (__typeof__ (name) *) dlsym (RTLD_NEXT, #name);            \
        if (!fn)                                                        \
          {                                                             \
            static char const msg[] = "fault-shim: no symbol " #name "\n"; \
            syscall (SYS_write, STDERR_FILENO, msg, sizeof msg - 1);    \
            _exit (125);                                                \
          }                                                             \
        __atomic_store_n (&real_##name, fn, __ATOMIC_RELAXED);          \
      }                                                                 \
    fn;                                                                 \
  })

/* A call with no byte count: fail or fake it, or make it as asked.  */
#define PLAIN_CALL(counter, name, ...)                                  \
  do {                                                                  \
    long fake;                                                          \
    if (fake_result (check (counter), &fake))                           \
      return fake;                                                      \
    return REAL (name) (__VA_ARGS__);                                   \
  } while (0)

/* A call whose byte count argument COUNT "short" may clamp.  */
#define COUNTED_CALL(counter, name, count, ...)                         \
  do {                                                                  \
    long fake;                                                          \
    struct verdict v = check (counter);                                 \
    if (fake_result (v, &fake))                                         \
      return fake;                                                      \
    count = clamp (v, count);                                           \
    return REAL (name) (__VA_ARGS__);                                   \
  } while (0)

/* glibc's fortified entry points, not declared without _FORTIFY_SOURCE;
   a program built with it calls these instead of read, open...  */
ssize_t __read_chk (int, void *, size_t, size_t);
ssize_t __pread_chk (int, void *, size_t, off_t, size_t);
ssize_t __pread64_chk (int, void *, size_t, off64_t, size_t);
int __open_2 (char const *, int);
int __open64_2 (char const *, int);
int __openat_2 (int, char const *, int);
int __openat64_2 (int, char const *, int);

/* open(2) takes a mode only when it may create a file; reading a
   va_arg that was not passed is undefined, so look at the flags first.  */
static mode_t
open_mode (int flags, va_list ap)
{
  if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
    return va_arg (ap, mode_t);
  return 0;
}

/* An open with O_TMPFILE also counts as "tmpfile"; true if a fault makes
   it fail (errno set).  */
static bool
tmpfile_fault (int flags)
{
  long fake;
  return ((flags & O_TMPFILE) == O_TMPFILE
          && fake_result (check (C_TMPFILE), &fake) && fake < 0);
}

/* FCOPY_SHIM_HOOK_ON: run FCOPY_SHIM_HOOK before opening PATH, once. */
static void
maybe_hook (char const *path)
{
  char const *suffix = getenv ("FCOPY_SHIM_HOOK_ON");
  char const *command = getenv ("FCOPY_SHIM_HOOK");
  size_t len = path ? strlen (path) : 0;
  if (!suffix || !*suffix || !command || len < strlen (suffix)
      || strcmp (path + len - strlen (suffix), suffix) != 0)
    return;
  int saved_errno = errno;
  /* Once, and the command's own processes without the shim.  */
  unsetenv ("FCOPY_SHIM_HOOK_ON");
  unsetenv ("LD_PRELOAD");
  if (system (command) != 0)
    {
      fprintf (stderr, "fault-shim: hook failed: %s\n", command);
      _exit (125);
    }
  errno = saved_errno;
}

int
open (char const *path, int flags, ...)
{
  maybe_hook (path);
  va_list ap;
  va_start (ap, flags);
  mode_t mode = open_mode (flags, ap);
  va_end (ap);
  if (tmpfile_fault (flags))
    return -1;
  PLAIN_CALL (C_OPEN, open, path, flags, mode);
}

int
open64 (char const *path, int flags, ...)
{
  maybe_hook (path);
  va_list ap;
  va_start (ap, flags);
  mode_t mode = open_mode (flags, ap);
  va_end (ap);
  if (tmpfile_fault (flags))
    return -1;
  PLAIN_CALL (C_OPEN, open64, path, flags, mode);
}

int
openat (int dir_fd, char const *path, int flags, ...)
{
  maybe_hook (path);
  va_list ap;
  va_start (ap, flags);
  mode_t mode = open_mode (flags, ap);
  va_end (ap);
  if (tmpfile_fault (flags))
    return -1;
  PLAIN_CALL (C_OPEN, openat, dir_fd, path, flags, mode);
}

int
openat64 (int dir_fd, char const *path, int flags, ...)
{
  maybe_hook (path);
  va_list ap;
  va_start (ap, flags);
  mode_t mode = open_mode (flags, ap);
  va_end (ap);
  if (tmpfile_fault (flags))
    return -1;
  PLAIN_CALL (C_OPEN, openat64, dir_fd, path, flags, mode);
}

int
__open_2 (char const *path, int flags)
{
  maybe_hook (path);
  PLAIN_CALL (C_OPEN, __open_2, path, flags);
}

int
__open64_2 (char const *path, int flags)
{
  maybe_hook (path);
  PLAIN_CALL (C_OPEN, __open64_2, path, flags);
}

int
__openat_2 (int dir_fd, char const *path, int flags)
{
  maybe_hook (path);
  PLAIN_CALL (C_OPEN, __openat_2, dir_fd, path, flags);
}

int
__openat64_2 (int dir_fd, char const *path, int flags)
{
  maybe_hook (path);
  PLAIN_CALL (C_OPEN, __openat64_2, dir_fd, path, flags);
}

ssize_t
read (int fd, void *buf, size_t count)
{
  COUNTED_CALL (C_READ, read, count, fd, buf, count);
}

ssize_t
__read_chk (int fd, void *buf, size_t count, size_t buf_size)
{
  COUNTED_CALL (C_READ, __read_chk, count, fd, buf, count, buf_size);
}

ssize_t
write (int fd, void const *buf, size_t count)
{
  COUNTED_CALL (C_WRITE, write, count, fd, buf, count);
}

ssize_t
pread (int fd, void *buf, size_t count, off_t offset)
{
  COUNTED_CALL (C_PREAD, pread, count, fd, buf, count, offset);
}

ssize_t
pread64 (int fd, void *buf, size_t count, off64_t offset)
{
  COUNTED_CALL (C_PREAD, pread64, count, fd, buf, count, offset);
}

ssize_t
__pread_chk (int fd, void *buf, size_t count, off_t offset, size_t buf_size)
{
  COUNTED_CALL (C_PREAD, __pread_chk, count, fd, buf, count, offset, buf_size);
}

ssize_t
__pread64_chk (int fd, void *buf, size_t count, off64_t offset,
               size_t buf_size)
{
  COUNTED_CALL (C_PREAD, __pread64_chk, count, fd, buf, count, offset,
                buf_size);
}

ssize_t
pwrite (int fd, void const *buf, size_t count, off_t offset)
{
  COUNTED_CALL (C_PWRITE, pwrite, count, fd, buf, count, offset);
}

ssize_t
pwrite64 (int fd, void const *buf, size_t count, off64_t offset)
{
  COUNTED_CALL (C_PWRITE, pwrite64, count, fd, buf, count, offset);
}

ssize_t
copy_file_range (int in_fd, off64_t *in_off, int out_fd, off64_t *out_off,
                 size_t len, unsigned int flags)
{
  COUNTED_CALL (C_COPY_FILE_RANGE, copy_file_range, len,
                in_fd, in_off, out_fd, out_off, len, flags);
}

ssize_t
splice (int in_fd, off64_t *in_off, int out_fd, off64_t *out_off,
        size_t len, unsigned int flags)
{
  COUNTED_CALL (C_SPLICE, splice, len, in_fd, in_off, out_fd, out_off, len,
                flags);
}

/* ioctl's third argument is one pointer-sized value for every request
   the shim can meet; passing it on as a pointer keeps it intact.  */
int
ioctl (int fd, unsigned long request, ...)
{
  va_list ap;
  va_start (ap, request);
  void *arg = va_arg (ap, void *);
  va_end (ap);

  enum counter specific = C_IOCTL;
  if (request == FICLONE)
    specific = C_FICLONE;
  else if (request == FICLONERANGE)
    specific = C_FICLONERANGE;
  else if (request == FIDEDUPERANGE)
    specific = C_FIDEDUPERANGE;

  /* Every ioctl counts as "ioctl"; a clone or dedupe request also counts
     under its own name, and a fault named for it wins.  */
  struct verdict v = count_call (C_IOCTL, specific);
  if (specific != C_IOCTL)
    {
      struct verdict vs = check (specific);
      if (vs.hit)
        v = vs;
    }
  long fake;
  if (fake_result (v, &fake))
    return fake;
  return REAL (ioctl) (fd, request, arg);
}

int
ftruncate (int fd, off_t length)
{
  PLAIN_CALL (C_FTRUNCATE, ftruncate, fd, length);
}

int
ftruncate64 (int fd, off64_t length)
{
  PLAIN_CALL (C_FTRUNCATE, ftruncate64, fd, length);
}

int
fsync (int fd)
{
  PLAIN_CALL (C_FSYNC, fsync, fd);
}

int
fdatasync (int fd)
{
  PLAIN_CALL (C_FDATASYNC, fdatasync, fd);
}

int
close (int fd)
{
  PLAIN_CALL (C_CLOSE, close, fd);
}

/* glibc 2.33 and later export fstat and fstat64 as real functions
   (before, they were inline wrappers of __fxstat).  */
int
fstat (int fd, struct stat *st)
{
  PLAIN_CALL (C_FSTAT, fstat, fd, st);
}

int
fstat64 (int fd, struct stat64 *st)
{
  PLAIN_CALL (C_FSTAT, fstat64, fd, st);
}

off_t
lseek (int fd, off_t offset, int whence)
{
  PLAIN_CALL (C_LSEEK, lseek, fd, offset, whence);
}

off64_t
lseek64 (int fd, off64_t offset, int whence)
{
  PLAIN_CALL (C_LSEEK, lseek64, fd, offset, whence);
}

int
fchmod (int fd, mode_t mode)
{
  PLAIN_CALL (C_FCHMOD, fchmod, fd, mode);
}

int
fchown (int fd, uid_t owner, gid_t group)
{
  PLAIN_CALL (C_FCHOWN, fchown, fd, owner, group);
}

int
futimens (int fd, struct timespec const times[2])
{
  PLAIN_CALL (C_FUTIMENS, futimens, fd, times);
}

int
fsetxattr (int fd, char const *name, void const *value, size_t size,
           int flags)
{
  PLAIN_CALL (C_FSETXATTR, fsetxattr, fd, name, value, size, flags);
}

int
linkat (int old_dir_fd, char const *old_path, int new_dir_fd,
        char const *new_path, int flags)
{
  PLAIN_CALL (C_LINKAT, linkat, old_dir_fd, old_path, new_dir_fd, new_path,
              flags);
}

int
renameat (int old_dir_fd, char const *old_path, int new_dir_fd,
          char const *new_path)
{
  PLAIN_CALL (C_RENAMEAT, renameat, old_dir_fd, old_path, new_dir_fd,
              new_path);
}

int
renameat2 (int old_dir_fd, char const *old_path, int new_dir_fd,
           char const *new_path, unsigned int flags)
{
  PLAIN_CALL (C_RENAMEAT, renameat2, old_dir_fd, old_path, new_dir_fd,
              new_path, flags);
}

int
rename (char const *old_path, char const *new_path)
{
  PLAIN_CALL (C_RENAMEAT, rename, old_path, new_path);
}

/* The calls on names and the rest that the copy of a tree makes: each
   counted under the name of its *at form, with its plain form.  */

int
fallocate (int fd, int mode, off_t offset, off_t len)
{
  PLAIN_CALL (C_FALLOCATE, fallocate, fd, mode, offset, len);
}

int
fallocate64 (int fd, int mode, off64_t offset, off64_t len)
{
  PLAIN_CALL (C_FALLOCATE, fallocate64, fd, mode, offset, len);
}

int
mkdirat (int dir_fd, char const *path, mode_t mode)
{
  PLAIN_CALL (C_MKDIRAT, mkdirat, dir_fd, path, mode);
}

int
mkdir (char const *path, mode_t mode)
{
  PLAIN_CALL (C_MKDIRAT, mkdir, path, mode);
}

int
unlinkat (int dir_fd, char const *path, int flags)
{
  PLAIN_CALL (C_UNLINKAT, unlinkat, dir_fd, path, flags);
}

int
unlink (char const *path)
{
  PLAIN_CALL (C_UNLINKAT, unlink, path);
}

int
symlinkat (char const *target, int dir_fd, char const *path)
{
  PLAIN_CALL (C_SYMLINKAT, symlinkat, target, dir_fd, path);
}

int
symlink (char const *target, char const *path)
{
  PLAIN_CALL (C_SYMLINKAT, symlink, target, path);
}

ssize_t
readlinkat (int dir_fd, char const *path, char *buf, size_t size)
{
  PLAIN_CALL (C_READLINKAT, readlinkat, dir_fd, path, buf, size);
}

ssize_t
readlink (char const *path, char *buf, size_t size)
{
  PLAIN_CALL (C_READLINKAT, readlink, path, buf, size);
}

int
utimensat (int dir_fd, char const *path, struct timespec const times[2],
           int flags)
{
  PLAIN_CALL (C_UTIMENSAT, utimensat, dir_fd, path, times, flags);
}

int
fchownat (int dir_fd, char const *path, uid_t owner, gid_t group, int flags)
{
  PLAIN_CALL (C_FCHOWNAT, fchownat, dir_fd, path, owner, group, flags);
}

int
lchown (char const *path, uid_t owner, gid_t group)
{
  PLAIN_CALL (C_FCHOWNAT, lchown, path, owner, group);
}

int
chown (char const *path, uid_t owner, gid_t group)
{
  PLAIN_CALL (C_FCHOWNAT, chown, path, owner, group);
}

int
fchmodat (int dir_fd, char const *path, mode_t mode, int flags)
{
  PLAIN_CALL (C_FCHMODAT, fchmodat, dir_fd, path, mode, flags);
}

int
chmod (char const *path, mode_t mode)
{
  PLAIN_CALL (C_FCHMODAT, chmod, path, mode);
}

int
mknodat (int dir_fd, char const *path, mode_t mode, dev_t dev)
{
  PLAIN_CALL (C_MKNODAT, mknodat, dir_fd, path, mode, dev);
}

int
setxattr (char const *path, char const *name, void const *value,
          size_t size, int flags)
{
  PLAIN_CALL (C_SETXATTR, setxattr, path, name, value, size, flags);
}

int
lsetxattr (char const *path, char const *name, void const *value,
           size_t size, int flags)
{
  PLAIN_CALL (C_SETXATTR, lsetxattr, path, name, value, size, flags);
}

int
pthread_create (pthread_t *thread, pthread_attr_t const *attr,
                void *(*start) (void *), void *arg)
{
  long fake;
  if (fake_result (check (C_PTHREAD_CREATE), &fake))
    return fake < 0 ? errno : EAGAIN;
  return REAL (pthread_create) (thread, attr, start, arg);
}
