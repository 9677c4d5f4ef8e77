#!/usr/bin/env bats
# crash.bats -- the crash test of design section 12, without device-mapper:
# a loop XFS and a loop ext4 are shut down (FS_IOC_SHUTDOWN, through
# `xfs_io -x -c shutdown`) right after a copy or in the middle of one, as a
# power cut would stop them, then unmounted and mounted again (log
# recovery), and DEST is compared with the old and the new file.
#   --atomic --fsync, `shutdown -f` (the log written out first, so all
#   that was committed is kept): DEST is the whole new file, never empty,
#   and nothing else is in its directory; the same for a tree with -a.
#   --atomic alone, `shutdown` (the log as the disk has it) and `shutdown
#   -f`: DEST is the old file or the whole new one, never a mix, never
#   empty.
#   --atomic alone, `shutdown -f` in the middle of the copy: DEST is the
#   old file and no temporary is left.
# The sources are on the host's disk, so that the bytes are written (a
# clone on the same filesystem writes none).

bats_require_minimum_version 1.5.0
load helpers

MiB=$((1024 * 1024))
ROUNDS=5

setup_file ()
{
  need_shim
  need_cmd xfs_io
  setup_fs_file XFS=xfs EXT4=ext4
  [[ -z ${FCOPY_FILE_SKIP:-} ]] || return 0
  restart "$EXT4"
}

setup ()
{
  check_file_skip
  cd "$BATS_TEST_TMPDIR"
}

teardown ()
{
  local m
  cd /
  # A round that failed may have left its filesystem down or unmounted.
  for m in "${XFS:-}" "${EXT4:-}"; do
    [[ -n $m ]] || continue
    if ! is_mounted "$m" || ! touch "$m/.alive" 2>/dev/null; then
      restart "$m"
    fi
    rm -f "$m/.alive"
  done
  teardown_fs_test
}

# teardown_file: helpers.bash's.

# restart MNT: mount the filesystem at MNT again (unmounting it first if
# it is mounted).  ext4 commits its journal every 5 seconds by default;
# with commit=600 no periodic commit falls between a copy and the
# shutdown, so that the rounds without --fsync see what fcopy made
# durable, not when the kernel last happened to commit.
restart ()
{
  if [[ $1 == "$EXT4" ]]; then
    remount_fs "$1" commit=600
  else
    remount_fs "$1"
  fi
}

# shut_down MNT [-f]: stop MNT as a power cut would (with -f, after
# writing out the log), and check that it is down: no file can be made.
shut_down ()
{
  xfs_io -x -c "shutdown ${2:-}" "$1"
  if touch "$1/.probe" 2>/dev/null; then
    echo "$1 is not shut down" >&2
    return 1
  fi
}

# crash MNT [-f]: shut MNT down and mount it again.
crash ()
{
  shut_down "$@"
  restart "$1"
}

# make_old_and_new DIR SIZE: the new file "new" of SIZE random bytes here,
# the old one "old" (half as long again, so that a mix of the two or a
# new file cut short does not pass for either), and DIR/dst a copy of old
# that is on disk for sure.
make_old_and_new ()
{
  make_random new "$2"
  make_random old $(($2 + $2 / 2 + 4097))
  rm -rf "$1"
  mkdir -p "$1"
  cp old "$1/dst"
  sync -f "$1/dst"
}

# which_file FILE: which of old and new FILE is, byte for byte: "old",
# "new", or what it is instead.
which_file ()
{
  if [[ ! -f $1 ]]; then
    echo "no file"
  elif cmp -s new "$1"; then
    echo new
  elif cmp -s old "$1"; then
    echo old
  else
    echo "neither old nor new: $(stat -c %s "$1") bytes" \
      "(old $(stat -c %s old), new $(stat -c %s new))"
  fi
}

# only_dst DIR: DIR holds dst and nothing else: no temporary, no stray name.
only_dst ()
{
  assert_equal "$(ls -A "$1")" dst "what $1 holds"
}

# synced_rounds MNT: --atomic --fsync, then shutdown -f: the whole new
# file, ROUNDS times for each size.
synced_rounds ()
{
  # The counter is not called i: bats's run (1.8) sets a variable i of its
  # caller's, and a loop on i would start again for ever.
  local d=$1/$BATS_TEST_NUMBER size round
  for size in $MiB $((40 * MiB)); do
    for ((round = 1; round <= ROUNDS; round++)); do
      make_old_and_new "$d" "$size"
      run --separate-stderr fcopy --atomic --fsync new "$d/dst"
      assert_status 0
      crash "$1" -f
      assert_equal "$(which_file "$d/dst")" new "round $round, $size bytes: dst"
      only_dst "$d"
    done
  done
}

# unsynced_rounds MNT: --atomic alone, then shutdown with the log as the
# disk has it, and with the log written out first (-f: the rename is then
# kept, and the data must be there too: before fcopy wrote the data out
# ahead of the rename, DEST came back empty here): the old file or the
# whole new one.  Prints how many of each.
unsynced_rounds ()
{
  local d=$1/$BATS_TEST_NUMBER size round flag what n_old=0 n_new=0
  for flag in '' -f; do
    for size in $MiB $((40 * MiB)); do
      for ((round = 1; round <= ROUNDS; round++)); do
        make_old_and_new "$d" "$size"
        run --separate-stderr fcopy --atomic new "$d/dst"
        assert_status 0
        crash "$1" $flag
        what=$(which_file "$d/dst")
        case $what in
          old) n_old=$((n_old + 1)) ;;
          new) n_new=$((n_new + 1)) ;;
          *) echo "shutdown $flag, round $round, $size bytes: dst is $what" >&2
             return 1 ;;
        esac
        only_dst "$d"
      done
    done
  done
  echo "# after the crash: $n_old times the old file, $n_new times the new one" >&3
}

# midway_rounds MNT: --atomic alone, shut down with -f while fcopy waits
# in the shim at a chosen call (from the first bytes written to the last
# call before the temporary gets a name): the old file, nothing else.
midway_rounds ()
{
  local d=$1/$BATS_TEST_NUMBER spec pid t
  for spec in splice:2 splice:21 splice:40 splice:59 linkat:1; do
    make_old_and_new "$d" $((40 * MiB))
    rm -f stalled
    # The bytes go through splice (host disk to loop device): make sure
    # of it, whatever the kernel offers across filesystems.
    LD_PRELOAD=$FAULT_SHIM FCOPY_FAULT="copy_file_range:*:EXDEV,$spec:stall" \
      FCOPY_SHIM_STALLED=$PWD/stalled "$FCOPY" --atomic new "$d/dst" &
    pid=$!
    for ((t = 0; t < 1000; t++)); do [[ ! -e stalled ]] || break; sleep 0.01; done
    [[ -e stalled ]] || { kill -KILL "$pid"; echo "$spec: never stalled" >&2; return 1; }
    shut_down "$1" -f
    kill -KILL "$pid"
    wait "$pid" || true
    restart "$1"
    assert_equal "$(which_file "$d/dst")" old "crash at $spec: dst"
    only_dst "$d"
  done
}

# make_tree DIR WHAT: a tree of directories, files of several sizes
# (0 to 3 MiB and an odd tail) and modes, and a symbolic link, each file
# WHAT's own random bytes.
make_tree ()
{
  local f size
  mkdir -p "$1/a/b" "$1/c"
  for f in empty:0 a/one:1 a/page:4097 a/b/mib:$((MiB + 3)) a/b/three:$((3 * MiB)) \
           c/tail:123457 c/x:65536 top:$((2 * MiB + 1)); do
    size=${f#*:}
    make_random "$1/${f%:*}" "$size"
  done
  chmod 600 "$1/a/one"
  chmod 755 "$1/c/x"
  ln -sfn a/b/mib "$1/link"
}

# tree_rounds MNT: -a --atomic --fsync of a tree over an old copy of it,
# then shutdown -f: every file whole and new (bytes and mode), the one
# only the old copy has untouched, no other name.
tree_rounds ()
{
  local d=$1/$BATS_TEST_NUMBER round f want
  for ((round = 1; round <= ROUNDS; round++)); do
    rm -rf t old-t "$d"
    make_tree t
    make_tree old-t
    printf 'only in the old copy\n' >old-t/only-old
    mkdir -p "$d"
    cp -a old-t "$d/t"
    sync -f "$d"
    run --separate-stderr fcopy -a --atomic --fsync t "$d"
    assert_status 0
    crash "$1" -f
    want=$(set -o pipefail; { tree_listing t; echo ./only-old; } | LC_ALL=C sort)
    assert_equal "$(tree_listing "$d/t")" "$want" "round $round: names in the copy"
    while read -r f; do
      cmp t/"$f" "$d/t/$f" >&2 || { echo "round $round: $f is not the new file" >&2; return 1; }
      assert_equal "$(stat -c %a "$d/t/$f")" "$(stat -c %a "t/$f")" "round $round: mode of $f"
    done < <(cd t && find . -type f)
    assert_equal "$(readlink "$d/t/link")" a/b/mib "round $round: link"
    cmp old-t/only-old "$d/t/only-old"
  done
}

@test "xfs: --atomic --fsync, then a crash: DEST is the whole new file, nothing else left" {
  synced_rounds "$XFS"
}

@test "xfs: --atomic without --fsync, then a crash: DEST is the old or the whole new file" {
  unsynced_rounds "$XFS"
}

@test "xfs: a crash in the middle of an --atomic copy: DEST is the old file, no temporary" {
  midway_rounds "$XFS"
}

@test "xfs: -a --atomic --fsync of a tree over an old copy, then a crash: every file whole and new" {
  tree_rounds "$XFS"
}

@test "ext4: --atomic --fsync, then a crash: DEST is the whole new file, nothing else left" {
  synced_rounds "$EXT4"
}

@test "ext4: --atomic without --fsync, then a crash: DEST is the old or the whole new file" {
  unsynced_rounds "$EXT4"
}

@test "ext4: a crash in the middle of an --atomic copy: DEST is the old file, no temporary" {
  midway_rounds "$EXT4"
}

@test "ext4: -a --atomic --fsync of a tree over an old copy, then a crash: every file whole and new" {
  tree_rounds "$EXT4"
}
