/* out-order.h -- what the threads of --jobs print, in the walk's order.

   One thread prints its -v lines and messages as it goes, in the order
   of the walk, and a user or a script that compares two runs sees the
   same lines in the same order.  With --jobs, the files of a tree are
   copied beside each other, and finish in no fixed order; yet what is
   printed must not depend on that.  So each piece of work a worker
   takes gets a place in the order (a slot) when the walk queues it,
   and the walk's own output takes the places between.  Whatever is
   printed for the first unfinished place goes out at once; what is
   printed for a later one is kept until every place before it is
   finished.  Without workers nothing is kept: output goes straight out.

   -i is the one exception, as it runs no workers (cli.c).

   Error messages take the same way: out-order.c defines the program's
   error(), which every message of fcopy's and gnulib's goes through.  */

#ifndef FCOPY_OUT_ORDER_H
#define FCOPY_OUT_ORDER_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

/* Print FORMAT to STREAM, stdout or stderr, at the calling thread's
   place.  An error message is one call, so that nothing comes between
   its parts.  */
void out_printf (FILE *stream, char const *format, ...)
  _GL_ATTRIBUTE_FORMAT_PRINTF_STANDARD (2, 3);
void out_vprintf (FILE *stream, char const *format, va_list args)
  _GL_ATTRIBUTE_FORMAT_PRINTF_STANDARD (2, 0);

/* Print TEXT on stderr at once, wherever the calling thread's place
   is: a line about the whole run (SIGUSR1's status), not about one
   file.  */
void out_now (char const *text);

/* A status line will be drawn: from now on every write takes the lock,
   so that none is under way when the first line is.  */
void out_status_expect (void);

/* --progress on a terminal: draw LINE, the status line, on stderr in
   place of the one before.  Whatever is printed next, on stderr or on
   stdout when it is a terminal too, first erases it; the next call
   draws it again.  */
void out_status (char const *line);

/* The status line is done with: erase it, draw it no more, and print
   SUMMARY (or nothing, if null) on stderr.  */
void out_status_end (char const *summary);

/* -i's question: erase the status line and draw none while HOLD, as the
   user reads and answers; then draw it again.  */
void out_hold_status (bool hold);

struct out_slot;

/* A place after every place taken so far, for work the walk is about
   to hand over; the walk's own output goes after it.  Called by the
   walk's thread only.  When too many finished places wait for an
   unfinished one, this waits for it to finish, so that what is kept
   stays small.  */
struct out_slot *out_slot_new (void);

/* From now on the calling thread prints at SLOT's place; return the
   place it printed at before, for out_slot_end.  */
struct out_slot *out_slot_begin (struct out_slot *slot);

/* SLOT is complete: what it kept goes out when its turn comes, and it
   is freed.  The calling thread prints at PREVIOUS again.  */
void out_slot_end (struct out_slot *slot, struct out_slot *previous);

#endif
