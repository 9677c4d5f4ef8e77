#!/usr/bin/env bats
# fault-matrix.bats -- every system call fcopy makes on the way of a copy,
# failed with EIO, ENOSPC and EDQUOT at its first and at a later call,
# with and without --atomic, for one file and for a small tree.  In every
# case: the source is unchanged; the shim's call log says whether the
# fault fired.  A fault that fired either fails the copy (exit status 1,
# exactly one message that names a file and the error; with --atomic a
# destination that failed is as it was and no temporary is left) or is
# listed in `harmless` with the reason it cannot hurt, and then the copy
# is whole.  A fault that did not fire is no pass: the case is listed in
# `not_reached` with the reason the call is not made that often.  Both
# lists are exact: a case listed that behaves otherwise fails too, so
# that the lists say what fcopy does.  The matrix is generated in loops;
# the number of cases of each kind is printed.
#
# The lists are for a filesystem that refuses FICLONE and takes
# copy_file_range (ext4, tmpfs: what $BATS_TEST_TMPDIR is on in CI); on
# one that clones, every test skips (fails under CI=true).

bats_require_minimum_version 1.5.0
load helpers

CALLS="open fstat read write copy_file_range splice ioctl ftruncate fchown
fchmod fsetxattr futimens fsync linkat renameat close"
ERRORS="EIO ENOSPC EDQUOT"

setup ()
{
  need_shim
  cd "$BATS_TEST_TMPDIR"
  mkdir -p tree/d
  make_random tree/big 300000
  make_random tree/d/small 5000
  printf 'tiny\n' >tree/d/tiny
  # Modes the umask takes bits from: a new file of a tree is made with
  # its source's mode and chmod'ed only if the umask changed it, and the
  # fchmod of two files is a case of the matrix.
  umask 022
  chmod 0664 tree/d/small tree/d/tiny
  tree_sums tree >sums
  # The premise of the lists: the clone is refused, copy_file_range
  # moves the data.
  rm -f premise.log
  FCOPY_SHIM_LOG=$PWD/premise.log fcopy_fault '' tree/big premise.copy
  assert_same tree/big premise.copy
  if [[ $(calls_made premise.log ficlone) -ne 1 ||
        $(calls_made premise.log copy_file_range) -ne 1 ]]; then
    skip_or_fail "the lists are for a filesystem that refuses FICLONE; $BATS_TEST_TMPDIR clones"
  fi
}

# tree_sums DIR: the md5sum of each file under DIR, sorted; fails if
# find or md5sum does (a pipe into sort would hide it) or DIR has no
# file.
tree_sums ()
{
  local sums
  sums=$(cd "$1" && find . -type f -exec md5sum {} +) || return 1
  [[ -n $sums ]] || { echo "tree_sums: no file under $1" >&2; return 1; }
  sort <<<"$sums"
}

# strerror ERRNAME: the message glibc gives for it.
strerror ()
{
  python3 -c 'import errno, os, sys; print(os.strerror(getattr(errno, sys.argv[1])))' "$1"
}

# calls_made LOG CALL: how many CALL calls the shim counted.  An ioctl
# counts as "ioctl" but is logged under its most specific name, so the
# "ioctl" calls are the lines of all four names.
calls_made ()
{
  local n=0 c name names=$2
  [[ $2 != ioctl ]] || names="ioctl ficlone ficlonerange fideduperange"
  for name in $names; do
    c=$(shim_count "$1" "$name") || return 1
    n=$((n + c))
  done
  echo "$n"
}

# harmless CASE: for a CASE ("CALL:WHEN ATOMIC TARGET LADDER") where the
# fault fires and the copy is right to go on, print why; else status 1.
harmless ()
{
  case $1 in
    "close:1 no file rw" | "close:2 no file rw" | \
    "close:1 yes file rw" | "close:2 yes file rw" | \
    "close:1 no tree rw" | "close:2 no tree rw" | \
    "close:1 yes tree rw" | "close:2 yes tree rw")
      echo "the two ends of splice's pipe, closed unused after splice refused (EINVAL) before any byte moved" ;;
    "close:2 no file offload")
      echo "the source tree/big, read to its end: nothing written is lost" ;;
    "close:2 no tree offload" | "close:2 yes tree offload")
      echo "the source tree/d/small, read to its end: nothing written is lost" ;;
    "close:1 yes file offload")
      echo "a descriptor of the directory out, after its fsync: nothing written is lost" ;;
    *) return 1 ;;
  esac
}

# not_reached CASE: for a CASE where fcopy makes fewer than WHEN calls
# of CALL, print why; else status 1.
not_reached ()
{
  case $1 in
    "read:"[12]" "*" offload" | "write:"[12]" "*" offload" | \
    "splice:"[12]" "*" offload")
      echo "copy_file_range moves every byte: no splice, read or write of data" ;;
    "copy_file_range:2 "?*" file offload")
      echo "one copy_file_range moves the 300000 bytes of one file, up to the size fstat gave" ;;
    "ioctl:2 "?*" file "*)
      echo "one file, one FICLONE (refused); no other ioctl" ;;
    "ftruncate:"[12]" "*)
      echo "only for a copy that ends in a hole, a failed copy's preallocation or a clone over a non-empty file: none here" ;;
    "fchmod:"[12]" "?*" file "*)
      echo "-p gives a file its mode with its ACL (fsetxattr system.posix_acl_access)" ;;
    "fchown:2 "?*" file "* | "fsetxattr:2 "?*" file "* | "futimens:2 "?*" file "*)
      echo "one file: one call each" ;;
    "fsync:2 no file "*)
      echo "one file without --atomic: one fsync, of the file (its directory entry is old)" ;;
    "linkat:"[12]" no "* | "renameat:"[12]" no "*)
      echo "only --atomic links or renames its temporary into place" ;;
    "linkat:2 yes file "* | "renameat:2 yes file "*)
      echo "one file with --atomic: one linkat (O_TMPFILE) or one renameat" ;;
    *) return 1 ;;
  esac
}

# check_case CALL WHEN ERR ATOMIC TARGET LADDER: one case; fail with a
# description.  Counts it in the caller's REFUSED, HARMLESS or UNREACHED.
check_case ()
{
  local call=$1 when=$2 err=$3 atomic=$4 target=$5 ladder=$6
  local spec=$1:$2:$3 key="$1:$2 $4 $5 $6" msg made reason
  [[ $ladder == offload ]] || spec+=,copy_file_range:*:EXDEV,splice:*:EINVAL
  local what="$spec atomic=$atomic $target"
  msg=$(strerror "$err") || return 1
  rm -rf out shim.log || return 1
  mkdir out || return 1
  printf 'old\n' >out/big || return 1
  local args=(-p --fsync)
  if [[ $atomic == yes ]]; then
    args+=(--atomic)
  fi
  if [[ $target == file ]]; then
    args+=(tree/big out/big)
  else
    args+=(-r tree/. out)
  fi
  FCOPY_SHIM_LOG=$PWD/shim.log run --separate-stderr fcopy_fault "$spec" "${args[@]}"
  tree_sums tree >sums.now || return 1
  cmp -s sums.now sums ||
    { echo "$what: the source changed"; return 1; }
  made=$(calls_made shim.log "$call") || { echo "$what: no call log"; return 1; }

  if [[ $made -lt $when ]]; then
    reason=$(not_reached "$key") ||
      { echo "$what: the fault never fired ($made $call calls) and the case is not in not_reached"; return 1; }
    [[ $status -eq 0 && -z $stderr ]] ||
      { echo "$what: not fired, yet exit $status: $stderr"; return 1; }
    unreached=$((unreached + 1))
    return 0
  fi
  if reason=$(not_reached "$key"); then
    echo "$what: fired ($made $call calls), but not_reached says: $reason"
    return 1
  fi

  if [[ $status -eq 0 ]]; then
    reason=$(harmless "$key") ||
      { echo "$what: the fault fired, yet exit 0 (not in harmless)"; return 1; }
    [[ -z $stderr ]] || { echo "$what: exit 0 with: $stderr"; return 1; }
    if [[ $target == file ]]; then
      cmp -s tree/big out/big || { echo "$what: exit 0, copy incomplete"; return 1; }
    else
      tree_sums out >sums.out || return 1
      cmp -s sums.out sums ||
        { echo "$what: exit 0, tree incomplete"; return 1; }
    fi
    harmless_n=$((harmless_n + 1))
    return 0
  fi
  if reason=$(harmless "$key"); then
    echo "$what: failed the copy, but harmless says: $reason"
    return 1
  fi
  [[ $status -eq 1 ]] || { echo "$what: exit $status: $stderr"; return 1; }
  refused=$((refused + 1))
  [[ $(wc -l <<<"$stderr") -eq 1 ]] ||
    { echo "$what: not one message: $stderr"; return 1; }
  [[ $stderr == fcopy:*\'*\'*": $msg" ]] ||
    { echo "$what: message without a name or the error: $stderr"; return 1; }
  if [[ $atomic == yes ]]; then
    [[ -z $(find out -name '.fcopy-*') ]] ||
      { echo "$what: temporary left"; return 1; }
    cmp -s tree/big out/big || [[ $(cat out/big) == old ]] ||
      { echo "$what: out/big is neither old nor new"; return 1; }
  fi
  hit+="$call "
}

# run_matrix ATOMIC TARGET LADDER: all calls, errors and call numbers.
# LADDER offload: as fcopy goes; rw: copy_file_range and splice refused
# as unsupported, so that the data goes through read and write.  Each
# call in MUST_HIT must have failed a copy at least once: a matrix whose
# faults hit nothing tests nothing.
run_matrix ()
{
  local atomic=$1 target=$2 ladder=$3 call err when n=0 failures=0
  local refused=0 harmless_n=0 unreached=0 hit=" "
  local must="open fstat ioctl futimens fsync"
  if [[ $ladder == rw ]]; then
    must+=" read write"
  else
    must+=" copy_file_range"
  fi
  if [[ $atomic == yes ]]; then
    must+=" linkat renameat"
  fi
  for call in $CALLS; do
    if [[ $ladder == rw ]] && [[ $call == copy_file_range || $call == splice ]]; then
      continue
    fi
    for err in $ERRORS; do
      for when in 1 2; do
        n=$((n + 1))
        check_case "$call" "$when" "$err" "$atomic" "$target" "$ladder" ||
          failures=$((failures + 1))
      done
    done
  done
  echo "# $n cases (atomic=$atomic, $target, $ladder): $refused failed as" \
    "they should, $harmless_n copied past a harmless fault, $unreached" \
    "not reached, $failures wrong" >&3
  local c
  for c in $must; do
    [[ $hit == *" $c "* ]] || { echo "no fault on $c failed a copy"; failures=1; }
  done
  [[ $failures -eq 0 ]]
}

@test "fault matrix: one file" {
  run_matrix no file offload
  run_matrix no file rw
}

@test "fault matrix: one file, --atomic" {
  run_matrix yes file offload
  run_matrix yes file rw
}

@test "fault matrix: a small tree" {
  run_matrix no tree offload
  run_matrix no tree rw
}

@test "fault matrix: a small tree, --atomic" {
  run_matrix yes tree offload
  run_matrix yes tree rw
}
