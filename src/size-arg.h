/* size-arg.h -- byte counts given on the command line.  */

#ifndef FCOPY_SIZE_ARG_H
#define FCOPY_SIZE_ARG_H

#include <stdbool.h>
#include <sys/types.h>

/* Set *N to the byte count ARG: decimal digits with an optional suffix,
   K = KiB = 1024, KB = 1000, and M, G, T, P, E likewise.  Return false
   if ARG is not one, or is more than an off_t holds (then errno is
   EOVERFLOW, else 0).  Kept apart from cli.c so that a fuzzer can drive
   it alone.  */
bool parse_byte_count (char const *arg, off_t *n);

#endif
