/* report.h -- what fcopy tells the user about each file on stdout.
   Error messages go through error() (out-order.c), at the place that
   knows the names.  */

#ifndef FCOPY_REPORT_H
#define FCOPY_REPORT_H

#include <stdint.h>
#include "human.h"
#include "stats.h"
#include "engine.h"

/* -v: "'SRC' -> 'DST'", as GNU cp prints it, with " (backup: 'B')"
   when BACKUP is not null.  */
void report_verbose (char const *src_name, char const *dst_name,
                     char const *backup);

/* -v in range mode: the source SRC_NAME ends at byte SIZE, so LEN of
   the ASKED bytes are copied.  */
void report_short_range (char const *src_name, off_t size, off_t len,
                         off_t asked);

/* -v: "removed 'NAME'", for a name removed to make room for a copy.  */
void report_removed (char const *name);

/* --debug: three lines, the first two as cp 9.2 and later print them
   (its --debug implies -v), so that scripts written for cp parse them:
     'a' -> 'b'
     copy offload: yes, reflink: unsupported, sparse detection: no
   then fcopy's own steps, which cp does not have:
     splice: no, read/write: no
   Scripts and tests parse them: keep the wording stable.  */
void report_debug (char const *src_name, char const *dst_name,
                   struct copy_report const *report);

/* --debug=json: REPORT as one JSON object on a line: the names, whether
   the copy succeeded, the step that moved the data ("mechanism"), the
   bytes by step and in holes, each step's word, the sparse detection,
   and whether FIEMAP proved the extents shared (true, false, null).
   The man page's DEBUG OUTPUT gives the schema.  */
void report_debug_json (char const *src_name, char const *dst_name,
                        struct copy_report const *report, bool ok);

/* -v with --dedupe: "'SRC' -> 'DST': WHAT", and the BYTES deduplicated. */
void report_dedupe_pair (char const *src_name, char const *dst_name,
                         enum pair_outcome result, uintmax_t bytes);

/* -v with --dedupe -r: REL, under DIR, has no counterpart.  */
void report_only_in (char const *dir, char const *rel);

/* -v with --parents: a leading directory made, "SRC -> DST".  */
void report_parent_dir (char const *src_name, char const *dst_name);

/* --stats (and -v) with --dedupe: the counts, one "key: value" a line,
   or with FORMAT STATS_JSON one JSON object.  */
void report_dedupe_stats (struct dedupe_stats const *stats,
                          enum stats_format format);

/* --stats after a copy: STATS's counts as FORMAT says, on stdout.  The
   text is one "key: value" a line; the JSON object has the same counts
   under stable names (the man page's STATISTICS).  */
void report_copy_stats (struct copy_stats *stats, enum stats_format format);

/* The status line SIGUSR1 asks for: files and bytes copied so far,
   bytes shared (cloned), the time and the rate, on stderr at once.  */
void report_status (struct copy_stats *stats);

/* report_status, if STATS is not null and SIGUSR1 came since the last
   line: called as the copy goes (each piece of data moved, each entry
   of a tree).  */
void report_status_if_asked (struct copy_stats *stats);

/* N bytes in the form of ls -lh, with a space and a unit: "2.9 MiB",
   in BUF.  */
char const *human_bytes (uintmax_t n, char buf[LONGEST_HUMAN_READABLE + 1]);

/* "-r not specified; omitting directory NAME", as cp says it.  */
void report_omitted_dir (char const *name);

#endif
