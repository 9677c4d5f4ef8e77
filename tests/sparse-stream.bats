#!/usr/bin/env bats
# sparse-stream.bats -- a sparse source copied to a destination that is
# not a regular file (a pipe, /dev/null): holes cannot be made there
# (lseek and ftruncate fail on pipes), so they are written as zeros, as
# cp does (coreutils tests/cp/sparse-to-pipe.sh).

load helpers

# sparse_source FILE: 1 MiB with 64 KiB of data in the middle, holes
# around it (the test directory is on a filesystem with holes).
sparse_source ()
{
  truncate -s 1M "$1"
  dd if=/dev/urandom of="$1" bs=64K seek=8 count=1 conv=notrunc status=none
}

# copy_to_fifo SRC COPY OPTION...: fcopy OPTION... SRC into a FIFO whose
# reader writes what it gets into COPY; $status and $stderr from run.
copy_to_fifo ()
{
  local src=$1 copy=$2
  shift 2
  mkfifo "$BATS_TEST_TMPDIR/pipe"
  cat "$BATS_TEST_TMPDIR/pipe" >"$copy" 3>&- &
  local reader=$!
  run --separate-stderr fcopy "$@" "$src" "$BATS_TEST_TMPDIR/pipe"
  wait "$reader"
}

@test "--sparse=always: a file that is all hole, to a pipe, arrives as zeros" {
  cd "$BATS_TEST_TMPDIR"
  truncate -s 1M sparse
  copy_to_fifo sparse copy --sparse=always
  assert_status 0
  assert_stderr
  assert_same sparse copy
}

@test "--sparse=always: holes and data, to a pipe" {
  cd "$BATS_TEST_TMPDIR"
  sparse_source sparse
  copy_to_fifo sparse copy --sparse=always
  assert_status 0
  assert_stderr
  assert_same sparse copy
}

@test "default --sparse=auto: holes and data, to a pipe" {
  cd "$BATS_TEST_TMPDIR"
  sparse_source sparse
  copy_to_fifo sparse copy
  assert_status 0
  assert_stderr
  assert_same sparse copy
}

@test "--reflink=never: a file that is all hole, to a pipe" {
  cd "$BATS_TEST_TMPDIR"
  truncate -s 1M sparse
  copy_to_fifo sparse copy --reflink=never
  assert_status 0
  assert_stderr
  assert_same sparse copy
}

@test "a sparse file to /dev/null, with and without --sparse=always" {
  cd "$BATS_TEST_TMPDIR"
  sparse_source sparse
  run --separate-stderr fcopy sparse /dev/null
  assert_status 0
  assert_stderr
  run --separate-stderr fcopy --sparse=always sparse /dev/null
  assert_status 0
  assert_stderr
}

@test "--sparse=always: a file whose data ends in zeros, to a pipe" {
  cd "$BATS_TEST_TMPDIR"
  sparse_source sparse
  head -c 64K /dev/zero >>sparse
  copy_to_fifo sparse copy --sparse=always
  assert_status 0
  assert_stderr
  assert_same sparse copy
}
