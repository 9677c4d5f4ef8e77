#!/usr/bin/env bats
# hostile.bats -- input that a script or an attacker may hand fcopy: sizes
# out of range, names longer than PATH_MAX in a pair list, a list of
# random bytes.  Never a crash (a status of 128 or more), always a clear
# message and the documented status.

bats_require_minimum_version 1.5.0
load helpers

setup ()
{
  cd "$BATS_TEST_TMPDIR"
  printf 'data\n' >a
  printf 'data\n' >b
}

@test "sizes out of range are usage errors that name the option and value" {
  local arg
  for arg in --length=-1 --src-offset=99E --dst-offset=1Q \
             --length=18446744073709551616 --src-offset= --length=1.5K; do
    run --separate-stderr fcopy "$arg" a c
    assert_status 1
    [[ $stderr == "fcopy: invalid ${arg%%=*} '${arg#*=}'"* ]] ||
      { echo "$arg: $stderr"; false; }
    assert_no_file c
  done
}

@test "a pair list with a name longer than PATH_MAX: that pair fails, clearly" {
  local long
  long=$(printf 'x%.0s' {1..5000})
  printf 'a\0b\0%s\0b\0' "$long" >list
  run --separate-stderr fcopy --dedupe -0 --pairs-from=list
  assert_status 2
  [[ $stderr == *"File name too long"* ]] || { echo "$stderr"; false; }
}

@test "pair lists of random bytes: no crash, a clear error or a clean run" {
  local i
  for i in 1 2 3 4 5 6 7 8; do
    head -c $((i * 512)) /dev/urandom >list
    run --separate-stderr fcopy --dedupe -0 --pairs-from=list
    [[ $status -le 2 ]] || { echo "round $i: status $status: $stderr"; false; }
    run --separate-stderr fcopy --dedupe --groups-from=list
    [[ $status -le 2 ]] || { echo "round $i: status $status: $stderr"; false; }
  done
}
