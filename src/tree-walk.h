/* tree-walk.h -- what the parts of a tree copy share: the walk of one
   operand (tree.c) and the copy of what is not a directory in it
   (tree-nondir.c).  */

#ifndef FCOPY_TREE_WALK_H
#define FCOPY_TREE_WALK_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "dst-path.h"
#include "fts_.h"
#include "tree.h"

/* The destination directory of a directory the walk is in, at its
   level: made or found there on the way down, held open for the *at
   calls that fill it, given its metadata on the way up.  */
struct held_dir
{
  enum { DIR_NOT_HAD, DIR_FOUND, DIR_MADE } how;  /* NOT_HAD: it could not
                                   be made or used (fts still returns it
                                   on the way up) */
  int fd;                       /* O_RDONLY | O_NOFOLLOW, or O_PATH where
                                   it may not be read; -1 once left */
  bool path_only;               /* FD is O_PATH */
  bool inherits;                /* MADE, and new files in it get its
                                   setgid group or a default ACL */
  mode_t mode;                  /* the mode it got, if MADE */
  dev_t dev;                    /* its device, if MADE */
  struct dir_ref *ref;          /* with --jobs: what keeps FD open until
                                   the files copied into it are
                                   (tree-jobs.c) */
};

/* One walk: an operand SRC copied to DST.  */
struct walk
{
  struct tree_copy *t;
  char const *src_root, *dst_root;  /* the operands as given */
  size_t src_root_len;          /* of the root's fts_path, which fts may
                                   have shortened ("src//" -> "src/") */
  struct held_dir *held;        /* held[L]: for the directory at level L */
  size_t held_alloc;
  bool new_root;                /* copy_tree's NEW_DST */
};

/* A directory the walk is leaving, as giving it its metadata needs it:
   the descriptor held since it was made or entered (closed by
   set_dir_metadata, which reopens it to read if it is O_PATH), its entry's names and status, whether this run
   made it and with which mode, and its destination.  */
struct left_dir
{
  int fd;
  bool path_only;               /* FD is O_PATH */
  char const *src_acc;          /* fts_accpath */
  char const *src_path;         /* fts_path */
  struct stat const *st;
  bool made;                    /* made by this run, not found there */
  mode_t made_mode;             /* the mode it got then, if MADE */
  bool root;                    /* an operand */
  struct dst_path dst;
};

/* Give the directory D its metadata, now that every entry in it is
   complete (tree-dirs.c).  Report failures; return false if any.  */
bool set_dir_metadata (struct fcopy_options const *opts,
                       struct left_dir const *d);

/* --jobs (tree-jobs.c).  A hold on the destination directory FD (the
   walk's, for as long as it is in it), which holds its PARENT (null for
   an operand) in turn.  */
struct dir_ref *dir_ref_new (int fd, struct dir_ref *parent,
                             struct fcopy_options const *opts);

/* The walk leaves D, held by REF: give D its metadata now if no copy
   into it is still running, else when the last one ends.  Return false
   if that was now and failed (a later failure counts in the pool's).  */
bool dir_ref_leave (struct dir_ref *ref, struct left_dir const *d);

/* A walk cut short: close REF's directory without its metadata, as
   the walk does without --jobs.  Only once no job runs.  */
void dir_ref_abandon (struct dir_ref *ref);

/* Without --jobs=N, regular files copied one after another before the
   workers start: a small copy is not worth the threads, and keeps the
   order of its system calls, which the tests of faults count on.  */
enum { JOBS_AUTO_AFTER = 64 };

/* Start the workers of T's copy, each with a clone memo of its own.  A
   worker sees no -u copies (the walk copies the files that need them)
   and no operands (the walk copies those).  */
struct job_pool *tree_jobs_start (struct tree_copy *t);

/* Whether workers copy the regular files of W: true once they run.
   Without --jobs=N, start them at the JOBS_AUTO_AFTERth file that they
   may copy, ENT.  */
bool walk_has_workers (struct walk *w, FTSENT const *ent);

/* Queue ENT, a regular file in the directory of level ENT's level - 1,
   open as SRC_FD, to be copied to DST by a worker, which closes SRC_FD.  */
void copy_file_later (struct walk const *w, FTSENT const *ent, int src_fd,
                      struct dst_path const *dst);

/* Copy ENT, which is not a directory, to DST: a regular file, a
   symbolic link, a FIFO or device, or a hard link to an earlier copy
   (--preserve=links), or a link (-l, -s).  An entry fts did not stat
   (FTS_NSOK) gets its status in ENT's fts_statp first.  */
bool copy_nondir (struct walk *w, FTSENT *ent,
                  struct dst_path const *dst);

#endif
