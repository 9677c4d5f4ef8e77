/* pair-list.h -- read the pairs of a --pairs-from or --groups-from list.

   Kept apart from the deduplication so that a fuzzer (tests/fuzz) can
   drive the parser alone.  */

#ifndef FCOPY_PAIR_LIST_H
#define FCOPY_PAIR_LIST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct pair_list
{
  FILE *file;
  char const *name;             /* for messages */
  bool null_sep;                /* records end with NUL, not newline */
  bool groups;                  /* fdupes-style groups, not pairs */
  char *line, *src;             /* the record read, the source held */
  uintmax_t record;             /* records read so far */
  bool pair_done;               /* the last pair returned ended a pair */
  int err;                      /* after LIST_BAD: errno, or 0 */
  char const *why;              /* after LIST_BAD: what is wrong, or
                                   NULL for a read error */
};

/* Start reading LIST, named NAME in messages.  */
void pair_list_init (struct pair_list *l, FILE *list, char const *name,
                     bool null_sep, bool groups);

/* What pair_list_next found.  */
enum pair_list_status { LIST_PAIR, LIST_END, LIST_BAD };

/* Read the next pair of L into *SRC and *DST, which stay valid until
   the next call.  LIST_BAD: the list is malformed or unreadable, and
   nothing after the bad record is read; pair_list_report says why.  */
enum pair_list_status pair_list_next (struct pair_list *l,
                                      char const **src, char const **dst);

/* Say why pair_list_next returned LIST_BAD, naming the record.  Apart
   from the reading, so that the caller can first finish the pairs before
   the bad record and keep its messages in order.  */
void pair_list_report (struct pair_list const *l);

void pair_list_free (struct pair_list *l);

#endif
