/* report.c -- the -v, --debug and --stats lines.  */

#include <config.h>
#include "report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "error.h"
#include "human.h"
#include "i18n.h"
#include "intprops.h"
#include "json.h"
#include "out-order.h"
#include "quote-name.h"
#include "signals.h"
#include "xalloc.h"
#include "xvasprintf.h"

void
report_omitted_dir (char const *name)
{
  error (0, 0, _("-r not specified; omitting directory %s"), quoteaf (name));
}

/* One line, whole: with --jobs, in its place among the others.  */
void
report_verbose (char const *src_name, char const *dst_name,
                char const *backup)
{
  out_printf (stdout, "%s -> %s%s%s%s\n", quoteaf_n (0, src_name),
              quoteaf_n (1, dst_name), backup ? _(" (backup: ") : "",
              backup ? quoteaf_n (2, backup) : "", backup ? ")" : "");
}

void
report_short_range (char const *src_name, off_t size, off_t len,
                    off_t asked)
{
  out_printf (stdout,
              _("%s ends at byte %jd: copying %jd of the %jd bytes asked\n"),
              quoteaf (src_name), (intmax_t) size, (intmax_t) len,
              (intmax_t) asked);
}

void
report_removed (char const *name)
{
  out_printf (stdout, _("removed %s\n"), quoteaf (name));
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
  if (r->step[LADDER_CLONE] == STEP_DONE || r->failure == FAILED_CLONE)
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

/* The word for how --verify checked a copy, or null if it did not.  */
static char const *
verify_word (enum verify_outcome v)
{
  switch (v)
    {
    case VERIFIED_EXTENTS: return "extents";
    case VERIFIED_DATA: return "data";
    case VERIFY_NOT_DONE: return NULL;
    default: return "failed";
    }
}

/* Whether the ladder was not climbed at all.  */
static bool
no_step_reached (struct copy_report const *r)
{
  for (int i = 0; i < LADDER_STEPS; i++)
    if (r->step[i] != STEP_NOT_TRIED)
      return false;
  return true;
}

void
report_debug (char const *src_name, char const *dst_name,
              struct copy_report const *r)
{
  /* No step was reached (--attributes-only, an empty range): as cp
     without data to copy, only the -v line.  */
  if (no_step_reached (r))
    {
      out_printf (stdout, "%s -> %s\n", quoteaf_n (0, src_name),
                  quoteaf_n (1, dst_name));
      return;
    }
  /* One piece, so that with --jobs the lines stay together and in
     their place.  */
  char *origin = (r->cloned_from
                  ? xasprintf (_("cloned from: %s\n"),
                               quoteaf_n (2, r->cloned_from))
                  : NULL);
  char const *verified = verify_word (r->verified);
  out_printf (stdout,
              "%s -> %s\n"
              "copy offload: %s, reflink: %s, sparse detection: %s\n"
              "splice: %s, read/write: %s, extents shared: %s\n%s%s%s%s",
              quoteaf_n (0, src_name), quoteaf_n (1, dst_name),
              cp_word (r->step[LADDER_OFFLOAD], false),
              cp_word (r->step[LADDER_CLONE], true),
              cp_sparse_word (r),
              step_word (r->step[LADDER_SPLICE]),
              step_word (r->step[LADDER_RW]),
              share_word (r->shared), origin ? origin : "",
              verified ? "verified: " : "", verified ? verified : "",
              verified ? "\n" : "");
  free (origin);
}

/* The JSON name of each step, and of the step that moved the data.  */
static char const *const step_names[LADDER_STEPS] = {
  [LADDER_CLONE] = "clone", [LADDER_OFFLOAD] = "copy_file_range",
  [LADDER_SPLICE] = "splice", [LADDER_RW] = "read_write"
};

void
report_debug_json (char const *src_name, char const *dst_name,
                   struct copy_report const *r, bool ok)
{
  char const *mechanism = "none";
  uintmax_t total = 0;
  for (int i = LADDER_STEPS - 1; 0 <= i; i--)
    {
      total += r->bytes[i];
      if (r->step[i] == STEP_DONE)
        mechanism = step_names[i];
    }
  char const *shared = (r->shared == SHARE_YES ? "true"
                        : r->shared == SHARE_NO ? "false" : "null");
  char *src = json_string (src_name), *dst = json_string (dst_name);
  char *origin = r->cloned_from ? json_string (r->cloned_from) : NULL;
  char const *verified = verify_word (r->verified);
  out_printf (stdout,
              "{\"source\": %s, \"destination\": %s, \"ok\": %s, "
              "\"mechanism\": \"%s\", \"bytes\": %ju, "
              "\"bytes_cloned\": %ju, \"bytes_copy_file_range\": %ju, "
              "\"bytes_splice\": %ju, \"bytes_read_write\": %ju, "
              "\"bytes_in_holes\": %ju, \"clone\": \"%s\", "
              "\"copy_file_range\": \"%s\", \"splice\": \"%s\", "
              "\"read_write\": \"%s\", \"sparse_detection\": \"%s\", "
              "\"extents_shared\": %s, \"cloned_from\": %s, "
              "\"verified\": %s%s%s}\n",
              src, dst, ok ? "true" : "false", mechanism, total,
              r->bytes[LADDER_CLONE], r->bytes[LADDER_OFFLOAD],
              r->bytes[LADDER_SPLICE], r->bytes[LADDER_RW],
              r->bytes_in_holes, step_word (r->step[LADDER_CLONE]),
              step_word (r->step[LADDER_OFFLOAD]),
              step_word (r->step[LADDER_SPLICE]),
              step_word (r->step[LADDER_RW]), cp_sparse_word (r), shared,
              origin ? origin : "null", verified ? "\"" : "null",
              verified ? verified : "", verified ? "\"" : "");
  free (origin);
  free (src);
  free (dst);
}

void
report_dedupe_pair (char const *src_name, char const *dst_name,
                    enum pair_outcome result, uintmax_t bytes)
{
  static char const *const said[] = {
    [PAIR_DEDUPED] = "deduplicated", [PAIR_SHARED] = "already shared",
    [PAIR_DIFFER] = "differ", [PAIR_SKIPPED] = "skipped",
    [PAIR_FAILED] = "failed"
  };
  char count[INT_BUFSIZE_BOUND (uintmax_t) + sizeof " bytes"] = "";
  if (result == PAIR_DEDUPED)
    sprintf (count, " %ju bytes", bytes);
  out_printf (stdout, "%s -> %s: %s%s\n", quoteaf_n (0, src_name),
              quoteaf_n (1, dst_name), said[result], count);
}

void
report_only_in (char const *dir, char const *rel)
{
  out_printf (stdout, _("only in %s: %s\n"), quoteaf_n (0, dir),
              quoteaf_n (1, rel));
}

/* cp prints these lines unquoted.  */
void
report_parent_dir (char const *src_name, char const *dst_name)
{
  out_printf (stdout, "%s -> %s\n", src_name, dst_name);
}

void
report_dedupe_stats (struct dedupe_stats const *s, enum stats_format format)
{
  if (format == STATS_JSON)
    {
      printf ("{\"mode\": \"dedupe\", \"pairs_examined\": %ju, "
              "\"deduplicated\": %ju, \"already_shared\": %ju, "
              "\"differing\": %ju, \"skipped\": %ju, \"failed\": %ju, "
              "\"bytes_deduplicated\": %ju}\n",
              s->examined, s->deduped, s->shared, s->differing, s->skipped,
              s->failed, s->bytes);
      return;
    }
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

void
report_copy_stats (struct copy_stats *s, enum stats_format format)
{
  uintmax_t by[LADDER_STEPS], total = stats_moved (s);
  for (int i = 0; i < LADDER_STEPS; i++)
    by[i] = STATS_GET (s, bytes[i]);
  /* error_message_count counts every message: each failure says one.  */
  uintmax_t errors = __atomic_load_n (&error_message_count,
                                      __ATOMIC_RELAXED);
  /* Seconds with a point whatever LC_NUMERIC says: JSON wants one.  */
  uintmax_t ms = ms_since (s->start);
  char const *form = (format == STATS_JSON
                      ? "{\"mode\": \"copy\", \"files\": %ju, "
                        "\"directories\": %ju, \"links\": %ju, "
                        "\"special_files\": %ju, \"skipped\": %ju, %s"
                        "\"bytes\": %ju, \"bytes_cloned\": %ju, "
                        "\"bytes_copy_file_range\": %ju, "
                        "\"bytes_splice\": %ju, \"bytes_read_write\": %ju, "
                        "\"bytes_in_holes\": %ju, \"errors\": %ju, "
                        "\"seconds\": %ju.%03ju}\n"
                      : _("files: %ju\n"
                          "directories: %ju\n"
                          "links: %ju\n"
                          "special files: %ju\n"
                          "skipped: %ju\n"
                          "%s"
                          "bytes: %ju\n"
                          "bytes cloned: %ju\n"
                          "bytes by copy_file_range: %ju\n"
                          "bytes by splice: %ju\n"
                          "bytes by read/write: %ju\n"
                          "bytes in holes: %ju\n"
                          "errors: %ju\n"
                          "seconds: %ju.%03ju\n"));
  /* --clone-dest's counts, only where it was asked for.  */
  char *origins = (!s->clone_dest ? xstrdup ("")
                   : xasprintf (format == STATS_JSON
                                ? "\"files_from_clone_dest\": %ju, "
                                  "\"bytes_from_clone_dest\": %ju, "
                                : _("files from clone-dest: %ju\n"
                                    "bytes from clone-dest: %ju\n"),
                                STATS_GET (s, origin_files),
                                STATS_GET (s, origin_bytes)));
  printf (form, STATS_GET (s, files), STATS_GET (s, directories),
          STATS_GET (s, links), STATS_GET (s, specials),
          STATS_GET (s, skipped), origins, total, by[LADDER_CLONE],
          by[LADDER_OFFLOAD], by[LADDER_SPLICE], by[LADDER_RW],
          STATS_GET (s, holes), errors, ms / 1000, ms % 1000);
  free (origins);
}

char const *
human_bytes (uintmax_t n, char buf[LONGEST_HUMAN_READABLE + 1])
{
  return human_readable (n, buf, (human_autoscale | human_base_1024
                                  | human_SI | human_B
                                  | human_space_before_unit), 1, 1);
}

void
report_status (struct copy_stats *s)
{
  /* Cloned bytes take no time to move: they count apart, and not in
     the rate.  With --dedupe the rate is of the bytes compared.  */
  uintmax_t shared = STATS_GET (s, bytes[LADDER_CLONE]);
  uintmax_t done = stats_moved (s) - shared, items = STATS_GET (s, files);
  if (s->dedupe)
    {
      shared = STATS_GET (s, deduped);
      done = STATS_GET (s, compared);
      items = STATS_GET (s, pairs);
    }
  uintmax_t ms = ms_since (s->start);
  char done_h[LONGEST_HUMAN_READABLE + 1];
  char shared_h[LONGEST_HUMAN_READABLE + 1];
  char rate_h[LONGEST_HUMAN_READABLE + 1];
  char *line = xasprintf ((s->dedupe
                           ? _("%s: %ju pairs, %s compared, %s shared, "
                               "%ju.%ju s, %s/s\n")
                           : _("%s: %ju files, %s copied, %s shared, "
                               "%ju.%ju s, %s/s\n")),
                          program_invocation_name, items,
                          human_bytes (done, done_h),
                          human_bytes (shared, shared_h),
                          ms / 1000, ms % 1000 / 100,
                          human_bytes (ms ? done * 1000 / ms : 0, rate_h));
  out_now (line);
  free (line);
}

void
report_status_if_asked (struct copy_stats *s)
{
  if (s && status_asked ())
    report_status (s);
}
