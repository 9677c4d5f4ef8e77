/* options.h -- what the command line asked for, as one read-only struct.

   main() fills a struct fcopy_options once and hands a const pointer to
   everything below it, so no copy step reads a global.  */

#ifndef FCOPY_OPTIONS_H
#define FCOPY_OPTIONS_H

#include <stdbool.h>
#include <sys/types.h>
#include "backupfile.h"

/* --reflink: whether data may share extents with the source.  */
enum reflink_mode
{
  REFLINK_NEVER,     /* a real copy: neither FICLONE nor copy_file_range */
  REFLINK_AUTO,      /* clone where the filesystem can, else copy */
  REFLINK_ALWAYS     /* clone or fail */
};

/* --sparse: how holes in the source are treated.  */
enum sparse_mode
{
  SPARSE_NEVER,      /* write every byte, holes become allocated zeros */
  SPARSE_AUTO,       /* keep the source's holes (SEEK_DATA/SEEK_HOLE) */
  SPARSE_ALWAYS      /* keep holes and also punch runs of zero blocks */
};

/* --stats[=FORMAT]: the counts at the end, and in which form.  */
enum stats_format
{
  STATS_NONE,
  STATS_TEXT,        /* "key: value" lines */
  STATS_JSON         /* one JSON object (the man page's schema) */
};

/* --progress[=WHEN]: a status line while the copy runs.  */
enum progress_when
{
  PROGRESS_NEVER,
  PROGRESS_AUTO,     /* while stderr is a terminal */
  PROGRESS_ALWAYS    /* and, to a log, a plain line every few seconds */
};

/* -f, -i, -n: what to do about an existing destination; the last of
   them given wins, as in cp.  */
enum interactive
{
  I_UNSPECIFIED,     /* overwrite */
  I_ALWAYS_YES,      /* -f: overwrite, and remove what cannot be opened */
  I_ALWAYS_NO,       /* -n: never overwrite, quietly */
  I_ASK_USER         /* -i: ask on stderr, read the answer on stdin */
};

/* -u, --update[=WHEN]: which existing destinations are replaced.  */
enum update_mode
{
  UPDATE_ALL,        /* every one (no -u) */
  UPDATE_OLDER,      /* those older than the source (-u) */
  UPDATE_NONE,       /* none, quietly */
  UPDATE_NONE_FAIL   /* none, and say so: exit status 1 */
};

/* -l, -s: make links instead of copies.  */
enum link_mode
{
  LINK_NONE,
  LINK_HARD,         /* -l */
  LINK_SYMBOLIC      /* -s */
};

/* -L, -H, -P: which symbolic links in the sources are followed.  */
enum dereference
{
  DEREF_NEVER,          /* -P (-r's default): copy links as links */
  DEREF_COMMAND_LINE,   /* -H: follow links named as operands */
  DEREF_ALWAYS          /* -L (the default without -r) */
};

struct fcopy_options
{
  enum reflink_mode reflink;
  enum sparse_mode sparse;
  bool debug;        /* --debug: one line per file about the ladder */
  bool debug_json;   /* --debug=json: one JSON object per file instead */
  bool verbose;      /* -v: "'a' -> 'b'" per file */
  bool force;        /* -f: unlink a dst that cannot be opened, retry */
  enum interactive interactive;
  enum update_mode update;
  enum link_mode link;
  enum backup_type backup;      /* -b, --backup[=CONTROL] (backupfile.h) */
  bool remove_destination;      /* --remove-destination */
  bool attributes_only;         /* --attributes-only: no data */
  bool copy_contents;           /* --copy-contents: -r reads specials */
  bool parents;                 /* --parents: DIR/SOURCE as given */
  bool keep_directory_symlink;  /* a dst symlink to a dir is entered */
  bool write_dangling;          /* POSIXLY_CORRECT: a new file is made
                                   through a dangling DEST symlink */
  bool atomic;       /* --atomic: files renamed into place when complete */
  bool fsync;        /* --fsync: files and changed directories synced */
  bool verify;       /* --verify: each copy read back and compared, each
                        clone's extents checked */
  /* --clone-dest=DIR, in the order given: a regular file that DIR holds
     at the destination's relative name, matching the source (size and
     mtime, or --checksum: bytes), is cloned from there.  */
  char const *const *clone_dest;
  size_t n_clone_dest;
  bool checksum;     /* --checksum: a match is the same bytes */
  size_t jobs;       /* --jobs=N: the regular files of a tree are copied
                        by N threads; 1: by the walk, one at a time */
  bool jobs_auto;    /* no --jobs=N: the threads start only once a tree
                        shows enough files to share */

  /* -p, --preserve[=LIST], --no-preserve=LIST */
  bool preserve_mode, preserve_ownership, preserve_timestamps;
  bool preserve_links, preserve_xattr;
  bool require_preserve;        /* failing to preserve fails the copy */
  bool require_preserve_xattr;  /* xattr was named: report its failures */
  bool no_preserve_mode;        /* --no-preserve=mode: default modes */
  mode_t umask;                 /* the process's, read once */
  uid_t euid;                   /* the effective ids, read once: a new */
  gid_t egid;                   /* file's owner unless told otherwise */
  bool proc_fds;                /* /proc/self/fd names open files (checked
                                   once: not every system mounts /proc) */

  /* --dedupe: share extents of existing identical files, copy nothing.  */
  bool dedupe;
  bool recursive;    /* -r: copy directories; with --dedupe, pair trees */
  enum dereference dereference;
  bool one_file_system;         /* -x */
  enum stats_format stats;  /* --stats: the counts at the end, on stdout */
  enum progress_when progress;  /* --progress */
  bool null_sep;     /* -0: --pairs-from/--groups-from records end in NUL */

  /* Range mode (--src-offset, --dst-offset, --length): one byte range of
     each file, as the copy_file_range proposal's offsets offered.  */
  bool range;
  off_t src_offset, dst_offset;
  off_t length;      /* -1: up to the source's end */
};

/* How a file is treated that is an OPERAND or not: -H follows the
   operands' links only; inside a tree it is -P (coreutils 9.1, copy.c,
   copy_dir), for the rules on what is there as for the copy.  */
static inline enum dereference
deref_for (struct fcopy_options const *opts, bool operand)
{
  return (opts->dereference == DEREF_COMMAND_LINE && !operand
          ? DEREF_NEVER : opts->dereference);
}

#endif
