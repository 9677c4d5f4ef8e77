/* fcopy -- copy files the fastest correct way; a drop-in for cp.

   main() turns the command line into one const struct fcopy_options,
   works out which SOURCE goes to which DEST, and hands each pair to the
   copier or, with --dedupe, to the deduplicator.  */

#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "argmatch.h"
#include "closeout.h"
#include "copy-file.h"
#include "dedupe.h"
#include "dirname.h"
#include "error.h"
#include "exitfail.h"
#include "filenamecat.h"
#include "intprops.h"
#include "options.h"
#include "pairs.h"
#include "progname.h"
#include "quote.h"
#include "quote-name.h"
#include "report.h"
#include "same-inode.h"
#include "tree.h"
#include "version-etc.h"
#include "xalloc.h"
#include "xstrtol.h"

/* version_etc passes gnulib's year too; the format ignores it.  */
char const version_etc_copyright[] =
  "Copyright %s 2026 the fcopy authors.";

enum
{
  DEBUG_OPTION = CHAR_MAX + 1,
  DEDUPE_OPTION,
  DST_OFFSET_OPTION,
  GROUPS_FROM_OPTION,
  LENGTH_OPTION,
  NO_PRESERVE_OPTION,
  PRESERVE_OPTION,
  PAIRS_FROM_OPTION,
  REFLINK_OPTION,
  SPARSE_OPTION,
  SRC_OFFSET_OPTION,
  STATS_OPTION,
  HELP_OPTION,
  VERSION_OPTION
};

static struct option const long_options[] =
{
  {"debug", no_argument, NULL, DEBUG_OPTION},
  {"archive", no_argument, NULL, 'a'},
  {"dedupe", no_argument, NULL, DEDUPE_OPTION},
  {"dereference", no_argument, NULL, 'L'},
  {"dst-offset", required_argument, NULL, DST_OFFSET_OPTION},
  {"force", no_argument, NULL, 'f'},
  {"groups-from", required_argument, NULL, GROUPS_FROM_OPTION},
  {"length", required_argument, NULL, LENGTH_OPTION},
  {"no-dereference", no_argument, NULL, 'P'},
  {"no-preserve", required_argument, NULL, NO_PRESERVE_OPTION},
  {"no-target-directory", no_argument, NULL, 'T'},
  {"null", no_argument, NULL, '0'},
  {"one-file-system", no_argument, NULL, 'x'},
  {"pairs-from", required_argument, NULL, PAIRS_FROM_OPTION},
  {"preserve", optional_argument, NULL, PRESERVE_OPTION},
  {"recursive", no_argument, NULL, 'r'},
  {"reflink", optional_argument, NULL, REFLINK_OPTION},
  {"sparse", required_argument, NULL, SPARSE_OPTION},
  {"src-offset", required_argument, NULL, SRC_OFFSET_OPTION},
  {"stats", no_argument, NULL, STATS_OPTION},
  {"target-directory", required_argument, NULL, 't'},
  {"verbose", no_argument, NULL, 'v'},
  {"help", no_argument, NULL, HELP_OPTION},
  {"version", no_argument, NULL, VERSION_OPTION},
  {NULL, 0, NULL, 0}
};

static char const *const reflink_args[] = { "auto", "always", "never", NULL };
static enum reflink_mode const reflink_values[] =
  { REFLINK_AUTO, REFLINK_ALWAYS, REFLINK_NEVER };
ARGMATCH_VERIFY (reflink_args, reflink_values);

static char const *const sparse_args[] = { "never", "auto", "always", NULL };
static enum sparse_mode const sparse_values[] =
  { SPARSE_NEVER, SPARSE_AUTO, SPARSE_ALWAYS };
ARGMATCH_VERIFY (sparse_args, sparse_values);

enum preserve_attr
{
  PRESERVE_MODE, PRESERVE_TIMESTAMPS, PRESERVE_OWNERSHIP, PRESERVE_LINKS,
  PRESERVE_CONTEXT, PRESERVE_XATTR, PRESERVE_ALL
};
static char const *const preserve_args[] =
  { "mode", "timestamps", "ownership", "links", "context", "xattr", "all",
    NULL };
static enum preserve_attr const preserve_values[] =
  { PRESERVE_MODE, PRESERVE_TIMESTAMPS, PRESERVE_OWNERSHIP, PRESERVE_LINKS,
    PRESERVE_CONTEXT, PRESERVE_XATTR, PRESERVE_ALL };
ARGMATCH_VERIFY (preserve_args, preserve_values);

/* The operands and where they go, besides the options.  */
struct command
{
  char **file;                 /* the operands */
  int n_files;
  char const *target_dir;      /* -t */
  bool no_target_dir;          /* -T */
  char const *list;            /* --pairs-from or --groups-from */
  bool groups;                 /* the list is --groups-from */
  bool deref_given;            /* -H, -L or -P (else -r's default) */
};

/* Not static: argmatch calls it for invalid --reflink/--sparse values.  */
_Noreturn void
usage (int status)
{
  if (status != EXIT_SUCCESS)
    {
      fprintf (stderr, "Try '%s --help' for more information.\n",
               program_name);
      exit (status);
    }
  printf ("\
Usage: %s [OPTION]... [-T] SOURCE DEST\n\
  or:  %s [OPTION]... SOURCE... DIRECTORY\n\
  or:  %s [OPTION]... -t DIRECTORY SOURCE...\n",
          program_name, program_name, program_name);
  printf ("\
  or:  %s --dedupe [OPTION]... SOURCE DEST | SOURCE... DIRECTORY\n\
  or:  %s --dedupe -r [OPTION]... SRCDIR DSTDIR\n\
  or:  %s --dedupe [-0] --pairs-from=FILE | --groups-from=FILE\n",
          program_name, program_name, program_name);
  fputs ("\
Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY, the fastest\n\
correct way: clone, copy_file_range, splice, then read/write.\n\
With --dedupe, copy nothing: make identical existing files share extents.\n\
\n\
Mandatory arguments to long options are mandatory for short options too.\n\
      --debug                  explain how each file was copied\n\
  -a, --archive                same as -dR --preserve=all\n\
  -d                           same as --no-dereference --preserve=links\n\
  -f, --force                  if an existing destination file cannot be\n\
                                 opened, remove it and try again\n\
  -H                           follow command-line symbolic links in SOURCE\n\
  -L, --dereference            always follow symbolic links in SOURCE\n\
  -P, --no-dereference         never follow symbolic links in SOURCE\n\
  -p                           same as --preserve=mode,ownership,timestamps\n\
      --preserve[=ATTR_LIST]   preserve the specified attributes (default:\n\
                                 mode,ownership,timestamps); also: links,\n\
                                 context, xattr, all\n\
      --no-preserve=ATTR_LIST  don't preserve the specified attributes\n\
      --reflink[=WHEN]         control clone/CoW copies; WHEN is auto\n\
                                 (the default), always or never; a bare\n\
                                 --reflink means always\n\
      --sparse=WHEN            control creation of sparse files; WHEN is\n\
                                 auto (the default), always or never\n\
  -R, -r, --recursive          copy directories recursively\n\
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY\n\
  -T, --no-target-directory    treat DEST as a normal file\n\
  -v, --verbose                explain what is being done\n\
  -x, --one-file-system        stay on this file system\n\
      --help                   display this help and exit\n\
      --version                output version information and exit\n\
\n\
Deduplication (FIDEDUPERANGE; the kernel compares the bytes):\n\
      --dedupe                 make each identical DEST share SOURCE's extents\n\
  -r, -R, --recursive          pair the files of two trees by relative name\n\
      --pairs-from=FILE        read SOURCE DEST pairs from FILE (- = stdin),\n\
                                 one name a line\n\
      --groups-from=FILE       read fdupes/jdupes groups from FILE: the first\n\
                                 file of a group is the source of the others\n\
  -0, --null                   names in FILE end in NUL, as find -print0's\n\
      --stats                  print counts of pairs and bytes at the end\n\
\n\
Range mode (copy, --reflink=always clone, or --dedupe of one byte range):\n\
      --src-offset=N           start reading SOURCE at byte N (default 0)\n\
      --dst-offset=N           start writing DEST at byte N (default 0)\n\
      --length=N               move N bytes (default: up to SOURCE's end)\n\
  DEST is not truncated; SOURCE and DEST may be one file if the ranges do\n\
  not overlap.  N may have a suffix: K = KiB = 1024, KB = 1000, M, G, T...\n\
\n\
--reflink=never makes a copy that shares no extent with the source, so it\n\
avoids copy_file_range as well (btrfs and XFS clone through it).\n\
--sparse=never writes every byte and implies --reflink=never.\n\
\n\
Exit status is 0 if every file was copied, 1 if not.  With --dedupe, as\n\
cmp: 0 if every pair is shared, 1 if some pair differed or was skipped,\n\
2 on trouble.\n\
See fcopy(1) for details.\n", stdout);
  exit (status);
}

/* Exit after a usage error (with the status usage errors have).  */
static _Noreturn void
usage_error (char const *message)
{
  error (0, 0, "%s", message);
  usage (exit_failure);
}

/* The byte count ARG of OPTION: a number with an optional suffix, K
   = KiB = 1024, KB = 1000, M, G, T, P, E likewise.  */
static off_t
parse_size (char const *option, char const *arg)
{
  uintmax_t n;
  enum strtol_error e = xstrtoumax (arg, NULL, 10, &n, "kKmMgGtTpPeE0");
  /* xstrtoumax takes "-1" as a huge number: refuse signs outright.  */
  if (e == LONGINT_OK && (strchr (arg, '-') || TYPE_MAXIMUM (off_t) < n))
    e = LONGINT_OVERFLOW;
  if (e != LONGINT_OK)
    {
      error (0, e == LONGINT_OVERFLOW ? EOVERFLOW : 0, "invalid %s %s",
             option, quote (arg));
      usage (exit_failure);
    }
  return n;
}

/* Turn the attributes of the comma-separated LIST of OPTION on or off
   in *OPTS.  Naming an attribute (but not "all") makes its failures
   errors, as cp does.  */
static void
parse_preserve (char const *option, char const *list, bool on,
                struct fcopy_options *opts)
{
  char *copy = xstrdup (list);
  for (char *save, *word = strtok_r (copy, ",", &save); word;
       word = strtok_r (NULL, ",", &save))
    switch (XARGMATCH (option, word, preserve_args, preserve_values))
      {
      case PRESERVE_MODE:
        opts->preserve_mode = on;
        opts->no_preserve_mode = !on;
        break;
      case PRESERVE_TIMESTAMPS: opts->preserve_timestamps = on; break;
      case PRESERVE_OWNERSHIP: opts->preserve_ownership = on; break;
      case PRESERVE_LINKS: opts->preserve_links = on; break;
      case PRESERVE_CONTEXT:
        /* Without SELinux there is no context to keep (cp says so too). */
        if (on)
          error (EXIT_FAILURE, 0, "cannot preserve security context "
                 "without an SELinux-enabled kernel");
        break;
      case PRESERVE_XATTR:
        opts->preserve_xattr = opts->require_preserve_xattr = on;
        break;
      case PRESERVE_ALL:
        opts->preserve_mode = opts->preserve_timestamps = on;
        opts->preserve_ownership = opts->preserve_links = on;
        opts->preserve_xattr = on;
        opts->no_preserve_mode = !on;
        break;
      }
  free (copy);
}

/* -p, or --preserve without a list.  */
static void
preserve_default (struct fcopy_options *opts)
{
  opts->preserve_mode = opts->preserve_ownership = true;
  opts->preserve_timestamps = opts->require_preserve = true;
}

/* Set CMD's list from --pairs-from or --groups-from.  */
static void
set_list (struct command *cmd, char const *name, bool groups)
{
  if (cmd->list)
    usage_error ("only one --pairs-from or --groups-from may be given");
  cmd->list = name;
  cmd->groups = groups;
}

/* Parse ARGV into *OPTS and *CMD.  */
static void
parse_options (int argc, char **argv, struct fcopy_options *opts,
               struct command *cmd)
{
  int c;
  while ((c = getopt_long (argc, argv, "0adfHLPpRrTt:vx", long_options,
                           NULL))
         != -1)
    switch (c)
      {
      case '0': opts->null_sep = true; break;
      case DEBUG_OPTION: opts->debug = true; break;
      case DEDUPE_OPTION: opts->dedupe = true; break;
      case 'f': opts->force = true; break;
      case GROUPS_FROM_OPTION: set_list (cmd, optarg, true); break;
      case PAIRS_FROM_OPTION: set_list (cmd, optarg, false); break;
      case 'a':                 /* -dR --preserve=all */
        parse_preserve ("--preserve", "all", true, opts);
        opts->require_preserve = opts->recursive = true;
        opts->dereference = DEREF_NEVER;
        cmd->deref_given = true;
        break;
      case 'd':                 /* --no-dereference --preserve=links */
        opts->preserve_links = true;
        opts->dereference = DEREF_NEVER;
        cmd->deref_given = true;
        break;
      case 'H': case 'L': case 'P':
        opts->dereference = (c == 'H' ? DEREF_COMMAND_LINE
                             : c == 'L' ? DEREF_ALWAYS : DEREF_NEVER);
        cmd->deref_given = true;
        break;
      case 'x': opts->one_file_system = true; break;
      case 'p': preserve_default (opts); break;
      case PRESERVE_OPTION:
        if (!optarg)
          preserve_default (opts);
        else
          {
            parse_preserve ("--preserve", optarg, true, opts);
            opts->require_preserve = true;
          }
        break;
      case NO_PRESERVE_OPTION:
        parse_preserve ("--no-preserve", optarg, false, opts);
        break;
      case 'R': case 'r': opts->recursive = true; break;
      case STATS_OPTION: opts->stats = true; break;
      case SRC_OFFSET_OPTION:
        opts->src_offset = parse_size ("--src-offset", optarg);
        opts->range = true;
        break;
      case DST_OFFSET_OPTION:
        opts->dst_offset = parse_size ("--dst-offset", optarg);
        opts->range = true;
        break;
      case LENGTH_OPTION:
        opts->length = parse_size ("--length", optarg);
        opts->range = true;
        break;
      case 'T': cmd->no_target_dir = true; break;
      case 'v': opts->verbose = true; break;
      case 't':
        if (cmd->target_dir)
          error (exit_failure, 0, "multiple target directories specified");
        cmd->target_dir = optarg;
        break;
      case REFLINK_OPTION:
        opts->reflink = (optarg
                         ? XARGMATCH ("--reflink", optarg, reflink_args,
                                      reflink_values)
                         : REFLINK_ALWAYS);
        break;
      case SPARSE_OPTION:
        opts->sparse = XARGMATCH ("--sparse", optarg, sparse_args,
                                  sparse_values);
        break;
      case HELP_OPTION:
        usage (EXIT_SUCCESS);
      case VERSION_OPTION:
        version_etc (stdout, "fcopy", PACKAGE_NAME, PACKAGE_VERSION,
                     (char *) NULL);
        exit (EXIT_SUCCESS);
      default:
        usage (exit_failure);
      }
  cmd->file = argv + optind;
  cmd->n_files = argc - optind;
}

/* Refuse combinations that mean nothing.  */
static void
check_options (struct fcopy_options const *opts, struct command const *cmd)
{
  /* A clone shares the source's extents as they are: it can neither
     fill holes nor punch new ones.  */
  if (opts->reflink == REFLINK_ALWAYS && opts->sparse != SPARSE_AUTO)
    usage_error ("--reflink can be used only with --sparse=auto");
  if (opts->dedupe && opts->reflink == REFLINK_NEVER)
    usage_error ("--dedupe and --reflink=never are mutually exclusive");
  if (!opts->dedupe && (cmd->list || opts->stats || opts->null_sep))
    usage_error ("--pairs-from, --groups-from, -0 and --stats "
                 "work with --dedupe only");
  if (opts->range && (cmd->list || opts->recursive))
    usage_error ("--src-offset, --dst-offset and --length take one pair "
                 "of files, not lists or trees");
  if (cmd->list && (cmd->n_files || cmd->target_dir || opts->recursive))
    usage_error ("file operands cannot be combined with --pairs-from or "
                 "--groups-from");
  if (cmd->target_dir && cmd->no_target_dir)
    error (exit_failure, 0, "cannot combine --target-directory (-t) "
           "and --no-target-directory (-T)");
}

/* Whether ARGV asks for --dedupe (or an abbreviation of it), looked up
   before getopt so that every usage error can exit with --dedupe's
   status, also one found before getopt reaches --dedupe.  */
static bool
asks_dedupe (int argc, char **argv)
{
  for (int i = 1; i < argc && strcmp (argv[i], "--") != 0; i++)
    if (strncmp (argv[i], "--ded", 5) == 0
        && strncmp ("--dedupe", argv[i], strlen (argv[i])) == 0)
      return true;
  return false;
}

/* Whether NAME is a directory; if it is not and NAME is a target,
   say so with PREFIX ("target" or "target directory") and exit.  */
static bool
is_directory (char const *name, char const *prefix)
{
  struct stat st;
  int err = stat (name, &st) != 0 ? errno : S_ISDIR (st.st_mode) ? 0 : ENOTDIR;
  if (err && prefix)
    error (exit_failure, err, "%s %s", prefix, quoteaf (name));
  return !err;
}

/* What to do with one SOURCE, DEST pair: copy or deduplicate.  */
struct visitor
{
  bool (*visit) (void *ctx, char const *src_name, char const *dst_name);
  void *ctx;
};

/* Visit each of the N_FILES names in FILE with DIR/its last component. */
static bool
visit_into (struct visitor v, char const *dir, char **file, int n_files)
{
  bool ok = true;
  for (int i = 0; i < n_files; i++)
    {
      char *dst_name = file_name_concat (dir, last_component (file[i]), NULL);
      ok &= v.visit (v.ctx, file[i], dst_name);
      free (dst_name);
    }
  return ok;
}

/* Work out, as cp does, which operand goes where, and visit each pair. */
static bool
visit_operands (struct command const *cmd, struct visitor v)
{
  char **file = cmd->file;
  int n_files = cmd->n_files;

  if (n_files <= !cmd->target_dir)
    {
      if (n_files <= 0)
        usage_error ("missing file operand");
      error (0, 0, "missing destination file operand after %s",
             quoteaf (file[0]));
      usage (exit_failure);
    }
  if (cmd->no_target_dir)
    {
      if (2 < n_files)
        {
          error (0, 0, "extra operand %s", quoteaf (file[2]));
          usage (exit_failure);
        }
      return v.visit (v.ctx, file[0], file[1]);
    }
  if (cmd->target_dir)
    {
      is_directory (cmd->target_dir, "target directory");
      return visit_into (v, cmd->target_dir, file, n_files);
    }
  if (2 < n_files)
    {
      char const *dir = file[n_files - 1];
      is_directory (dir, "target");
      return visit_into (v, dir, file, n_files - 1);
    }
  if (is_directory (file[1], NULL))
    return visit_into (v, file[1], file, 1);
  return v.visit (v.ctx, file[0], file[1]);
}

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
   Another name of the same file is copied again.  */
static bool
repeated_source (struct tree_copy *t, char const *src_name)
{
  struct stat st;
  if (!t->sources || (t->opts->dereference == DEREF_NEVER
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
  error (0, 0, "warning: source %s %s specified more than once",
         S_ISDIR (st.st_mode) ? "directory" : "file", quoteaf (src_name));
  return true;
}

static bool
copy_visit (void *tree, char const *src_name, char const *dst_name)
{
  struct tree_copy *t = tree;
  struct fcopy_options const *opts = t->opts;
  if (repeated_source (t, src_name))
    return true;
  /* The walk is for trees, links copied as links and hard links kept;
     a plain followed file goes straight to the engine.  */
  if (opts->recursive || opts->dereference != DEREF_ALWAYS || t->links)
    return copy_tree (t, src_name, dst_name);
  return copy_file (src_name, dst_name, opts, t->created);
}

static bool
dedupe_visit (void *deduper, char const *src_name, char const *dst_name)
{
  dedupe_pair (deduper, src_name, dst_name);
  return true;                  /* the outcome is in the counts */
}

/* --dedupe: find the pairs, deduplicate them, exit as cmp does.  */
static int
run_dedupe (struct fcopy_options const *opts, struct command const *cmd)
{
  struct deduper d;
  if (!deduper_init (&d, opts))
    error (exit_failure, errno, "cannot allocate compare buffers");

  bool ok;
  if (cmd->list)
    ok = dedupe_list (&d, cmd->list, cmd->groups);
  else if (opts->recursive)
    {
      if (cmd->n_files != 2 || cmd->target_dir || cmd->no_target_dir)
        usage_error ("--dedupe -r takes two operands: SRCDIR DSTDIR");
      ok = dedupe_trees (&d, cmd->file[0], cmd->file[1]);
    }
  else
    ok = visit_operands (cmd, (struct visitor) { dedupe_visit, &d });

  if (opts->stats || opts->verbose)
    report_dedupe_stats (&d.stats);
  int status = ok ? dedupe_exit_status (&d.stats) : 2;
  deduper_free (&d);
  return status;
}

int
main (int argc, char **argv)
{
  struct fcopy_options opts = { .reflink = REFLINK_AUTO,
                                .sparse = SPARSE_AUTO, .length = -1 };
  struct command cmd = { 0 };

  set_program_name (argv[0]);
  /* With --dedupe the exit status is cmp's: 2 means trouble.  */
  if (asks_dedupe (argc, argv))
    exit_failure = 2;
  atexit (close_stdout);

  /* The umask, read once: new files' modes are worked out with it.  */
  opts.umask = umask (0);
  umask (opts.umask);

  parse_options (argc, argv, &opts, &cmd);
  /* As cp: -r copies links as links unless told otherwise.  */
  if (!cmd.deref_given)
    opts.dereference = opts.recursive ? DEREF_NEVER : DEREF_ALWAYS;
  check_options (&opts, &cmd);
  struct fcopy_options const *const o = &opts;

  if (o->dedupe)
    return run_dedupe (o, &cmd);
  struct tree_copy tree;
  tree_init (&tree, o, cmd.n_files > 1 + !cmd.target_dir);
  bool ok = visit_operands (&cmd, (struct visitor) { copy_visit, &tree });
  tree_free (&tree);
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
