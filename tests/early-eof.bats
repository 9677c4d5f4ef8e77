#!/usr/bin/env bats
# early-eof.bats -- a source whose data ends before its st_size: DEST ends
# where the data read ended, never padded with zeros up to st_size.
# sysfs reports st_size 4096 and no blocks for every attribute (so it
# looks sparse), /proc reports 0; a regular file may shrink while it is
# read.

load helpers

# same_as_cat FILE OPTION...: fcopy OPTION... FILE gives the bytes that
# cat gives, and no message.
same_as_cat ()
{
  local src=$1
  shift
  [[ -r $src ]] || skip_or_fail "no $src here"
  rm -f "$BATS_TEST_TMPDIR/copy" "$BATS_TEST_TMPDIR/cat"
  cat "$src" >"$BATS_TEST_TMPDIR/cat"
  run --separate-stderr fcopy "$@" "$src" "$BATS_TEST_TMPDIR/copy"
  assert_status 0
  assert_stderr
  assert_same "$BATS_TEST_TMPDIR/cat" "$BATS_TEST_TMPDIR/copy"
}

# Attributes that do not change between two reads.
SYSFS_FILES=(/sys/devices/system/cpu/online /sys/devices/system/cpu/possible
             /sys/devices/system/cpu/present
             /sys/class/net/lo/mtu /sys/class/net/lo/address)
PROC_FILES=(/proc/version /proc/filesystems /proc/sys/kernel/ostype
            /proc/sys/kernel/osrelease)

@test "sysfs attributes: the copy is what cat reads, default options" {
  for f in "${SYSFS_FILES[@]}"; do
    same_as_cat "$f"
  done
}

@test "sysfs attributes: the copy is what cat reads, --sparse=always" {
  for f in "${SYSFS_FILES[@]}"; do
    same_as_cat "$f" --sparse=always
  done
}

@test "sysfs attributes: the copy is what cat reads, --reflink=never" {
  for f in "${SYSFS_FILES[@]}"; do
    same_as_cat "$f" --reflink=never
  done
}

@test "sysfs attributes: --sparse=always --reflink=never, and --sparse=never" {
  for f in "${SYSFS_FILES[@]}"; do
    same_as_cat "$f" --sparse=always --reflink=never
    same_as_cat "$f" --sparse=never
  done
}

@test "/proc files: the copy is what cat reads, each --sparse and --reflink=never" {
  for f in "${PROC_FILES[@]}"; do
    same_as_cat "$f"
    same_as_cat "$f" --sparse=always
    same_as_cat "$f" --reflink=never
    same_as_cat "$f" --sparse=always --reflink=never
  done
}

# shrink_during_copy SRC KEEP OPTION...: copy SRC to $W/dst, the shim
# cutting SRC to KEEP bytes when fcopy opens the destination (after it
# stat'ed the source).  DEST is what was read: the first KEEP bytes.
shrink_during_copy ()
{
  local src=$1 keep=$2
  shift 2
  need_shim
  head -c "$keep" "$src" >"$BATS_TEST_TMPDIR/expected"
  rm -f "$BATS_TEST_TMPDIR/dst"
  export FCOPY_SHIM_HOOK_ON=/dst FCOPY_SHIM_HOOK="truncate -s $keep '$src'"
  run --separate-stderr fcopy_fault '' "$@" "$src" "$BATS_TEST_TMPDIR/dst"
  assert_status 1
  assert_stderr "fcopy: $src: file changed as we read it"
  assert_same "$BATS_TEST_TMPDIR/expected" "$BATS_TEST_TMPDIR/dst"
}

@test "a file that shrinks while it is read: DEST is what was read, --sparse=always" {
  cd "$BATS_TEST_TMPDIR"
  make_random src $((256 * 1024))
  shrink_during_copy src 10000 --sparse=always
}

@test "a sparse file that shrinks while it is read: DEST is what was read" {
  cd "$BATS_TEST_TMPDIR"
  make_random src $((64 * 1024))
  truncate -s 1M src
  shrink_during_copy src 10000
}

@test "a sparse file that shrinks into its hole: DEST ends at the new end" {
  cd "$BATS_TEST_TMPDIR"
  make_random src $((64 * 1024))
  truncate -s 1M src
  shrink_during_copy src $((512 * 1024)) --reflink=never
}

@test "a file that shrinks, --reflink=never --sparse=always" {
  cd "$BATS_TEST_TMPDIR"
  make_random src $((256 * 1024))
  shrink_during_copy src 4097 --reflink=never --sparse=always
}
