/* fuzz.h -- what a fuzz target provides.  Each target is built two ways:
   with clang's libFuzzer (configure --enable-fuzzers), which supplies
   main and guides the inputs by coverage, or with fuzz-main.c, a plain
   driver that runs a seed corpus and random mutations of it, so that
   every 'make check' fuzzes a little with any compiler.  */

#ifndef FCOPY_FUZZ_H
#define FCOPY_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Run one input; abort on a broken invariant.  Returns 0.  */
int LLVMFuzzerTestOneInput (uint8_t const *data, size_t size);

/* Called once before the first input.  */
int LLVMFuzzerInitialize (int *argc, char ***argv);

/* Abort with a message if COND is false: a fuzz finding.  */
#define FUZZ_CHECK(cond) \
  ((cond) ? (void) 0 : fuzz_fail (#cond, __FILE__, __LINE__))

_Noreturn void fuzz_fail (char const *what, char const *file, int line);

#endif
