/* plan.c -- the plan: the operands of the command line turned into
   (SOURCE, DEST) pairs as cp pairs them (one pair, or files into a
   target directory, with --parents' leading directories made), each
   handed to a visitor with what the plan learnt on the way: the stat of
   DEST it took, the source it opened.  */

#include <config.h>
#include "plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dirname.h"
#include "error.h"
#include "exitfail.h"
#include "filenamecat.h"
#include "i18n.h"
#include "parents.h"
#include "quote-name.h"
#include "report.h"
#include "xalloc.h"

/* Whether NAME is a directory; if it is not and NAME is a target,
   say so with PREFIX ("target" or "target directory").  Keep stat's
   answer in *OS, to be handed on.  */
static bool
is_directory (char const *name, char const *prefix, struct operand_stat *os)
{
  os->err = stat (name, &os->st) != 0 ? errno : 0;
  int err = os->err ? os->err : S_ISDIR (os->st.st_mode) ? 0 : ENOTDIR;
  if (err && prefix)
    error (0, err, "%s %s", prefix, quoteaf (name));
  return !err;
}

/* Visit SRC_NAME with DIR/SRC_NAME, its leading directories made first
   and given their attributes after (--parents).  */
static bool
visit_parents (struct visitor v, char const *dir, char const *src_name)
{
  char *src_in_dst;
  char *dst_name = file_name_concat (dir, src_name, &src_in_dst);
  struct parents p;
  bool ok = make_parents (&p, dst_name, src_in_dst - dst_name, v.opts);
  if (ok)
    {
      ok = v.visit (v.ctx, src_name, dst_name,
                    (struct dst_known) { .in_new_dir = p.made_dir,
                                         .target = dir });
      ok &= finish_parents (&p, v.opts);
    }
  free (dst_name);
  return ok;
}

/* Visit each of the N_FILES names in FILE with DIR/its last component,
   after removing trailing slashes if STRIP_SLASHES (cp does that only
   when the files go into a directory).  SRC: the one file's, if open.  */
static bool
visit_into (struct visitor v, char const *dir, char **file, int n_files,
            bool strip_slashes, struct open_src const *src)
{
  bool ok = true;
  for (int i = 0; i < n_files; i++)
    {
      if (strip_slashes)
        strip_trailing_slashes (file[i]);
      if (v.opts->parents)
        {
          ok &= visit_parents (v, dir, file[i]);
          continue;
        }
      /* DIR/base of the source without its trailing slashes; "src/.."
         goes into DIR itself, not DIR/.. (as cp).  */
      char *base = xstrdup (last_component (file[i]));
      strip_trailing_slashes (base);
      char *dst_name = (strcmp (base, "..") == 0 ? xstrdup (dir)
                        : file_name_concat (dir, base, NULL));
      free (base);
      ok &= v.visit (v.ctx, file[i], dst_name,
                     (struct dst_known) { .src = src, .target = dir });
      free (dst_name);
    }
  return ok;
}

static _Noreturn void
parents_need_directory (void)
{
  usage_error (_("with --parents, the destination must be a directory"));
}

/* Visit the one pair SRC_NAME DST_NAME of the command line.  */
static bool
visit_pair (struct visitor v, char const *src_name, char const *dst_name,
            struct dst_known known)
{
  known.one_pair = true;
  return v.visit (v.ctx, src_name, dst_name, known);
}

bool
visit_operands (struct command const *cmd, struct visitor v)
{
  char **file = cmd->file;
  int n_files = cmd->n_files;

  if (n_files <= !cmd->target_dir)
    {
      if (n_files <= 0)
        usage_error (_("missing file operand"));
      error (0, 0, _("missing destination file operand after %s"),
             quoteaf (file[0]));
      usage (exit_failure);
    }
  if (cmd->no_target_dir)
    {
      if (2 < n_files)
        {
          error (0, 0, _("extra operand %s"), quoteaf (file[2]));
          usage (exit_failure);
        }
      if (v.opts->parents)
        parents_need_directory ();
      return visit_pair (v, file[0], file[1], (struct dst_known) { 0 });
    }
  struct operand_stat os;
  if (cmd->target_dir)
    {
      if (!is_directory (cmd->target_dir, _("target directory"), &os))
        return false;
      return visit_into (v, cmd->target_dir, file, n_files,
                         cmd->strip_slashes, NULL);
    }
  if (2 < n_files)
    {
      char const *dir = file[n_files - 1];
      if (!is_directory (dir, _("target"), &os))
        return false;
      return visit_into (v, dir, file, n_files - 1, cmd->strip_slashes,
                         NULL);
    }
  /* SOURCE DEST: most often nothing is at DEST, and making it with
     O_EXCL finds out as well as a stat would: the stat is made only if
     something is there.  */
  struct open_src src = { .fd = -1 };
  if (v.if_absent && !v.opts->parents)
    {
      enum absent_copy r = v.if_absent (v.ctx, file[0], file[1], &src);
      if (r != ABSENT_LOOK)
        return r == ABSENT_COPIED;
    }
  struct open_src const *opened = 0 <= src.fd ? &src : NULL;
  if (is_directory (file[1], NULL, &os))
    return visit_into (v, file[1], file, 1, cmd->strip_slashes, opened);
  if (v.opts->parents)
    parents_need_directory ();
  return visit_pair (v, file[0], file[1],
                     (struct dst_known) { .stat = &os,
                                         .src = opened });
}
