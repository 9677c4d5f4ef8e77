#!/usr/bin/env bats
# same-file.bats -- when a source may be copied onto a name of its own
# file (coreutils 9.1 copy.c, same_file_ok; src/same-file.c): never when
# the copy would truncate the source, but where cp allows it --
# --remove-destination onto a hard link or onto a symbolic link to the
# source, a backup of a link to the source, two distinct symbolic links
# under -d, -l onto a link that is there already.  Each case checks exit
# status, message, and what is left: bytes, link counts, link targets.

bats_require_minimum_version 1.5.0
load helpers

setup ()
{
  cd "$BATS_TEST_TMPDIR"
  echo data >foo
  ln foo hard
  ln -s foo sl
  ln -s foo sl2
}

@test "plain: onto a hard link of the source is refused" {
  run --separate-stderr fcopy foo hard
  assert_status 1
  assert_stderr "fcopy: 'foo' and 'hard' are the same file"
  assert_equal "$(cat foo)" data "foo"
  assert_equal "$(stat -c %h foo)" 2 "foo's link count"
}

@test "-f: onto a symbolic link to the source is refused" {
  run --separate-stderr fcopy -f foo sl
  assert_status 1
  assert_stderr "fcopy: 'foo' and 'sl' are the same file"
  assert_equal "$(cat foo)" data "foo"
  assert_equal "$(readlink sl)" foo "sl"
}

@test "--remove-destination onto a hard link: the link becomes a copy" {
  run --separate-stderr fcopy --remove-destination foo hard
  assert_status 0
  assert_stderr ""
  assert_equal "$(cat hard)" data "hard"
  assert_equal "$(cat foo)" data "foo"
  assert_equal "$(stat -c %h foo)" 1 "foo's link count"
}

@test "--remove-destination onto a symbolic link to the source" {
  run --separate-stderr fcopy --remove-destination foo sl
  assert_status 0
  assert_stderr ""
  assert_no_symlink sl
  assert_equal "$(cat sl)" data "sl"
  assert_equal "$(cat foo)" data "foo"
}

@test "-b onto a symbolic link to the source: the link is backed up" {
  run --separate-stderr fcopy -b foo sl
  assert_status 0
  assert_stderr ""
  assert_no_symlink sl
  assert_equal "$(cat sl)" data "sl"
  assert_equal "$(readlink sl~)" foo "sl~"
}

@test "-b onto a hard link of the source: backed up, then copied" {
  run --separate-stderr fcopy -b foo hard
  assert_status 0
  assert_stderr ""
  assert_equal "$(cat hard)" data "hard"
  assert_equal "$(stat -c %i hard~)" "$(stat -c %i foo)" "hard~'s inode"
  assert_equal "$(stat -c %h foo)" 2 "foo's link count"
}

@test "-d: two symbolic links to one file: the link is copied" {
  ln -sf ./foo sl2
  run --separate-stderr fcopy -d sl sl2
  assert_status 0
  assert_stderr ""
  assert_equal "$(readlink sl2)" foo "sl2"
}

@test "-d: a symbolic link onto itself is refused" {
  run --separate-stderr fcopy -d sl sl
  assert_status 1
  assert_stderr "fcopy: 'sl' and 'sl' are the same file"
}

@test "-dl: a hard link of a symbolic link replaces the link there" {
  run --separate-stderr fcopy -dl sl sl2
  assert_status 0
  assert_stderr ""
  assert_equal "$(stat -c %i sl2)" "$(stat -c %i sl)" "sl2's inode"
}

@test "-l onto a hard link of the source: nothing to do, exit 0" {
  run --separate-stderr fcopy -l foo hard
  assert_status 0
  assert_stderr ""
  assert_equal "$(stat -c %h foo)" 2 "foo's link count"
}

@test "-s onto a symbolic link there: refused without -f" {
  run --separate-stderr fcopy -s foo sl
  assert_status 1
  assert_stderr "fcopy: cannot create symbolic link 'sl' to 'foo': File exists"
}
