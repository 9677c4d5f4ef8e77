/* signals.h -- --atomic: a temporary file named in the destination's
   directory is removed if SIGINT, SIGTERM, SIGHUP or SIGPIPE ends fcopy,
   which then dies by that signal.  */

#ifndef FCOPY_SIGNALS_H
#define FCOPY_SIGNALS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* Catch the signals (those not ignored when fcopy started), with room
   for the temporaries of THREADS threads.  */
void catch_signals (size_t threads);

/* SIGUSR1 asks for a status line, as it asks dd: from now on it is
   noted (its default action would end fcopy), and status_asked tells
   whether it came since the last call.  SA_RESTART: no call of the copy
   is cut short by it.  */
void catch_status_signal (void);
bool status_asked (void);

/* SIGWINCH says the terminal's size changed (--progress reads it
   again): from now on it is noted, and resize_seen tells whether it
   came since the last call.  */
void catch_resize_signal (void);
bool resize_seen (void);

/* Hold the signals off in the calling thread, into *OLD, and let them
   come again.  */
void block_signals (sigset_t *old);
void unblock_signals (sigset_t const *old);

/* Before the calling thread makes a temporary's name: take a place for
   it, which a signal handler running in another thread meanwhile waits
   for.  Call with the signals blocked; return the place, or -1 if no
   signal is caught (no --atomic), which the two below then ignore.  */
int claim_on_signal (void);

/* The temporary NAME in DIR_FD, just made, is to be removed if a signal
   comes; or (NAME null) none was made.  PLACE is claim_on_signal's;
   call with the signals blocked.  */
void remove_on_signal (int place, int dir_fd, char const *name);

/* No temporary to remove at PLACE any more.  */
void forget_on_signal (int place);

#endif
