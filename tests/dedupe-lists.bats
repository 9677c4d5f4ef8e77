#!/usr/bin/env bats
# dedupe-lists.bats -- fcopy --dedupe with its pairs read from a list, on
# btrfs: --pairs-from (records SRC, DST, SRC, DST...; NUL-terminated with
# -0, one a line without), '-' for stdin; --groups-from with the real
# output of fdupes and jdupes (the first file of a group is the source of
# the others).  A malformed list (odd number of records, an empty name)
# stops with a message naming the record: the pairs before it are done,
# nothing after it is touched.

load helpers

setup_file ()
{
  setup_fs_file MNT=btrfs
}

# teardown_file and teardown: helpers.bash's.

MiB=$((1024 * 1024))
SIZE=$((MiB + 12345))

setup ()
{
  setup_fs_test "$MNT"
}

# make_trees: s/ and d/ with three identical pairs at the same paths, one
# name with spaces and one with a newline, sharing nothing yet.
make_trees ()
{
  mkdir -p s/sub d/sub
  make_identical "s/a b" "d/a b" "$SIZE"
  make_identical $'s/new\nline' $'d/new\nline' $((2 * MiB + 1))
  make_identical s/sub/plain d/sub/plain 300001
  no_common_physical "s/a b" "d/a b"
  no_common_physical $'s/new\nline' $'d/new\nline'
  no_common_physical s/sub/plain d/sub/plain
}

# check_trees: each pair of make_trees shares its extents.
check_trees ()
{
  local f
  for f in "a b" $'new\nline' sub/plain; do
    assert_same "s/$f" "d/$f"
    extents_all_shared "d/$f"
    same_physical "s/$f" "d/$f"
  done
}

TREES_BYTES=$((MiB + 12345 + 2 * MiB + 1 + 300001))

# --- --pairs-from ------------------------------------------------------------

@test "-0 --pairs-from: a list built with find -print0" {
  make_trees
  find s -type f -print0 | sort -z |
    while IFS= read -r -d '' f; do printf '%s\0' "$f" "d/${f#s/}"; done >list
  # six records, the name with a newline among them
  assert_equal "$(tr -cd '\0' <list | wc -c)" 6 "records in the list"
  run --separate-stderr fcopy --dedupe -0 --pairs-from=list
  assert_status 0
  assert_equal "$output" "" stdout
  assert_equal "$stderr" "" stderr
  check_trees
}

@test "--null --pairs-from=FILE: a list built with printf '%s\\0', --stats" {
  make_trees
  printf '%s\0' "s/a b" "d/a b" $'s/new\nline' $'d/new\nline' s/sub/plain d/sub/plain >list
  run --separate-stderr fcopy --dedupe --null --pairs-from list --stats
  assert_status 0
  assert_stdout "$(dedupe_stats 3 3 0 0 0 0 "$TREES_BYTES")"
  assert_equal "$stderr" "" stderr
  check_trees
}

@test "--pairs-from: a newline-separated list, -v in list order" {
  mkdir s d
  make_identical "s/a b" "d/a b" "$SIZE"
  make_identical s/c d/c 4097
  printf '%s\n' "s/a b" "d/a b" s/c d/c >list
  run --separate-stderr fcopy --dedupe -v --pairs-from=list
  assert_status 0
  assert_stdout "'s/a b' -> 'd/a b': deduplicated $SIZE bytes" \
    "'s/c' -> 'd/c': deduplicated 4097 bytes" \
    "$(dedupe_stats 2 2 0 0 0 0 $((SIZE + 4097)))"
  assert_equal "$stderr" "" stderr
  same_physical "s/a b" "d/a b"
  same_physical s/c d/c
}

@test "--pairs-from=- reads the list from stdin (newlines, then -0)" {
  mkdir s d
  make_identical "s/a b" "d/a b" "$SIZE"
  make_identical s/c d/c $((3 * MiB))
  printf '%s\n' "s/a b" "d/a b" >list
  run --separate-stderr fcopy --dedupe --stats --pairs-from=- <list
  assert_status 0
  assert_stdout "$(dedupe_stats 1 1 0 0 0 0 "$SIZE")"
  same_physical "s/a b" "d/a b"
  no_common_physical s/c d/c

  printf '%s\0' "s/a b" "d/a b" s/c d/c >list0
  run --separate-stderr fcopy --dedupe -0 -v --pairs-from=- <list0
  assert_status 0
  assert_stdout "'s/a b' -> 'd/a b': already shared" \
    "'s/c' -> 'd/c': deduplicated $((3 * MiB)) bytes" \
    "$(dedupe_stats 2 1 1 0 0 0 $((3 * MiB)))"
  same_physical s/c d/c
}

# --- --groups-from -----------------------------------------------------------

# make_groups: under g/, a group of three identical files (one name with a
# space), a group of two and a file with no duplicate, sharing nothing.
make_groups ()
{
  mkdir -p g/sub/deeper
  make_random g/x1 "$SIZE"
  dd if=g/x1 of=g/sub/x2 bs=1M status=none
  dd if=g/x1 of="g/sub/deeper/x 3" bs=1M status=none
  make_identical g/y1 g/sub/y2 $((2 * MiB + 3))
  make_random g/z 5000
  no_common_physical g/x1 g/sub/x2
  no_common_physical g/x1 "g/sub/deeper/x 3"
  no_common_physical g/sub/x2 "g/sub/deeper/x 3"
  no_common_physical g/y1 g/sub/y2
}

# read_groups LIST [-0]: print the pairs a group list means, "FIRST<TAB>OTHER"
# a line (no name of make_groups has a tab or a newline).  Fails unless
# the list has the two groups of make_groups.
read_groups ()
{
  python3 - "$@" <<'EOF'
import sys
data = open(sys.argv[1], "rb").read().decode()
sep = "\0" if len(sys.argv) > 2 else "\n"
records = data.split(sep)
if records and records[-1] == "":
    records.pop()                      # the terminator of the last record
groups, cur = [], []
for r in records:
    if r == "":
        if cur:
            groups.append(cur)
        cur = []
    else:
        cur.append(r)
if cur:
    groups.append(cur)
if sorted(len(g) for g in groups) != [2, 3]:
    sys.exit(f"expected a group of 3 and a group of 2, got {groups}")
for g in groups:
    for other in g[1:]:
        print(f"{g[0]}\t{other}")
EOF
}

# groups_dedupe LIST [-0]: fcopy --dedupe --groups-from=LIST makes every
# member of a group share the first member's extents; -v names the pairs
# in list order.
groups_dedupe ()
{
  local list=$1 zero=${2:-} first other expected=() pairs
  pairs=$(read_groups "$@") || { echo "$pairs" >&2; false; }
  local bytes=0
  while IFS=$'\t' read -r first other; do
    expected+=("'$first' -> '$other': deduplicated $(stat -c %s "$first") bytes")
    bytes=$((bytes + $(stat -c %s "$first")))
  done <<<"$pairs"
  assert_equal "$bytes" $((2 * SIZE + 2 * MiB + 3)) "bytes in the groups"

  run --separate-stderr fcopy --dedupe $zero -v --groups-from="$list"
  assert_status 0
  assert_stdout "${expected[@]}" "$(dedupe_stats 3 3 0 0 0 0 "$bytes")"
  assert_equal "$stderr" "" stderr
  while IFS=$'\t' read -r first other; do
    assert_same "$first" "$other"
    extents_all_shared "$other"
    same_physical "$first" "$other"
  done <<<"$pairs"
  # the file with no duplicate is not touched
  extents_none_shared g/z
}

@test "--groups-from: the output of fdupes -r" {
  need_cmd fdupes
  make_groups
  fdupes -r g >groups
  groups_dedupe groups
}

@test "--groups-from: the output of jdupes -r" {
  need_cmd jdupes
  make_groups
  jdupes -q -r g >groups
  groups_dedupe groups
}

@test "-0 --groups-from: the output of jdupes -0 -r" {
  need_cmd jdupes
  make_groups
  jdupes -q -0 -r g >groups
  # NUL-terminated names, an empty record between groups
  grep -qz '^$' groups || { echo "no empty record in jdupes -0 output" >&2; false; }
  groups_dedupe groups -0
}

@test "--groups-from=- reads fdupes output from stdin" {
  need_cmd fdupes
  make_groups
  fdupes -r g >groups
  local pairs first other
  pairs=$(read_groups groups)
  run --separate-stderr fcopy --dedupe --stats --groups-from=- <groups
  assert_status 0
  assert_stdout "$(dedupe_stats 3 3 0 0 0 0 $((2 * SIZE + 2 * MiB + 3)))"
  while IFS=$'\t' read -r first other; do
    same_physical "$first" "$other"
  done <<<"$pairs"
}

# --- malformed lists ---------------------------------------------------------

# make_numbered N: pairs aI, bI (I = 1..N) that share nothing.
make_numbered ()
{
  local i
  for ((i = 1; i <= $1; i++)); do
    make_identical "a$i" "b$i" $((MiB + i))
    no_common_physical "a$i" "b$i"
  done
}

@test "--pairs-from: odd number of records: record N has no partner, exit 2" {
  make_numbered 2
  printf '%s\n' a1 b1 a2 >'my list'
  run --separate-stderr fcopy --dedupe --stats --pairs-from='my list'
  assert_status 2
  assert_stderr "fcopy: 'my list': odd number of records: record 3 has no partner"
  # the pair before it is done and counted
  same_physical a1 b1
  no_common_physical a2 b2
  [[ $output == *$'\n'"deduplicated: 1"$'\n'* ]] || { echo "stdout: $output" >&2; false; }
  [[ $output == *$'\n'"failed: 1"$'\n'* ]] || { echo "stdout: $output" >&2; false; }
  [[ $output == *$'\n'"bytes deduplicated: $((MiB + 1))" ]] || {
    echo "stdout: $output" >&2; false; }
}

@test "-0 --pairs-from=-: odd number of records, from stdin" {
  make_numbered 2
  printf '%s\0' a1 b1 a2 >list
  run --separate-stderr fcopy --dedupe -0 --pairs-from=- <list
  assert_status 2
  assert_stderr "fcopy: '-': odd number of records: record 3 has no partner"
  same_physical a1 b1
  no_common_physical a2 b2
}

@test "-0 --pairs-from: an empty name: record N: empty file name, exit 2, nothing after it" {
  make_numbered 3
  # records: a1 b1 '' b2 a3 b3
  printf '%s\0' a1 b1 '' b2 a3 b3 >list
  run --separate-stderr fcopy --dedupe -0 --pairs-from=list
  assert_status 2
  assert_stderr "fcopy: 'list': record 3: empty file name"
  same_physical a1 b1
  # the pair after the bad record is not deduplicated
  no_common_physical a3 b3
  extents_none_shared b2
  extents_none_shared b3
}

@test "--pairs-from: an empty line is an empty name, nothing after it" {
  make_numbered 3
  printf '%s\n' a1 b1 '' b2 a3 b3 >list
  run --separate-stderr fcopy --dedupe -v --pairs-from=list
  assert_status 2
  assert_stderr "fcopy: 'list': record 3: empty file name"
  [[ ${lines[0]:-} == "'a1' -> 'b1': deduplicated $((MiB + 1)) bytes" ]] || {
    echo "stdout: $output" >&2; false; }
  [[ $output != *"a3"* ]] || { echo "stdout names a3: $output" >&2; false; }
  same_physical a1 b1
  no_common_physical a3 b3
  extents_none_shared b2
}

@test "--pairs-from: a name longer than PATH_MAX: record N: file name too long, exit 2" {
  make_numbered 2
  { printf '%s\n' a1 b1; head -c 5000 /dev/zero | tr '\0' x; printf '\n%s\n' b2 a2 b2; } >list
  run --separate-stderr fcopy --dedupe --pairs-from=list
  assert_status 2
  assert_stderr "fcopy: 'list': record 3: file name too long"
  same_physical a1 b1
  no_common_physical a2 b2
}

@test "--pairs-from=/dev/zero under ulimit -v: a bad record, not an empty list" {
  # One endless record: read in bounded pieces, it is too long at once;
  # read whole, it ran out of memory, and that was taken for EOF.
  # AddressSanitizer reserves terabytes of address space and cannot run
  # under ulimit -v: there, its allocator refuses the big request instead.
  local limit='ulimit -v 300000;'
  if ldd "$FCOPY" 2>/dev/null | grep -q libasan; then
    limit='ASAN_OPTIONS=$ASAN_OPTIONS:allocator_may_return_null=1:max_allocation_size_mb=300;'
    limit+=' export ASAN_OPTIONS;'
  fi
  run --separate-stderr bash -c "$limit"' exec -a fcopy "$0" "$@"' \
    "$FCOPY" --dedupe --stats --pairs-from=/dev/zero
  assert_status 2
  assert_stderr "fcopy: '/dev/zero': record 1: file name too long"
  [[ $output == "pairs examined: 1"$'\n'* ]] || { echo "stdout: $output" >&2; false; }
}

@test "--pairs-from: a list that cannot be read: error reading it, exit 2" {
  mkdir dir
  run --separate-stderr fcopy --dedupe --pairs-from=dir
  assert_status 2
  assert_stderr "fcopy: error reading 'dir': Is a directory"
}
