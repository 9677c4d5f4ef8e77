#!/usr/bin/env bats
# cpdiff.bats -- fcopy against GNU cp: each test runs both with the same
# options on the same tree (see tests/cpdiff.bash) and fails on any
# difference in exit status, stdout, stderr or the files left behind:
# type, bytes, holes, mode, owner, times, links, xattrs, ACLs.
#
# Only what fcopy implements so far is here (regular files; -f, -v, -t,
# -T, --reflink, --sparse, -p, --preserve, --no-preserve); -r, -a and the
# rest join as they land.
# Tests that need root say so; the "as nobody" ones run cp and fcopy as
# uid 65534 (root is needed to switch).

load helpers
load cpdiff

# setup_file and setup: cpdiff.bash's.

# The tree in src/ and an empty directory out/ (the user's, under as_user).
scene_out ()
{
  make_tree src
  mkdir out
  give out
}

# ---------------------------------------------------------------------------
# The harness itself: no difference where there is none, a failure where
# there is one.

@test "harness: cp against cp under fcopy's name shows no difference" {
  printf '#!/bin/bash\nexec -a fcopy %s "$@"\n' "$CPDIFF_CP" >fake
  chmod +x fake
  scene () { scene_out; }
  CPDIFF_CHECK_SCENE=1 CPDIFF_FCOPY=$PWD/fake \
    run_both -v src/reg src/nope src/sub src/xattr src/$'new\nline' out
}

@test "harness: a difference in times, modes, owners, links, xattrs, ACLs, messages or status fails" {
  local extra extras=(--preserve=timestamps --preserve=mode --preserve=xattr -l -s)
  [[ $EUID -ne 0 ]] || extras+=(--preserve=ownership)
  scene () { scene_out; }
  for extra in "${extras[@]}"; do
    printf '#!/bin/bash\nexec -a fcopy %s %s "$@"\n' "$CPDIFF_CP" "$extra" >fake
    chmod +x fake
    CPDIFF_FCOPY=$PWD/fake run ! run_both @WS/src/reg @WS/src/acl \
      @WS/src/xattr @WS/src/suid @WS/src/nobodys out
    [[ $output == *'fcopy differs from cp'* ]] || { echo "$extra: $output"; false; }
  done
  # Messages (the program name aside) and exit status.
  printf '#!/bin/sh\n%s "$@"; echo "fcopy: extra" >&2; exit 0\n' "$CPDIFF_CP" >fake
  CPDIFF_FCOPY=$PWD/fake run ! run_both src/nope out
  [[ $output == *$'\n+PROG: extra\n'* ]] || { echo "$output"; false; }
  [[ $output == *$'\n-1\n+0\n'* ]] || { echo "$output"; false; }
  # A file more, next to a name with a newline.
  printf '#!/bin/sh\n%s "$@"; touch out/x\n' "$CPDIFF_CP" >fake
  CPDIFF_FCOPY=$PWD/fake run ! run_both src/$'new\nline' out
  [[ $output == *$'\n+out/x f '* ]] || { echo "$output"; false; }
}

@test "harness: an intended difference passes only as declared and where the man page says so" {
  printf '#!/bin/sh\n%s "$@"; echo "fcopy: extra" >&2\n' "$CPDIFF_CP" >fake
  chmod +x fake
  intended_difference "DIFFERENCES FROM GNU cp" "+PROG: extra"
  CPDIFF_FCOPY=$PWD/fake run_both src/reg new
  intended_difference "a sentence the man page does not have" "+PROG: extra"
  CPDIFF_FCOPY=$PWD/fake run ! run_both src/reg new
  intended_difference "DIFFERENCES FROM GNU cp" "+PROG: other"
  CPDIFF_FCOPY=$PWD/fake run ! run_both src/reg new
}

@test "harness: run_both_tree with unequal inode orders in all runs: the lines unordered, a change still fails" {
  printf '#!/bin/bash\nexec -a fcopy %s "$@"\n' "$CPDIFF_CP" >fake
  chmod +x fake
  # The lower inode number is a's on cp's side, b's on fcopy's: the
  # orders differ in every run.  (Making the files in another order
  # does not ensure it: on a busy ext4 a new file may get a freed
  # number below an older one's.)
  scene ()
  {
    mkdir src
    touch src/x src/y
    local -a by_ino
    mapfile -t by_ino < <(stat -c '%i %n' src/x src/y | sort -n | cut -d ' ' -f 2)
    if [[ $PWD == */cp ]]; then
      mv "${by_ino[0]}" src/a
      mv "${by_ino[1]}" src/b
    else
      mv "${by_ino[0]}" src/b
      mv "${by_ino[1]}" src/a
    fi
  }
  CPDIFF_FCOPY=$PWD/fake run run_both_tree -rv src dst
  assert_equal "$status" 0
  [[ $output == *"inode orders differed (run 5 of 5)"* ]] || { echo "$output"; false; }
  [[ $output == *"their order was not compared"* ]] || { echo "$output"; false; }
  printf '#!/bin/sh\n%s "$@"; echo "fcopy: extra" >&2\n' "$CPDIFF_CP" >fake
  CPDIFF_FCOPY=$PWD/fake run ! run_both_tree -rv src dst
  [[ $output == *$'\n+PROG: extra\n'* ]] || { echo "$output"; false; }
  [[ $output != *"their order was not compared"* ]] || { echo "$output"; false; }
}

# ---------------------------------------------------------------------------
# SOURCE DEST

@test "one file to a new file" {
  run_both src/reg new
}

@test "one file over an existing file: its mode and other links stay" {
  scene () { make_tree src; printf 'old content, longer\n' >old; chmod 600 old; ln old old2; }
  run_both src/reg old
}

@test "over one name of a 3-way hard link: all names see the new bytes" {
  run_both src/reg src/hl3
}

@test "over a symlink to a file: written through" {
  scene () { scene_out; ln -s ../src/empty out/lnk; }
  run_both src/reg out/lnk
}

@test "-T: SOURCE DEST as a file name, and onto an existing directory" {
  scene () { scene_out; }
  run_both -T src/reg new
  run_both -T src/reg out
}

@test "-T onto a symlink to a directory and onto a directory with a slash" {
  run_both -T src/reg src/dirlink
  run_both -T src/reg src/emptydir/
}

@test "-v -T onto a dangling symlink" {
  run_both -v -T src/reg src/dangling
}

@test "source through symlinks: relative, absolute, up a directory" {
  scene () { scene_out; }
  run_both src/rellink src/abslink src/sub/uplink src/dirlink out
}

@test "a symlink to the destination as source: the same file" {
  run_both src/sub/uplink src/reg
}

@test "dangling symlink as the source, and a symlink loop" {
  scene () { make_tree src; ln -s loop1 loop2; ln -s loop2 loop1; }
  run_both src/dangling new
  run_both loop1 new
}

@test "dangling symlink as the destination, with and without -f" {
  run_both src/reg src/dangling
  run_both -f src/reg src/dangling
}

@test "a symlink into a missing directory as the destination" {
  scene () { make_tree src; ln -s nodir/x dl; }
  run_both src/reg dl
}

@test "same file: itself, a hard link, through a symlink, into its own directory" {
  run_both src/reg src/reg
  run_both src/hl1 src/sub/hl2
  run_both src/rellink src/reg
  run_both src/reg src
}

@test "same file by other paths: ./, dir/.., a symlinked directory" {
  run_both src/reg ./src/reg
  run_both src/sub/../reg src/
  run_both src/reg src/dirlink/../reg
}

@test "-f does not help with the same file" {
  run_both -f src/reg src/reg
  run_both -f src/hl1 src/hl3
}

@test "missing source, alone and among others" {
  scene () { scene_out; }
  run_both src/nope new
  run_both src/reg src/nope src/empty out
}

@test "missing parent directory of DEST" {
  run_both src/reg nodir/new
}

@test "a source name longer than NAME_MAX" {
  run_both "src/$(printf 'x%.0s' {1..300})" new
}

@test "empty operands" {
  run_both '' new
  run_both src/reg ''
}

@test "trailing slash on a file source" {
  run_both src/reg/ new
}

@test "a directory as the only source, with and without a slash" {
  run_both src/sub new
  run_both src/sub/ new
}

@test "a file named with a leading dash, as source and as DEST, after --" {
  scene () { make_tree src; printf 'dash\n' >-dash; mkdir out; }
  run_both -- -dash out
  run_both -v -- -dash -newdest
  run_both src/reg -- -x
}

@test "names with a newline, a space and invalid UTF-8, with -v" {
  scene () { scene_out; }
  run_both -v src/$'new\nline' src/'with space' src/$'bad\xffutf8' out
  run_both -v src/reg $'out/new\nname'
  run_both -v src/reg $'out/\xfe\xff'
}

@test "a missing source with a newline and invalid UTF-8 in its name" {
  run_both src/$'gone\n\xff' new
}

@test "a socket as the source" {
  scene () {
    make_tree src
    python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("sock")'
  }
  run_both sock new
}

@test "/dev/null as the source" {
  run_both /dev/null new
}

@test "a file of /proc (size 0, data on read)" {
  run_both /proc/version new
}

# ---------------------------------------------------------------------------
# SOURCE... DIRECTORY, -t

@test "into an existing directory, with and without a trailing slash" {
  scene () { scene_out; }
  run_both src/reg out
  run_both src/reg out/
}

@test "several files into a directory" {
  scene () { scene_out; }
  run_both src/reg src/empty src/sparse src/xattr src/acl src/exec out
}

@test "several names of one inode into a directory: separate copies" {
  scene () { scene_out; }
  run_both src/hl1 src/sub/hl2 src/hl3 out
}

@test "a hard link's other name in another directory" {
  run_both src/hl1 src/sub/
}

@test "into a directory through a symlink, with and without a slash" {
  run_both src/reg src/empty src/dirlink
  run_both src/reg src/dirlink/
}

@test "into a directory where DEST is a directory or a dangling symlink" {
  scene () { scene_out; mkdir out/reg; ln -s nowhere out/empty; }
  run_both src/reg src/empty out
}

@test "directory operands without -r: message, exit 1, the rest copied" {
  scene () { scene_out; }
  run_both src/reg src/sub src/emptydir src/empty src/dirlink/ out
}

@test "-v with a directory operand and a missing source" {
  scene () { scene_out; }
  run_both -v src/reg src/nope src/sparse out
  run_both -v -t src/emptydir src/reg src/sub src/acl
}

@test "-t DIR with several sources, -t DIR/ and --target-directory= abbreviated" {
  scene () { scene_out; }
  run_both -t out src/reg src/empty src/t1777
  run_both -t src/sub/ src/reg
  run_both src/reg src/empty --target=out
}

@test "combined short options: -fvt DIR" {
  scene () { scene_out; }
  run_both -fvt out src/reg src/empty
}

@test "abbreviated long options: --verb --no-t --ref=nev" {
  run_both --verb --no-t --ref=nev src/reg new
}

@test "absolute operands" {
  scene () { scene_out; }
  run_both @WS/src/reg @WS/src/empty @WS/out
}

@test "the target of several sources: missing, a file, a dangling symlink, a slash" {
  run_both src/reg src/empty nodir
  run_both src/reg src/empty src/exec
  run_both src/reg src/empty src/dangling
  run_both src/reg src/sparse src/nonexist/
}

@test "-t with a missing directory and with a file" {
  run_both -t nodir src/reg
  run_both -t src/exec src/reg
}

# ---------------------------------------------------------------------------
# Modes and owners (no -p: mode & 0777 less the umask, owner the caller)

@test "mode 0 source, as root, to a new and over an existing file" {
  need_root
  scene () { make_tree src; printf 'old\n' >old; }
  run_both src/mode0 new
  run_both src/mode0 old
}

@test "4755 source: setuid dropped" {
  run_both src/suid new
}

@test "1777 file source: sticky bit dropped" {
  run_both src/t1777 new
}

@test "umask 077" {
  scene () { scene_out; }
  umask 077
  run_both src/reg src/exec src/t1777 src/acl out
}

@test "umask 000 and umask 777" {
  scene () { scene_out; }
  umask 000
  run_both src/reg src/exec src/suid out
  umask 777
  run_both src/reg new
}

@test "into a setgid directory: the group is inherited" {
  run_both src/reg src/exec src/sgdir
}

@test "a 0644 and a 0755 file into a directory with a default ACL" {
  run_both src/reg src/exec src/dacl
}

@test "a file owned by nobody, as root: the copy is root's" {
  need_root
  run_both src/nobodys new
}

@test "xattrs and ACLs are not copied without -p" {
  run_both src/xattr src/acl src/emptydir
}

# ---------------------------------------------------------------------------
# Data

@test "--reflink=never and --reflink=auto" {
  run_both --reflink=never src/reg new
  run_both --reflink=auto src/sparse new
}

@test "--reflink=always where the file system cannot clone, new DEST (intended)" {
  intended_difference \
    "When --reflink=always fails, a DEST that fcopy created is removed" \
    "-new f mode=0644 own=$(id -u):$(id -g) nlink=1 size=0 sha=e3b0c44298fc1c14 mtime=new atime=new"
  run_both --reflink=always src/reg new
}

@test "--reflink=always where the file system cannot clone, existing DEST (intended)" {
  scene () { make_tree src; printf 'old\n' >old; }
  intended_difference \
    "When --reflink=always cannot clone onto an existing DEST, fcopy leaves DEST intact; cp(1) truncates it first and leaves it empty." \
    "-old f mode=0644 own=$(id -u):$(id -g) nlink=1 size=0 sha=e3b0c44298fc1c14 mtime=new atime=new" \
    "+old f mode=0644 own=$(id -u):$(id -g) nlink=1 size=4 sha=01d09d19c2139a46 mtime=new atime=new"
  run_both --reflink=always src/reg old
}

@test "--sparse=auto on the sparse and the empty file (allocation compared)" {
  CPDIFF_BLOCKS=1 run_both --sparse=auto src/sparse src/empty src/emptydir
}

@test "--sparse=always on the sparse file (allocation compared)" {
  CPDIFF_BLOCKS=1 run_both --sparse=always src/sparse new
}

@test "--sparse=always on runs of written zeros, with --reflink=never too" {
  scene () {
    make_tree src
    { seq 1 20000; head -c 131072 /dev/zero; seq 1 1000; head -c 65536 /dev/zero; } >z
  }
  CPDIFF_BLOCKS=1 run_both --sparse=always z new
  CPDIFF_BLOCKS=1 run_both --sparse=always --reflink=never z new
}

@test "--sparse=never on the sparse file, with --reflink=auto (allocation compared)" {
  CPDIFF_BLOCKS=1 run_both --sparse=never src/sparse new
  CPDIFF_BLOCKS=1 run_both --reflink=auto --sparse=never src/sparse new
}

@test "a 5 MB file" {
  scene () { make_tree src; seq 1 800000 >big; }
  run_both big new
}

# ---------------------------------------------------------------------------
# -p, --preserve, --no-preserve (files only, no -r yet)

# Regular files of the tree, each inode once (see the report on
# --preserve=links with a symlink to an operand).
PFILES="src/reg src/empty src/sparse src/xattr src/acl src/suid src/t1777
        src/exec src/nobodys src/mode0 src/hl1"

@test "-p: mode with setuid and sticky, owner, ns mtime and atime; no xattrs, no ACLs" {
  scene () { scene_out; }
  run_both -p $PFILES out
}

@test "--preserve=all" {
  scene () { scene_out; }
  run_both --preserve=all $PFILES out
}

@test "--preserve= each of mode, ownership, timestamps, xattr alone" {
  scene () { scene_out; }
  local a
  for a in mode ownership timestamps xattr; do
    run_both --preserve=$a $PFILES out
  done
}

@test "-p with --no-preserve= mode, timestamps, all" {
  run_both -p --no-preserve=mode src/suid src/acl src/sgdir
  run_both -p --no-preserve=timestamps src/reg new
  run_both -p --no-preserve=all src/acl new
}

@test "--preserve=links: three names of one inode into a directory" {
  scene () { scene_out; }
  run_both --preserve=links src/hl1 src/hl3 src/sub/hl2 out
}

@test "--preserve=context without SELinux, and --preserve=bogus" {
  run_both --preserve=context src/reg new
  run_both --preserve=bogus src/reg new
}

@test "-p and --preserve=all over a file with its own xattr and ACL" {
  scene () {
    make_tree src
    printf 'old\n' >old; chmod 600 old
    setfattr -n user.x -v y old; setfacl -m u:nobody:rwx old
  }
  run_both -p src/suid old
  run_both --preserve=all src/reg old
}

@test "-p into the setgid and the default-ACL directory, umask 077" {
  umask 077
  run_both -p src/reg src/acl src/exec src/sgdir
  run_both -p src/reg src/acl src/exec src/dacl
}

@test "as nobody: -p and --preserve=all (ownership not kept, setuid dropped)" {
  scene () { scene_out; }
  as_user nobody run_both -p $PFILES out
  as_user nobody run_both --preserve=all src/reg src/xattr src/acl src/suid src/nobodys out
}

@test "as nobody: --preserve= ownership; mode over its file; xattr of root's file" {
  scene () { scene_out; printf 'o\n' >out/suid; give out/suid; }
  as_user nobody run_both --preserve=ownership src/reg src/nobodys src/suid out
  as_user nobody run_both --preserve=mode src/suid out
  as_user nobody run_both --preserve=xattr src/xattr out
}

# ---------------------------------------------------------------------------
# Usage errors

@test "no operand, one operand, -t without a source" {
  run_both
  run_both src/reg
  run_both -t src
}

@test "-T with three operands: extra operand" {
  run_both -T src/reg src/empty new
}

@test "-t and -T together" {
  run_both --verbose -t src/sub -T src/reg
}

@test "invalid --reflink and --sparse arguments" {
  run_both --reflink=sometimes src/reg new
  run_both --sparse=sometimes src/reg new
}

@test "--reflink=always with --sparse=never or always" {
  run_both --reflink=always --sparse=never src/reg new
  run_both --reflink --sparse=always src/reg new
}

@test "unknown options" {
  run_both --bogus src/reg new
  run_both -z src/reg new
}

# ---------------------------------------------------------------------------
# As an unprivileged user

@test "as nobody: files into a directory it owns" {
  scene () { scene_out; }
  as_user nobody run_both -v src/reg src/empty src/sparse src/suid src/acl out
}

@test "as nobody: a mode 0 source it cannot read, and one it owns" {
  scene () { scene_out; printf 'mine\n' >m0; chmod 0 m0; give m0; }
  as_user nobody run_both src/mode0 src/reg out
  as_user nobody run_both m0 new
}

@test "as nobody: a source in a directory it cannot search" {
  scene () { make_tree src; mkdir priv; printf 'x\n' >priv/f; chmod 700 priv; }
  as_user nobody run_both priv/f new
}

@test "as nobody: -f over its read-only file, with -v" {
  scene () { scene_out; printf 'old\n' >out/ro; chmod 444 out/ro; give out/ro; }
  as_user nobody run_both -f src/reg out/ro
  as_user nobody run_both -fv src/reg out/ro
}

@test "as nobody: its read-only file without -f" {
  scene () { scene_out; printf 'old\n' >out/ro; chmod 444 out/ro; give out/ro; }
  as_user nobody run_both src/reg out/ro
}

@test "as nobody: root's file in its directory, without and with -f" {
  scene () { scene_out; printf 'root\n' >out/f; }
  as_user nobody run_both src/reg out/f
  as_user nobody run_both -f src/reg out/f
}

@test "as nobody: a writable file in a directory it cannot write" {
  scene () { make_tree src; mkdir ro; printf 'old\n' >ro/f; chmod 666 ro/f; }
  as_user nobody run_both src/reg ro/f
  as_user nobody run_both -f src/mode0 ro/f
}

@test "as nobody: -f over its read-only file in a directory it cannot write" {
  scene () { make_tree src; mkdir d; printf 'o\n' >d/f; chmod 444 d/f; give d/f; }
  as_user nobody run_both -f src/reg d/f
}

@test "as nobody: into a directory it cannot write" {
  as_user nobody run_both src/reg src/sub
}

@test "as nobody: the sticky directory: a new file, root's file with -f, its own" {
  scene () {
    make_tree src
    printf 'root\n' >src/sticky/r
    printf 'mine\n' >src/sticky/m; chmod 444 src/sticky/m; give src/sticky/m
  }
  as_user nobody run_both src/reg src/sticky
  as_user nobody run_both -f src/reg src/sticky/r
  as_user nobody run_both -f src/reg src/sticky/m
}

@test "as nobody: into the setgid directory and the default-ACL directory" {
  scene () { make_tree src; chmod o+w src/sgdir src/dacl; }
  as_user nobody run_both src/reg src/exec src/sgdir
  as_user nobody run_both src/reg src/exec src/dacl
}

@test "as nobody: umask 077" {
  scene () { scene_out; }
  umask 077
  as_user nobody run_both src/reg src/exec src/t1777 out
}
