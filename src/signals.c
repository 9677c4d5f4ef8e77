/* signals.c -- what a signal must undo under --atomic.

   This is fcopy's one piece of global state: a signal handler can reach
   nothing else.  It holds at most one name, the temporary file being
   written, and the handler removes it with async-signal-safe calls only,
   then dies by the same signal, so that the shell sees the status it
   expects (130 for SIGINT).  */

#include <config.h>
#include "signals.h"

#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

static int const caught[] = { SIGHUP, SIGINT, SIGPIPE, SIGTERM };

static volatile sig_atomic_t armed;
static int temp_dir_fd;
static char temp_name[NAME_MAX + 1];

static void
on_signal (int sig)
{
  if (armed)
    unlinkat (temp_dir_fd, temp_name, 0);
  /* The signal is blocked in its handler: the default action comes as
     soon as the handler returns.  */
  signal (sig, SIG_DFL);
  raise (sig);
}

void
catch_signals (void)
{
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

void
block_signals (sigset_t *old)
{
  sigset_t set;
  sigemptyset (&set);
  for (size_t i = 0; i < sizeof caught / sizeof *caught; i++)
    sigaddset (&set, caught[i]);
  sigprocmask (SIG_BLOCK, &set, old);
}

void
unblock_signals (sigset_t const *old)
{
  sigprocmask (SIG_SETMASK, old, NULL);
}

void
remove_on_signal (int dir_fd, char const *name)
{
  temp_dir_fd = dir_fd;
  strncpy (temp_name, name, sizeof temp_name - 1);
  armed = 1;
}

void
forget_on_signal (void)
{
  armed = 0;
}
