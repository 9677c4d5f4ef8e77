#!/usr/bin/env bats
# cpdiff-tree.bats -- fcopy against GNU cp on whole trees: -r/-R, -a, -d,
# -H, -L, -P, -x, -p, --preserve, --no-preserve on the varied tree of
# make_tree (hard links, symlinks of all kinds, a FIFO, nested, empty,
# setgid and sticky directories, odd names, xattrs, ACLs, ns times, modes
# 0, 4755, 1777), compared as tests/cpdiff.bats compares single files:
# exit status, stdout (-v order included: both read a directory in inode
# order), stderr and every file left behind.  Every comparison goes
# through run_both_tree (tests/cpdiff.bash), which runs it again when the
# two scenes came out with different inode orders.
#
# Tests that need root say so; the "as nobody" ones run cp and fcopy as
# uid 65534 (root is needed to switch).

load helpers
load cpdiff

# setup_file and setup: cpdiff.bash's.

teardown ()
{
  unmount_scene_tmpfs
}

# ---------------------------------------------------------------------------
# Scenes

# give_tree PATH...: give_tree is give, recursively (the tree is USER's).
give_tree ()
{
  [[ -z ${CPDIFF_OWNER:-} ]] || chown -hR -- "$CPDIFF_OWNER" "$@"
}

# The tree in src/ and an empty directory out/ (the user's, under as_user).
scene_out () { make_tree src && mkdir out && give out; }

# scene_tmpfs DIR: mount a small tmpfs at DIR (made if missing) with a
# file and a directory in it, all with fixed times, and remember it for
# unmount_scene_tmpfs (teardown).  Root only.
scene_tmpfs ()
{
  mkdir -p -- "$1" &&
    mount -t tmpfs -o size=1M,mode=0755 cpdiff-x "$1" &&
    echo "$PWD/$1" >>"$BATS_TEST_TMPDIR/scene-tmpfs" &&
    printf 'on the tmpfs\n' >"$1/f" &&
    mkdir "$1/d" &&
    touch -d '2001-02-03 04:05:06.5 UTC' "$1/f" "$1/d" "$1" &&
    touch -a -d '2099-01-02 03:04:05.5 UTC' "$1/f"
}

# unmount_scene_tmpfs: undo every scene_tmpfs of this test, newest first.
unmount_scene_tmpfs ()
{
  local list=$BATS_TEST_TMPDIR/scene-tmpfs m rc=0
  [[ -f $list ]] || return 0
  while read -r m; do
    mountpoint -q "$m" || continue
    umount "$m" 2>/dev/null || umount -l "$m" || rc=1
  done < <(tac "$list")
  rm -f "$list"
  return $rc
}

# The tree with a tmpfs mounted at src/mnt.
scene_mnt () { make_tree src && scene_tmpfs src/mnt; }

# An existing tree dst/ (make_tree's) that differs from src/ here and
# there: other bytes, modes, an extra file, a broken hard link.
scene_existing ()
{
  make_tree src && make_tree dst &&
    printf 'old, and longer than the new content\n' >dst/reg &&
    printf 'old deep\n' >dst/sub/deep/deeper/file &&
    chmod 600 dst/exec && chmod 700 dst/sub && chmod 0 dst/emptydir &&
    printf 'extra\n' >dst/extra &&
    rm dst/hl3 && printf 'not a link\n' >dst/hl3
}

# A read-only (0555) directory ro/ with a file and a read-only
# subdirectory with a file, and out/.
scene_ro ()
{
  scene_out && mkdir -p ro/in && printf 'r\n' >ro/f && printf 'i\n' >ro/in/g &&
    chmod 0555 ro/in ro &&
    touch -d '2001-02-03 UTC' ro/in/g ro/f &&
    touch -d '2002-02-03 UTC' ro/in ro
}

# ---------------------------------------------------------------------------
# -r, -R

@test "-r into a new directory, and -R" {
  scene () { make_tree src; }
  run_both_tree -r src new
  run_both_tree -R src new
}

@test "-rv into a new and into an existing directory: cp's order" {
  scene () { scene_out; }
  run_both_tree -rv src new
  run_both_tree -rv src out
}

@test "-rv with umask 077, -r with umask 000" {
  scene () { make_tree src; }
  umask 077
  run_both_tree -rv src new
  umask 000
  run_both_tree -r src new
}

@test "as nobody: -r of root's tree (mode 0 file unreadable), umask 027" {
  scene () { scene_out; }
  as_user nobody run_both_tree -r src out
  umask 027
  as_user nobody run_both_tree -r src out
}

@test "as nobody: -r of a tree nobody owns" {
  scene () { make_tree src && give_tree src; }
  as_user nobody run_both_tree -r src new
}

@test "-r into the setgid directory and the default-ACL directory" {
  scene () { make_tree src; }
  run_both_tree -r src/sub src/sgdir
  run_both_tree -rv src/sub src/emptydir src/dacl
}

@test "-r into a missing parent directory" {
  scene () { make_tree src; }
  run_both_tree -r src nodir/new
}

# ---------------------------------------------------------------------------
# Symlinks: -d, -P, -L, -H

@test "-dR and -rP: symlinks copied as symlinks" {
  scene () { make_tree src; }
  run_both_tree -dR src new
  run_both_tree -rP src new
}

@test "-rL: every link followed, the dangling one an error" {
  scene () { make_tree src; }
  run_both_tree -rL src new
}

@test "-rH and -RH: a symlink operand to a directory followed, links inside not" {
  scene () { make_tree src && ln -s src srclink; }
  run_both_tree -rH srclink src/dirlink new
  run_both_tree -RH src new
}

@test "-r, -rL of a symlink operand to a directory" {
  scene () { make_tree src && ln -s src srclink; }
  run_both_tree -r srclink new
  run_both_tree -rL src/dirlink new
}

@test "-r of a symlink to a directory copies the link, with the other links" {
  scene () { scene_out; }
  run_both_tree -r src/dirlink new
  run_both_tree -r src/dirlink src/rellink src/dangling src/abslink out
}

@test "-a of a single symlink, a dangling one, a FIFO; several with -v" {
  scene () { scene_out; }
  run_both_tree -a src/rellink new
  run_both_tree -a src/dangling new
  run_both_tree -a src/fifo new
  run_both_tree -av src/abslink src/fifo src/dirlink out
}

@test "-d and -P of a single symlink; -r of a FIFO onto a file" {
  scene () { make_tree src && printf 'x\n' >ex; }
  run_both_tree -d src/dirlink new
  run_both_tree -P src/dangling new
  run_both_tree -r src/fifo ex
}

@test "-aH of a symlink operand to the tree" {
  scene () { make_tree src && ln -s src srclink; }
  run_both_tree -aH srclink new
}

# ---------------------------------------------------------------------------
# -a, -p, --preserve, --no-preserve

@test "-a" {
  scene () { make_tree src; }
  run_both_tree -a src new
}

@test "as nobody: -a of a tree nobody owns" {
  scene () { make_tree src && give_tree src; }
  as_user nobody run_both_tree -a src new
}

@test "as nobody: -a and -rp of root's tree (ownership not kept)" {
  scene () { make_tree src && mkdir out && give out; }
  as_user nobody run_both_tree -a src out
  as_user nobody run_both_tree -rp src out
}

@test "-rp, -r --preserve=all" {
  scene () { make_tree src; }
  run_both_tree -rp src new
  run_both_tree -r --preserve=all src new
}

@test "-r --preserve=links: the three names stay one inode" {
  scene () { make_tree src; }
  run_both_tree -r --preserve=links src new
}

@test "-r --preserve= each of mode, ownership, timestamps, xattr" {
  scene () { make_tree src; }
  local a
  for a in mode ownership timestamps xattr; do
    run_both_tree -r --preserve=$a src new
  done
}

@test "-a --no-preserve= ownership, timestamps, links, xattr" {
  scene () { make_tree src; }
  local a
  for a in ownership timestamps links xattr; do
    run_both_tree -a --no-preserve=$a src new
  done
}

# Without the t bit on src/sticky: with --no-preserve=mode (or all) cp
# keeps a directory's sticky bit (1755 here) and fcopy drops it, a known
# difference.
@test "--no-preserve=mode with -r and -a, -a --no-preserve=all" {
  scene () { make_tree src && chmod -t src/sticky; }
  run_both_tree -r --no-preserve=mode src new
  run_both_tree -a --no-preserve=mode src new
  run_both_tree -a --no-preserve=all src new
}

@test "hard links across operands: -r, and -r --preserve=links" {
  scene () { scene_out; }
  run_both_tree -r src/hl1 src/sub src/hl3 out
  run_both_tree -r --preserve=links src/hl1 src/sub out
}

# ---------------------------------------------------------------------------
# -x

@test "-rx, -ax: a tmpfs mounted in the tree is copied as an empty directory" {
  need_root
  scene () { scene_mnt; }
  run_both_tree -rx src new
  run_both_tree -r src new
  run_both_tree -ax src new
}

@test "-rx with the mount point as the operand" {
  need_root
  scene () { scene_mnt; }
  run_both_tree -rx src/mnt new
}

# ---------------------------------------------------------------------------
# Operands: slashes, several directories, -t, -T

@test "trailing slash on the source: src/ new, src/ out/, -v src/ new" {
  scene () { scene_out; }
  run_both_tree -r src/ new
  run_both_tree -r src/ out/
  run_both_tree -rv src/ new
  run_both_tree -rv src// out/
}

@test "trailing slash on the destination; src/., ./src, src/./" {
  scene () { scene_out; }
  run_both_tree -r src new/
  run_both_tree -r src out//
  run_both_tree -r src/. new
  run_both_tree -rv ./src new
  run_both_tree -rv src/./ new
}

@test "several directories into one target, with -t and -v" {
  scene () { scene_out; }
  run_both_tree -rv -t out src/sub src/sticky src/dacl src/emptydir
  run_both_tree -r src/sub src/emptydir src/reg src/dirlink out
}

@test "-a of names of one inode in two operands, one of them a directory" {
  scene () { scene_out; }
  run_both_tree -a src/hl1 src/sub src/hl3 out
}

@test "one directory by two paths, the second through a symlink" {
  scene () { scene_out; }
  run_both_tree -r src/sub/deep src/dirlink/deep out
}

@test "-rT into an existing empty directory" {
  scene () { make_tree src && mkdir new; }
  run_both_tree -rT src new
}

# ---------------------------------------------------------------------------
# Over an existing tree

@test "-r over an existing tree: files overwritten, extra files kept" {
  scene () { scene_existing; }
  run_both_tree -rT src dst
  run_both_tree -r src/. dst
}

@test "-a over an existing tree" {
  scene () { scene_existing; }
  run_both_tree -a src/. dst
}

@test "-a onto directories with their own default ACL, or none" {
  scene () {
    make_tree src && mkdir -p d/dacl d/sub &&
      setfacl -d -m u::rwx,g::r-x,o::--- d/dacl d/sub
  }
  run_both_tree -a src/dacl src/sub d
}

@test "-r into a directory that holds an older copy" {
  scene () { scene_out && make_tree out/src && printf 'old\n' >out/src/reg; }
  run_both_tree -r src out
}

@test "-r over files with a hard link outside the tree: written in place" {
  scene () {
    make_tree src && mkdir -p dst/sub && printf 'keep\n' >keep &&
      ln keep dst/reg && ln keep dst/sub/hl2
  }
  run_both_tree -r src/. dst
}

@test "-r over an existing tree: files replace symlinks" {
  scene () {
    make_tree src && mkdir -p d/src &&
      ln -s ../../src/empty d/src/reg && ln -s nowhere d/src/empty &&
      ln -s /nonexist/x d/src/exec
  }
  run_both_tree -r src d
}

@test "-a over an existing tree: files replace symlinks" {
  scene () {
    make_tree src && mkdir -p d/src &&
      ln -s ../../src/empty d/src/reg && ln -s nowhere d/src/empty
  }
  run_both_tree -a src d
}

@test "-r over an existing tree: symlinks and a FIFO replace files and symlinks" {
  scene () {
    make_tree src && mkdir -p d/src &&
      printf 'f\n' >d/src/rellink && printf 'f\n' >d/src/dangling &&
      printf 'f\n' >d/src/fifo && ln -s x d/src/abslink && ln -s ../src d/src/dirlink
  }
  run_both_tree -r src d
}

@test "-r over an existing tree: a directory meets a file" {
  scene () {
    make_tree src && mkdir -p d/src && printf 'f\n' >d/src/sub && printf 'f\n' >d/src/emptydir
  }
  run_both_tree -r src d
}

@test "-r over an existing tree: a file, a FIFO, a symlink meet a directory" {
  scene () { make_tree src && mkdir -p d/src/reg d/src/empty/x d/src/fifo d/src/rellink; }
  run_both_tree -r src d
}

@test "-r of a directory onto a file, a dangling symlink, a symlink to a directory" {
  scene () {
    make_tree src && printf 'f\n' >file && ln -s nowhere dl && mkdir t && ln -s t tl
  }
  run_both_tree -r src file
  run_both_tree -r src dl
  run_both_tree -r src tl
}

# ---------------------------------------------------------------------------
# Read-only source directories

@test "a read-only (0555) source directory: -r and -a" {
  scene () { scene_ro; }
  run_both_tree -r ro out
  run_both_tree -a ro out
  run_both_tree -a ro ro out
}

@test "as nobody: a read-only (0555) source directory, root's and its own" {
  scene () { scene_ro; }
  as_user nobody run_both_tree -r ro out
  as_user nobody run_both_tree -a ro out
  scene () { scene_ro && give_tree ro; }
  as_user nobody run_both_tree -a ro out
}

@test "as nobody: a read-only source directory over its existing copy" {
  scene () { scene_ro && mkdir out/ro && give out/ro; }
  as_user nobody run_both_tree -r ro out
}

@test "as nobody: a directory it cannot read is reported, its copy still gets its mode and times" {
  scene () {
    make_tree src && mkdir src/locked && printf 'l\n' >src/locked/f &&
      touch -d '2003-01-01 UTC' src/locked && chmod 0 src/locked &&
      give_tree src && mkdir out && give out
  }
  as_user nobody run_both_tree -r src out
  as_user nobody run_both_tree -a src out
}

@test "--no-preserve=mode of a sticky directory keeps the sticky bit, as cp" {
  scene () { make_tree src; }
  run_both_tree -r --no-preserve=mode src new
}

@test "-aL and -aH: files reached by several symlinks are one file in the copy" {
  scene () { scene_out; }
  run_both_tree -aL src out
  run_both_tree -aHv src/dirlink src/rellink src/reg out
}

@test "-a of a FIFO and a symlink with trusted.* xattrs and a FIFO with an ACL (root)" {
  [[ $EUID -eq 0 ]] || skip_or_fail "needs root for trusted.* xattrs"
  scene () {
    mkdir s && mkfifo s/ff && setfattr -n trusted.x -v 1 s/ff &&
      ln -s nowhere s/l && setfattr -h -n trusted.y -v 2 s/l &&
      mkfifo s/fa && setfacl -m u:nobody:r s/fa
  }
  run_both_tree -a s d
  run_both_tree -r --preserve=xattr,mode s d
}
