#!/usr/bin/env bats
# just-created.bats -- cp's rules for what one run made: a later operand
# never overwrites an earlier operand's destination, nor writes through a
# symbolic link an earlier operand made; a numbered backup lifts the
# first rule, any backup the second; a source named twice is copied
# once, unless a backup is asked for.  (coreutils 9.1 copy.c,
# copy_internal; its tests/cp/abuse.sh.)  Each case checks the bytes
# left behind, the exit status and the message.

bats_require_minimum_version 1.5.0
load helpers

setup ()
{
  cd "$BATS_TEST_TMPDIR"
  mkdir a b c
  echo a >a/f
  echo b >b/f
}

@test "a later operand does not overwrite an earlier one's new copy" {
  run --separate-stderr fcopy a/f b/f c
  assert_status 1
  assert_stderr "fcopy: will not overwrite just-created 'c/f' with 'b/f'"
  assert_equal "$(cat c/f)" a "c/f"
}

@test "nor one that was there before the run (then written by it)" {
  echo old >c/f
  run --separate-stderr fcopy a/f b/f c
  assert_status 1
  assert_stderr "fcopy: will not overwrite just-created 'c/f' with 'b/f'"
  assert_equal "$(cat c/f)" a "c/f"
}

@test "nor with -t, -f or --remove-destination" {
  run --separate-stderr fcopy -t c a/f b/f
  assert_status 1
  assert_equal "$(cat c/f)" a "c/f after -t"
  run --separate-stderr fcopy -f a/f b/f c
  assert_status 1
  assert_equal "$(cat c/f)" a "c/f after -f"
  run --separate-stderr fcopy --remove-destination a/f b/f c
  assert_status 1
  assert_stderr "fcopy: will not overwrite just-created 'c/f' with 'b/f'"
  assert_equal "$(cat c/f)" a "c/f after --remove-destination"
}

@test "a file kept by -u is not 'just created': a later operand may copy" {
  echo old >c/f
  touch -d '2030-01-01 UTC' c/f
  touch -d '2020-01-01 UTC' a/f
  touch -d '2040-01-01 UTC' b/f
  run --separate-stderr fcopy -u a/f b/f c
  assert_status 0
  assert_stderr ""
  assert_equal "$(cat c/f)" b "c/f"
}

@test "files inside an operand's tree are not operands: merged as cp" {
  mkdir -p x/d y/d
  echo x >x/d/f
  echo y >y/d/f
  run --separate-stderr fcopy -r x/d y/d c
  assert_status 0
  assert_equal "$(cat c/d/f)" y "c/d/f"
}

@test "--backup=numbered keeps both copies" {
  run --separate-stderr fcopy --backup=numbered a/f b/f c
  assert_status 0
  assert_stderr ""
  assert_equal "$(cat c/f)" b "c/f"
  assert_equal "$(cat c/f.~1~)" a "c/f.~1~"
}

@test "--backup=simple does not lift the refusal" {
  run --separate-stderr fcopy --backup=simple a/f b/f c
  assert_status 1
  assert_stderr "fcopy: will not overwrite just-created 'c/f' with 'b/f'"
  assert_equal "$(cat c/f)" a "c/f"
  assert_no_file c/f~
}

@test "a source named twice is copied once, with a warning, exit 0" {
  run --separate-stderr fcopy a/f a/f c
  assert_status 0
  assert_stderr "fcopy: warning: source file 'a/f' specified more than once"
  assert_equal "$(cat c/f)" a "c/f"
}

@test "a source named twice with --backup: the second copy is refused" {
  run --separate-stderr fcopy --backup a/f a/f c
  assert_status 1
  assert_stderr "fcopy: will not overwrite just-created 'c/f' with 'a/f'"
  assert_equal "$(cat c/f)" a "c/f"
}

@test "not through a just-created symlink that dangles (abuse)" {
  ln -s ../t a/1
  echo payload >b/1
  run --separate-stderr fcopy -dR a/1 b/1 c
  assert_status 1
  assert_stderr "fcopy: will not copy 'b/1' through just-created symlink 'c/1'"
  assert_no_file t
  assert_equal "$(readlink c/1)" ../t "c/1"
}

@test "not through a just-created symlink to a file (abuse)" {
  ln -s ../t a/1
  echo payload >b/1
  echo i >t
  run --separate-stderr fcopy -dR a/1 b/1 c
  assert_status 1
  assert_stderr "fcopy: will not copy 'b/1' through just-created symlink 'c/1'"
  assert_equal "$(cat t)" i "t"
}

@test "not through a just-created symlink without -R (-d, -P)" {
  ln -s ../t a/1
  echo payload >b/1
  echo i >t
  run --separate-stderr fcopy -P a/1 b/1 c
  assert_status 1
  assert_stderr "fcopy: will not copy 'b/1' through just-created symlink 'c/1'"
  assert_equal "$(cat t)" i "t"
}

@test "nor through a symlink that was there, once an operand used it" {
  echo i >t
  ln -s ../t c/f
  run --separate-stderr fcopy a/f b/f c
  assert_status 1
  assert_stderr "fcopy: will not copy 'b/f' through just-created symlink 'c/f'"
  assert_equal "$(cat t)" a "t"
}

@test "--atomic: a later operand does not replace an earlier one's copy" {
  run --separate-stderr fcopy --atomic a/f b/f c
  assert_status 1
  assert_stderr "fcopy: will not overwrite just-created 'c/f' with 'b/f'"
  assert_equal "$(cat c/f)" a "c/f"
}

@test "-l: a later link does not replace an earlier operand's link" {
  run --separate-stderr fcopy -l a/f b/f c
  assert_status 1
  assert_stderr "fcopy: will not overwrite just-created 'c/f' with 'b/f'"
  assert_equal "$(stat -c %i c/f)" "$(stat -c %i a/f)" "c/f's inode"
}
