#!/usr/bin/env bats
# preserve.bats -- -p, --preserve[=LIST], --no-preserve=LIST on files:
# what is kept, in what order, and which failures are errors (as cp).
# Each case runs the system cp beside fcopy and compares the results.

bats_require_minimum_version 1.5.0
load helpers

setup ()
{
  need_root
  need_cmd setfattr getfattr setfacl getfacl setpriv
  W=$BATS_TEST_TMPDIR/w
  mkdir -p "$W"
  chmod 0777 "$W"
  cd "$W"
  echo data > src
  chmod 4750 src
  setfattr -n user.colour -v blue src
  setfacl -m u:nobody:r src
  touch -d '2020-01-02 03:04:05.123456789' src
}

# state FILE: what -p and friends may change, in one comparable line;
# the mtime only when $TIMES is set (else the two copies differ in it).
state ()
{
  echo "$(stat -c "%a %U %G${TIMES:+ %y}" "$1") xattr=$(getfattr --only-values -n user.colour "$1" 2>/dev/null) acl=$(getfacl -cp "$1" 2>/dev/null | grep -c nobody)"
}

# same_as_cp OPTS...: run cp and fcopy with OPTS from src to cp.out and
# fcopy.out (as the current user) and compare exit status, messages and
# the results' state.
same_as_cp ()
{
  run --separate-stderr cp "$@" src cp.out
  local cp_status=$status cp_err=${stderr//cp: /PROG: }
  run --separate-stderr fcopy "$@" src fcopy.out
  assert_status "$cp_status"
  assert_equal "${stderr//fcopy: /PROG: }" "${cp_err//cp.out/fcopy.out}" "stderr"
  assert_equal "$(state fcopy.out)" "$(state cp.out)" "state of the copy"
}

@test "-p keeps ns timestamps, setuid mode, owner; not xattrs" {
  TIMES=1
  chown nobody:nogroup src
  chmod 4750 src                # chown cleared setuid
  touch -d '2020-01-02 03:04:05.123456789' src
  same_as_cp -p
  assert_equal "$(stat -c '%a %U %y' fcopy.out)" "4750 nobody 2020-01-02 03:04:05.123456789 +0000" "kept"
  [[ $(state fcopy.out) == *" xattr= "* ]]
}

@test "--preserve=all keeps xattrs and the ACL too" {
  TIMES=1
  same_as_cp --preserve=all
  [[ $(state fcopy.out) == *"xattr=blue acl=1" ]]
}

@test "--preserve=xattr alone: xattrs, the mode as without -p" {
  same_as_cp --preserve=xattr
  assert_equal "$(state fcopy.out)" "750 root root xattr=blue acl=0" "state"
}

@test "--preserve=mode,timestamps without ownership" {
  TIMES=1
  same_as_cp --preserve=mode,timestamps
}

@test "--no-preserve=mode gives a new file 0666 less the umask" {
  umask 027
  same_as_cp --no-preserve=mode
  assert_equal "$(stat -c %a fcopy.out)" 640 "mode"
}

@test "-p --no-preserve=timestamps" {
  same_as_cp -p --no-preserve=timestamps
}

@test "as nobody, -p of root's setuid file: owner nobody, setuid dropped, silent" {
  run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
    bash -c 'cp -p src cp.out; echo $?'
  local cp_out=$output cp_err=$stderr
  run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
    bash -c '(exec -a fcopy "$0" -p src fcopy.out); echo $?' "$(runnable_fcopy)"
  assert_equal "$output" "$cp_out" "exit status"
  assert_equal "$stderr" "$cp_err" "stderr"
  TIMES=1
  assert_equal "$(state fcopy.out)" "$(state cp.out)" "state"
  assert_equal "$(stat -c '%a %U' fcopy.out)" "750 nobody" "mode and owner"
}

@test "a failure to set times is an error with -p" {
  need_shim
  run --separate-stderr fcopy_fault futimens:1:EPERM -p src out
  assert_status 1
  assert_stderr "fcopy: preserving times for 'out': Operation not permitted"
  cmp src out
}

@test "xattr failures: errors when xattr is named, silent within all" {
  need_shim
  # No ACL: the shim fails every fsetxattr, and ACLs are set with it too.
  setfacl -b src
  run --separate-stderr fcopy_fault fsetxattr:*:ENOTSUP --preserve=xattr src out
  assert_status 1
  assert_stderr "fcopy: failed to preserve extended attributes for 'out': Operation not supported"
  rm -f out
  run --separate-stderr fcopy_fault fsetxattr:*:ENOTSUP --preserve=all src out
  assert_status 0
  assert_equal "$stderr" "" "stderr"
}

@test "bad --preserve values and context, as cp" {
  run --separate-stderr fcopy --preserve=colour src out
  assert_status 1
  [[ ${stderr_lines[0]} == "fcopy: invalid argument 'colour' for '--preserve'" ]]
  run --separate-stderr fcopy --preserve=context src out
  assert_status 1
  assert_stderr "fcopy: cannot preserve security context without an SELinux-enabled kernel"
  [[ ! -e out ]]
}

# --- setuid and setgid when the owner cannot be kept -----------------------

# run_as WHO PROG ARG...: bats's run (stderr apart) of PROG ARG... as WHO:
# nobody (nobody:nogroup, no other group), or nochown (root without
# CAP_CHOWN: privileged in cp's and fcopy's eyes, but its chown to another
# owner fails with EPERM).  PROG is cp, or fcopy (a copy that nobody may
# run, under the name fcopy).
run_as ()
{
  local who=$1 prog=$2 fc
  shift 2
  local -a as
  case $who in
    nobody) as=(setpriv --reuid=nobody --regid=nogroup --clear-groups) ;;
    nochown) as=(setpriv --bounding-set=-chown --inh-caps=-chown) ;;
  esac
  if [[ $prog == cp ]]; then
    run --separate-stderr "${as[@]}" cp "$@"
  else
    fc=$(runnable_fcopy)
    run --separate-stderr "${as[@]}" bash -c '(exec -a fcopy "$0" "$@")' "$fc" "$@"
  fi
}

# owner_and_mode NAME...: "MODE USER:GROUP NAME" of each NAME, or of each
# file under it when it is a directory.
owner_and_mode ()
{
  local n
  for n; do
    if [[ -d $n ]]; then
      tree_listing "$n" -printf '%m %u:%g %p\n'
    else
      stat -c '%a %U:%G %n' "$n" || echo "stat of '$n' failed ($RANDOM$RANDOM)"
    fi
  done
}

# setuid_tree: root's setuid and setgid program suid (6755, readable by
# all) alone and in a tree t with a plain file of root's.
setuid_tree ()
{
  printf '#!/bin/sh\n' >suid
  chmod 6755 suid
  mkdir -p t/bin
  cp -p suid t/bin/suid
  printf 'plain\n' >t/plain
  chmod -R go+rX t
}

# cp_then_fcopy WHO CP_ARGS -- FCOPY_ARGS: cp and then fcopy as WHO; the
# same exit status and messages (with the program's names made alike, and
# each one's DEST, its last argument, called DEST).  The copies' owners
# and modes are left to the caller.
cp_then_fcopy ()
{
  local who=$1 cp_args=() cp_status cp_stderr
  shift
  while [[ $1 != -- ]]; do cp_args+=("$1"); shift; done
  shift
  run_as "$who" cp "${cp_args[@]}"
  cp_status=$status
  cp_stderr=$(sed 's/^cp: /fcopy: /' <<<"${stderr//"'${cp_args[-1]}"/"'DEST"}")
  run_as "$who" fcopy "$@"
  assert_status "$cp_status"
  assert_equal "${stderr//"'${!#}"/"'DEST"}" "$cp_stderr" "messages, cp's with its name"
}

@test "as nobody, -p and -p --atomic of root's 6755 file: nobody's, 0755, silent, as cp -p" {
  setuid_tree
  cp_then_fcopy nobody -p suid cp.out -- -p suid fcopy.out
  assert_status 0
  assert_equal "$stderr" "" "stderr"
  assert_equal "$(owner_and_mode fcopy.out)" "$(owner_and_mode cp.out | sed 's/cp\.out/fcopy.out/')" "fcopy -p"
  assert_equal "$(owner_and_mode fcopy.out)" "755 nobody:nogroup fcopy.out" "fcopy -p"
  # --atomic: a new DEST, and over one of nobody's.
  run_as nobody fcopy -p --atomic suid new.out
  assert_status 0
  assert_equal "$stderr" "" "stderr"
  assert_equal "$(owner_and_mode new.out)" "755 nobody:nogroup new.out" "fcopy -p --atomic"
  run_as nobody fcopy -p --atomic suid fcopy.out
  assert_status 0
  assert_equal "$stderr" "" "stderr"
  assert_equal "$(owner_and_mode fcopy.out)" "755 nobody:nogroup fcopy.out" "fcopy -p --atomic over a file"
  cmp suid fcopy.out
}

@test "as nobody, -a and -a --atomic of a tree with root's 6755 file: nobody's, 0755, silent, as cp -a" {
  setuid_tree
  cp_then_fcopy nobody -a t cp.out -- -a t fcopy.out
  assert_status 0
  assert_equal "$stderr" "" "stderr"
  assert_equal "$(owner_and_mode fcopy.out)" "$(owner_and_mode cp.out)" "fcopy -a, as cp -a"
  [[ $(owner_and_mode fcopy.out) == *"755 nobody:nogroup ./bin/suid"* ]]
  run_as nobody fcopy -a --atomic t atomic.out
  assert_status 0
  assert_equal "$stderr" "" "stderr"
  assert_equal "$(owner_and_mode atomic.out)" "$(owner_and_mode cp.out)" "fcopy -a --atomic, as cp -a"
  # And over the tree copied before, file by file.
  run_as nobody fcopy -a --atomic t/. fcopy.out
  assert_status 0
  assert_equal "$(owner_and_mode fcopy.out)" "$(owner_and_mode cp.out)" "fcopy -a --atomic over a tree"
}

@test "as nobody, --preserve=ownership named: silent and exit 0 as cp (an unprivileged chown may fail), setuid dropped" {
  setuid_tree
  cp_then_fcopy nobody --preserve=ownership suid cp.out -- --preserve=ownership suid fcopy.out
  assert_status 0
  assert_equal "$stderr" "" "stderr"
  assert_equal "$(owner_and_mode fcopy.out)" "$(owner_and_mode cp.out | sed 's/cp\.out/fcopy.out/')" "as cp"
  cp_then_fcopy nobody --preserve=ownership suid cp2.out -- --preserve=ownership --atomic suid atomic.out
  assert_status 0
  assert_equal "$(owner_and_mode atomic.out)" "755 nobody:nogroup atomic.out" "--atomic"
  cp_then_fcopy nobody -r --preserve=ownership t cp-t -- -r --preserve=ownership --atomic t fcopy-t
  assert_status 0
  assert_equal "$(owner_and_mode fcopy-t)" "$(owner_and_mode cp-t)" "tree, --atomic"
}

# cp reports the failure of a chown only where it may chown: as root.
@test "root without CAP_CHOWN: nobody's 6755 file: the failure reported as cp, exit 1, no setuid on root's copy" {
  setuid_tree
  chown -R nobody:nogroup suid t
  chmod 6755 suid t/bin/suid
  local opt
  for opt in -p --preserve=ownership -a; do
    rm -rf cp.out fcopy.out
    cp_then_fcopy nochown "$opt" suid cp.out -- "$opt" suid fcopy.out
    assert_status 1
    assert_stderr "fcopy: failed to preserve ownership for 'fcopy.out': Operation not permitted"
    # Owned by root: the owner's bits alone, no setuid or setgid bit.
    assert_equal "$(owner_and_mode cp.out)" "700 root:root cp.out" "cp $opt"
    assert_equal "$(owner_and_mode fcopy.out)" "700 root:root fcopy.out" "fcopy $opt"
  done
  # --atomic: the copy failed, so DEST is not made, or stays as it was.
  run_as nochown fcopy -p --atomic suid atomic.out
  assert_status 1
  assert_stderr "fcopy: failed to preserve ownership for 'atomic.out': Operation not permitted"
  assert_no_file atomic.out
  printf 'old\n' >atomic.out
  run_as nochown fcopy -p --atomic suid atomic.out
  assert_status 1
  assert_equal "$(cat atomic.out)" old "DEST"
  # A tree: the same messages as cp -a, and no file of root's is setuid.
  cp_then_fcopy nochown -a t cp-t -- -a t fcopy-t
  assert_status 1
  assert_equal "$(owner_and_mode fcopy-t)" "$(owner_and_mode cp-t)" "the tree, as cp's"
  [[ -z $(find fcopy-t -perm /6000) ]] || { find fcopy-t -perm /6000 -ls; false; }
  cp_then_fcopy nochown -a t cp-t2 -- -a --atomic t atomic-t
  assert_status 1
  [[ -z $(find atomic-t -perm /6000) ]] || { find atomic-t -perm /6000 -ls; false; }
}
