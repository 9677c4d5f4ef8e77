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
