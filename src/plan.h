/* plan.h -- the plan: which SOURCE goes to which DEST, worked out from
   the operands as cp does, and what was learnt of each on the way.  */

#ifndef FCOPY_PLAN_H
#define FCOPY_PLAN_H

#include <stdbool.h>
#include <sys/stat.h>
#include "cli.h"
#include "copy-file.h"
#include "options.h"

/* What stat found at an operand, to be handed on.  */
struct operand_stat
{
  int err;                      /* 0, or stat's errno */
  struct stat st;
};

/* A source the plan opened already.  */
struct open_src
{
  int fd;
  struct stat st;               /* its fstat */
};

/* What the plan knows of a destination before it is visited.  */
struct dst_known
{
  bool in_new_dir;              /* its directory was just made
                                   (--parents): nothing is there */
  struct operand_stat const *stat;  /* or null: look */
  struct open_src const *src;   /* or null: the source is not open yet */
  bool one_pair;                /* the operands are one SOURCE DEST pair,
                                   not files copied into a directory */
  char const *target;           /* or the directory they are copied into */
};

/* What to do with one SOURCE, DEST pair: copy or deduplicate.  */
struct visitor
{
  bool (*visit) (void *ctx, char const *src_name, char const *dst_name,
                 struct dst_known known);
  /* Or null: for the one pair SOURCE DEST, do it if nothing is at DEST,
     without a look first; ABSENT_LOOK if something is or may be
     (copy-file.h), with SOURCE left open in *SRC.  */
  enum absent_copy (*if_absent) (void *ctx, char const *src_name,
                                 char const *dst_name, struct open_src *src);
  void *ctx;
  struct fcopy_options const *opts;
};

/* Work out, as cp does, which operand of CMD goes where, and visit each
   pair with V.  Return false if a visit failed, or if the target is
   not a directory (said so); a usage error exits.  */
bool visit_operands (struct command const *cmd, struct visitor v);

#endif
