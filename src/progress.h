/* progress.h -- --progress: a status line on stderr while a copy runs,
   and a summary line at its end.

   A thread of its own wakes four times a second and reads the run's
   counts (stats.h), which the engine adds to as data moves and the scan
   (scan.h) as it finds files.  On a terminal the line is redrawn in
   place (out-order.c erases it before any other output), from one
   second after the start; to a log (--progress=always, stderr not a
   terminal) a plain line goes out every five seconds.  */

#ifndef FCOPY_PROGRESS_H
#define FCOPY_PROGRESS_H

#include <stdbool.h>
#include "options.h"
#include "stats.h"

/* Show the progress of the run that STATS counts, as WHEN says: return
   false (and do nothing) if nothing is to be shown: never, or auto and
   stderr is not a terminal.  Call once, before the copy starts.  */
bool progress_start (enum progress_when when, struct copy_stats *stats);

/* The copy of NAME (a source) begins: the line names it.  Cheap when
   no progress is shown; any thread may call it.  */
void progress_name (char const *name);

/* The run is over: stop the thread, and put the summary in the line's
   place (on a terminal only if the line was shown).  */
void progress_finish (void);

#endif
