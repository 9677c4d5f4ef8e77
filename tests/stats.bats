#!/usr/bin/env bats
# stats.bats -- --stats[=text|json] after a copy: the entries by kind,
# the bytes by the ladder step that moved them, the holes left, the
# errors; and the status line that SIGUSR1 asks for, as dd prints one.
# tmpfs has no clone: its bytes go by copy_file_range; btrfs clones.

bats_require_minimum_version 1.5.0
load helpers

setup_file ()
{
  need_cmd python3
  setup_fs_file TMPFS=tmpfs:64M BTRFS=btrfs
}

setup ()
{
  setup_fs_test "$TMPFS"
}

# A tree of each kind of entry: 3 regular files (1,000, 5 and 4,096
# bytes of data, the last after a hole of 1 MiB), 2 directories, a
# symbolic link, a FIFO.
make_tree ()
{
  mkdir -p s/d
  head -c 1000 /dev/urandom >s/a
  printf 'five\n' >s/d/b
  truncate -s 1M s/sp
  head -c 4096 /dev/urandom >>s/sp
  ln -s a s/l
  mkfifo s/p
}

# stat_of KEY: the value of the line "KEY: value" of $output.
stat_of ()
{
  sed -n "s|^$1: ||p" <<<"$output"
}

@test "tmpfs: --stats after -a: each kind of entry, bytes by step, holes" {
  make_tree
  run --separate-stderr fcopy -a --stats s t
  assert_status 0
  assert_stderr ""
  assert_equal "$(stat_of files)" 3 "files"
  assert_equal "$(stat_of directories)" 2 "directories"
  assert_equal "$(stat_of links)" 1 "links"
  assert_equal "$(stat_of 'special files')" 1 "special files"
  assert_equal "$(stat_of skipped)" 0 "skipped"
  assert_equal "$(stat_of bytes)" 5101 "bytes"
  assert_equal "$(stat_of 'bytes cloned')" 0 "bytes cloned"
  assert_equal "$(stat_of 'bytes by copy_file_range')" 5101 "bytes by copy_file_range"
  assert_equal "$(stat_of 'bytes by splice')" 0 "bytes by splice"
  assert_equal "$(stat_of 'bytes by read/write')" 0 "bytes by read/write"
  assert_equal "$(stat_of 'bytes in holes')" 1048576 "bytes in holes"
  assert_equal "$(stat_of errors)" 0 "errors"
  [[ $(stat_of seconds) =~ ^[0-9]+\.[0-9]{3}$ ]] || { echo "seconds: $(stat_of seconds)"; false; }
  assert_equal "${#lines[@]}" 13 "lines of --stats"
  cmp s/sp t/sp
}

@test "tmpfs: --stats=json is one JSON object with the same counts" {
  make_tree
  run --separate-stderr fcopy -a --stats=json s t
  assert_status 0
  assert_equal "${#lines[@]}" 1 "lines"
  run python3 -c '
import json, sys
o = json.loads(sys.argv[1])
for k in ("mode", "files", "directories", "links", "special_files",
          "skipped", "bytes", "bytes_cloned", "bytes_copy_file_range",
          "bytes_splice", "bytes_read_write", "bytes_in_holes", "errors"):
    print(k, o.pop(k))
print("seconds", type(o.pop("seconds")).__name__)
print("left", sorted(o))' "$output"
  assert_status 0
  assert_equal "$output" "$(printf '%s\n' 'mode copy' 'files 3' 'directories 2' \
    'links 1' 'special_files 1' 'skipped 0' 'bytes 5101' 'bytes_cloned 0' \
    'bytes_copy_file_range 5101' 'bytes_splice 0' 'bytes_read_write 0' \
    'bytes_in_holes 1048576' 'errors 0' 'seconds float' 'left []')" "the object"
}

@test "--stats=json: the seconds have a point in any locale" {
  need_cmd localedef
  # German writes 1,5 for 1.5; made here, as no locale but C.UTF-8 is
  # sure to be installed.
  mkdir loc
  localedef -i de_DE -f UTF-8 loc/de_DE.UTF-8
  run env LOCPATH=loc LC_ALL=de_DE.UTF-8 printf '%.1f' 1.5
  assert_equal "$output" "1,5" "printf in that locale"
  head -c 100 /dev/urandom >a
  run --separate-stderr env LOCPATH=loc LC_ALL=de_DE.UTF-8 "$FCOPY" --stats=json a b
  assert_status 0
  run python3 -c 'import json, sys; print(json.loads(sys.argv[1])["bytes"])' "$output"
  assert_equal "$output" 100 "bytes, parsed"
}

@test "btrfs: a clone counts as bytes cloned" {
  cd "$BTRFS" && mkdir -p "$BATS_TEST_NUMBER" && cd "$BATS_TEST_NUMBER"
  head -c 200000 /dev/urandom >a
  run --separate-stderr fcopy --stats a b
  assert_status 0
  assert_equal "$(stat_of 'bytes cloned')" 200000 "bytes cloned"
  assert_equal "$(stat_of 'bytes by copy_file_range')" 0 "bytes by copy_file_range"
  assert_equal "$(stat_of bytes)" 200000 "bytes"
}

@test "splice and read/write count their bytes where the steps before fail" {
  need_shim
  head -c 300000 /dev/urandom >a
  export FCOPY_SHIM_LOG=$BATS_TEST_TMPDIR/log
  run --separate-stderr fcopy_fault 'copy_file_range:*:EXDEV' --stats a b
  assert_status 0
  (( $(shim_count "$FCOPY_SHIM_LOG" copy_file_range) >= 1 ))
  assert_equal "$(stat_of 'bytes by splice')" 300000 "bytes by splice"
  assert_equal "$(stat_of 'bytes by copy_file_range')" 0 "bytes by copy_file_range"
  rm "$FCOPY_SHIM_LOG"
  run --separate-stderr fcopy_fault 'copy_file_range:*:EXDEV,splice:*:EINVAL' --stats a c
  assert_status 0
  (( $(shim_count "$FCOPY_SHIM_LOG" splice) >= 1 ))
  assert_equal "$(stat_of 'bytes by read/write')" 300000 "bytes by read/write"
  assert_equal "$(stat_of 'bytes by splice')" 0 "bytes by splice"
  cmp a c
}

@test "--sparse=always: zero blocks punched count as holes, not as data" {
  head -c 4096 /dev/urandom >a
  head -c 8192 /dev/zero >>a
  run --separate-stderr fcopy --sparse=always --stats a b
  assert_status 0
  assert_equal "$(stat_of 'bytes by read/write')" 4096 "bytes by read/write"
  assert_equal "$(stat_of 'bytes in holes')" 8192 "bytes in holes"
  cmp a b
}

@test "-n: a file left as it was counts as skipped" {
  echo new >a
  echo old >b
  run --separate-stderr fcopy -n --stats a b
  assert_equal "$(stat_of skipped)" 1 "skipped"
  assert_equal "$(stat_of files)" 0 "files"
  assert_equal "$(cat b)" old "b"
}

@test "a failure counts as an error, and the exit status is cp's" {
  echo hi >a
  mkdir d
  run --separate-stderr fcopy --stats nope a d
  assert_status 1
  assert_stderr "fcopy: cannot stat 'nope': No such file or directory"
  assert_equal "$(stat_of errors)" 1 "errors"
  assert_equal "$(stat_of files)" 1 "files"
}

@test "--jobs=4 counts what --jobs=1 counts" {
  local i
  mkdir s
  for i in $(seq 1 300); do printf '%0*d' "$i" 0 >"s/f$i"; done
  run --separate-stderr fcopy -r --jobs=4 --stats s t4
  assert_status 0
  local four=$output
  run --separate-stderr fcopy -r --jobs=1 --stats s t1
  assert_equal "$(grep -v '^seconds' <<<"$four")" "$(grep -v '^seconds' <<<"$output")" "the counts"
  assert_equal "$(stat_of bytes)" 45150 "bytes"
}

@test "--stats=xml is a usage error" {
  run --separate-stderr fcopy --stats=xml a b
  assert_status 1
  assert_equal "${stderr_lines[0]}" "fcopy: invalid argument 'xml' for '--stats'" "first line"
}

@test "-v prints no statistics, as cp" {
  echo hi >a
  run --separate-stderr fcopy -v a b
  assert_status 0
  assert_equal "$output" "'a' -> 'b'" "stdout"
}

# The FIFO's first bytes are copied, then fcopy waits in read(): the
# signal's line comes with the next bytes that move (SA_RESTART: the
# read goes on), and shows all that was copied until then.
@test "SIGUSR1: one status line on stderr, and the copy goes on" {
  mkfifo p
  # Not through the fcopy function, whose subshell would get the signal.
  "$FCOPY" p out 2>err &
  local pid=$!
  exec 7>p
  head -c 1000 /dev/zero >&7
  local i
  for i in $(seq 100); do
    if [[ $(stat -c %s out 2>/dev/null) == 1000 ]]; then break; fi
    sleep 0.1
  done
  assert_equal "$(stat -c %s out)" 1000 "out's size before the signal"
  kill -USR1 "$pid"
  sleep 0.5
  printf x >&7
  exec 7>&-
  wait "$pid"
  assert_equal "$(stat -c %s out)" 1001 "out's size"
  assert_equal "$(wc -l <err)" 1 "lines on stderr"
  [[ $(cat err) =~ ^.*fcopy:\ 0\ files,\ 1001\ B\ copied,\ 0\ B\ shared,\ [0-9]+\.[0-9]\ s,\ .*/s$ ]] || { cat err; false; }
}

@test "SIGUSR1 in a tree: the line comes between two entries" {
  need_shim
  mkdir s
  echo 1 >s/a
  echo 2 >s/b
  echo 3 >s/c
  export FCOPY_SHIM_STALLED=$BATS_TEST_TMPDIR/stalled
  env LD_PRELOAD="$FAULT_SHIM" FCOPY_FAULT='copy_file_range:2:stall=2' \
    "$FCOPY" -r s t 2>err &
  local pid=$!
  wait_for_stall
  kill -USR1 "$pid"
  wait "$pid"
  assert_equal "$(wc -l <err)" 1 "lines on stderr"
  [[ $(cat err) =~ ^.*fcopy:\ [0-9]\ files,\ [0-9]\ B\ copied,\ 0\ B\ shared, ]] || { cat err; false; }
  diff -r s t
}

@test "btrfs: --dedupe --stats=json is one JSON object of the pairs' counts" {
  cd "$BTRFS" && mkdir -p "$BATS_TEST_NUMBER" && cd "$BATS_TEST_NUMBER"
  head -c 200000 /dev/urandom >a
  cp --reflink=never a b
  run --separate-stderr fcopy --dedupe --stats=json a b
  assert_status 0
  assert_equal "${#lines[@]}" 1 "lines"
  run python3 -c '
import json, sys
o = json.loads(sys.argv[1])
print(o["mode"], o["pairs_examined"], o["deduplicated"], o["bytes_deduplicated"])' "$output"
  assert_equal "$output" "dedupe 1 1 200000" "mode, pairs, deduplicated, bytes"
}
