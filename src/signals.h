/* signals.h -- --atomic: a temporary file named in the destination's
   directory is removed if SIGINT, SIGTERM, SIGHUP or SIGPIPE ends fcopy,
   which then dies by that signal.  */

#ifndef FCOPY_SIGNALS_H
#define FCOPY_SIGNALS_H

#include <signal.h>

/* Catch the signals (those not ignored when fcopy started).  */
void catch_signals (void);

/* Hold the signals off, into *OLD, and let them come again.  */
void block_signals (sigset_t *old);
void unblock_signals (sigset_t const *old);

/* The temporary NAME in DIR_FD is to be removed if a signal comes;
   call with the signals blocked.  */
void remove_on_signal (int dir_fd, char const *name);

/* No temporary to remove any more.  */
void forget_on_signal (void);

#endif
