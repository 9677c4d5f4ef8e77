/* quote-name.c -- quoted names for messages, in buffers of each thread's
   own.

   gnulib's quotearg_n_style keeps its buffers in static slots that all
   threads share: with --jobs, a worker quoting a name for its message
   would overwrite, or free while it grows it, the buffer that another
   thread is printing from.  Here the same quoting goes into buffers of
   the calling thread's own.  They must outlive the call (the caller
   prints the string afterwards) and no caller has a buffer to give, so
   they are thread-local: the one kind of per-thread state in fcopy.  */

#include <config.h>
#include "quote-name.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "quotearg.h"
#include "xalloc.h"

/* Buffers per thread: a message quotes at most three names.  */
enum { QUOTE_SLOTS = 3 };

struct quote_buffers
{
  char *buf[QUOTE_SLOTS];
  size_t size[QUOTE_SLOTS];
  struct quoting_options *always, *first_word;  /* made on first use */
};

static _Thread_local struct quote_buffers quote_buffers;

/* The options for a name, made once per thread.  */
static struct quoting_options const *
options (bool first_word)
{
  struct quote_buffers *q = &quote_buffers;
  if (!q->always)
    {
      q->always = clone_quoting_options (NULL);
      set_quoting_style (q->always, shell_escape_always_quoting_style);
      q->first_word = clone_quoting_options (NULL);
      set_quoting_style (q->first_word, shell_escape_quoting_style);
      set_char_quoting (q->first_word, ':', 1);
    }
  return first_word ? q->first_word : q->always;
}

/* errno is kept: callers pass it to error() beside the quoted name, in
   an order of evaluation that C leaves open.  */
char const *
quote_name (int n, bool first_word, char const *name)
{
  int saved_errno = errno;
  struct quote_buffers *q = &quote_buffers;
  struct quoting_options const *o = options (first_word);
  if (n < 0 || QUOTE_SLOTS <= n)
    abort ();
  size_t len = quotearg_buffer (q->buf[n], q->size[n], name, SIZE_MAX, o);
  if (q->size[n] <= len)
    {
      free (q->buf[n]);
      q->size[n] = len + 1;
      q->buf[n] = xmalloc (q->size[n]);
      quotearg_buffer (q->buf[n], q->size[n], name, SIZE_MAX, o);
    }
  errno = saved_errno;
  return q->buf[n];
}

void
quote_name_free (void)
{
  struct quote_buffers *q = &quote_buffers;
  for (int i = 0; i < QUOTE_SLOTS; i++)
    free (q->buf[i]);
  free (q->always);
  free (q->first_word);
  *q = (struct quote_buffers) { 0 };
}
