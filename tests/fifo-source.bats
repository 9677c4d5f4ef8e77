#!/usr/bin/env bats
# fifo-source.bats -- a FIFO whose contents are read (without -r, or with
# -r --copy-contents) is read as cp reads it: fcopy waits for a writer,
# then copies what it writes up to its close.  A FIFO opened O_NONBLOCK
# with no writer yet reads as EOF, which made an empty copy at once.

load helpers

# late_writer FIFO: in the background, write "hello" into FIFO after 1 s.
late_writer ()
{
  (sleep 1; printf hello >"$1") 3>&- &
  WRITER=$!
}

# finish_writer FIFO: let late_writer end even if nobody read FIFO (a
# read-write open never blocks on Linux), and wait for it.
finish_writer ()
{
  exec 5<>"$1"
  wait "$WRITER"
  exec 5<&-
}

# fcopy_bounded ARG...: fcopy ARG..., killed after 20 s: a copy that
# waits for a writer that never comes must not hang the suite.
fcopy_bounded ()
{
  timeout 20 bash -c 'exec -a fcopy "$FCOPY" "$@"' fcopy "$@"
}

@test "fcopy FIFO FILE waits for a late writer and copies what it wrote" {
  cd "$BATS_TEST_TMPDIR"
  mkfifo p
  late_writer p
  run --separate-stderr fcopy_bounded p out
  finish_writer p
  assert_status 0
  assert_stderr
  assert_equal "$(cat out)" hello "the copy"
}

@test "-r --copy-contents FIFO FILE waits for a late writer" {
  cd "$BATS_TEST_TMPDIR"
  mkfifo p
  late_writer p
  run --separate-stderr fcopy_bounded --copy-contents -r p out
  finish_writer p
  assert_status 0
  assert_stderr
  assert_equal "$(cat out)" hello "the copy"
}

@test "-r --copy-contents: a FIFO inside a tree waits for a late writer" {
  cd "$BATS_TEST_TMPDIR"
  mkdir dir
  mkfifo dir/p
  late_writer dir/p
  run --separate-stderr fcopy_bounded --copy-contents -r dir out
  finish_writer dir/p
  assert_status 0
  assert_stderr
  assert_equal "$(cat out/p)" hello "the copy"
}

@test "-r without --copy-contents still makes a FIFO, without waiting" {
  cd "$BATS_TEST_TMPDIR"
  mkfifo p
  run --separate-stderr fcopy_bounded -r p out
  assert_status 0
  assert_stderr
  [[ -p out ]]
}

@test "bytes a writer left in the FIFO before fcopy opened it are copied" {
  cd "$BATS_TEST_TMPDIR"
  mkfifo p
  # The holder keeps a read end open, so that a writer can open, write
  # and close before fcopy opens the FIFO: the bytes wait in the pipe.
  # (cp would wait for another writer; fcopy reads what a writer left,
  # which is what cp gets when its open meets that writer.)
  (exec 4<>p 5<p 4>&-; printf hello >p; sleep 5) 3>&- &
  local holder=$!
  sleep 1
  run --separate-stderr fcopy_bounded p out
  kill "$holder"
  wait "$holder" || true
  assert_status 0
  assert_stderr
  assert_equal "$(cat out)" hello "the copy"
}

@test "without /proc: the FIFO is opened again by name, waits for the writer" {
  need_cmd strace
  cd "$BATS_TEST_TMPDIR"
  mkfifo p
  late_writer p
  if asan_build; then
    # open 1: the FIFO, without blocking; open 2: /proc/self/fd/N,
    # refused here as where /proc is missing; open 3: by name.
    need_shim
    FCOPY_SHIM_LOG=$PWD/shim.log run --separate-stderr \
      fcopy_fault open:2:ENOENT p out
  else
    run --separate-stderr without_proc \
      timeout 20 strace -f -o trace -e trace=openat "$FCOPY" p out
  fi
  finish_writer p
  assert_status 0
  assert_stderr
  assert_equal "$(cat out)" hello "the copy"
  if asan_build; then
    (( $(shim_count shim.log open) >= 4 ))   # p, /proc, p again, out
  else
    # The way it went: /proc refused, then the blocking open by name.
    grep -q '"/proc/self/fd/[0-9]*", O_RDONLY.* = -1 ENOENT' trace
    grep -Eq 'openat\(AT_FDCWD, "p", O_RDONLY\|O_NOCTTY\|O_CLOEXEC\) = [0-9]+$' trace
  fi
}
