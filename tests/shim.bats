#!/usr/bin/env bats
# shim.bats -- the fault shim itself, on coreutils' dd and cp, so that a
# broken shim cannot make faults.bats pass for the wrong reason.

load helpers

setup ()
{
  need_shim
  cd "$BATS_TEST_TMPDIR"
  make_random src 100000
  LOG=$BATS_TEST_TMPDIR/shim.log
}

# shimmed SPEC CMD ARG...: run CMD under the shim with FCOPY_FAULT=SPEC,
# logging to $LOG (emptied first).
shimmed ()
{
  local spec=$1
  shift
  rm -f "$LOG"
  (export LD_PRELOAD=$FAULT_SHIM FCOPY_FAULT=$spec FCOPY_SHIM_LOG=$LOG; exec "$@")
}

@test "shim: a malformed FCOPY_FAULT stops the program with status 125" {
  local spec
  for spec in bogus:1:EIO read read:1 read:0:EIO read:x:EIO 'read:1+2:EIO' \
              read:1:EBOGUS read:1:short=0 read:1:short=x fsync:1:short \
              'read::EIO'; do
    run --separate-stderr shimmed "$spec" dd if=src of=dst status=none
    assert_status 125
    [[ $stderr == "fault-shim: bad FCOPY_FAULT spec '$spec': "* ]] || {
      echo "spec $spec: $stderr" >&2; false; }
  done
}

@test "shim: no FCOPY_FAULT, no effect; the log counts the calls" {
  run --separate-stderr shimmed '' dd if=src of=dst bs=4096 status=none
  assert_status 0
  assert_same src dst
  # 25 reads of data and the one that sees EOF
  assert_equal "$(shim_count "$LOG" read)" 26 "read calls"
  assert_equal "$(shim_count "$LOG" write)" 25 "write calls"
  (( $(shim_count "$LOG" open) >= 2 ))
}

@test "shim: N fails only the Nth call" {
  run --separate-stderr shimmed read:2:EIO dd if=src of=dst bs=4096 status=none
  assert_status 1
  [[ $stderr == *"error reading 'src': Input/output error"* ]]
  assert_equal "$(stat -c %s dst)" 4096 "bytes copied"
  run --separate-stderr shimmed read:3:EIO,read:1:ENOSPC dd if=src of=dst bs=4096 status=none
  assert_status 1
  [[ $stderr == *"No space left on device"* ]]
  assert_equal "$(stat -c %s dst)" 0 "bytes copied"
}

@test "shim: N+ and * fail from the Nth call on" {
  run --separate-stderr shimmed 'write:3+:ENOSPC' dd if=src of=dst bs=4096 status=none
  assert_status 1
  assert_equal "$(stat -c %s dst)" 8192 "bytes copied"
  run --separate-stderr shimmed 'write:*:EFBIG' dd if=src of=dst bs=4096 status=none
  assert_status 1
  [[ $stderr == *"File too large"* ]]
  assert_equal "$(stat -c %s dst)" 0 "bytes copied"
}

@test "shim: short and short=K clamp the count, the call is made" {
  run --separate-stderr shimmed 'write:*:short=1000' dd if=src of=dst bs=64k status=none
  assert_status 0
  assert_same src dst
  (( $(shim_count "$LOG" write) >= 100 ))
  run --separate-stderr shimmed 'read:*:short' dd if=src of=dst bs=64k status=none
  assert_status 0
  assert_same src dst
  # 100000 bytes 4099 at a time: 25 reads, then EOF
  assert_equal "$(shim_count "$LOG" read)" 26 "read calls"
}

@test "shim: zero returns 0 without calling" {
  run --separate-stderr shimmed read:1:zero dd if=src of=dst bs=4096 status=none
  assert_status 0
  assert_equal "$(stat -c %s dst)" 0 "bytes copied"
}

@test "shim: open counts every open entry point under one name" {
  run --separate-stderr shimmed open:1:ENOENT dd if=src of=dst status=none
  assert_status 1
  assert_equal "$stderr" "dd: failed to open 'src': No such file or directory" stderr
  run --separate-stderr shimmed open:2:EACCES dd if=src of=dst status=none
  assert_status 1
  assert_equal "$stderr" "dd: failed to open 'dst': Permission denied" stderr
}

@test "shim: FICLONE is logged as ficlone and also counts as an ioctl" {
  run --separate-stderr shimmed ficlone:1:EOPNOTSUPP cp --reflink=always src dst
  assert_status 1
  assert_equal "$stderr" "cp: failed to clone 'dst' from 'src': Operation not supported" stderr
  assert_equal "$(shim_count "$LOG" ficlone)" 1 "ficlone calls"
  assert_equal "$(shim_count "$LOG" ioctl)" 0 "ioctl lines"
  run --separate-stderr shimmed ioctl:1:EPERM cp --reflink=always src dst
  assert_status 1
  assert_equal "$stderr" "cp: failed to clone 'dst' from 'src': Operation not permitted" stderr
}

@test "shim: copy_file_range short counts" {
  run --separate-stderr shimmed 'ficlone:*:EOPNOTSUPP,copy_file_range:*:short=1000' \
      cp --reflink=auto src dst
  assert_status 0
  assert_same src dst
  (( $(shim_count "$LOG" copy_file_range) >= 100 ))
}
