#!/usr/bin/env bats
# dedupe-recursive.bats -- fcopy --dedupe -r SRCDIR DSTDIR on btrfs pairs
# the regular files of two trees by relative path.  A file only in one
# tree is no pair: -v reports it ("only in 'DIR': 'rel/path'") and it does
# not change the exit status; a differing pair makes it 1.

load helpers

setup_file ()
{
  setup_fs_file MNT=btrfs
}

# teardown_file and teardown: helpers.bash's.

MiB=$((1024 * 1024))
S_TOP=$((MiB + 1))
S_DEEP=$((2 * MiB + 3))
S_ABC=300000
S_DIFF=500000

setup ()
{
  setup_fs_test "$MNT"
  export FCOPY_SHIM_LOG=$BATS_TEST_TMPDIR/shim.log
}

# make_trees: s/ and d/ with identical files at the same relative paths
# (nested directories, names with spaces), sharing nothing yet, and a
# file only in s/ and one only in d/.
make_trees ()
{
  mkdir -p s/sub/nested d/sub/nested "s/with space" "d/with space"
  make_identical s/top d/top "$S_TOP"
  make_identical s/sub/nested/deep d/sub/nested/deep "$S_DEEP"
  make_identical "s/with space/a b c" "d/with space/a b c" "$S_ABC"
  make_random s/sub/nested/only-src 7000
  make_random d/only-dst 8000
  local f
  for f in top sub/nested/deep "with space/a b c"; do
    no_common_physical "s/$f" "d/$f"
  done
}

# check_pairs: each identical pair of make_trees shares its extents.
check_pairs ()
{
  local f
  for f in top sub/nested/deep "with space/a b c"; do
    assert_same "s/$f" "d/$f"
    extents_all_shared "d/$f"
    same_physical "s/$f" "d/$f"
  done
}

# assert_lines_any_order LINE...: the first lines of stdout, before the
# 7 lines of the statistics block, are these lines in some order.
assert_lines_any_order ()
{
  local n=${#lines[@]} got want
  (( n >= 7 )) || { echo "stdout: $output" >&2; false; }
  got=$(printf '%s\n' "${lines[@]:0:n-7}" | sort)
  want=$(printf '%s\n' "$@" | sort)
  assert_equal "$got" "$want" "stdout lines before the statistics"
}

@test "-r: identical files shared, only-in files reported, a differing pair: exit 1" {
  make_trees
  make_identical s/diff d/diff "$S_DIFF"
  flip_last_byte d/diff
  run --separate-stderr fcopy --dedupe -r -v s d
  assert_status 1
  assert_stderr "fcopy: 's/diff' and 'd/diff' differ"
  assert_lines_any_order \
    "'s/top' -> 'd/top': deduplicated $S_TOP bytes" \
    "'s/sub/nested/deep' -> 'd/sub/nested/deep': deduplicated $S_DEEP bytes" \
    "'s/with space/a b c' -> 'd/with space/a b c': deduplicated $S_ABC bytes" \
    "'s/diff' -> 'd/diff': differ" \
    "only in 's': 'sub/nested/only-src'" \
    "only in 'd': 'only-dst'"
  local stats
  stats=$(printf '%s\n' "${lines[@]: -7}")
  assert_equal "$stats" "$(dedupe_stats 4 3 0 1 0 0 $((S_TOP + S_DEEP + S_ABC)))" \
    "statistics block"
  check_pairs
  no_common_physical s/diff d/diff
  extents_none_shared s/sub/nested/only-src
  extents_none_shared d/only-dst
}

@test "-r without -v: files only in one tree do not change the exit status" {
  make_trees
  run --separate-stderr fcopy --dedupe -r s d
  assert_status 0
  assert_equal "$output" "" stdout
  assert_equal "$stderr" "" stderr
  check_pairs
}

@test "-R and --recursive are -r; a second run finds every pair already shared" {
  make_trees
  run --separate-stderr fcopy --dedupe -R s d
  assert_status 0
  check_pairs

  need_shim
  rm -f "$FCOPY_SHIM_LOG"
  run --separate-stderr fcopy_fault '' --dedupe --recursive --stats s d
  assert_status 0
  assert_stdout "$(dedupe_stats 3 0 3 0 0 0 0)"
  assert_equal "$stderr" "" stderr
  assert_equal "$(shim_count "$FCOPY_SHIM_LOG" fideduperange)" 0 "fideduperange calls"
  check_pairs
}
