/* progress.c -- --progress's status line and summary (progress.h).

   The line, on a terminal:
     37% 1.2 GiB of 3.4 GiB, 120 of 480 files, 96 MiB/s, ETA 0:23, d/f
   While the scan still runs, the totals are lower bounds ("of ≥3.4
   GiB"), and no percentage or ETA is given.  Cloned bytes are done at
   once: they count as done and, apart, as "shared", but not in the rate,
   which is the bytes copied over the last five seconds.  The name is
   that of the source being copied, shortened from its left to fit.  */

#include <config.h>
#include "progress.h"

#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "error.h"
#include "i18n.h"
#include "minmax.h"
#include "out-order.h"
#include "quote-name.h"
#include "report.h"
#include "signals.h"
#include "xalloc.h"
#include "xvasprintf.h"

enum
{
  TICK_MS = 250,       /* four lines a second at most */
  FIRST_MS = 1000,     /* a copy done sooner shows nothing on a terminal */
  LOG_MS = 5000,       /* a log gets a line this often */
  WINDOW = 20,         /* the rate is over the last 20 ticks: 5 s */
  NAME_KEPT = 512,     /* bytes kept of the name: the line shows its end */
  NAME_SLOTS = 16,     /* threads that keep their names apart */
  LINE_MAX_BYTES = 4096
};

/* A moment of the run: when (ms since the start), and how many bytes had
   been copied (not cloned) by then.  */
struct sample
{
  uintmax_t ms, copied;
};

/* The name a copying thread set last, in a slot of its own (threads
   past NAME_SLOTS share one), so that two threads never wait for each
   other to set theirs: only the bar's thread, four times a second,
   takes the locks of all.  WHEN orders the names of all slots.  */
struct name_slot
{
  pthread_mutex_t lock;
  uint_least64_t when;
  bool cut;             /* the name's start was left out */
  char name[NAME_KEPT];
};

/* The status line of the run, "the bar": a singleton, as the terminal
   is.  Only its thread uses it, but the names.  */
static struct
{
  struct copy_stats *stats;
  bool tty;             /* stderr is a terminal: redraw in place */
  bool utf8;            /* the locale's charset has '≥' and '…' */
  int width;            /* the terminal's columns */
  bool drawn;           /* the line was on the screen once */
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t wake;
  bool stop;            /* under LOCK */
  struct sample window[WINDOW];
  size_t ticks;
  struct name_slot names[NAME_SLOTS];
} bar = { .lock = PTHREAD_MUTEX_INITIALIZER };

static atomic_bool running;

/* The slots handed out, and the order of the names.  */
static atomic_uint slots_taken;
static atomic_uint_least64_t names_set;

/* The calling thread's slot, taken on its first name.  */
static struct name_slot *
own_slot (void)
{
  static _Thread_local struct name_slot *mine;
  if (!mine)
    mine = &bar.names[atomic_fetch_add (&slots_taken, 1) % NAME_SLOTS];
  return mine;
}

void
progress_name (char const *name)
{
  if (!atomic_load_explicit (&running, memory_order_relaxed))
    return;
  size_t len = strlen (name);
  char const *from = name + (NAME_KEPT <= len ? len - (NAME_KEPT - 1) : 0);
  /* Not from the middle of a UTF-8 character.  */
  while (from != name && (*from & 0xC0) == 0x80)
    from++;
  struct name_slot *slot = own_slot ();
  uint_least64_t when = atomic_fetch_add_explicit (&names_set, 1,
                                                   memory_order_relaxed);
  pthread_mutex_lock (&slot->lock);
  slot->when = when + 1;
  slot->cut = from != name;
  strcpy (slot->name, from);
  pthread_mutex_unlock (&slot->lock);
}

/* The length in bytes of the character at S (LEN bytes left), into *COLS
   its columns on the screen.  A byte that starts no character counts as
   one byte and one column.  */
static size_t
next_char (char const *s, size_t len, mbstate_t *state, int *cols)
{
  wchar_t wc;
  size_t n = mbrtowc (&wc, s, len, state);
  if (n == (size_t) -1 || n == (size_t) -2 || n == 0)
    {
      memset (state, 0, sizeof *state);
      *cols = 1;
      return 1;
    }
  int w = wcwidth (wc);
  *cols = w < 0 ? 1 : w;
  return n;
}

/* The columns S takes.  */
static int
columns (char const *s)
{
  mbstate_t state = { 0 };
  int total = 0, cols;
  for (size_t len = strlen (s), n; len; s += n, len -= n)
    {
      n = next_char (s, len, &state, &cols);
      total += cols;
    }
  return total;
}

/* The end of S that fits in COLS columns.  */
static char const *
tail_fitting (char const *s, int cols)
{
  mbstate_t state = { 0 };
  int width = columns (s), w;
  for (size_t len = strlen (s), n; cols < width && len; s += n, len -= n)
    {
      n = next_char (s, len, &state, &w);
      width -= w;
    }
  return s;
}

/* Cut S where it would pass COLS columns.  */
static void
cut_to_fit (char *s, int cols)
{
  mbstate_t state = { 0 };
  int w;
  for (size_t len = strlen (s), n; len; s += n, len -= n)
    {
      n = next_char (s, len, &state, &w);
      if ((cols -= w) < 0)
        break;
    }
  *s = '\0';
}

/* The terminal's width in columns (80 if it does not say).  */
static int
terminal_width (void)
{
  struct winsize ws;
  if (ioctl (STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && 0 < ws.ws_col)
    return ws.ws_col;
  return 80;
}

/* Bytes copied, not cloned, or with --dedupe compared: what the rate
   is of.  */
static uintmax_t
copied_bytes (struct copy_stats *s)
{
  if (s->dedupe)
    return STATS_GET (s, compared);
  return stats_moved (s) - STATS_GET (s, bytes[LADDER_CLONE]);
}

/* --dedupe's counts, into BUF.  */
static void
format_dedupe_counts (char *buf, size_t size, uintmax_t rate)
{
  struct copy_stats *s = bar.stats;
  char h_compared[LONGEST_HUMAN_READABLE + 1];
  char h_rate[LONGEST_HUMAN_READABLE + 1];
  char h_shared[LONGEST_HUMAN_READABLE + 1];
  snprintf (buf, size, _("%ju pairs, %s compared, %s/s, %s shared"),
            STATS_GET (s, pairs), human_bytes (STATS_GET (s, compared),
                                               h_compared),
            human_bytes (rate, h_rate),
            human_bytes (STATS_GET (s, deduped), h_shared));
}

/* Note the moment MS in the window; return the rate over the window, in
   bytes a second.  */
static uintmax_t
sample_rate (uintmax_t ms)
{
  struct sample now = { ms, copied_bytes (bar.stats) };
  struct sample *slot = &bar.window[bar.ticks % WINDOW];
  struct sample then = bar.ticks < WINDOW ? (struct sample) { 0, 0 } : *slot;
  *slot = now;
  bar.ticks++;
  uintmax_t span = now.ms - then.ms;
  return span ? (now.copied - then.copied) * 1000 / span : 0;
}

/* "M:SS", or "H:MM:SS", of S seconds, in BUF.  */
static char const *
clock_time (uintmax_t s, char buf[32])
{
  if (s < 3600)
    snprintf (buf, 32, "%ju:%02ju", s / 60, s % 60);
  else
    snprintf (buf, 32, "%ju:%02ju:%02ju", s / 3600, s / 60 % 60, s % 60);
  return buf;
}

/* The line's counts, without the name, into BUF.  */
static void
format_counts (char *buf, size_t size, uintmax_t rate)
{
  struct copy_stats *s = bar.stats;
  uintmax_t shared = STATS_GET (s, bytes[LADDER_CLONE]);
  uintmax_t done = (stats_moved (s) + STATS_GET (s, holes)
                    + STATS_GET (s, skipped_bytes));
  uintmax_t files = STATS_GET (s, files) + STATS_GET (s, skipped);
  bool known = atomic_load (&s->scanned);
  /* The scan may be behind the copy, and files may grow.  */
  uintmax_t total = MAX (STATS_GET (s, total_bytes), done);
  uintmax_t total_files = MAX (STATS_GET (s, total_files), files);
  char const *bound = known ? "" : bar.utf8 ? "\u2265" : ">=";
  char h_done[LONGEST_HUMAN_READABLE + 1], h_total[LONGEST_HUMAN_READABLE + 1];
  char h_rate[LONGEST_HUMAN_READABLE + 1];
  char h_shared[LONGEST_HUMAN_READABLE + 1];
  char eta[32];
  size_t n = 0;
  if (known && total)
    n += snprintf (buf, size, "%ju%% ", done * 100 / total);
  n += snprintf (buf + n, size - n, _("%s of %s%s, %ju of %s%ju files, %s/s"),
                 human_bytes (done, h_done), bound,
                 human_bytes (total, h_total), files, bound, total_files,
                 human_bytes (rate, h_rate));
  if (known && rate && done < total && n < size)
    n += snprintf (buf + n, size - n, _(", ETA %s"),
                   clock_time ((total - done + rate - 1) / rate, eta));
  if (shared && n < size)
    snprintf (buf + n, size - n, _(", %s shared"),
              human_bytes (shared, h_shared));
}

/* The name set last, quoted (in the calling thread's buffer), or null
   if none was; *CUT if its start was left out.  */
static char const *
latest_name (bool *cut)
{
  char const *quoted = NULL;
  uint_least64_t newest = 0;
  for (int i = 0; i < NAME_SLOTS; i++)
    {
      struct name_slot *slot = &bar.names[i];
      pthread_mutex_lock (&slot->lock);
      if (newest < slot->when)
        {
          newest = slot->when;
          quoted = quotef (slot->name);
          *cut = slot->cut;
        }
      pthread_mutex_unlock (&slot->lock);
    }
  return quoted;
}

/* The whole line into BUF: the counts, then the name, shortened from its
   left so that the line fits in WIDTH columns (0: no limit).  */
static void
format_line (char *buf, size_t size, uintmax_t rate, int width)
{
  (bar.stats->dedupe ? format_dedupe_counts : format_counts) (buf, size, rate);
  int room = width ? width - columns (buf) - 2 : INT_MAX;
  char const *ellipsis = bar.utf8 ? "\u2026" : "...";
  int ellipsis_cols = bar.utf8 ? 1 : 3;
  bool cut;
  char const *name = latest_name (&cut);
  if (name && ellipsis_cols + 4 <= room)
    {
      char const *tail = name;
      if (cut || room < columns (name))
        {
          tail = tail_fitting (name, room - ellipsis_cols);
          cut = true;
        }
      size_t n = strlen (buf);
      snprintf (buf + n, size - n, ", %s%s", cut ? ellipsis : "", tail);
    }
  if (width)
    cut_to_fit (buf, width);
}

/* The summary at the end, on a line of its own: a string to free.  */
static char *
format_summary (void)
{
  struct copy_stats *s = bar.stats;
  uintmax_t ms = ms_since (s->start);
  uintmax_t shared = STATS_GET (s, bytes[LADDER_CLONE]);
  char h_bytes[LONGEST_HUMAN_READABLE + 1], h_rate[LONGEST_HUMAN_READABLE + 1];
  char h_shared[LONGEST_HUMAN_READABLE + 1];
  if (s->dedupe)
    return xasprintf (_("%s: %ju pairs, %s compared in %ju.%ju s, %s/s, "
                        "%s shared\n"),
                      program_invocation_name, STATS_GET (s, pairs),
                      human_bytes (STATS_GET (s, compared), h_bytes),
                      ms / 1000, ms % 1000 / 100,
                      human_bytes (ms ? copied_bytes (s) * 1000 / ms : 0,
                                   h_rate),
                      human_bytes (STATS_GET (s, deduped), h_shared));
  return xasprintf (_("%s: %ju files, %s in %ju.%ju s, %s/s%s%s%s\n"),
                    program_invocation_name, STATS_GET (s, files),
                    human_bytes (stats_moved (s), h_bytes),
                    ms / 1000, ms % 1000 / 100,
                    human_bytes (ms ? copied_bytes (s) * 1000 / ms : 0,
                                 h_rate),
                    shared ? ", " : "",
                    shared ? human_bytes (shared, h_shared) : "",
                    shared ? _(" shared") : "");
}

/* One tick of the clock, at MS: draw the line, or write a line of the
   log when *NEXT_LOG has come.  */
static void
tick (uintmax_t ms, uintmax_t *next_log)
{
  uintmax_t rate = sample_rate (ms);
  char line[LINE_MAX_BYTES];
  if (bar.tty)
    {
      if (resize_seen ())
        bar.width = terminal_width ();
      if (ms < FIRST_MS)
        return;
      /* One column short: a character in the last column would make
         some terminals wrap the line, and \r then goes to the wrong
         line.  */
      format_line (line, sizeof line, rate, bar.width - 1);
      out_status (line);
      bar.drawn = true;
    }
  else if (*next_log <= ms)
    {
      format_line (line, sizeof line, rate, 0);
      char *text = xasprintf ("%s: %s\n", program_invocation_name, line);
      out_now (text);
      free (text);
      *next_log += LOG_MS;
    }
}

/* The line's thread: a tick every TICK_MS, until told to stop.  */
static void *
run (void *arg _GL_UNUSED)
{
  uintmax_t next_log = LOG_MS;
  struct timespec at;
  clock_gettime (CLOCK_MONOTONIC, &at);
  pthread_mutex_lock (&bar.lock);
  while (!bar.stop)
    {
      at.tv_nsec += TICK_MS * 1000000L;
      if (1000000000L <= at.tv_nsec)
        {
          at.tv_sec++;
          at.tv_nsec -= 1000000000L;
        }
      while (!bar.stop
             && (pthread_cond_timedwait (&bar.wake, &bar.lock, &at)
                 != ETIMEDOUT))
        continue;
      if (bar.stop)
        break;
      pthread_mutex_unlock (&bar.lock);
      tick (ms_since (bar.stats->start), &next_log);
      pthread_mutex_lock (&bar.lock);
    }
  pthread_mutex_unlock (&bar.lock);
  quote_name_free ();
  return NULL;
}

bool
progress_start (enum progress_when when, struct copy_stats *stats)
{
  bar.tty = isatty (STDERR_FILENO);
  if (when == PROGRESS_NEVER || (when == PROGRESS_AUTO && !bar.tty))
    return false;
  bar.stats = stats;
  bar.utf8 = strcmp (nl_langinfo (CODESET), "UTF-8") == 0;
  if (bar.tty)
    {
      out_status_expect ();
      catch_resize_signal ();
      bar.width = terminal_width ();
    }
  for (int i = 0; i < NAME_SLOTS; i++)
    pthread_mutex_init (&bar.names[i].lock, NULL);
  /* The deadlines of the ticks are on the run's clock.  */
  pthread_condattr_t attr;
  pthread_condattr_init (&attr);
  pthread_condattr_setclock (&attr, CLOCK_MONOTONIC);
  pthread_cond_init (&bar.wake, &attr);
  pthread_condattr_destroy (&attr);
  int err = pthread_create (&bar.thread, NULL, run, NULL);
  if (err)
    {
      error (0, err, _("cannot show the progress"));
      return false;
    }
  atomic_store (&running, true);
  return true;
}

void
progress_finish (void)
{
  if (!atomic_load (&running))
    return;
  pthread_mutex_lock (&bar.lock);
  bar.stop = true;
  pthread_cond_signal (&bar.wake);
  pthread_mutex_unlock (&bar.lock);
  pthread_join (bar.thread, NULL);
  atomic_store (&running, false);
  char *summary = format_summary ();
  if (bar.tty)
    out_status_end (bar.drawn ? summary : NULL);
  else
    out_now (summary);
  free (summary);
}
