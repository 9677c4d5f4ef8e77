#!/usr/bin/env bats
# locale.bats -- fcopy in the user's locale (setlocale, gettext), the
# --help footer and the first --debug line, as GNU cp has them.

load helpers

# A UTF-8 locale every glibc system has; helpers.bash sets LC_ALL=C for
# the other tests, these set it per command.
UTF8=C.UTF-8

setup_file ()
{
  locale -a 2>/dev/null | grep -qix 'c\.utf-\?8' ||
    skip_or_fail "no C.UTF-8 locale (locale -a)"
}

setup ()
{
  check_file_skip
  cd "$BATS_TEST_TMPDIR"
}

# cp_message CMD...: what /bin/cp says on stderr for these operands, with
# "cp:" made "fcopy:".
cp_message ()
{
  (exec -a cp /bin/cp "$@") 2>&1 >/dev/null | sed 's/^cp: /fcopy: /'
}

# fcopy_in LOCALE ARG...: fcopy run with LC_ALL=LOCALE.
fcopy_in ()
{
  (export LC_ALL=$1; shift; exec -a fcopy "$FCOPY" "$@")
}

# ---------------------------------------------------------------------------
# 1. setlocale: names are quoted for the user's locale

@test "C.UTF-8: a missing source named 'é x' is quoted as cp quotes it" {
  local expected
  expected=$(LC_ALL=$UTF8 cp_message 'é x' missing-dir/)
  assert_equal "$expected" "fcopy: cannot stat 'é x': No such file or directory" "cp's message"
  run --separate-stderr fcopy_in $UTF8 'é x' missing-dir/
  assert_status 1
  assert_stderr "$expected"
}

@test "C.UTF-8: a destination 'é/' that is no directory is quoted as cp quotes it" {
  printf 'x\n' >src
  local expected
  expected=$(LC_ALL=$UTF8 cp_message src 'é/')
  run --separate-stderr fcopy_in $UTF8 src 'é/'
  assert_status 1
  assert_stderr "$expected"
}

@test "C: the same name is escaped for the shell, as cp escapes it" {
  local expected
  expected=$(LC_ALL=C cp_message 'é x' missing-dir/)
  run --separate-stderr fcopy_in C 'é x' missing-dir/
  assert_status 1
  assert_stderr "$expected"
}
