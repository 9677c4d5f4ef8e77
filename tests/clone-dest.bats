#!/usr/bin/env bats
# clone-dest.bats -- --clone-dest=DIR on btrfs and XFS (reflink=1):
# snapshots in generations, each made with -a from a source that changed,
# each file that matches the previous snapshot's (same relative path, size
# and mtime; with --checksum same size and bytes) cloned from it, every
# other file copied from the source; each snapshot equal to its source in
# bytes and metadata, its files inodes of their own.  The source is on
# tmpfs, so a shared extent in a snapshot can only come from DIR (see
# clone-dest.bash).  Then the options that go with it (--stats, --debug,
# -v, --jobs, --atomic, -u), DIR relative and absolute, and which
# directory D the relative path is taken under in each form of the
# command line.

bats_require_minimum_version 1.5.0
load helpers
load clone-dest

setup_file ()
{
  setup_fs_file BTRFS=btrfs XFS=xfs SRCFS=tmpfs:64M
}

# teardown_file and teardown: helpers.bash's (the test's directory on
# every filesystem removed).

setup ()
{
  check_file_skip
  mkdir -p "$SRCFS/$BATS_TEST_NUMBER"
  S=$SRCFS/$BATS_TEST_NUMBER/src
  umask 022
}

# on MNT: work in this test's directory on MNT.
on ()
{
  mkdir -p "$1/$BATS_TEST_NUMBER"
  cd "$1/$BATS_TEST_NUMBER"
}

# gen1: the source of generation 1 in $S and its copy snap.1 (no
# --clone-dest: nothing shared).
gen1 ()
{
  make_gen1 "$S"
  run --separate-stderr fcopy -a "$S" snap.1
  assert_status 0
  assert_stderr ""
  assert_same_tree "$S" snap.1
  check_copied snap.1 "${GEN2_CLONED[@]}" "${GEN2_COPIED[@]:0:3}"
}

# gen2 [OPTION...]: change the source and make snap.2 with
# --clone-dest=../snap.1 and OPTIONs; it must succeed, silently.
gen2 ()
{
  change_gen2 "$S"
  run --separate-stderr fcopy -a "$@" --clone-dest=../snap.1 "$S" snap.2
  assert_status 0
  assert_stderr ""
}

# has_line LINE: $output has LINE, whole.
has_line ()
{
  grep -qxF -- "$1" <<<"$output" || { echo "no line \"$1\" in: $output" >&2; return 1; }
}

# fcopy_timeout ARG...: fcopy, killed after 20 s (a FIFO opened for
# reading would block it for ever).
fcopy_timeout ()
{
  timeout -k 2 20 bash -c 'exec -a fcopy "$0" "$@"' "$FCOPY" "$@"
}

generations ()
{
  on "$1"
  gen1
  local state1 state2
  state1=$(tree_state snap.1)

  gen2
  assert_same_tree "$S" snap.2
  check_cloned snap.1 snap.2 "${GEN2_CLONED[@]}"
  check_copied snap.2 "${GEN2_COPIED[@]}"
  # chmod only: the same size and mtime, so cloned, with the new mode.
  assert_equal "$(stat -c %a snap.2/mode)" 600 "mode of snap.2/mode"
  assert_tree_state snap.1 "$state1"
  state2=$(tree_state snap.2)

  change_gen3 "$S"
  run --separate-stderr fcopy -a --clone-dest=../snap.2 "$S" snap.3
  assert_status 0
  assert_stderr ""
  assert_same_tree "$S" snap.3
  # The files new in generation 2 are cloned from snap.2 now.
  check_cloned snap.2 snap.3 "${GEN3_CLONED[@]}"
  check_copied snap.3 "${GEN3_COPIED[@]}"
  assert_tree_state snap.1 "$state1"
  assert_tree_state snap.2 "$state2"

  # Each generation's file is its own: a chmod or a write in one changes
  # no other.
  chmod 600 snap.3/keep1 snap.3/exec
  overwrite_same_size snap.3/keep1
  chmod 640 snap.2/owned
  assert_tree_state snap.1 "$state1"
  assert_equal "$(stat -c %a snap.3/owned)" 644 "mode of snap.3/owned"
  assert_equal "$(stat -c %a snap.2/exec)" 755 "mode of snap.2/exec"
  cmp "$S/keep1" snap.2/keep1
}

@test "btrfs: three generations: unchanged files cloned from the last, the rest copied, each equal to its source" {
  generations "$BTRFS"
}

@test "xfs: three generations: unchanged files cloned from the last, the rest copied, each equal to its source" {
  generations "$XFS"
}

two_dirs ()
{
  on "$1"
  gen1
  gen2
  # snap.2 lacks a file that snap.1 has, and holds keep1 (same bytes and
  # times) in blocks of its own, so that which DIR a clone came from shows.
  rm snap.2/sub/deep/keep4
  cp --reflink=never -p snap.2/keep1 keep1.tmp
  mv keep1.tmp snap.2/keep1
  no_common_physical snap.1/keep1 snap.2/keep1
  change_gen3 "$S"

  run --separate-stderr fcopy -a --clone-dest=../snap.2 --clone-dest=../snap.1 "$S" snap.3
  assert_status 0
  assert_stderr ""
  assert_same_tree "$S" snap.3
  # The first DIR that has a match, in the order given.
  check_cloned snap.2 snap.3 keep1 mode owned exec edit grow touched renamed new newdir/f
  no_common_physical snap.1/keep1 snap.3/keep1
  check_cloned snap.1 snap.3 sub/deep/keep4
  check_copied snap.3 "${GEN3_COPIED[@]}"

  # The other order: snap.1 first.
  run --separate-stderr fcopy -a --clone-dest=../snap.1 --clone-dest=../snap.2 "$S" snap.3b
  assert_status 0
  assert_stderr ""
  assert_same_tree "$S" snap.3b
  check_cloned snap.1 snap.3b keep1 sub/deep/keep4
  no_common_physical snap.2/keep1 snap.3b/keep1
  check_cloned snap.2 snap.3b edit grow touched renamed new newdir/f
  check_copied snap.3b "${GEN3_COPIED[@]}"
}

@test "btrfs: two --clone-dest: each file from the first that has a match" {
  two_dirs "$BTRFS"
}

@test "xfs: two --clone-dest: each file from the first that has a match" {
  two_dirs "$XFS"
}

checksum ()
{
  on "$1"
  gen1
  # touched: the same bytes, another mtime; edit: other bytes, the same
  # size and mtime.
  touch -m -d '2022-02-02 02:02:02.020202020 UTC' "$S/touched"
  overwrite_same_size "$S/edit"
  touch -m -d '2020-01-02 03:04:05.123456789 UTC' "$S/edit"

  run --separate-stderr fcopy -a --checksum --clone-dest=../snap.1 "$S" snap.2
  assert_status 0
  assert_stderr ""
  assert_same_tree "$S" snap.2
  check_cloned snap.1 snap.2 touched keep1 keep2 sub/keep3 mode
  check_copied snap.2 edit

  # Without --checksum a changed mtime is a changed file.
  run --separate-stderr fcopy -a --clone-dest=../snap.1 "$S" snap.3
  assert_status 0
  assert_stderr ""
  check_copied snap.3 touched
  check_cloned snap.1 snap.3 keep1 keep2
}

@test "btrfs: --checksum: same bytes and another mtime is a match, same mtime and other bytes is not" {
  checksum "$BTRFS"
}

@test "xfs: --checksum: same bytes and another mtime is a match, same mtime and other bytes is not" {
  checksum "$XFS"
}

stats ()
{
  on "$1"
  gen1
  change_gen2 "$S"
  local n bytes
  n=$(( ${#GEN2_CLONED[@]} + ${#UNTRACKED[@]} ))
  bytes=$(sum_sizes "$S" "${GEN2_CLONED[@]}" "${UNTRACKED[@]}")

  run --separate-stderr fcopy -a --stats --clone-dest=../snap.1 "$S" snap.2
  assert_status 0
  assert_stderr ""
  # The two lines right after "skipped: N".
  assert_equal "$(sed -n '/^skipped: /{n;p;n;p;}' <<<"$output")" \
    "files from clone-dest: $n"$'\n'"bytes from clone-dest: $bytes" "the lines after skipped"
  assert_equal "$(grep -c clone-dest <<<"$output")" 2 "lines that name clone-dest"
  assert_same_tree "$S" snap.2
  check_cloned snap.1 snap.2 "${GEN2_CLONED[@]}"

  run --separate-stderr fcopy -a --stats=json --clone-dest=../snap.1 "$S" snap.3
  assert_status 0
  assert_stderr ""
  assert_equal "${#lines[@]}" 1 "lines of --stats=json"
  run python3 -c '
import json, sys
o = json.loads(sys.argv[1])
k = list(o)
i = k.index("skipped")
print(k[i + 1], o[k[i + 1]], k[i + 2], o[k[i + 2]])' "$output"
  assert_status 0
  assert_equal "$output" "files_from_clone_dest $n bytes_from_clone_dest $bytes" "the keys after skipped"

  # Without --clone-dest, neither.
  run --separate-stderr fcopy -a --stats "$S" snap.4
  assert_status 0
  [[ $output != *clone-dest* ]] || { echo "without --clone-dest: $output"; false; }

  # --progress: the bytes cloned from DIR are the summary's shared ones
  # (the source is on tmpfs: nothing else can be shared).
  run --separate-stderr fcopy -a --progress=always --clone-dest=../snap.1 \
    "$S" snap.5
  assert_status 0
  [[ $stderr =~ ^fcopy:\ [0-9]+\ files,\ .*,\ [0-9.]+\ [KMG]?i?B\ shared$ ]] \
    || { echo "summary: $stderr"; false; }
  run --separate-stderr fcopy -a --progress=always "$S" snap.6
  assert_status 0
  [[ $stderr != *shared* ]] || { echo "without --clone-dest: $stderr"; false; }
}

@test "btrfs: --stats and --stats=json count the files and bytes from clone-dest" {
  stats "$BTRFS"
}

@test "xfs: --stats and --stats=json count the files and bytes from clone-dest" {
  stats "$XFS"
}

debug ()
{
  on "$1"
  gen1
  change_gen2 "$S"
  local rel want

  run --separate-stderr fcopy -a --debug --clone-dest=../snap.1 "$S" snap.2
  assert_status 0
  assert_stderr ""
  # Each "cloned from:" line with the destination of the block it ends;
  # it must come right after the block's third line.
  run awk -v q="'" '
    $0 ~ "^" q ".*" q " -> " q ".*" q "$" { dst = $0; sub(/^.* -> /, "", dst); n = 0; next }
    { n++ }
    /^cloned from: / {
      if (n != 3 || prev !~ /^splice: /) print "misplaced: " $0
      else print dst, substr($0, 14)
    }
    { prev = $0 }' <<<"$output"
  want=$(for rel in "${GEN2_CLONED[@]}" "${UNTRACKED[@]}"; do
           echo "'snap.2/$rel' 'snap.2/../snap.1/$rel'"
         done | LC_ALL=C sort)
  assert_equal "$(LC_ALL=C sort <<<"$output")" "$want" "the cloned from: lines"
  assert_same_tree "$S" snap.2

  run --separate-stderr fcopy -a --debug=json --clone-dest=../snap.1 "$S" snap.3
  assert_status 0
  assert_stderr ""
  run python3 -c '
import json, sys
cloned = set(sys.argv[2:])
seen, bad = set(), []
for line in sys.argv[1].splitlines():
    o = json.loads(line)
    keys = [k for k in o if k != "verified"]
    if keys[-1] != "cloned_from":
        bad.append("last key %s in %s" % (keys[-1], line))
    rel = o["destination"][len("snap.3/"):]
    want = "snap.3/../snap.1/" + rel if rel in cloned else None
    if o.get("cloned_from", "missing") != want:
        bad.append("%s: cloned_from %r, expected %r" % (o["destination"], o.get("cloned_from", "missing"), want))
    seen.add(rel)
bad += ["no object for " + r for r in sorted(cloned - seen)]
if "edit" not in seen:
    bad.append("no object for edit")
print("\n".join(bad) or "ok")' "$output" "${GEN2_CLONED[@]}" "${UNTRACKED[@]}"
  assert_status 0
  assert_equal "$output" ok "--debug=json"
}

@test "btrfs: --debug says cloned from: DIRPATH/rel, --debug=json cloned_from" {
  debug "$BTRFS"
}

@test "xfs: --debug says cloned from: DIRPATH/rel, --debug=json cloned_from" {
  debug "$XFS"
}

verbose ()
{
  on "$1"
  gen1
  change_gen2 "$S"
  mkdir ref
  (cd ref && /bin/cp -av "$S" snap.2) >cp.out
  run --separate-stderr fcopy -av --clone-dest=../snap.1 "$S" snap.2
  assert_status 0
  assert_stderr ""
  assert_equal "$output" "$(cat cp.out)" "-v output (as cp -av's)"
  assert_same_tree "$S" snap.2
  check_cloned snap.1 snap.2 "${GEN2_CLONED[@]}"
}

@test "btrfs: -v prints what cp -v prints" {
  verbose "$BTRFS"
}

@test "xfs: -v prints what cp -v prints" {
  verbose "$XFS"
}

combined ()
{
  on "$1"
  gen1
  change_gen2 "$S"
  local opts k=0 inodes
  for opts in --atomic -u --jobs=4 "--jobs=4 --atomic -u --fsync -p"; do
    k=$((k + 1))
    # $opts unquoted: several options in one.
    # shellcheck disable=SC2086
    run --separate-stderr fcopy -a $opts --clone-dest=../snap.1 "$S" snap.2.$k
    [[ $status -eq 0 ]] || { echo "$opts: exit status $status: $stderr"; false; }
    assert_equal "$stderr" "" "$opts: stderr"
    assert_same_tree "$S" snap.2.$k
    check_cloned snap.1 snap.2.$k "${GEN2_CLONED[@]}"
    check_copied snap.2.$k "${GEN2_COPIED[@]}"
  done
  # -u over a complete snapshot: nothing newer in the source, nothing done.
  inodes=$(find snap.2.2 -type f -printf '%P %i\n' | LC_ALL=C sort)
  run --separate-stderr fcopy -a -u -T --clone-dest=../snap.1 "$S" snap.2.2
  assert_status 0
  assert_stderr ""
  assert_equal "$(find snap.2.2 -type f -printf '%P %i\n' | LC_ALL=C sort)" "$inodes" "inodes after -u again"
  assert_same_tree "$S" snap.2.2
}

@test "btrfs: --jobs=4, --atomic, -u with --clone-dest: the same snapshot" {
  combined "$BTRFS"
}

@test "xfs: --jobs=4, --atomic, -u with --clone-dest: the same snapshot" {
  combined "$XFS"
}

rel_abs ()
{
  on "$1"
  gen1
  change_gen2 "$S"
  # Absolute: DIR itself, and so named in --debug.
  run --separate-stderr fcopy -a --debug --clone-dest="$PWD/snap.1" "$S" snap.2
  assert_status 0
  assert_stderr ""
  has_line "cloned from: '$PWD/snap.1/keep1'"
  assert_same_tree "$S" snap.2
  check_cloned snap.1 snap.2 "${GEN2_CLONED[@]}"
  check_copied snap.2 "${GEN2_COPIED[@]}"

  # Relative: to D, not to the working directory.  From snap.3, snap.1
  # is snap.3/snap.1, which does not exist.
  run --separate-stderr fcopy -a --clone-dest=snap.1 "$S" snap.3
  assert_status 0
  assert_stderr "fcopy: warning: cannot open --clone-dest directory 'snap.3/snap.1': No such file or directory"
  assert_same_tree "$S" snap.3
  check_copied snap.3 "${GEN2_CLONED[@]}"

  # D further down: ../../snap.1 from deep/snap.4.
  mkdir deep
  run --separate-stderr fcopy -a --debug --clone-dest=../../snap.1 "$S" deep/snap.4
  assert_status 0
  assert_stderr ""
  has_line "cloned from: 'deep/snap.4/../../snap.1/sub/keep3'"
  assert_same_tree "$S" deep/snap.4
  check_cloned snap.1 deep/snap.4 "${GEN2_CLONED[@]}"
}

@test "btrfs: DIR absolute is itself, relative is relative to D" {
  rel_abs "$BTRFS"
}

@test "xfs: DIR absolute is itself, relative is relative to D" {
  rel_abs "$XFS"
}

# same_meta A B: the same mode, owner, size and mtime (ns).
same_meta ()
{
  assert_equal "$(stat -c '%a %u:%g %s %.9Y' "$2")" "$(stat -c '%a %u:%g %s %.9Y' "$1")" "metadata of $2"
}

forms ()
{
  on "$1"
  gen1
  mkdir d1 d2 d3 d4 d5

  # SRCFILE DESTFILE: D is DESTFILE's directory.
  run --separate-stderr fcopy -p --debug --clone-dest=../snap.1 "$S/keep1" d1/keep1
  assert_status 0
  assert_stderr ""
  has_line "cloned from: 'd1/../snap.1/keep1'"
  check_cloned snap.1 d1 keep1
  cmp "$S/keep1" d1/keep1
  same_meta "$S/keep1" d1/keep1
  # The relative path is the destination's: d1/other would match
  # snap.1/other, and there is none.
  run --separate-stderr fcopy -p --clone-dest=../snap.1 "$S/keep1" d1/other
  assert_status 0
  assert_stderr ""
  check_copied d1 other
  cmp "$S/keep1" d1/other
  # Without -p: cloned all the same (the source's mtime is what matches).
  run --separate-stderr fcopy --clone-dest=../snap.1 "$S/keep2" d1/keep2
  assert_status 0
  assert_stderr ""
  check_cloned snap.1 d1 keep2
  cmp "$S/keep2" d1/keep2

  # SRC... DIR: D is DIR.
  run --separate-stderr fcopy -p --clone-dest=../snap.1 "$S/keep1" "$S/keep2" "$S/edit" d2
  assert_status 0
  assert_stderr ""
  check_cloned snap.1 d2 keep1 keep2 edit
  same_meta "$S/edit" d2/edit

  # -t DIR: D is DIR; d3/keep3 would match snap.1/keep3: none.
  run --separate-stderr fcopy -p --clone-dest=../snap.1 -t d3 "$S/keep1" "$S/sub/keep3"
  assert_status 0
  assert_stderr ""
  check_cloned snap.1 d3 keep1
  check_copied d3 keep3
  cmp "$S/sub/keep3" d3/keep3

  # A directory into a target directory: D is the target, and the
  # relative path begins with the directory's name.
  run --separate-stderr fcopy -a --clone-dest=../snap.1 "$S/sub" d4
  assert_status 0
  assert_stderr ""
  assert_same_tree "$S/sub" d4/sub
  check_cloned snap.1 d4 sub/keep3 sub/deep/keep4

  # A directory copied as DEST, which does not exist: D is DEST.
  run --separate-stderr fcopy -a --clone-dest=../../snap.1/sub "$S/sub" d5/sub
  assert_status 0
  assert_stderr ""
  assert_same_tree "$S/sub" d5/sub
  check_cloned snap.1/sub d5/sub keep3 deep/keep4
}

@test "btrfs: D in each form: SRCFILE DESTFILE, SRC... DIR, -t DIR, a directory into DIR or as DEST" {
  forms "$BTRFS"
}

@test "xfs: D in each form: SRCFILE DESTFILE, SRC... DIR, -t DIR, a directory into DIR or as DEST" {
  forms "$XFS"
}

not_matches ()
{
  on "$1"
  gen1
  # In snap.1: keep1 a symbolic link to a matching file outside it, sub a
  # symbolic link to a directory outside it with matching files, keep2 a
  # directory, edit a FIFO, grow of another size with the same mtime.
  mkdir outside
  cp --reflink=never -p snap.1/keep1 outside/keep1
  rm snap.1/keep1
  ln -s ../outside/keep1 snap.1/keep1
  mv snap.1/sub outside/sub
  ln -s ../outside/sub snap.1/sub
  rm snap.1/keep2
  mkdir snap.1/keep2
  rm snap.1/edit
  mkfifo snap.1/edit
  truncate -s 100 snap.1/grow
  touch -m -d '2020-01-02 03:04:05.123456789 UTC' snap.1/grow

  run --separate-stderr fcopy_timeout -a --clone-dest=../snap.1 "$S" snap.2
  assert_status 0
  assert_stderr ""
  assert_same_tree "$S" snap.2
  check_copied snap.2 keep1 sub/keep3 sub/deep/keep4 keep2 edit grow
  check_cloned snap.1 snap.2 mode owned exec
}

@test "btrfs: symbolic links in DIR are not followed; a directory, a FIFO, another size are no match" {
  not_matches "$BTRFS"
}

@test "xfs: symbolic links in DIR are not followed; a directory, a FIFO, another size are no match" {
  not_matches "$XFS"
}
