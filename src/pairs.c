/* pairs.c -- where --dedupe finds its pairs: two trees walked side by
   side, or lists of names (find -print0, fdupes/jdupes output).  */

#include <config.h>
#include "pairs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "error.h"
#include "filenamecat.h"
#include "fts_.h"
#include "i18n.h"
#include "report.h"
#include "pair-list.h"
#include "quote-name.h"
#include "xalloc.h"

/* The part of PATH below the walk's root, whose name is ROOT_LEN long.  */
static char const *
relative (char const *path, size_t root_len)
{
  path += root_len;
  while (*path == '/')
    path++;
  return path;
}

/* Call VISIT for each regular file below DIR with its path and its name
   relative to DIR.  Return false if part of the tree could not be read
   (reported).  */
static bool
walk_files (char const *dir, void (*visit) (void *, char const *,
                                             char const *), void *arg)
{
  char *roots[] = { (char *) dir, NULL };
  /* COMFOLLOW: the operands may be symbolic links to the trees.  */
  FTS *fts = fts_open (roots, FTS_PHYSICAL | FTS_COMFOLLOW | FTS_CWDFD, NULL);
  if (!fts)
    {
      error (0, errno, _("cannot open directory %s"), quoteaf (dir));
      return false;
    }
  bool ok = true;
  size_t root_len = strlen (dir);
  FTSENT *ent;
  while ((ent = fts_read (fts)) != NULL)
    switch (ent->fts_info)
      {
      case FTS_F:
        visit (arg, ent->fts_path, relative (ent->fts_path, root_len));
        break;
      case FTS_DNR: case FTS_ERR: case FTS_NS:
        error (0, ent->fts_errno, _("cannot read %s"),
               quoteaf (ent->fts_path));
        ok = false;
        break;
      default:
        break;                  /* directories, links, devices: no pairs */
      }
  if (errno != 0 || fts_close (fts) != 0)
    {
      error (0, errno, _("cannot walk %s"), quoteaf (dir));
      ok = false;
    }
  return ok;
}

struct tree_walk
{
  struct deduper *d;
  char const *walked_dir;       /* the tree being walked */
  char const *other_dir;        /* the tree its files are looked up in */
  bool ok;                      /* no trouble seen (reported) */
};

/* The name OTHER_DIR/REL, or NULL if there is none (said with -v) or it
   is a symbolic link, which a tree walk does not follow (reported when
   PAIRING, i.e. when the name would be deduplicated).  */
static char *
counterpart (struct tree_walk *w, char const *rel, bool pairing)
{
  char *other = file_name_concat (w->other_dir, rel, NULL);
  struct stat st;
  if (lstat (other, &st) != 0)
    {
      if (errno != ENOENT)
        return other;           /* dedupe_pair says what is wrong */
      if (w->d->opts->verbose)
        report_only_in (w->walked_dir, rel);
    }
  else if (!S_ISLNK (st.st_mode))
    return other;
  else if (pairing)
    {
      error (0, 0, _("%s is a symbolic link: not followed"), quoteaf (other));
      w->ok = false;
    }
  free (other);
  return NULL;
}

static void
visit_source (void *arg, char const *path, char const *rel)
{
  struct tree_walk *w = arg;
  char *dst = counterpart (w, rel, true);
  if (dst)
    dedupe_pair (w->d, path, dst);
  free (dst);
}

/* With -v, name the files that only the destination tree has.  */
static void
visit_dest (void *arg, char const *path _GL_UNUSED, char const *rel)
{
  free (counterpart (arg, rel, false));
}

/* Whether NAME is a directory; say why not.  */
static bool
is_tree (char const *name)
{
  struct stat st;
  if (stat (name, &st) != 0)
    error (0, errno, _("cannot stat %s"), quoteaf (name));
  else if (!S_ISDIR (st.st_mode))
    error (0, ENOTDIR, "%s", quoteaf (name));
  else
    return true;
  return false;
}

bool
dedupe_trees (struct deduper *d, char const *src_dir, char const *dst_dir)
{
  /* Both checked, so that both are reported.  */
  bool src_ok = is_tree (src_dir), dst_ok = is_tree (dst_dir);
  if (!src_ok || !dst_ok)
    return false;
  struct tree_walk w = { d, src_dir, dst_dir, true };
  bool ok = walk_files (src_dir, visit_source, &w);
  if (d->opts->verbose)
    {
      /* Only to name the files that only the destination has.  */
      struct tree_walk back = { d, dst_dir, src_dir, true };
      ok &= walk_files (dst_dir, visit_dest, &back);
    }
  return ok && w.ok;
}

/* A pair read from a list, not yet deduplicated.  */
struct pending
{
  char *src, *dst;
};

/* Deduplicate the pending pair *P, if any, with NEXT read ahead (NULL
   names: nothing); then NEXT is pending.  */
static void
advance (struct deduper *d, struct pending *p, struct pending next)
{
  if (p->dst)
    {
      dedupe_read_ahead (d, next.src, next.dst);
      dedupe_pair (d, p->src, p->dst);
    }
  free (p->src);
  free (p->dst);
  *p = next;
}

/* Deduplicate the pairs or groups that LIST (named LIST_NAME) holds.
   A bad record stops the reading: pairs before it are done, none after
   it is touched.  A pair is deduplicated only once the next one is read,
   so that it can be read ahead (dedupe_read_ahead); every message about
   the list still comes after the pairs before it are done.  */
static bool
read_list (struct deduper *d, FILE *list, char const *list_name, bool groups)
{
  struct pair_list l;
  struct pending pending = { NULL, NULL };
  char const *src, *dst;
  enum pair_list_status status;

  pair_list_init (&l, list, list_name, d->opts->null_sep, groups);
  while ((status = pair_list_next (&l, &src, &dst)) == LIST_PAIR)
    advance (d, &pending, (struct pending) { xstrdup (src), xstrdup (dst) });
  advance (d, &pending, (struct pending) { NULL, NULL });
  if (status == LIST_BAD)
    {
      pair_list_report (&l);
      /* A bad list fails like a pair, so that the counts tell of it too.  */
      d->stats.examined++;
      d->stats.failed++;
    }
  pair_list_free (&l);
  return status == LIST_END;
}

bool
dedupe_list (struct deduper *d, char const *list_name, bool groups)
{
  bool is_stdin = strcmp (list_name, "-") == 0;
  FILE *list = is_stdin ? stdin : fopen (list_name, "re");
  if (!list)
    {
      error (0, errno, _("cannot open %s for reading"), quoteaf (list_name));
      return false;
    }
  bool ok = read_list (d, list, list_name, groups);
  if (!is_stdin && fclose (list) != 0 && ok)
    {
      error (0, errno, _("error reading %s"), quoteaf (list_name));
      ok = false;
    }
  return ok;
}
