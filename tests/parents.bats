#!/usr/bin/env bats
# parents.bats -- --parents: a destination whose directory --parents has
# just made is made, never merged with what is there, as cp 9.1 does
# (copy.c: make_dir_parents_private's new_dst): "src/sub/.." then names
# a directory made a moment ago, and cp reports "File exists".

bats_require_minimum_version 1.5.0
load helpers

setup ()
{
  cd "$BATS_TEST_TMPDIR"
  mkdir -p s/sub o
  echo x >s/f
}

@test "--parents -r s/sub/..: leading directories made, then 'File exists'" {
  run --separate-stderr fcopy --parents -r s/sub/.. o
  assert_status 1
  assert_stderr "fcopy: cannot create directory 'o/s/sub/..': File exists"
  [[ -d o/s/sub ]]
  assert_no_file o/s/f
}

@test "--parents -r s/sub/.. where o/s/sub was there: s merged into o/s" {
  mkdir -p o/s/sub
  run --separate-stderr fcopy --parents -r s/sub/.. o
  assert_status 0
  assert_stderr ""
  assert_equal "$(cat o/s/f)" x "o/s/f"
}

@test "--parents -r s/sub: the leading directory made, the copy in it" {
  echo y >s/sub/g
  run --separate-stderr fcopy --parents -r s/sub o
  assert_status 0
  assert_stderr ""
  assert_equal "$(cat o/s/sub/g)" y "o/s/sub/g"
}

@test "--parents -p: a leading directory swapped for a link mid-copy: no chmod through it" {
  need_shim
  mkdir -p a victim
  echo data >a/f
  chmod 700 a
  chmod 755 victim
  # When fcopy opens a/f, o/a has been made: it is moved aside and a
  # link to victim put in its place.
  run --separate-stderr env LD_PRELOAD="$FAULT_SHIM" FCOPY_FAULT= \
    FCOPY_SHIM_HOOK_ON=a/f \
    FCOPY_SHIM_HOOK="mv '$PWD/o/a' '$PWD/o/a.real' && ln -s ../victim '$PWD/o/a'" \
    bash -c 'exec -a fcopy "$0" "$@"' "$FCOPY" --parents -p a/f o
  [[ -L o/a ]]
  assert_equal "$(stat -c %a victim)" 755 "victim's mode"
  assert_equal "$(stat -c %a o/a.real)" 700 "the made directory's mode"
}

@test "--parents -p: the first failure ends the setting of attributes" {
  need_shim
  mkdir -p a/b
  echo data >a/b/f
  touch -d '2000-01-01 UTC' a
  # The mode goes with the ACL (fsetxattr): f's first, then a/b's copy,
  # which fails; a's copy is then not given a's times (nor anything).
  run --separate-stderr env LD_PRELOAD="$FAULT_SHIM" \
    FCOPY_FAULT='fsetxattr:2:EIO' FCOPY_SHIM_LOG="$PWD/shim.log" \
    bash -c 'exec -a fcopy "$0" "$@"' "$FCOPY" --parents -p a/b/f o
  assert_status 1
  assert_stderr "fcopy: preserving permissions for 'o/a/b': Input/output error"
  (( $(shim_count shim.log fsetxattr) >= 2 ))
  [[ $(stat -c %Y o/a) != 946684800 ]]
}
