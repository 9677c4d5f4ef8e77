#!/usr/bin/env bats
# dest-race.bats -- a symbolic link swapped into the destination tree
# while fcopy copies it is not followed: each destination is made
# relative to a descriptor of its directory, opened with O_NOFOLLOW when
# fcopy made or entered it.  The swap is made by the fault shim's hook
# (FCOPY_SHIM_HOOK_ON/FCOPY_SHIM_HOOK) just before fcopy opens the source
# file, after it made the destination directory.

bats_require_minimum_version 1.5.0
load helpers

setup ()
{
  need_shim
  cd "$BATS_TEST_TMPDIR"
  mkdir -p src/d/e elsewhere out
  printf 'secret\n' >src/d/f
  printf 'deeper\n' >src/d/e/g
}

# swap_on SUFFIX DIR: when fcopy opens a name ending in SUFFIX, move DIR
# (made by fcopy) aside to DIR.moved and put a symlink to elsewhere/ in
# its place.
swap_on ()
{
  export FCOPY_SHIM_HOOK_ON=$1
  export FCOPY_SHIM_HOOK="mv '$BATS_TEST_TMPDIR/$2' '$BATS_TEST_TMPDIR/$2.moved' && ln -s '$BATS_TEST_TMPDIR/elsewhere' '$BATS_TEST_TMPDIR/$2'"
}

@test "-r: a directory swapped for a symlink before its file is made" {
  swap_on src/d/f out/c/d
  run --separate-stderr env LD_PRELOAD="$FAULT_SHIM" "$FCOPY" -r src out/c
  [[ -L out/c/d ]] || { echo "the hook did not run"; false; }
  assert_no_file elsewhere/f
  assert_equal "$(cat out/c/d.moved/f)" secret "the file, in the moved directory"
  assert_equal "$(cat out/c/d.moved/e/g)" deeper "below it"
  assert_status 0
}

@test "-a: a parent two levels up swapped; metadata goes to the directories made" {
  touch -d '2001-01-01 UTC' src/d/e src/d
  swap_on src/d/e/g out/c
  run --separate-stderr env LD_PRELOAD="$FAULT_SHIM" "$FCOPY" -a src out/c
  [[ -L out/c ]] || { echo "the hook did not run"; false; }
  assert_status 0
  [[ -z $(ls -A elsewhere) ]] || { ls -lR elsewhere; false; }
  assert_equal "$(cat out/c.moved/d/e/g)" deeper "g"
  assert_equal "$(stat -c %Y out/c.moved/d/e)" "$(stat -c %Y src/d/e)" "e's mtime"
  assert_equal "$(stat -c %Y out/c.moved/d)" "$(stat -c %Y src/d)" "d's mtime"
}

@test "-r over an existing tree: a directory there swapped for a symlink" {
  mkdir -p out/c/d
  swap_on src/./d/f out/c/d
  run --separate-stderr env LD_PRELOAD="$FAULT_SHIM" "$FCOPY" -r src/. out/c
  [[ -L out/c/d ]] || { echo "the hook did not run"; false; }
  assert_no_file elsewhere/f
  assert_equal "$(cat out/c/d.moved/f)" secret "the file"
  assert_status 0
}
