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

/* cp's word (coreutils 9.2 and later, copy.c's copy_debug_string) for
   what the clone or copy offload step did.  cp leaves a clone that met a
   real error (EIO...) "unknown", but calls a failed copy_file_range
   "unsupported": it sets that before it reports the error.  */
static char const *
cp_word (enum step_state state, bool clone)
{
  switch (state)
    {
    case STEP_DONE: return "yes";
    case STEP_FAILED: return clone ? "unknown" : "unsupported";
    case STEP_UNSUPPORTED: return "unsupported";
    case STEP_AVOIDED: return "avoided";
    case STEP_NEVER: return "no";
    default: return "unknown";
    }
}

/* cp's word for how holes were looked for (copy_debug_sparse_string):
   "unknown" where no byte was copied (a clone, or a failed clone).  */
static char const *
cp_sparse_word (struct copy_report const *r)
{
  if (r->clone == STEP_DONE || r->failure == FAILED_CLONE)
    return "unknown";
  switch (r->holes)
    {
    case HOLES_SEEK: return "SEEK_HOLE";
    case HOLES_ZEROS: return "zeros";
    case HOLES_SEEK_ZEROS: return "SEEK_HOLE + zeros";
    default: return "no";
    }
}

/* fcopy's word for a step cp does not have: "no" for one not reached.  */
static char const *
step_word (enum step_state state)
{
  switch (state)
    {
    case STEP_AVOIDED: return "avoided";
    case STEP_DONE: return "yes";
    case STEP_UNSUPPORTED: return "unsupported";
    case STEP_FAILED: return "failed";
    default: return "no";
    }
}

/* The word for what FIEMAP proved of the copy.  */
static char const *
share_word (enum share_fact fact)
{
  switch (fact)
    {
    case SHARE_YES: return "yes";
    case SHARE_NO: return "no";
    default: return "unknown";
    }
}

void
report_debug (char const *src_name, char const *dst_name,
              struct copy_report const *r)
{
  /* No step was reached (--attributes-only, an empty range): as cp
     without data to copy, only the -v line.  */
  if (r->clone == STEP_NOT_TRIED && r->offload == STEP_NOT_TRIED
      && r->splice == STEP_NOT_TRIED && r->rw == STEP_NOT_TRIED)
    {
      out_printf (stdout, "%s -> %s\n", quoteaf_n (0, src_name),
                  quoteaf_n (1, dst_name));
      return;
    }
  /* One piece, so that with --jobs the lines stay together and in
     their place.  */
  out_printf (stdout,
              "%s -> %s\n"
              "copy offload: %s, reflink: %s, sparse detection: %s\n"
              "splice: %s, read/write: %s, extents shared: %s\n",
              quoteaf_n (0, src_name), quoteaf_n (1, dst_name),
              cp_word (r->offload, false), cp_word (r->clone, true),
              cp_sparse_word (r),
              step_word (r->splice), step_word (r->rw),
              share_word (r->shared));
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
