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
