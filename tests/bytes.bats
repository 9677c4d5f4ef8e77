#!/usr/bin/env bats
# bytes.bats -- the copy has exactly the source's bytes, whatever the size,
# the step of the ladder that moved them and the filesystem.

load helpers

setup_file ()
{
  need_cmd strace
  # TMPFS: room for a 2 GiB copy that is all data (zeros written out).
  setup_fs_file EXT4=ext4 TMPFS=tmpfs:3G
}

# teardown_file and teardown: helpers.bash's.

# The tests on ext4 start with check_file_skip; the others need no mount.
setup ()
{
  WORK=$BATS_TEST_TMPDIR/work
  mkdir -p "$WORK"
  EWORK=
  if [[ -n ${EXT4:-} ]]; then
    EWORK=$EXT4/$BATS_TEST_NUMBER
    mkdir -p "$EWORK"
  fi
}

MiB=$((1024 * 1024))
# Empty, one byte, around the 4 KiB block and the 256 KiB read/write buffer,
# 1 MiB + 1, and a size that is a multiple of no buffer size.
SIZES="0 1 4095 4096 4097 262143 262145 $((MiB + 1)) $((3 * MiB + 12345))"

# copy_sizes DIR OPTION...: copy a random file of each size in $SIZES
# within DIR with fcopy OPTION... and compare.
copy_sizes ()
{
  local dir=$1 size
  shift
  for size in $SIZES; do
    make_random "$dir/src.$size" "$size"
    run --separate-stderr fcopy "$@" "$dir/src.$size" "$dir/dst.$size"
    [[ $status -eq 0 ]] || echo "fcopy $* failed on a file of $size bytes" >&2
    assert_status 0
    assert_equal "$stderr" "" "stderr"
    assert_equal "$(apparent_bytes "$dir/dst.$size")" "$size" "size of the copy"
    assert_same "$dir/src.$size" "$dir/dst.$size"
    rm -f "$dir/dst.$size"
  done
}

@test "assorted sizes, temporary directory, default options" {
  copy_sizes "$WORK"
}

@test "assorted sizes, temporary directory, --reflink=never" {
  copy_sizes "$WORK" --reflink=never
}

@test "assorted sizes, temporary directory, --sparse=always and never" {
  copy_sizes "$WORK" --sparse=always
  copy_sizes "$WORK" --sparse=never
}

@test "assorted sizes, ext4, default options" {
  check_file_skip
  copy_sizes "$EWORK"
}

@test "assorted sizes, ext4, --reflink=never" {
  check_file_skip
  copy_sizes "$EWORK" --reflink=never
}

@test "assorted sizes, ext4, --sparse=always and never" {
  check_file_skip
  copy_sizes "$EWORK" --sparse=always
  copy_sizes "$EWORK" --sparse=never
}

@test "empty file: an empty copy is created" {
  : >"$WORK/empty"
  run --separate-stderr fcopy "$WORK/empty" "$WORK/copy"
  assert_status 0
  [[ -f $WORK/copy && ! -s $WORK/copy ]]
}

@test "a longer existing destination is truncated to the source's size" {
  check_file_skip
  local opt
  for opt in --reflink=auto --reflink=never --sparse=always; do
    make_random "$EWORK/src" $((MiB + 1))
    make_random "$EWORK/dst" $((5 * MiB))
    run --separate-stderr fcopy $opt "$EWORK/src" "$EWORK/dst"
    assert_status 0
    assert_same "$EWORK/src" "$EWORK/dst"
  done
}

@test "/proc/self/status: copy_file_range gives 0 bytes, the copy is complete" {
  cd "$WORK"
  run --separate-stderr fcopy --debug /proc/self/status s
  assert_status 0
  assert_equal "$stderr" "" stderr
  # The copy is fcopy's own status: its first line names fcopy.
  assert_equal "$(head -n 1 s)" "$(printf 'Name:\tfcopy')" "first line"
  grep -q '^Pid:' s
  grep -q '^voluntary_ctxt_switches:' s
  # st_size is 0 there: a step that believed it would copy nothing.
  local re="^'/proc/self/status' -> 's'
copy offload: unsupported, reflink: unsupported, sparse detection: no
splice: (unsupported|avoided|no), read/write: yes, extents shared: $(unshared_word s)\$"
  [[ $output =~ $re ]] || { echo "debug: $output" >&2; false; }
}

# The 2 GiB files are compared with assert_same_sparse: cmp would read
# 2 GiB of holes, seconds of the suite's time each.

# make_big_sparse FILE: 2 GiB + 5 MiB + 12345 bytes, more than one
# copy_file_range chunk (0x7FF00000 bytes), with data at the start, across
# the 0x7FF00000 and 2 GiB offsets, and at the unaligned end.
make_big_sparse ()
{
  local f=$1 size=$((2048 * MiB + 5 * MiB + 12345))
  rm -f "$f"
  truncate -s "$size" "$f"
  write_at "$f" 0 1
  write_at "$f" 2046 3
  dd if=/dev/urandom of="$f" bs=1M count=1 seek=$((size - MiB)) \
     oflag=seek_bytes conv=notrunc status=none
  assert_equal "$(apparent_bytes "$f")" "$size" "size of the source"
}

@test "sparse file past 2 GiB on ext4 (copy_file_range)" {
  check_file_skip
  make_big_sparse "$EWORK/big"
  run --separate-stderr fcopy --debug "$EWORK/big" "$EWORK/copy"
  assert_status 0
  assert_stdout "'$EWORK/big' -> '$EWORK/copy'" "copy offload: yes, reflink: unsupported, sparse detection: SEEK_HOLE" "splice: no, read/write: no, extents shared: no"
  assert_equal "$(apparent_bytes "$EWORK/copy")" "$(apparent_bytes "$EWORK/big")" "size of the copy"
  assert_same_sparse "$EWORK/big" "$EWORK/copy"
}

@test "sparse file past 2 GiB in the temporary directory" {
  make_big_sparse "$WORK/big"
  run --separate-stderr fcopy "$WORK/big" "$WORK/copy"
  assert_status 0
  assert_equal "$(apparent_bytes "$WORK/copy")" "$(apparent_bytes "$WORK/big")" "size of the copy"
  assert_same_sparse "$WORK/big" "$WORK/copy"
}

# With SEEK_DATA made to look unsupported (the fault shim fails the first
# lseek with EINVAL), the whole 2 GiB file is one range for
# copy_file_range, holes and all: the chunk limit is really crossed.
@test "one range past 2 GiB: copy_file_range asks at most 0x7FF00000 bytes a call" {
  check_file_skip
  local dir=$TMPFS/$BATS_TEST_NUMBER
  mkdir -p "$dir"
  make_big_sparse "$dir/big"
  run --separate-stderr strace -qq -e trace=copy_file_range -o "$dir/trace" \
    env LD_PRELOAD="$FAULT_SHIM" FCOPY_FAULT=lseek:1:EINVAL \
    "$FCOPY" --debug "$dir/big" "$dir/copy"
  assert_status 0
  assert_stdout "'$dir/big' -> '$dir/copy'" "copy offload: yes, reflink: unsupported, sparse detection: no" "splice: no, read/write: no, extents shared: $(unshared_word "$dir/copy")"
  # "copy_file_range(3, [0] => [N], 4, [0] => [N], LEN, 0) = MOVED"
  local lens
  lens=$(sed -n 's/.*, \([0-9]*\), 0) = [0-9]*$/\1/p' "$dir/trace")
  echo "requested lengths: $lens" >&2
  (( $(wc -l <<<"$lens") >= 2 ))
  for len in $lens; do
    (( len <= 0x7FF00000 )) || { echo "a call asked for $len bytes" >&2; false; }
  done
  assert_equal "$(head -n 1 <<<"$lens")" $((0x7FF00000)) "first request"
  cmp "$dir/big" "$dir/copy"
  rm -rf "$dir"
}

# fcopy reserves a large destination's blocks (fallocate KEEP_SIZE) before
# copying: the copy must end up allocating what the source does, no more.
@test "ext4: a preallocated copy allocates exactly what the source does" {
  check_file_skip
  head -c $((5 * MiB + 12345)) /dev/urandom > "$EWORK/src"
  run --separate-stderr fcopy "$EWORK/src" "$EWORK/dst"
  assert_status 0
  cmp "$EWORK/src" "$EWORK/dst"
  sync
  assert_equal "$(alloc_bytes "$EWORK/dst")" "$(alloc_bytes "$EWORK/src")" "allocated bytes"
}

@test "ext4: a copy that fails midway gives back the blocks reserved for the rest" {
  check_file_skip
  head -c $((8 * MiB)) /dev/urandom > "$EWORK/src"
  run --separate-stderr fcopy_fault copy_file_range:1:short=1048576,copy_file_range:2:EIO \
    "$EWORK/src" "$EWORK/dst"
  assert_status 1
  assert_stderr "fcopy: error copying '$EWORK/src' to '$EWORK/dst': Input/output error"
  assert_equal "$(apparent_bytes "$EWORK/dst")" $MiB "size of the partial copy"
  sync
  local alloc
  alloc=$(alloc_bytes "$EWORK/dst")
  (( alloc <= MiB )) || { echo "partial copy of 1 MiB allocates $alloc bytes" >&2; false; }
}
