#!/usr/bin/env bats
# fault-matrix.bats -- every system call fcopy makes on the way of a copy,
# failed with EIO, ENOSPC and EDQUOT at its first and at a later call,
# with and without --atomic, for one file and for a small tree.  In every
# case: the source is unchanged; a failure is exit status 1 with exactly
# one message that names a file and the error; a success is a complete
# copy; with --atomic a destination that failed is as it was and no
# temporary is left.  The matrix is generated in loops; the number of
# cases run is printed.

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
  (cd tree && find . -type f -exec md5sum {} + | sort) >sums
}

# strerror ERRNAME: the message glibc gives for it.
strerror ()
{
  python3 -c 'import errno, os, sys; print(os.strerror(getattr(errno, sys.argv[1])))' "$1"
}

# check_case SPEC ATOMIC TARGET: one case; fail with a description.
# Counts it in the caller's COPIED or REFUSED.
check_case ()
{
  local spec=$1 atomic=$2 target=$3 err=${1%%,*} msg
  err=${err##*:}
  msg=$(strerror "$err")
  rm -rf out
  mkdir out
  printf 'old\n' >out/big
  local args=(-p --fsync)
  [[ $atomic == yes ]] && args+=(--atomic)
  if [[ $target == file ]]; then
    run --separate-stderr fcopy_fault "$spec" "${args[@]}" tree/big out/big
  else
    run --separate-stderr fcopy_fault "$spec" "${args[@]}" -r tree/. out
  fi
  local what="$spec atomic=$atomic $target"
  (cd tree && find . -type f -exec md5sum {} + | sort) | cmp -s - sums ||
    { echo "$what: the source changed"; return 1; }
  if [[ $status -eq 0 ]]; then
    copied=$((copied + 1))
    [[ -z $stderr ]] || { echo "$what: exit 0 with: $stderr"; return 1; }
    cmp -s tree/big out/big || { echo "$what: exit 0, copy incomplete"; return 1; }
    return 0
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
}

# run_matrix ATOMIC TARGET LADDER: all calls, errors and call numbers.
# LADDER offload: as fcopy goes; rw: copy_file_range and splice refused
# as unsupported, so that the data goes through read and write.  Each
# call in MUST_HIT must have failed a copy at least once: a matrix whose
# faults hit nothing tests nothing.
run_matrix ()
{
  local atomic=$1 target=$2 ladder=$3 call err when n=0 failures=0
  local copied=0 refused=0 hit=" " prefix=
  local must="open fstat ioctl futimens fsync"
  [[ $ladder == rw ]] && prefix=copy_file_range:*:EXDEV,splice:*:EINVAL,
  [[ $ladder == rw ]] && must+=" read write" || must+=" copy_file_range"
  [[ $atomic == yes ]] && must+=" linkat renameat"
  for call in $CALLS; do
    [[ $ladder == rw && ( $call == copy_file_range || $call == splice ) ]] &&
      continue
    for err in $ERRORS; do
      for when in 1 2; do
        n=$((n + 1))
        local before=$refused
        check_case "$call:$when:$err${prefix:+,${prefix%,}}" "$atomic" "$target" ||
          failures=$((failures + 1))
        [[ $refused -eq $before ]] || hit+="$call "
      done
    done
  done
  echo "# $n cases (atomic=$atomic, $target, $ladder): $refused failed as" \
    "they should, $copied copied (the call not made, or harmless there)," \
    "$failures wrong" >&3
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
