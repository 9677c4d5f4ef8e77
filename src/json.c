/* json.c -- JSON strings of file names (json.h).  */

#include <config.h>
#include "json.h"

#include <stdio.h>
#include <string.h>

#include "xalloc.h"

/* The length of the strict UTF-8 sequence at S (RFC 3629, section 4),
   or 0 if S does not start one.  */
static size_t
utf8_length (unsigned char const *s)
{
  unsigned char c = s[0];
  if (c < 0x80)
    return 1;
  /* The first continuation byte's range, by lead byte: this rules out
     overlong forms (C0, C1, E0 80-9F, F0 80-8F), the surrogates (ED
     A0-BF) and code points past U+10FFFF (F4 90-, F5-FF).  */
  unsigned char lo = 0x80, hi = 0xBF;
  size_t n;
  if (0xC2 <= c && c <= 0xDF)
    n = 2;
  else if (0xE0 <= c && c <= 0xEF)
    {
      n = 3;
      lo = c == 0xE0 ? 0xA0 : 0x80;
      hi = c == 0xED ? 0x9F : 0xBF;
    }
  else if (0xF0 <= c && c <= 0xF4)
    {
      n = 4;
      lo = c == 0xF0 ? 0x90 : 0x80;
      hi = c == 0xF4 ? 0x8F : 0xBF;
    }
  else
    return 0;
  if (s[1] < lo || hi < s[1])
    return 0;
  for (size_t i = 2; i < n; i++)
    if (s[i] < 0x80 || 0xBF < s[i])
      return 0;
  return n;
}

char *
json_string (char const *s)
{
  unsigned char const *u = (unsigned char const *) s;
  /* At most 6 bytes out for one in: \u001f, \udcff.  */
  char *out = xnmalloc (strlen (s) + 1, 6), *p = out;
  *p++ = '"';
  while (*u)
    {
      size_t n = utf8_length (u);
      if (n == 0)
        p += sprintf (p, "\\udc%02x", *u++);
      else if (1 < n)
        {
          memcpy (p, u, n);
          p += n;
          u += n;
        }
      else if (*u == '"' || *u == '\\')
        {
          *p++ = '\\';
          *p++ = *u++;
        }
      else if (*u < 0x20)
        p += sprintf (p, "\\u%04x", *u++);
      else
        *p++ = *u++;
    }
  *p++ = '"';
  *p = '\0';
  return out;
}
