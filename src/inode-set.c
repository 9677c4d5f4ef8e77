/* inode-set.c -- a hash of (device, inode) -> name, on gnulib's hash.

   With --jobs, the set of files made is shared by the walk and the
   workers: each call holds the set's lock.  A name, once in, stays where
   it is until the set is freed, so the pointer inode_set_find returns
   stays good after the lock is let go.  */

#include <config.h>
#include "inode-set.h"

#include <pthread.h>
#include <stdlib.h>

#include "hash.h"
#include "xalloc.h"

struct inode_set
{
  Hash_table *table;
  pthread_mutex_t lock;
};

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
  struct inode_set *set = xmalloc (sizeof *set);
  set->table = hash_initialize (64, NULL, entry_hash, entry_equal,
                                entry_free);
  if (!set->table)
    xalloc_die ();
  pthread_mutex_init (&set->lock, NULL);
  return set;
}

void
inode_set_free (struct inode_set *set)
{
  if (!set)
    return;
  hash_free (set->table);
  pthread_mutex_destroy (&set->lock);
  free (set);
}

void
inode_set_add (struct inode_set *set, struct stat const *st,
               char const *name)
{
  struct entry *e = xmalloc (sizeof *e);
  *e = (struct entry) { st->st_dev, st->st_ino, xstrdup (name) };
  pthread_mutex_lock (&set->lock);
  struct entry const *in = hash_insert (set->table, e);
  pthread_mutex_unlock (&set->lock);
  if (!in)
    xalloc_die ();
  if (in != e)
    entry_free (e);
}

char const *
inode_set_find (struct inode_set *set, struct stat const *st)
{
  struct entry key = { st->st_dev, st->st_ino, NULL };
  pthread_mutex_lock (&set->lock);
  struct entry const *e = hash_lookup (set->table, &key);
  pthread_mutex_unlock (&set->lock);
  return e ? e->name : NULL;
}
