/* report.h -- what fcopy tells the user about each file on stdout.  */

#ifndef FCOPY_REPORT_H
#define FCOPY_REPORT_H

#include "dedupe.h"
#include "engine.h"

/* -v: "'SRC' -> 'DST'", as GNU cp prints it.  */
void report_verbose (char const *src_name, char const *dst_name);

/* --debug: the -v line followed by what each step of the ladder did,
   e.g. "'a' -> 'b' (reflink: unsupported, copy offload: yes,
   sparse detection: SEEK_HOLE)".  Scripts and tests parse it: keep the
   wording stable.  */
void report_debug (char const *src_name, char const *dst_name,
                   struct copy_report const *report);

/* --stats (and -v) with --dedupe: the counts, one "key: value" a line. */
void report_dedupe_stats (struct dedupe_stats const *stats);

/* "-r not specified; omitting directory NAME", as cp says it.  */
void report_omitted_dir (char const *name);

#endif
