/* size-arg.c -- byte counts given on the command line.  */

#include <config.h>
#include "size-arg.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "c-ctype.h"
#include "intprops.h"
#include "xstrtol.h"

bool
parse_byte_count (char const *arg, off_t *n)
{
  uintmax_t u;
  enum strtol_error e = xstrtoumax (arg, NULL, 10, &u, "kKmMgGtTpPeE0");
  /* A byte count has no sign.  xstrtoumax refuses a leading '-' itself
     (strtoumax would wrap "-1" to a huge count); say so here too, so
     that no gnulib version can make -1 a valid length.  */
  if (e == LONGINT_OK && (strchr (arg, '-') || TYPE_MAXIMUM (off_t) < u))
    e = LONGINT_OVERFLOW;
  /* And it begins with a digit: strtoumax also skips white space and a
     '+' before the number, which the manual does not allow.  */
  if (e == LONGINT_OK && !c_isdigit (arg[0]))
    e = LONGINT_INVALID;
  errno = e == LONGINT_OVERFLOW ? EOVERFLOW : 0;
  if (e != LONGINT_OK)
    return false;
  *n = u;
  return true;
}
