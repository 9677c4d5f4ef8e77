#!/usr/bin/env bats
# faults.bats -- the ladder's fallback rules under injected failures (the
# LD_PRELOAD shim of tests/fault-shim.c):
#  - a step that fails before moving a byte with an "unsupported" errno
#    hands over to the next step;
#  - once bytes moved, any error fails the file: one message, exit 1, no
#    silent restart by another step;
#  - short counts are normal and must be looped over;
#  - clone errors that say the filesystem is in trouble (ENOSPC, EIO...)
#    are fatal even under --reflink=auto.
# FCOPY_SHIM_LOG records each call, so a test can also say what did NOT run.

load helpers

setup_file ()
{
  need_shim
  setup_fs_file EXT4=ext4 BTRFS=btrfs
}

# teardown_file and teardown: helpers.bash's.

MiB=$((1024 * 1024))
SIZE=$((3 * MiB + 12345))
# The fewest calls that can move SIZE bytes 4099 at a time.
MIN_SHORT_CALLS=$(( (SIZE + 4098) / 4099 ))

setup ()
{
  check_file_skip
  export FCOPY_SHIM_LOG=$BATS_TEST_TMPDIR/shim.log
  on "$EXT4"
}

# on MNT: work in a fresh directory on MNT with a source "src" of SIZE
# random bytes and its copy "src.saved" (to show the source is untouched).
on ()
{
  mkdir -p "$1/$BATS_TEST_NUMBER"
  cd "$1/$BATS_TEST_NUMBER"
  rm -f src dst "$FCOPY_SHIM_LOG"
  make_random src "$SIZE"
  cp src src.saved
}

# calls NAME: how many NAME calls the last run logged.
calls ()
{
  shim_count "$FCOPY_SHIM_LOG" "$1"
}

# assert_calls NAME OP N: e.g. assert_calls splice -eq 0.
assert_calls ()
{
  local n
  n=$(calls "$1")
  test "$n" "$2" "$3" || { echo "$n $1 calls, expected $2 $3" >&2; false; }
}

# run_fault SPEC ARG...: run fcopy under the shim with a fresh call log.
run_fault ()
{
  rm -f "$FCOPY_SHIM_LOG"
  run --separate-stderr fcopy_fault "$@"
}

# --- copy_file_range -------------------------------------------------------

# cfr_falls_back ERRNO: the first copy_file_range fails with ERRNO before
# any byte moved: splice takes over, the copy is complete.
cfr_falls_back ()
{
  run_fault "copy_file_range:1:$1" --debug src dst
  assert_status 0
  assert_stdout "'src' -> 'dst'" "copy offload: unsupported, reflink: unsupported, sparse detection: no" "splice: yes, read/write: no, extents shared: $(unshared_word dst)"
  assert_equal "$stderr" "" stderr
  assert_same src dst
  assert_calls copy_file_range -eq 1
  assert_calls splice -gt 0
}

@test "copy_file_range EXDEV on the first call: splice takes over" {
  cfr_falls_back EXDEV
}

@test "copy_file_range ENOSYS on the first call: splice takes over" {
  cfr_falls_back ENOSYS
}

@test "copy_file_range EOPNOTSUPP on the first call: splice takes over" {
  cfr_falls_back EOPNOTSUPP
}

@test "copy_file_range: every other 'unsupported' errno falls back too" {
  local e
  for e in ENOTTY EINVAL EBADF ETXTBSY EPERM EACCES ENOENT; do
    rm -f dst
    cfr_falls_back $e
  done
}

@test "copy_file_range EFBIG on the first call: the bytes come another way" {
  run_fault copy_file_range:1:EFBIG --debug src dst
  assert_status 0
  # design §4: EFBIG goes straight to read/write, splice would fail alike.
  assert_stdout "'src' -> 'dst'" "copy offload: unsupported, reflink: unsupported, sparse detection: no" "splice: avoided, read/write: yes, extents shared: $(unshared_word dst)"
  assert_same src dst
}

@test "copy_file_range EIO after bytes moved: one message, exit 1, no fallback" {
  run_fault copy_file_range:1:short,copy_file_range:2:EIO src dst
  assert_status 1
  assert_stderr "fcopy: error copying 'src' to 'dst': Input/output error"
  assert_equal "$output" "" stdout
  assert_calls copy_file_range -eq 2
  assert_calls splice -eq 0
  assert_calls write -eq 0
  assert_calls pwrite -eq 0
  assert_same src.saved src
}

@test "copy_file_range EOPNOTSUPP after bytes moved is a failure, not a fallback" {
  run_fault copy_file_range:1:short,copy_file_range:2:EOPNOTSUPP src dst
  assert_status 1
  assert_stderr "fcopy: error copying 'src' to 'dst': Operation not supported"
  assert_calls splice -eq 0
  assert_calls write -eq 0
}

@test "a failed file does not stop the next one" {
  make_random src2 $((MiB + 7))
  mkdir d
  # The 3rd copy_file_range is the first one of src2.
  run_fault copy_file_range:1:short,copy_file_range:2:EIO src src2 d
  assert_status 1
  assert_stderr "fcopy: error copying 'src' to 'd/src': Input/output error"
  assert_same src2 d/src2
}

@test "copy_file_range short counts: the copy is still complete" {
  run_fault 'copy_file_range:*:short' --debug src dst
  assert_status 0
  assert_stdout "'src' -> 'dst'" "copy offload: yes, reflink: unsupported, sparse detection: no" "splice: no, read/write: no, extents shared: $(unshared_word dst)"
  assert_same src dst
  assert_calls copy_file_range -ge "$MIN_SHORT_CALLS"
}

@test "copy_file_range of odd sizes (short=1000) on a sparse file" {
  rm src
  truncate -s $((8 * MiB + 5)) src
  write_at src 1 1
  write_at src 5 2
  run_fault 'copy_file_range:*:short=1000' src dst
  assert_status 0
  assert_same src dst
  assert_equal "$(hole_map dst)" "$(hole_map src)" "data/hole map"
}

@test "copy_file_range EINTR is retried" {
  run_fault copy_file_range:1:EINTR --debug src dst
  assert_status 0
  assert_stdout "'src' -> 'dst'" "copy offload: yes, reflink: unsupported, sparse detection: no" "splice: no, read/write: no, extents shared: $(unshared_word dst)"
  assert_same src dst
  assert_calls copy_file_range -ge 2
}

@test "copy_file_range returning 0 at once: read/write copies, offload 'unknown' as cp 9.2" {
  # cp 9.2's sparse_copy leaves copy_debug.offload unknown when the
  # first copy_file_range gives 0 bytes (/proc on older kernels).
  run_fault copy_file_range:1:zero --debug src dst
  assert_status 0
  assert_stdout "'src' -> 'dst'" "copy offload: unknown, reflink: unsupported, sparse detection: no" "splice: avoided, read/write: yes, extents shared: $(unshared_word dst)"
  assert_same src dst
}

# --- splice and read/write --------------------------------------------------

@test "--reflink=never: no clone and no copy_file_range is even tried" {
  run_fault '' --reflink=never src dst
  assert_status 0
  assert_same src dst
  assert_calls ficlone -eq 0
  assert_calls copy_file_range -eq 0
  assert_calls splice -gt 0
}

@test "splice short counts: the copy is still complete" {
  run_fault 'splice:*:short' --debug --reflink=never src dst
  assert_status 0
  assert_stdout "'src' -> 'dst'" "copy offload: avoided, reflink: no, sparse detection: no" "splice: yes, read/write: no, extents shared: $(unshared_word dst)"
  assert_same src dst
  assert_calls splice -ge "$MIN_SHORT_CALLS"
}

@test "splice EINVAL on the first call: read/write takes over" {
  run_fault splice:1:EINVAL --debug --reflink=never src dst
  assert_status 0
  assert_stdout "'src' -> 'dst'" "copy offload: avoided, reflink: no, sparse detection: no" "splice: unsupported, read/write: yes, extents shared: $(unshared_word dst)"
  assert_same src dst
  assert_calls write -gt 0
}

# splice_fails_late SPEC SIDE_MESSAGE: SPEC fails a splice after bytes
# moved.  The message may name the side that failed (SIDE_MESSAGE) or the
# whole copy; either way one line, exit 1, and no read/write restart.
splice_fails_late ()
{
  run_fault "$1" --reflink=never src dst
  assert_status 1
  assert_equal "${#stderr_lines[@]}" 1 "number of stderr lines"
  [[ $stderr == "fcopy: error copying 'src' to 'dst': Input/output error" ||
     $stderr == "fcopy: $2: Input/output error" ]] || {
    echo "stderr: $stderr" >&2; false; }
  assert_calls read -eq 0
  assert_calls write -eq 0
  assert_same src.saved src
}

@test "splice EIO from the source after bytes moved: one message, exit 1" {
  # splice 1 fills the pipe from src (short), 2 empties it into dst,
  # 3 reads src again.
  splice_fails_late splice:1:short,splice:3:EIO "error reading 'src'"
}

@test "splice EIO into the destination after bytes moved: one message, exit 1" {
  splice_fails_late splice:1:short,splice:4:EIO "error writing 'dst'"
}

@test "write short counts (read/write step): the copy is still complete" {
  run_fault 'splice:1:EINVAL,write:*:short' --debug --reflink=never src dst
  assert_status 0
  assert_stdout "'src' -> 'dst'" "copy offload: avoided, reflink: no, sparse detection: no" "splice: unsupported, read/write: yes, extents shared: $(unshared_word dst)"
  assert_same src dst
  assert_calls write -ge "$MIN_SHORT_CALLS"
}

@test "write short counts with --sparse=always" {
  # zeros in the middle, so holes are made between short writes
  dd if=/dev/zero of=src bs=1M seek=1 count=1 conv=notrunc status=none
  run_fault 'write:*:short' --debug --sparse=always src dst
  assert_status 0
  [[ $output == *"sparse detection: zeros"$'\n'"splice: avoided, read/write: yes, extents shared: $(unshared_word dst)" ]] || {
    echo "debug: $output" >&2; false; }
  assert_same src dst
  assert_calls write -ge $(( (SIZE - MiB) / 4099 ))
}

@test "read short counts (read/write step): the copy is still complete" {
  run_fault 'splice:1:EINVAL,read:*:short' --reflink=never src dst
  assert_status 0
  assert_same src dst
  assert_calls read -ge "$MIN_SHORT_CALLS"
}

@test "read EIO: error reading, exit 1" {
  run_fault splice:1:EINVAL,read:1:short,read:2:EIO --reflink=never src dst
  assert_status 1
  assert_stderr "fcopy: error reading 'src': Input/output error"
  assert_calls read -eq 2
  assert_same src.saved src
}

@test "write ENOSPC: error writing, exit 1" {
  run_fault splice:1:EINVAL,write:1:ENOSPC --reflink=never src dst
  assert_status 1
  assert_stderr "fcopy: error writing 'dst': No space left on device"
  assert_calls write -eq 1
}

# --- opening the destination ------------------------------------------------

@test "the destination cannot be created: cannot create regular file" {
  # open 1 is the source, open 2 the destination.
  run_fault open:2:EACCES src dst
  assert_status 1
  assert_stderr "fcopy: cannot create regular file 'dst': Permission denied"
  assert_no_file dst
}

@test "an existing destination cannot be opened: left as it was" {
  make_random dst 1000
  cp dst dst.saved
  # open 1 is the source, open 2 makes dst with O_EXCL (EEXIST: it is
  # there), open 3 opens the dst that is there.
  run_fault open:3:EACCES src dst
  assert_status 1
  assert_stderr "fcopy: cannot create regular file 'dst': Permission denied"
  assert_same dst.saved dst
  assert_calls open -eq 3
}

@test "-f: an existing destination that cannot be opened is removed and made anew" {
  make_random dst 1000
  # As above; open 4 makes it anew.
  run_fault open:3:EACCES -f src dst
  assert_status 0
  assert_equal "$stderr" "" stderr
  assert_same src dst
  assert_calls open -eq 4
}

# --- clone (btrfs) --------------------------------------------------------

@test "btrfs: clone refused with an 'unsupported' errno: copy_file_range takes over" {
  local e
  on "$BTRFS"
  for e in EOPNOTSUPP ENOTTY EINVAL EXDEV EBADF EPERM; do
    rm -f dst
    run_fault ficlone:1:$e --debug src dst
    assert_status 0
    # On btrfs, copy_file_range shares the blocks as a clone does.
    assert_stdout "'src' -> 'dst'" "copy offload: yes, reflink: unsupported, sparse detection: no" "splice: no, read/write: no, extents shared: yes"
    assert_same src dst
    assert_calls ficlone -eq 1
  done
  # On btrfs copy_file_range clones too, if called with large chunks.
  extents_all_shared dst
  same_physical src dst
}

@test "btrfs: clone ENOSPC under auto is fatal, not a fallback" {
  on "$BTRFS"
  run_fault ficlone:1:ENOSPC src dst
  assert_status 1
  assert_equal "${#stderr_lines[@]}" 1 "number of stderr lines"
  [[ $stderr == "fcopy: "*"'dst'"*": No space left on device" ]] || {
    echo "stderr: $stderr" >&2; false; }
  assert_calls copy_file_range -eq 0
  assert_calls splice -eq 0
  assert_calls write -eq 0
}

@test "btrfs: clone EIO, EDQUOT, ENOMEM under auto are fatal too" {
  local e msg
  on "$BTRFS"
  for e in EIO EDQUOT ENOMEM; do
    case $e in
      EIO) msg="Input/output error" ;;
      EDQUOT) msg="Disk quota exceeded" ;;
      ENOMEM) msg="Cannot allocate memory" ;;
    esac
    rm -f dst
    run_fault ficlone:1:$e src dst
    assert_status 1
    assert_equal "${#stderr_lines[@]}" 1 "number of stderr lines"
    [[ $stderr == "fcopy: "*"'dst'"*": $msg" ]] || { echo "stderr: $stderr" >&2; false; }
    assert_calls copy_file_range -eq 0
  done
}

@test "btrfs: --reflink=always and clone EIO: message, new destination removed" {
  on "$BTRFS"
  run_fault ficlone:1:EIO --reflink=always src dst
  assert_status 1
  assert_stderr "fcopy: failed to clone 'dst' from 'src': Input/output error"
  assert_no_file dst
  assert_calls copy_file_range -eq 0
}

@test "btrfs: --reflink=never: no clone, no copy_file_range, nothing shared" {
  on "$BTRFS"
  run_fault '' --debug --reflink=never src dst
  assert_status 0
  assert_same src dst
  assert_calls ficlone -eq 0
  assert_calls ficlonerange -eq 0
  assert_calls copy_file_range -eq 0
  extents_none_shared dst
  no_common_physical src dst
}

@test "btrfs: --sparse=never: no clone, no copy_file_range" {
  on "$BTRFS"
  run_fault '' --sparse=never src dst
  assert_status 0
  assert_same src dst
  assert_calls ficlone -eq 0
  assert_calls copy_file_range -eq 0
  extents_none_shared dst
}
