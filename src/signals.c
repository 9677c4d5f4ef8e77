/* signals.c -- what a signal must undo under --atomic.

   This is fcopy's one piece of global state that is not a lock: a
   signal handler can reach nothing else.  It holds the temporary files
   being written that have a name, at most two per thread (the walk, and
   each worker of --jobs: its temporary, and for a moment a second name
   of the old file whose backup is replaced), and the handler removes
   them with async-signal-safe calls only (lock-free atomics, unlinkat),
   then dies by the same signal, so that the shell sees the status it
   expects (130 for SIGINT).

   A thread blocks the signals while it makes a name, but a signal sent
   to the process goes to a thread that does not block it.  So a thread
   claims its place before it makes the name (PLACE_MAKING), and a
   handler waits for such a place to be filled or freed.  The handler
   closes every place it has seen (PLACE_CLOSED), so no name can be made
   after it looked, and takes each name from its place before it removes
   it, so its owner cannot reuse the place meanwhile.  */

#include <config.h>
#include "signals.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

static int const caught[] = { SIGHUP, SIGINT, SIGPIPE, SIGTERM };

enum { PLACE_FREE, PLACE_MAKING, PLACE_ARMED, PLACE_CLOSED };

struct place
{
  atomic_int state;
  int dir_fd;
  char name[NAME_MAX + 1];
};

static struct place *places;
static size_t n_places;

/* Close PLACE to new names, after waiting for the one being made.  */
static void
close_place (struct place *p)
{
  for (;;)
    {
      int state = atomic_load (&p->state);
      if (state == PLACE_MAKING)
        sched_yield ();         /* the owner runs on: it is not here */
      else if (state == PLACE_CLOSED
               || atomic_compare_exchange_strong (&p->state, &state,
                                                  PLACE_CLOSED))
        {
          if (state == PLACE_ARMED)
            unlinkat (p->dir_fd, p->name, 0);
          return;
        }
    }
}

static void
on_signal (int sig)
{
  for (size_t i = 0; i < n_places; i++)
    close_place (&places[i]);
  /* The signal is blocked in its handler: the default action comes as
     soon as the handler returns.  */
  signal (sig, SIG_DFL);
  raise (sig);
}

/* Names a thread may hold at once (atomic.c): its temporary, and a
   second name of the old file while the backup is replaced.  */
enum { PLACES_PER_THREAD = 2 };

void
catch_signals (size_t threads)
{
  n_places = PLACES_PER_THREAD * threads;
  places = xcalloc (n_places, sizeof *places);
  struct sigaction act = { .sa_handler = on_signal };
  sigemptyset (&act.sa_mask);
  for (size_t i = 0; i < sizeof caught / sizeof *caught; i++)
    sigaddset (&act.sa_mask, caught[i]);
  for (size_t i = 0; i < sizeof caught / sizeof *caught; i++)
    {
      struct sigaction old;
      /* A signal ignored by the caller (nohup) stays ignored.  */
      if (sigaction (caught[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
        sigaction (caught[i], &act, NULL);
    }
}

/* pthread_sigmask, not sigprocmask: with --jobs there are threads, and
   only the calling one is to hold the signals off.  */
void
block_signals (sigset_t *old)
{
  sigset_t set;
  sigemptyset (&set);
  for (size_t i = 0; i < sizeof caught / sizeof *caught; i++)
    sigaddset (&set, caught[i]);
  pthread_sigmask (SIG_BLOCK, &set, old);
}

void
unblock_signals (sigset_t const *old)
{
  pthread_sigmask (SIG_SETMASK, old, NULL);
}

int
claim_on_signal (void)
{
  if (n_places == 0)
    return -1;                  /* no signal is caught */
  for (;;)
    for (size_t i = 0; i < n_places; i++)
      {
        int state = PLACE_FREE;
        if (atomic_compare_exchange_strong (&places[i].state, &state,
                                            PLACE_MAKING))
          return i;
        /* Closed: a handler is at work in another thread, and the
           process dies as soon as it is done.  No name may be made.  */
        if (state == PLACE_CLOSED)
          for (;;)
            pause ();
      }
}

void
remove_on_signal (int place, int dir_fd, char const *name)
{
  if (place < 0)
    return;
  struct place *p = &places[place];
  if (name)
    {
      p->dir_fd = dir_fd;
      strncpy (p->name, name, sizeof p->name - 1);
    }
  atomic_store (&p->state, name ? PLACE_ARMED : PLACE_FREE);
}

void
forget_on_signal (int place)
{
  if (place < 0)
    return;
  int state = PLACE_ARMED;
  /* Closed by a handler: it is removing the name, or has.  */
  atomic_compare_exchange_strong (&places[place].state, &state, PLACE_FREE);
}

/* The status signal (SIGUSR1), and the terminal's new size (SIGWINCH),
   have come and not been answered yet.  */
static atomic_bool status_pending, resize_pending;

static void
on_flag_signal (int sig)
{
  atomic_store (sig == SIGUSR1 ? &status_pending : &resize_pending, true);
}

/* Note SIG in its flag from now on.  */
static void
catch_flag_signal (int sig)
{
  struct sigaction act = { .sa_handler = on_flag_signal,
                           .sa_flags = SA_RESTART };
  sigemptyset (&act.sa_mask);
  sigaction (sig, &act, NULL);
}

/* Whether *FLAG's signal came since the last call.  A load first: the
   exchange, a write, is for the rare case.  */
static bool
flag_taken (atomic_bool *flag)
{
  return (atomic_load_explicit (flag, memory_order_relaxed)
          && atomic_exchange (flag, false));
}

void
catch_status_signal (void)
{
  catch_flag_signal (SIGUSR1);
}

bool
status_asked (void)
{
  return flag_taken (&status_pending);
}

void
catch_resize_signal (void)
{
  catch_flag_signal (SIGWINCH);
}

bool
resize_seen (void)
{
  return flag_taken (&resize_pending);
}
