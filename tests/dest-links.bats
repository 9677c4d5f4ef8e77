#!/usr/bin/env bats
# dest-links.bats -- symbolic links in the way of a destination, as cp
# (coreutils 9.1): a loop of links is replaced under -f and
# --remove-destination (cp >= 8.30); a dangling link is not written
# through, but under POSIXLY_CORRECT; -l -H links to what an operand
# link names; -rL over a FIFO that is there fails as cp, -rH replaces
# it (-P inside the tree); -l with -f or a yes to -i replaces a file,
# by a rename from a temporary name.

bats_require_minimum_version 1.5.0
load helpers

setup ()
{
  cd "$BATS_TEST_TMPDIR"
  echo hi >f
}

@test "-f onto a loop of symbolic links replaces it" {
  ln -s loop loop
  run --separate-stderr fcopy -f f loop
  assert_status 0
  assert_stderr ""
  assert_no_symlink loop
  assert_equal "$(cat loop)" hi "loop"
}

@test "--remove-destination onto a loop of symbolic links replaces it" {
  ln -s loop loop
  run --separate-stderr fcopy --remove-destination f loop
  assert_status 0
  assert_stderr ""
  assert_no_symlink loop
  assert_equal "$(cat loop)" hi "loop"
}

@test "without -f a loop of symbolic links cannot be stat'ed, as cp" {
  ln -s loop loop
  run --separate-stderr fcopy f loop
  assert_status 1
  assert_stderr "fcopy: cannot stat 'loop': Too many levels of symbolic links"
  assert_equal "$(readlink loop)" loop "loop"
}

@test "a dangling link is not written through, with or without -f" {
  ln -s no-such dangle
  run --separate-stderr fcopy f dangle
  assert_status 1
  assert_stderr "fcopy: not writing through dangling symlink 'dangle'"
  run --separate-stderr fcopy -f f dangle
  assert_status 1
  assert_stderr "fcopy: not writing through dangling symlink 'dangle'"
  assert_no_file no-such
}

@test "POSIXLY_CORRECT: a dangling link is written through" {
  ln -s no-such dangle
  POSIXLY_CORRECT=1 run --separate-stderr fcopy f dangle
  assert_status 0
  assert_stderr ""
  assert_equal "$(cat no-such)" hi "no-such"
  assert_equal "$(readlink dangle)" no-such "dangle"
}

@test "--link -H: the hard link is to what the operand link names" {
  ln -s f flink
  run --separate-stderr fcopy --link -H flink dst
  assert_status 0
  assert_equal "$(stat -c %i dst)" "$(stat -c %i f)" "dst's inode"
}

@test "--link -H -R: the same for an operand link" {
  ln -s f flink
  run --separate-stderr fcopy --link -H -R flink dst
  assert_status 0
  assert_equal "$(stat -c %i dst)" "$(stat -c %i f)" "dst's inode"
}

@test "--link -H -R: a link inside the tree is linked itself (-P)" {
  mkdir d
  ln -s ../f d/flink
  run --separate-stderr fcopy --link -H -R d e
  assert_status 0
  assert_equal "$(stat -c %i e/flink)" "$(stat -c %i d/flink)" "e/flink's inode"
}

@test "-rL over a copy with a FIFO in it: 'File exists', as cp" {
  mkdir s
  mkfifo s/p
  fcopy -r s d
  run --separate-stderr fcopy -rLT s d
  assert_status 1
  assert_stderr "fcopy: cannot create fifo 'd/p': File exists"
  [[ -p d/p ]]
}

@test "-rL: a file in the place of a FIFO is not removed either" {
  mkdir s d
  mkfifo s/p
  echo x >d/p
  run --separate-stderr fcopy -rLT s d
  assert_status 1
  assert_stderr "fcopy: cannot create fifo 'd/p': File exists"
  assert_equal "$(cat d/p)" x "d/p"
}

@test "-rH: a file in the place of a FIFO is replaced (-P inside the tree)" {
  mkdir s d
  mkfifo s/p
  echo x >d/p
  run --separate-stderr fcopy -rHT s d
  assert_status 0
  assert_stderr ""
  [[ -p d/p ]]
}

@test "-l -f replaces a file that is there" {
  echo other >g
  run --separate-stderr fcopy -l -f f g
  assert_status 0
  assert_equal "$(stat -c %i g)" "$(stat -c %i f)" "g's inode"
}

@test "-l -i answered yes replaces a file that is there" {
  echo other >g
  run --separate-stderr fcopy -l -i f g <<<y
  assert_status 0
  assert_equal "$(stat -c %i g)" "$(stat -c %i f)" "g's inode"
}

@test "-l -i answered no keeps it" {
  echo other >g
  run --separate-stderr fcopy -l -i f g <<<n
  assert_status 0
  assert_equal "$(cat g)" other "g"
}

# cp (coreutils >= 8.27) links to a temporary name and renames it over
# the file in the way: the destination's name is never missing.  The
# second linkat (the one to the temporary name) fails here: an unlink
# first would have lost g.
@test "-l -f: a link that cannot be made leaves the file there" {
  need_shim
  echo other >g
  export FCOPY_SHIM_LOG=$BATS_TEST_TMPDIR/log
  run --separate-stderr fcopy_fault 'linkat:2:EMLINK' -l -f f g
  assert_equal "$(shim_count log linkat)" 2 "linkat calls: the fault fired"
  assert_equal "$(cat g)" other "g"
  assert_equal "$(shim_count log unlinkat)" 0 "unlinkat calls: g was not removed"
  assert_stderr "fcopy: cannot create hard link 'g' to 'f': Too many links"
  assert_status 1
}

@test "-s -f: a symbolic link that cannot be made leaves the file there" {
  need_shim
  echo other >g
  run --separate-stderr fcopy_fault 'symlinkat:2:EDQUOT' -s -f f g
  assert_equal "$(cat g)" other "g"
  assert_no_symlink g
  assert_stderr "fcopy: cannot create symbolic link 'g' to 'f': Disk quota exceeded"
  assert_status 1
}

@test "-s -f replaces a file in a subdirectory; no temporary is left" {
  mkdir sub
  echo other >sub/g
  run --separate-stderr fcopy -s -f "$PWD/f" sub/g
  assert_status 0
  assert_equal "$(readlink sub/g)" "$PWD/f" "sub/g's target"
  assert_equal "$(ls -A sub)" g "what sub holds"
}

@test "-l -f onto a hard link of the source changes nothing, as cp" {
  need_shim
  ln f g
  export FCOPY_SHIM_LOG=$BATS_TEST_TMPDIR/log
  run --separate-stderr fcopy_fault 'linkat:99:EIO' -l -f f g
  assert_status 0
  assert_equal "$(shim_count log linkat)" 0 "linkat calls"
  assert_equal "$(stat -c %h f)" 2 "f's link count"
}
