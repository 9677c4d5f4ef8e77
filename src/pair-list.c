/* pair-list.c -- the records of a pair list: SRC, DST, SRC, DST... or
   groups whose first name is the source of the others, each group ended
   by an empty record (fdupes -r, jdupes -r).  Records end with a
   newline, or with a NUL under -0 (find -print0).  */

#include <config.h>
#include "pair-list.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "i18n.h"
#include "quote-name.h"
#include "xalloc.h"

void
pair_list_init (struct pair_list *l, FILE *list, char const *name,
                bool null_sep, bool groups)
{
  *l = (struct pair_list) { .file = list, .name = name,
                            .null_sep = null_sep, .groups = groups };
}

void
pair_list_free (struct pair_list *l)
{
  free (l->line);
  free (l->src);
  l->line = l->src = NULL;
}

/* The longest name a record may hold: the kernel refuses a file name of
   PATH_MAX bytes, its terminating NUL counted, with ENAMETOOLONG.  */
enum { RECORD_MAX = PATH_MAX - 1 };

/* What next_record returns for a record longer than RECORD_MAX.  */
enum { RECORD_TOO_LONG = -2 };

/* Read the next record into L->line without its terminator.  Return its
   length; RECORD_TOO_LONG, having read RECORD_MAX + 1 of its bytes; or
   -1 at EOF or on a read error (ferror tells).  Reading stops at the
   bound, so a list without separators (/dev/zero) cannot eat memory
   as getdelim would, whose ENOMEM looks like EOF.  The last record may
   lack its terminator, as the last line of a text file may.  */
static ssize_t
next_record (struct pair_list *l)
{
  int sep = l->null_sep ? '\0' : '\n';
  if (!l->line)
    l->line = xmalloc (RECORD_MAX + 1);
  size_t len = 0;
  int c;
  while ((c = getc (l->file)) != EOF && c != sep)
    {
      if (len == RECORD_MAX)
        {
          l->record++;
          return RECORD_TOO_LONG;
        }
      l->line[len++] = c;
    }
  if (c == EOF && (len == 0 || ferror (l->file)))
    return -1;
  l->line[len] = '\0';
  l->record++;
  return len;
}

static char const odd_count[] = "odd number of records";

/* Note that the list is bad: WHY (NULL: a read error), errno ERR.  */
static enum pair_list_status
bad_list (struct pair_list *l, int err, char const *why)
{
  l->err = err;
  l->why = why;
  return LIST_BAD;
}

void
pair_list_report (struct pair_list const *l)
{
  if (!l->why)
    error (0, l->err, _("error reading %s"), quoteaf (l->name));
  else if (l->why == odd_count)
    error (0, 0, _("%s: %s: record %ju has no partner"), quoteaf (l->name),
           l->why, l->record);
  else
    error (0, 0, _("%s: record %ju: %s"), quoteaf (l->name), l->record,
           l->why);
}

enum pair_list_status
pair_list_next (struct pair_list *l, char const **src, char const **dst)
{
  if (l->pair_done)
    {
      free (l->src);            /* the pair returned last is used */
      l->src = NULL;
      l->pair_done = false;
    }
  ssize_t len;
  while ((len = next_record (l)) != -1)
    {
      if (len == RECORD_TOO_LONG)
        return bad_list (l, 0, "file name too long");
      else if (len == 0 && l->groups)
        {
          free (l->src);        /* a group ends */
          l->src = NULL;
        }
      else if (len == 0)
        return bad_list (l, 0, "empty file name");
      else if (strlen (l->line) != (size_t) len)
        return bad_list (l, 0, "file name with a NUL byte");
      else if (!l->src)
        l->src = xstrdup (l->line);
      else
        {
          *src = l->src;
          *dst = l->line;
          l->pair_done = !l->groups;
          return LIST_PAIR;
        }
    }
  if (ferror (l->file))
    return bad_list (l, errno, NULL);
  if (l->src && !l->groups)
    return bad_list (l, 0, odd_count);
  return LIST_END;
}
