#!/usr/bin/env bats
# fault-calls.bats -- every call whose failure could lose data or
# metadata silently: the fault shim fails it, the test checks that the
# fault fired (the shim's call log) and that the user was told (exit 1,
# one message naming the file and the error), or, for the few calls whose
# failure is harmless, that the copy is whole and why that is so.
# (Issue 13: an ignored close() on DEST once passed the whole suite.)

bats_require_minimum_version 1.5.0
load helpers

setup ()
{
  need_shim
  cd "$BATS_TEST_TMPDIR"
  mkdir d
  echo data >d/f
  mkfifo d/p
  ln -s f d/l
  echo f >f
  echo old >g
  head -c $((2 * 1024 * 1024)) /dev/urandom >big
  # A sparse file: data at 3 MiB and 7 MiB of 12 MiB.
  truncate -s 12M sp
  printf x | dd of=sp bs=1 seek=$((3 << 20)) conv=notrunc status=none
  printf y | dd of=sp bs=1 seek=$((7 << 20)) conv=notrunc status=none
}

# fault SPEC ARG...: run fcopy under the shim with FCOPY_FAULT=SPEC,
# logging the calls to ./shim.log (emptied first).
fault ()
{
  local spec=$1
  shift
  rm -f shim.log
  FCOPY_SHIM_LOG=$PWD/shim.log run --separate-stderr fcopy_fault "$spec" "$@"
}

# fired NAME: the shim saw at least one NAME call.
fired ()
{
  local n
  n=$(shim_count shim.log "$1")
  (( n >= 1 )) || { echo "no $1 call: the fault never fired" >&2; return 1; }
}

@test "close of DEST fails: reported, exit 1" {
  fault close:1:EIO f out
  fired close
  assert_status 1
  assert_stderr "fcopy: failed to close 'out': Input/output error"
}

@test "close of the source fails: harmless (read-only), copy whole, exit 0" {
  # The source is closed after DEST: its close can lose nothing.
  fault close:2:EIO f out
  fired close
  assert_status 0
  assert_same f out
}

@test "fallocate fails: harmless (a reservation only), copy whole" {
  fault fallocate:1+:EIO big out
  fired fallocate
  assert_status 0
  assert_same big out
}

@test "mkdirat fails: reported, exit 1" {
  fault mkdirat:1+:EIO -r d out
  fired mkdirat
  assert_status 1
  assert_stderr "fcopy: cannot create directory 'out': Input/output error"
}

@test "unlinkat fails under --remove-destination: reported, DEST kept" {
  fault unlinkat:1+:EIO --remove-destination f g
  fired unlinkat
  assert_status 1
  assert_stderr "fcopy: cannot remove 'g': Input/output error"
  assert_equal "$(cat g)" old "g"
}

@test "symlinkat fails: reported, exit 1" {
  fault symlinkat:1+:EIO -P d/l out
  fired symlinkat
  assert_status 1
  assert_stderr "fcopy: cannot create symbolic link 'out': Input/output error"
}

@test "readlinkat fails: reported, exit 1" {
  fault readlinkat:1+:EIO -P d/l out
  fired readlinkat
  assert_status 1
  assert_stderr "fcopy: cannot read symbolic link 'd/l': Input/output error"
}

@test "mknodat fails: reported, exit 1" {
  fault mknodat:1+:EIO -r d out
  fired mknodat
  assert_status 1
  assert_stderr "fcopy: cannot create fifo 'out/p': Input/output error"
}

@test "utimensat fails on a link and a FIFO (-a): each reported" {
  fault utimensat:1+:EIO -a d out
  fired utimensat
  assert_status 1
  assert_equal "$(grep -c 'preserving times for' <<<"$stderr")" 2 "messages"
}

@test "fchownat fails on a link and a FIFO (-a, other owner): each reported" {
  need_root
  chown -h nobody d/l d/p
  fault fchownat:1+:EIO -a d out
  fired fchownat
  assert_status 1
  assert_stderr_any_order \
    "fcopy: failed to preserve ownership for 'out/p': Input/output error" \
    "fcopy: failed to preserve ownership for 'out/l': Input/output error"
}

@test "fchmodat fails on a FIFO made without its group bits: reported" {
  need_root
  chown -h nobody d/p
  fault fchmodat:1+:EIO -r --preserve=ownership d out
  fired fchmodat
  assert_status 1
  assert_stderr "fcopy: setting permissions for 'out/p': Input/output error"
}

@test "setxattr fails on a FIFO's ACL (-a): reported" {
  fault setxattr:1+:EIO -a d out
  fired setxattr
  assert_status 1
  [[ $stderr == *"fcopy: preserving permissions for 'out/p': Input/output error"* ]]
}

@test "fchmod, fchown, futimens, fsetxattr of a file fail (-p): each reported" {
  local call
  for call in fchown futimens fsetxattr; do
    fault "$call:1+:EIO" -p --preserve=all f "out-$call"
    fired "$call"
    assert_status 1
    [[ $stderr == *"Input/output error"* ]]
  done
}

@test "the first SEEK_DATA fails: harmless (read whole), copy byte-exact" {
  # The probe that says whether the source has holes: without an
  # answer, the source is read as if it had none.
  fault lseek:1:EIO sp out
  fired lseek
  assert_status 0
  assert_same sp out
}

@test "SEEK_DATA fails in the middle of a sparse copy: reported, exit 1" {
  fault lseek:3:EIO sp out
  fired lseek
  assert_status 1
  assert_stderr "fcopy: error reading 'sp': Input/output error"
}

@test "the final size-setting ftruncate fails: reported, exit 1" {
  fault ftruncate:1+:EIO sp out
  fired ftruncate
  assert_status 1
  assert_stderr "fcopy: failed to extend 'out': Input/output error"
}

@test "--atomic: no temporary can be made: reported, DEST as it was" {
  fault tmpfile:1+:EOPNOTSUPP,open:2+:EACCES --atomic f g
  fired tmpfile
  assert_status 1
  assert_stderr "fcopy: cannot create a temporary file for 'g': Permission denied"
  assert_equal "$(cat g)" old "g"
}

@test "--atomic: O_TMPFILE fails with EIO: a named temporary instead, copy whole" {
  # Any failure of O_TMPFILE leads to a temporary with a name, which
  # fails on its own if the disk does.
  fault tmpfile:1+:EIO --atomic f g
  fired tmpfile
  assert_status 0
  assert_same f g
}

@test "thread creation fails (--jobs=4): a warning, the walk copies all" {
  local i
  for i in $(seq 20); do echo "$i" >"d/f$i"; done
  fault pthread_create:2+:EAGAIN -r --jobs=4 d out
  fired pthread_create
  assert_status 0
  assert_stderr "fcopy: warning: --jobs=4: only 2 threads started: Resource temporarily unavailable"
  for i in $(seq 20); do
    assert_same "d/f$i" "out/f$i"
  done
}

@test "no thread at all can be made (--jobs=4): a warning, the walk copies all" {
  fault pthread_create:1+:EAGAIN -r --jobs=4 d out
  fired pthread_create
  assert_status 0
  assert_stderr "fcopy: warning: --jobs=4: only 1 threads started: Resource temporarily unavailable"
  assert_same d/f out/f
}

@test "splice: DEST refuses the first splice: the pipe's bytes go by write, copy whole" {
  # Call 1 fills the pipe from the source, call 2 would empty it into
  # DEST: what is in the pipe must not be lost on the way to read/write.
  fault splice:2:EINVAL --reflink=never big out
  fired splice
  assert_status 0
  assert_same big out
}

@test "splice: DEST refuses after bytes moved: reported, no silent fallback" {
  fault splice:4:EINVAL --reflink=never big out
  fired splice
  assert_status 1
  assert_stderr "fcopy: error writing 'out': Invalid argument"
}
