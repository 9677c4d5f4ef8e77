#!/usr/bin/env bats
# dedupe-errors.bats -- fcopy --dedupe where the kernel says no: a
# filesystem that cannot share extents (ext4, tmpfs), a pair across two
# filesystems, an immutable destination, a btrfs pair with nodatacow on one
# side, an active swap file, someone else's file; and where it says yes
# although fcopy is not root (the files' owner, read-only opens).  Each
# failure: one message, exit 2, DST's bytes and mtime unchanged.  Injected
# FIDEDUPERANGE failures (tests/fault-shim.c) too.

load helpers

setup_file ()
{
  setup_fs_file EXT4=ext4 TMPFS=tmpfs:64M BTRFS=btrfs XFS=xfs
}

# teardown_file: helpers.bash's.

MiB=$((1024 * 1024))
SIZE=$((3 * MiB + 12345))
OLD='2001-02-03 04:05:06.123456789'
NOBODY=65534

setup ()
{
  check_file_skip
  export FCOPY_SHIM_LOG=$BATS_TEST_TMPDIR/shim.log
}

teardown ()
{
  local m f
  cd /
  # An attribute or a swap file left by a failed test would keep the
  # files, or the whole mount, from going away.
  f=${SWAPFILE:-}
  if [[ -n $f ]] && awk -v f="$f" '$1 == f { found = 1 } END { exit !found }' /proc/swaps; then
    swapoff "$f"
  fi
  for m in "${EXT4:-}" "${BTRFS:-}" "${XFS:-}"; do
    [[ -n $m && -d $m/$BATS_TEST_NUMBER ]] || continue
    find "$m/$BATS_TEST_NUMBER" -type f -exec chattr -i -a {} + 2>/dev/null || true
  done
  teardown_fs_test
}

# on MNT: work in a fresh directory on MNT, with an identical pair a, b
# that shares nothing, b's mtime set to OLD, and b's state in B_STATE.
on ()
{
  mkdir -p "$1/$BATS_TEST_NUMBER"
  cd "$1/$BATS_TEST_NUMBER"
  make_identical a b "$SIZE"
  touch -d "$OLD" b
  B_STATE=$(file_state b)
}

# assert_b_unchanged: b has the bytes and the mtime it had.
assert_b_unchanged ()
{
  assert_equal "$(file_state b)" "$B_STATE" "DST's content and mtime"
}

# --- filesystems that cannot share extents -----------------------------------

cannot_share ()
{
  on "$1"
  run --separate-stderr fcopy --dedupe a b
  assert_status 2
  assert_stderr "fcopy: cannot deduplicate 'b' from 'a': Operation not supported (the file system cannot share extents)"
  assert_equal "$output" "" stdout
  assert_b_unchanged
  assert_same a b

  run --separate-stderr fcopy --dedupe -v a b
  assert_status 2
  assert_stdout "'a' -> 'b': failed" "$(dedupe_stats 1 0 0 0 0 1 0)"
  assert_b_unchanged
}

@test "ext4: Operation not supported (the file system cannot share extents), exit 2" {
  cannot_share "$EXT4"
}

@test "tmpfs: Operation not supported (the file system cannot share extents), exit 2" {
  cannot_share "$TMPFS"
}

@test "a pair across two filesystems (btrfs, xfs): different file systems, exit 2" {
  on "$BTRFS"
  local a=$BTRFS/$BATS_TEST_NUMBER/a
  mkdir -p "$XFS/$BATS_TEST_NUMBER"
  local x=$XFS/$BATS_TEST_NUMBER/b
  cp "$a" "$x"
  touch -d "$OLD" "$x"
  local x_state
  x_state=$(file_state "$x")

  run --separate-stderr fcopy --dedupe "$a" "$x"
  assert_status 2
  assert_stderr "fcopy: '$a' and '$x' are on different file systems"
  assert_equal "$output" "" stdout
  assert_equal "$(file_state "$x")" "$x_state" "DST's content and mtime"

  run --separate-stderr fcopy --dedupe "$x" "$a"
  assert_status 2
  assert_stderr "fcopy: '$x' and '$a' are on different file systems"
}

# --- the kernel refuses the pair ---------------------------------------------

@test "btrfs: an immutable DST: Operation not permitted, exit 2, DST unchanged" {
  on "$BTRFS"
  chattr +i b
  run --separate-stderr fcopy --dedupe a b
  chattr -i b
  assert_status 2
  assert_stderr "fcopy: cannot deduplicate 'b' from 'a': Operation not permitted (an immutable file, or not yours)"
  assert_equal "$output" "" stdout
  assert_b_unchanged
  no_common_physical a b
}

@test "btrfs: nodatacow on one side only: Invalid argument, exit 2" {
  on "$BTRFS"
  rm b
  touch b
  chattr +C b
  dd if=a of=b bs=1M status=none
  lsattr b | grep -q '^[^ ]*C' || { echo "b is not nodatacow" >&2; false; }
  touch -d "$OLD" b
  B_STATE=$(file_state b)
  run --separate-stderr fcopy --dedupe a b
  assert_status 2
  assert_stderr "fcopy: cannot deduplicate 'b' from 'a': Invalid argument (nodatacow on one side only, or an unaligned range)"
  assert_b_unchanged
  no_common_physical a b
}

@test "btrfs: an active swap file: Text file busy, exit 2" {
  need_cmd mkswap swapon swapoff
  on "$BTRFS"
  rm a b
  # A btrfs swap file must be nodatacow; so must its partner, or the pair
  # fails with EINVAL before the swap check.
  touch a b
  chattr +C a b
  dd if=/dev/zero of=b bs=1M count=32 status=none
  chmod 600 b
  mkswap b >/dev/null
  SWAPFILE=$PWD/b
  swapon b || skip_or_fail "swapon refused a swap file on btrfs"
  dd if=b of=a bs=1M status=none
  run --separate-stderr fcopy --dedupe a b
  swapoff b
  assert_status 2
  assert_stderr "fcopy: cannot deduplicate 'b' from 'a': Text file busy (a swap file)"
  no_common_physical a b
}

# --- not root ----------------------------------------------------------------

# fcopy_as_nobody ARG...: run fcopy as uid/gid 65534 with no groups.  The
# test directory's ancestors need not be searchable: names are relative to
# the working directory.
fcopy_as_nobody ()
{
  setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups -- \
    bash -c 'exec -a fcopy "$0" "$@"' "$(runnable_fcopy)" "$@"
}

# as_owner MODE: a and b belong to nobody with MODE, in a directory that
# nobody can search but not write.
as_owner ()
{
  need_cmd setpriv
  on "$BTRFS"
  chown $NOBODY:$NOBODY a b
  chmod "$1" a b
  chmod 755 .
  B_STATE=$(file_state b)
  run --separate-stderr fcopy_as_nobody --dedupe -v a b
  assert_status 0
  assert_stdout "'a' -> 'b': deduplicated $SIZE bytes" \
    "$(dedupe_stats 1 1 0 0 0 0 "$SIZE")"
  assert_equal "$stderr" "" stderr
  assert_b_unchanged
  assert_same a b
  extents_all_shared b
  same_physical a b
}

@test "btrfs: the files' unprivileged owner can deduplicate them" {
  as_owner 644
}

@test "btrfs: ... even read-only files (the opens are read-only)" {
  as_owner 444
}

@test "btrfs: not the owner, no write permission: Operation not permitted, exit 2" {
  need_cmd setpriv
  on "$BTRFS"
  chmod 644 a b
  chmod 755 .
  run --separate-stderr fcopy_as_nobody --dedupe a b
  assert_status 2
  assert_stderr "fcopy: cannot deduplicate 'b' from 'a': Operation not permitted (an immutable file, or not yours)"
  assert_b_unchanged
  no_common_physical a b
}

@test "btrfs: an unreadable SRC: cannot open for reading, exit 2" {
  need_cmd setpriv
  on "$BTRFS"
  chown $NOBODY:$NOBODY b
  chmod 600 a
  chmod 755 .
  B_STATE=$(file_state b)
  run --separate-stderr fcopy_as_nobody --dedupe a b
  assert_status 2
  assert_stderr "fcopy: cannot open 'a' for reading: Permission denied"
  assert_b_unchanged
  no_common_physical a b
}

# --- injected failures -------------------------------------------------------

@test "btrfs: a read error while comparing: error reading, exit 2, only the 0-byte probe" {
  need_shim
  on "$BTRFS"
  run --separate-stderr fcopy_fault 'pread:1:EIO,read:1:EIO' --dedupe a b
  assert_status 2
  # whichever file it reads first
  [[ $stderr == "fcopy: error reading 'a': Input/output error" ||
     $stderr == "fcopy: error reading 'b': Input/output error" ]] || {
    echo "stderr: $stderr" >&2; false; }
  # Only the request for 0 bytes that fcopy makes before reading, which
  # shares nothing (it asks whether the kernel can do the pair at all).
  assert_equal "$(shim_count "$FCOPY_SHIM_LOG" fideduperange)" 1 "fideduperange calls"
  assert_b_unchanged
  no_common_physical a b
}

@test "btrfs: FIDEDUPERANGE fails with EIO: one message, exit 2, nothing shared" {
  need_shim
  on "$BTRFS"
  run --separate-stderr fcopy_fault fideduperange:1:EIO --dedupe a b
  assert_status 2
  assert_equal "${#stderr_lines[@]}" 1 "number of stderr lines"
  # The message for an errno without an explanation of its own.
  [[ $stderr == "fcopy: cannot deduplicate 'b' from 'a': Input/output error" ||
     $stderr == "fcopy: cannot deduplicate 'b' from 'a': Input/output error ("*")" ]] || {
    echo "stderr: $stderr" >&2; false; }
  assert_equal "$output" "" stdout
  assert_equal "$(shim_count "$FCOPY_SHIM_LOG" fideduperange)" 1 "fideduperange calls"
  assert_b_unchanged
  no_common_physical a b
}

@test "btrfs: FIDEDUPERANGE EIO on the 1st pair does not stop the 2nd" {
  need_shim
  on "$BTRFS"
  mkdir s d
  mv a s/a
  mv b d/a
  make_identical s/c d/c "$SIZE"
  run --separate-stderr fcopy_fault fideduperange:1:EIO --dedupe --stats s/a s/c d
  assert_status 2
  assert_equal "${#stderr_lines[@]}" 1 "number of stderr lines"
  [[ $stderr == "fcopy: cannot deduplicate 'd/a' from 's/a': Input/output error"* ]] || {
    echo "stderr: $stderr" >&2; false; }
  assert_stdout "$(dedupe_stats 2 1 0 0 0 1 "$SIZE")"
  no_common_physical s/a d/a
  same_physical s/c d/c
}

@test "btrfs: a FIDEDUPERANGE that dedupes 0 bytes ends the loop" {
  need_shim
  on "$BTRFS"
  # 'zero': the call returns 0 and leaves bytes_deduped and status as
  # fcopy set them.  fcopy must not ask again forever.
  run --separate-stderr timeout 30 env LD_PRELOAD="$FAULT_SHIM" \
    FCOPY_FAULT='fideduperange:*:zero' bash -c 'exec -a fcopy "$0" "$@"' \
    "$FCOPY" --dedupe a b
  [[ $status -ne 124 ]] || { echo "fcopy still looping after 30 s" >&2; false; }
  assert_status 2
  assert_equal "${#stderr_lines[@]}" 1 "number of stderr lines"
  [[ $stderr == "fcopy: "*"'b'"* ]] || { echo "stderr: $stderr" >&2; false; }
  # The 0-byte probe before reading, then one real request.
  assert_equal "$(shim_count "$FCOPY_SHIM_LOG" fideduperange)" 2 "fideduperange calls"
  assert_b_unchanged
}
