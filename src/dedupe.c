/* dedupe.c -- make an identical DST share SRC's extents (design §7).

   Nothing is written: FIDEDUPERANGE asks the kernel to compare the two
   ranges under lock and, if they are equal, to point DST at SRC's blocks.
   A concurrent writer therefore cannot make DST share different data.  */

#include <config.h>
#include "dedupe.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/fs.h>

#include "alignalloc.h"
#include "copy-file.h"
#include "error.h"
#include "extents.h"
#include "i18n.h"
#include "intprops.h"
#include "minmax.h"
#include "progress.h"
#include "quote-name.h"
#include "range.h"
#include "reopen.h"
#include "report.h"
#include "same-inode.h"
#include "xalloc.h"


/* The pair is compared in user space in chunks of this size before the
   first ioctl: reading warms the page cache for the kernel's own compare
   (cold, it reads page by page: 1.5 GiB took 29 s instead of 2.6 s), and
   a pair that differs anywhere is left entirely unshared.  */
enum { COMPARE_CHUNK = 16 * 1024 * 1024 };

/* The end of a pair, compared first to find pairs that differ at the
   end without reading them whole.  Small, so that the reads from the
   start stay sequential and readahead keeps up.  */
enum { TAIL_BLOCK = 64 * 1024 };

/* The next pair is read ahead in steps of this: one POSIX_FADV_WILLNEED
   reads at most the larger of read_ahead_kb and max_sectors_kb (2.5 MiB
   on the benchmark's loop devices), in pieces of 2 MiB.  */
enum { PREFETCH_STEP = 2 * 1024 * 1024 };

/* The kernel caps one dedupe request at 1 GiB (vfs_dedupe_file_range). */
enum { DEDUPE_REQUEST_MAX = 1024 * 1024 * 1024 };

/* The bytes of a pair to share: whole files, or one range of each.  */
struct span
{
  off_t src, dst, len;
};

/* The compare buffers of all threads together: at most this many bytes
   (8 sets of two chunks).  A thread that would need more waits for a set
   another thread puts back: --jobs=1024 must not take 32 GiB.  */
enum { COMPARE_MEMORY_MAX = 256 * 1024 * 1024,
       BUF_SETS_MAX = COMPARE_MEMORY_MAX / (2 * COMPARE_CHUNK) };

/* Without --jobs=N, pairs taken one at a time before the threads start:
   a single pair (the common SOURCE DEST case) needs none.  */
enum { DEDUPE_JOBS_AFTER = 2 };

/* A new set of compare buffers, or NULL if memory is short.  */
static struct compare_bufs *
new_bufs (void)
{
  long page = sysconf (_SC_PAGESIZE);
  struct compare_bufs *b = malloc (sizeof *b);
  if (!b)
    return NULL;
  *b = (struct compare_bufs) { .buf = { alignalloc (page, COMPARE_CHUNK),
                                        alignalloc (page, COMPARE_CHUNK) } };
  if (b->buf[0] && b->buf[1])
    return b;
  alignfree (b->buf[0]);
  alignfree (b->buf[1]);
  free (b);
  return NULL;
}

/* A set of compare buffers: a spare one, a new one while there are
   fewer than BUF_SETS_MAX (or while the memory for one is there), or the
   next one put back.  */
static struct compare_bufs *
take_bufs (struct deduper *d)
{
  pthread_mutex_lock (&d->lock);
  struct compare_bufs *b;
  while (!(b = d->spare))
    {
      if (d->n_bufs < BUF_SETS_MAX)
        {
          d->n_bufs++;
          pthread_mutex_unlock (&d->lock);
          if ((b = new_bufs ()))
            return b;
          pthread_mutex_lock (&d->lock);
          /* Out of memory: wait for another thread's set, if any.  */
          if (--d->n_bufs == 0)
            xalloc_die ();
          d->n_bufs = BUF_SETS_MAX;
          continue;
        }
      pthread_cond_wait (&d->bufs_free, &d->lock);
    }
  d->spare = b->next;
  pthread_mutex_unlock (&d->lock);
  return b;
}

static void
put_bufs (struct deduper *d, struct compare_bufs *b)
{
  pthread_mutex_lock (&d->lock);
  b->next = d->spare;
  d->spare = b;
  pthread_cond_signal (&d->bufs_free);
  pthread_mutex_unlock (&d->lock);
}

bool
deduper_init (struct deduper *d, struct fcopy_options const *opts,
              struct copy_stats *live)
{
  *d = (struct deduper) { .opts = opts, .n_bufs = 1, .live = live };
  pthread_mutex_init (&d->lock, NULL);
  pthread_cond_init (&d->bufs_free, NULL);
  if (1 < opts->jobs)
    d->pairs_before_jobs = opts->jobs_auto ? DEDUPE_JOBS_AFTER : 1;
  /* The first set now: if there is no room for it, say so at once.  */
  d->spare = new_bufs ();
  return d->spare != NULL;
}

void
deduper_finish (struct deduper *d)
{
  jobs_stop (d->pool);
  d->pool = NULL;
}

void
deduper_free (struct deduper *d)
{
  deduper_finish (d);
  while (d->spare)
    {
      struct compare_bufs *b = d->spare;
      d->spare = b->next;
      alignfree (b->buf[0]);
      alignfree (b->buf[1]);
      free (b);
    }
  pthread_cond_destroy (&d->bufs_free);
  pthread_mutex_destroy (&d->lock);
}

/* Read exactly LEN bytes at POS of FD (LEN ends at or before EOF).  */
static bool
read_at (int fd, char *buf, size_t len, off_t pos)
{
  while (len)
    {
      ssize_t n = pread (fd, buf, len, pos);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (n == 0)
            errno = EIO;        /* shorter than fstat said a moment ago */
          return false;
        }
      buf += n, len -= n, pos += n;
    }
  return true;
}

/* Compare LEN bytes of the pair at the span's offset POS.  */
static enum pair_outcome
compare_chunk (struct pair const *p, struct span const *sp, off_t pos,
               size_t len)
{
  for (int i = 0; i < 2; i++)
    if (!read_at (i ? p->dst_fd : p->src_fd, p->buf[i], len,
                  pos + (i ? sp->dst : sp->src)))
      {
        error (0, errno, _("error reading %s"),
               quoteaf (i ? p->dst_name : p->src_name));
        return PAIR_FAILED;
      }
  STATS_ADD (p->live, compared, len);
  report_status_if_asked (p->live);
  if (memcmp (p->buf[0], p->buf[1], len) == 0)
    return PAIR_DEDUPED;
  error (0, 0, _("%s and %s differ"), quoteaf_n (0, p->src_name),
         quoteaf_n (1, p->dst_name));
  return PAIR_DIFFER;
}

/* Open NAME read-only if it is a regular file, and set *ST.  Open
   nothing else: opening a FIFO waits for or releases a writer, opening a
   tape device rewinds it.  So the name is first opened O_PATH, which
   reaches the inode without opening the file (Linux 2.6.39), and only a
   regular file is opened for reading, through that descriptor (reopen.c).
   Anything else is returned as its O_PATH descriptor, for the caller to
   refuse by type.  Return -1 with errno set on failure, REOPEN_REPLACED
   if NAME was replaced between the two opens.  */
static int
open_checked (char const *name, struct stat *st)
{
  int path_fd = open (name, O_PATH | O_CLOEXEC);
  if (path_fd < 0)
    return -1;
  if (fstat (path_fd, st) != 0 || !S_ISREG (st->st_mode))
    return path_fd;
  /* O_NONBLOCK: if /proc is not mounted and NAME has become a FIFO, do
     not wait for its writer; reading a regular file ignores it.  */
  int fd = reopen (path_fd, name, st,
                   O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  int err = errno;
  close (path_fd);
  errno = err;
  return fd;
}

/* Open regular file NAME read-only, or return -1.  */
static int
open_regular (char const *name, struct stat *st)
{
  int fd = open_checked (name, st);
  if (0 <= fd && !S_ISREG (st->st_mode))
    {
      close (fd);
      fd = -1;
    }
  return fd;
}

/* Open one file of a pair, as open_checked, or say why not.  */
static int
open_member (char const *name, struct stat *st)
{
  int fd = open_checked (name, st);
  if (fd == REOPEN_REPLACED)
    error (0, 0, _("%s was replaced while it was opened"), quoteaf (name));
  else if (fd < 0)
    error (0, errno, errno == ENOENT ? _("cannot stat %s")
           : _("cannot open %s for reading"), quoteaf (name));
  return fd < 0 ? -1 : fd;
}

/* Have the kernel start reading LEN bytes of FD at POS, and return at
   once.  */
static void
prefetch_range (int fd, off_t pos, off_t len)
{
  for (off_t end = pos + len; pos < end; pos += PREFETCH_STEP)
    posix_fadvise (fd, pos, MIN (end - pos, PREFETCH_STEP),
                   POSIX_FADV_WILLNEED);
}

/* Have the kernel start reading the blocks of FD (of SIZE bytes) that
   compare_pair reads first, and return at once.  */
static void
prefetch (int fd, off_t size)
{
  /* The last block, then the first chunk: the order of the reads.  */
  off_t len = MIN (size, COMPARE_CHUNK);
  if (len < size)
    prefetch_range (fd, size - TAIL_BLOCK, TAIL_BLOCK);
  prefetch_range (fd, 0, len);
}

/* Start reading the pair that dedupe_read_ahead named, if it is to be
   compared: the disk then works on it while the kernel compares the
   current pair.  A pair of other sizes, or already shared, is not read
   at all, so a rerun stays fast.  */
static void
prefetch_next (struct deduper *d)
{
  if (d->pool)
    return;                     /* threads read pairs side by side */
  struct stat st[2];
  int fd[2] = { -1, -1 };
  if (d->next_src && !d->opts->range
      && 0 <= (fd[0] = open_regular (d->next_src, &st[0]))
      && 0 <= (fd[1] = open_regular (d->next_dst, &st[1]))
      && st[0].st_size == st[1].st_size
      && !extents_shared (fd[0], fd[1]))
    for (int i = 0; i < 2; i++)
      prefetch (fd[i], st[i].st_size);
  for (int i = 0; i < 2; i++)
    if (0 <= fd[i])
      close (fd[i]);
  d->next_src = d->next_dst = NULL;
}

/* Compare the pair's span, its last block first: files that differ
   often differ at the end (appended logs, trailers, one changed byte
   written last), and a rerun over pairs that differ then reads little.
   Then the rest from the start, sequentially.  Before each chunk the
   kernel is asked for the destination's part of it and the next chunk
   of both: both files are then read at once, which a loop device over
   btrfs serves some 20% faster than one after the other, and the disk
   works while the chunk is compared.  */
static enum pair_outcome
compare_pair (struct pair const *p, struct span const *sp)
{
  posix_fadvise (p->src_fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  posix_fadvise (p->dst_fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  off_t tail = sp->len - MIN (sp->len, TAIL_BLOCK);
  enum pair_outcome r = compare_chunk (p, sp, tail, sp->len - tail);
  for (off_t pos = 0; r == PAIR_DEDUPED && pos < tail; pos += COMPARE_CHUNK)
    {
      off_t len = MIN (tail - pos, COMPARE_CHUNK);
      off_t next = MIN (tail - pos - len, COMPARE_CHUNK);
      prefetch_range (p->dst_fd, sp->dst + pos, len + next);
      prefetch_range (p->src_fd, sp->src + pos + len, next);
      r = compare_chunk (p, sp, pos, len);
    }
  return r;
}

/* Why the kernel refused, in words an admin can act on.  */
static char const *
refusal_hint (int err)
{
  switch (err)
    {
    case EOPNOTSUPP: case ENOTTY:
      return _(" (the file system cannot share extents)");
    case EPERM: return _(" (an immutable file, or not yours)");
    case ETXTBSY: return _(" (a swap file)");
    case EINVAL:
      return _(" (nodatacow on one side only, or an unaligned range)");
    default: return "";
    }
}

static enum pair_outcome
refused (struct pair const *p, int err)
{
  if (err == EXDEV)
    {
      error (0, 0, _("%s and %s are on different file systems"),
             quoteaf_n (0, p->src_name), quoteaf_n (1, p->dst_name));
      return PAIR_FAILED;
    }
  error (0, 0, _("cannot deduplicate %s from %s: %s%s"),
         quoteaf_n (0, p->dst_name), quoteaf_n (1, p->src_name),
         strerror (err), refusal_hint (err));
  return PAIR_FAILED;
}

/* Ask for LEN bytes of DST at DST_POS to share SRC's at SRC_POS.
   Return the bytes the kernel shared, 0 with *STATUS set otherwise.  */
static uint64_t
dedupe_request (struct pair const *p, off_t src_pos, off_t dst_pos,
                uint64_t len, int *status)
{
  union
  {
    struct file_dedupe_range range;
    char room[sizeof (struct file_dedupe_range)
              + sizeof (struct file_dedupe_range_info)];
  } req = { .range = { .src_offset = src_pos, .src_length = len,
                       .dest_count = 1 } };
  req.range.info[0].dest_fd = p->dst_fd;
  req.range.info[0].dest_offset = dst_pos;

  while (ioctl (p->src_fd, FIDEDUPERANGE, &req.range) != 0)
    if (errno != EINTR)
      {
        *status = -errno;
        return 0;
      }
  *status = req.range.info[0].status;
  return *status == FILE_DEDUPE_RANGE_SAME ? req.range.info[0].bytes_deduped
                                           : 0;
}

/* Open P's destination again, for writing (reopen.c): before Linux
   4.19, and for files of other users, the kernel wants it so.  */
static bool
reopen_dest_rw (struct pair *p)
{
  struct stat st;
  if (fstat (p->dst_fd, &st) != 0)
    return false;
  int fd = reopen (p->dst_fd, p->dst_name, &st,
                   O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return false;
  close (p->dst_fd);
  p->dst_fd = fd;
  p->dst_rw = true;
  return true;
}

/* dedupe_request, once more with DST open for writing if the kernel
   refused it open read-only.  */
static uint64_t
dedupe_request_rw (struct pair *p, off_t src_pos, off_t dst_pos,
                   uint64_t len, int *status)
{
  uint64_t done = dedupe_request (p, src_pos, dst_pos, len, status);
  if ((*status == -EINVAL || *status == -EBADF) && !p->dst_rw
      && reopen_dest_rw (p))
    done = dedupe_request (p, src_pos, dst_pos, len, status);
  return done;
}

/* Share the pair's span, a request at a time: the kernel may do less
   than asked (one request at most 1 GiB) and says how much.  */
static enum pair_outcome
share_pair (struct pair *p, struct span const *sp)
{
  off_t pos = 0;
  while (pos < sp->len)
    {
      int status;
      uint64_t done = dedupe_request_rw (p, sp->src + pos, sp->dst + pos,
                                         MIN (sp->len - pos,
                                              DEDUPE_REQUEST_MAX),
                                         &status);
      if (status == FILE_DEDUPE_RANGE_DIFFERS)
        {
          error (0, 0, _("%s and %s differ (changed while deduplicating)"),
                 quoteaf_n (0, p->src_name), quoteaf_n (1, p->dst_name));
          return PAIR_DIFFER;
        }
      if (status < 0)
        return refused (p, -status);
      if (done == 0)
        {
          /* The kernel shared nothing and gave no reason: stop rather
             than ask again forever.  */
          error (0, 0, _("cannot deduplicate %s from %s: nothing shared at "
                 "offset %jd"), quoteaf_n (0, p->dst_name),
                 quoteaf_n (1, p->src_name), (intmax_t) pos);
          return PAIR_FAILED;
        }
      pos += done;
      p->bytes += done;
      STATS_ADD (p->live, deduped, done);
    }
  return PAIR_DEDUPED;
}

/* --verify: check that the pair P, just deduplicated, shares its
   extents, where FIEMAP can tell (not of inline data).  */
static enum pair_outcome
verify_shared (struct pair const *p)
{
  if (extents_share_fact (p->src_fd, p->dst_fd) != SHARE_NO)
    return PAIR_DEDUPED;
  error (0, 0, _("verification failed: %s does not share the extents of %s"),
         quoteaf_n (0, p->dst_name), quoteaf_n (1, p->src_name));
  return PAIR_FAILED;
}

/* Check that the opened pair are regular files.  */
static bool
regular_pair (struct pair const *p, struct stat const *src_st,
              struct stat const *dst_st, bool recursive)
{
  char const *names[2] = { p->src_name, p->dst_name };
  struct stat const *st[2] = { src_st, dst_st };
  for (int i = 0; i < 2; i++)
    if (S_ISDIR (st[i]->st_mode) && !recursive)
      {
        report_omitted_dir (names[i]);
        return false;
      }
    else if (!S_ISREG (st[i]->st_mode))
      {
        error (0, 0, _("%s is not a regular file"), quoteaf (names[i]));
        return false;
      }
  return true;
}

/* Check that the whole files of the pair can be deduplicated, and set
   *SP to all of them.  */
static enum pair_outcome
check_pair (struct pair const *p, struct stat const *src_st,
            struct stat const *dst_st, struct span *sp)
{
  *sp = (struct span) { 0, 0, src_st->st_size };
  char const *why = (SAME_INODE (*src_st, *dst_st) ? _("are the same file")
                     : src_st->st_size != dst_st->st_size ? _("differ in size")
                     : src_st->st_size == 0 ? _("are empty: nothing to share")
                     : NULL);
  if (why)
    error (0, 0, _("%s and %s %s"), quoteaf_n (0, p->src_name),
           quoteaf_n (1, p->dst_name), why);
  return (!why ? PAIR_DEDUPED
          : src_st->st_size != dst_st->st_size ? PAIR_DIFFER
          : PAIR_SKIPPED);
}

/* Range mode: check the one range OPTS gives and set *SP to it.  It
   must lie inside both files; two ranges of one file must be apart.  */
static enum pair_outcome
check_range (struct fcopy_options const *opts, struct pair const *p,
             struct stat const *src_st, struct stat const *dst_st,
             struct span *sp)
{
  off_t src_size = src_st->st_size;
  off_t len = (opts->length >= 0 ? opts->length
               : range_after (src_size, opts->src_offset));
  *sp = (struct span) { opts->src_offset, opts->dst_offset, len };
  char const *names[2] = { p->src_name, p->dst_name };
  off_t const size[2] = { src_size, dst_st->st_size };
  off_t const start[2] = { sp->src, sp->dst };
  for (int i = 0; i < 2; i++)
    if (size[i] < start[i] || size[i] - start[i] < len)
      {
        error (0, 0, _("the range goes past the end of %s (%jd bytes)"),
               quoteaf (names[i]), (intmax_t) size[i]);
        return PAIR_FAILED;
      }
  if (SAME_INODE (*src_st, *dst_st) && ranges_overlap (sp->src, sp->dst, len))
    {
      error (0, 0, _("%s and %s are the same file and the ranges overlap"),
             quoteaf_n (0, p->src_name), quoteaf_n (1, p->dst_name));
      return PAIR_FAILED;
    }
  if (len == 0)
    {
      error (0, 0, _("the range is empty: nothing to share"));
      return PAIR_SKIPPED;
    }
  return PAIR_DEDUPED;
}

/* Deduplicate the open pair P.  */
static enum pair_outcome
dedupe_open_pair (struct deduper *d, struct pair *p,
                  struct stat const *src_st, struct stat const *dst_st)
{
  struct span sp;
  if (!regular_pair (p, src_st, dst_st, d->opts->recursive))
    return PAIR_FAILED;
  enum pair_outcome r = (d->opts->range
                         ? check_range (d->opts, p, src_st, dst_st, &sp)
                         : check_pair (p, src_st, dst_st, &sp));
  if (r != PAIR_DEDUPED)
    return r;
  /* The extent maps speak of whole files only.  */
  if (!d->opts->range && extents_shared (p->src_fd, p->dst_fd))
    return PAIR_SHARED;
  /* A request for no bytes costs nothing and tells before the pair is
     read whether the kernel will do it at all: EOPNOTSUPP on ext4 and
     tmpfs, EXDEV across file systems, EINVAL for a read-only DST it
     wants writable.  */
  int status;
  dedupe_request_rw (p, sp.src, sp.dst, 0, &status);
  if (status < 0)
    return refused (p, -status);
  r = compare_pair (p, &sp);
  prefetch_next (d);
  if (r != PAIR_DEDUPED)
    return r;
  r = share_pair (p, &sp);
  return (r == PAIR_DEDUPED && d->opts->verify && !d->opts->range
          ? verify_shared (p) : r);
}

static void
count (struct dedupe_stats *s, enum pair_outcome r)
{
  s->examined++;
  switch (r)
    {
    case PAIR_DEDUPED: s->deduped++; break;
    case PAIR_SHARED: s->shared++; break;
    case PAIR_DIFFER: s->differing++; break;
    case PAIR_SKIPPED: s->skipped++; break;
    case PAIR_FAILED: s->failed++; break;
    }
}

/* Deduplicate the pair now, in the calling thread.  */
static void
dedupe_pair_now (struct deduper *d, char const *src_name,
                 char const *dst_name)
{
  struct compare_bufs *b = take_bufs (d);
  struct pair p = { .src_name = src_name, .dst_name = dst_name,
                    .src_fd = -1, .dst_fd = -1, .buf = b->buf,
                    .live = d->live };
  progress_name (src_name);
  struct stat src_st, dst_st;
  enum pair_outcome r = PAIR_FAILED;

  /* Read-only opens: the kernel lets a file's owner (and root) dedupe
     into a file opened for reading since Linux 4.19.  */
  p.src_fd = open_member (src_name, &src_st);
  /* A directory SOURCE is omitted before its DEST is looked for, as cp
     omits it.  */
  if (0 <= p.src_fd && !(S_ISDIR (src_st.st_mode) && !d->opts->recursive))
    p.dst_fd = open_member (dst_name, &dst_st);
  else if (0 <= p.src_fd)
    report_omitted_dir (src_name);
  if (0 <= p.dst_fd)
    r = dedupe_open_pair (d, &p, &src_st, &dst_st);
  prefetch_next (d);            /* unless it was done */
  if (0 <= p.dst_fd)
    close (p.dst_fd);
  if (0 <= p.src_fd)
    close (p.src_fd);
  put_bufs (d, b);

  pthread_mutex_lock (&d->lock);
  count (&d->stats, r);
  d->stats.bytes += p.bytes;
  pthread_mutex_unlock (&d->lock);
  STATS_ADD (d->live, pairs, 1);
  if (d->opts->verbose)
    report_dedupe_pair (src_name, dst_name, r, p.bytes);
}

/* A pair for a thread to deduplicate.  */
struct pair_job
{
  struct job job;
  struct deduper *d;
  char *dst_name;
  char src_name[];
};

static bool
run_pair_job (struct job *job, void *state _GL_UNUSED)
{
  struct pair_job *j = (struct pair_job *) job;
  dedupe_pair_now (j->d, j->src_name, j->dst_name);
  free (j);
  return true;                  /* the outcome is in the counts */
}

void
dedupe_pair (struct deduper *d, char const *src_name, char const *dst_name)
{
  if (!d->pool && jobs_due (&d->pairs_before_jobs))
    {
      /* A pair shares nothing with another: no state but the deduper,
         which each job names.  */
      struct jobs_crew crew = { .n_jobs = d->opts->jobs };
      d->pool = jobs_start (&crew);
      d->next_src = d->next_dst = NULL;
    }
  if (!d->pool)
    {
      dedupe_pair_now (d, src_name, dst_name);
      return;
    }
  size_t src = strlen (src_name) + 1, dst = strlen (dst_name) + 1;
  struct pair_job *j = xmalloc (sizeof *j + src + dst);
  *j = (struct pair_job) { .job.run = run_pair_job, .d = d };
  memcpy (j->src_name, src_name, src);
  j->dst_name = memcpy (j->src_name + src, dst_name, dst);
  jobs_submit (d->pool, &j->job);
}

void
dedupe_read_ahead (struct deduper *d, char const *src_name,
                   char const *dst_name)
{
  if (d->pool)
    return;
  d->next_src = src_name;
  d->next_dst = dst_name;
}

int
dedupe_exit_status (struct dedupe_stats const *s)
{
  return s->failed ? 2 : s->differing || s->skipped ? 1 : 0;
}
