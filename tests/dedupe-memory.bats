#!/usr/bin/env bats
# dedupe-memory.bats -- --dedupe --jobs=N holds at most 256 MiB of compare
# buffers (8 sets of two 16 MiB chunks), however many threads run: a
# thread waits for a set another puts back.  Each pair's first request
# (the kernel's FIDEDUPERANGE, refused here where the filesystem cannot
# share) is held a second by the fault shim, so that every thread holds
# a set at once; strace counts the 16 MiB buffers mapped.

bats_require_minimum_version 1.5.0
load helpers

setup ()
{
  need_shim
  need_cmd strace
  cd "$BATS_TEST_TMPDIR"
  mkdir s d
  local i
  for i in $(seq 32); do
    echo "$i" >"s/$i"
    echo "$i" >"d/$i"
  done
}

# big_maps TRACE: the mmap calls in TRACE of one 16 MiB buffer (and its
# alignment): not the arenas of malloc, 64 or 128 MiB.
big_maps ()
{
  awk -F', ' '/mmap\(/ && $2 + 0 >= 16777216 && $2 + 0 < 17825792 { n++ }
       END { print n + 0 }' "$1"
}

@test "--dedupe --jobs=32: at most 8 sets of compare buffers at once" {
  run --separate-stderr \
    strace -f -qq -e trace=mmap -o trace \
    env LD_PRELOAD="$FAULT_SHIM" FCOPY_FAULT='fideduperange:*:stall=1' \
    FCOPY_SHIM_LOG="$PWD/shim.log" \
    bash -c 'exec -a fcopy "$0" "$@"' "$FCOPY" --dedupe --jobs=32 -r s d
  assert_status 2
  # Every pair was tried (and refused by the filesystem, or shared).
  (( $(shim_count shim.log fideduperange) >= 32 ))
  local maps
  maps=$(big_maps trace)
  (( maps >= 2 ))
  (( maps <= 16 ))
}
