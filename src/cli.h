/* cli.h -- the command line: options into a struct fcopy_options, the
   rest into a struct command.  */

#ifndef FCOPY_CLI_H
#define FCOPY_CLI_H

#include <stdbool.h>
#include "options.h"

/* The operands and where they go, besides the options.  */
struct command
{
  char **file;                 /* the operands */
  int n_files;
  char const *target_dir;      /* -t */
  bool no_target_dir;          /* -T */
  bool strip_slashes;          /* --strip-trailing-slashes */
  char const *list;            /* --pairs-from or --groups-from */
  bool groups;                 /* the list is --groups-from */
};

/* Fill *OPTS and *CMD from ARGV, or exit with a usage error.  */
void parse_command_line (int argc, char **argv, struct fcopy_options *opts,
                         struct command *cmd);

/* Not static: argmatch calls it for invalid option values.  */
_Noreturn void usage (int status);

/* Exit with a usage error that says MESSAGE.  */
_Noreturn void usage_error (char const *message);

#endif
