#!/usr/bin/env bats
# verify.bats -- --verify: each copy is read back from the disk and
# compared with its source, each clone is checked by its extent map; a
# copy that fails is an error, and a file made for it is taken back.

bats_require_minimum_version 1.5.0
load helpers

setup_file ()
{
  need_cmd python3
  need_cmd strace
  setup_fs_file TMPFS=tmpfs:64M BTRFS=btrfs
}

setup ()
{
  setup_fs_test "$TMPFS"
  export FCOPY_SHIM_LOG=$BATS_TEST_TMPDIR/shim.log
}

# after_open_of_a TRACE: the lines of strace's TRACE from fcopy's open
# of "a" on: the loader's own reads come before.
after_open_of_a ()
{
  sed -n '/openat(AT_FDCWD, "a"/,$p' "$1"
}

# json_key KEY: KEY of the one JSON object in $output.
json_key ()
{
  python3 -c 'import json, sys; print(json.loads(sys.argv[1])[sys.argv[2]])' \
    "$output" "$1"
}

@test "tmpfs: a copy is read back: verified data, and the bytes are the source's" {
  head -c 300000 /dev/urandom >a
  run --separate-stderr fcopy --verify --debug=json a b
  assert_status 0
  assert_equal "$(json_key verified)" "data" "how it was verified"
  assert_equal "$(json_key ok)" "True" "ok"
  assert_same a b
}

@test "the copy is synced and dropped from the cache before it is read back" {
  head -c 300000 /dev/urandom >a
  strace -f -o trace -e trace=openat,fdatasync,fadvise64,pread64 \
    "$FCOPY" --verify a b
  # The order: fdatasync of b, DONTNEED of b, then the reads.
  run grep -E -m3 'fdatasync|fadvise64|pread64' <(after_open_of_a trace)
  [[ ${lines[0]} == *fdatasync\(* ]] || { echo "${lines[*]}"; false; }
  [[ ${lines[1]} == *fadvise64\(*POSIX_FADV_DONTNEED* ]] || { echo "${lines[*]}"; false; }
  [[ ${lines[2]} == *pread64\(* ]] || { echo "${lines[*]}"; false; }
  assert_same a b
}

@test "without --verify nothing is read back" {
  head -c 300000 /dev/urandom >a
  strace -f -o trace -e trace=openat,fdatasync,fadvise64,pread64 \
    "$FCOPY" a b
  run grep -cE 'fdatasync|fadvise64|pread64' <(after_open_of_a trace)
  assert_equal "$output" "0" "calls of --verify without it"
}

@test "a copy that reads back short differs: an error, and the file is taken back" {
  head -c 300000 /dev/urandom >a
  # The first pread is the source's, the second the copy's: it gives EOF.
  run --separate-stderr fcopy_fault pread:2:zero --verify a b
  assert_status 1
  assert_stderr "fcopy: verification failed: 'b' differs from 'a' at byte 0"
  assert_equal "$(shim_count "$FCOPY_SHIM_LOG" pread)" "2" "preads: the fault fired"
  assert_no_file b
}

@test "--atomic: a copy that fails verification leaves the old DEST as it was" {
  head -c 300000 /dev/urandom >a
  echo old >b
  run --separate-stderr fcopy_fault pread:2:zero --verify --atomic a b
  assert_status 1
  assert_stderr "fcopy: verification failed: 'b' differs from 'a' at byte 0"
  assert_equal "$(cat b)" "old" "DEST"
  assert_equal "$(ls -A | sort | tr '\n' ' ')" "a b " "no temporary left"
}

@test "a read error of the copy, of the source, a failed sync: each said, exit 1" {
  head -c 300000 /dev/urandom >a
  run --separate-stderr fcopy_fault pread:2:EIO --verify a b
  assert_status 1
  assert_stderr "fcopy: cannot read back 'b': Input/output error"
  run --separate-stderr fcopy_fault pread:1:EIO --verify a c
  assert_status 1
  assert_stderr "fcopy: error reading 'a': Input/output error"
  rm "$FCOPY_SHIM_LOG"
  run --separate-stderr fcopy_fault fdatasync:1:EIO --verify a d
  assert_status 1
  assert_stderr "fcopy: failed to sync 'd': Input/output error"
  assert_equal "$(shim_count "$FCOPY_SHIM_LOG" pread)" "0" "nothing read after the failed sync"
  assert_no_file b
  assert_no_file c
  assert_no_file d
}

@test "range mode: the range is compared, at both offsets" {
  head -c 300000 /dev/urandom >a
  head -c 100000 /dev/urandom >b
  cp b want
  dd if=a of=want bs=1 skip=1000 seek=5000 count=20000 conv=notrunc status=none
  run --separate-stderr fcopy --verify --debug=json --src-offset=1000 \
    --dst-offset=5000 --length=20000 a b
  assert_status 0
  assert_equal "$(json_key verified)" "data" "how it was verified"
  assert_same want b
  run --separate-stderr fcopy_fault pread:2:zero --verify --src-offset=1000 \
    --dst-offset=5000 --length=20000 a b
  assert_status 1
  assert_stderr "fcopy: verification failed: 'b' differs from 'a' at byte 0"
}

@test "a FIFO's data cannot be read again: not verified, not an error" {
  mkfifo f
  printf 'stream\n' >f &
  run --separate-stderr fcopy --verify --debug=json f out
  assert_status 0
  assert_equal "$(json_key verified)" "None" "how it was verified"
  assert_equal "$(cat out)" "stream" "the copy"
}

@test "btrfs: a clone is verified by its extents, not read back" {
  setup_fs_test "$BTRFS"
  head -c 300000 /dev/urandom >a
  strace -f -o trace -e trace=openat,pread64 "$FCOPY" --verify --debug=json \
    a b >out
  output=$(cat out)
  assert_equal "$(json_key verified)" "extents" "how it was verified"
  assert_equal "$(json_key mechanism)" "clone" "the mechanism"
  run grep -c pread64 <(after_open_of_a trace)
  assert_equal "$output" "0" "preads"
  assert_same a b
}

@test "btrfs: --debug says verified: extents" {
  setup_fs_test "$BTRFS"
  head -c 300000 /dev/urandom >a
  run --separate-stderr fcopy --verify --debug a b
  assert_status 0
  assert_equal "${lines[-1]}" "verified: extents" "the last line"
}

@test "btrfs: a clone FIEMAP cannot prove (inline data) is read back" {
  setup_fs_test "$BTRFS"
  echo small >a
  run --separate-stderr fcopy --verify --debug=json a b
  assert_status 0
  assert_equal "$(json_key verified)" "data" "how it was verified"
  assert_same a b
}

@test "btrfs: --dedupe --verify: the pair shares its extents" {
  setup_fs_test "$BTRFS"
  head -c 300000 /dev/urandom >a
  cp --reflink=never a b
  run --separate-stderr fcopy --dedupe --verify a b
  assert_status 0
  assert_equal "$stderr" "" "stderr"
  extents_all_shared a b
}

@test "btrfs: a file cloned from --clone-dest is verified by its extents against DIR's file" {
  setup_fs_test "$BTRFS"
  mkdir s
  head -c 300000 /dev/urandom >s/a
  fcopy -a s snap.1
  run --separate-stderr fcopy -a --verify --debug=json --clone-dest=../snap.1 s snap.2
  assert_status 0
  assert_equal "$(json_key cloned_from)" "snap.2/../snap.1/a" "cloned from"
  assert_equal "$(json_key verified)" "extents" "how it was verified"
  extents_all_shared snap.1/a snap.2/a
}
