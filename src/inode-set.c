/* inode-set.c -- a hash of (device, inode) -> name, on gnulib's hash.  */

#include <config.h>
#include "inode-set.h"

#include <stdlib.h>

#include "hash.h"
#include "xalloc.h"

struct entry
{
  dev_t dev;
  ino_t ino;
  char *name;
};

static size_t
entry_hash (void const *x, size_t n)
{
  struct entry const *e = x;
  return (e->ino ^ e->dev) % n;
}

static bool
entry_equal (void const *a, void const *b)
{
  struct entry const *x = a, *y = b;
  return x->ino == y->ino && x->dev == y->dev;
}

static void
entry_free (void *x)
{
  struct entry *e = x;
  free (e->name);
  free (e);
}

struct inode_set *
inode_set_new (void)
{
  Hash_table *t = hash_initialize (64, NULL, entry_hash, entry_equal,
                                   entry_free);
  if (!t)
    xalloc_die ();
  return (struct inode_set *) t;
}

void
inode_set_free (struct inode_set *set)
{
  if (set)
    hash_free ((Hash_table *) set);
}

void
inode_set_add (struct inode_set *set, struct stat const *st,
               char const *name)
{
  struct entry *e = xmalloc (sizeof *e);
  *e = (struct entry) { st->st_dev, st->st_ino, xstrdup (name) };
  struct entry const *in = hash_insert ((Hash_table *) set, e);
  if (!in)
    xalloc_die ();
  if (in != e)
    entry_free (e);
}

char const *
inode_set_find (struct inode_set const *set, struct stat const *st)
{
  struct entry key = { st->st_dev, st->st_ino, NULL };
  struct entry const *e = hash_lookup ((Hash_table const *) set, &key);
  return e ? e->name : NULL;
}
