/* cli.c -- the command line: GNU cp's options with their meanings and
   conflicts, and fcopy's own (--dedupe, range mode), into one struct
   fcopy_options that nothing changes afterwards.  */

#include <config.h>
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/param.h>
#include <sys/stat.h>

#include "argmatch.h"
#include "c-ctype.h"
#include "error.h"
#include "exitfail.h"
#include "i18n.h"
#include "nproc.h"
#include "progname.h"
#include "quote.h"
#include "version-etc.h"
#include "xstrtol.h"
#include "xalloc.h"
#include "size-arg.h"

/* version_etc passes gnulib's year too; the format ignores it.  */
char const version_etc_copyright[] =
  "Copyright %s 2026 the fcopy authors.";

enum
{
  ATOMIC_OPTION = CHAR_MAX + 1,
  ATTRIBUTES_ONLY_OPTION,
  CHECKSUM_OPTION,
  CLONE_DEST_OPTION,
  COPY_CONTENTS_OPTION,
  DEBUG_OPTION,
  FSYNC_OPTION,
  DEDUPE_OPTION,
  DST_OFFSET_OPTION,
  GROUPS_FROM_OPTION,
  JOBS_OPTION,
  KEEP_DIRECTORY_SYMLINK_OPTION,
  LENGTH_OPTION,
  NO_PRESERVE_OPTION,
  PAIRS_FROM_OPTION,
  PARENTS_OPTION,
  PRESERVE_OPTION,
  REFLINK_OPTION,
  REMOVE_DESTINATION_OPTION,
  SPARSE_OPTION,
  SRC_OFFSET_OPTION,
  STATS_OPTION,
  PROGRESS_OPTION,
  STRIP_TRAILING_SLASHES_OPTION,
  VERIFY_OPTION,
  HELP_OPTION,
  VERSION_OPTION
};

static struct option const long_options[] =
{
  {"archive", no_argument, NULL, 'a'},
  {"atomic", no_argument, NULL, ATOMIC_OPTION},
  {"attributes-only", no_argument, NULL, ATTRIBUTES_ONLY_OPTION},
  {"backup", optional_argument, NULL, 'b'},
  {"checksum", no_argument, NULL, CHECKSUM_OPTION},
  {"clone-dest", required_argument, NULL, CLONE_DEST_OPTION},
  {"context", optional_argument, NULL, 'Z'},
  {"copy-contents", no_argument, NULL, COPY_CONTENTS_OPTION},
  {"debug", optional_argument, NULL, DEBUG_OPTION},
  {"dedupe", no_argument, NULL, DEDUPE_OPTION},
  {"dereference", no_argument, NULL, 'L'},
  {"dst-offset", required_argument, NULL, DST_OFFSET_OPTION},
  {"force", no_argument, NULL, 'f'},
  {"fsync", no_argument, NULL, FSYNC_OPTION},
  {"groups-from", required_argument, NULL, GROUPS_FROM_OPTION},
  {"interactive", no_argument, NULL, 'i'},
  {"jobs", required_argument, NULL, JOBS_OPTION},
  {"keep-directory-symlink", no_argument, NULL,
   KEEP_DIRECTORY_SYMLINK_OPTION},
  {"length", required_argument, NULL, LENGTH_OPTION},
  {"link", no_argument, NULL, 'l'},
  {"no-clobber", no_argument, NULL, 'n'},
  {"no-dereference", no_argument, NULL, 'P'},
  {"no-preserve", required_argument, NULL, NO_PRESERVE_OPTION},
  {"no-target-directory", no_argument, NULL, 'T'},
  {"null", no_argument, NULL, '0'},
  {"one-file-system", no_argument, NULL, 'x'},
  {"pairs-from", required_argument, NULL, PAIRS_FROM_OPTION},
  {"parents", no_argument, NULL, PARENTS_OPTION},
  {"preserve", optional_argument, NULL, PRESERVE_OPTION},
  {"recursive", no_argument, NULL, 'r'},
  {"reflink", optional_argument, NULL, REFLINK_OPTION},
  {"remove-destination", no_argument, NULL, REMOVE_DESTINATION_OPTION},
  {"sparse", required_argument, NULL, SPARSE_OPTION},
  {"src-offset", required_argument, NULL, SRC_OFFSET_OPTION},
  {"stats", optional_argument, NULL, STATS_OPTION},
  {"progress", optional_argument, NULL, PROGRESS_OPTION},
  {"strip-trailing-slashes", no_argument, NULL,
   STRIP_TRAILING_SLASHES_OPTION},
  {"suffix", required_argument, NULL, 'S'},
  {"symbolic-link", no_argument, NULL, 's'},
  {"target-directory", required_argument, NULL, 't'},
  {"update", optional_argument, NULL, 'u'},
  {"verbose", no_argument, NULL, 'v'},
  {"verify", no_argument, NULL, VERIFY_OPTION},
  {"help", no_argument, NULL, HELP_OPTION},
  {"version", no_argument, NULL, VERSION_OPTION},
  {NULL, 0, NULL, 0}
};

static char const *const reflink_args[] = { "auto", "always", "never", NULL };
static enum reflink_mode const reflink_values[] =
  { REFLINK_AUTO, REFLINK_ALWAYS, REFLINK_NEVER };
ARGMATCH_VERIFY (reflink_args, reflink_values);

static char const *const stats_args[] = { "text", "json", NULL };
static enum stats_format const stats_values[] = { STATS_TEXT, STATS_JSON };
ARGMATCH_VERIFY (stats_args, stats_values);
static char const *const debug_args[] = { "text", "json", NULL };
static bool const debug_values[] = { false, true };  /* JSON? */
ARGMATCH_VERIFY (debug_args, debug_values);
static char const *const progress_args[] = { "auto", "always", "never",
                                              NULL };
static enum progress_when const progress_values[] = {
  PROGRESS_AUTO, PROGRESS_ALWAYS, PROGRESS_NEVER
};
ARGMATCH_VERIFY (progress_args, progress_values);

static char const *const sparse_args[] = { "never", "auto", "always", NULL };
static enum sparse_mode const sparse_values[] =
  { SPARSE_NEVER, SPARSE_AUTO, SPARSE_ALWAYS };
ARGMATCH_VERIFY (sparse_args, sparse_values);

static char const *const update_args[] =
  { "all", "none", "none-fail", "older", NULL };
static enum update_mode const update_values[] =
  { UPDATE_ALL, UPDATE_NONE, UPDATE_NONE_FAIL, UPDATE_OLDER };
ARGMATCH_VERIFY (update_args, update_values);

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

/* What parsing learns that is not an option's value but decides one.  */
struct parse_state
{
  bool deref_given;            /* -H, -L or -P (else -r's default) */
  bool make_backups;           /* -b, --backup or -S */
  char const *backup_control;  /* --backup=CONTROL */
  char const *backup_suffix;   /* -S */
  bool hard_link, symbolic_link;  /* -l, -s: not both */
};

/* The byte count ARG of OPTION (parse_byte_count), or a usage error.  */
static off_t
parse_size (char const *option, char const *arg)
{
  off_t n;
  if (!parse_byte_count (arg, &n))
    {
      error (0, errno, _("invalid %s %s"), option, quote (arg));
      usage (exit_failure);
    }
  return n;
}

/* --jobs=N: from 1 thread to JOBS_MAX.  More than there are CPUs is
   fine (a copy also waits for the disk); JOBS_MAX only keeps a typo
   from asking for a million threads.  "auto" (0) is the default.  */
enum { JOBS_MAX = 1024 };
static size_t
parse_jobs (char const *arg)
{
  if (strcmp (arg, "auto") == 0)
    return 0;
  uintmax_t n;
  enum strtol_error e = xstrtoumax (arg, NULL, 10, &n, "");
  /* Digits only: xstrtoumax also takes white space, '+' and '-'.  */
  if (e == LONGINT_OK && (!c_isdigit (arg[0]) || n == 0))
    e = LONGINT_INVALID;
  if (e == LONGINT_OK && JOBS_MAX < n)
    e = LONGINT_OVERFLOW;
  if (e != LONGINT_OK)
    {
      error (0, e == LONGINT_OVERFLOW ? EOVERFLOW : 0, _("invalid --jobs %s"),
             quote (arg));
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
          error (EXIT_FAILURE, 0, _("cannot preserve security context "
                 "without an SELinux-enabled kernel"));
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
    usage_error (_("only one --pairs-from or --groups-from may be given"));
  cmd->list = name;
  cmd->groups = groups;
}

/* Options that choose how links are followed or attributes kept.  */
static bool
parse_copy_option (int c, struct fcopy_options *opts, struct parse_state *ps)
{
  switch (c)
    {
    case 'a':                 /* -dR --preserve=all */
      parse_preserve ("--preserve", "all", true, opts);
      opts->require_preserve = opts->recursive = true;
      opts->dereference = DEREF_NEVER;
      ps->deref_given = true;
      break;
    case 'd':                 /* --no-dereference --preserve=links */
      opts->preserve_links = true;
      opts->dereference = DEREF_NEVER;
      ps->deref_given = true;
      break;
    case 'H': case 'L': case 'P':
      opts->dereference = (c == 'H' ? DEREF_COMMAND_LINE
                           : c == 'L' ? DEREF_ALWAYS : DEREF_NEVER);
      ps->deref_given = true;
      break;
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
    case 'Z':
      /* There is no SELinux to ask for a context: the kernel's default
         is what every new file gets anyway.  Only a context named
         explicitly is worth a word, as cp says it.  */
      if (optarg)
        error (0, 0, _("warning: ignoring --context; "
               "it requires an SELinux-enabled kernel"));
      break;
    case ATTRIBUTES_ONLY_OPTION: opts->attributes_only = true; break;
    case COPY_CONTENTS_OPTION: opts->copy_contents = true; break;
    case KEEP_DIRECTORY_SYMLINK_OPTION:
      opts->keep_directory_symlink = true;
      break;
    default:
      return false;
    }
  return true;
}

/* Options about an existing destination and what is made there.  */
static bool
parse_dest_option (int c, struct fcopy_options *opts, struct parse_state *ps)
{
  switch (c)
    {
    case 'b':
      ps->make_backups = true;
      if (optarg)
        ps->backup_control = optarg;
      break;
    case 'S':
      ps->make_backups = true;
      ps->backup_suffix = optarg;
      break;
    case 'f': opts->force = true; break;
    case 'i': opts->interactive = I_ASK_USER; break;
    case 'n': opts->interactive = I_ALWAYS_NO; break;
    case 'u':
      opts->update = (optarg
                      ? XARGMATCH ("--update", optarg, update_args,
                                   update_values)
                      : UPDATE_OLDER);
      break;
    case 'l': opts->link = LINK_HARD; ps->hard_link = true; break;
    case 's': opts->link = LINK_SYMBOLIC; ps->symbolic_link = true; break;
    case REMOVE_DESTINATION_OPTION: opts->remove_destination = true; break;
    case PARENTS_OPTION: opts->parents = true; break;
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
    default:
      return false;
    }
  return true;
}

/* Add DIR to OPTS's --clone-dest directories, tried in the order
   given.  The array lives as long as the run.  */
static void
add_clone_dest (struct fcopy_options *opts, char const *dir)
{
  char const **dirs = xnmalloc (opts->n_clone_dest + 1, sizeof *dirs);
  if (opts->n_clone_dest)
    memcpy (dirs, opts->clone_dest, opts->n_clone_dest * sizeof *dirs);
  free ((void *) opts->clone_dest);
  dirs[opts->n_clone_dest++] = dir;
  opts->clone_dest = dirs;
}

/* fcopy's own options: --dedupe and its lists, range mode.  */
static bool
parse_fcopy_option (int c, struct fcopy_options *opts, struct command *cmd)
{
  switch (c)
    {
    case '0': opts->null_sep = true; break;
    case ATOMIC_OPTION: opts->atomic = true; break;
    case FSYNC_OPTION: opts->fsync = true; break;
    case VERIFY_OPTION: opts->verify = true; break;
    case CHECKSUM_OPTION: opts->checksum = true; break;
    case CLONE_DEST_OPTION: add_clone_dest (opts, optarg); break;
    case DEBUG_OPTION:
      opts->debug = true;
      opts->debug_json = (optarg && XARGMATCH ("--debug", optarg, debug_args,
                                               debug_values));
      break;
    case DEDUPE_OPTION: opts->dedupe = true; break;
    case GROUPS_FROM_OPTION: set_list (cmd, optarg, true); break;
    case JOBS_OPTION: opts->jobs = parse_jobs (optarg); break;
    case PAIRS_FROM_OPTION: set_list (cmd, optarg, false); break;
    case STATS_OPTION:
      opts->stats = (optarg ? XARGMATCH ("--stats", optarg, stats_args,
                                         stats_values)
                     : STATS_TEXT);
      break;
    case PROGRESS_OPTION:
      opts->progress = (optarg ? XARGMATCH ("--progress", optarg,
                                            progress_args, progress_values)
                        : PROGRESS_AUTO);
      break;
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
    default:
      return false;
    }
  return true;
}

/* Parse ARGV into *OPTS, *CMD and *PS.  */
static void
parse_options (int argc, char **argv, struct fcopy_options *opts,
               struct command *cmd, struct parse_state *ps)
{
  int c;
  while ((c = getopt_long (argc, argv, "0abdfHilLnPpRrsS:Tt:uvxZ",
                           long_options, NULL))
         != -1)
    {
      if (parse_copy_option (c, opts, ps) || parse_dest_option (c, opts, ps)
          || parse_fcopy_option (c, opts, cmd))
        continue;
      switch (c)
        {
        case 'R': case 'r': opts->recursive = true; break;
        case 'T': cmd->no_target_dir = true; break;
        case 'v': opts->verbose = true; break;
        case 'x': opts->one_file_system = true; break;
        case 't':
          if (cmd->target_dir)
            error (exit_failure, 0,
                   _("multiple target directories specified"));
          cmd->target_dir = optarg;
          break;
        case STRIP_TRAILING_SLASHES_OPTION: cmd->strip_slashes = true; break;
        case HELP_OPTION:
          usage (EXIT_SUCCESS);
        case VERSION_OPTION:
          version_etc (stdout, "fcopy", PACKAGE_NAME, PACKAGE_VERSION,
                       (char *) NULL);
          exit (EXIT_SUCCESS);
        default:
          usage (exit_failure);
        }
    }
  cmd->file = argv + optind;
  cmd->n_files = argc - optind;
}

/* Refuse combinations that mean nothing; cp's first, in cp's words.  */
static void
check_options (struct fcopy_options const *opts, struct command const *cmd,
               struct parse_state const *ps)
{
  if (ps->hard_link && ps->symbolic_link)
    usage_error (_("cannot make both hard and symbolic links"));
  if (ps->make_backups && opts->interactive == I_ALWAYS_NO)
    usage_error (_("options --backup and --no-clobber are mutually "
                   "exclusive"));
  /* A clone shares the source's extents as they are: it can neither
     fill holes nor punch new ones.  */
  if (opts->reflink == REFLINK_ALWAYS && opts->sparse != SPARSE_AUTO)
    usage_error (_("--reflink can be used only with --sparse=auto"));
  if (opts->dedupe && (opts->reflink == REFLINK_NEVER
                       || opts->link != LINK_NONE || opts->attributes_only
                       || ps->make_backups || opts->remove_destination
                       || opts->parents))
    usage_error (_("--dedupe cannot be combined with --reflink=never, -l, -s, "
                 "--attributes-only, --backup, --remove-destination or "
                 "--parents"));
  /* A clone from DIR shares extents, and makes a whole file.  */
  if (opts->n_clone_dest
      && (opts->dedupe || opts->reflink == REFLINK_NEVER
          || opts->link != LINK_NONE || opts->attributes_only || opts->range))
    usage_error (_("--clone-dest cannot be combined with --dedupe, "
                   "--reflink=never, -l, -s, --attributes-only or a range"));
  if (opts->checksum && !opts->n_clone_dest)
    usage_error (_("--checksum works with --clone-dest only"));
  if (!opts->dedupe && (cmd->list || opts->null_sep))
    usage_error (_("--pairs-from, --groups-from and -0 "
                 "work with --dedupe only"));
  if ((opts->atomic || opts->fsync) && opts->dedupe)
    usage_error (_("--atomic and --fsync copy files; --dedupe copies none"));
  if (opts->atomic && (opts->range || opts->attributes_only))
    usage_error (_("--atomic replaces whole files: it cannot be combined with "
                 "--src-offset, --dst-offset, --length or "
                 "--attributes-only"));
  if (opts->range && (cmd->list || opts->recursive || opts->parents
                      || opts->link != LINK_NONE || opts->attributes_only))
    usage_error (_("--src-offset, --dst-offset and --length take one pair "
                 "of files, not lists or trees, and copy data"));
  if (cmd->list && (cmd->n_files || cmd->target_dir || opts->recursive))
    usage_error (_("file operands cannot be combined with --pairs-from or "
                 "--groups-from"));
  if (cmd->target_dir && cmd->no_target_dir)
    error (exit_failure, 0, _("cannot combine --target-directory (-t) "
           "and --no-target-directory (-T)"));
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

void
parse_command_line (int argc, char **argv, struct fcopy_options *opts,
                    struct command *cmd)
{
  struct parse_state ps = { 0 };

  /* With --dedupe the exit status is cmp's: 2 means trouble.  */
  if (asks_dedupe (argc, argv))
    exit_failure = 2;
  parse_options (argc, argv, opts, cmd, &ps);

  /* As cp: -r copies links as links unless told otherwise, but -l
     links to what a link names.  */
  if (!ps.deref_given)
    opts->dereference = (opts->recursive && opts->link != LINK_HARD
                         ? DEREF_NEVER : DEREF_ALWAYS);
  if (ps.make_backups)
    {
      /* The suffix first: xget_version may read VERSION_CONTROL.  */
      set_simple_backup_suffix (ps.backup_suffix);
      opts->backup = xget_version ("backup type", ps.backup_control);
    }
  /* -i asks on the terminal about one file after the other, in the
     walk's order: no file is copied beside another.  */
  if (opts->interactive == I_ASK_USER)
    opts->jobs = 1;
  else if (opts->jobs == 0)
    {
      /* One thread a CPU, but a disk seldom serves more than 4 copies
         faster than 4.  */
      opts->jobs = MIN (num_processors (NPROC_CURRENT), 4);
      opts->jobs_auto = true;
    }
  check_options (opts, cmd, &ps);
}
