#!/usr/bin/env bats
# clone-dest-fallback.bats -- --clone-dest=DIR where DIR's files cannot be
# cloned into D: on ext4 and tmpfs (no clone at all) and across
# filesystems.  Each file is then copied from its source, and one notice
# a DIR a run says so, exit status 0; with --reflink=always, an error
# for each such file and no file left.  A DIR that cannot be opened: one
# warning, everything copied.  And the usage errors.

bats_require_minimum_version 1.5.0
load helpers
load clone-dest

setup_file ()
{
  setup_fs_file EXT4=ext4 TMPFS=tmpfs:64M BTRFS=btrfs XFS=xfs
}

# teardown_file and teardown: helpers.bash's.

setup ()
{
  local m
  check_file_skip
  for m in "$EXT4" "$TMPFS" "$BTRFS" "$XFS"; do
    mkdir -p "$m/$BATS_TEST_NUMBER"
  done
  umask 022
}

# notice DIRPATH D ERROR: the notice that DIRPATH's files cannot be
# cloned into D.
notice ()
{
  echo "fcopy: notice: files of '$1' cannot be cloned into '$2', copied from the sources instead: $3"
}

# snapshots_on MNT: in MNT's test directory, the source src (generation
# 1), its copy snap.1, then the source changed for generation 2.
snapshots_on ()
{
  cd "$1/$BATS_TEST_NUMBER"
  make_gen1 src
  run --separate-stderr fcopy -a src snap.1
  assert_status 0
  assert_same_tree src snap.1
  change_gen2 src
}

# no_clone MNT ERROR: DIR and D on MNT, which cannot clone: everything
# copied, one notice, exit 0; the same with --jobs=4, 30 times.
no_clone ()
{
  snapshots_on "$1"
  run --separate-stderr fcopy -a --clone-dest=../snap.1 src snap.2
  assert_status 0
  assert_stderr "$(notice snap.2/../snap.1 snap.2 "$2")"
  assert_equal "$output" "" stdout
  assert_same_tree src snap.2
  # With --jobs=4 the threads race to the first failed clone: still one
  # notice, each time (30 runs, to give a race a chance to show).
  local run_no
  for run_no in $(seq 30); do
    rm -rf snap.3
    run --separate-stderr fcopy -a --jobs=4 --clone-dest=../snap.1 src snap.3
    assert_status 0
    assert_equal "$stderr" "$(notice snap.3/../snap.1 snap.3 "$2")" "stderr of --jobs=4 run $run_no"
  done
  assert_same_tree src snap.3
}

@test "ext4: DIR and D on ext4: everything copied, one notice, exit 0" {
  no_clone "$EXT4" "Operation not supported"
}

@test "tmpfs: DIR and D on tmpfs: everything copied, one notice, exit 0" {
  no_clone "$TMPFS" "Operation not supported"
}

@test "DIR on tmpfs, D on ext4: one notice, Invalid cross-device link" {
  snapshots_on "$EXT4"
  local dir=$TMPFS/$BATS_TEST_NUMBER/snap.1
  fcopy -a snap.1 "$dir"
  run --separate-stderr fcopy -a -v --clone-dest="$dir" src snap.2
  assert_status 0
  assert_stderr "$(notice "$dir" snap.2 "Invalid cross-device link")"
  assert_same_tree src snap.2
}

@test "DIR on btrfs, D on XFS: one notice, Invalid cross-device link; two such DIRs, one notice each" {
  snapshots_on "$XFS"
  local dir=$BTRFS/$BATS_TEST_NUMBER/snap.1 dir2=$EXT4/$BATS_TEST_NUMBER/snap.1
  fcopy -a snap.1 "$dir"
  run --separate-stderr fcopy -a --clone-dest="$dir" src snap.2
  assert_status 0
  assert_stderr "$(notice "$dir" snap.2 "Invalid cross-device link")"
  assert_same_tree src snap.2

  # The second DIR (on ext4) has a file the first lacks: each DIR's
  # files fail to clone, each DIR says so once.
  fcopy -a snap.1 "$dir2"
  rm "$dir/keep1"
  run --separate-stderr fcopy -a --clone-dest="$dir" --clone-dest="$dir2" src snap.3
  assert_status 0
  assert_equal "$(LC_ALL=C sort <<<"$stderr")" \
    "$( { notice "$dir" snap.3 "Invalid cross-device link"
          notice "$dir2" snap.3 "Invalid cross-device link"; } | LC_ALL=C sort)" stderr
  assert_same_tree src snap.3
}

@test "DIR on btrfs, D on XFS, --reflink=always: an error for each matching file, not left; exit 1" {
  snapshots_on "$XFS"
  local dir=$BTRFS/$BATS_TEST_NUMBER/snap.1 rel want
  fcopy -a snap.1 "$dir"
  run --separate-stderr fcopy -a --reflink=always --clone-dest="$dir" src snap.2
  assert_status 1
  want=$(for rel in "${GEN2_CLONED[@]}" "${UNTRACKED[@]}"; do
           echo "fcopy: failed to clone 'snap.2/$rel' from '$dir/$rel': Invalid cross-device link"
         done | LC_ALL=C sort)
  assert_equal "$(LC_ALL=C sort <<<"$stderr")" "$want" stderr
  for rel in "${GEN2_CLONED[@]}" "${UNTRACKED[@]}"; do
    assert_no_file "snap.2/$rel"
  done
  # The files with no match in DIR are cloned from their sources (on
  # this XFS), as --reflink=always does.
  # (Shared extents are proof enough: DIR on btrfs shares nothing with
  # XFS; the sources may have XFS's preallocation past EOF, which a
  # clone does not take, so same_physical would not do.)
  for rel in "${GEN2_COPIED[@]}"; do
    cmp "src/$rel" "snap.2/$rel"
    extents_all_shared "snap.2/$rel"
  done
}

@test "a DIR that cannot be opened: one warning, exit 0, everything copied" {
  S=$TMPFS/$BATS_TEST_NUMBER/src
  make_gen1 "$S"
  cd "$BTRFS/$BATS_TEST_NUMBER"
  run --separate-stderr fcopy -a --clone-dest=../nope "$S" snap.1
  assert_status 0
  assert_stderr "fcopy: warning: cannot open --clone-dest directory 'snap.1/../nope': No such file or directory"
  assert_equal "$output" "" stdout
  assert_same_tree "$S" snap.1
  check_copied snap.1 "${GEN2_CLONED[@]}"

  # With --jobs=4, still one warning.
  run --separate-stderr fcopy -a --jobs=4 --clone-dest=../nope "$S" snap.x
  assert_status 0
  assert_stderr "fcopy: warning: cannot open --clone-dest directory 'snap.x/../nope': No such file or directory"
  assert_same_tree "$S" snap.x

  # A missing DIR before one that is there: warned of, the other used.
  change_gen2 "$S"
  run --separate-stderr fcopy -a --clone-dest=../nope --clone-dest=../snap.1 "$S" snap.2
  assert_status 0
  assert_stderr "fcopy: warning: cannot open --clone-dest directory 'snap.2/../nope': No such file or directory"
  assert_same_tree "$S" snap.2
  check_cloned snap.1 snap.2 "${GEN2_CLONED[@]}"
  check_copied snap.2 "${GEN2_COPIED[@]}"
}

@test "a DIR that is a regular file cannot be opened as one: one warning, Not a directory" {
  S=$TMPFS/$BATS_TEST_NUMBER/src
  make_gen1 "$S"
  cd "$BTRFS/$BATS_TEST_NUMBER"
  : >afile
  run --separate-stderr fcopy -a --clone-dest="$PWD/afile" "$S" snap.1
  assert_status 0
  assert_stderr "fcopy: warning: cannot open --clone-dest directory '$PWD/afile': Not a directory"
  assert_same_tree "$S" snap.1
}

@test "usage errors: --clone-dest with --dedupe, --reflink=never, -l, -s, --attributes-only, a range; --checksum alone" {
  cd "$BATS_TEST_TMPDIR"
  echo data >a
  mkdir d
  local opt where bad=
  local want="fcopy: --clone-dest cannot be combined with --dedupe, --reflink=never, -l, -s, --attributes-only or a range
Try 'fcopy --help' for more information."
  # Every combination and both orders tried, then every failure told.
  for opt in --dedupe --reflink=never -l -s --attributes-only --length=2 --src-offset=1 --dst-offset=1; do
    for where in before after; do
      if [[ $where == before ]]; then
        run --separate-stderr fcopy "$opt" --clone-dest=d a b
      else
        run --separate-stderr fcopy --clone-dest=d "$opt" a b
      fi
      # With --dedupe every usage error exits 2, as cmp's trouble.
      local want_status=1
      if [[ $opt == --dedupe ]]; then
        want_status=2
      fi
      if [[ $status -ne $want_status || $stderr != "$want" || -e b ]]; then
        bad+="$opt ($where --clone-dest): exit status $status, b $( [[ -e b ]] && echo made || echo not made ), stderr: $stderr"$'\n'
      fi
      rm -f b
    done
  done
  [[ -z $bad ]] || { printf '%s' "$bad"; false; }
  run --separate-stderr fcopy --checksum a b
  assert_status 1
  assert_stderr "fcopy: --checksum works with --clone-dest only" \
    "Try 'fcopy --help' for more information."
  assert_no_file b
  # --reflink=always and auto are fine.
  run --separate-stderr fcopy --reflink=auto --checksum --clone-dest=d a b
  assert_status 0
  cmp a b
}

@test "btrfs: a refusal that may be the one file's (EINVAL): a notice for it, the others still cloned" {
  need_shim
  cd "$BTRFS"
  mkdir -p s
  head -c 100000 /dev/urandom >s/a
  head -c 100000 /dev/urandom >s/b
  fcopy -a s snap.1
  export FCOPY_SHIM_LOG=$BATS_TEST_TMPDIR/shim.log
  # --jobs=1: the first FICLONE is a's, from snap.1 (the walk's inode
  # order: on btrfs a new inode's number is above all before it).
  run --separate-stderr fcopy_fault ficlone:1:EINVAL -a --jobs=1 --stats \
    --clone-dest=../snap.1 s snap.2
  assert_status 0
  assert_stderr "fcopy: notice: 'snap.2/../snap.1/a' cannot be cloned, copied from the source instead: Invalid argument"
  assert_equal "$(grep -c '^files from clone-dest: 1$' <<<"$output")" 1 "b cloned from snap.1"
  assert_equal "$(shim_count "$FCOPY_SHIM_LOG" ficlone)" "3" "FICLONEs: a's twice (snap.1, the source), b's"
  assert_same s/a snap.2/a
  extents_all_shared snap.1/b snap.2/b
}
