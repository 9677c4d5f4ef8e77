/* copy-file.c -- copy one non-directory: open both ends, run the engine,
   say what happened (design §6).  */

#include <config.h>
#include "copy-file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "acl.h"
#include "atomic.h"
#include "dest.h"
#include "error.h"
#include "i18n.h"
#include "metadata.h"
#include "intprops.h"
#include "minmax.h"
#include "progress.h"
#include "quote-name.h"
#include "range.h"
#include "reopen.h"
#include "report.h"
#include "same-inode.h"
#include "stat-time.h"
#include "timespec.h"

int
open_and_stat (char const *name, int flags, struct stat *st)
{
  int fd = open (name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | flags);
  if (fd < 0 || fstat (fd, st) == 0)
    return fd;
  int fstat_errno = errno;
  close (fd);
  errno = fstat_errno;
  return -1;
}

void
report_unopenable (char const *src_name, struct stat const *st,
                   int open_errno, char const *verbose_dst)
{
  if (verbose_dst && !S_ISDIR (st->st_mode))
    report_verbose (src_name, verbose_dst, NULL);
  error (0, open_errno, _("cannot open %s for reading"), quoteaf (src_name));
}

/* Open SRC_NAME as open_and_stat does.  Report a failure (as cp words
   it) and return -1; if VERBOSE_DST is not null, print -v's line for a
   copy to it first when the source is there but cannot be opened.  */
static int
open_source (char const *src_name, struct stat *st, char const *verbose_dst)
{
  int fd = open_and_stat (src_name, 0, st);
  if (fd < 0)
    {
      /* Word it as cp does: a name that is not there "cannot stat".  */
      int open_errno = errno;
      if (stat (src_name, st) != 0)
        error (0, errno, _("cannot stat %s"), quoteaf (src_name));
      else
        report_unopenable (src_name, st, open_errno, verbose_dst);
      return -1;
    }
  return fd;
}

/* Make FD, open with O_NONBLOCK on the FIFO NAME (ST), read as cp reads
   a FIFO.  A FIFO opened before any writer came reads as EOF at once
   (pipe(7)), blocking or not, where cp's blocking open waits for a
   writer: open it again, blocking (reopen.c), then close FD.  Bytes
   already queued mean that a writer came (and maybe left) between our
   open and now: FD reads them, and EOF after them is true.  Return the
   descriptor to read, or -1 after a message.  */
static int
wait_for_writer (int fd, char const *name, struct stat const *st)
{
  int queued;
  if (ioctl (fd, FIONREAD, &queued) == 0 && 0 < queued)
    return fd;
  int new_fd = reopen (fd, name, st, O_RDONLY | O_NOCTTY | O_CLOEXEC);
  if (new_fd == REOPEN_REPLACED)
    error (0, 0, _("%s was replaced while it was opened"), quoteaf (name));
  else if (new_fd < 0)
    error (0, errno, _("cannot open %s for reading"), quoteaf (name));
  close (fd);
  return new_fd < 0 ? -1 : new_fd;
}

/* A destination open for the copy.  */
struct opened_dest
{
  int fd;
  bool created;                 /* made for it */
  mode_t mode;                  /* the mode it was made with, if CREATED */
};

/* Open the existing destination D for writing over.  It is truncated,
   but not under --reflink=always, where a failed clone must leave it as
   it was, nor in range mode, which keeps the bytes around the range, nor
   with --attributes-only.  -f: one that cannot be opened is removed
   (act_on_dest, with MEM), to be made anew: D->action is DEST_MAKE.  */
static int
open_existing (char const *src_name, struct dest *d,
               struct copy_job const *job, struct fcopy_options const *opts,
               struct copy_memory const *mem)
{
  /* Two ranges of one file are fine if they are apart.  */
  if (SAME_INODE (*job->src_st, d->st) && job->range
      && ranges_overlap (job->src_off, job->dst_off, job->len))
    {
      error (0, 0, _("%s and %s are the same file and the ranges overlap"),
             quoteaf_n (0, src_name), quoteaf_n (1, d->path.name));
      return -1;
    }
  int trunc = (!opts->attributes_only && engine_truncates (opts, job->range)
               ? O_TRUNC : 0);
  /* --verify reads the copy back through the same descriptor.  */
  int access = opts->verify ? O_RDWR : O_WRONLY;
  int fd = openat (d->path.dirfd, d->path.rel, access | O_CLOEXEC | trunc);
  if (0 <= fd || !opts->force)
    {
      if (fd < 0)
        error (0, errno, _("cannot create regular file %s"),
               quoteaf (d->path.name));
      return fd;
    }
  d->action = DEST_REMOVE_UNOPENABLE;
  act_on_dest (d, src_name, &mem->dest, opts);
  return -1;
}

/* Make the destination D anew, with O_EXCL, so a name that appears
   meanwhile is never followed; readable, for --verify (a file made is
   its maker's to open either way).  Permission bits only: cp gives a new
   file the source's mode less setuid/setgid/sticky (-p sets them last),
   and the umask does the rest.  If THERE is not null, a name that is
   there is not an error: set *THERE and return -1, with nothing said.  */
static int
create_dest (struct dest const *d, struct copy_job const *job,
             struct fcopy_options const *opts, bool *there)
{
  /* "new/" names a directory that is not there, never a file.  */
  size_t len = strlen (d->path.rel);
  int fd = (len && d->path.rel[len - 1] == '/'
            ? (errno = ENOTDIR, -1)
            : openat (d->path.dirfd, d->path.rel,
                      O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
                      file_creation_mode (job->src_st, &d->path, opts)));
  if (fd < 0 && errno == EEXIST && there)
    {
      *there = true;
      return -1;
    }
  struct stat lst;
  bool dangling = (fd < 0 && errno == EEXIST
                   && fstatat (d->path.dirfd, d->path.rel, &lst,
                               AT_SYMLINK_NOFOLLOW) == 0
                   && S_ISLNK (lst.st_mode));
  if (dangling && opts->write_dangling)
    fd = openat (d->path.dirfd, d->path.rel, O_RDWR | O_CREAT | O_CLOEXEC,
                 file_creation_mode (job->src_st, &d->path, opts));
  if (fd < 0)
    {
      if (dangling && !opts->write_dangling)
        error (0, 0, _("not writing through dangling symlink %s"),
               quoteaf (d->path.name));
      else
        error (0, errno, _("cannot create regular file %s"),
               quoteaf (d->path.name));
      return -1;
    }
  return fd;
}

/* Open D for writing JOB's data, after cp's checks of an existing file
   (dest.c).  Set *CREATED when the file is ours, *KEPT when the file
   there is to be left as it is.  */
static int
open_dest (char const *src_name, struct dest *d, struct copy_job const *job,
           struct fcopy_options const *opts, struct copy_memory const *mem,
           bool *created, bool *kept)
{
  int flags = DEST_FOLLOW | (job->range ? DEST_SAME_OK : 0);
  decide_dest (d, src_name, job->src_st, flags, &mem->dest, opts);
  enum dest_action a = act_on_dest (d, src_name, &mem->dest, opts);
  *created = false;
  *kept = a == DEST_KEEP;
  if (a == DEST_KEEP || a == DEST_FAILED)
    return -1;
  /* cp says what it is about to do before it knows how it will go.  */
  if (opts->verbose && !opts->debug)
    report_verbose (src_name, d->path.name, d->backup);
  if (a == DEST_WRITE_OVER)
    {
      int fd = open_existing (src_name, d, job, opts, mem);
      /* -f removed what could not be opened: make it anew.  */
      if (d->action != DEST_MAKE)
        return fd;
    }
  int fd = create_dest (d, job, opts, NULL);
  *created = 0 <= fd;
  return fd;
}

/* Say once why copying SRC_NAME to DST_NAME failed, with errno.  */
static void
report_failure (struct copy_job const *job, enum copy_failure failure,
                char const *src_name, char const *dst_name)
{
  switch (failure)
    {
    case FAILED_CLONE:
      if (job->range && errno == EINVAL)
        error (0, errno, _("failed to clone %s from %s (the offsets and "
               "length must be multiples of the block size, %jd bytes, "
               "but for a range that ends at the end of both files)"),
               quoteaf_n (0, dst_name), quoteaf_n (1, src_name),
               (intmax_t) job->src_st->st_blksize);
      else
        error (0, errno, _("failed to clone %s from %s"),
               quoteaf_n (0, dst_name), quoteaf_n (1, src_name));
      break;
    case FAILED_READ:
      error (0, errno, _("error reading %s"), quoteaf (src_name));
      break;
    case FAILED_WRITE:
      error (0, errno, _("error writing %s"), quoteaf (dst_name));
      break;
    case FAILED_EXTEND:
      error (0, errno, _("failed to extend %s"), quoteaf (dst_name));
      break;
    default:
      error (0, errno, _("error copying %s to %s"),
             quoteaf_n (0, src_name), quoteaf_n (1, dst_name));
      break;
    }
}

/* Range mode: work out JOB's range from OPTS.  The source may end
   before the range does: then what exists is copied, and -v says so.
   A source that cannot seek (a FIFO, a pipe, some devices) has no byte
   S to start at: refuse it before DEST is touched.  */
static bool
plan_range (struct copy_job *job, struct fcopy_options const *opts,
            char const *src_name)
{
  if (opts->src_offset != 0 && lseek (job->src_fd, 0, SEEK_CUR) < 0)
    {
      error (0, errno, _("cannot seek in %s"), quoteaf (src_name));
      return false;
    }
  off_t size = job->src_st->st_size;
  /* Pipes and files in /proc have no size to trust: read what comes.  */
  bool sized = S_ISREG (job->src_st->st_mode) && 0 < size;
  off_t avail = (!sized ? TYPE_MAXIMUM (off_t) - opts->src_offset
                 : range_after (size, opts->src_offset));
  job->range = true;
  job->src_off = opts->src_offset;
  job->dst_off = opts->dst_offset;
  job->len = opts->length < 0 ? avail : MIN (opts->length, avail);
  if (opts->verbose && job->len < opts->length)
    report_short_range (src_name, size, job->len, opts->length);
  return true;
}

/* --fsync: sync the file FD (NAME) to disk.  A failed fsync is not
   retried and trusted: the data may be lost.  */
static bool
sync_file (int fd, char const *name)
{
  if (fsync (fd) == 0)
    return true;
  error (0, errno, _("failed to sync %s"), quoteaf (name));
  return false;
}

/* Whether the source changed while it was read: its size or
   modification time is not what it was when it was opened, or its change
   time not what it was (CTIME) when reading began.  Say so.  */
static bool
source_changed (struct copy_job const *job, struct timespec ctime,
                char const *src_name)
{
  struct stat const *old = job->src_st;
  struct stat st;
  if (!S_ISREG (old->st_mode) || fstat (job->src_fd, &st) != 0
      || (st.st_size == old->st_size
          && timespec_cmp (get_stat_mtime (&st), get_stat_mtime (old)) == 0
          && timespec_cmp (get_stat_ctime (&st), ctime) == 0))
    return false;
  error (0, 0, _("%s: file changed as we read it"), quotef (src_name));
  return true;
}

/* --verify: check that JOB's destination, just written as REPORT
   says, holds the data of the source (SRC_NAME), or of the origin it
   was cloned from.  Say what is wrong.  */
static bool
verify_dest (struct copy_job const *job, struct copy_report *report,
             char const *src_name, char const *dst_name)
{
  bool from_origin = report->origin == ORIGIN_CLONED;
  char const *from_name = from_origin ? report->cloned_from : src_name;
  off_t at;
  report->verified = verify_copy (from_origin ? job->origin_fd : job->src_fd,
                                  job->range ? job->src_off : 0, job->dst_fd,
                                  job->range ? job->dst_off : 0,
                                  job->range ? job->len : -1,
                                  report->step[LADDER_CLONE] == STEP_DONE,
                                  &at);
  switch (report->verified)
    {
    case VERIFY_DIFFERS:
      error (0, 0, _("verification failed: %s differs from %s at byte %jd"),
             quoteaf_n (0, dst_name), quoteaf_n (1, from_name),
             (intmax_t) at);
      return false;
    case VERIFY_SRC_FAILED:
      error (0, errno, _("error reading %s"), quoteaf (from_name));
      return false;
    case VERIFY_SYNC_FAILED:
      error (0, errno, _("failed to sync %s"), quoteaf (dst_name));
      return false;
    case VERIFY_DST_FAILED:
      error (0, errno, _("cannot read back %s"), quoteaf (dst_name));
      return false;
    default:
      return true;
    }
}

/* --clone-dest: look for JOB's file (to DST) in MEM's directories.  */
static void
find_origin (struct copy_job *job, struct dst_path const *dst,
             struct fcopy_options const *opts, struct copy_memory const *mem,
             struct clone_match *m)
{
  job->origin_fd = (opts->attributes_only ? -1
                    : clone_dests_find (mem->origins, dst->name, job->src_fd,
                                        job->src_st, m));
  job->has_origin = 0 <= job->origin_fd;
}

/* What became of JOB's origin M (the copy's REPORT): name it for
   --debug and a message, say once that its directory cannot clone into
   D and the file was copied from the source, count it.  */
static void
settle_origin (struct copy_job const *job, struct copy_report *report,
               struct copy_memory const *mem, struct clone_match const *m,
               char **origin_name)
{
  *origin_name = NULL;
  if (!job->has_origin)
    return;
  int saved_errno = errno;
  *origin_name = clone_dests_name (mem->origins, m);
  if (report->origin == ORIGIN_CLONED)
    {
      report->cloned_from = *origin_name;
      STATS_ADD (mem->stats, origin_files, 1);
      STATS_ADD (mem->stats, origin_bytes, job->src_st->st_size);
    }
  else if (report->origin == ORIGIN_UNSUPPORTED)
    clone_dests_cannot (mem->origins, m, report->origin_errno);
  errno = saved_errno;
}

/* The name to give a failed copy's source: the origin's, if cloning it
   failed.  */
static char const *
failed_source (struct copy_report const *report, char const *src_name,
               char const *origin_name)
{
  return report->origin == ORIGIN_FAILED ? origin_name : src_name;
}

/* Copy JOB's data into D (open, made for it if D->created), and give it
   its metadata; *REPORT tells what the engine did.  */
static bool
copy_into (struct copy_job *job, char const *src_name,
           struct dst_path const *dst, struct opened_dest const *d,
           struct fcopy_options const *opts, struct copy_memory const *mem,
           struct copy_report *report)
{
  int dst_fd = d->fd;
  bool created = d->created;
  job->dst_fd = dst_fd;
  job->dst_new = created;
  struct clone_match m;
  find_origin (job, dst, opts, mem, &m);
  /* The change time from now on: making room for DEST changed it if
     DEST was a link of the source, renamed aside or removed (-b,
     --remove-destination).  A file of one link cannot have been.  */
  struct timespec ctime = get_stat_ctime (job->src_st);
  struct stat now;
  if (1 < job->src_st->st_nlink && fstat (job->src_fd, &now) == 0)
    ctime = get_stat_ctime (&now);
  *report = (struct copy_report) { 0 };
  /* An empty range: nothing to move, and FICLONERANGE would take a
     length of 0 to mean "up to the end".  */
  bool ok = ((job->range && job->len == 0) || opts->attributes_only
             || copy_data (job, opts, report));
  char *origin_name;
  settle_origin (job, report, mem, &m, &origin_name);
  if (!ok)
    report_failure (job, report->failure,
                    failed_source (report, src_name, origin_name), dst->name);
  else if (opts->verify && !opts->attributes_only
           && S_ISREG (job->src_st->st_mode))
    ok = verify_dest (job, report, src_name, dst->name);
  if (ok)
    {
      struct meta_job meta = { job->src_fd, dst_fd, src_name, *dst,
                               job->src_st, created, d->mode,
                               PLAIN_ASK };
      ok = copy_metadata (&meta, opts);
      /* Not in range mode, where SOURCE may be DEST itself.  */
      ok &= (opts->attributes_only || job->range
             || !source_changed (job, ctime, src_name));
    }
  /* Whether the copy shares SOURCE's blocks, proven by comparing the
     two extent maps; for two whole files only (a range is a part).  */
  if (opts->debug && ok && !job->range && !opts->attributes_only)
    report->shared = extents_share_fact (job->has_origin && report->cloned_from
                                         ? job->origin_fd : job->src_fd,
                                         dst_fd);
  if (opts->debug_json)
    report_debug_json (src_name, dst->name, report, ok);
  else if (opts->debug)
    report_debug (src_name, dst->name, report);
  if (job->has_origin)
    close (job->origin_fd);
  free (origin_name);
  return ok;
}

/* A file was copied to DST: remember it (remember_dest) and count it
   for --stats.  */
static void
copied (struct copy_memory const *mem, struct dst_path const *dst)
{
  remember_dest (&mem->dest, dst);
  STATS_ADD (mem->stats, files, 1);
}

/* Whether --verify found the copy REPORT tells of wrong.  */
static bool
verify_failed (struct copy_report const *report)
{
  return (report->verified != VERIFY_NOT_DONE
          && report->verified != VERIFIED_DATA
          && report->verified != VERIFIED_EXTENTS);
}

/* Copy JOB into DST_FD, open on D (CREATED if it is new), and close
   it.  */
static bool
fill_dest (struct copy_job *job, char const *src_name, struct dest *d,
           int dst_fd, bool created, struct fcopy_options const *opts,
           struct copy_memory const *mem)
{
  struct copy_report report;
  struct opened_dest o = { dst_fd, created,
                           file_creation_mode (job->src_st, &d->path, opts) };
  bool ok = copy_into (job, src_name, &d->path, &o, opts, mem, &report);
  ok &= !opts->fsync || sync_file (dst_fd, d->path.name);
  if (close (dst_fd) != 0 && ok)
    {
      error (0, errno, _("failed to close %s"), quoteaf (d->path.name));
      ok = false;
    }
  /* A failed clone wrote nothing: take back a file we made for it (one
     that was there is as it was).  Nor is a copy that failed --verify
     to stay where a rerun with -u would take it for complete.  */
  if (!ok && created
      && (engine_wrote_nothing (&report) || verify_failed (&report))
      && unlinkat (d->path.dirfd, d->path.rel, 0) != 0)
    error (0, errno, _("cannot remove %s"), quoteaf (d->path.name));
  if (ok && created && opts->fsync && d->path.dirfd == AT_FDCWD)
    ok = sync_parent (AT_FDCWD, d->path.rel, d->path.name);
  if (ok)
    copied (mem, &d->path);
  return ok;
}

/* JOB's file is left as it was (-n, -u, -i answered no): for --progress
   its bytes are done too.  */
static void
count_skipped (struct copy_memory const *mem, struct copy_job const *job)
{
  STATS_ADD (mem->stats, skipped, 1);
  if (S_ISREG (job->src_st->st_mode))
    STATS_ADD (mem->stats, skipped_bytes, job->src_st->st_size);
}

/* Open the destination and copy JOB (the open source and, in range
   mode, the range) into it, in place.  */
static bool
copy_in_place (struct copy_job *job, char const *src_name,
               struct dst_path const *dst, struct fcopy_options const *opts,
               struct copy_memory const *mem)
{
  bool created, kept;
  struct dest d = { .path = *dst };
  int dst_fd = open_dest (src_name, &d, job, opts, mem, &created, &kept);
  bool ok = kept;
  if (kept)
    count_skipped (mem, job);
  if (0 <= dst_fd)
    ok = fill_dest (job, src_name, &d, dst_fd, created, opts, mem);
  dest_free (&d);
  return ok;
}

/* --atomic, where DEST existed (D): the copy gets its old mode and ACL,
   and its owner where that may be given, unless those are preserved
   from the source; as a copy written in place would keep them.  */
static bool
keep_dest_attributes (struct dest const *d, int fd,
                      struct fcopy_options const *opts)
{
  if (!opts->preserve_ownership)
    (void) !fchown (fd, d->st.st_uid, d->st.st_gid);
  if (opts->preserve_mode
      || qcopy_acl (d->path.name, -1, d->path.name, fd, d->st.st_mode) == 0)
    return true;
  error (0, errno, _("setting permissions for %s"), quoteaf (d->path.name));
  return false;
}

/* --atomic: copy JOB into a temporary in DST's directory and rename it
   over DST once complete; on any failure DST is as it was.  */
static bool
copy_atomically (struct copy_job *job, char const *src_name,
                 struct dst_path const *dst, struct fcopy_options const *opts,
                 struct copy_memory const *mem)
{
  struct dest d = { .path = *dst };
  /* Not through a symbolic link: the copy replaces the link.  */
  decide_dest (&d, src_name, job->src_st, DEST_ATOMIC, &mem->dest, opts);
  enum dest_action a = act_on_dest (&d, src_name, &mem->dest, opts);
  bool ok = a == DEST_KEEP;
  if (dest_has_room (a))
    {
      if (opts->verbose && !opts->debug)
        report_verbose (src_name, d.path.name, d.backup);
      struct temp_file t;
      int fd = temp_create (&t, &d.path, creation_mode (job->src_st, opts));
      struct copy_report report;
      struct opened_dest o = { fd, true, t.mode };
      ok = (0 <= fd
            && copy_into (job, src_name, &d.path, &o, opts, mem, &report)
            && (a == DEST_MAKE || S_ISLNK (d.st.st_mode)
                || keep_dest_attributes (&d, fd, opts)));
      if (ok)
        ok = temp_commit (&t, &d.path, d.backup, opts);
      if (ok)
        copied (mem, &d.path);
      else if (0 <= fd)
        temp_discard (&t);
    }
  else if (ok)
    count_skipped (mem, job);
  dest_free (&d);
  return ok;
}

/* Copy JOB to DST, in place or, with --atomic, through a temporary.
   A destination in a directory the walk made is on that directory's
   device, known without a stat: the clone step may use what it learned
   of that device.  */
static bool
copy_to_dest (struct copy_job *job, char const *src_name,
              struct dst_path const *dst, struct fcopy_options const *opts,
              struct copy_memory const *mem)
{
  job->clone_memo = dst->fresh ? mem->clone : NULL;
  job->dst_dev = dst->dev;
  job->stats = mem->stats;
  progress_name (src_name);
  return (opts->atomic ? copy_atomically : copy_in_place) (job, src_name, dst,
                                                          opts, mem);
}

bool
copy_open_file (char const *src_name, int src_fd, struct stat *src_st,
                struct dst_path const *dst, struct fcopy_options const *opts,
                struct copy_memory const *mem)
{
  bool ok;
  if (S_ISDIR (src_st->st_mode))
    {
      report_omitted_dir (src_name);
      ok = false;
    }
  else
    {
      /* O_NONBLOCK was for the open: a FIFO or device is read as a
         stream.  */
      if (!S_ISREG (src_st->st_mode))
        fcntl (src_fd, F_SETFL, fcntl (src_fd, F_GETFL) & ~O_NONBLOCK);
      struct copy_job job = { .src_fd = src_fd, .src_st = src_st };
      /* A range a FIFO cannot give is refused before any wait.  */
      ok = !opts->range || plan_range (&job, opts, src_name);
      if (ok && S_ISFIFO (src_st->st_mode))
        ok = 0 <= (job.src_fd = src_fd = wait_for_writer (src_fd, src_name,
                                                          src_st));
      ok = ok && copy_to_dest (&job, src_name, dst, opts, mem);
    }
  if (0 <= src_fd)
    close (src_fd);
  return ok;
}

bool
copy_file (char const *src_name, struct dst_path const *dst,
           struct fcopy_options const *opts, struct copy_memory const *mem)
{
  struct stat src_st;
  /* cp says what it is about to do before it opens the source: so a
     source that is there but cannot be read gets its -v line.  */
  int src_fd = open_source (src_name, &src_st,
                            opts->verbose && !opts->debug ? dst->name : NULL);
  return (0 <= src_fd
          && copy_open_file (src_name, src_fd, &src_st, dst, opts, mem));
}

enum absent_copy
copy_if_absent (char const *src_name, struct dst_path const *dst,
                struct fcopy_options const *opts,
                struct copy_memory const *mem, int *src_fd,
                struct stat *src_st)
{
  *src_fd = open_source (src_name, src_st, NULL);
  if (*src_fd < 0)
    return ABSENT_FAILED;
  if (!S_ISREG (src_st->st_mode))
    return ABSENT_LOOK;
  struct copy_job job = { .src_fd = *src_fd, .src_st = src_st,
                          .stats = mem->stats };
  struct dest d = { .path = *dst };
  bool there = false;
  int dst_fd = create_dest (&d, &job, opts, &there);
  if (there)
    return ABSENT_LOOK;
  bool ok = 0 <= dst_fd && fill_dest (&job, src_name, &d, dst_fd, true,
                                      opts, mem);
  dest_free (&d);
  close (*src_fd);
  *src_fd = -1;
  return ok ? ABSENT_COPIED : ABSENT_FAILED;
}
