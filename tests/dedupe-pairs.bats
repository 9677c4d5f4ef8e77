#!/usr/bin/env bats
# dedupe-pairs.bats -- fcopy --dedupe on pairs named as operands, on btrfs
# and XFS (reflink=1): an identical pair comes to share SRC's extents with
# DST's bytes and mtime unchanged; a differing, empty or same-file pair is
# left alone with one message; exit status like cmp (0 all shared, 1 some
# pair differed or was skipped, 2 a failure).  The proof of sharing is
# physical (FIEMAP offsets), and the fault shim counts FIDEDUPERANGE calls.
# Every case runs on both filesystems.

load helpers

setup_file ()
{
  setup_fs_file BTRFS=btrfs XFS=xfs
}

# teardown_file and teardown: helpers.bash's.

MiB=$((1024 * 1024))
# Several MiB and an unaligned tail: the EOF block must be shared too.
SIZE=$((5 * MiB + 12345))
# A time no run of the suite produces, to see that DST's mtime is kept.
OLD='2001-02-03 04:05:06.123456789'

setup ()
{
  check_file_skip
  export FCOPY_SHIM_LOG=$BATS_TEST_TMPDIR/shim.log
}

# on MNT: work in a fresh directory on MNT.
on ()
{
  mkdir -p "$1/$BATS_TEST_NUMBER"
  cd "$1/$BATS_TEST_NUMBER"
}

# run_shim ARG...: fcopy under the fault shim (no fault), fresh call log.
run_shim ()
{
  need_shim
  rm -f "$FCOPY_SHIM_LOG"
  run --separate-stderr fcopy_fault '' "$@"
}

# run_shim_spec SPEC ARG...: fcopy under the fault shim with SPEC, fresh
# call log.
run_shim_spec ()
{
  need_shim
  rm -f "$FCOPY_SHIM_LOG"
  run --separate-stderr fcopy_fault "$@"
}

# assert_dedupe_calls OP N: e.g. assert_dedupe_calls -eq 0.
assert_dedupe_calls ()
{
  local n
  n=$(shim_count "$FCOPY_SHIM_LOG" fideduperange)
  test "$n" "$1" "$2" || { echo "$n fideduperange calls, expected $1 $2" >&2; false; }
}

# check_shared A B: B shares every block of A, and has A's bytes.
check_shared ()
{
  assert_same "$1" "$2"
  extents_all_shared "$2"
  same_physical "$1" "$2"
}

# --- identical pairs ---------------------------------------------------------

identical_pair ()
{
  local a_state b_state
  make_identical a b "$SIZE"
  touch -d "$OLD" a b
  no_common_physical a b
  a_state=$(file_state a)
  b_state=$(file_state b)
  run --separate-stderr fcopy --dedupe a b
  assert_status 0
  assert_equal "$output" "" stdout
  assert_equal "$stderr" "" stderr
  check_shared a b
  extents_all_shared a
  assert_equal "$(file_state b)" "$b_state" "DST's content and mtime"
  assert_equal "$(file_state a)" "$a_state" "SRC's content and mtime"
  assert_equal "$(stat -c %Y b)" "$(date -d "$OLD" +%s)" "DST's mtime"
}

@test "btrfs: an identical pair comes to share SRC's extents, DST unchanged" {
  on "$BTRFS"; identical_pair
}

@test "xfs: an identical pair comes to share SRC's extents, DST unchanged" {
  on "$XFS"; identical_pair
}

@test "btrfs: without /proc: each file is opened by name again, and shared" {
  need_cmd strace
  local trace=$BATS_TEST_TMPDIR/trace
  on "$BTRFS"
  make_identical a b "$SIZE"
  no_common_physical a b
  if asan_build; then
    # open 1: a, O_PATH; open 2: /proc/self/fd/N, refused here as where
    # /proc is missing; open 3: a by name.
    run_shim_spec open:2:ENOENT --dedupe a b
  else
    run --separate-stderr without_proc \
      strace -f -o "$trace" -e trace=openat "$FCOPY" --dedupe a b
  fi
  assert_status 0
  assert_stderr
  check_shared a b
  if asan_build; then
    (( $(shim_count "$FCOPY_SHIM_LOG" open) >= 5 ))
    return
  fi
  # The way it went: O_PATH, /proc refused, then by name, for each file.
  assert_equal "$(grep -c '"/proc/self/fd/[0-9]*", .* = -1 ENOENT' "$trace")" 2 \
    "opens through /proc"
  grep -Eq 'openat\(AT_FDCWD, "a", O_RDONLY\|[A-Z_|]*O_NONBLOCK[A-Z_|]*\) = [0-9]+$' "$trace"
  grep -Eq 'openat\(AT_FDCWD, "b", O_RDONLY\|[A-Z_|]*O_NONBLOCK[A-Z_|]*\) = [0-9]+$' "$trace"
}

verbose_line_and_stats ()
{
  make_identical a b "$SIZE"
  run --separate-stderr fcopy --dedupe -v a b
  assert_status 0
  assert_stdout "'a' -> 'b': deduplicated $SIZE bytes" \
    "$(dedupe_stats 1 1 0 0 0 0 "$SIZE")"
  assert_equal "$stderr" "" stderr
  check_shared a b
}

@test "btrfs: -v prints the pair's line and the statistics block" {
  on "$BTRFS"; verbose_line_and_stats
}

@test "xfs: -v prints the pair's line and the statistics block" {
  on "$XFS"; verbose_line_and_stats
}

stats_only ()
{
  make_identical a b "$SIZE"
  run --separate-stderr fcopy --dedupe --stats a b
  assert_status 0
  assert_stdout "$(dedupe_stats 1 1 0 0 0 0 "$SIZE")"
  assert_equal "$stderr" "" stderr
  check_shared a b
}

@test "btrfs: --stats prints the statistics block alone" {
  on "$BTRFS"; stats_only
}

@test "xfs: --stats prints the statistics block alone" {
  on "$XFS"; stats_only
}

# Freshly written files are still delayed allocations: FIEMAP shows no
# physical address (0) for either, which is not "already shared".
fresh_pair ()
{
  make_random a "$SIZE"
  dd if=a of=b bs=1M status=none
  run_shim --dedupe -v a b
  assert_status 0
  assert_stdout "'a' -> 'b': deduplicated $SIZE bytes" \
    "$(dedupe_stats 1 1 0 0 0 0 "$SIZE")"
  assert_dedupe_calls -ge 1
  check_shared a b
}

@test "btrfs: a pair not yet written back is deduplicated, not 'already shared'" {
  on "$BTRFS"; fresh_pair
}

@test "xfs: a pair not yet written back is deduplicated, not 'already shared'" {
  on "$XFS"; fresh_pair
}

# 100 bytes: btrfs keeps them inline, with no physical address at all.
tiny_pair ()
{
  make_identical a b 100
  sync
  run_shim --dedupe -v a b
  assert_status 0
  assert_stdout "'a' -> 'b': deduplicated 100 bytes" \
    "$(dedupe_stats 1 1 0 0 0 0 100)"
  assert_equal "$stderr" "" stderr
  assert_dedupe_calls -ge 1
  assert_same a b
}

@test "btrfs: a 100-byte (inline) pair is deduplicated, not 'already shared'" {
  on "$BTRFS"; tiny_pair
}

@test "xfs: a 100-byte pair is deduplicated" {
  on "$XFS"; tiny_pair
  same_physical a b
}

# --- already shared ----------------------------------------------------------

already_shared ()
{
  make_random a "$SIZE"
  cp --reflink=always a b
  touch -d "$OLD" b
  same_physical a b
  local b_state
  b_state=$(file_state b)
  run_shim --dedupe -v a b
  assert_status 0
  assert_stdout "'a' -> 'b': already shared" "$(dedupe_stats 1 0 1 0 0 0 0)"
  assert_equal "$stderr" "" stderr
  assert_dedupe_calls -eq 0
  assert_equal "$(file_state b)" "$b_state" "DST's content and mtime"
  same_physical a b

  # The same under the shim for a pair that shares nothing: the log does
  # count FIDEDUPERANGE calls.
  make_identical c d "$SIZE"
  run_shim --dedupe c d
  assert_status 0
  assert_dedupe_calls -ge 1
  check_shared c d
}

@test "btrfs: an already shared pair (cp --reflink) needs no FIDEDUPERANGE" {
  on "$BTRFS"; already_shared
}

@test "xfs: an already shared pair (cp --reflink) needs no FIDEDUPERANGE" {
  on "$XFS"; already_shared
}

# DST shares its first 2 MiB with SRC; the rest was rewritten with the
# same bytes in blocks of its own.
partly_shared ()
{
  make_random a "$SIZE"
  cp --reflink=always a b
  dd if=a of=b bs=1M skip=2 seek=2 conv=notrunc status=none
  sync
  run ! same_physical a b
  run_shim --dedupe -v a b
  assert_status 0
  # How many bytes it asked for is its own business (the unshared part or
  # the whole file); the statistics must agree with the line.
  local re="^'a' -> 'b': deduplicated ([0-9]+) bytes\$"
  [[ ${lines[0]:-} =~ $re ]] || { echo "stdout: $output" >&2; false; }
  assert_stdout "${lines[0]}" "$(dedupe_stats 1 1 0 0 0 0 "${BASH_REMATCH[1]}")"
  assert_dedupe_calls -ge 1
  check_shared a b
}

@test "btrfs: a partly shared pair is deduplicated, not 'already shared'" {
  on "$BTRFS"; partly_shared
}

@test "xfs: a partly shared pair is deduplicated, not 'already shared'" {
  on "$XFS"; partly_shared
}

# DST's extents are flagged shared -- with C, not with SRC.
shared_elsewhere ()
{
  make_identical a c "$SIZE"
  cp --reflink=always c b
  extents_all_shared b
  no_common_physical a b
  run_shim --dedupe -v a b
  assert_status 0
  assert_stdout "'a' -> 'b': deduplicated $SIZE bytes" \
    "$(dedupe_stats 1 1 0 0 0 0 "$SIZE")"
  assert_dedupe_calls -ge 1
  check_shared a b
}

@test "btrfs: DST shared with another file (FIEMAP 'shared') is still deduplicated" {
  on "$BTRFS"; shared_elsewhere
}

@test "xfs: DST shared with another file (FIEMAP 'shared') is still deduplicated" {
  on "$XFS"; shared_elsewhere
}

# --- pairs that differ or are skipped ----------------------------------------

differ_last_byte ()
{
  local a_state b_state
  make_identical a b $((40 * MiB))
  flip_last_byte b
  touch -d "$OLD" b
  run ! cmp -s a b
  no_common_physical a b
  a_state=$(file_state a)
  b_state=$(file_state b)
  run --separate-stderr fcopy --dedupe a b
  assert_status 1
  assert_stderr "fcopy: 'a' and 'b' differ"
  assert_equal "$output" "" stdout
  # The whole pair is compared before the first FIDEDUPERANGE: not even
  # the first 16 MiB may be left shared.
  no_common_physical a b
  assert_equal "$(file_state a)" "$a_state" "SRC's content and mtime"
  assert_equal "$(file_state b)" "$b_state" "DST's content and mtime"

  run --separate-stderr fcopy --dedupe -v a b
  assert_status 1
  assert_stdout "'a' -> 'b': differ" "$(dedupe_stats 1 0 0 1 0 0 0)"
  assert_stderr "fcopy: 'a' and 'b' differ"
  no_common_physical a b
}

@test "btrfs: 40 MiB differing in the last byte: 'differ', exit 1, nothing shared" {
  on "$BTRFS"; differ_last_byte
}

@test "xfs: 40 MiB differing in the last byte: 'differ', exit 1, nothing shared" {
  on "$XFS"; differ_last_byte
}

# flip_byte FILE OFFSET: change the byte at OFFSET of FILE, in place.
flip_byte ()
{
  local old
  old=$(od -An -tu1 -j "$2" -N 1 "$1" | tr -d ' ')
  [[ $old =~ ^[0-9]+$ ]] || { echo "flip_byte: no byte $2 in $1" >&2; return 1; }
  printf "\\$(printf '%03o' $(( (old + 1) % 256 )))" |
    dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# file_extents_state FILE: content checksum, mtime and extents (logical,
# physical, length, flags) of FILE, to show that --dedupe left it as it
# was.
file_extents_state ()
{
  local state extents
  state=$(file_state "$1") || return 1
  extents=$(extent_list "$1") || return 1
  [[ -n $extents ]] || { echo "$1: no extents" >&2; return 1; }
  printf '%s\n%s\n' "$state" "$extents"
}

# check_differ SRC DST: fcopy --dedupe SRC DST, then with -v, finds the
# pair differing: exit 1, one message, and both files keep their bytes,
# mtime and extents.  A range mode's --src-offset, --dst-offset,
# --length may follow, with SRC and DST the same file.
check_differ ()
{
  local src=$1 dst=$2 src_state dst_state
  shift 2
  touch -d "$OLD" "$dst"
  src_state=$(file_extents_state "$src")
  dst_state=$(file_extents_state "$dst")
  run --separate-stderr fcopy --dedupe "$@" "$src" "$dst"
  assert_status 1
  assert_stderr "fcopy: '$src' and '$dst' differ"
  assert_equal "$output" "" stdout
  assert_equal "$(file_extents_state "$src")" "$src_state" "SRC's content, mtime and extents"
  assert_equal "$(file_extents_state "$dst")" "$dst_state" "DST's content, mtime and extents"
  run --separate-stderr fcopy --dedupe -v "$@" "$src" "$dst"
  assert_status 1
  assert_stdout "'$src' -> '$dst': differ" "$(dedupe_stats 1 0 0 1 0 0 0)"
  assert_stderr "fcopy: '$src' and '$dst' differ"
  assert_equal "$(file_extents_state "$src")" "$src_state" "SRC's content, mtime and extents"
  assert_equal "$(file_extents_state "$dst")" "$dst_state" "DST's content, mtime and extents"
}

# first_difference A B: the number (from 1) of the first byte where A
# and B differ, as cmp says.
first_difference ()
{
  cmp -- "$1" "$2" | sed -n 's/.* differ: [a-z]* \([0-9]*\),.*/\1/p'
}

# differ_at OFFSET: a pair of SIZE bytes that differs in the byte at
# OFFSET only.
differ_at ()
{
  make_identical a b "$SIZE"
  flip_byte b "$1"
  run ! cmp -s a b
  assert_equal "$(first_difference a b)" $(( $1 + 1 )) "first differing byte"
  no_common_physical a b
  check_differ a b
}

differ_first_and_middle ()
{
  differ_at 0
  rm a b
  differ_at $(( SIZE / 2 + 777 ))
}

@test "btrfs: a pair differing in the first byte or in the middle: 'differ', nothing changed" {
  on "$BTRFS"; differ_first_and_middle
}

@test "xfs: a pair differing in the first byte or in the middle: 'differ', nothing changed" {
  on "$XFS"; differ_first_and_middle
}

# differ_past_1g: sparse files of 1 GiB + 2 MiB, each with 1 MiB of data
# at 0 and 64 KiB at 1 GiB, written alike (no shared block); B differs
# in one byte at 1 GiB + 4097.
differ_past_1g ()
{
  local GiB=$((1024 * MiB)) f
  make_random head $MiB
  make_random tail $((64 * 1024))
  for f in a b; do
    dd if=head of=$f bs=1M status=none
    truncate -s $(( GiB + 2 * MiB )) $f
    dd if=tail of=$f bs=64K seek=$(( GiB / (64 * 1024) )) conv=notrunc status=none
  done
  flip_byte b $(( GiB + 4097 ))
  run ! cmp -s a b
  assert_equal "$(first_difference a b)" $(( GiB + 4098 )) "first differing byte"
  no_common_physical a b
  check_differ a b
}

@test "btrfs: sparse files differing past 1 GiB: 'differ', nothing changed" {
  on "$BTRFS"; differ_past_1g
}

@test "xfs: sparse files differing past 1 GiB: 'differ', nothing changed" {
  on "$XFS"; differ_past_1g
}

# ranges_of_one_file: range mode, SOURCE and DEST one file f of two
# 64 KiB halves alike but for one byte of the second (its first, middle
# or last): the halves as adjacent ranges (0 to 64K) and swapped (64K to
# 0) differ, and f keeps its bytes, mtime and extents.
ranges_of_one_file ()
{
  local K64=$((64 * 1024)) at
  for at in 0 $(( K64 / 2 )) $(( K64 - 1 )); do
    rm -f half f second
    make_random half $K64
    cat half half >f
    flip_byte f $(( K64 + at ))
    tail -c $K64 f >second
    assert_equal "$(first_difference f second)" $(( at + 1 )) "first differing byte of the halves"
    check_differ f f --src-offset=0 --dst-offset=64K --length=64K
    check_differ f f --src-offset=64K --dst-offset=0 --length=64K
  done
}

@test "btrfs: adjacent and swapped ranges of one file that differ: 'differ', nothing changed" {
  on "$BTRFS"; ranges_of_one_file
}

@test "xfs: adjacent and swapped ranges of one file that differ: 'differ', nothing changed" {
  on "$XFS"; ranges_of_one_file
}

differ_in_size ()
{
  local b_state
  make_random a "$SIZE"
  # b is a without its last byte: equal as far as it goes.
  head -c $((SIZE - 1)) a >b
  b_state=$(file_state b)
  run --separate-stderr fcopy --dedupe a b
  assert_status 1
  assert_stderr "fcopy: 'a' and 'b' differ in size"
  assert_equal "$output" "" stdout
  no_common_physical a b
  assert_equal "$(file_state b)" "$b_state" "DST's content and mtime"

  run --separate-stderr fcopy --dedupe -v b a
  assert_status 1
  assert_stderr "fcopy: 'b' and 'a' differ in size"
  assert_stdout "'b' -> 'a': differ" "$(dedupe_stats 1 0 0 1 0 0 0)"
  no_common_physical a b
}

@test "btrfs: different sizes: 'differ in size', exit 1, nothing shared" {
  on "$BTRFS"; differ_in_size
}

@test "xfs: different sizes: 'differ in size', exit 1, nothing shared" {
  on "$XFS"; differ_in_size
}

both_empty ()
{
  : >a
  : >b
  run --separate-stderr fcopy --dedupe a b
  assert_status 1
  assert_stderr "fcopy: 'a' and 'b' are empty: nothing to share"
  assert_equal "$output" "" stdout

  run --separate-stderr fcopy --dedupe -v a b
  assert_status 1
  assert_stderr "fcopy: 'a' and 'b' are empty: nothing to share"
  assert_stdout "'a' -> 'b': skipped" "$(dedupe_stats 1 0 0 0 1 0 0)"
  assert_equal "$(stat -c %s b)" 0 "size of b"
}

@test "btrfs: two empty files: skipped, exit 1" {
  on "$BTRFS"; both_empty
}

@test "xfs: two empty files: skipped, exit 1" {
  on "$XFS"; both_empty
}

same_file ()
{
  make_random a "$SIZE"
  run --separate-stderr fcopy --dedupe a a
  assert_status 1
  assert_stderr "fcopy: 'a' and 'a' are the same file"
  assert_equal "$output" "" stdout

  ln a b
  run --separate-stderr fcopy --dedupe -v a b
  assert_status 1
  assert_stderr "fcopy: 'a' and 'b' are the same file"
  assert_stdout "'a' -> 'b': skipped" "$(dedupe_stats 1 0 0 0 1 0 0)"
  assert_equal "$(stat -c %h a)" 2 "link count of a"
}

@test "btrfs: one file twice, or two hard links: 'are the same file', exit 1" {
  on "$BTRFS"; same_file
}

@test "xfs: one file twice, or two hard links: 'are the same file', exit 1" {
  on "$XFS"; same_file
}

# --- operand forms -----------------------------------------------------------

# Sources s/a and s/b, identical d/a and d/b that share nothing yet.
make_dir_pairs ()
{
  mkdir s d
  make_identical s/a d/a "$SIZE"
  make_identical s/b d/b $((2 * MiB + 1))
  no_common_physical s/a d/a
  no_common_physical s/b d/b
}

src_into_dir ()
{
  make_dir_pairs
  run --separate-stderr fcopy --dedupe -v s/a s/b d
  assert_status 0
  assert_stdout "'s/a' -> 'd/a': deduplicated $SIZE bytes" \
    "'s/b' -> 'd/b': deduplicated $((2 * MiB + 1)) bytes" \
    "$(dedupe_stats 2 2 0 0 0 0 $((SIZE + 2 * MiB + 1)))"
  assert_equal "$stderr" "" stderr
  check_shared s/a d/a
  check_shared s/b d/b

  # One SRC and a DIR: DIR/basename too.
  make_identical c d/c 4097
  sync
  run --separate-stderr fcopy --dedupe -v c d
  assert_status 0
  assert_stdout "'c' -> 'd/c': deduplicated 4097 bytes" \
    "$(dedupe_stats 1 1 0 0 0 0 4097)"
  assert_same c d/c
}

@test "btrfs: SRC... DIR pairs each SRC with DIR/basename" {
  on "$BTRFS"; src_into_dir
}

@test "xfs: SRC... DIR pairs each SRC with DIR/basename" {
  on "$XFS"; src_into_dir
}

target_dir ()
{
  make_dir_pairs
  run --separate-stderr fcopy --dedupe -v -t d s/a s/b
  assert_status 0
  assert_stdout "'s/a' -> 'd/a': deduplicated $SIZE bytes" \
    "'s/b' -> 'd/b': deduplicated $((2 * MiB + 1)) bytes" \
    "$(dedupe_stats 2 2 0 0 0 0 $((SIZE + 2 * MiB + 1)))"
  assert_equal "$stderr" "" stderr
  check_shared s/a d/a
  check_shared s/b d/b
}

@test "btrfs: -t DIR SRC... pairs each SRC with DIR/basename" {
  on "$BTRFS"; target_dir
}

@test "xfs: -t DIR SRC... pairs each SRC with DIR/basename" {
  on "$XFS"; target_dir
}

directory_without_r ()
{
  mkdir sub d
  make_identical a d/a "$SIZE"
  # Like cp, SRC decides: whether d/sub exists does not matter.
  run --separate-stderr fcopy --dedupe sub a d
  assert_status 2
  assert_stderr "fcopy: -r not specified; omitting directory 'sub'"
  assert_equal "$output" "" stdout
  # The pair after it is still done.
  check_shared a d/a

  mkdir d/sub
  run --separate-stderr fcopy --dedupe sub a d
  assert_status 2
  assert_stderr "fcopy: -r not specified; omitting directory 'sub'"

  run --separate-stderr fcopy --dedupe sub a
  assert_status 2
  assert_stderr "fcopy: -r not specified; omitting directory 'sub'"
}

@test "btrfs: a directory operand without -r: omitting directory, exit 2" {
  on "$BTRFS"; directory_without_r
}

@test "xfs: a directory operand without -r: omitting directory, exit 2" {
  on "$XFS"; directory_without_r
}

nonexistent ()
{
  local b_state
  make_random b "$SIZE"
  b_state=$(file_state b)
  run --separate-stderr fcopy --dedupe nope b
  assert_status 2
  assert_stderr "fcopy: cannot stat 'nope': No such file or directory"
  assert_equal "$output" "" stdout
  assert_equal "$(file_state b)" "$b_state" "DST's content and mtime"

  run --separate-stderr fcopy --dedupe b nope
  assert_status 2
  assert_stderr "fcopy: cannot stat 'nope': No such file or directory"
  assert_no_file nope

  mkdir d
  run --separate-stderr fcopy --dedupe -v b d
  assert_status 2
  assert_stderr "fcopy: cannot stat 'd/b': No such file or directory"
  assert_stdout "'b' -> 'd/b': failed" "$(dedupe_stats 1 0 0 0 0 1 0)"
  assert_no_file d/b
}

@test "btrfs: a missing SRC or DST: cannot stat, exit 2" {
  on "$BTRFS"; nonexistent
}

@test "xfs: a missing SRC or DST: cannot stat, exit 2" {
  on "$XFS"; nonexistent
}

not_regular ()
{
  make_random b "$SIZE"
  mkfifo f
  # A FIFO opened for reading would block: the time limit turns that into
  # a failure.
  run --separate-stderr timeout 20 bash -c 'exec -a fcopy "$0" "$@"' "$FCOPY" --dedupe f b
  assert_status 2
  assert_stderr "fcopy: 'f' is not a regular file"
  run --separate-stderr timeout 20 bash -c 'exec -a fcopy "$0" "$@"' "$FCOPY" --dedupe b f
  assert_status 2
  assert_stderr "fcopy: 'f' is not a regular file"
}

@test "btrfs: a FIFO operand: not a regular file, exit 2" {
  on "$BTRFS"; not_regular
}

@test "xfs: a FIFO operand: not a regular file, exit 2" {
  on "$XFS"; not_regular
}

# --- several pairs: the exit status and the counts ---------------------------

mixed_outcome ()
{
  make_dir_pairs
  flip_last_byte d/b
  run --separate-stderr fcopy --dedupe --stats s/a s/b d
  assert_status 1
  assert_stderr "fcopy: 's/b' and 'd/b' differ"
  assert_stdout "$(dedupe_stats 2 1 0 1 0 0 "$SIZE")"
  check_shared s/a d/a
  no_common_physical s/b d/b

  # Again: now one pair is already shared and one differs.
  run --separate-stderr fcopy --dedupe -v s/a s/b d
  assert_status 1
  assert_stderr "fcopy: 's/b' and 'd/b' differ"
  assert_stdout "'s/a' -> 'd/a': already shared" "'s/b' -> 'd/b': differ" \
    "$(dedupe_stats 2 0 1 1 0 0 0)"
}

@test "btrfs: one pair deduplicated and one differing: exit 1, exact counts" {
  on "$BTRFS"; mixed_outcome
}

@test "xfs: one pair deduplicated and one differing: exit 1, exact counts" {
  on "$XFS"; mixed_outcome
}

failure_and_differ ()
{
  make_dir_pairs
  flip_last_byte d/b
  # The failure first, then the differing pair.
  run --separate-stderr fcopy --dedupe --stats s/nope s/b d
  assert_status 2
  assert_stderr "fcopy: cannot stat 's/nope': No such file or directory" \
    "fcopy: 's/b' and 'd/b' differ"
  assert_stdout "$(dedupe_stats 2 0 0 1 0 1 0)"

  # The differing pair first, then the failure: still 2.
  run --separate-stderr fcopy --dedupe -v s/b s/nope d
  assert_status 2
  assert_stderr "fcopy: 's/b' and 'd/b' differ" \
    "fcopy: cannot stat 's/nope': No such file or directory"
  assert_stdout "'s/b' -> 'd/b': differ" "'s/nope' -> 'd/nope': failed" \
    "$(dedupe_stats 2 0 0 1 0 1 0)"
  no_common_physical s/b d/b
}

@test "btrfs: a failure and a differing pair: exit 2" {
  on "$BTRFS"; failure_and_differ
}

@test "xfs: a failure and a differing pair: exit 2" {
  on "$XFS"; failure_and_differ
}
