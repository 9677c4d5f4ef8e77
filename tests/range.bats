#!/usr/bin/env bats
# range.bats -- range mode: --src-offset, --dst-offset, --length for plain
# copies, clones (--reflink=always: FICLONERANGE) and --dedupe.  The
# destination keeps every byte outside the range.

load helpers

setup_file ()
{
  setup_fs_file BTRFS=btrfs EXT4=ext4
}

# teardown_file and teardown: helpers.bash's.

setup ()
{
  check_file_skip
  B=$BTRFS/$BATS_TEST_NUMBER
  E=$EXT4/$BATS_TEST_NUMBER
  mkdir -p "$B" "$E"
  cd "$B"
}

KiB=1024

# physical_of FILE BLOCK: the physical block that holds logical BLOCK.
physical_of ()
{
  extent_list "$1" | awk -v b="$2" '
    $1 <= b && b < $1 + $3 { print $2 + (b - $1); found = 1 }
    END { exit !found }'
}

# A 1 MiB source and a 256 KiB destination of other random bytes.
make_pair ()
{
  head -c $((1024 * KiB)) /dev/urandom > src
  head -c $((256 * KiB)) /dev/urandom > dst
  cp dst dst.orig
}

@test "copy a range into the middle of an existing file; the rest is kept" {
  make_pair
  run --separate-stderr fcopy --src-offset=100 --dst-offset=5000 --length=3000 src dst
  assert_status 0
  cmp -n 3000 -i 100:5000 src dst
  cmp -n 5000 dst dst.orig
  cmp -i 8000:8000 dst dst.orig
  assert_equal "$(stat -c %s dst)" $((256 * KiB)) "size of dst"
}

@test "the range may extend the destination and create it" {
  make_pair
  run --separate-stderr fcopy --src-offset=1K --dst-offset=300K --length=2K src dst
  assert_status 0
  assert_equal "$(stat -c %s dst)" $((302 * KiB)) "size of dst"
  cmp -n $((2 * KiB)) -i $KiB:$((300 * KiB)) src dst
  cmp -n $((256 * KiB)) dst dst.orig
  run --separate-stderr fcopy --dst-offset=10 --length=5 src new
  assert_status 0
  assert_equal "$(stat -c %s new)" 15 "size of a new dst"
  cmp -n 5 -i 0:10 src new
}

@test "ext4: copy a range (copy_file_range), the rest is kept" {
  cd "$E"
  make_pair
  run --separate-stderr fcopy --debug --src-offset=77 --dst-offset=99 --length=100000 src dst
  assert_status 0
  assert_stdout "'src' -> 'dst'" "copy offload: yes, reflink: avoided, sparse detection: no" "splice: no, read/write: no, extents shared: unknown"
  cmp -n 100000 -i 77:99 src dst
  cmp -n 99 dst dst.orig
  cmp -i 100099:100099 dst dst.orig
}

@test "the read/write step honours the range, and writes zeros over old bytes" {
  cd "$E"
  make_pair
  # Zeros in the middle of the range: --sparse=always must not skip them
  # (that would leave the destination's old bytes there).
  dd if=/dev/zero of=src bs=1K seek=20 count=16 conv=notrunc status=none
  run --separate-stderr fcopy_fault splice:*:EINVAL --reflink=never --sparse=always --debug \
    --src-offset=77 --dst-offset=99 --length=100000 src dst
  assert_status 0
  assert_stdout "'src' -> 'dst'" "copy offload: avoided, reflink: no, sparse detection: no" "splice: unsupported, read/write: yes, extents shared: unknown"
  cmp -n 100000 -i 77:99 src dst
  cmp -n 99 dst dst.orig
  cmp -i 100099:100099 dst dst.orig
}

@test "same file, ranges apart: copied; ranges overlapping: refused, nothing written" {
  make_pair
  cp src src.orig
  run --separate-stderr fcopy --src-offset=0 --dst-offset=512K --length=4096 src src
  assert_status 0
  cmp -n 4096 -i 0:$((512 * KiB)) src src
  cmp -n $((512 * KiB)) src src.orig
  cp src src.before
  run --separate-stderr fcopy --src-offset=0 --dst-offset=1000 --length=4096 src src
  assert_status 1
  assert_stderr "fcopy: 'src' and 'src' are the same file and the ranges overlap"
  cmp src src.before
}

@test "a source range past the end copies what exists and -v says so" {
  make_pair
  run --separate-stderr fcopy -v --src-offset=$((1024 * KiB - 10)) --length=100 src dst
  assert_status 0
  assert_stdout "'src' ends at byte 1048576: copying 10 of the 100 bytes asked" \
                "'src' -> 'dst'"
  cmp -n 10 -i $((1024 * KiB - 10)):0 src dst
  cmp -i 10:10 dst dst.orig
}

@test "btrfs: --reflink=always clones an aligned range (FICLONERANGE)" {
  make_pair
  run --separate-stderr fcopy --reflink=always --debug --src-offset=64K --dst-offset=128K --length=64K src dst
  assert_status 0
  assert_stdout "'src' -> 'dst'" "copy offload: unknown, reflink: yes, sparse detection: unknown" "splice: no, read/write: no, extents shared: unknown"
  cmp -n $((64 * KiB)) -i $((64 * KiB)):$((128 * KiB)) src dst
  cmp -n $((128 * KiB)) dst dst.orig
  sync
  # dst block 32 (128 KiB) is src block 16 (64 KiB): the same disk block.
  assert_equal "$(physical_of dst 32)" "$(physical_of src 16)" "physical block"
  assert_equal "$(physical_of dst 47)" "$(physical_of src 31)" "physical block"
}

@test "btrfs: --reflink=always with an unaligned range fails, dst unchanged" {
  make_pair
  run --separate-stderr fcopy --reflink=always --src-offset=100 --length=8192 src dst
  assert_status 1
  assert_stderr "fcopy: failed to clone 'dst' from 'src' (the offsets and length must be multiples of the block size, 4096 bytes, but for a range that ends at the end of both files): Invalid argument"
  cmp dst dst.orig
}

@test "ext4: --reflink=always range: not supported, dst unchanged" {
  cd "$E"
  make_pair
  run --separate-stderr fcopy --reflink=always --length=4096 src dst
  assert_status 1
  assert_stderr "fcopy: failed to clone 'dst' from 'src': Operation not supported"
  cmp dst dst.orig
}

@test "btrfs: --dedupe of one range shares just that range" {
  head -c $((1024 * KiB)) /dev/urandom > src
  { head -c $((64 * KiB)) /dev/urandom; head -c $((512 * KiB)) src; } > dst
  sync
  [[ $(physical_of dst 16) != "$(physical_of src 0)" ]]
  run --separate-stderr fcopy --dedupe --src-offset=0 --dst-offset=64K --length=512K src dst
  assert_status 0
  sync
  assert_equal "$(physical_of dst 16)" "$(physical_of src 0)" "physical block"
  assert_equal "$(physical_of dst 143)" "$(physical_of src 127)" "physical block"
  [[ $(physical_of dst 0) != "$(physical_of src 0)" ]]
}

@test "btrfs: --dedupe of ranges that differ shares nothing, exit 1" {
  make_pair
  run --separate-stderr fcopy --dedupe --src-offset=0 --dst-offset=0 --length=64K src dst
  assert_status 1
  assert_stderr "fcopy: 'src' and 'dst' differ"
  cmp dst dst.orig
  run --separate-stderr fcopy --dedupe --src-offset=0 --dst-offset=200K --length=64K src dst
  assert_status 2
  assert_stderr "fcopy: the range goes past the end of 'dst' (262144 bytes)"
}

@test "sizes: suffixes work, bad values are usage errors" {
  head -c 5000 /dev/urandom > src
  run --separate-stderr fcopy --length=1K src out
  assert_status 0
  assert_equal "$(stat -c %s out)" 1024 "1K"
  run --separate-stderr fcopy --length=2KB src out2
  assert_status 0
  assert_equal "$(stat -c %s out2)" 2000 "2KB"
  run --separate-stderr fcopy --length=-1 src out3
  assert_status 1
  assert_stderr "fcopy: invalid --length '-1'" "Try 'fcopy --help' for more information."
  run --separate-stderr fcopy --src-offset=99E src out3
  assert_status 1
  assert_stderr "fcopy: invalid --src-offset '99E': Value too large for defined data type" \
                "Try 'fcopy --help' for more information."
  run --separate-stderr fcopy --dedupe --dst-offset=1x src out
  assert_status 2
  assert_stderr "fcopy: invalid --dst-offset '1x'" "Try 'fcopy --help' for more information."
  [[ ! -e out3 ]]
}

@test "a FIFO with --src-offset: cannot seek, exit 1, no DEST made" {
  mkfifo p
  # Nothing would write: fcopy must refuse without reading (or waiting).
  run --separate-stderr timeout 20 bash -c 'exec -a fcopy "$0" "$@"' \
    "$FCOPY" --src-offset=1 p out
  assert_status 1
  assert_stderr "fcopy: cannot seek in 'p': Illegal seek"
  assert_no_file out
}

@test "a FIFO or a /proc file in range mode: read to its end, up to --length" {
  mkfifo p
  (timeout 20 sh -c "printf 'hello world' >p") &
  run --separate-stderr timeout 20 bash -c 'exec -a fcopy "$0" "$@"' \
    "$FCOPY" --length=5 p out
  wait
  assert_status 0
  assert_equal "$(cat out)" hello "out"
  run --separate-stderr fcopy --length=4 /proc/self/status out2
  assert_status 0
  assert_equal "$(cat out2)" Name "out2"
}
