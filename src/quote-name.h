/* quote-name.h -- how file names appear in messages.

   As GNU cp: names are quoted for the shell ('a b', 'it'\''s'), so a
   message can be pasted back into a command line.  N picks one of
   quotearg's buffers, for messages that hold two names.  */

#ifndef FCOPY_QUOTE_NAME_H
#define FCOPY_QUOTE_NAME_H

#include "quotearg.h"

#define quoteaf(name) \
  quotearg_style (shell_escape_always_quoting_style, name)
#define quoteaf_n(n, name) \
  quotearg_n_style (n, shell_escape_always_quoting_style, name)

/* A name as the first word of a message ("NAME: can make ..."): quoted
   only when the shell would need it.  */
#define quotef(name) \
  quotearg_n_style_colon (0, shell_escape_quoting_style, name)

#endif
