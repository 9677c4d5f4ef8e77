#!/usr/bin/env bats
# cross-fs.bats -- source and destination on different filesystems: clone
# gives EXDEV, copy_file_range gives EXDEV between filesystem types (Linux
# >= 5.19), and the bytes still arrive through splice or read/write.

load helpers

setup_file ()
{
  setup_fs_file EXT4=ext4 TMPFS=tmpfs:128M BTRFS=btrfs XFS=xfs
}

# teardown_file and teardown: helpers.bash's.

setup ()
{
  local m
  check_file_skip
  for m in "$EXT4" "$TMPFS" "$BTRFS" "$XFS"; do
    mkdir -p "$m/$BATS_TEST_NUMBER"
  done
}

MiB=$((1024 * 1024))

# across FROM TO: copy a 3 MiB + 12345 byte file from FROM to TO.
across ()
{
  local src=$1/$BATS_TEST_NUMBER/src dst=$2/$BATS_TEST_NUMBER/dst
  make_random "$src" $((3 * MiB + 12345))
  run --separate-stderr fcopy --debug "$src" "$dst"
  assert_status 0
  assert_equal "$stderr" "" stderr
  local re="^'$src' -> '$dst'
copy offload: unsupported, reflink: unsupported, sparse detection: no
splice: (yes, read/write: no|(unsupported|avoided|no), read/write: yes), extents shared: $(unshared_word "$dst")\$"
  [[ $output =~ $re ]] || { echo "debug: $output" >&2; false; }
  assert_same "$src" "$dst"
}

@test "ext4 -> tmpfs" {
  across "$EXT4" "$TMPFS"
}

@test "tmpfs -> ext4" {
  across "$TMPFS" "$EXT4"
}

@test "btrfs -> xfs" {
  across "$BTRFS" "$XFS"
}

@test "xfs -> btrfs" {
  across "$XFS" "$BTRFS"
}

@test "ext4 -> tmpfs with --reflink=never" {
  local src=$EXT4/$BATS_TEST_NUMBER/src dst=$TMPFS/$BATS_TEST_NUMBER/dst
  make_random "$src" $((MiB + 1))
  run --separate-stderr fcopy --reflink=never "$src" "$dst"
  assert_status 0
  assert_same "$src" "$dst"
}

@test "btrfs -> xfs with --reflink=always: Invalid cross-device link" {
  local src=$BTRFS/$BATS_TEST_NUMBER/src dst=$XFS/$BATS_TEST_NUMBER/dst
  make_random "$src" $((MiB + 1))
  run --separate-stderr fcopy --reflink=always "$src" "$dst"
  assert_status 1
  assert_stderr "fcopy: failed to clone '$dst' from '$src': Invalid cross-device link"
  assert_no_file "$dst"
}

@test "xfs -> btrfs with --reflink=always keeps an existing destination" {
  local src=$XFS/$BATS_TEST_NUMBER/src dst=$BTRFS/$BATS_TEST_NUMBER/dst
  make_random "$src" $((MiB + 1))
  make_random "$dst" 5000
  cp "$dst" "$BATS_TEST_TMPDIR/saved"
  run --separate-stderr fcopy --reflink=always "$src" "$dst"
  assert_status 1
  assert_stderr "fcopy: failed to clone '$dst' from '$src': Invalid cross-device link"
  assert_same "$BATS_TEST_TMPDIR/saved" "$dst"
}

@test "sparse ext4 -> tmpfs keeps the holes" {
  local src=$EXT4/$BATS_TEST_NUMBER/src dst=$TMPFS/$BATS_TEST_NUMBER/dst
  truncate -s 96M "$src"
  write_at "$src" 0 1
  write_at "$src" 50 2
  write_at "$src" 95 1
  run --separate-stderr fcopy --debug "$src" "$dst"
  assert_status 0
  [[ $output == *", sparse detection: SEEK_HOLE"$'\n'"splice: "* ]] || { echo "debug: $output" >&2; false; }
  assert_equal "$(hole_map "$dst")" "$(hole_map "$src")" "data/hole map"
  (( $(alloc_bytes "$dst") <= 5 * MiB ))
  assert_same "$src" "$dst"
}

@test "several files from two filesystems into a directory on a third" {
  local a=$EXT4/$BATS_TEST_NUMBER/a b=$BTRFS/$BATS_TEST_NUMBER/b d=$XFS/$BATS_TEST_NUMBER
  make_random "$a" 70000
  make_random "$b" $((2 * MiB + 3))
  run --separate-stderr fcopy "$a" "$b" "$d"
  assert_status 0
  assert_same "$a" "$d/a"
  assert_same "$b" "$d/b"
}
