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
# 3. --help ends with GNU's bug-report and home-page lines, those that
# configure was given (.ci/run's ASan build is given both)

# config_string NAME: the string config.h defines NAME to, or nothing.
config_string ()
{
  sed -n "s/^#define $1 \"\\(.*\\)\"\$/\\1/p" "$abs_top_builddir/config.h"
}

@test "--help's footer: the bug-report and home-page lines configure was given, no empty one" {
  [[ -r ${abs_top_builddir:-}/config.h ]] || skip_or_fail "no config.h (run from make check)"
  local bugs home want="See fcopy(1) for details."
  grep -q '^#define FCOPY_BUG_REPORT ' "$abs_top_builddir/config.h"
  bugs=$(config_string FCOPY_BUG_REPORT)
  home=$(config_string FCOPY_HOME_PAGE)
  [[ -z $bugs && -z $home ]] || want+=$'\n'
  [[ -z $bugs ]] || want+=$'\n'"Report bugs to: $bugs"
  [[ -z $home ]] || want+=$'\n'"fcopy home page: <$home>"
  echo "# bug address '$bugs', home page '$home'" >&3
  run --separate-stderr fcopy --help
  assert_status 0
  [[ $output == *"$want" ]] || { echo "--help ends: $(tail -n 4 <<<"$output")" >&2; false; }
  [[ $output != *"<>"* && $output != *"Report bugs to: "$'\n'* ]]
  [[ $output != *"GNU software"* ]]
}

# ---------------------------------------------------------------------------
# 4. --debug: cp's line first (coreutils 9.2 and later, copy.c's
# emit_debug), fcopy's own facts on the next line

# cp's words for each field, in cp's order.
CP_DEBUG_RE='^copy offload: (unknown|unsupported|yes|avoided), reflink: (unknown|unsupported|yes|no|avoided), sparse detection: (unknown|no|zeros|SEEK_HOLE|SEEK_HOLE \+ zeros)$'
OWN_DEBUG_RE='^splice: [a-z]+, read/write: [a-z]+, extents shared: (yes|no|unknown)$'

# clones_here: whether this directory's file system can clone.
clones_here ()
{
  printf 'x\n' >clone-probe
  fcopy --reflink=always clone-probe clone-probe.copy 2>/dev/null
}

# debug_line N: line N of the last run's stdout.
debug_line ()
{
  sed -n "$1p" <<<"$output"
}

@test "--debug, plain copy: the -v line, then cp's line" {
  make_random src 100000
  run --separate-stderr fcopy --debug src dst
  assert_status 0
  assert_equal "$(debug_line 1)" "'src' -> 'dst'" "line 1"
  [[ $(debug_line 2) =~ $CP_DEBUG_RE ]] || { echo "line 2: $(debug_line 2)" >&2; false; }
}

@test "--debug, plain copy: cp's values for a clone or a copy offload" {
  make_random src 100000
  local expected="copy offload: yes, reflink: unsupported, sparse detection: no"
  clones_here && expected="copy offload: unknown, reflink: yes, sparse detection: unknown"
  run --separate-stderr fcopy --debug src dst
  assert_status 0
  assert_equal "$(debug_line 2)" "$expected" "line 2"
}

@test "--debug, plain copy: fcopy's own facts follow on line 3" {
  make_random src 100000
  run --separate-stderr fcopy --debug src dst
  assert_status 0
  [[ $(debug_line 3) =~ $OWN_DEBUG_RE ]] || { echo "line 3: $(debug_line 3)" >&2; false; }
  assert_equal "$(wc -l <<<"$output")" 3 "lines"
}

@test "--debug --reflink=never: reflink no, copy offload avoided, as cp" {
  make_random src 100000
  run --separate-stderr fcopy --debug --reflink=never src dst
  assert_status 0
  assert_equal "$(debug_line 2)" "copy offload: avoided, reflink: no, sparse detection: no" "line 2"
}

@test "--debug --reflink=never: splice or read/write did the work" {
  make_random src 100000
  run --separate-stderr fcopy --debug --reflink=never src dst
  assert_status 0
  [[ $(debug_line 3) =~ ^splice:\ (yes,\ read/write:\ no|unsupported,\ read/write:\ yes),\ extents\ shared:\ $(unshared_word dst)$ ]] || {
    echo "line 3: $(debug_line 3)" >&2; false; }
}

@test "--debug --sparse=always: zeros are looked for, copy offload avoided" {
  clones_here && skip "this file system clones: no zeros are looked for"
  make_random src 100000
  run --separate-stderr fcopy --debug --sparse=always src dst
  assert_status 0
  assert_equal "$(debug_line 2)" "copy offload: avoided, reflink: unsupported, sparse detection: zeros" "line 2"
}

@test "--debug --sparse=always, sparse source: SEEK_HOLE + zeros" {
  clones_here && skip "this file system clones: no holes are looked for"
  truncate -s 8M src
  printf 'data' | dd of=src bs=1 seek=4M conv=notrunc status=none
  run --separate-stderr fcopy --debug --sparse=always src dst
  assert_status 0
  assert_equal "$(debug_line 2)" "copy offload: avoided, reflink: unsupported, sparse detection: SEEK_HOLE + zeros" "line 2"
}

@test "--debug, sparse source: SEEK_HOLE, as cp" {
  clones_here && skip "this file system clones: no holes are looked for"
  truncate -s 8M src
  printf 'data' | dd of=src bs=1 seek=4M conv=notrunc status=none
  run --separate-stderr fcopy --debug src dst
  assert_status 0
  assert_equal "$(debug_line 2)" "copy offload: yes, reflink: unsupported, sparse detection: SEEK_HOLE" "line 2"
}

@test "--debug --reflink=always where the file system cannot clone: cp's line" {
  clones_here && skip "this file system clones"
  printf 'x\n' >src
  run --separate-stderr fcopy --debug --reflink=always src dst
  assert_status 1
  assert_equal "$(debug_line 2)" "copy offload: unknown, reflink: unsupported, sparse detection: unknown" "line 2"
}

@test "--debug --attributes-only: only the -v line, as cp (no data copied)" {
  printf 'x\n' >src
  run --separate-stderr fcopy --debug --attributes-only src dst
  assert_status 0
  assert_stdout "'src' -> 'dst'"
}
