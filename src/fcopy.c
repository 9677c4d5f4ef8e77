/* fcopy -- copy files the fastest correct way; a drop-in for cp.

   main() turns the command line into one const struct fcopy_options,
   works out where each operand goes, and accumulates the exit status.  */

#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "argmatch.h"
#include "closeout.h"
#include "copy-file.h"
#include "dirname.h"
#include "error.h"
#include "filenamecat.h"
#include "options.h"
#include "progname.h"
#include "quote-name.h"
#include "version-etc.h"

/* version_etc passes gnulib's year too; the format ignores it.  */
char const version_etc_copyright[] =
  "Copyright %s 2026 the fcopy authors.";

enum
{
  DEBUG_OPTION = CHAR_MAX + 1,
  REFLINK_OPTION,
  SPARSE_OPTION,
  HELP_OPTION,
  VERSION_OPTION
};

static struct option const long_options[] =
{
  {"debug", no_argument, NULL, DEBUG_OPTION},
  {"force", no_argument, NULL, 'f'},
  {"no-target-directory", no_argument, NULL, 'T'},
  {"reflink", optional_argument, NULL, REFLINK_OPTION},
  {"sparse", required_argument, NULL, SPARSE_OPTION},
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
  fputs ("\
Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY, the fastest\n\
correct way: clone, copy_file_range, splice, then read/write.\n\
\n\
Mandatory arguments to long options are mandatory for short options too.\n\
      --debug                  explain how each file was copied\n\
  -f, --force                  if an existing destination file cannot be\n\
                                 opened, remove it and try again\n\
      --reflink[=WHEN]         control clone/CoW copies; WHEN is auto\n\
                                 (the default), always or never; a bare\n\
                                 --reflink means always\n\
      --sparse=WHEN            control creation of sparse files; WHEN is\n\
                                 auto (the default), always or never\n\
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY\n\
  -T, --no-target-directory    treat DEST as a normal file\n\
  -v, --verbose                explain what is being done\n\
      --help                   display this help and exit\n\
      --version                output version information and exit\n\
\n\
--reflink=never makes a copy that shares no extent with the source, so it\n\
avoids copy_file_range as well (btrfs and XFS clone through it).\n\
--sparse=never writes every byte and implies --reflink=never.\n\
\n\
Exit status is 0 if every file was copied, 1 if not.\n\
See fcopy(1) for details.\n", stdout);
  exit (status);
}

/* Parse ARGV into *OPTS; set *TARGET_DIR and *NO_TARGET_DIR from -t/-T.
   Return the index of the first operand.  */
static int
parse_options (int argc, char **argv, struct fcopy_options *opts,
               char const **target_dir, bool *no_target_dir)
{
  int c;
  while ((c = getopt_long (argc, argv, "fTt:v", long_options, NULL)) != -1)
    switch (c)
      {
      case DEBUG_OPTION: opts->debug = true; break;
      case 'f': opts->force = true; break;
      case 'T': *no_target_dir = true; break;
      case 'v': opts->verbose = true; break;
      case 't':
        if (*target_dir)
          error (EXIT_FAILURE, 0, "multiple target directories specified");
        *target_dir = optarg;
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
        usage (EXIT_FAILURE);
      }

  /* A clone shares the source's extents as they are: it can neither
     fill holes nor punch new ones.  */
  if (opts->reflink == REFLINK_ALWAYS && opts->sparse != SPARSE_AUTO)
    {
      error (0, 0, "--reflink can be used only with --sparse=auto");
      usage (EXIT_FAILURE);
    }
  return optind;
}

/* Whether NAME is a directory; if it is not and NAME is a target,
   say so with PREFIX ("target" or "target directory") and exit.  */
static bool
is_directory (char const *name, char const *prefix)
{
  struct stat st;
  int err = stat (name, &st) != 0 ? errno : S_ISDIR (st.st_mode) ? 0 : ENOTDIR;
  if (err && prefix)
    error (EXIT_FAILURE, err, "%s %s", prefix, quoteaf (name));
  return !err;
}

/* Copy each of the N_FILES names in FILE into directory DIR.  */
static bool
copy_into (char const *dir, char **file, int n_files,
           struct fcopy_options const *opts)
{
  bool ok = true;
  for (int i = 0; i < n_files; i++)
    {
      char *dst_name = file_name_concat (dir, last_component (file[i]), NULL);
      ok &= copy_file (file[i], dst_name, opts);
      free (dst_name);
    }
  return ok;
}

int
main (int argc, char **argv)
{
  struct fcopy_options opts = { .reflink = REFLINK_AUTO,
                                .sparse = SPARSE_AUTO };
  char const *target_dir = NULL;
  bool no_target_dir = false;

  set_program_name (argv[0]);
  atexit (close_stdout);

  int first = parse_options (argc, argv, &opts, &target_dir, &no_target_dir);
  struct fcopy_options const *const o = &opts;
  char **file = argv + first;
  int n_files = argc - first;

  if (n_files <= !target_dir)
    {
      if (n_files <= 0)
        error (0, 0, "missing file operand");
      else
        error (0, 0, "missing destination file operand after %s",
               quoteaf (file[0]));
      usage (EXIT_FAILURE);
    }

  bool ok;
  if (no_target_dir)
    {
      if (target_dir)
        error (EXIT_FAILURE, 0, "cannot combine --target-directory (-t) "
               "and --no-target-directory (-T)");
      if (2 < n_files)
        {
          error (0, 0, "extra operand %s", quoteaf (file[2]));
          usage (EXIT_FAILURE);
        }
      ok = copy_file (file[0], file[1], o);
    }
  else if (target_dir)
    {
      is_directory (target_dir, "target directory");
      ok = copy_into (target_dir, file, n_files, o);
    }
  else if (2 < n_files)
    {
      char const *dir = file[n_files - 1];
      is_directory (dir, "target");
      ok = copy_into (dir, file, n_files - 1, o);
    }
  else if (is_directory (file[1], NULL))
    ok = copy_into (file[1], file, 1, o);
  else
    ok = copy_file (file[0], file[1], o);

  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
