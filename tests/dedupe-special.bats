#!/usr/bin/env bats
# dedupe-special.bats -- --dedupe never opens a FIFO or a device named as
# an operand, in a list, or found in a tree: opening a FIFO releases or
# waits for a writer, opening a tape device rewinds it.  It reaches them
# with O_PATH and refuses them by type ("is not a regular file").  The
# trace of open calls shows that nothing but O_PATH touched them.  No
# filesystem of its own: every case is refused before any sharing.

bats_require_minimum_version 1.5.0
load helpers

setup ()
{
  need_cmd strace
  cd "$BATS_TEST_TMPDIR"
  printf 'alpha\n' >a
  mkfifo f
}

# reads_of NAME TRACE: the open calls in TRACE that opened NAME other
# than with O_PATH.
reads_of ()
{
  grep -E "open(at)?\(.*\"([^\"]*/)?$1\"" "$2" | grep -vc O_PATH || true
}

@test "--dedupe: a FIFO operand is refused, never opened" {
  run --separate-stderr timeout 20 strace -f -qq -e trace=open,openat -o trace \
    bash -c 'exec -a fcopy "$0" "$@"' "$FCOPY" --dedupe f a
  assert_status 2
  assert_stderr "fcopy: 'f' is not a regular file"
  assert_equal "$(reads_of f trace)" 0 "opens of f for reading"
  run --separate-stderr timeout 20 strace -f -qq -e trace=open,openat -o trace \
    bash -c 'exec -a fcopy "$0" "$@"' "$FCOPY" --dedupe a f
  assert_status 2
  assert_stderr "fcopy: 'f' is not a regular file"
  assert_equal "$(reads_of f trace)" 0 "opens of f for reading"
}

@test "--dedupe: a character device in a list is refused, never opened" {
  printf '%s\0%s\0' a /dev/null >list
  run --separate-stderr timeout 20 strace -f -qq -e trace=open,openat -o trace \
    bash -c 'exec -a fcopy "$0" "$@"' "$FCOPY" --dedupe -0 --pairs-from=list
  assert_status 2
  assert_stderr "fcopy: '/dev/null' is not a regular file"
  assert_equal "$(reads_of null trace)" 0 "opens of /dev/null for reading"
}

@test "--dedupe -r: a FIFO in DSTDIR where SRCDIR has a file: refused, never opened" {
  mkdir s d
  printf 'alpha\n' >s/p
  mkfifo d/p
  run --separate-stderr timeout 20 strace -f -qq -e trace=open,openat -o trace \
    bash -c 'exec -a fcopy "$0" "$@"' "$FCOPY" --dedupe -r s d
  assert_status 2
  assert_stderr "fcopy: 'd/p' is not a regular file"
  assert_equal "$(reads_of d/p trace)" 0 "opens of the FIFO for reading"
}
