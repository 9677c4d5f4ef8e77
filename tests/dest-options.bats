#!/usr/bin/env bats
# dest-options.bats -- the options newer than the reference cp (9.1), so
# not in the differential suite: --update=all|none|none-fail|older (cp
# 9.5's meanings) and --keep-directory-symlink; and what the backup,
# -n and -i cases leave behind, checked by content.

bats_require_minimum_version 1.5.0
load helpers

setup ()
{
  cd "$BATS_TEST_TMPDIR"
  printf 'new bytes\n' >src
  touch -d '2010-01-01 UTC' src
  printf 'older\n' >older
  touch -d '2000-01-01 UTC' older
  printf 'newer\n' >newer
  touch -d '2020-01-01 UTC' newer
}

@test "--update=all replaces every destination" {
  run --separate-stderr fcopy --update=all src older
  assert_status 0
  run --separate-stderr fcopy --update=all src newer
  assert_status 0
  assert_equal "$(cat older newer)" $'new bytes\nnew bytes' "contents"
}

@test "--update=none keeps every destination, quietly, exit 0" {
  run --separate-stderr fcopy --update=none -v src older
  assert_status 0
  assert_equal "$(cat older)" older "older"
  assert_stdout ""
  assert_stderr ""
  run --separate-stderr fcopy --update=none -v src newer2
  assert_status 0
  assert_equal "$(cat newer2)" 'new bytes' "a missing destination is copied"
  assert_stdout "'src' -> 'newer2'"
}

@test "--update=none-fail keeps every destination, says so, exit 1" {
  mkdir d
  printf 'kept\n' >d/src
  printf 'other\n' >other
  run --separate-stderr fcopy --update=none-fail src other d
  assert_status 1
  assert_stderr "fcopy: not replacing 'd/src'"
  assert_equal "$(cat d/src)" kept "d/src"
  assert_equal "$(cat d/other)" other "a missing destination is copied"
}

@test "--update=older and -u replace only older destinations" {
  run --separate-stderr fcopy --update=older src older
  assert_status 0
  run --separate-stderr fcopy -u src newer
  assert_status 0
  run --separate-stderr fcopy --update src newer
  assert_status 0
  assert_equal "$(cat older newer)" $'new bytes\nnewer' "contents"
}

@test "--update with a bad value: usage error naming the valid ones" {
  run --separate-stderr fcopy --update=sometimes src older
  assert_status 1
  [[ $stderr == *"invalid argument 'sometimes' for '--update'"* ]] || { echo "$stderr"; false; }
  [[ $stderr == *"'none-fail'"* ]] || { echo "$stderr"; false; }
  assert_equal "$(cat older)" older "older"
}

@test "--keep-directory-symlink: a destination symlink to a directory is filled" {
  mkdir -p s/d real
  printf 'in d\n' >s/d/f
  mkdir out
  ln -s ../real out/d
  run --separate-stderr fcopy -r s/. out
  assert_status 1
  assert_stderr "fcopy: cannot overwrite non-directory 'out/./d' with directory 's/./d'"
  assert_no_file real/f
  run --separate-stderr fcopy -r --keep-directory-symlink s/. out
  assert_status 0
  [[ -L out/d ]] || { echo "out/d is no longer a symlink"; false; }
  assert_equal "$(cat real/f)" 'in d' "real/f"
}

@test "-b twice: the first backup is replaced, numbered ones add up" {
  printf 'one\n' >dst
  fcopy -b src dst
  printf 'two\n' >dst
  fcopy -b src dst
  assert_equal "$(cat dst~)" two "dst~"
  fcopy --backup=numbered src dst
  fcopy --backup=numbered src dst
  assert_equal "$(cat dst.~1~)" 'new bytes' "dst.~1~"
  assert_equal "$(cat dst.~2~)" 'new bytes' "dst.~2~"
  [[ ! -e dst.~3~ ]] || { echo "a third numbered backup"; false; }
}

@test "-i: the prompt on stderr, the answer from stdin" {
  local rc=0
  fcopy -i src older <<<'n' 2>err || rc=$?
  assert_equal "$rc" 0 "exit status"
  printf "fcopy: overwrite 'older'? " | cmp - err
  assert_equal "$(cat older)" older "older after no"
  run --separate-stderr fcopy -i src older <<<'yes'
  assert_status 0
  assert_equal "$(cat older)" 'new bytes' "older after yes"
}

@test "--dedupe refuses --backup, -l, -s, --attributes-only, --remove-destination, --parents" {
  local o
  for o in --backup -l -s --attributes-only --remove-destination --parents; do
    run --separate-stderr fcopy --dedupe "$o" src older
    assert_status 2
    [[ $stderr == *'--dedupe cannot be combined with'* ]] || { echo "$o: $stderr"; false; }
  done
}

@test "-r of a directory into itself: refused before anything is copied" {
  mkdir -p a/b
  printf 'x\n' >a/f
  run --separate-stderr fcopy -r a a/b
  assert_status 1
  assert_stderr "fcopy: cannot copy a directory, 'a', into itself, 'a/b/a'"
  assert_no_file a/b/a
}
