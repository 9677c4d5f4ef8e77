#!/usr/bin/env bats
# dedupe-progress.bats -- --dedupe --progress: pairs done, bytes compared
# and bytes shared, on a log every 5 s and in the summary; and the status
# line SIGUSR1 asks for, in --dedupe's words.  On btrfs, which dedupes.

bats_require_minimum_version 1.5.0
load helpers

setup_file ()
{
  setup_fs_file BTRFS=btrfs
}

setup ()
{
  setup_fs_test "$BTRFS"
}

# Two identical pairs of 10 MiB: a and a2, b and b2; --pairs-from=pairs
# names them.
make_pairs ()
{
  head -c 10M /dev/urandom >a
  head -c 10M /dev/urandom >b
  cp --reflink=never a a2
  cp --reflink=never b b2
}

@test "not a tty: --dedupe --progress=always: a line at 5 s, then the summary" {
  need_shim
  make_pairs
  # Each pair takes two FIDEDUPERANGE calls, one of no bytes first: the
  # second pair's second waits 6 s, when the first pair is done.
  printf '%s\n' a a2 b b2 >pairs
  run --separate-stderr env LD_PRELOAD="$FAULT_SHIM" \
    FCOPY_FAULT='fideduperange:4:stall=6' \
    "$FCOPY" --dedupe --progress=always --pairs-from=pairs
  assert_status 0
  assert_equal "$output" "" "stdout"
  local -a err
  mapfile -t err <<<"$stderr"
  assert_equal "${#err[@]}" 2 "lines on stderr"
  [[ ${err[0]} =~ ^.*fcopy:\ 1\ pairs,\ 20\ MiB\ compared,\ .*/s,\ 10\ MiB\ shared,\ b$ ]] || { echo "line: ${err[0]}"; false; }
  [[ ${err[1]} =~ ^.*fcopy:\ 2\ pairs,\ 20\ MiB\ compared\ in\ [0-9]+\.[0-9]\ s,\ .*/s,\ 20\ MiB\ shared$ ]] || { echo "summary: ${err[1]}"; false; }
  [[ $stderr != *$'\r'* ]] || { echo "a carriage return on a log"; false; }
}

@test "not a tty: --dedupe --progress (auto) prints nothing" {
  make_pairs
  run --separate-stderr "$FCOPY" --dedupe --progress a a2
  assert_status 0
  assert_stderr ""
}

@test "--dedupe: SIGUSR1 prints pairs, bytes compared and shared" {
  need_shim
  make_pairs
  export FCOPY_SHIM_STALLED=$BATS_TEST_TMPDIR/stalled
  printf '%s\n' a a2 b b2 >pairs
  env LD_PRELOAD="$FAULT_SHIM" FCOPY_FAULT='fideduperange:2:stall=2' \
    "$FCOPY" --dedupe --pairs-from=pairs 2>err &
  local pid=$!
  wait_for_stall
  kill -USR1 "$pid"
  wait "$pid"
  assert_equal "$(wc -l <err)" 1 "lines on stderr"
  # The first pair's second FIDEDUPERANGE waits: the line comes at the
  # second pair's first compared chunk.
  [[ $(cat err) =~ ^.*fcopy:\ 1\ pairs,\ [0-9.]+\ MiB\ compared,\ 10\ MiB\ shared,\ [0-9]+\.[0-9]\ s,\ .*/s$ ]] || { cat err; false; }
}
