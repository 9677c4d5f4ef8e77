/* fuzz-common.c -- set-up shared by the fuzz targets.  */

#include <config.h>
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>

#include "progname.h"

_Noreturn void
fuzz_fail (char const *what, char const *file, int line)
{
  /* stdout: the targets' own messages on stderr are usually silenced
     (-close_fd_mask=2).  */
  printf ("%s:%d: fuzz check failed: %s\n", file, line, what);
  fflush (stdout);
  abort ();
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  set_program_name ((*argv)[0]);
  return 0;
}
