/* atomic.h -- --atomic: write a regular file to a temporary in its
   destination's directory and put it in place with one rename.  */

#ifndef FCOPY_ATOMIC_H
#define FCOPY_ATOMIC_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>
#include "dst-path.h"
#include "options.h"

struct temp_file
{
  int dir_fd;              /* the destination's directory */
  bool own_dir_fd;         /* opened here, to be closed */
  char const *base;        /* the destination's name in DIR_FD */
  int fd;                  /* the temporary, open for writing */
  mode_t mode;             /* it was made with (less the umask): the
                              mode asked for, or only its owner's bits
                              for a temporary with a name */
  bool named;              /* NAME is its name in DIR_FD (else it is an
                              O_TMPFILE, with no name) */
  int place;               /* signals.c's, while NAMED */
  char name[NAME_MAX + 1];
};

/* Make a temporary with MODE for DST in DST's directory; return its
   descriptor, or report the failure and return -1.  T->mode says which
   mode it got: one with a name from the start gets only MODE's owner
   bits, so that no one else reads the data meanwhile.  */
int temp_create (struct temp_file *t, struct dst_path const *dst,
                 mode_t mode);

/* Put the complete temporary in DST's place (synced first with --fsync):
   if BACKUP (relative to DST's directory, like DST->rel) is not null,
   the file there is first linked to that name.  Report failures.  The
   temporary is closed either way.  */
bool temp_commit (struct temp_file *t, struct dst_path const *dst,
                  char const *backup, struct fcopy_options const *opts);

/* Close and forget the temporary: nothing of it is left.  */
void temp_discard (struct temp_file *t);

/* A maker of the entry NAME in DIR_FD (a hard or a symbolic link):
   0, or -1 with errno set, as linkat.  */
typedef int (*entry_maker) (int dir_fd, char const *name, void const *arg);

/* Replace the entry in DST's place by one that MAKE makes (with ARG):
   DST's name is never missing, and a failure, with errno set, leaves
   the old entry.  */
bool replace_entry (struct dst_path const *dst, entry_maker make,
                    void const *arg);

/* --fsync: sync directory DIR_FD (an O_PATH descriptor or AT_FDCWD)
   whose entries changed; NAME is for messages.  */
bool sync_dir (int dir_fd, char const *name);

/* --fsync: sync the directory that REL (relative to DIR_FD) is in.  */
bool sync_parent (int dir_fd, char const *rel, char const *name);

#endif
