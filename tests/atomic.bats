#!/usr/bin/env bats
# atomic.bats -- --atomic and --fsync: the destination is the old file or
# the complete new one after success, failure (fault shim, real ENOSPC)
# and signals (the shim stalls a chosen call, the test sends the signal);
# no temporary is ever left; a source that changes is reported.

bats_require_minimum_version 1.5.0
load helpers

setup_file ()
{
  setup_fs_file SMALL=tmpfs:16M EXT4=ext4:64M
}

# teardown_file: helpers.bash's.

setup ()
{
  check_file_skip
  need_shim
  W=$BATS_TEST_TMPDIR/w
  mkdir -p "$W"
  cd "$W"
  make_random src 3000000
  printf 'old destination\n' >dst
  chmod 640 dst
  cp dst dst.orig
}

teardown ()
{
  cd /
  [[ -z ${SMALL:-} ]] || rm -rf "${SMALL:?}"/*
  [[ -z ${EXT4:-} ]] || rm -rf "${EXT4:?}"/t
}

# no_temporaries DIR: nothing of fcopy's temporaries is left in DIR.
no_temporaries ()
{
  local left
  left=$(find "$1" -name '.fcopy-*')
  [[ -z $left ]] || { echo "temporaries left: $left"; return 1; }
}

@test "--atomic: a new file, and an existing one replaced whole, its mode kept" {
  ln dst dst.link
  run --separate-stderr fcopy --atomic -v src new
  assert_status 0
  assert_same src new
  run --separate-stderr fcopy --atomic src dst
  assert_status 0
  assert_same src dst
  assert_equal "$(stat -c %a dst)" 640 "mode of the replaced file"
  # The other name of the old file keeps the old bytes (a new inode).
  cmp dst.orig dst.link
  no_temporaries .
}

@test "--atomic over a symbolic link: replaced, with a new file's owner and mode" {
  need_root
  # Another user plants a link to a setuid file of theirs at DEST.
  printf 'target\n' >victim
  chown nobody victim
  chmod 4755 victim
  ln -s victim link
  chmod 644 src
  run --separate-stderr fcopy --atomic src link
  assert_status 0
  assert_no_symlink link
  assert_same src link
  assert_equal "$(stat -c %a link)" 644 "mode of the copy"
  assert_equal "$(stat -c %U link)" root "owner of the copy"
  assert_equal "$(cat victim)" target "the link's target"
  no_temporaries .
}

@test "--atomic -p takes the source's mode; --backup links the old file" {
  chmod 604 src
  fcopy --atomic -p src dst
  assert_equal "$(stat -c %a dst)" 604 "mode"
  printf 'second\n' >dst
  cp dst before
  run --separate-stderr fcopy --atomic -b -v src dst
  assert_status 0
  assert_stdout "'src' -> 'dst' (backup: 'dst~')"
  cmp before dst~
  assert_same src dst
  no_temporaries .
}

@test "--atomic --backup over an old backup: replaced, or both kept when that fails" {
  printf 'old backup\n' >dst~
  cp dst~ backup.orig
  local spec
  # renameat 1: the old file's temporary name over the old backup;
  # linkat 3: that temporary name (1 names the new file, 2 finds dst~).
  for spec in renameat:1:EIO linkat:3:EIO; do
    run --separate-stderr fcopy_fault "$spec" --atomic -b src dst
    [[ $status -eq 1 && $stderr == "fcopy: cannot backup 'dst': Input/output error" ]] ||
      { echo "$spec: status $status: $stderr"; false; }
    cmp dst.orig dst || { echo "$spec: dst changed"; false; }
    cmp backup.orig dst~ || { echo "$spec: old backup lost"; false; }
    no_temporaries .
  done
  fcopy --atomic -b src dst
  cmp dst.orig dst~
  assert_same src dst
  no_temporaries .
  # DEST already its own backup (two names of one file).
  cp dst.orig dst
  rm dst~
  ln dst dst~
  fcopy --atomic -b src dst
  cmp dst.orig dst~
  assert_same src dst
  no_temporaries .
}

@test "--atomic: a failure while copying leaves DEST as it was, one message" {
  local spec
  for spec in copy_file_range:1:EIO copy_file_range:1:short=1000,copy_file_range:2:EIO \
              copy_file_range:1:EXDEV,write:2:EIO futimens:1:EIO fsetxattr:1:EIO \
              fsync:1:EIO linkat:1:EIO; do
    run --separate-stderr fcopy_fault "$spec,splice:*:EINVAL" --atomic -p --fsync src dst
    [[ $status -eq 1 ]] || { echo "$spec: status $status"; false; }
    [[ $(wc -l <<<"$stderr") -eq 1 && $stderr == *"'dst'"* ]] ||
      { echo "$spec: $stderr"; false; }
    cmp dst.orig dst || { echo "$spec: dst changed"; false; }
    no_temporaries .
  done
}

@test "--atomic without O_TMPFILE: a named temporary, removed on failure" {
  run --separate-stderr fcopy_fault 'tmpfile:*:EOPNOTSUPP' --atomic src dst
  assert_status 0
  assert_same src dst
  cp dst.orig dst
  run --separate-stderr fcopy_fault 'tmpfile:*:EOPNOTSUPP,copy_file_range:1:EIO' --atomic src dst
  assert_status 1
  cmp dst.orig dst
  no_temporaries .
}

@test "--atomic without O_TMPFILE: others cannot read the temporary meanwhile" {
  chmod 644 src
  rm dst
  (
    export LD_PRELOAD=$FAULT_SHIM FCOPY_SHIM_STALLED=$PWD/stalled
    export FCOPY_FAULT='tmpfile:*:EOPNOTSUPP,copy_file_range:1:stall=3,splice:*:EINVAL'
    exec -a fcopy "$FCOPY" --atomic src dst
  ) &
  local pid=$! i temps
  for (( i = 0; i < 500; i++ )); do [[ ! -e stalled ]] || break; sleep 0.01; done
  [[ -e stalled ]]
  temps=(.fcopy-*)
  assert_equal "${#temps[@]}" 1 "named temporaries"
  assert_equal "$(stat -c %a "${temps[0]}")" 600 "the temporary's mode while written"
  wait "$pid"
  assert_same src dst
  assert_equal "$(stat -c %a dst)" "$(printf %o $((8#644 & ~8#$(umask))))" \
    "the copy's mode"
  no_temporaries .
}

@test "--atomic: the rename fails: DEST as it was, no temporary" {
  run --separate-stderr fcopy_fault 'renameat:1:EIO' --atomic src dst
  assert_status 1
  assert_stderr "fcopy: cannot put the copy in place of 'dst': Input/output error"
  cmp dst.orig dst
  no_temporaries .
}

@test "--atomic into a full tmpfs (real ENOSPC): the old DEST survives" {
  printf 'old on tmpfs\n' >"$SMALL/dst"
  make_random big $((20 * 1024 * 1024))
  run --separate-stderr fcopy --atomic big "$SMALL/dst"
  assert_status 1
  [[ $stderr == *"No space left on device"* ]] || { echo "$stderr"; false; }
  assert_equal "$(cat "$SMALL/dst")" 'old on tmpfs' "dst"
  no_temporaries "$SMALL"
  # Without --atomic the destination is cut short: what --atomic is for.
  run --separate-stderr fcopy big "$SMALL/dst"
  assert_status 1
  [[ $(cat "$SMALL/dst") != 'old on tmpfs' ]]
}

@test "--atomic -r into a small ext4 that fills up: every file old or whole" {
  mkdir -p t/d "$EXT4/t/d"
  local i
  for i in 1 2 3 4 5 6; do
    make_random t/d/f$i $((12 * 1024 * 1024))
    printf 'old %s\n' $i >"$EXT4/t/d/f$i"
  done
  run --separate-stderr fcopy --atomic -r t/. "$EXT4/t"
  assert_status 1
  local whole=0
  for i in 1 2 3 4 5 6; do
    if cmp -s t/d/f$i "$EXT4/t/d/f$i"; then
      whole=$((whole + 1))
    else
      assert_equal "$(cat "$EXT4/t/d/f$i")" "old $i" "f$i"
    fi
  done
  [[ $whole -gt 0 && $whole -lt 6 ]] || { echo "$whole files whole"; false; }
  no_temporaries "$EXT4/t"
}

# interrupt SPEC SIG ARG...: run fcopy --atomic ARG... with the shim
# stalling the call SPEC names, send SIG when it stalls, and check that
# fcopy died by SIG.
interrupt ()
{
  local spec=$1 sig=$2 pid rc=0 i
  shift 2
  rm -f stalled
  # A job started with & ignores SIGINT, and fcopy leaves ignored
  # signals ignored (nohup): env gives them back their default, also
  # SIGHUP and SIGTERM where the suite itself runs under nohup.
  env --default-signal=INT,HUP,TERM LD_PRELOAD="$FAULT_SHIM" FCOPY_FAULT="$spec" \
    FCOPY_SHIM_STALLED=$PWD/stalled "$FCOPY" --atomic "$@" &
  pid=$!
  for (( i = 0; i < 500; i++ )); do [[ ! -e stalled ]] || break; sleep 0.01; done
  [[ -e stalled ]] || { kill -KILL "$pid"; echo "never stalled"; return 1; }
  kill -s "$sig" "$pid"
  wait_dead "$pid" 10 || rc=$?
  assert_equal "$rc" $((128 + $(kill -l "$sig"))) "exit status after $sig"
}

@test "--atomic: SIGINT, SIGTERM, SIGHUP at several points, 24 times: DEST intact, no temporary" {
  local spec sig n=0
  for spec in copy_file_range:1:stall copy_file_range:3:stall,copy_file_range:1+:short=99999 \
              futimens:1:stall fsetxattr:1:stall; do
    for sig in INT TERM HUP; do
      interrupt "$spec,splice:*:EINVAL" "$sig" -p src dst
      cmp dst.orig dst || { echo "$spec $sig: dst changed"; false; }
      no_temporaries .
      # The same with a named temporary (no O_TMPFILE).
      interrupt "tmpfile:*:EOPNOTSUPP,$spec,splice:*:EINVAL" "$sig" -p src dst
      cmp dst.orig dst || { echo "$spec $sig (named): dst changed"; false; }
      no_temporaries .
      n=$((n + 2))
    done
  done
  echo "# $n interruptions" >&3
  [[ $n -ge 20 ]]
}

@test "--atomic: a signal during the rename comes after it: DEST whole and new" {
  rm -f stalled
  env --default-signal=INT,HUP,TERM LD_PRELOAD="$FAULT_SHIM" FCOPY_FAULT='renameat:1:stall=1' \
    FCOPY_SHIM_STALLED=$PWD/stalled "$FCOPY" --atomic src dst &
  local pid=$! rc=0 i
  for (( i = 0; i < 500; i++ )); do [[ ! -e stalled ]] || break; sleep 0.01; done
  kill -INT "$pid"
  wait_dead "$pid" 10 || rc=$?
  assert_equal "$rc" 130 "exit status"
  assert_same src dst
  no_temporaries .
}

@test "--fsync: the file and its directory are synced; a failed fsync fails the copy" {
  export FCOPY_SHIM_LOG=$PWD/log
  fcopy_fault '' --fsync src new
  assert_equal "$(shim_count log fsync)" 2 "fsync calls (file, directory)"
  rm -f log
  mkdir -p t/a t/b
  printf '1\n' >t/a/1
  printf '2\n' >t/b/2
  fcopy_fault '' --fsync -r t out
  # 2 files, 3 directories made, and the directory out was made in.
  assert_equal "$(shim_count log fsync)" 6 "fsync calls in a tree"
  run --separate-stderr fcopy_fault 'fsync:1:EIO' --fsync src new2
  assert_status 1
  assert_stderr "fcopy: failed to sync 'new2': Input/output error"
}

@test "a source that changes while it is read: warned, exit 1; --atomic keeps DEST" {
  # The hook appends to the source when fcopy opens the destination,
  # after it opened and stat'ed the source.
  export FCOPY_SHIM_HOOK_ON=/dst FCOPY_SHIM_HOOK="printf more >>'$W/src'"
  run --separate-stderr fcopy_fault '' src "$W/dst"
  assert_status 1
  assert_stderr "fcopy: src: file changed as we read it"
  cp dst.orig dst
  export FCOPY_SHIM_HOOK_ON=/w
  run --separate-stderr fcopy_fault '' --atomic src "$W/dst"
  assert_status 1
  assert_stderr "fcopy: src: file changed as we read it"
  cmp dst.orig dst
  no_temporaries .
}

@test "--atomic and --fsync: usage errors with range mode, --attributes-only, --dedupe" {
  run --separate-stderr fcopy --atomic --length=1 src dst
  assert_status 1
  run --separate-stderr fcopy --atomic --attributes-only src dst
  assert_status 1
  run --separate-stderr fcopy --dedupe --fsync src dst
  assert_status 2
  cmp dst.orig dst
}
