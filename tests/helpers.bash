# helpers.bash -- loaded by every tests/*.bats file with `load helpers`.
#
# Environment (set by `make check`, or by hand):
#   FCOPY       the fcopy binary under test (required)
#   FAULT_SHIM  tests/fault-shim.so, the LD_PRELOAD fault injector
#   CI=true     a test that would be skipped fails instead: in CI a skip
#               means a check silently did not run.
#
# Tests write only under $BATS_FILE_TMPDIR and $BATS_TEST_TMPDIR, so the suite
# also runs from the read-only source tree of `make distcheck`.

bats_require_minimum_version 1.5.0

FCOPY=${FCOPY:?FCOPY must name the fcopy binary to test}
FAULT_SHIM=${FAULT_SHIM:-${abs_top_builddir:-$(dirname "$FCOPY")/..}/tests/fault-shim.so}
# Messages are compared byte for byte: C locale quotes with '' and speaks
# English.
export LC_ALL=C
unset LANGUAGE

# ---------------------------------------------------------------------------
# Running fcopy

# fcopy ARG...: run the binary under test as "fcopy".  GNU tools print
# argv[0] as given in their messages, so run it under the plain name that
# the expected messages use, whatever path $FCOPY is.
fcopy ()
{
  (exec -a fcopy "$FCOPY" "$@")
}

# fcopy_fault SPEC ARG...: run fcopy with the fault shim preloaded and
# FCOPY_FAULT=SPEC (see tests/fault-shim.c).  Set FCOPY_SHIM_LOG in the
# caller to get the call log.
fcopy_fault ()
{
  local spec=$1
  shift
  (export LD_PRELOAD=$FAULT_SHIM FCOPY_FAULT=$spec; exec -a fcopy "$FCOPY" "$@")
}

# shim_count LOG NAME: how many NAME calls the shim logged in LOG.  No LOG
# at all means the shim was not loaded, and "0 calls" would be a lie.
shim_count ()
{
  [[ -f $1 ]] || { echo "no shim log $1: was the shim loaded?" >&2; return 1; }
  grep -cx -- "$2" "$1" || true
}

# strictly FUNC ARG...: run the shell function FUNC in a bash of its own
# with errexit, so that any command of it that fails (not only the last)
# fails it, and says which.  errexit is off in a function called from an
# if, a while, or an && or || list (run_both's scenes, the tree caches),
# and `set -e` inside cannot turn it back on, not even in a subshell; a
# new bash starts clean.  FUNC sees this shell's functions and its
# exported variables, not its other variables.
strictly ()
{
  bash -c "$(declare -f)"'
_strictly_failed ()
{
  local c=${2%%$'"'"'\n'"'"'*}
  echo "$0: \"${c:0:200}\" failed with status $1" >&2
}
set -eE
trap '"'"'_strictly_failed $? "$BASH_COMMAND"'"'"' ERR
"$@"' "$1" "$@"
}

# ---------------------------------------------------------------------------
# Skips: a skip is fine on a developer's machine, a failure under CI=true.
#
# bats 1.8 cannot skip from setup_file, so a requirement missing there is
# remembered in FCOPY_FILE_SKIP (exported to the tests) and each test's
# setup calls check_file_skip.  mount_fs does nothing while it is set.

# skip_or_fail REASON: in a test, skip it; in setup_file, make every test
# of the file skip.  Under CI=true, fail instead.
skip_or_fail ()
{
  if [[ ${CI:-} == true ]]; then
    echo "skip not allowed in CI: $1" >&2
    return 1
  fi
  if [[ -z ${BATS_TEST_NAME:-} ]]; then
    export FCOPY_FILE_SKIP=${FCOPY_FILE_SKIP:-$1}
    return 0
  fi
  skip "$1"
}

# check_file_skip: the first thing in setup of a file whose setup_file
# checks requirements.
check_file_skip ()
{
  [[ -z ${FCOPY_FILE_SKIP:-} ]] || skip "$FCOPY_FILE_SKIP"
}

need_root ()
{
  [[ $EUID -eq 0 ]] || skip_or_fail "needs root (loop and tmpfs mounts)"
}

# need_cmd CMD...
need_cmd ()
{
  local c
  for c; do
    command -v "$c" >/dev/null 2>&1 || skip_or_fail "needs $c"
  done
}

# wait_dead PID SECONDS: wait for the child PID as wait does (its exit
# status is ours); if it still runs after SECONDS, kill it and return 124,
# so that a signal that never arrives fails the test instead of hanging
# the suite.  A zombie has ended: /proc tells, where kill -0 does not.
wait_dead ()
{
  local pid=$1 i state
  for (( i = 0; i < $2 * 100; i++ )); do
    state=
    read -r _ _ state _ 2>/dev/null < "/proc/$pid/stat" || break
    [[ $state != Z ]] || break
    sleep 0.01
  done
  if [[ -n $state && $state != Z ]]; then
    kill -KILL "$pid"
    wait "$pid"
    echo "process $pid still ran after $2 s: killed" >&2
    return 124
  fi
  wait "$pid"
}

need_shim ()
{
  [[ -r $FAULT_SHIM ]] || skip_or_fail "no fault shim at $FAULT_SHIM (make check builds it)"
}

# need_fs TYPE...: what mount_fs TYPE needs, and what the checks on such a
# filesystem need (filefrag, python3).
need_fs ()
{
  local t
  need_root
  for t; do
    case $t in
      tmpfs) ;;
      ext4) need_cmd mkfs.ext4 ;;
      xfs) need_cmd mkfs.xfs ;;
      btrfs) need_cmd mkfs.btrfs ;;
      *) echo "need_fs: unknown type $t" >&2; return 1 ;;
    esac
  done
  need_cmd filefrag python3
}

# ---------------------------------------------------------------------------
# Filesystems: one set of mounts per .bats file, made in setup_file and
# removed by unmount_all in teardown_file.

# mount_fs TYPE NAME [SIZE]: make and mount a TYPE filesystem at
# $BATS_FILE_TMPDIR/NAME and print that directory.  Images live in
# $BATS_FILE_TMPDIR as sparse files on the host disk.  Call need_fs TYPE
# first, in setup_file itself (not inside $(...)).
mount_fs ()
{
  local type=$1 name=$2 size=${3:-}
  local mnt=$BATS_FILE_TMPDIR/$name img=$BATS_FILE_TMPDIR/$name.img
  local log=$BATS_FILE_TMPDIR/$name.mkfs.log

  # need_fs found something missing: the tests will skip.
  [[ -z ${FCOPY_FILE_SKIP:-} ]] || return 0
  [[ $EUID -eq 0 ]] || { echo "mount_fs: not root (call need_fs first)" >&2; return 1; }
  mkdir -p "$mnt"
  case $type in
    tmpfs)
      mount -t tmpfs -o "size=${size:-256M}" fcopy-test "$mnt" ;;
    ext4|xfs|btrfs)
      # btrfs refuses images under 114 MiB, XFS under 300 MiB.
      case $type in
        ext4) size=${size:-256M} ;;
        btrfs) size=${size:-256M} ;;
        xfs) size=${size:-320M} ;;
      esac
      rm -f "$img"
      truncate -s "$size" "$img"
      case $type in
        ext4) mkfs.ext4 -q -F "$img" >"$log" 2>&1 ;;
        btrfs) mkfs.btrfs -q -f "$img" >"$log" 2>&1 ;;
        xfs) mkfs.xfs -q -f -m reflink=1 "$img" >"$log" 2>&1 ;;
      esac || { cat "$log" >&2; return 1; }
      # -o loop detaches the loop device again at umount.
      mount -o loop "$img" "$mnt" ;;
    *)
      echo "mount_fs: unknown type $type" >&2
      return 1 ;;
  esac || return 1
  echo "$mnt" >>"$BATS_FILE_TMPDIR/mounts"
  echo "$mnt"
}

# is_mounted DIR: a filesystem is mounted at DIR, as the mount table says
# (mountpoint(1) stats DIR, and that fails with EIO on a filesystem that
# was shut down).  Only DIR's parent is resolved, for the same reason.
is_mounted ()
{
  local d
  d=$(realpath -e -- "$(dirname -- "$1")")/$(basename -- "$1") || return 1
  awk -v d="$d" '$5 == d { found = 1 } END { exit !found }' /proc/self/mountinfo
}

# remount_fs MNT [OPTIONS]: unmount the loop filesystem that mount_fs made
# at MNT (if it is mounted) and mount its image again, with the mount
# OPTIONS if given: what the next boot does after a crash, log recovery
# included.
remount_fs ()
{
  local mnt=$1 img=$1.img
  [[ -f $img ]] || { echo "remount_fs: no image $img" >&2; return 1; }
  if is_mounted "$mnt"; then
    umount "$mnt" || return 1
  fi
  mount -o "loop${2:+,$2}" "$img" "$mnt"
}

# unmount_all: undo every mount_fs of this file, newest first.  Safe to run
# after a failed setup_file and when nothing was mounted.
unmount_all ()
{
  local list=$BATS_FILE_TMPDIR/mounts m rc=0
  [[ -f $list ]] || return 0
  while read -r m; do
    is_mounted "$m" || continue
    # A process a failed test left behind may still hold a file: detach
    # lazily rather than leave the mount for the next run.
    umount "$m" 2>/dev/null || umount -l "$m" || rc=1
  done < <(tac "$list")
  rm -f "$list" "$BATS_FILE_TMPDIR"/*.img
  return $rc
}

# setup_fs_file VAR=TYPE[:SIZE]...: the setup_file of a file whose tests
# work on loop filesystems.  Check what each TYPE needs (need_fs), make and
# mount one TYPE filesystem of SIZE (mount_fs's default if none) at
# $BATS_FILE_TMPDIR/var (VAR in lower case) and export VAR as its mount
# point.  When something is missing, every VAR is empty and the tests skip
# (fail under CI=true).  Other requirements (need_shim, need_cmd) go
# before the call; teardown_file calls unmount_all.
setup_fs_file ()
{
  local _spec _var _type _size _types=() _mnt
  for _spec; do
    _type=${_spec#*=}
    _types+=("${_type%%:*}")
  done
  # Not in a condition: under set -e, as in setup_file itself, a failed
  # requirement under CI=true ends the setup.
  need_fs "${_types[@]}"
  for _spec; do
    _var=${_spec%%=*} _type=${_spec#*=} _size=
    if [[ $_type == *:* ]]; then
      _size=${_type#*:} _type=${_type%%:*}
    fi
    _mnt=$(mount_fs "$_type" "${_var,,}" $_size) || return 1
    printf -v "$_var" %s "$_mnt"
    export "${_var?}"
  done
}

# setup_fs_test [MNT]: the first thing in setup of such a file: skip if
# setup_file found something missing; with MNT, make a fresh directory
# $MNT/$BATS_TEST_NUMBER for this test, set DIR to it and cd there.
setup_fs_test ()
{
  check_file_skip
  [[ $# -eq 0 ]] && return 0
  DIR=$1/$BATS_TEST_NUMBER
  mkdir -p "$DIR" && cd "$DIR"
}

# teardown_fs_test: in teardown, leave and remove this test's directory
# $BATS_TEST_NUMBER on every filesystem of this file, so that the next
# test finds the room it needs.
teardown_fs_test ()
{
  local list=$BATS_FILE_TMPDIR/mounts m
  cd /
  [[ -f $list ]] || return 0
  while read -r m; do
    [[ -n $m && -d $m/$BATS_TEST_NUMBER ]] || continue
    rm -rf "${m:?}/$BATS_TEST_NUMBER"
  done <"$list"
}

# The hooks of a file that works on loop filesystems, unless it defines its
# own (after `load helpers`, so that its definitions win): setup_file is
# the file's own, one call of setup_fs_file; these three are shared.
teardown_file ()
{
  unmount_all
}

setup ()
{
  check_file_skip
}

teardown ()
{
  teardown_fs_test
}

# ---------------------------------------------------------------------------
# File contents

# make_random FILE SIZE: SIZE random bytes (SIZE in bytes).
make_random ()
{
  head -c "$2" /dev/urandom >"$1"
}

# write_at FILE OFFSET_MIB LEN_MIB: LEN_MIB random MiB at OFFSET_MIB,
# keeping the rest of FILE (holes stay holes).
write_at ()
{
  dd if=/dev/urandom of="$1" bs=1M seek="$2" count="$3" conv=notrunc status=none
}

# alloc_bytes FILE: bytes allocated on disk (st_blocks * 512).
alloc_bytes ()
{
  echo $(( $(stat -c '%b * %B' "$1") ))
}

# apparent_bytes FILE
apparent_bytes ()
{
  stat -c %s "$1"
}

# hole_map FILE: the file as SEEK_DATA/SEEK_HOLE sees it, one line per
# region, "data START END" or "hole START END", then "size N".  Two files
# with the same map have their holes in the same places.
hole_map ()
{
  python3 - "$1" <<'EOF'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
size = os.fstat(fd).st_size
pos = 0
while pos < size:
    try:
        data = os.lseek(fd, pos, os.SEEK_DATA)
    except OSError:          # ENXIO: only a hole up to EOF is left
        data = size
    if data > pos:
        print("hole", pos, data)
    if data >= size:
        break
    hole = os.lseek(fd, data, os.SEEK_HOLE)
    print("data", data, hole)
    pos = hole
print("size", size)
EOF
}

# data_bytes FILE: total length of the data regions in hole_map.
data_bytes ()
{
  local map
  # Not in a pipe: a failed hole_map would read as 0 bytes.
  map=$(hole_map "$1") || return 1
  awk '$1 == "data" { n += $3 - $2 } END { print n + 0 }' <<<"$map"
}

# ---------------------------------------------------------------------------
# Extents (btrfs, XFS): proof that a copy shares the source's blocks.

# extent_list FILE: one line per extent from `filefrag -v`, after syncing
# the file so that no extent is still delayed: "LOGICAL PHYSICAL LENGTH
# FLAGS" in filesystem blocks.
extent_list ()
{
  local out
  # Not in a pipe: a failed filefrag would read as no extents.
  out=$(filefrag -s -v "$1") || { echo "filefrag $1 failed" >&2; return 1; }
  awk '
    /^ *[0-9]+:/ {
      line = $0
      gsub(/\.\./, " ", line); gsub(/:/, " ", line)
      n = split(line, f, " ")
      # ext logical_start logical_end physical_start physical_end length
      # [expected] [flags]
      flags = (f[n] ~ /[a-z]/) ? f[n] : "-"
      print f[2], f[4], f[6], flags
    }' <<<"$out"
}

# extents_all_shared FILE: FILE has extents and every one is shared.
extents_all_shared ()
{
  local list
  list=$(extent_list "$1") || return 1
  [[ -n $list ]] || { echo "$1: no extents" >&2; return 1; }
  if grep -v -E '[ ,]shared(,|$)' <<<"$list" | grep -q .; then
    echo "$1: not every extent is shared:" >&2
    echo "$list" >&2
    return 1
  fi
}

# extents_none_shared FILE: FILE has extents and none is shared.
extents_none_shared ()
{
  local list
  list=$(extent_list "$1") || return 1
  [[ -n $list ]] || { echo "$1: no extents" >&2; return 1; }
  if grep -q -E '[ ,]shared(,|$)' <<<"$list"; then
    echo "$1: some extent is shared:" >&2
    echo "$list" >&2
    return 1
  fi
}

# same_physical A B: A and B map every logical block to the same physical
# block, i.e. B is a clone of A (not of some other copy of the data).
same_physical ()
{
  local a b
  a=$(extent_list "$1") || return 1
  b=$(extent_list "$2") || return 1
  a=$(awk '{ print $1, $2, $3 }' <<<"$a")
  b=$(awk '{ print $1, $2, $3 }' <<<"$b")
  [[ -n $a ]] || { echo "$1: no extents" >&2; return 1; }
  if [[ $a != "$b" ]]; then
    echo "physical extents differ: $1 vs $2" >&2
    diff <(echo "$a") <(echo "$b") >&2
    return 1
  fi
}

# no_common_physical A B: no physical block start of A appears in B.
no_common_physical ()
{
  local a b common
  # Each list on its own, checked: a failed or empty one has nothing in
  # common with anything.
  a=$(extent_list "$1") || return 1
  b=$(extent_list "$2") || return 1
  [[ -n $a ]] || { echo "$1: no extents" >&2; return 1; }
  [[ -n $b ]] || { echo "$2: no extents" >&2; return 1; }
  common=$(comm -12 <(awk '{ print $2 }' <<<"$a" | sort) \
                    <(awk '{ print $2 }' <<<"$b" | sort))
  if [[ -n $common ]]; then
    echo "$1 and $2 share physical blocks: $common" >&2
    return 1
  fi
}

# ---------------------------------------------------------------------------
# Assertions with a useful message when they fail

# assert_status N: $status (from run) is N.
assert_status ()
{
  if [[ $status -ne $1 ]]; then
    echo "exit status $status, expected $1" >&2
    echo "stdout: ${output:-}" >&2
    echo "stderr: ${stderr:-}" >&2
    return 1
  fi
}

# assert_equal ACTUAL EXPECTED [WHAT]
assert_equal ()
{
  if [[ $1 != "$2" ]]; then
    printf '%s differs.\nexpected: %s\nactual:   %s\n' "${3:-value}" "$2" "$1" >&2
    return 1
  fi
}

# assert_stderr LINE...: stderr (from run --separate-stderr) is exactly
# these lines.
assert_stderr ()
{
  local expected
  expected=$(printf '%s\n' "$@")
  assert_equal "$stderr" "$expected" stderr
}

# assert_stderr_any_order LINE...: stderr is exactly these lines, in any
# order.  For messages about the files of one directory: the walk takes
# them in inode order (as cp does), and the inode numbers a scene's files
# get depend on what the tests running beside it freed.
assert_stderr_any_order ()
{
  local expected actual
  expected=$(printf '%s\n' "$@" | LC_ALL=C sort)
  actual=$(LC_ALL=C sort <<<"$stderr")
  assert_equal "$actual" "$expected" "stderr (sorted)"
}

# assert_stdout LINE...: stdout is exactly these lines.
assert_stdout ()
{
  local expected
  expected=$(printf '%s\n' "$@")
  assert_equal "$output" "$expected" stdout
}

# assert_same FILE1 FILE2: identical bytes.
assert_same ()
{
  cmp -- "$1" "$2" >&2
}

# assert_same_sparse FILE1 FILE2: identical bytes, as cmp says, but
# reading only where either file has data: a range that is a hole in both
# reads as zeros in both.  cmp takes seconds on a 2 GiB hole; this takes
# time in proportion to the data.
assert_same_sparse ()
{
  python3 - "$1" "$2" <<'EOF' >&2
import os, sys

def data_regions(fd, size):
    regions, pos = [], 0
    while pos < size:
        try:
            start = os.lseek(fd, pos, os.SEEK_DATA)
        except OSError:          # ENXIO: no data after pos
            break
        end = min(os.lseek(fd, start, os.SEEK_HOLE), size)
        regions.append((start, end))
        pos = end
    return regions

a, b = sys.argv[1], sys.argv[2]
fa, fb = os.open(a, os.O_RDONLY), os.open(b, os.O_RDONLY)
size = os.fstat(fa).st_size
if os.fstat(fb).st_size != size:
    print(f"{a} and {b} differ in size: {size} vs {os.fstat(fb).st_size}")
    sys.exit(1)
merged = []
for start, end in sorted(data_regions(fa, size) + data_regions(fb, size)):
    if merged and start <= merged[-1][1]:
        merged[-1][1] = max(merged[-1][1], end)
    else:
        merged.append([start, end])
chunk = 1 << 20
for start, end in merged:
    for off in range(start, end, chunk):
        n = min(chunk, end - off)
        da, db = os.pread(fa, n, off), os.pread(fb, n, off)
        if da != db:
            i = next((i for i in range(min(len(da), len(db))) if da[i] != db[i]),
                     min(len(da), len(db)))
            print(f"{a} {b} differ: byte {off + i + 1}")
            sys.exit(1)
EOF
}

# assert_no_file FILE
assert_no_file ()
{
  if [[ -e $1 || -L $1 ]]; then
    echo "$1 exists, it should not" >&2
    return 1
  fi
}

# assert_no_symlink FILE: FILE is not a symbolic link.
assert_no_symlink ()
{
  if [[ -L $1 ]]; then
    echo "$1 is a symbolic link (to $(readlink -- "$1")), it should not be" >&2
    return 1
  fi
}

# ---------------------------------------------------------------------------
# fcopy --dedupe (SPEC-dedupe.md)

# dedupe_stats EXAMINED DEDUPLICATED ALREADY DIFFERING SKIPPED FAILED BYTES:
# print the statistics block of --stats (and -v) with these numbers.
dedupe_stats ()
{
  printf '%s\n' "pairs examined: $1" "deduplicated: $2" "already shared: $3" \
    "differing: $4" "skipped: $5" "failed: $6" "bytes deduplicated: $7"
}

# make_identical A B SIZE: A of SIZE random bytes and B a copy of it made
# with read/write, so that the two share no block.
make_identical ()
{
  make_random "$1" "$3"
  dd if="$1" of="$2" bs=1M status=none
}

# flip_last_byte FILE: change the last byte of FILE, in place.
flip_last_byte ()
{
  local size last
  size=$(stat -c %s "$1")
  last=$(tail -c 1 "$1" | od -An -tu1 | tr -d ' ')
  [[ $last =~ ^[0-9]+$ ]] || { echo "flip_last_byte: cannot read $1" >&2; return 1; }
  printf "\\$(printf '%03o' $(( (last + 1) % 256 )))" |
    dd of="$1" bs=1 seek=$((size - 1)) conv=notrunc status=none
}

# file_state FILE: content checksum and mtime (with nanoseconds) of FILE,
# to show that --dedupe left it as it was.
file_state ()
{
  echo "$(md5sum <"$1") $(stat -c '%Y %y' "$1")"
}

# runnable_fcopy: the path of a copy of $FCOPY that any user can run, for
# tests as an unprivileged user (the build tree may be in /root, 0700).
runnable_fcopy ()
{
  local dir=$BATS_FILE_TMPDIR/bin d
  if [[ ! -x $dir/fcopy ]]; then
    mkdir -p "$dir" && install -m 755 "$FCOPY" "$dir/fcopy" || return 1
    # bats makes its run directories 0700: open the way down for others.
    d=$dir
    while [[ $d == "${BATS_RUN_TMPDIR:?}"* ]]; do
      chmod o+x "$d"
      d=${d%/*}
    done
  fi
  echo "$dir/fcopy"
}

# tree_listing DIR [FIND-ARGS...]: the lines of `find . FIND-ARGS` run
# in DIR, sorted.  It is meant for "$(...)" inside a comparison, where
# its status is lost: if DIR is missing or find fails, the output is a
# line of its own that no other listing can equal, so two failed
# listings never compare equal.
tree_listing ()
{
  local dir=$1 out
  shift
  if ! out=$(set -o pipefail; cd "$dir" && find . "$@" | LC_ALL=C sort); then
    echo "tree_listing of '$dir' failed (unique: $BASHPID $RANDOM$RANDOM)"
    return 1
  fi
  printf '%s\n' "$out"
}

# without_proc CMD...: CMD in a mount namespace of its own where /proc is
# an empty tmpfs, as in a chroot or a container without /proc: what
# fcopy opens through /proc/self/fd it must then open by name.
without_proc ()
{
  need_root
  # --propagation unchanged: in a chroot, / is no mount point and
  # unshare's default (make / private) fails with EINVAL; /proc alone is
  # made private here, so the tmpfs stays in this namespace.
  unshare -m --propagation unchanged sh -c \
    'mount --make-private /proc && mount -t tmpfs none /proc && exec "$@"' \
    sh "$@"
}

# asan_build: $FCOPY is built with AddressSanitizer, which cannot start
# without /proc (it reads /proc/self/maps): tests that hide /proc refuse
# the /proc open with the fault shim there instead.
asan_build ()
{
  ldd "$FCOPY" 2>/dev/null | grep -q libasan
}

# unshared_word FILE: what fcopy --debug says of "extents shared" for a
# copy FILE that shares no block with its source: "no" where FILE's file
# system answers FIEMAP, "unknown" where it has no FIEMAP (tmpfs).
unshared_word ()
{
  python3 - "$1" <<'PY'
import fcntl, os, struct, sys
FS_IOC_FIEMAP = 0xC020660B
fd = os.open(sys.argv[1], os.O_RDONLY)
# struct fiemap: start, length, flags, mapped, count, reserved
req = bytearray(struct.pack("=QQIIII", 0, 0xFFFFFFFFFFFFFFFF, 0, 0, 0, 0))
try:
    fcntl.ioctl(fd, FS_IOC_FIEMAP, req)
    print("no")
except OSError:
    print("unknown")
PY
}

# wait_for_stall: wait up to 10 s for the fault shim's stall to begin
# (it creates $FCOPY_SHIM_STALLED); fail, saying so, if it does not.
wait_for_stall ()
{
  local i
  for i in $(seq 100); do
    if [[ -e $FCOPY_SHIM_STALLED ]]; then return 0; fi
    sleep 0.1
  done
  echo "the stall did not start"
  return 1
}
