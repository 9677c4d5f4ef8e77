/* report.c -- the -v and --debug lines, and error messages whole.  */

#include <config.h>
#include "report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "i18n.h"
#include "out-order.h"
#include "quote-name.h"

/* error(), as glibc's, but each message whole and in its place.  glibc
   2.36 builds its error() without stdio's locks (its _IO_flockfile is
   empty outside libio), so with --jobs the program name of one message
   and the text of another came out on one line; and a worker's message
   must wait for the output of the files before its own (out-order.h).
   So the message is made whole, then printed as one piece.  glibc's
   error is a weak symbol, meant to be replaced: the program's own
   serves every call, gnulib's too.  fcopy sets no error_print_progname.  */
void
error (int status, int errnum, char const *format, ...)
{
  va_list args;
  va_start (args, format);
  char *message;
  if (vasprintf (&message, format, args) < 0)
    message = NULL;
  va_end (args);
  char buf[1024];
  out_printf (stderr, "%s: %s%s%s\n", program_invocation_name,
              message ? message : format, errnum ? ": " : "",
              errnum ? strerror_r (errnum, buf, sizeof buf) : "");
  free (message);
  /* ThreadSanitizer would see a race in a plain ++.  */
  __atomic_fetch_add (&error_message_count, 1, __ATOMIC_RELAXED);
  if (status)
    exit (status);
}

void
report_omitted_dir (char const *name)
{
  error (0, 0, _("-r not specified; omitting directory %s"), quoteaf (name));
}

void
report_verbose (char const *src_name, char const *dst_name)
{
  out_printf (stdout, "%s -> %s\n", quoteaf_n (0, src_name),
              quoteaf_n (1, dst_name));
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
  char line[256];
  size_t n = 0;
  char const *sep = " (";

  /* The steps, then one line whole: with --jobs, in its place.  */
#define ADD(...) \
  (n += snprintf (line + n, n < sizeof line ? sizeof line - n : 0, \
                  __VA_ARGS__))
  /* Steps an earlier one made unnecessary are not printed.  */
  for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
    if (step_word (steps[i].state))
      {
        ADD ("%s%s: %s", sep, steps[i].name, step_word (steps[i].state));
        sep = ", ";
      }
  /* Holes matter only where bytes were copied, not cloned.  */
  if (r->clone != STEP_DONE && r->failure != FAILED_CLONE)
    ADD ("%ssparse detection: %s", sep, holes_word[r->holes]);
#undef ADD
  out_printf (stdout, "%s -> %s%s)\n", quoteaf_n (0, src_name),
              quoteaf_n (1, dst_name), line);
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
