/* quote-name.h -- how file names appear in messages.

   As GNU cp: names are quoted for the shell ('a b', 'it'\''s'), so a
   message can be pasted back into a command line.  N picks one of the
   calling thread's buffers, for messages that hold two or three names;
   a name stays valid until the same thread quotes another one with the
   same N.  */

#ifndef FCOPY_QUOTE_NAME_H
#define FCOPY_QUOTE_NAME_H

#include <stdbool.h>

#define quoteaf(name) quote_name (0, false, name)
#define quoteaf_n(n, name) quote_name (n, false, name)

/* A name as the first word of a message ("NAME: can make ..."): quoted
   only when the shell would need it.  */
#define quotef(name) quote_name (0, true, name)

/* NAME quoted into the calling thread's buffer N (0, 1 or 2): always, in
   shell_escape_always_quoting_style, or, if FIRST_WORD, only as needed
   and with a colon quoted too (as quotearg_n_style_colon).  */
char const *quote_name (int n, bool first_word, char const *name);

/* Free the calling thread's buffers: a thread calls it before it ends. */
void quote_name_free (void);

#endif
