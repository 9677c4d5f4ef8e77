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

# ---------------------------------------------------------------------------
# 2. -i reads the answer with the locale's yes/no (gnulib yesno, rpmatch)

@test "C.UTF-8: -i answered y overwrites" {
  printf 'new\n' >src
  printf 'old\n' >dst
  run --separate-stderr fcopy_in $UTF8 -i src dst <<<y
  assert_status 0
  assert_equal "$(cat dst)" new "dst"
}

@test "C.UTF-8: -i answered n keeps the destination" {
  printf 'new\n' >src
  printf 'old\n' >dst
  run --separate-stderr fcopy_in $UTF8 -i src dst <<<n
  assert_status 0
  assert_equal "$(cat dst)" old "dst"
}

# A locale whose yes is not only y: French says o(ui).  Built with
# localedef into this file's directory (LOCPATH), so that nothing on the
# system changes.
make_fr_locale ()
{
  local dir=$BATS_FILE_TMPDIR/locales
  [[ -d $dir/fr_FR.UTF-8 ]] && return 0
  mkdir -p "$dir"
  localedef -i fr_FR -f UTF-8 "$dir/fr_FR.UTF-8" >/dev/null 2>&1 ||
    [[ -f $dir/fr_FR.UTF-8/LC_MESSAGES/SYS_LC_MESSAGES ]] ||
    skip_or_fail "localedef cannot build fr_FR.UTF-8 (needs glibc's locale sources)"
}

# fcopy_fr ARG...: fcopy in that French locale.
fcopy_fr ()
{
  (export LOCPATH=$BATS_FILE_TMPDIR/locales; fcopy_in fr_FR.UTF-8 "$@")
}

@test "fr_FR.UTF-8: -i answered o (oui) overwrites" {
  need_cmd localedef
  make_fr_locale
  printf 'new\n' >src
  printf 'old\n' >dst
  run --separate-stderr fcopy_fr -i src dst <<<o
  assert_status 0
  assert_equal "$(cat dst)" new "dst"
}

@test "fr_FR.UTF-8: -i answered n (non) keeps the destination" {
  need_cmd localedef
  make_fr_locale
  printf 'new\n' >src
  printf 'old\n' >dst
  run --separate-stderr fcopy_fr -i src dst <<<n
  assert_status 0
  assert_equal "$(cat dst)" old "dst"
}

# ---------------------------------------------------------------------------
# 3. --help ends with GNU's bug-report and home-page lines

# config_string NAME: the string config.h defines NAME to, or nothing.
config_string ()
{
  sed -n "s/^#define $1 \"\\(.*\\)\"\$/\\1/p" "$abs_top_builddir/config.h"
}

@test "--help ends with the bug-report address and the home page" {
  [[ -r ${abs_top_builddir:-}/config.h ]] || skip_or_fail "no config.h (run from make check)"
  run --separate-stderr fcopy --help
  assert_status 0
  local tail4
  tail4=$(tail -n 4 <<<"$output")
  assert_equal "$tail4" "
Report bugs to: $(config_string PACKAGE_BUGREPORT)
fcopy home page: <$(config_string PACKAGE_URL)>
General help using GNU software: <https://www.gnu.org/gethelp/>" "--help's last lines"
}

@test "--help: the option list and See fcopy(1) come before the footer" {
  run --separate-stderr fcopy --help
  assert_status 0
  [[ $output == *"See fcopy(1) for details."$'\n\n'"Report bugs to: "* ]] || {
    echo "$output" >&2
    false
  }
}
