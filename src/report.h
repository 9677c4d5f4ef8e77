/* report.h -- what fcopy tells the user about each file on stdout.  */

#ifndef FCOPY_REPORT_H
#define FCOPY_REPORT_H

#include "dedupe.h"
#include "engine.h"

/* -v: "'SRC' -> 'DST'", as GNU cp prints it.  */
void report_verbose (char const *src_name, char const *dst_name);

/* --debug: three lines, the first two as cp 9.2 and later print them
   (its --debug implies -v), so that scripts written for cp parse them:
     'a' -> 'b'
     copy offload: yes, reflink: unsupported, sparse detection: no
   then fcopy's own steps, which cp does not have:
     splice: no, read/write: no
   Scripts and tests parse them: keep the wording stable.  */
void report_debug (char const *src_name, char const *dst_name,
                   struct copy_report const *report);

/* --stats (and -v) with --dedupe: the counts, one "key: value" a line. */
void report_dedupe_stats (struct dedupe_stats const *stats);

/* "-r not specified; omitting directory NAME", as cp says it.  */
void report_omitted_dir (char const *name);

#endif
