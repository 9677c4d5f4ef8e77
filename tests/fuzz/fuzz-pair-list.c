/* fuzz-pair-list.c -- fuzz target for the pair-list reader.

   The first byte of an input picks the mode (bit 0: NUL-separated,
   bit 1: groups); the rest is the list.  The pairs that pair_list_next
   returns are checked against a reference reading written here the
   simple way, over the whole buffer: same pairs in the same order, the
   same end (clean, or bad at the same record).  */

#include <config.h>
#include "fuzz.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pair-list.h"

/* The reference: walk the records of LIST (LEN bytes) and return the
   next pair after *POS, or LIST_END / LIST_BAD with *RECORD the record
   number where the list turned bad.  */
struct reference
{
  char const *list;
  size_t len, pos;
  char sep;
  bool groups;
  char const *src;              /* into list */
  size_t src_len;
  uintmax_t record;
};

static enum pair_list_status
reference_next (struct reference *r, char const **src, size_t *src_len,
                char const **dst, size_t *dst_len)
{
  while (r->pos < r->len)
    {
      char const *rec = r->list + r->pos;
      char const *end = memchr (rec, r->sep, r->len - r->pos);
      size_t rec_len = end ? (size_t) (end - rec) : r->len - r->pos;
      r->pos += rec_len + (end != NULL);
      r->record++;
      if (rec_len == 0 && r->groups)
        r->src = NULL;
      else if (rec_len == 0 || rec_len >= PATH_MAX
               || memchr (rec, '\0', rec_len))
        return LIST_BAD;
      else if (!r->src)
        {
          r->src = rec;
          r->src_len = rec_len;
        }
      else
        {
          *src = r->src;
          *src_len = r->src_len;
          *dst = rec;
          *dst_len = rec_len;
          if (!r->groups)
            r->src = NULL;
          return LIST_PAIR;
        }
    }
  return r->src && !r->groups ? LIST_BAD : LIST_END;
}

static bool
same_name (char const *name, char const *ref, size_t ref_len)
{
  return strlen (name) == ref_len && memcmp (name, ref, ref_len) == 0;
}

int
LLVMFuzzerTestOneInput (uint8_t const *data, size_t size)
{
  if (size == 0)
    return 0;
  bool null_sep = data[0] & 1, groups = data[0] & 2;
  char const *list = (char const *) data + 1;
  size_t len = size - 1;

  /* fmemopen wants a buffer of at least one byte; an empty list is read
     from an empty file instead.  */
  FILE *f = len ? fmemopen ((void *) list, len, "r") : fopen ("/dev/null", "r");
  FUZZ_CHECK (f != NULL);

  struct pair_list l;
  pair_list_init (&l, f, "fuzz", null_sep, groups);
  struct reference r = { .list = list, .len = len,
                         .sep = null_sep ? '\0' : '\n', .groups = groups };
  enum pair_list_status got, want;
  do
    {
      char const *src, *dst, *rsrc = NULL, *rdst = NULL;
      size_t rsrc_len = 0, rdst_len = 0;
      got = pair_list_next (&l, &src, &dst);
      want = reference_next (&r, &rsrc, &rsrc_len, &rdst, &rdst_len);
      FUZZ_CHECK (got == want);
      if (got == LIST_PAIR)
        {
          FUZZ_CHECK (same_name (src, rsrc, rsrc_len));
          FUZZ_CHECK (same_name (dst, rdst, rdst_len));
        }
    }
  while (got == LIST_PAIR);
  FUZZ_CHECK (l.record == r.record);
  if (got == LIST_BAD)
    pair_list_report (&l);
  pair_list_free (&l);
  fclose (f);
  return 0;
}
