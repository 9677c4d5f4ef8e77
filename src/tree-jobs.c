/* tree-jobs.c -- the walk's side of --jobs: regular files handed to the
   workers, and directories given their metadata after the last of them.

   Creating a file in a directory changes the directory's modification
   time, and a directory made read-only cannot be filled: so a directory
   gets its metadata only once every copy into it is complete.  Rather
   than wait for its files when the walk leaves it, which would leave the
   workers idle at the end of each directory, a directory of the copy is
   held by a count: the walk while it is in it, each file queued to be
   copied into it, each subdirectory not finished.  Whoever lets go of
   the last hold, the walk or a worker, gives it its metadata and then
   lets go of its parent, as the walk without --jobs does on the way up.
   The count also keeps the directory's descriptor open as long as a
   copy may use it.  */

#include <config.h>
#include "tree-walk.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "copy-file.h"
#include "jobs.h"
#include "out-order.h"
#include "xalloc.h"

struct dir_ref
{
  atomic_size_t holds;
  struct dir_ref *parent;
  int fd;                       /* the walk's held_dir fd */
  struct fcopy_options const *opts;
  /* Once the walk has left it: what set_dir_metadata needs, with the
     names and status copied (the walk's entry is gone by then).  */
  struct left_dir left;
  struct stat st;
  char *names;
  struct out_slot *slot;        /* where the walk left it, in the output */
};

/* A regular file to be copied by a worker.  */
struct file_job
{
  struct job job;
  struct dir_ref *dir;          /* the directory it goes in */
  struct fcopy_options const *opts;
  int src_fd;                   /* the source, opened by the walk (the
                                   queue's bound, jobs.c, bounds how
                                   many are open) */
  struct stat src_st;           /* its fstat */
  bool fresh, plain;            /* as the walk's dst_path */
  dev_t dev;
  char *dst_name, *rel;         /* in NAMES, after the source's name */
  char names[];
};

struct dir_ref *
dir_ref_new (int fd, struct dir_ref *parent, struct fcopy_options const *opts)
{
  struct dir_ref *ref = xmalloc (sizeof *ref);
  *ref = (struct dir_ref) { .parent = parent, .fd = fd, .opts = opts };
  atomic_init (&ref->holds, 1);
  if (parent)
    atomic_fetch_add (&parent->holds, 1);
  return ref;
}

/* Let go of a hold on REF; the last one gives it its metadata and lets
   go of its parent in turn.  Return false if a metadata failed.  */
static bool
dir_ref_release (struct dir_ref *ref)
{
  bool ok = true;
  /* A decrement that reaches 0 is the last: only the walk adds holds,
     and never to a directory it has left.  */
  while (ref && atomic_fetch_sub (&ref->holds, 1) == 1)
    {
      struct dir_ref *parent = ref->parent;
      /* A failure is told where the walk left the directory, as when
         the walk gives it its metadata itself.  */
      struct out_slot *previous = out_slot_begin (ref->slot);
      ok &= set_dir_metadata (ref->opts, &ref->left);
      out_slot_end (ref->slot, previous);
      free (ref->names);
      free (ref);
      ref = parent;
    }
  return ok;
}

/* Keep a copy of D in REF, for later.  */
static void
keep_left_dir (struct dir_ref *ref, struct left_dir const *d)
{
  size_t acc = strlen (d->src_acc) + 1, path = strlen (d->src_path) + 1;
  size_t name = strlen (d->dst.name) + 1, rel = strlen (d->dst.rel) + 1;
  char *p = ref->names = xmalloc (acc + path + name + rel);
  ref->st = *d->st;
  ref->left = *d;
  ref->left.st = &ref->st;
  ref->left.src_acc = memcpy (p, d->src_acc, acc);
  ref->left.src_path = memcpy (p += acc, d->src_path, path);
  ref->left.dst.name = memcpy (p += path, d->dst.name, name);
  ref->left.dst.rel = memcpy (p += name, d->dst.rel, rel);
}

bool
dir_ref_leave (struct dir_ref *ref, struct left_dir const *d)
{
  /* No copy into it in flight, the common case for a directory whose
     files are done: its metadata now, as without --jobs.  */
  if (atomic_load (&ref->holds) == 1)
    {
      struct dir_ref *parent = ref->parent;
      bool ok = set_dir_metadata (ref->opts, d);
      free (ref);
      return ok & dir_ref_release (parent);
    }
  keep_left_dir (ref, d);
  ref->slot = out_slot_new ();
  return dir_ref_release (ref);
}

void
dir_ref_abandon (struct dir_ref *ref)
{
  close (ref->fd);
  free (ref->names);
  free (ref);
}

/* What a worker copies with: the memory of the run as it sees it.  */
struct worker_memory
{
  struct copy_memory mem;      /* first: the state the worker runs with */
  struct clone_memo clone;     /* what FICLONE said to this worker */
};

static void *
new_worker_memory (void *walk_mem)
{
  struct copy_memory const *walk = walk_mem;
  struct worker_memory *w = xmalloc (sizeof *w);
  *w = (struct worker_memory) { .mem = { .clone = &w->clone,
                                         .stats = walk->stats,
                                         .origins = walk->origins } };
  return &w->mem;
}

struct job_pool *
tree_jobs_start (struct tree_copy *t)
{
  struct jobs_crew crew = { t->opts->jobs, &t->mem, new_worker_memory,
                            free };
  return jobs_start (&crew);
}

bool
walk_has_workers (struct walk *w, FTSENT const *ent)
{
  struct tree_copy *t = w->t;
  if (t->pool || !jobs_due (&t->jobs_after))
    return t->pool;
  t->pool = tree_jobs_start (t);
  if (!t->pool)
    return false;
  /* The walk is in ENT's directory and those above it: each gets the
     hold it would have had from the start (tree.c's hold_dir).  */
  struct dir_ref *parent = NULL;
  for (size_t level = FTS_ROOTLEVEL; level < (size_t) ent->fts_level;
       level++)
    parent = w->held[level].ref = dir_ref_new (w->held[level].fd, parent,
                                               t->opts);
  return true;
}

/* A worker's job: copy the file, then let go of its directory.  */
static bool
run_file_job (struct job *job, void *state)
{
  struct copy_memory const *mem = state;
  struct file_job *j = (struct file_job *) job;
  struct dst_path dst = { j->dir->fd, j->rel, j->dst_name, j->fresh,
                          j->plain, j->dev, false, false,
                          NULL };
  bool ok = copy_open_file (j->names, j->src_fd, &j->src_st, &dst, j->opts,
                            mem);
  ok &= dir_ref_release (j->dir);
  free (j);
  return ok;
}

void
copy_file_later (struct walk const *w, FTSENT const *ent, int src_fd,
                 struct dst_path const *dst)
{
  size_t src = strlen (ent->fts_path) + 1, name = strlen (dst->name) + 1;
  size_t rel = strlen (dst->rel) + 1;
  struct file_job *j = xmalloc (sizeof *j + src + name + rel);
  *j = (struct file_job) { .job.run = run_file_job,
                           .dir = w->held[ent->fts_level - 1].ref,
                           .opts = w->t->opts, .src_fd = src_fd,
                           .src_st = *ent->fts_statp, .fresh = dst->fresh,
                           .plain = dst->plain, .dev = dst->dev };
  memcpy (j->names, ent->fts_path, src);
  j->dst_name = memcpy (j->names + src, dst->name, name);
  j->rel = memcpy (j->dst_name + name, dst->rel, rel);
  atomic_fetch_add (&j->dir->holds, 1);
  jobs_submit (w->t->pool, &j->job);
}
