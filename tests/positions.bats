#!/usr/bin/env bats
# positions.bats -- the file positions of the source and of a new
# destination advance as the data moves, by copy_file_range and by
# splice as by read/write, so that tools that watch a copy through
# /proc/PID/fdinfo (progress(1), pv -d) see how far it is.

bats_require_minimum_version 1.5.0
load helpers

setup_file ()
{
  setup_fs_file TMPFS=tmpfs:64M
}

setup ()
{
  setup_fs_test "$TMPFS"
  need_shim
  head -c 4M /dev/urandom >src
}

# pos_of PID NAME: the file position of PID's descriptor open on NAME.
pos_of ()
{
  local fd
  for fd in /proc/"$1"/fd/*; do
    if [[ $(readlink "$fd") == "$PWD/$2" ]]; then
      sed -n 's/^pos:[[:space:]]*//p' /proc/"$1"/fdinfo/"${fd##*/}"
      return
    fi
  done
  echo "no descriptor on $2"
}

# Run fcopy src dst under FCOPY_FAULT=$1 in the background; when the
# shim's stall starts, check that both descriptors are at byte $2.
positions_at_stall ()
{
  export FCOPY_SHIM_STALLED=$BATS_TEST_TMPDIR/stalled
  env LD_PRELOAD="$FAULT_SHIM" FCOPY_FAULT="$1" "$FCOPY" src dst &
  local pid=$!
  wait_for_stall
  local src_pos dst_pos
  src_pos=$(pos_of "$pid" src)
  dst_pos=$(pos_of "$pid" dst)
  wait "$pid"
  assert_equal "$src_pos" "$2" "the source's position"
  assert_equal "$dst_pos" "$2" "the destination's position"
  cmp src dst
}

@test "copy_file_range moves the positions as it goes" {
  # The first call moves 1 MiB; the second waits.
  positions_at_stall \
    'copy_file_range:1:short=1048576,copy_file_range:2:stall=3' 1048576
}

@test "copy_file_range moves the positions of an existing destination too" {
  echo old >dst
  positions_at_stall \
    'copy_file_range:1:short=1048576,copy_file_range:2:stall=3' 1048576
}

@test "splice moves the positions as it goes" {
  # No copy_file_range: splice in, splice out 64 KiB, then a wait.
  positions_at_stall \
    'copy_file_range:*:EXDEV,splice:1:short=65536,splice:3:stall=3' 65536
}
