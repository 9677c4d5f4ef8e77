#!/usr/bin/env bats
# cpdiff-options.bats -- fcopy against GNU cp for the options about an
# existing destination and about what is made there: -n, -u, -i, -b,
# --backup, -S, --remove-destination, -l, -s, --parents,
# --strip-trailing-slashes, --attributes-only, --copy-contents, -Z.
# Each comparison runs both on the same scene (tests/cpdiff.bash) and
# fails on any difference in status, stdout, stderr or files left behind.
# --update=WHEN and --keep-directory-symlink are newer than the reference
# cp (9.1): their own tests are in tests/dest-options.bats.

load helpers
load cpdiff

# setup_file and setup: cpdiff.bash's.

# The tree in src/ and an empty directory out/ (the user's, under as_user).
scene_out () { make_tree src && mkdir out && give out; }

# src/ as make_tree makes it, and in the current directory: old (older
# than src/reg), new (newer), same (as old as src/reg), each with other
# bytes; out/ with a copy of each under the name reg.
scene_dated ()
{
  make_tree src &&
    printf 'old bytes\n' >old && touch -d '2000-01-01 UTC' old &&
    printf 'new bytes\n' >new && touch -d '2099-01-01 UTC' new &&
    printf 'same time\n' >same && touch -r src/reg same &&
    mkdir out && give out old new same
}

# An existing tree dst/ (make_tree's) with other bytes, older and newer
# files, an extra file.
scene_existing ()
{
  make_tree src && make_tree dst &&
    printf 'old, and longer than the new content\n' >dst/reg &&
    touch -d '1999-01-01 UTC' dst/reg &&
    printf 'newer\n' >dst/exec && touch -d '2099-01-01 UTC' dst/exec &&
    printf 'extra\n' >dst/extra
}

# ---------------------------------------------------------------------------
# -n, -u

@test "-n: an existing file, a new one, the source itself, a directory" {
  scene () { scene_dated; mkdir dir; }
  run_both -n src/reg old
  run_both -n src/reg fresh
  run_both -n src/reg src/reg
  run_both -n -T src/reg dir
  run_both -nv src/reg src/empty out
}

@test "-n -r and -n -a over an existing tree" {
  scene () { scene_existing; }
  run_both_tree -rn src dst
  run_both_tree -an src/. dst
}

@test "-u: older, newer and equally old destinations" {
  scene () { scene_dated; }
  run_both -u src/reg old
  run_both -u src/reg new
  run_both -u src/reg same
  run_both -uv src/reg fresh
  run_both -u src/reg src/reg
}

@test "-u -p: equal times after a copy with -p" {
  scene () { scene_dated; cp -p src/reg kept; printf 'x\n' >>kept; touch -r src/reg kept; }
  run_both -up src/reg kept
}

@test "-ru and -au over an existing tree" {
  scene () { scene_existing; }
  run_both_tree -ru src/. dst
  run_both_tree -auv src/. dst
}

@test "-i then -n, -n then -i: the last one wins" {
  scene () { scene_dated; }
  printf 'y\n' >"$BATS_TEST_TMPDIR/yes"
  CPDIFF_STDIN=$BATS_TEST_TMPDIR/yes run_both -n -i src/reg old
  CPDIFF_STDIN=$BATS_TEST_TMPDIR/yes run_both -i -n src/reg old
}

# ---------------------------------------------------------------------------
# -i

@test "-i answered yes, no, and with end of input" {
  scene () { scene_dated; }
  printf 'y\n' >"$BATS_TEST_TMPDIR/y"
  printf 'no\n' >"$BATS_TEST_TMPDIR/n"
  CPDIFF_STDIN=$BATS_TEST_TMPDIR/y run_both -i src/reg old
  CPDIFF_STDIN=$BATS_TEST_TMPDIR/n run_both -i src/reg old
  run_both -i src/reg old
  CPDIFF_STDIN=$BATS_TEST_TMPDIR/y run_both -iv src/reg fresh
}

@test "-ir over an existing tree, answers one per line" {
  scene () { scene_existing; }
  printf 'y\nn\ny\nn\ny\nn\ny\nn\ny\nn\ny\nn\ny\nn\ny\nn\ny\nn\ny\nn\ny\nn\ny\nn\n' \
    >"$BATS_TEST_TMPDIR/answers"
  CPDIFF_STDIN=$BATS_TEST_TMPDIR/answers run_both_tree -ri src/. dst
}

@test "as nobody: -i over a read-only file, with and without -f" {
  scene () { scene_dated; chmod 444 old; }
  printf 'y\n' >"$BATS_TEST_TMPDIR/y"
  CPDIFF_STDIN=$BATS_TEST_TMPDIR/y as_user nobody run_both -i src/reg old
  CPDIFF_STDIN=$BATS_TEST_TMPDIR/y as_user nobody run_both -if src/reg old
  CPDIFF_STDIN=$BATS_TEST_TMPDIR/y as_user nobody \
    run_both -i --remove-destination src/reg old
}

# ---------------------------------------------------------------------------
# Backups

@test "-b, --backup=simple, -S: simple backups, with -v" {
  scene () { scene_dated; printf 'older\n' >old~; }
  run_both -b src/reg old
  run_both -bv src/reg old
  run_both --backup=simple -v src/reg new
  run_both -S .bak -v src/reg old
  run_both --suffix=.orig --backup=never src/reg fresh
}

@test "--backup=numbered, =existing, =t, =nil, =none, =off" {
  scene () { scene_dated; printf 'one\n' >new.~1~; printf 'two\n' >new.~2~; }
  local c
  for c in numbered existing t nil none off; do
    run_both --backup=$c -v src/reg old
    run_both --backup=$c -v src/reg new
  done
}

@test "VERSION_CONTROL and SIMPLE_BACKUP_SUFFIX from the environment" {
  scene () { scene_dated; printf 'one\n' >new.~1~; }
  VERSION_CONTROL=numbered run_both -bv src/reg old
  VERSION_CONTROL=existing run_both -bv src/reg new
  SIMPLE_BACKUP_SUFFIX=.was run_both -bv src/reg old
  VERSION_CONTROL=bogus run_both -b src/reg old
}

@test "bad --backup values, -b with -n, ambiguous abbreviations" {
  run_both --backup=sometimes src/reg x
  run_both --backup=n src/reg x
  run_both -b -n src/reg x
}

@test "-bf of a file onto itself backs up the source; -b of a~ onto a" {
  scene () { scene_dated; cp old old~; }
  run_both -bf old old
  run_both -b old~ old
  run_both -b src/reg src/reg
  # Only for one SOURCE DEST pair spelt alike: else "the same file".
  run_both -bf ./old old
  run_both -bf old .
  run_both -bf src/reg src
  run_both -bfT src/reg src/reg
  run_both -rbf old old
}

@test "-rb and -ab over an existing tree: files, links and specials backed up" {
  scene () { scene_existing; }
  run_both_tree -rbv src/. dst
  run_both_tree -a --backup=numbered src/. dst
}

# ---------------------------------------------------------------------------
# --remove-destination, -f

@test "--remove-destination: a file, a read-only file, a symlink, with -v" {
  scene () { scene_dated; chmod 444 old; ln -s new lnk; ln new newlink; }
  run_both --remove-destination -v src/reg old
  run_both --remove-destination src/reg lnk
  run_both --remove-destination src/reg new
  run_both --remove-destination src/reg fresh
}

@test "-r --remove-destination over an existing tree" {
  scene () { scene_existing; }
  run_both_tree -r --remove-destination src/. dst
}

# ---------------------------------------------------------------------------
# -l, -s

@test "-l: files, a symlink (followed), over an existing file, with -f" {
  scene () { scene_dated; }
  run_both -lv src/reg src/empty out
  run_both -l src/rellink ln1
  run_both -l -P src/rellink ln1
  run_both -l src/reg old
  run_both -lf src/reg old
  run_both -l src/reg src/reg
  run_both -l src/sub x
}

@test "-rl and -al: a tree of hard links" {
  scene () { scene_out; }
  run_both_tree -rl src new
  run_both_tree -rlv src out
  run_both_tree -al src new
  run_both_tree -rlP src new
}

@test "-s: absolute names anywhere, relative ones only in the current directory" {
  scene () { scene_dated; }
  run_both -s @WS/src/reg out/abs
  run_both -sv src/reg here
  run_both -s src/reg out/rel
  run_both -s src/reg ./dot
  run_both -s src/reg old
  run_both -sf src/reg old
  run_both -s src/reg src/reg
}

@test "-rs of an absolute tree; -l with -s refused" {
  scene () { scene_out; }
  run_both_tree -rs @WS/src new
  run_both -l -s src/reg x
}

# ---------------------------------------------------------------------------
# --parents

scene_parents ()
{
  make_tree src && mkdir -p a/b/c && printf 'f\n' >a/b/c/f &&
    chmod 750 a/b && touch -d '2001-01-01 UTC' a/b/c/f a/b/c a/b a &&
    mkdir out && give out
}

@test "--parents: new leading directories, -v, into -t" {
  scene () { scene_parents; }
  run_both --parents a/b/c/f out
  run_both -v --parents a/b/c/f src/reg out
  run_both --parents -t out a/b/c/f
}

@test "--parents with -p, -a, -r of a directory" {
  scene () { scene_parents; }
  run_both -p --parents a/b/c/f out
  run_both_tree -a --parents a/b out
  run_both_tree -rv --parents a/b/c out
  run_both --parents a/b/c out
}

@test "--parents where some leading directories exist" {
  scene () { scene_parents; mkdir -p out/a; chmod 700 out/a; }
  run_both -pv --parents a/b/c/f out
}

@test "--parents: not a directory in the way, no target directory" {
  scene () { scene_parents; printf 'x\n' >out/a; }
  run_both --parents a/b/c/f out
  run_both --parents a/b/c/f newname
  run_both --parents -T a/b/c/f out
}

# ---------------------------------------------------------------------------
# Trailing slashes, attributes only, special files, contexts

@test "--strip-trailing-slashes: a file and a directory source" {
  scene () { scene_out; }
  run_both --strip-trailing-slashes src/reg/ new
  run_both_tree -rv --strip-trailing-slashes src/sub/// out
  run_both --strip-trailing-slashes src/reg out/
}

@test "--attributes-only: a new file is empty, an existing one keeps its bytes" {
  scene () { scene_dated; }
  run_both --attributes-only src/reg fresh
  run_both --attributes-only -p src/reg old
  run_both --attributes-only -a src/xattr src/acl src/suid out
  run_both_tree --attributes-only -a src new
}

@test "--copy-contents: -r reads a device as a file" {
  [[ $EUID -eq 0 ]] || skip_or_fail "needs root to make a device node"
  scene () { mkdir dev && mknod dev/null c 1 3 && printf 'x\n' >dev/f; }
  run_both_tree -r --copy-contents dev out
  run_both_tree -r dev out
}

@test "-Z and --context without SELinux" {
  run_both -Z src/reg new
  run_both --context src/reg new
  run_both --context=system_u:object_r:tmp_t:s0 src/reg new
  run_both -a -Z src/reg new
}

@test "as nobody: -v of a source it cannot read: the line, then the error" {
  scene () { scene_out; }
  as_user nobody run_both -v src/mode0 src/reg out
}

# ---------------------------------------------------------------------------
# Trees over existing trees

@test "-r, -a, -rp of a setgid directory into a default-ACL directory: cp's mask" {
  scene () { make_tree src; }
  run_both_tree -r src/sgdir src/dacl/
  run_both_tree -a src/sgdir src/dacl/
  run_both_tree -rp src/sgdir src/dacl/
}
@test "-rl and -rlf over an existing tree" {
  scene () { make_tree src && make_tree dst; }
  run_both_tree -rl src/. dst
  run_both_tree -rlf src/. dst
}
@test "-rsv into an existing directory, -s of a directory" {
  scene () { make_tree src && mkdir out; }
  run_both_tree -rsv @WS/src out
  run_both -s @WS/src/sub out/x
}
@test "--parents with -rb over existing files, -a --parents of a tree" {
  scene () { make_tree src && mkdir -p out/src && echo x > out/src/reg; }
  run_both_tree -rb --parents src/sub src/reg out
  run_both_tree -a --parents src out
}
@test "-ruv over a tree whose directories and files are newer" {
  scene () { make_tree src && make_tree dst && touch -d 2090-01-01 dst/sub dst/reg; }
  run_both_tree -ruv src/. dst
}
@test "--attributes-only with -r and -a over an existing tree" {
  scene () { make_tree src && make_tree dst && echo old > dst/reg; }
  run_both_tree -r --attributes-only src/. dst
  run_both_tree -a --attributes-only src/. dst
}
@test "-a --remove-destination -v over an existing tree" {
  scene () { make_tree src && make_tree dst; }
  run_both_tree -a --remove-destination -v src/. dst
}
@test "-aiv answered yes over an existing tree, -anv" {
  scene () { make_tree src && make_tree dst; }
  printf 'y\n%.0s' {1..40} > "$BATS_TEST_TMPDIR/yy"
  CPDIFF_STDIN=$BATS_TEST_TMPDIR/yy run_both_tree -aiv src/. dst
  run_both_tree -anv src/. dst
}

@test "as nobody: an unreadable file and an unwritable directory fail, the rest is copied, exit 1" {
  scene () {
    make_tree src && mkdir -p out/src/sub && give out out/src out/src/sub &&
      chmod 0555 out/src/sub
  }
  as_user nobody run_both_tree -r src out
  as_user nobody run_both_tree -rv src/. out/src
}
