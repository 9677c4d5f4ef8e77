/* usage.c -- --help, and the end of a wrong command line.  */

#include <config.h>
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

#include "error.h"
#include "exitfail.h"
#include "i18n.h"
#include "progname.h"
#include "version-etc.h"

/* The footer of --help, in the words of GNU's (gnulib's
   emit_bug_reporting_address, which cp prints): where to report bugs and
   the home page, as configure was told (--with-bug-report,
   --with-home-page).  A line with nothing to say is left out, and so is
   GNU's "General help using GNU software": fcopy is not GNU's.  */
static void
emit_footer (void)
{
  if (*FCOPY_BUG_REPORT || *FCOPY_HOME_PAGE)
    putchar ('\n');
  if (*FCOPY_BUG_REPORT)
    printf (_("Report bugs to: %s\n"), FCOPY_BUG_REPORT);
  if (*FCOPY_HOME_PAGE)
    printf (_("%s home page: <%s>\n"), PACKAGE_NAME, FCOPY_HOME_PAGE);
}

_Noreturn void
usage (int status)
{
  if (status != EXIT_SUCCESS)
    {
      fprintf (stderr, _("Try '%s --help' for more information.\n"),
               program_name);
      exit (status);
    }
  printf (_("\
Usage: %s [OPTION]... [-T] SOURCE DEST\n\
  or:  %s [OPTION]... SOURCE... DIRECTORY\n\
  or:  %s [OPTION]... -t DIRECTORY SOURCE...\n"),
          program_name, program_name, program_name);
  printf (_("\
  or:  %s --dedupe [OPTION]... SOURCE DEST | SOURCE... DIRECTORY\n\
  or:  %s --dedupe -r [OPTION]... SRCDIR DSTDIR\n\
  or:  %s --dedupe [-0] --pairs-from=FILE | --groups-from=FILE\n"),
          program_name, program_name, program_name);
  fputs (_("\
Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY, the fastest\n\
correct way: clone, copy_file_range, splice, then read/write.\n\
With --dedupe, copy nothing: make identical existing files share extents.\n\
\n\
Mandatory arguments to long options are mandatory for short options too.\n\
  -a, --archive                same as -dR --preserve=all\n\
      --attributes-only        don't copy the file data, just the attributes\n\
      --backup[=CONTROL]       make a backup of each existing destination file\n\
  -b                           like --backup but does not accept an argument\n\
      --copy-contents          copy contents of special files when recursive\n\
  -d                           same as --no-dereference --preserve=links\n\
      --debug[=FORMAT]         explain how each file was copied: the lines\n\
                                 of cp 9.2 and later (-v's, then copy\n\
                                 offload, reflink, sparse detection), then\n\
                                 splice, read/write and extents shared;\n\
                                 FORMAT is text (the default) or json (an\n\
                                 object a line per file)\n\
  -f, --force                  if an existing destination file cannot be\n\
                                 opened, remove it and try again (this option\n\
                                 is ignored when the -n option is also used)\n\
  -i, --interactive            prompt before overwrite (overrides a previous -n\n\
                                  option)\n\
  -H                           follow command-line symbolic links in SOURCE\n\
      --stats[=FORMAT]         at the end, print on stdout the files,\n\
                                 directories and links copied, the bytes\n\
                                 by the step that moved them, the holes and\n\
                                 errors; FORMAT is text (the default) or json\n\
      --progress[=WHEN]        show bytes and files done, the rate, the time\n\
                                 left and the file being copied on one line\n\
                                 of stderr, and a summary at the end; WHEN is\n\
                                 auto (the default: if stderr is a terminal),\n\
                                 always (a line every 5 s to a log), never\n\
      --jobs=N                 copy the regular files of a tree, or --dedupe\n\
                                 pairs, in N threads (default auto: one a CPU,\n\
                                 at most 4, from a tree's 64th file or the 2nd\n\
                                 pair; -i makes it 1)\n\
      --keep-directory-symlink  follow existing symlinks to directories in\n\
                                 the destination\n\
  -l, --link                   hard link files instead of copying\n\
  -L, --dereference            always follow symbolic links in SOURCE\n\
  -n, --no-clobber             do not overwrite an existing file (overrides\n\
                                 a previous -i option)\n\
  -P, --no-dereference         never follow symbolic links in SOURCE\n\
  -p                           same as --preserve=mode,ownership,timestamps\n\
      --preserve[=ATTR_LIST]   preserve the specified attributes (default:\n\
                                 mode,ownership,timestamps), if possible\n\
                                 additional attributes: context, links, xattr,\n\
                                 all\n\
      --no-preserve=ATTR_LIST  don't preserve the specified attributes\n\
      --parents                use full source file name under DIRECTORY\n\
  -R, -r, --recursive          copy directories recursively\n\
      --reflink[=WHEN]         control clone/CoW copies; WHEN is auto\n\
                                 (the default), always or never; a bare\n\
                                 --reflink means always\n\
      --remove-destination     remove each existing destination file before\n\
                                 attempting to open it (contrast with --force)\n\
      --sparse=WHEN            control creation of sparse files; WHEN is\n\
                                 auto (the default), always or never\n\
      --strip-trailing-slashes  remove any trailing slashes from each SOURCE\n\
                                 argument\n\
  -s, --symbolic-link          make symbolic links instead of copying\n\
  -S, --suffix=SUFFIX          override the usual backup suffix\n\
  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY\n\
  -T, --no-target-directory    treat DEST as a normal file\n\
  -u                           equivalent to --update[=older]\n\
      --update[=UPDATE]        control which existing files are updated;\n\
                                 UPDATE={all,none,none-fail,older(default)}\n\
  -v, --verbose                explain what is being done\n\
  -x, --one-file-system        stay on this file system\n\
  -Z                           set SELinux security context of destination\n\
                                 file to default type\n\
      --context[=CTX]          like -Z, or if CTX is specified then set the\n\
                                 SELinux security context to CTX\n\
      --help                   display this help and exit\n\
      --version                output version information and exit\n\
\n"), stdout);
  fputs (_("\
Backups (see BACKUPS in fcopy(1)):\n\
      --atomic                 write each regular file to a temporary in its\n\
                                 directory and rename it over DEST when it\n\
                                 is complete: DEST is the old file or the\n\
                                 whole new one, also after a failure or a\n\
                                 signal\n\
      --fsync                  sync each file (before the rename, with\n\
                                 --atomic) and each changed directory to\n\
                                 disk before going on\n\
      --clone-dest=DIR         make a regular file that DIR holds at DEST's\n\
                                 relative name, with the source's size and\n\
                                 mtime, by cloning DIR's file (FICLONE); a\n\
                                 relative DIR is relative to the destination\n\
                                 directory; may be repeated\n\
      --checksum               with --clone-dest, a match is a file of the\n\
                                 same bytes, whatever its mtime\n\
      --verify                 read each copy back and compare it with its\n\
                                 source; check that each clone shares its\n\
                                 source's extents\n\
\n\
Deduplication (FIDEDUPERANGE; the kernel compares the bytes):\n\
      --dedupe                 make each identical DEST share SOURCE's extents\n\
  -r, -R, --recursive          pair the files of two trees by relative name\n\
      --pairs-from=FILE        read SOURCE DEST pairs from FILE (- = stdin),\n\
                                 one name a line\n\
      --groups-from=FILE       read fdupes/jdupes groups from FILE: the first\n\
                                 file of a group is the source of the others\n\
  -0, --null                   names in FILE end in NUL, as find -print0's\n\
      --stats[=FORMAT]         print counts of pairs and bytes at the end\n\
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
The backup suffix is '~', unless set with --suffix or SIMPLE_BACKUP_SUFFIX.\n\
The version control method may be selected via the --backup option or through\n\
the VERSION_CONTROL environment variable.  Here are the values:\n\
\n\
  none, off       never make backups (even if --backup is given)\n\
  numbered, t     make numbered backups\n\
  existing, nil   numbered if numbered backups exist, simple otherwise\n\
  simple, never   always make simple backups\n\
\n\
As a special case, fcopy makes a backup of SOURCE when the force and backup\n\
options are given and SOURCE and DEST are the same name for an existing,\n\
regular file.\n\
\n\
Exit status is 0 if every file was copied, 1 if not.  With --dedupe, as\n\
cmp: 0 if every pair is shared, 1 if some pair differed or was skipped,\n\
2 on trouble.\n\
See fcopy(1) for details.\n"), stdout);
  emit_footer ();
  exit (status);
}

_Noreturn void
usage_error (char const *message)
{
  error (0, 0, "%s", message);
  usage (exit_failure);
}
