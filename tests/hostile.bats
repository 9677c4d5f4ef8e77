#!/usr/bin/env bats
# hostile.bats -- input that a script or an attacker may hand fcopy: sizes
# out of range or oddly written, names longer than PATH_MAX in a pair
# list, a list of random bytes, a tree deeper than PATH_MAX.  Never a
# crash (a status of 128 or more), always a clear message and the
# documented status.

bats_require_minimum_version 1.5.0
load helpers

# Only the test that deduplicates needs it (and calls check_file_skip).
setup_file ()
{
  setup_fs_file XFS=xfs
}

# teardown_file and teardown: helpers.bash's.

setup ()
{
  cd "$BATS_TEST_TMPDIR"
  printf 'data\n' >a
  printf 'data\n' >b
}

MiB=$((1024 * 1024))

# A tree deeper than PATH_MAX (4096): 200 directories of 30 characters.
DEEP_LEVEL=abcdefghijklmnopqrstuvwxyz0123
DEEP_LEVELS=200

# make_deep DIR: DIR/L/L/.../L ($DEEP_LEVELS times) with a file f at the
# bottom, made one step at a time (no name given to mkdir reaches
# PATH_MAX); each directory gets mode 750 and a time of 2001, from the
# bottom up, for -a to keep.  Sets DEEP_FILE to f's name from here (over
# 6,000 characters).
make_deep ()
{
  local n
  mkdir "$1"
  (
    cd "$1" || exit 1
    for ((n = 0; n < DEEP_LEVELS; n++)); do
      mkdir "$DEEP_LEVEL" && cd "$DEEP_LEVEL" || exit 1
    done
    printf 'data\n' >f
    for ((n = 0; n <= DEEP_LEVELS; n++)); do
      chmod 750 . && touch -d '2001-02-03 04:05:06' . && cd .. || exit 1
    done
  )
  DEEP_FILE=$1$(printf "/$DEEP_LEVEL%.0s" $(seq "$DEEP_LEVELS"))/f
  [[ ${#DEEP_FILE} -gt 4096 ]]
}

# listing DIR [TIMES]: every name under DIR with its type and mode (and
# its modification time, with TIMES), sorted.
listing ()
{
  tree_listing "$1" -printf "%y %m ${2:+%T@ }%p\n"
}

@test "sizes out of range are usage errors that name the option and value" {
  local arg
  for arg in --length=-1 --src-offset=99E --dst-offset=1Q \
             --length=18446744073709551616 --src-offset= --length=1.5K; do
    run --separate-stderr fcopy "$arg" a c
    assert_status 1
    [[ $stderr == "fcopy: invalid ${arg%%=*} '${arg#*=}'"* ]] ||
      { echo "$arg: $stderr"; false; }
    assert_no_file c
  done
}

@test "a pair list with a name longer than PATH_MAX: a bad record, clearly" {
  local long
  long=$(printf 'x%.0s' {1..5000})
  printf 'a\0b\0%s\0b\0' "$long" >list
  run --separate-stderr fcopy --dedupe -0 --pairs-from=list
  assert_status 2
  [[ $stderr == *"fcopy: 'list': record 3: file name too long" ]] || { echo "$stderr"; false; }
}

@test "pair lists of random bytes: no crash, a clear error or a clean run" {
  local i
  for i in 1 2 3 4 5 6 7 8; do
    head -c $((i * 512)) /dev/urandom >list
    run --separate-stderr fcopy --dedupe -0 --pairs-from=list
    [[ $status -le 2 ]] || { echo "round $i: status $status: $stderr"; false; }
    run --separate-stderr fcopy --dedupe --groups-from=list
    [[ $status -le 2 ]] || { echo "round $i: status $status: $stderr"; false; }
  done
}

@test "byte counts of 10,000 digits, with white space, a '+', in hex or a bare suffix: usage errors" {
  local big opt v
  big=$(printf '9%.0s' $(seq 10000))
  for opt in --length --src-offset --dst-offset; do
    for v in "$big" "1${big//9/0}" ' 10' '10 ' '1 0' $'\t10' $'10\n' '+10' '+0' \
             0x10 0X1f 0b1 K KiB MB; do
      run --separate-stderr fcopy "$opt=$v" a c
      [[ $status -eq 1 ]] || { echo "$opt='$v': status $status"; false; }
      # Named in the message, quoted as the locale quotes it (a tab or a
      # newline is written as an escape).
      [[ ${stderr%%$'\n'*} == "fcopy: invalid $opt '"* ]] || { echo "$opt='$v': $stderr"; false; }
      [[ $v == *[$'\t\n']* || $stderr == "fcopy: invalid $opt '$v'"* ]] ||
        { echo "$opt='$v': $stderr"; false; }
      [[ ${stderr##*$'\n'} == "Try 'fcopy --help' for more information." ]] ||
        { echo "$opt='$v': $stderr"; false; }
      assert_no_file c
    done
  done
  # 10,000 digits are too large, and say so.
  run --separate-stderr fcopy --length="$big" a c
  assert_stderr "fcopy: invalid --length '$big': Value too large for defined data type" \
    "Try 'fcopy --help' for more information."
}

@test "a pair list naming a file deeper than PATH_MAX: a bad record, the pairs before it are deduplicated, exit 2" {
  check_file_skip
  mkdir "$XFS/$BATS_TEST_NUMBER"
  cd "$XFS/$BATS_TEST_NUMBER"
  make_deep deep
  make_identical a1 b1 "$MiB"
  make_identical a2 b2 "$MiB"
  printf 'data\n' >c
  # A name of PATH_MAX bytes or more, which the kernel refuses, stops the
  # list as a bad record: nothing after it is touched.
  printf '%s\n' a1 b1 "$DEEP_FILE" c a2 b2 >list
  run --separate-stderr fcopy --dedupe --stats --pairs-from=list
  assert_status 2
  assert_stderr "fcopy: 'list': record 3: file name too long"
  assert_stdout "$(dedupe_stats 2 1 0 0 0 1 "$MiB")"
  same_physical a1 b1
  no_common_physical a2 b2
}

@test "-r and -a of a tree deeper than PATH_MAX: what cp does (status, files, messages)" {
  local opt times cp_status cp_stderr
  make_deep deep
  for opt in -r -a; do
    times=
    [[ $opt == -r ]] || times=y
    run --separate-stderr cp "$opt" deep out-cp
    cp_status=$status
    cp_stderr=$(sed 's/^cp: /fcopy: /' <<<"$stderr")
    run --separate-stderr fcopy "$opt" deep out
    assert_status "$cp_status"
    assert_equal "$stderr" "$cp_stderr" "fcopy $opt's messages (cp's with its name)"
    assert_equal "$(listing out $times)" "$(listing out-cp $times)" "what fcopy $opt copied"
    # What cp does: status 1, one message, the directories down to where
    # the name reaches PATH_MAX copied.
    assert_equal "$cp_status" 1 "cp $opt's status"
    [[ $stderr == "fcopy: cannot stat 'deep/$DEEP_LEVEL/"*"': File name too long" &&
       $stderr != *$'\n'* ]] || { echo "fcopy $opt: $stderr"; false; }
    (( $(find out -type d | wc -l) > 100 ))
    rm -rf out out-cp
  done
}
