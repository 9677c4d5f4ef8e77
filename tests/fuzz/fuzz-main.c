/* fuzz-main.c -- a plain driver for the fuzz targets where libFuzzer is
   not used (any compiler; every 'make check').

   It takes a subset of libFuzzer's command line, so that one test runs
   either build: -runs=N, -max_total_time=S, -seed=N, -close_fd_mask=M,
   then seed files or directories.  It runs every seed once, then random
   mutations of seeds and of earlier inputs: no coverage guidance, but the
   targets check their results against a reference, so even blind inputs
   find wrong answers, not only crashes.  On a crash the input that caused
   it is in ./crash-input.  */

#include <config.h>
#include "fuzz.h"

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { INPUT_MAX = 4096, POOL_MAX = 512 };

struct input
{
  size_t size;
  uint8_t *data;
};

static struct input pool[POOL_MAX];
static size_t pool_len;
static uint64_t rng_state = 88172645463325252u;

/* The input being run, for the crash handler.  */
static uint8_t current[INPUT_MAX];
static size_t current_size;

static uint64_t
rng (void)
{
  /* xorshift64*: small and good enough to pick mutations.  */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717u;
}

static size_t
below (size_t n)
{
  return n ? rng () % n : 0;
}

static void
add_to_pool (uint8_t const *data, size_t size)
{
  struct input *in = &pool[pool_len < POOL_MAX ? pool_len++ : below (POOL_MAX)];
  free (in->data);
  in->data = malloc (size ? size : 1);
  if (!in->data)
    abort ();
  memcpy (in->data, data, size);
  in->size = size;
}

static void
on_crash (int sig)
{
  int fd = open ("crash-input", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (0 <= fd)
    {
      ssize_t ignored = write (fd, current, current_size);
      (void) ignored;
      close (fd);
    }
  signal (sig, SIG_DFL);
  raise (sig);
}

static void
run (uint8_t const *data, size_t size)
{
  memcpy (current, data, size);
  current_size = size;
  LLVMFuzzerTestOneInput (current, size);
}

static void
load_seed (char const *name)
{
  FILE *f = fopen (name, "rb");
  if (!f)
    return;
  uint8_t buf[INPUT_MAX];
  size_t size = fread (buf, 1, sizeof buf, f);
  fclose (f);
  add_to_pool (buf, size);
}

static void
load_seeds (char const *name)
{
  struct stat st;
  DIR *dir;
  if (stat (name, &st) != 0 || !S_ISDIR (st.st_mode) || !(dir = opendir (name)))
    {
      load_seed (name);
      return;
    }
  struct dirent *e;
  while ((e = readdir (dir)) != NULL)
    if (e->d_name[0] != '.')
      {
        char path[PATH_MAX];
        snprintf (path, sizeof path, "%s/%s", name, e->d_name);
        load_seed (path);
      }
  closedir (dir);
}

/* Bytes that the parsers give meaning to.  */
static uint8_t const interesting[] =
  { '\0', '\n', '\r', ' ', '\t', '-', '+', '.', '/', '0', '1', '9', 'K',
    'k', 'M', 'E', 'i', 'B', 'x', 0x7f, 0x80, 0xff };

/* Change BUF (*SIZE bytes of INPUT_MAX) in one random way.  */
static void
mutate_once (uint8_t *buf, size_t *size)
{
  size_t n = *size, at = below (n + 1), len = 1 + below (16);
  switch (below (7))
    {
    case 0:                     /* flip a bit */
      if (n)
        buf[below (n)] ^= 1u << below (8);
      break;
    case 1:                     /* a byte the parser cares about */
      if (n)
        buf[below (n)] = interesting[below (sizeof interesting)];
      break;
    case 2:                     /* insert random or interesting bytes */
      if (INPUT_MAX - n < len)
        break;
      memmove (buf + at + len, buf + at, n - at);
      for (size_t i = 0; i < len; i++)
        buf[at + i] = rng () & 1 ? (uint8_t) rng ()
                      : interesting[below (sizeof interesting)];
      *size = n + len;
      break;
    case 3:                     /* delete a range */
      if (at + len > n)
        len = n - at;
      memmove (buf + at, buf + at + len, n - at - len);
      *size = n - len;
      break;
    case 4:                     /* repeat a range */
      if (at + len > n || INPUT_MAX - n < len)
        break;
      memmove (buf + at + len, buf + at, n - at);
      *size = n + len;
      break;
    case 5:                     /* cut the end */
      *size = at;
      break;
    default:                    /* append part of another input */
      {
        struct input const *other = &pool[below (pool_len)];
        size_t from = below (other->size), take = other->size - from;
        if (take > INPUT_MAX - n)
          take = INPUT_MAX - n;
        memcpy (buf + n, other->data + from, take);
        *size = n + take;
      }
      break;
    }
}

int
main (int argc, char **argv)
{
  uintmax_t runs = UINTMAX_MAX;
  long max_time = 0;
  int close_mask = 0;
  int out = STDERR_FILENO;

  LLVMFuzzerInitialize (&argc, &argv);
  for (int i = 1; i < argc; i++)
    if (sscanf (argv[i], "-runs=%ju", &runs) == 1
        || sscanf (argv[i], "-max_total_time=%ld", &max_time) == 1
        || sscanf (argv[i], "-close_fd_mask=%d", &close_mask) == 1)
      continue;
    else if (strncmp (argv[i], "-seed=", 6) == 0)
      rng_state = strtoull (argv[i] + 6, NULL, 10) * 2 + 1;
    else if (argv[i][0] != '-')
      load_seeds (argv[i]);
  if (pool_len == 0)
    add_to_pool ((uint8_t const *) "", 0);
  if (close_mask & 2)
    {
      /* As libFuzzer: silence the target's stderr, keep ours.  */
      out = dup (STDERR_FILENO);
      int null = open ("/dev/null", O_WRONLY);
      if (out < 0 || null < 0 || dup2 (null, STDERR_FILENO) < 0)
        return EXIT_FAILURE;
      close (null);
    }
  signal (SIGABRT, on_crash);
  signal (SIGSEGV, on_crash);
  signal (SIGBUS, on_crash);
  signal (SIGFPE, on_crash);

  time_t start = time (NULL);
  uintmax_t done = 0;
  for (size_t i = 0; i < pool_len && done < runs; i++, done++)
    run (pool[i].data, pool[i].size);
  uint8_t buf[INPUT_MAX];
  while (done < runs && (max_time <= 0 || time (NULL) - start < max_time))
    {
      struct input const *seed = &pool[below (pool_len)];
      size_t size = seed->size;
      memcpy (buf, seed->data, size);
      for (size_t m = 1 + below (4); m; m--)
        mutate_once (buf, &size);
      run (buf, size);
      /* Keep some inputs to mutate further: blind, but it lets
         changes pile up.  */
      if (++done % 64 == 0)
        add_to_pool (buf, size);
      if (max_time > 0 && runs == UINTMAX_MAX && done % 4096 == 0
          && time (NULL) - start >= max_time)
        break;
    }
  dprintf (out, "Done %ju runs in %ld second(s)\n", done,
           (long) (time (NULL) - start));
  return EXIT_SUCCESS;
}
