#!/usr/bin/env bats
# sparse.bats -- holes: kept by default (SEEK_DATA/SEEK_HOLE), filled by
# --sparse=never, made from runs of written zeros by --sparse=always.
# On ext4 and tmpfs, which both report holes and cannot clone, so the data
# really goes through the copying steps.

load helpers

setup_file ()
{
  setup_fs_file EXT4=ext4 TMPFS=tmpfs:256M
}

# teardown_file, setup and teardown: helpers.bash's.

MiB=$((1024 * 1024))

# workdir FS: a fresh directory for this test on FS.
workdir ()
{
  local dir=$1/$BATS_TEST_NUMBER
  mkdir -p "$dir"
  echo "$dir"
}

# big_sparse_copy MNT: 2 GiB apparent, 16 MiB of data in three extents
# (4 MiB at 0, 4 MiB at 700 MiB, 8 MiB ending at EOF).  The copy allocates
# no more than the source (+1 MiB of slack for metadata), has the same
# data/hole map and the same bytes.
big_sparse_copy ()
{
  local dir
  dir=$(workdir "$1")
  truncate -s 2G "$dir/src"
  write_at "$dir/src" 0 4
  write_at "$dir/src" 700 4
  write_at "$dir/src" 2040 8

  run --separate-stderr fcopy --debug "$dir/src" "$dir/dst"
  assert_status 0
  assert_stdout "'$dir/src' -> '$dir/dst'" "copy offload: yes, reflink: unsupported, sparse detection: SEEK_HOLE" "splice: no, read/write: no, extents shared: $(unshared_word "$dir/dst")"
  assert_equal "$(apparent_bytes "$dir/dst")" $((2048 * MiB)) "size of the copy"
  local src_alloc dst_alloc
  src_alloc=$(alloc_bytes "$dir/src")
  dst_alloc=$(alloc_bytes "$dir/dst")
  (( dst_alloc <= src_alloc + MiB )) || {
    echo "copy allocates $dst_alloc bytes, source $src_alloc" >&2; false; }
  assert_equal "$(hole_map "$dir/dst")" "$(hole_map "$dir/src")" "data/hole map"
  assert_same_sparse "$dir/src" "$dir/dst"
}

@test "ext4: 2 GiB file with 16 MiB of data keeps its holes" {
  big_sparse_copy "$EXT4"
}

@test "tmpfs: 2 GiB file with 16 MiB of data keeps its holes" {
  big_sparse_copy "$TMPFS"
}

# trailing_hole MNT: a hole at the end is kept and the size is exact.
trailing_hole ()
{
  local dir
  dir=$(workdir "$1")
  truncate -s $((16 * MiB + 3)) "$dir/src"
  write_at "$dir/src" 1 1
  run --separate-stderr fcopy "$dir/src" "$dir/dst"
  assert_status 0
  assert_equal "$(apparent_bytes "$dir/dst")" $((16 * MiB + 3)) "size of the copy"
  assert_equal "$(hole_map "$dir/dst")" "$(hole_map "$dir/src")" "data/hole map"
  assert_same "$dir/src" "$dir/dst"
}

@test "ext4: holes at both ends are kept, size exact" {
  trailing_hole "$EXT4"
}

@test "tmpfs: holes at both ends are kept, size exact" {
  trailing_hole "$TMPFS"
}

# sparse_never MNT: 64 MiB with 1 MiB of data: the copy allocates it all.
sparse_never ()
{
  local dir
  dir=$(workdir "$1")
  truncate -s 64M "$dir/src"
  write_at "$dir/src" 10 1
  (( $(alloc_bytes "$dir/src") < 8 * MiB ))   # the source is sparse

  run --separate-stderr fcopy --debug --sparse=never "$dir/src" "$dir/dst"
  assert_status 0
  local re="^'$dir/src' -> '$dir/dst'
copy offload: avoided, reflink: avoided, sparse detection: no
splice: [a-z]+, read/write: [a-z]+, extents shared: $(unshared_word "$dir/dst")\$"
  [[ $output =~ $re ]] || { echo "debug: $output" >&2; false; }
  local alloc
  alloc=$(alloc_bytes "$dir/dst")
  (( alloc >= 64 * MiB )) || { echo "copy allocates only $alloc bytes" >&2; false; }
  assert_equal "$(hole_map "$dir/dst")" "$(printf 'data 0 %d\nsize %d' $((64 * MiB)) $((64 * MiB)))" "data/hole map"
  assert_same "$dir/src" "$dir/dst"
}

@test "ext4: --sparse=never allocates every block" {
  sparse_never "$EXT4"
}

@test "tmpfs: --sparse=never allocates every block" {
  sparse_never "$TMPFS"
}

# sparse_always MNT: written zeros (no holes) become holes.
sparse_always ()
{
  local dir
  dir=$(workdir "$1")
  write_at "$dir/src" 0 1
  dd if=/dev/zero of="$dir/src" bs=1M seek=1 count=6 conv=notrunc status=none
  write_at "$dir/src" 7 1
  # and 2 MiB of zeros at the end, so the last thing written is a hole
  dd if=/dev/zero of="$dir/src" bs=1M seek=8 count=2 conv=notrunc status=none
  (( $(alloc_bytes "$dir/src") >= 10 * MiB ))   # the zeros are real blocks

  run --separate-stderr fcopy --debug --sparse=always "$dir/src" "$dir/dst"
  assert_status 0
  local re="^'$dir/src' -> '$dir/dst'
copy offload: avoided, reflink: [a-z]+, sparse detection: zeros
splice: avoided, read/write: yes, extents shared: $(unshared_word "$dir/dst")\$"
  [[ $output =~ $re ]] || { echo "debug: $output" >&2; false; }
  assert_equal "$(apparent_bytes "$dir/dst")" $((10 * MiB)) "size of the copy"
  local alloc data
  alloc=$(alloc_bytes "$dir/dst")
  data=$(data_bytes "$dir/dst")
  (( alloc <= 3 * MiB )) || { echo "copy allocates $alloc bytes" >&2; false; }
  (( data <= 3 * MiB )) || { hole_map "$dir/dst" >&2; false; }
  assert_same "$dir/src" "$dir/dst"
}

@test "ext4: --sparse=always turns written zeros into holes" {
  sparse_always "$EXT4"
}

@test "tmpfs: --sparse=always turns written zeros into holes" {
  sparse_always "$TMPFS"
}

@test "ext4: a file without holes is copied whole, no hole made" {
  local dir
  dir=$(workdir "$EXT4")
  write_at "$dir/src" 0 2
  dd if=/dev/zero of="$dir/src" bs=1M seek=2 count=2 conv=notrunc status=none
  run --separate-stderr fcopy --debug "$dir/src" "$dir/dst"
  assert_status 0
  assert_stdout "'$dir/src' -> '$dir/dst'" "copy offload: yes, reflink: unsupported, sparse detection: no" "splice: no, read/write: no, extents shared: $(unshared_word "$dir/dst")"
  assert_equal "$(hole_map "$dir/dst")" "$(hole_map "$dir/src")" "data/hole map"
  assert_same "$dir/src" "$dir/dst"
}
