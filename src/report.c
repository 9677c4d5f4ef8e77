/* report.c -- the -v and --debug lines, and error messages whole.  */

#include <config.h>
#include "report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "quote-name.h"

/* error(), as glibc's, but each message whole.  glibc 2.36 builds its
   error() without stdio's locks (its _IO_flockfile is empty outside
   libio), so with --jobs the program name of one message and the text
   of another came out on one line.  This one holds stderr for the whole
   message.  glibc's error is a weak symbol, meant to be replaced: the
   program's own serves every call, gnulib's too.  */
void
error (int status, int errnum, char const *format, ...)
{
  fflush (stdout);
  flockfile (stderr);
  if (error_print_progname)
    error_print_progname ();
  else
    fprintf (stderr, "%s: ", program_invocation_name);
  va_list args;
  va_start (args, format);
  vfprintf (stderr, format, args);
  va_end (args);
  /* Under the lock, but ThreadSanitizer does not know flockfile.  */
  __atomic_fetch_add (&error_message_count, 1, __ATOMIC_RELAXED);
  if (errnum)
    {
      char buf[1024];
      fprintf (stderr, ": %s", strerror_r (errnum, buf, sizeof buf));
    }
  putc ('\n', stderr);
  fflush (stderr);
  funlockfile (stderr);
  if (status)
    exit (status);
}

void
report_omitted_dir (char const *name)
{
  error (0, 0, "-r not specified; omitting directory %s", quoteaf (name));
}

void
report_verbose (char const *src_name, char const *dst_name)
{
  printf ("%s -> %s\n", quoteaf_n (0, src_name), quoteaf_n (1, dst_name));
}

static char const *
step_word (enum step_state state)
{
  switch (state)
    {
    case STEP_AVOIDED: return "avoided";
    case STEP_DONE: return "yes";
    case STEP_UNSUPPORTED: return "unsupported";
    case STEP_FAILED: return "failed";
    default: return NULL;
    }
}

void
report_debug (char const *src_name, char const *dst_name,
              struct copy_report const *r)
{
  static char const *const holes_word[] = {
    [HOLES_NONE] = "no", [HOLES_SEEK] = "SEEK_HOLE", [HOLES_ZEROS] = "zeros"
  };
  struct { char const *name; enum step_state state; } const steps[] = {
    { "reflink", r->clone }, { "copy offload", r->offload },
    { "splice", r->splice }, { "read/write", r->rw },
  };
  char const *sep = " (";

  /* One line, whole: with --jobs, other threads print theirs too.  */
  flockfile (stdout);
  printf ("%s -> %s", quoteaf_n (0, src_name), quoteaf_n (1, dst_name));
  /* Steps an earlier one made unnecessary are not printed.  */
  for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
    if (step_word (steps[i].state))
      {
        printf ("%s%s: %s", sep, steps[i].name, step_word (steps[i].state));
        sep = ", ";
      }
  /* Holes matter only where bytes were copied, not cloned.  */
  if (r->clone != STEP_DONE && r->failure != FAILED_CLONE)
    printf ("%ssparse detection: %s", sep, holes_word[r->holes]);
  puts (")");
  funlockfile (stdout);
}

void
report_dedupe_stats (struct dedupe_stats const *s)
{
  printf ("pairs examined: %ju\n"
          "deduplicated: %ju\n"
          "already shared: %ju\n"
          "differing: %ju\n"
          "skipped: %ju\n"
          "failed: %ju\n"
          "bytes deduplicated: %ju\n",
          s->examined, s->deduped, s->shared, s->differing, s->skipped,
          s->failed, s->bytes);
}
