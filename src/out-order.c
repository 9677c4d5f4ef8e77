/* out-order.c -- the places of --jobs's output, in a list in the walk's
   order.

   The first place of the list (the head) prints straight to its stream;
   the others keep what they print, as records of stream, length and
   bytes.  When the head is complete it leaves the list, and the next
   place's records go out: that place is the head now.  One lock guards
   the list and every write, so that a place never prints while an
   earlier one is still being written out.  Output is rare next to the
   copies (a -v line, a message), so the lock is not a cost.  */

#include <config.h>
#include "out-order.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "xalloc.h"

/* Complete places that may wait behind an incomplete one (a big file, a
   slow disk) before the walk waits too: some 100 bytes each at most for
   a -v line, a few hundred KiB in all.  */
enum { PLACES_MAX = 4096 };

struct out_slot
{
  struct out_slot *next;
  bool done;
  bool walk;            /* the walk's own place between two handed out */
  char *kept;           /* records: FILE *, size_t length, the bytes */
  size_t len, size;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t advanced = PTHREAD_COND_INITIALIZER;
static struct out_slot *head, *tail;
static size_t n_places;

/* Whether a place was ever handed out: until then every thread (only the
   walk's, then) prints straight out, without the lock.  */
static atomic_bool ordering;

/* --progress's status line on a terminal (stderr): whether it is on the
   screen now, whether it may be drawn (not while -i asks), and whether
   stdout is that terminal too.  Once a line is drawn, every write takes
   the lock, so that the line is erased before anything else goes out. */
static atomic_bool status_used;
static bool status_shown, status_held;
static int stdout_tty = -1;

/* The calling thread's place; null for the walk's.  */
static _Thread_local struct out_slot *current;

/* Take the status line off the screen: the cursor to the start of its
   line, and the line cleared (ECMA-48 CR, EL).  Call with the lock held,
   or before any thread but the walk's runs.  */
static void
erase_status (void)
{
  fputs ("\r\33[K", stderr);
  fflush (stderr);
  status_shown = false;
}

/* Write N bytes of TEXT to STREAM, as error() and printf would: a
   message on stderr after what is already on stdout.  */
static void
write_out (FILE *stream, char const *text, size_t n)
{
  if (status_shown && (stream == stderr || stdout_tty))
    erase_status ();
  if (stream == stderr)
    fflush (stdout);
  fwrite (text, 1, n, stream);
  if (stream == stderr)
    fflush (stderr);
}

/* Keep TEXT in SLOT for later; if memory is short, print it now, out of
   order but not lost.  */
static void
keep (struct out_slot *slot, FILE *stream, char const *text, size_t n)
{
  size_t need = slot->len + sizeof stream + sizeof n + n;
  if (slot->size < need)
    {
      size_t size = need < 2 * slot->size ? 2 * slot->size : need;
      char *kept = realloc (slot->kept, size);
      if (!kept)
        {
          write_out (stream, text, n);
          return;
        }
      slot->kept = kept;
      slot->size = size;
    }
  char *p = slot->kept + slot->len;
  memcpy (p, &stream, sizeof stream);
  memcpy (p += sizeof stream, &n, sizeof n);
  memcpy (p + sizeof n, text, n);
  slot->len = need;
}

/* Print what SLOT kept.  */
static void
write_kept (struct out_slot *slot)
{
  for (char const *p = slot->kept; p < slot->kept + slot->len; )
    {
      FILE *stream;
      size_t n;
      memcpy (&stream, p, sizeof stream);
      memcpy (&n, p += sizeof stream, sizeof n);
      write_out (stream, p += sizeof n, n);
      p += n;
    }
  free (slot->kept);
  slot->kept = NULL;
  slot->len = slot->size = 0;
}

/* The head may have changed or completed: print what the places now
   first kept, and drop the complete ones.  The walk's open place leaves
   too when it is the only one: the walk then prints straight out.  Call
   with the lock held.  */
static void
advance (void)
{
  while (head)
    {
      write_kept (head);
      if (!head->done && !(head->walk && head == tail))
        break;
      struct out_slot *done = head;
      head = head->next;
      if (!head)
        tail = NULL;
      free (done);
      n_places--;
      pthread_cond_broadcast (&advanced);
    }
}

/* Add SLOT at the end of the list.  Call with the lock held.  */
static void
append (struct out_slot *slot)
{
  if (tail)
    tail->next = slot;
  else
    head = slot;
  tail = slot;
  n_places++;
}

/* The walk's place, made if places handed out come before it; null if
   none does.  Call with the lock held.  */
static struct out_slot *
walk_place (void)
{
  if (!head)
    return NULL;
  if (tail->walk && !tail->done)
    return tail;
  struct out_slot *slot = calloc (1, sizeof *slot);
  if (slot)
    {
      slot->walk = true;
      append (slot);
    }
  return slot;
}

void
out_vprintf (FILE *stream, char const *format, va_list args)
{
  /* No place handed out yet, no status line: straight out, as printf
     would.  */
  if (!atomic_load (&ordering) && !atomic_load (&status_used))
    {
      if (stream == stderr)
        fflush (stdout);
      vfprintf (stream, format, args);
      return;
    }
  va_list again;
  va_copy (again, args);
  char *text;
  int n = vasprintf (&text, format, args);
  pthread_mutex_lock (&lock);
  struct out_slot *slot = current ? current : walk_place ();
  if (n < 0)
    /* No memory to keep it: out of order, but not lost.  */
    vfprintf (stream, format, again);
  else if (!slot || slot == head)
    write_out (stream, text, n);
  else
    keep (slot, stream, text, n);
  pthread_mutex_unlock (&lock);
  va_end (again);
  if (0 <= n)
    free (text);
}

void
out_now (char const *text)
{
  bool locked = atomic_load (&ordering) || atomic_load (&status_used);
  if (locked)
    pthread_mutex_lock (&lock);
  write_out (stderr, text, strlen (text));
  if (locked)
    pthread_mutex_unlock (&lock);
}

void
out_printf (FILE *stream, char const *format, ...)
{
  va_list args;
  va_start (args, format);
  out_vprintf (stream, format, args);
  va_end (args);
}

void
out_status_expect (void)
{
  atomic_store (&status_used, true);
}

void
out_status (char const *line)
{
  atomic_store (&status_used, true);
  pthread_mutex_lock (&lock);
  if (stdout_tty < 0)
    stdout_tty = isatty (STDOUT_FILENO);
  if (!status_held)
    {
      fflush (stdout);
      fprintf (stderr, "\r%s\33[K", line);
      fflush (stderr);
      status_shown = true;
    }
  pthread_mutex_unlock (&lock);
}

void
out_status_end (char const *summary)
{
  pthread_mutex_lock (&lock);
  if (status_shown)
    erase_status ();
  status_held = true;
  pthread_mutex_unlock (&lock);
  if (summary)
    out_now (summary);
}

void
out_hold_status (bool hold)
{
  if (!atomic_load (&status_used))
    return;
  pthread_mutex_lock (&lock);
  if (hold && status_shown)
    erase_status ();
  status_held = hold;
  pthread_mutex_unlock (&lock);
}

struct out_slot *
out_slot_new (void)
{
  struct out_slot *slot = xzalloc (sizeof *slot);
  atomic_store (&ordering, true);
  pthread_mutex_lock (&lock);
  while (PLACES_MAX <= n_places)
    pthread_cond_wait (&advanced, &lock);
  /* The walk's place so far is complete: it goes on after SLOT.  */
  if (tail && tail->walk)
    tail->done = true;
  append (slot);
  advance ();
  pthread_mutex_unlock (&lock);
  return slot;
}

struct out_slot *
out_slot_begin (struct out_slot *slot)
{
  struct out_slot *previous = current;
  current = slot;
  return previous;
}

void
out_slot_end (struct out_slot *slot, struct out_slot *previous)
{
  current = previous;
  pthread_mutex_lock (&lock);
  slot->done = true;
  if (slot == head)
    advance ();
  pthread_mutex_unlock (&lock);
}

/* error(), as glibc's, but each message whole and in its place.  glibc
   2.36 builds its error() without stdio's locks (its _IO_flockfile is
   empty outside libio), so with --jobs the program name of one message
   and the text of another came out on one line; and a worker's message
   must wait for the output of the files before its own (out-order.h).
   So the message is made whole, then printed as one piece.  glibc's
   error is a weak symbol, meant to be replaced: the program's own
   serves every call, gnulib's too.  fcopy sets no error_print_progname.  */
void
error (int status, int errnum, char const *format, ...)
{
  va_list args;
  va_start (args, format);
  char *message;
  if (vasprintf (&message, format, args) < 0)
    message = NULL;
  va_end (args);
  char buf[1024];
  out_printf (stderr, "%s: %s%s%s\n", program_invocation_name,
              message ? message : format, errnum ? ": " : "",
              errnum ? strerror_r (errnum, buf, sizeof buf) : "");
  free (message);
  /* ThreadSanitizer would see a race in a plain ++.  */
  __atomic_fetch_add (&error_message_count, 1, __ATOMIC_RELAXED);
  if (status)
    exit (status);
}
