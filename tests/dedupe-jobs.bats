#!/usr/bin/env bats
# dedupe-jobs.bats -- --dedupe with threads (--jobs=N, and by default from
# the second pair on), on btrfs and XFS (reflink=1).  A list of pairs of
# every outcome gives the -v lines, the messages, the counts and the exit
# status of --jobs=1, in the same order, although a big pair first makes
# the later ones end before it; every identical pair comes to share its
# extents, no differing pair shares any.  By default one pair starts no
# thread, and two pairs do.

load helpers

setup_file ()
{
  setup_fs_file BTRFS=btrfs:1G XFS=xfs:1G
}

# teardown_file and teardown: helpers.bash's.

MiB=$((1024 * 1024))

setup ()
{
  check_file_skip
}

# on MNT: work in a fresh directory on MNT.
on ()
{
  mkdir -p "$1/$BATS_TEST_NUMBER"
  cd "$1/$BATS_TEST_NUMBER"
}

# make_pairs DIR: DIR/a and DIR/b, and DIR/list (NUL-separated pairs, in
# the order below): a big identical pair first (40 MiB: three compare
# chunks), then 16 identical pairs of 1-2 MiB, 5 that differ in the last
# byte, 2 of different sizes, 1 with no b, 1 already shared (a clone).
make_pairs ()
{
  local d=$1 i
  mkdir -p "$d/a" "$d/b"
  make_identical "$d/a/big" "$d/b/big" $((40 * MiB))
  for (( i = 1; i <= 16; i++ )); do
    make_identical "$d/a/same$i" "$d/b/same$i" $(( MiB + i * 65536 + i ))
  done
  for (( i = 1; i <= 5; i++ )); do
    make_identical "$d/a/diff$i" "$d/b/diff$i" $(( MiB + i ))
    flip_last_byte "$d/b/diff$i"
  done
  for (( i = 1; i <= 2; i++ )); do
    make_random "$d/a/size$i" $(( MiB + i ))
    head -c $(( MiB + i - 1 )) "$d/a/size$i" >"$d/b/size$i"
  done
  make_random "$d/a/gone" 4096
  make_random "$d/a/clone" $(( 2 * MiB ))
  cp --reflink=always "$d/a/clone" "$d/b/clone"
  sync
  (
    cd "$d" || exit
    for f in big $(seq -f 'same%g' 16) $(seq -f 'diff%g' 5) size1 size2 \
             gone clone; do
      printf 'a/%s\0b/%s\0' "$f" "$f"
    done
  ) >"$d/list"
}

# jobs_same_output: --jobs=4 and the default print and count as --jobs=1,
# in the same order, and share what they should.
jobs_same_output ()
{
  local jobs out1 err1 status1=0 f
  make_pairs one
  (cd one && fcopy --dedupe -v -0 --pairs-from=list --jobs=1 >../out 2>../err) ||
    status1=$?
  out1=$(cat out) err1=$(cat err)
  assert_equal "$status1" 2 "--jobs=1 status (a pair failed: b/gone)"
  rm -rf one
  for jobs in --jobs=4 --jobs=auto; do
    rm -rf many
    make_pairs many
    cd many
    run --separate-stderr fcopy --dedupe -v -0 --pairs-from=list "$jobs"
    cd ..
    assert_status "$status1"
    assert_equal "$output" "$out1" "$jobs: -v lines and counts"
    assert_equal "$stderr" "$err1" "$jobs: messages"
    for f in big $(seq -f 'same%g' 16) clone; do
      assert_same many/a/$f many/b/$f
      extents_all_shared many/b/$f
      same_physical many/a/$f many/b/$f
    done
    for f in $(seq -f 'diff%g' 5); do
      extents_none_shared many/b/$f
    done
  done
  [[ $out1 == *"'a/big' -> 'b/big': deduplicated $((40 * MiB)) bytes"* ]]
  [[ $out1 == *"'a/clone' -> 'b/clone': already shared"* ]]
  [[ $out1 == *"$(dedupe_stats 26 17 1 7 0 1 $(( 40 * MiB + 16 * MiB + 136 * 65536 + 136 )))" ]]
}

@test "btrfs: --jobs=4 and the default: the lines, messages and counts of --jobs=1, pairs shared" {
  on "$BTRFS"; jobs_same_output
}

@test "xfs: --jobs=4 and the default: the lines, messages and counts of --jobs=1, pairs shared" {
  on "$XFS"; jobs_same_output
}

@test "btrfs: by default one pair starts no thread, two pairs do" {
  need_cmd strace
  on "$BTRFS"
  make_identical a b $MiB
  make_identical c d $MiB
  strace -f -qq -e trace=clone,clone3 -o one.trace "$FCOPY" --dedupe a b
  [[ ! -s one.trace ]] || { cat one.trace >&2; false; }
  extents_all_shared b
  strace -f -qq -e trace=clone,clone3 -o two.trace \
    "$FCOPY" --dedupe -T c d
  [[ ! -s two.trace ]] || { cat two.trace >&2; false; }
  make_identical e f $MiB
  printf '%s\n' c d e f >list
  strace -f -qq -e trace=clone,clone3 -o list.trace \
    "$FCOPY" --dedupe --pairs-from=list --stats
  # One thread a CPU, at most 4 (none on one CPU).
  assert_equal "$(grep -c clone list.trace)" \
    "$(( $(nproc) < 4 ? $(nproc) - 1 : 3 ))" "threads started"
  extents_all_shared f
  strace -f -qq -e trace=clone,clone3 -o j1.trace \
    "$FCOPY" --dedupe --pairs-from=list --jobs=1
  [[ ! -s j1.trace ]] || { cat j1.trace >&2; false; }
}
