/* engine.c -- the copy ladder for one file (design §4 and §5).

   Each step is a function with one loop over partial returns.  A step
   answers STEP_UNSUPPORTED only before it moved a byte, so climb_ladder()
   is the one place that decides to fall to the next step, and no step
   ever starts again from an offset that an earlier one already passed.
   Which steps are still worth trying is the ladder's own state (USABLE);
   the report only receives what happened.

   Words: "range mode" is --src-offset/--dst-offset/--length; a "span" is
   the bytes [start, end) of the source that one climb of the ladder
   copies (the whole file, or one data extent of a sparse one); the
   "offload" step is copy_file_range.  */

#include <config.h>
#include "engine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/fs.h>

#include "alignalloc.h"
#include "full-write.h"
#include "ignore-value.h"
#include "intprops.h"
#include "minmax.h"
#include "report.h"
#include "safe-read.h"

/* glibc 2.41 and 2.42 corrupt copy_file_range requests above 2 GiB, and
   the kernel moves at most MAX_RW_COUNT (INT_MAX rounded down to a page)
   per call anyway.  Ask for as much as possible: btrfs and XFS reflink
   each call's range, so small chunks cost far more metadata work.  */
enum { RANGE_CHUNK_MAX = 0x7FF00000 };

/* The read/write buffer: large enough that syscall cost vanishes
   against the memory copies, small enough to stay in L2/L3 caches.
   st_blksize is not used: some filesystems report absurd values.  */
enum { RW_BUFSIZE = 256 * 1024 };

/* A pipe of 1 MiB (the default /proc/sys/fs/pipe-max-size) moves as
   many pages per splice pair as the kernel allows an unprivileged user. */
enum { PIPE_SIZE_WANTED = 1024 * 1024 };

/* Files smaller than this are written too fast for preallocation to
   pay for its system call.  */
enum { PREALLOC_MIN = 1024 * 1024 };

/* Runs of zeros are turned into holes in blocks of this size: no
   filesystem we know allocates in smaller units than 4 KiB pages.  */
enum { HOLE_BLOCK = 4096 };

/* The state shared by the steps while one file is copied.  */
struct ladder
{
  struct copy_job const *job;
  struct copy_report *report;
  bool usable[LADDER_STEPS];   /* not ruled out, nor found unsupported */
  bool seek_holes;             /* keep the source's holes (SEEK_HOLE) */
  bool punch_zeros;            /* --sparse=always: and make runs of zeros
                                  into holes */
  bool seeking;                /* SEEK_DATA works on the source: spans are
                                  its data extents */
  int pipe_fd[2];              /* splice's pipe, made on first use */
  size_t pipe_size;
  char *buf;                   /* read/write buffer, made on first use */
  off_t src_reached, dst_reached;  /* where the last span's copy ended */
  off_t src_at, dst_at;        /* the descriptors' file positions */
  bool offload_at_position;    /* copy_file_range and splice may move */
  bool splice_at_position;     /* data at the file positions */
};

/* The offset to give a call that moves data at *POS of a descriptor
   whose file position is AT: none where the two agree, so that the
   kernel moves the position as the copy goes (tools that watch a copy,
   progress(1) and pv -d, read it in /proc/PID/fdinfo); else POS, which
   the kernel advances instead, and the position stays.  */
static off_t *
offset_arg (bool may, off_t *pos, off_t at)
{
  return may && at == *pos ? NULL : pos;
}

/* N bytes moved by a call given ARG, offset_arg's answer for *POS: if
   the kernel moved the file position *AT, *POS follows it.  */
static void
advance (off_t *pos, off_t *at, off_t const *arg, ssize_t n)
{
  if (!arg)
    {
      *pos += n;
      *at += n;
    }
}

/* N more bytes reached the destination by STEP (the statistics count
   them as they go, for the status line), or were left as holes.  */
static void
count_moved (struct ladder const *l, enum ladder_step step, off_t n)
{
  l->report->bytes[step] += n;
  STATS_ADD (l->job->stats, bytes[step], n);
  report_status_if_asked (l->job->stats);
}

static void
count_holes (struct ladder const *l, off_t n)
{
  l->report->bytes_in_holes += n;
  STATS_ADD (l->job->stats, holes, n);
}

/* Rule STEP out for this file, for a reason the report keeps as STATE. */
static void
rule_out (struct ladder *l, enum ladder_step step, enum step_state state)
{
  l->usable[step] = false;
  l->report->step[step] = state;
}

/* Errnos with which the kernel says "this step cannot work for this pair
   of files"; anything else is a real error.  From copy_file_range(2),
   splice(2), ioctl_ficlone(2) and what GNU cp learned the hard way.  */
static bool
is_unsupported (int err)
{
  switch (err)
    {
    case ENOSYS: case ENOTTY: case EOPNOTSUPP:
#if ENOTSUP != EOPNOTSUPP
    case ENOTSUP:
#endif
    case EINVAL: case EBADF: case EXDEV: case ETXTBSY:
    case EPERM: case EACCES: case ENOENT: case ESPIPE:
      return true;
    default:
      return false;
    }
}

/* Step 1: share all the source's extents (btrfs, XFS, ...) in one ioctl.
   EIO, ENOSPC, EDQUOT and ENOMEM are real failures even under auto:
   the filesystem can clone but this clone failed.  */
static enum step_state
clone_failed (struct ladder *l)
{
  l->report->failure = FAILED_CLONE;
  return is_unsupported (errno) ? STEP_UNSUPPORTED : STEP_FAILED;
}

/* Whether the destination holds nothing yet: made for this copy, or
   emptied when it was opened (engine_truncates).  */
static bool
dst_is_empty (struct copy_job const *job, struct fcopy_options const *opts)
{
  return job->dst_new || engine_truncates (opts, job->range);
}

/* Clone all of FROM_FD, the source or the origin, into the
   destination.  */
static enum step_state
clone_whole (struct ladder *l, struct fcopy_options const *opts,
             int from_fd)
{
  int src_fd = from_fd, dst_fd = l->job->dst_fd;
  /* --reflink=always leaves an existing destination untruncated, so
     that a filesystem that cannot clone (EOPNOTSUPP, EXDEV: checked
     before anything else) keeps it intact.  A first clone tells whether
     this one can; EINVAL may only mean that the destination is longer
     than the source, whose partial last block cannot be cloned into its
     middle.  Then the file is emptied and cloned again: cutting a longer
     destination back after the clone would unshare its last block.  */
  if (!dst_is_empty (l->job, opts))
    {
      if (ioctl (dst_fd, FICLONE, src_fd) != 0 && errno != EINVAL)
        return clone_failed (l);
      if (ftruncate (dst_fd, 0) != 0)
        {
          l->report->failure = FAILED_EXTEND;
          return STEP_FAILED;
        }
    }
  if (ioctl (dst_fd, FICLONE, src_fd) != 0)
    return clone_failed (l);
  count_moved (l, LADDER_CLONE, l->job->src_st->st_size);
  return STEP_DONE;
}

/* Whether JOB's clone need not be tried: an earlier file of the same
   source filesystem could not be cloned into the same destination
   filesystem for a reason of the filesystems', not of the file.  Not
   under --reflink=always, whose failures are each reported.  */
static bool
clone_known_unsupported (struct copy_job const *job,
                         struct fcopy_options const *opts)
{
  struct clone_memo const *m = job->clone_memo;
  return (m && m->known && m->src_dev == job->src_st->st_dev
          && m->dst_dev == job->dst_dev
          && opts->reflink != REFLINK_ALWAYS && !job->range);
}

static void
remember_no_clone (struct copy_job const *job)
{
  struct clone_memo *m = job->clone_memo;
  if (m && !job->range
      && (errno == EOPNOTSUPP || errno == ENOTTY || errno == ENOSYS
          || errno == EXDEV))
    *m = (struct clone_memo) { true, job->src_st->st_dev, job->dst_dev };
}

/* Step 1 in range mode, under --reflink=always only: FICLONERANGE.
   Elsewhere copy_file_range reflinks aligned ranges by itself.  */
static enum step_state
clone_range (struct ladder *l)
{
  struct copy_job const *job = l->job;
  struct file_clone_range range = { .src_fd = job->src_fd,
                                    .src_offset = job->src_off,
                                    .src_length = job->len,
                                    .dest_offset = job->dst_off };
  if (ioctl (job->dst_fd, FICLONERANGE, &range) != 0)
    return clone_failed (l);
  count_moved (l, LADDER_CLONE, job->len);
  return STEP_DONE;
}

/* Rule out every step between STEP and read/write: the source gave what
   only read() can read, or an answer that splice would share.  */
static void
leave_only_rw (struct ladder *l, enum ladder_step step)
{
  for (int i = step + 1; i < LADDER_RW; i++)
    rule_out (l, i, STEP_AVOIDED);
}

/* Step 2: copy_file_range from *SRC_POS up to END.  The kernel advances
   the file positions or the offsets given (offset_arg) by what it moved,
   so a partial return needs no arithmetic but advance's.  */
static enum step_state
offload_span (struct ladder *l, off_t *src_pos, off_t *dst_pos, off_t end)
{
  off_t start = *src_pos;
  while (*src_pos < end)
    {
      size_t len = MIN (end - *src_pos, RANGE_CHUNK_MAX);
      off_t *src_arg = offset_arg (l->offload_at_position, src_pos,
                                   l->src_at);
      off_t *dst_arg = offset_arg (l->offload_at_position, dst_pos,
                                   l->dst_at);
      ssize_t n = copy_file_range (l->job->src_fd, src_arg,
                                   l->job->dst_fd, dst_arg, len, 0);
      if (0 < n)
        {
          advance (src_pos, &l->src_at, src_arg, n);
          advance (dst_pos, &l->dst_at, dst_arg, n);
          count_moved (l, LADDER_OFFLOAD, n);
          continue;
        }
      if (n == 0)
        {
          /* Files in /proc and /sys claim data that only read() gets. */
          if (*src_pos != start)
            return STEP_DONE;
          leave_only_rw (l, LADDER_OFFLOAD);
          return STEP_NO_DATA;
        }
      if (errno == EINTR)
        continue;
      if (*src_pos == start && is_unsupported (errno))
        return STEP_UNSUPPORTED;
      /* Some kernels give EFBIG for offsets that read/write can reach,
         and splice would give it too.  */
      if (*src_pos == start && errno == EFBIG)
        {
          leave_only_rw (l, LADDER_OFFLOAD);
          return STEP_UNSUPPORTED;
        }
      l->report->failure = FAILED_COPY;
      return STEP_FAILED;
    }
  return STEP_DONE;
}

/* Make splice's pipe, as large as the system lets us.  */
static bool
open_pipe (struct ladder *l)
{
  if (pipe2 (l->pipe_fd, O_CLOEXEC) != 0)
    return false;
  int size = fcntl (l->pipe_fd[1], F_SETPIPE_SZ, PIPE_SIZE_WANTED);
  if (size < 0)
    size = fcntl (l->pipe_fd[1], F_GETPIPE_SZ);
  l->pipe_size = 0 < size ? size : 64 * 1024;
  return true;
}

static void
close_pipe (struct ladder *l)
{
  if (0 <= l->pipe_fd[0])
    {
      close (l->pipe_fd[0]);
      close (l->pipe_fd[1]);
    }
  l->pipe_fd[0] = l->pipe_fd[1] = -1;
}

/* Move LEN bytes that are in the pipe to the destination at *DST_POS.  */
static bool
drain_pipe (struct ladder *l, size_t len, off_t *dst_pos)
{
  while (0 < len)
    {
      off_t *dst_arg = offset_arg (l->splice_at_position, dst_pos,
                                   l->dst_at);
      ssize_t n = splice (l->pipe_fd[0], NULL, l->job->dst_fd, dst_arg,
                          len, SPLICE_F_MOVE);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (n == 0)
            errno = EIO;        /* a pipe with data cannot be at EOF */
          return false;
        }
      advance (dst_pos, &l->dst_at, dst_arg, n);
      count_moved (l, LADDER_SPLICE, n);
      len -= n;
    }
  return true;
}

/* Step 3: splice source -> pipe -> destination, so no byte is copied to
   user space.  Wins where copy_file_range cannot cross filesystems.
   If the destination refuses the first bytes, the source offset is put
   back: the bytes in the pipe were never written, and the pipe goes
   with the step.  A source that gives nothing at once leaves the rest
   to read().  */
static enum step_state
splice_span (struct ladder *l, off_t *src_pos, off_t *dst_pos, off_t end)
{
  off_t src_start = *src_pos, dst_start = *dst_pos;
  if (l->pipe_fd[0] < 0 && !open_pipe (l))
    return STEP_UNSUPPORTED;
  while (*src_pos < end)
    {
      size_t len = MIN (end - *src_pos, l->pipe_size);
      off_t *src_arg = offset_arg (l->splice_at_position, src_pos,
                                   l->src_at);
      ssize_t n = splice (l->job->src_fd, src_arg, l->pipe_fd[1], NULL,
                          len, SPLICE_F_MOVE);
      if (0 < n)
        advance (src_pos, &l->src_at, src_arg, n);
      if (n == 0)
        return *src_pos == src_start ? STEP_UNSUPPORTED : STEP_DONE;
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          if (*dst_pos == dst_start && is_unsupported (errno))
            return STEP_UNSUPPORTED;
          l->report->failure = FAILED_READ;
          return STEP_FAILED;
        }
      if (!drain_pipe (l, n, dst_pos))
        {
          if (*dst_pos == dst_start && is_unsupported (errno))
            {
              *src_pos = src_start;
              return STEP_UNSUPPORTED;
            }
          l->report->failure = FAILED_WRITE;
          return STEP_FAILED;
        }
    }
  return STEP_DONE;
}

/* Write BUF[0..LEN) at the destination's file position, turning whole
   zero blocks into holes under --sparse=always.  The destination is
   new or truncated, so skipping over a block leaves a hole there.  */
static bool
write_block (struct ladder *l, char const *buf, size_t len)
{
  int dst_fd = l->job->dst_fd;
  if (!l->punch_zeros)
    {
      size_t n = full_write (dst_fd, buf, len);
      count_moved (l, LADDER_RW, n);
      return n == len;
    }

  static char const zeros[HOLE_BLOCK];
  size_t done = 0;
  while (done < len)
    {
      /* Gather a run of blocks that are all zero or all not.  */
      size_t run = 0;
      bool zero = false;
      while (done + run < len)
        {
          size_t blk = MIN (HOLE_BLOCK, len - done - run);
          bool z = memcmp (buf + done + run, zeros, blk) == 0;
          if (run && z != zero)
            break;
          zero = z;
          run += blk;
        }
      if (zero ? lseek (dst_fd, run, SEEK_CUR) < 0
               : full_write (dst_fd, buf + done, run) != run)
        return false;
      if (zero)
        count_holes (l, run);
      else
        count_moved (l, LADDER_RW, run);
      done += run;
    }
  return true;
}

/* Step 4: read and write through one buffer.  read() ends the loop at
   EOF, not st_size: generated files lie about their size.  */
static enum step_state
rw_span (struct ladder *l, off_t *src_pos, off_t *dst_pos, off_t end)
{
  int src_fd = l->job->src_fd, dst_fd = l->job->dst_fd;
  if (!l->buf)
    {
      l->buf = alignalloc (sysconf (_SC_PAGESIZE), RW_BUFSIZE);
      if (!l->buf)
        return STEP_FAILED;
    }
  /* Earlier steps may have used explicit offsets, and SEEK_DATA moved
     the source's position; read and write use the descriptors' own.  */
  if ((l->src_at != *src_pos && lseek (src_fd, *src_pos, SEEK_SET) < 0)
      || (l->dst_at != *dst_pos && lseek (dst_fd, *dst_pos, SEEK_SET) < 0))
    {
      l->report->failure = FAILED_READ;
      return STEP_FAILED;
    }
  while (*src_pos < end)
    {
      size_t n = safe_read (src_fd, l->buf, MIN (end - *src_pos, RW_BUFSIZE));
      if (n == SAFE_READ_ERROR)
        {
          l->report->failure = FAILED_READ;
          return STEP_FAILED;
        }
      if (n == 0)
        break;
      if (!write_block (l, l->buf, n))
        {
          l->report->failure = FAILED_WRITE;
          return STEP_FAILED;
        }
      *src_pos += n;
      *dst_pos += n;
      l->src_at = *src_pos;
      l->dst_at = *dst_pos;
    }
  return STEP_DONE;
}

/* Reserve the destination's blocks [POS, END) before copying data there.
   ext4 then writes into one allocated extent instead of reserving
   delayed-allocation blocks page by page, which halves the time a
   cached copy takes.  KEEP_SIZE: until data lands there the file's size
   stays what was written, so a failed copy never shows zeros as data.
   Only a hint: a filesystem without fallocate copies as well.  */
static bool
preallocate (struct ladder const *l, off_t pos, off_t end)
{
  /* Not where zero blocks must stay holes.  */
  return (!l->punch_zeros && PREALLOC_MIN <= end - pos
          && fallocate (l->job->dst_fd, FALLOC_FL_KEEP_SIZE, pos, end - pos)
             == 0);
}

/* Give back the blocks reserved past the end of a copy that failed:
   a truncate to the file's own size frees them (ext4, XFS, btrfs and
   tmpfs alike).  Keeps errno, which says why the copy failed.  */
static void
drop_preallocation (int dst_fd)
{
  int saved_errno = errno;
  struct stat st;
  if (fstat (dst_fd, &st) == 0)
    ignore_value (ftruncate (dst_fd, st.st_size));
  errno = saved_errno;
}

/* The steps that copy a span, in ladder order; read/write, the last,
   never answers "unsupported".  DROP frees what an unsupported step
   made, so that nothing of it outlives its turn.  */
static struct
{
  enum step_state (*copy) (struct ladder *, off_t *, off_t *, off_t);
  void (*drop) (struct ladder *);
} const span_steps[LADDER_STEPS] =
{
  [LADDER_OFFLOAD] = { offload_span, NULL },
  [LADDER_SPLICE] = { splice_span, close_pipe },
  [LADDER_RW] = { rw_span, NULL },
};

/* Copy the bytes [SRC_POS, END) of the source to DST_POS on with the
   first usable step after the clone; a step found unsupported is ruled
   out for the spans that follow.  Note in L where the copy stopped,
   which is before END when the source's data ended early (EOF before
   st_size).  */
static bool
climb_ladder (struct ladder *l, off_t src_pos, off_t dst_pos, off_t end)
{
  enum step_state state = STEP_FAILED;
  for (int i = LADDER_OFFLOAD; i < LADDER_STEPS; i++)
    {
      if (!l->usable[i])
        continue;
      state = span_steps[i].copy (l, &src_pos, &dst_pos, end);
      l->report->step[i] = state;
      if (state == STEP_DONE || state == STEP_FAILED)
        break;
      l->usable[i] = false;
      if (span_steps[i].drop)
        span_steps[i].drop (l);
    }
  l->src_reached = src_pos;
  l->dst_reached = dst_pos;
  return state == STEP_DONE;
}

/* Copy the source's bytes [SRC_POS, END) to DST_POS on, into blocks
   reserved for them.  L->src_reached tells where the source's data
   ended, which may be before END.  */
static bool
copy_span (struct ladder *l, off_t src_pos, off_t dst_pos, off_t end)
{
  bool reserved = (end != TYPE_MAXIMUM (off_t)
                   && preallocate (l, dst_pos, dst_pos + (end - src_pos)));
  bool ok = climb_ladder (l, src_pos, dst_pos, end);
  if ((!ok || l->src_reached < end) && reserved)
    drop_preallocation (l->job->dst_fd);
  return ok;
}

/* The end of a trailing hole of the source, which starts at POS: the
   source's size now, if it shrank below SIZE (its st_size) since it was
   stat'ed, but never before POS, where the data read ended.  */
static off_t
trailing_hole_end (int src_fd, off_t pos, off_t size)
{
  off_t now = lseek (src_fd, 0, SEEK_END);
  return now < 0 ? -1 : MAX (pos, MIN (now, size));
}

/* Copy the data of a file with holes, extent by extent, and set *EOF to
   the size the destination must have: a trailing hole has no data to
   write.  SIZE is st_size; data past it (a growing file) is not copied.
   A read that ends before the hole the source announced means that the
   file is shorter than it said (sysfs) or shrank: DEST ends there.  */
static bool
copy_extents (struct ladder *l, off_t size, off_t *eof)
{
  int src_fd = l->job->src_fd;
  off_t pos = 0;
  while (pos < size)
    {
      off_t data = lseek (src_fd, pos, SEEK_DATA);
      if (data < 0 && errno == ENXIO)
        break;                  /* only a hole is left */
      off_t hole = data < 0 ? -1 : lseek (src_fd, data, SEEK_HOLE);
      l->src_at = hole;         /* where the two lseeks left it */
      if (hole < 0)
        {
          l->report->failure = FAILED_READ;
          return false;
        }
      off_t end = MIN (hole, size);
      count_holes (l, data - pos);
      if (!copy_span (l, data, data, end))
        return false;
      if (l->src_reached < end)
        {
          *eof = l->dst_reached;
          return true;
        }
      pos = end;
    }
  *eof = pos < size ? trailing_hole_end (src_fd, pos, size) : size;
  if (*eof < 0)
    l->report->failure = FAILED_READ;
  else
    count_holes (l, *eof - pos);
  return 0 <= *eof;
}

/* Whether the source has fewer blocks than its size needs, the cheap
   sign of holes (Linux counts st_blocks in 512-byte units).  */
static bool
looks_sparse (struct stat const *st)
{
  return S_ISREG (st->st_mode) && st->st_blocks < st->st_size / 512;
}

/* Whether SEEK_DATA works on FD: not every filesystem has it.  */
static bool
can_seek_data (int fd)
{
  return lseek (fd, 0, SEEK_DATA) >= 0 || errno == ENXIO;
}

/* Copy the whole file's data, not cloning: holes as --sparse says, then
   the size.  */
static bool
copy_whole (struct ladder *l)
{
  struct stat const *st = l->job->src_st;
  /* st_size is 0 for files in /proc: then copy until EOF.  */
  off_t end = S_ISREG (st->st_mode) && 0 < st->st_size ? st->st_size
                                                        : TYPE_MAXIMUM (off_t);
  off_t size;                   /* DEST's size: where the data read ended */
  bool ok;

  l->seeking = l->seek_holes && can_seek_data (l->job->src_fd);
  if (l->seeking)
    {
      l->report->holes = HOLES_SEEK;
      ok = copy_extents (l, end, &size);
    }
  else
    {
      ok = copy_span (l, 0, 0, end);
      size = l->dst_reached;
    }
  if (!ok)
    return false;

  if (l->punch_zeros)
    l->report->holes = l->seeking ? HOLES_SEEK_ZEROS : HOLES_ZEROS;
  /* Holes may end the file: give it its size.  */
  if (l->seeking || l->punch_zeros)
    {
      /* Set the size even if the last bytes were a hole, but never past
         the last byte the source gave: sysfs files claim st_size 4096
         and no blocks, and a file may shrink while it is read.  */
      if (ftruncate (l->job->dst_fd, size) != 0)
        {
          l->report->failure = FAILED_EXTEND;
          return false;
        }
    }
  return true;
}

/* Whether holes can be made in the file open on DST_FD.  Only a regular
   file has them: on a pipe lseek fails (ESPIPE) and so does ftruncate
   (EINVAL), and a device such as /dev/null has no size to extend.  There
   the holes are written as zeros, as cp writes them.  */
static bool
takes_holes (int dst_fd)
{
  struct stat st;
  return fstat (dst_fd, &st) == 0 && S_ISREG (st.st_mode);
}

/* Set L's hole handling from OPTS.  In range mode a skipped block would
   keep the destination's old bytes: zeros are written.  The destination
   is looked at only when holes might be made.  */
static void
plan_holes (struct ladder *l, struct fcopy_options const *opts)
{
  struct copy_job const *job = l->job;
  bool seek = opts->sparse != SPARSE_NEVER && looks_sparse (job->src_st);
  bool punch = opts->sparse == SPARSE_ALWAYS;
  if (job->range || !(seek || punch) || !takes_holes (job->dst_fd))
    return;
  l->seek_holes = seek;
  l->punch_zeros = punch;
}

bool
engine_truncates (struct fcopy_options const *opts, bool range)
{
  return opts->reflink != REFLINK_ALWAYS && !range;
}

bool
engine_wrote_nothing (struct copy_report const *report)
{
  return report->failure == FAILED_CLONE;
}

/* Decide which steps L may try for its job under OPTS, and tell the
   report of those ruled out.  */
static void
plan_ladder (struct ladder *l, struct fcopy_options const *opts)
{
  struct copy_job const *job = l->job;
  for (int i = 0; i < LADDER_STEPS; i++)
    l->usable[i] = true;
  plan_holes (l, opts);

  /* --sparse=never wants every byte allocated, which a shared extent of
     a sparse source is not; copy_file_range reflinks on btrfs and XFS,
     so --reflink=never must avoid it as well.  */
  if (opts->reflink == REFLINK_NEVER || opts->sparse == SPARSE_NEVER)
    {
      rule_out (l, LADDER_CLONE, (opts->reflink == REFLINK_NEVER
                                  ? STEP_NEVER : STEP_AVOIDED));
      rule_out (l, LADDER_OFFLOAD, STEP_AVOIDED);
    }
  else if (opts->reflink != REFLINK_ALWAYS
           && (job->range || !dst_is_empty (job, opts)))
    rule_out (l, LADDER_CLONE, STEP_AVOIDED);
  else if (clone_known_unsupported (job, opts))
    rule_out (l, LADDER_CLONE, STEP_UNSUPPORTED);

}

/* Try the clone step: true if it settled the copy, with *OK telling
   how; false if the other steps are to copy the data.  */
static bool
try_clone (struct ladder *l, struct fcopy_options const *opts, bool *ok)
{
  enum step_state state = (l->job->range ? clone_range (l)
                           : clone_whole (l, opts, l->job->src_fd));
  l->report->step[LADDER_CLONE] = state;
  *ok = state == STEP_DONE;
  if (state == STEP_UNSUPPORTED)
    remember_no_clone (l->job);
  if (state != STEP_UNSUPPORTED || opts->reflink == REFLINK_ALWAYS)
    return true;
  l->report->failure = FAILED_NONE;
  return false;
}

/* Try to clone JOB's origin (--clone-dest): true if that settled the
   copy, with *OK telling how; false if the source is to be copied.  Its
   file has the source's size, so a clone is the whole copy; the rules
   of the source's clone hold (plan_ladder), but the memo of the
   source's filesystem, which says nothing of the origin's.  */
static bool
try_origin (struct ladder *l, struct fcopy_options const *opts, bool *ok)
{
  struct copy_report *r = l->report;
  if (opts->sparse == SPARSE_NEVER
      || (opts->reflink != REFLINK_ALWAYS && !dst_is_empty (l->job, opts)))
    return false;
  enum step_state state = clone_whole (l, opts, l->job->origin_fd);
  *ok = state == STEP_DONE;
  bool always = opts->reflink == REFLINK_ALWAYS;
  r->origin = (state == STEP_DONE ? ORIGIN_CLONED
               : state == STEP_UNSUPPORTED && !always ? ORIGIN_UNSUPPORTED
               : ORIGIN_FAILED);
  r->origin_errno = *ok ? 0 : errno;
  if (state != STEP_UNSUPPORTED || always)
    {
      r->step[LADDER_CLONE] = state;
      return true;
    }
  r->failure = FAILED_NONE;
  return false;
}

bool
copy_data (struct copy_job const *job, struct fcopy_options const *opts,
           struct copy_report *report)
{
  *report = (struct copy_report) { 0 };
  /* The descriptors were just opened, or the destination truncated: at
     offset 0.  copy_file_range wants two regular files whatever the
     offsets (EINVAL), but splice takes a FIFO or a device without one:
     only into a new destination, which is a regular file, may it go by
     the positions, or it would work where it did not with an offset.  */
  bool regular = S_ISREG (job->src_st->st_mode);
  struct ladder l = { .job = job, .report = report, .pipe_fd = { -1, -1 },
                      .offload_at_position = regular,
                      .splice_at_position = regular && job->dst_new };
  plan_ladder (&l, opts);

  bool ok;
  if (job->has_origin && !job->range && try_origin (&l, opts, &ok))
    return ok;
  if (l.usable[LADDER_CLONE] && try_clone (&l, opts, &ok))
    return ok;
  /* Zero runs are found only by looking at the bytes; pipes, sockets
     and devices have no offsets for copy_file_range and splice.  */
  if (l.punch_zeros || !S_ISREG (job->src_st->st_mode))
    leave_only_rw (&l, LADDER_CLONE);
  ok = (job->range
        ? copy_span (&l, job->src_off, job->dst_off, job->src_off + job->len)
        : copy_whole (&l));
  int saved_errno = errno;
  close_pipe (&l);
  alignfree (l.buf);
  errno = saved_errno;
  return ok;
}
