#!/usr/bin/env bats
# reflink-unsupported.bats -- ext4 and tmpfs cannot clone: --reflink=always
# fails cleanly (message, exit 1, no half-made destination, an old
# destination untouched), auto and never copy by other means.

load helpers

setup_file ()
{
  setup_fs_file EXT4=ext4 TMPFS=tmpfs:64M
}

# teardown_file, setup and teardown: helpers.bash's.

MiB=$((1024 * 1024))

# enter MNT: work in a fresh directory on MNT, with a source file "src".
enter ()
{
  mkdir -p "$1/$BATS_TEST_NUMBER"
  cd "$1/$BATS_TEST_NUMBER"
  make_random src $((2 * MiB + 333))
}

always_new_dst ()
{
  enter "$1"
  run --separate-stderr fcopy --reflink=always src dst
  assert_status 1
  assert_stderr "fcopy: failed to clone 'dst' from 'src': Operation not supported"
  assert_equal "$output" "" stdout
  assert_no_file dst
}

@test "ext4: --reflink=always fails, leaves no destination" {
  always_new_dst "$EXT4"
}

@test "tmpfs: --reflink=always fails, leaves no destination" {
  always_new_dst "$TMPFS"
}

always_old_dst ()
{
  enter "$1"
  make_random dst $((3 * MiB + 1))
  cp dst dst.saved
  local ino
  ino=$(stat -c %i dst)
  run --separate-stderr fcopy --reflink=always src dst
  assert_status 1
  assert_stderr "fcopy: failed to clone 'dst' from 'src': Operation not supported"
  assert_same dst.saved dst
  assert_equal "$(stat -c %i dst)" "$ino" "inode of the destination"
}

@test "ext4: --reflink=always fails, an existing destination keeps its content" {
  always_old_dst "$EXT4"
}

@test "tmpfs: --reflink=always fails, an existing destination keeps its content" {
  always_old_dst "$TMPFS"
}

@test "ext4: bare --reflink is always: fails the same way" {
  enter "$EXT4"
  run --separate-stderr fcopy --reflink src dst
  assert_status 1
  assert_stderr "fcopy: failed to clone 'dst' from 'src': Operation not supported"
  assert_no_file dst
}

@test "tmpfs: --reflink=always with several files: one message each" {
  enter "$TMPFS"
  make_random src2 100
  mkdir d
  run --separate-stderr fcopy --reflink=always src src2 d
  assert_status 1
  assert_stderr "fcopy: failed to clone 'd/src' from 'src': Operation not supported" \
                "fcopy: failed to clone 'd/src2' from 'src2': Operation not supported"
  assert_no_file d/src
  assert_no_file d/src2
}

auto_copies ()
{
  enter "$1"
  run --separate-stderr fcopy --debug src dst
  assert_status 0
  assert_stdout "'src' -> 'dst'" "copy offload: yes, reflink: unsupported, sparse detection: no" "splice: no, read/write: no, extents shared: $(unshared_word dst)"
  assert_equal "$stderr" "" stderr
  assert_same src dst
  run --separate-stderr fcopy --reflink=auto src dst2
  assert_status 0
  assert_same src dst2
}

@test "ext4: --reflink=auto copies with copy_file_range" {
  auto_copies "$EXT4"
}

@test "tmpfs: --reflink=auto copies with copy_file_range" {
  auto_copies "$TMPFS"
}

never_copies ()
{
  enter "$1"
  run --separate-stderr fcopy --debug --reflink=never src dst
  assert_status 0
  assert_stdout "'src' -> 'dst'" "copy offload: avoided, reflink: no, sparse detection: no" "splice: yes, read/write: no, extents shared: $(unshared_word dst)"
  assert_same src dst
}

@test "ext4: --reflink=never copies" {
  never_copies "$EXT4"
}

@test "tmpfs: --reflink=never copies" {
  never_copies "$TMPFS"
}

@test "ext4: a tree tries FICLONE once per pair of file systems, each file still copied" {
  need_shim
  enter "$EXT4"
  mkdir -p t/a t/b
  local f
  for f in t/a/1 t/a/2 t/b/3 t/b/4 t/5; do make_random "$f" 5000; done
  export FCOPY_SHIM_LOG=$PWD/log
  fcopy_fault '' -r --debug t out >debug
  assert_equal "$(shim_count log ficlone)" 1 "FICLONE calls"
  assert_equal "$(grep -c '^copy offload: yes, reflink: unsupported,' debug)" 5 "debug lines"
  diff -r t out
  # --reflink=always still tries (and fails) each file.
  rm -f log
  run fcopy_fault '' -r --reflink=always t out2
  assert_status 1
  assert_equal "$(shim_count log ficlone)" 5 "FICLONE calls under always"
}
