#!/usr/bin/env bats
# resume.bats -- a snapshot made with -a --atomic --clone-dest, interrupted
# by SIGINT or SIGTERM at a chosen call (the fault shim stalls it, the
# test sends the signal), leaves no temporary and no half-written file
# under a final name; the same command run again finishes the job, and
# the result is what an uninterrupted run makes: the same bytes and
# metadata, the unchanged files cloned from DIR, the others copied.  With
# -u the rerun skips what the interrupted run finished, and finishes the
# rest.  On btrfs, the source on tmpfs (see clone-dest.bash).
#
# The command is `fcopy -a -T --atomic --clone-dest=../snap.1 SRC snap.2`:
# -T, so that the rerun, with snap.2 already there, copies SRC onto
# snap.2 again and not into snap.2/src, as cp would without it.

bats_require_minimum_version 1.5.0
load helpers
load clone-dest

MiB=$((1024 * 1024))

# Deterministic paths for the bytes: no copy_file_range (tmpfs to btrfs
# may or may not offer it), splice in 64 KiB steps, so that a big file
# takes many calls and a stall can fall in the middle of one.
BASE_FAULTS='copy_file_range:*:EXDEV,splice:*:short=65536'

CLONED=("${GEN2_CLONED[@]}")
COPIED=("${GEN2_COPIED[@]}" newdir/big)

setup_file ()
{
  need_shim
  setup_fs_file BTRFS=btrfs SRCFS=tmpfs:64M
}

# teardown_file and teardown: helpers.bash's.

setup ()
{
  check_file_skip
  mkdir -p "$SRCFS/$BATS_TEST_NUMBER" "$BTRFS/$BATS_TEST_NUMBER"
  S=$SRCFS/$BATS_TEST_NUMBER/src
  LOG=$BATS_TEST_TMPDIR/ref.log
  cd "$BTRFS/$BATS_TEST_NUMBER"
  umask 022
}

# prepare [OPTION...]: generation 1 and snap.1, the source changed (with
# a 2 MiB new file), and ref: the uninterrupted run with OPTIONs, its
# calls logged in $LOG.
prepare ()
{
  make_gen1 "$S"
  run --separate-stderr fcopy -a "$S" snap.1
  assert_status 0
  change_gen2 "$S"
  make_random "$S/newdir/big" $((2 * MiB + 12345))
  rm -f "$LOG"
  FCOPY_SHIM_LOG=$LOG run --separate-stderr fcopy_fault "$BASE_FAULTS" \
    -a -T --atomic "$@" --clone-dest=../snap.1 "$S" ref
  assert_status 0
  assert_stderr ""
  assert_same_tree "$S" ref
  check_cloned snap.1 ref "${CLONED[@]}"
  check_copied ref "${COPIED[@]}"
}

# interrupt NAME PERCENT SIG [OPTION...]: run the command into snap.2
# (removed first) with the shim stalling the call NAME that comes
# PERCENT % of the way through the calls NAME of the uninterrupted run
# ($LOG), send SIG when the stall begins, and check that fcopy died of
# SIG.  The stall is for ever, or as $STALL says (stall=1: a second,
# then the call is made).
interrupt ()
{
  local name=$1 percent=$2 sig=$3 n k pid rc=0
  shift 3
  n=$(shim_count "$LOG" "$name")
  (( n > 0 )) || { echo "the uninterrupted run made no $name call" >&2; return 1; }
  k=$(( n * percent / 100 ))
  (( k >= 1 )) || k=1
  rm -rf snap.2
  export FCOPY_SHIM_STALLED=$BATS_TEST_TMPDIR/stalled
  rm -f "$FCOPY_SHIM_STALLED"
  # A job started with & ignores SIGINT, and fcopy leaves ignored
  # signals ignored: env gives them back their default.  The stall
  # first: the shim applies the first spec that names a call.
  env --default-signal=INT,HUP,TERM LD_PRELOAD="$FAULT_SHIM" \
    FCOPY_FAULT="$name:$k:${STALL:-stall},$BASE_FAULTS" \
    "$FCOPY" -a -T --atomic "$@" --clone-dest=../snap.1 "$S" snap.2 &
  pid=$!
  wait_for_stall >&2 || { kill -KILL "$pid"; wait "$pid" || true; echo "$name $k of $n: no stall" >&2; return 1; }
  kill -s "$sig" "$pid"
  wait_dead "$pid" 10 || rc=$?
  assert_equal "$rc" $((128 + $(kill -l "$sig"))) "exit status after $sig at $name $k of $n"
}

# check_interrupted: what the interrupted run left in snap.2: no name
# that the source does not have (no temporary), and each file there
# complete: the source's bytes and mtime (a symbolic link, its target).
check_interrupted ()
{
  local extra rel
  [[ -d snap.2 ]] || { echo "no snap.2 at all: the stall came too early" >&2; return 1; }
  extra=$(find snap.2 -name '.fcopy-*')
  [[ -z $extra ]] || { echo "temporaries left: $extra" >&2; return 1; }
  extra=$(comm -23 <(tree_listing snap.2) <(tree_listing "$S"))
  [[ -z $extra ]] || { echo "names in snap.2 that the source does not have: $extra" >&2; return 1; }
  while IFS= read -r -d '' rel; do
    if [[ -L snap.2/$rel ]]; then
      assert_equal "$(readlink "snap.2/$rel")" "$(readlink "$S/$rel")" "target of snap.2/$rel" || return 1
    else
      cmp "$S/$rel" "snap.2/$rel" >&2 || { echo "snap.2/$rel is not complete" >&2; return 1; }
      assert_equal "$(stat -c %.9Y "snap.2/$rel")" "$(stat -c %.9Y "$S/$rel")" \
        "mtime of snap.2/$rel" || return 1
    fi
  done < <(cd snap.2 && find . \( -type f -o -type l \) -printf '%P\0')
}

# rerun [OPTION...]: the same command again, then snap.2 must be what
# the uninterrupted run made.
rerun ()
{
  run --separate-stderr fcopy -a -T --atomic "$@" --clone-dest=../snap.1 "$S" snap.2
  assert_status 0
  assert_stderr ""
  assert_same_tree "$S" snap.2
  assert_same_tree ref snap.2
  check_cloned snap.1 snap.2 "${CLONED[@]}"
  check_copied snap.2 "${COPIED[@]}"
}

# round NAME PERCENT SIG: interrupt, check, rerun.
round ()
{
  interrupt "$@"
  check_interrupted
  rerun
}

@test "SIGINT during a clone from DIR (FICLONE): nothing half made; the rerun finishes" {
  prepare
  round ficlone 50 INT
}

@test "SIGINT in the middle of a copy from the source (splice): nothing half made; the rerun finishes" {
  prepare
  round splice 50 INT
}

@test "SIGINT at an open between files, at two points: the rerun finishes" {
  prepare
  round open 30 INT
  round open 70 INT
}

@test "SIGINT while the times are set (futimens): the rerun finishes" {
  prepare
  round futimens 50 INT
}

@test "SIGINT during the rename of a copy to its final name: the rename done, then no temporary" {
  prepare
  # fcopy holds signals back while it renames (atomic.bats): the rename
  # must end, so the shim makes the call after a second.
  STALL=stall=1 round renameat 40 INT
}

@test "SIGTERM in the middle of a copy from the source: the rerun finishes" {
  prepare
  round splice 80 TERM
}

@test "-a --atomic -u interrupted, then -u again: what was done is kept, the rest finished" {
  local point inodes kept
  prepare -u
  for point in "splice 50" "ficlone 60" "open 40"; do
    # $point unquoted: the call's name and its percentage.
    # shellcheck disable=SC2086
    interrupt $point INT -u
    check_interrupted
    inodes=$(cd snap.2 && find . -type f -printf '%P %i\n' | LC_ALL=C sort)
    rerun -u
    # Each file the interrupted run finished was skipped, not made again.
    kept=$(cd snap.2 && find . -type f -printf '%P %i\n' | LC_ALL=C sort)
    assert_equal "$(comm -23 <(echo "$inodes") <(echo "$kept"))" "" \
      "files of the interrupted run ($point) made again by -u"
  done
}
