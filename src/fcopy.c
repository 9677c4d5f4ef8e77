/* fcopy -- copy files the fastest correct way; a drop-in for cp.

   main() turns the command line into one const struct fcopy_options,
   has the plan (plan.c) work out which SOURCE goes to which DEST, and
   visits each pair with the copier or, with --dedupe, the deduplicator. */

#include <config.h>

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "closeout.h"
#include "copy-file.h"
#include "dedupe.h"
#include "dirname.h"
#include "error.h"
#include "exitfail.h"
#include "i18n.h"
#include "options.h"
#include "pairs.h"
#include "minmax.h"
#include "plan.h"
#include "progress.h"
#include "progname.h"
#include "quote-name.h"
#include "report.h"
#include "same-inode.h"
#include "scan.h"
#include "signals.h"
#include "tree.h"


/* Whether names A and B are one directory entry: the same last
   component in the same directory (gnulib's same_name, as cp uses).  */
static bool
same_entry (char const *a, char const *b)
{
  struct stat da, db;
  char *dir_a = dir_name (a), *dir_b = dir_name (b);
  size_t len_a = base_len (last_component (a));
  bool same = (len_a == base_len (last_component (b))
               && strncmp (last_component (a), last_component (b), len_a) == 0
               && stat (dir_a, &da) == 0 && stat (dir_b, &db) == 0
               && SAME_INODE (da, db));
  free (dir_a);
  free (dir_b);
  return same;
}

/* Whether SRC_NAME was an operand before; cp warns and copies it once.
   Another name of the same file is copied again; and with a backup, the
   name too (the second copy then finds the first, dest.c).  */
static bool
repeated_source (struct tree_copy *t, char const *src_name)
{
  struct stat st;
  if (!t->sources || t->opts->backup != no_backups
      || (t->opts->dereference == DEREF_NEVER
                      ? lstat (src_name, &st) : stat (src_name, &st)) != 0)
    return false;
  char const *earlier = inode_set_find (t->sources, &st);
  if (!earlier)
    inode_set_add (t->sources, &st, src_name);
  if (!earlier || !same_entry (earlier, src_name))
    return false;
  /* Without -r a directory is omitted with its own message.  */
  if (S_ISDIR (st.st_mode) && !t->opts->recursive)
    return false;
  error (0, 0, _("warning: source %s %s specified more than once"),
         S_ISDIR (st.st_mode) ? _("directory") : _("file"),
         quoteaf (src_name));
  return true;
}

/* Whether T copies its operands by walking them: trees, links copied
   as links and hard links kept; a plain followed file goes straight to
   the engine.  */
static bool
copy_walks (struct tree_copy const *t)
{
  struct fcopy_options const *opts = t->opts;
  return (opts->recursive || opts->dereference != DEREF_ALWAYS || t->links
          || opts->link != LINK_NONE);
}

static bool
copy_visit (void *tree, char const *src_name, char const *dst_name,
            struct dst_known known)
{
  struct tree_copy *t = tree;
  struct fcopy_options const *opts = t->opts;
  if (repeated_source (t, src_name))
    return true;
  t->mem.dest.one_pair = known.one_pair;
  clone_dests_root (t->mem.origins, known.target ? known.target : dst_name,
                    !known.target);
  struct dst_path dst = DST_PATH_OPERAND (dst_name);
  if (known.stat)
    {
      dst.missing = known.stat->err == ENOENT;
      dst.followed = known.stat->err ? NULL : &known.stat->st;
    }
  if (copy_walks (t))
    return copy_tree (t, src_name, &dst, known.in_new_dir);
  if (known.src)
    {
      struct stat st = known.src->st;
      return copy_open_file (src_name, known.src->fd, &st, &dst, opts,
                             &t->mem);
    }
  return copy_file (src_name, &dst, opts, &t->mem);
}

/* Whether NAME can only be a directory: it ends in a slash, "." or
   "..", where open(2) with O_CREAT says EISDIR, not EEXIST.  */
static bool
names_directory (char const *name)
{
  size_t len = strlen (name);
  char const *base = last_component (name);
  return ((len && name[len - 1] == '/')
          || strcmp (base, ".") == 0 || strcmp (base, "..") == 0);
}

/* The visitor's if_absent for a copy: where copy_visit would go straight
   to the engine, and only where what is at DEST changes nothing before
   it is made: no -v line to print first (it names DEST), no backup, no
   removal, no --atomic temporary, no range written into DEST.  */
static enum absent_copy
copy_if_absent_visit (void *tree, char const *src_name, char const *dst_name,
                      struct open_src *src)
{
  struct tree_copy *t = tree;
  struct fcopy_options const *opts = t->opts;
  if (copy_walks (t) || opts->verbose || opts->atomic || opts->range
      || opts->backup != no_backups || opts->remove_destination
      || names_directory (dst_name))
    return ABSENT_LOOK;
  struct dst_path dst = DST_PATH_OPERAND (dst_name);
  clone_dests_root (t->mem.origins, dst_name, true);
  return copy_if_absent (src_name, &dst, opts, &t->mem, &src->fd, &src->st);
}

static bool
dedupe_visit (void *deduper, char const *src_name, char const *dst_name,
              struct dst_known known _GL_UNUSED)
{
  dedupe_pair (deduper, src_name, dst_name);
  return true;                  /* the outcome is in the counts */
}

/* --dedupe: find the pairs, deduplicate them, exit as cmp does.  */
static int
run_dedupe (struct fcopy_options const *opts, struct command const *cmd,
            struct copy_stats *live)
{
  struct deduper d;
  if (!deduper_init (&d, opts, live))
    error (exit_failure, errno, _("cannot allocate compare buffers"));

  bool ok;
  if (cmd->list)
    ok = dedupe_list (&d, cmd->list, cmd->groups);
  else if (opts->recursive)
    {
      if (cmd->n_files != 2 || cmd->target_dir || cmd->no_target_dir)
        usage_error (_("--dedupe -r takes two operands: SRCDIR DSTDIR"));
      ok = dedupe_trees (&d, cmd->file[0], cmd->file[1]);
    }
  else
    ok = visit_operands (cmd, (struct visitor) { dedupe_visit, NULL, &d, opts });

  deduper_finish (&d);
  progress_finish ();
  if (opts->stats || opts->verbose)
    report_dedupe_stats (&d.stats, opts->stats);
  int status = ok ? dedupe_exit_status (&d.stats) : 2;
  deduper_free (&d);
  return status;
}

int
main (int argc, char **argv)
{
  struct fcopy_options opts = { .reflink = REFLINK_AUTO,
                                .sparse = SPARSE_AUTO, .length = -1,
                                .jobs = 0 };
  struct command cmd = { 0 };

  set_program_name (argv[0]);
  /* The user's locale, as cp: names in messages are quoted as printable
     in its character set ('é', not $'\303\251'), -i's answer is matched
     with its yes/no, and messages are looked up in its catalog.  */
  setlocale (LC_ALL, "");
  bindtextdomain (PACKAGE, LOCALEDIR);
  textdomain (PACKAGE);
  atexit (close_stdout);

  /* The umask, read once: new files' modes are worked out with it.  */
  opts.umask = umask (0);
  umask (opts.umask);
  opts.euid = geteuid ();
  opts.egid = getegid ();
  opts.proc_fds = access ("/proc/self/fd", F_OK) == 0;
  /* cp refuses to make a file through a dangling symbolic link since
     coreutils 6.9.90, but for POSIX's sake (cp.c).  */
  opts.write_dangling = getenv ("POSIXLY_CORRECT") != NULL;

  parse_command_line (argc, argv, &opts, &cmd);
  struct fcopy_options const *const o = &opts;
  if (o->atomic)
    catch_signals (o->jobs + 1);   /* the walk's thread and each worker */

  struct copy_stats stats = { .dedupe = o->dedupe,
                              .clone_dest = o->n_clone_dest != 0 };
  clock_gettime (CLOCK_MONOTONIC, &stats.start);
  catch_status_signal ();
  if (o->dedupe)
    {
      /* No totals: the pairs are found as they go.  */
      progress_start (o->progress, &stats);
      return run_dedupe (o, &cmd, &stats);
    }
  struct scan scan;
  bool progress = progress_start (o->progress, &stats);
  /* The sources: the operands but the last, or all with -t.  */
  if (progress)
    scan_start (&scan, cmd.file, MAX (1, cmd.n_files - !cmd.target_dir), o,
                &stats);
  struct tree_copy tree;
  tree_init (&tree, o, cmd.n_files > 1 + !cmd.target_dir, &stats);
  bool ok = visit_operands (&cmd, (struct visitor) { copy_visit,
                                                    copy_if_absent_visit,
                                                    &tree, o });
  tree_free (&tree);
  if (progress)
    {
      scan_finish (&scan);
      progress_finish ();
    }
  if (o->stats)
    report_copy_stats (&stats, o->stats);
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
