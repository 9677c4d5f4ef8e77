/* fuzz-size.c -- fuzz target for the byte-count parser (--length,
   --src-offset, --dst-offset).

   An input is taken as one command-line argument (up to its first NUL).
   Checks: no crash; an accepted count is in [0, OFF_MAX], has no sign
   and begins with a digit (no white space);
   a plain decimal is read exactly; and the suffixes scale it: N K = N *
   1024, N KB = N * 1000, N MiB = N * 1024^2, ..., or are refused as too
   large exactly when the product does not fit an off_t.  */

#include <config.h>
#include "fuzz.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "intprops.h"
#include "size-arg.h"

enum { ARG_MAX_TRIED = 4096 };

/* Whether ARG is only decimal digits (at least one); if so and it fits
   an off_t, set *N to its value, else set *N to -1.  */
static bool
plain_decimal (char const *arg, off_t *n)
{
  if (!*arg)
    return false;
  *n = 0;
  for (char const *p = arg; *p; p++)
    {
      if (*p < '0' || '9' < *p)
        return false;
      if (0 <= *n && (INT_MULTIPLY_WRAPV (*n, 10, n)
                      || INT_ADD_WRAPV (*n, *p - '0', n)))
        *n = -1;
    }
  return true;
}

/* Check that ARG followed by SUFFIX reads as N * SCALE, or is refused
   with EOVERFLOW when that does not fit.  */
static void
check_scaled (char const *arg, off_t n, char const *suffix, off_t scale)
{
  char buf[ARG_MAX_TRIED + 8];
  snprintf (buf, sizeof buf, "%s%s", arg, suffix);
  off_t want, got;
  bool fits = !INT_MULTIPLY_WRAPV (n, scale, &want);
  bool ok = parse_byte_count (buf, &got);
  FUZZ_CHECK (ok == fits);
  if (ok)
    FUZZ_CHECK (got == want);
  else
    FUZZ_CHECK (errno == EOVERFLOW);
}

int
LLVMFuzzerTestOneInput (uint8_t const *data, size_t size)
{
  char arg[ARG_MAX_TRIED + 1];
  size_t len = size < ARG_MAX_TRIED ? size : ARG_MAX_TRIED;
  memcpy (arg, data, len);
  arg[len] = '\0';

  off_t n = 0;
  bool ok = parse_byte_count (arg, &n);
  if (ok)
    FUZZ_CHECK (0 <= n && !strchr (arg, '-') && '0' <= arg[0] && arg[0] <= '9');
  else
    FUZZ_CHECK (errno == 0 || errno == EOVERFLOW);

  off_t value;
  if (plain_decimal (arg, &value))
    {
      FUZZ_CHECK (ok == (0 <= value));
      if (!ok)
        return 0;
      FUZZ_CHECK (n == value);
      check_scaled (arg, n, "K", 1024);
      check_scaled (arg, n, "KiB", 1024);
      check_scaled (arg, n, "KB", 1000);
      check_scaled (arg, n, "M", (off_t) 1 << 20);
      check_scaled (arg, n, "MB", 1000000);
      check_scaled (arg, n, "GiB", (off_t) 1 << 30);
      check_scaled (arg, n, "T", (off_t) 1 << 40);
      check_scaled (arg, n, "PB", 1000000000000000);
      check_scaled (arg, n, "E", (off_t) 1 << 60);
      /* And back: the count printed reads as itself.  */
      char back[32];
      snprintf (back, sizeof back, "%jd", (intmax_t) n);
      off_t again;
      FUZZ_CHECK (parse_byte_count (back, &again) && again == n);
    }
  return 0;
}
