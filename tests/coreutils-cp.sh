#!/bin/bash
# tests/coreutils-cp.sh -- run GNU coreutils' own tests/cp/*.sh, from the
# source package of the coreutils that Debian ships, once with the system
# cp and once with fcopy, and fail on any script the system cp passes and
# fcopy does not.  `make check-coreutils` runs it.
#
# Usage: tests/coreutils-cp.sh [-j N] [-k] [-o RESULTS] FCOPY [TEST...]
#   FCOPY       the fcopy to test (it is called through a link named cp)
#   TEST...     script names (abuse, cp/abuse, 'sparse*'); default: all
#   -j N        scripts run at once (default: the number of CPUs)
#   -k          keep the work tree (its path is printed)
#   -o FILE     write "test<TAB>cp result<TAB>fcopy result<TAB>note" lines
#
# Environment:
#   COREUTILS_SRC  a coreutils_*.orig.tar.xz, or a directory holding one or
#                  an extracted source tree.  Default: the package's source
#                  in $COREUTILS_CACHE (default /var/tmp/fcopy-coreutils-src),
#                  fetched there with `apt-get source --download-only
#                  coreutils`, which needs a deb-src entry for the release.
#   SYSTEM_CP      the reference cp (default /bin/cp)
#   CU_TIMEOUT     seconds a script may run (default 120)
#   CU_EXPENSIVE   yes: run the scripts coreutils marks expensive too
#                  (link-heap, perm; off by default, as in coreutils)
#
# As root, scripts that do not call require_root_ run as `nobody` and the
# others as root, which is coreutils' `make check` plus `make check-root`;
# otherwise every script runs as the calling user.  Nothing of coreutils is
# kept in the repository: the scripts and the pieces of coreutils' test
# framework they source (init.cfg, tests/init.sh, lang-default,
# envvar-check, other-fs-tmpdir, d_type-check, seek-data-capable...) are
# taken from the source package at run time.  What coreutils builds for
# its tests and a Debian system lacks (src/getlimits) is emulated below.
#
# Output: one line per script, then
#   cp: N passed, N failed, N skipped; fcopy: N passed, N failed, N skipped
# and, for the CI summary, "regressions: N".  Exit 0 when there is none.
set -u
PROG=${0##*/}
die () { printf '%s: %s\n' "$PROG" "$*" >&2; exit 2; }
note () { printf '%s: %s\n' "$PROG" "$*" >&2; }

jobs=$(nproc 2>/dev/null || echo 2)
keep=no
results=
while getopts j:ko: opt; do
  case $opt in
    j) jobs=$OPTARG ;;
    k) keep=yes ;;
    o) results=$OPTARG ;;
    *) sed -n '6,12s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || die "usage: $PROG [-j N] [-k] [-o FILE] FCOPY [TEST...]"
fcopy=$(realpath -e "$1") || die "no such program: $1"
shift
system_cp=$(realpath -e "${SYSTEM_CP:-/bin/cp}") || die "no system cp"
timeout_s=${CU_TIMEOUT:-120}
expensive=${CU_EXPENSIVE:-no}

# ------------------------------------------------------------ the source
cache=${COREUTILS_CACHE:-/var/tmp/fcopy-coreutils-src}
src=${COREUTILS_SRC:-}
if [ -z "$src" ]; then
  mkdir -p "$cache" || die "cannot create $cache"
  if ! ls "$cache"/coreutils_*.orig.tar.* >/dev/null 2>&1; then
    note "fetching Debian's coreutils source into $cache"
    # apt drops privileges to _apt, which must be able to write here.
    [ "$(id -u)" = 0 ] && chown _apt "$cache" 2>/dev/null
    (cd "$cache" && apt-get source -q --download-only coreutils) >&2 ||
      die "apt-get source failed: add a deb-src entry (see README, 'make check-coreutils') or set COREUTILS_SRC"
  fi
  src=$cache
fi
if [ -d "$src" ] && [ ! -d "$src/tests/cp" ]; then
  tarball=$(ls "$src"/coreutils_*.orig.tar.* 2>/dev/null | sort -V | tail -n 1)
  [ -n "$tarball" ] || die "no coreutils_*.orig.tar.* in $src"
  src=$tarball
fi

# The work tree.  Scripts run as nobody must be able to enter it.
T=$(mktemp -d "${TMPDIR:-/tmp}/fcopy-cu.XXXXXX") || die "mktemp failed"
chmod 755 "$T"
cleanup ()
{
  local m
  # A killed script may leave a loop mount behind.
  for m in $(awk -v t="$T/" 'index($5, t) == 1 { print $5 }' /proc/self/mountinfo |
             sort -r); do
    umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
  done
  if [ $keep = yes ]; then note "kept $T"; else rm -rf "$T"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

top=$T/coreutils
if [ -d "$src" ]; then
  cp -a "$src" "$top" || die "cannot copy $src"
else
  mkdir "$top" && tar -xf "$src" -C "$top" --strip-components=1 \
    --wildcards '*/init.cfg' '*/tests/*' '*/configure' ||
    die "cannot extract $src"
fi
[ -d "$top/tests/cp" ] || die "no tests/cp in $src"
version=$(sed -n "s/^PACKAGE_VERSION='\(.*\)'/\1/p" "$top/configure" | head -n 1)

# ------------------------------------------------- what coreutils builds
# Each cp under test gets a src/ of its own: its cp, and coreutils'
# getlimits (limits and errno strings as shell assignments).
make_src ()
{
  local dir=$1 cp_exe=$2
  mkdir -p "$dir"
  ln -s "$cp_exe" "$dir/cp"
  ln -s "$(command -v install)" "$dir/ginstall"
  cat > "$dir/getlimits" <<'EOF'
#!/usr/bin/python3
import ctypes, errno, os
def q(s): return "'" + s.replace("'", "'\\''") + "'"
def lim(name, bits, signed):
    if signed:
        mx, mn = 2 ** (bits - 1) - 1, -2 ** (bits - 1)
        print("%s_MAX=%d\n%s_OFLOW=%d\n%s_MIN=%d\n%s_UFLOW=%d"
              % (name, mx, name, mx + 1, name, mn, name, mn - 1))
    else:
        print("%s_MAX=%d\n%s_OFLOW=%d" % (name, 2 ** bits - 1, name, 2 ** bits))
B = lambda t: 8 * ctypes.sizeof(t)
lim("CHAR", 8, True); lim("SCHAR", 8, True); lim("UCHAR", 8, False)
lim("SHRT", B(ctypes.c_short), True); lim("INT", B(ctypes.c_int), True)
lim("UINT", B(ctypes.c_uint), False); lim("LONG", B(ctypes.c_long), True)
lim("ULONG", B(ctypes.c_ulong), False); lim("SIZE", B(ctypes.c_size_t), False)
lim("SSIZE", B(ctypes.c_ssize_t), True); lim("TIME_T", 64, True)
lim("UID_T", 32, False); lim("GID_T", 32, False); lim("PID_T", 32, True)
lim("OFF_T", 64, True); lim("INTMAX", 64, True); lim("UINTMAX", 64, False)
print("IO_BUFSIZE=131072")
for n in sorted(dir(errno)):
    v = getattr(errno, n)
    if n.startswith("E") and isinstance(v, int):
        print("%s=%s" % (n, q(os.strerror(v))))
EOF
  chmod 755 "$dir/getlimits"
}
# Scripts prepend ./src to PATH where they start (the top of the tree), so
# each cp under test has a tree of its own.
for who in cp fcopy; do
  cp -a "$top" "$T/$who" || die "cannot copy the scripts"
done
# nobody must be able to run fcopy, which may be built in a directory
# only root can enter: the scripts run a copy of it.
mkdir "$T/bin" && cp "$fcopy" "$T/bin/fcopy" || die "cannot copy $fcopy"
make_src "$T/cp/src" "$system_cp"
make_src "$T/fcopy/src" "$T/bin/fcopy"

# The features the scripts look for in config.h: those of Debian's cp,
# which fcopy shares (ACLs, xattrs, *at calls); Debian's cp has no
# SELinux and no libcap in ls.
cat > "$T/config.h" <<'EOF'
#define USE_ACL 1
#define USE_XATTR 1
#define HAVE_LINKAT 1
#define HAVE_UTIMENSAT 1
#define HAVE_LUTIMES 1
#define HAVE_OPENAT 1
EOF
# capability.sh asks for an ls built with libcap; Debian's is not, but what
# it tests (cp -a keeps security.capability) needs only setcap and getcap.
command -v setcap >/dev/null && echo '#define HAVE_CAP 1' >> "$T/config.h"

# The programs a script may require_built_: the system's, and cp.
built=cp
for p in cat chgrp chmod chown chroot cmp date dd df du echo env head id install \
    ln ls mkdir mkfifo mknod mktemp mv printf readlink rm rmdir seq sleep \
    stat sync tail test timeout touch tr true truncate uname wc yes; do
  command -v "$p" >/dev/null && built="$built $p"
done

if [ "$(id -u)" = 0 ]; then
  nobody_uid=$(id -u nobody) || die "no user nobody"
  nobody_gid=$(id -g nobody)
  # A second group, as a developer running coreutils' make check has
  # (existing-perm-race needs one).
  users_gid=$(getent group users | cut -d: -f3)
  nobody_groups=$nobody_gid${users_gid:+,$users_gid}
  chmod -R a+rX "$T"
  # Each script makes its directory where it starts: at the top.
  chmod 1777 "$T/cp" "$T/fcopy"
  for f in "$system_cp" "$T/bin/fcopy"; do
    setpriv --reuid="$nobody_uid" --regid="$nobody_gid" --clear-groups \
      test -x "$f" || die "nobody cannot run $f: make it and its directories searchable"
  done
fi

# run-one.sh WHO TEST: run TEST (tests/cp/x.sh) with WHO's cp (cp or fcopy),
# in the environment coreutils' TESTS_ENVIRONMENT gives it.
cat > "$T/run-one.sh" <<EOF
#!/bin/sh
who=\$1 tst=\$2
cd '$T'/\$who || exit 99
. ./tests/lang-default
tmp__=\${TMPDIR-/tmp}
test -d "\$tmp__" && test -w "\$tmp__" || tmp__=.
. ./tests/envvar-check
TMPDIR=\$tmp__; export TMPDIR
export VERSION='$version' PACKAGE_VERSION='$version' \\
  abs_top_builddir='$T'/\$who abs_top_srcdir='$T'/\$who abs_srcdir='$T'/\$who \\
  built_programs='$built' fail=0 host_os=linux-gnu srcdir=. top_srcdir=. \\
  CONFIG_HEADER='$T/config.h' CU_TEST_NAME="\$who,\$tst" \\
  CC=gcc AWK=awk EGREP='grep -E' EXEEXT= MAKE=make PERL=perl SHELL=/bin/sh \\
  LOCALE_FR= LOCALE_FR_UTF8= \\
  RUN_EXPENSIVE_TESTS='$expensive' RUN_VERY_EXPENSIVE_TESTS='$expensive'
$( [ "$(id -u)" = 0 ] && echo "export NON_ROOT_USERNAME=nobody NON_ROOT_GID=$nobody_gid" )
exec timeout -k 10 $timeout_s /bin/sh "\$tst" 9>&2
EOF
chmod 755 "$T/run-one.sh"

# ------------------------------------------------------------ the scripts
tests=()
for f in "$top"/tests/cp/*.sh; do
  f=tests/cp/${f##*/}
  if [ $# = 0 ]; then tests+=("$f"); continue; fi
  name=${f#tests/}; name=${name%.sh}
  for s in "$@"; do
    s=${s#tests/}; s=${s%.sh}
    # shellcheck disable=SC2254
    case $name in $s|cp/$s) tests+=("$f"); break ;; esac
  done
done
[ ${#tests[@]} -gt 0 ] || die "no script matches: $*"

# run WHO TEST: one script, its result as "TEST WHO RESULT NOTE" in $T/res.
run ()
{
  local who=$1 tst=$2 name log rc res why
  name=${tst#tests/cp/}; name=${name%.sh}
  log=$T/logs/$who-$name.log
  if [ "$(id -u)" = 0 ] && ! grep -q '^[[:space:]]*require_root_' "$top/$tst"
  then
    setpriv --reuid="$nobody_uid" --regid="$nobody_gid" --groups="$nobody_groups" \
      "$T/run-one.sh" "$who" "$tst" < /dev/null > "$log" 2>&1
  else
    "$T/run-one.sh" "$who" "$tst" < /dev/null > "$log" 2>&1
  fi
  rc=$?
  case $rc in
    0) res=PASS why= ;;
    77) res=SKIP why=$(sed -n 's/^.*skipped test: //p' "$log" | head -n 1) ;;
    124|137) res=FAIL why="timeout after ${timeout_s} s" ;;
    *) res=FAIL why="exit $rc" ;;
  esac
  printf '%s\t%s\t%s\t%s\n' "$name" "$who" "$res" "$why" > "$T/res/$who-$name"
}
export -f run
export T top timeout_s nobody_uid nobody_gid nobody_groups 2>/dev/null
mkdir -p "$T/logs" "$T/res"
chmod 1777 "$T/logs" "$T/res"

note "coreutils $version from ${src##*/}; ${#tests[@]} scripts; cp: $system_cp; fcopy: $fcopy"
for tst in "${tests[@]}"; do
  printf 'cp %s\0fcopy %s\0' "$tst" "$tst"
done | xargs -0 -n 1 -P "$jobs" bash -c 'run ${0% *} ${0#* }'

# ------------------------------------------------------------ the verdict
declare -A count
for k in cp-PASS cp-FAIL cp-SKIP fcopy-PASS fcopy-FAIL fcopy-SKIP; do
  count[$k]=0
done
regressions=0
[ -n "$results" ] && : > "$results"
printf '%-28s %-5s %-5s  %s\n' SCRIPT CP FCOPY NOTE
for tst in "${tests[@]}"; do
  name=${tst#tests/cp/}; name=${name%.sh}
  IFS=$'\t' read -r _ _ r_cp w_cp < "$T/res/cp-$name"
  IFS=$'\t' read -r _ _ r_fc w_fc < "$T/res/fcopy-$name"
  count[cp-$r_cp]=$(( count[cp-$r_cp] + 1 ))
  count[fcopy-$r_fc]=$(( count[fcopy-$r_fc] + 1 ))
  why=
  if [ "$r_cp" = PASS ] && [ "$r_fc" != PASS ]; then
    regressions=$((regressions + 1))
    why="REGRESSION: ${w_fc:-$r_fc}"
  elif [ "$r_cp" != PASS ]; then
    why="cp: ${w_cp:-$r_cp}; fcopy: ${w_fc:-$r_fc}"
  fi
  printf '%-28s %-5s %-5s  %s\n' "$name" "$r_cp" "$r_fc" "$why"
  [ -n "$results" ] && printf '%s\t%s\t%s\t%s\n' "$name" "$r_cp" "$r_fc" "$why" >> "$results"
  if [ "$r_fc" = FAIL ] && [ "$r_cp" = PASS ]; then
    sed 's/^/    | /' "$T/logs/fcopy-$name.log" | tail -n 30
  fi
done
printf 'cp: %d passed, %d failed, %d skipped; fcopy: %d passed, %d failed, %d skipped\n' \
  "${count[cp-PASS]}" "${count[cp-FAIL]}" "${count[cp-SKIP]}" \
  "${count[fcopy-PASS]}" "${count[fcopy-FAIL]}" "${count[fcopy-SKIP]}"
echo "regressions: $regressions"
[ $regressions = 0 ]
