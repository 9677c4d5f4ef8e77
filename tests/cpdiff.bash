# cpdiff.bash -- differential tests: run GNU cp and fcopy on identical
# trees and compare everything they did.  Loaded after helpers.bash:
#
#   load helpers
#   load cpdiff
#
# A comparison (run_both) works in two fresh sibling workspaces,
#   $BATS_TEST_TMPDIR/cpdiff.XXXX/cp and $BATS_TEST_TMPDIR/cpdiff.XXXX/fcopy.
# The test's `scene` function builds the starting state in each (by
# default `make_tree src`), then cp runs in the first and fcopy in the
# second, each with its workspace as current directory, so that relative
# operands name the same things and messages come out the same.  Then the
# exit statuses, stdout, stderr and the two whole workspaces (sources
# included: a source fcopy changed is a difference too) are compared.
# A scene must build the same thing every time: no /dev/urandom, no
# `date` (seq makes good filler); CPDIFF_CHECK_SCENE=1 checks.
#
# Knobs, all optional, set in the test before run_both:
#   scene ()            builds the starting state in the current directory
#   CPDIFF_CP           the reference cp (default /bin/cp, run as "cp")
#   CPDIFF_FCOPY        the program under test (default $FCOPY, run as "fcopy")
#   CPDIFF_TIMES=0      do not compare timestamps (default 1, see snapshot)
#   CPDIFF_BLOCKS=1     also compare allocated blocks of regular files
#   CPDIFF_STDIN=FILE   stdin of both commands (default /dev/null)
#   CPDIFF_TIMEOUT=S    kill a command after S seconds (default 20)
#   CPDIFF_CHECK_SCENE=1  first check that the two workspaces snapshot the
#                       same (costs a snapshot; for debugging a scene)
# and, for a difference the man page documents, intended_difference.

# The setup of a file of differential tests: what the scenes and the
# snapshots need, and each test in its own directory with umask 022.
setup_file ()
{
  need_cmd python3 setfattr setfacl timeout
  [[ -x $CPDIFF_CP ]] || skip_or_fail "no reference cp at $CPDIFF_CP"
}

setup ()
{
  check_file_skip
  cd "$BATS_TEST_TMPDIR"
  umask 022
}

# The reference: GNU cp 9.1 on Debian 12.
CPDIFF_CP=${CPDIFF_CP:-/bin/cp}

# ---------------------------------------------------------------------------
# The tree

# make_tree DIR: make DIR and, in it, one of everything cp meets.  The
# result is the same every time (contents, modes, owners, times, links,
# xattrs, ACLs), so two calls give two trees that snapshot the same.
# Ownership other than our own, the setgid directory's group and ACL
# entries for other users need root; without it those parts are left out.
#
#   reg            "regular" text, 0644, mtime with nanoseconds
#   empty          0 bytes
#   sparse         3 MiB, one 4 KiB data block at 1 MiB, holes around it
#   hl1 sub/hl2 hl3   three names of one inode
#   abslink        -> /etc/passwd        rellink  -> reg
#   sub/uplink     -> ../reg             dangling -> nowhere
#   dirlink        -> sub                fifo     (a FIFO)
#   sub/deep/deeper/file, emptydir/     nested and empty directories
#   sgdir/         2775, group staff (root), with sgdir/f
#   sticky/        1777 directory
#   dacl/          directory with a default ACL
#   'with space', $'new\nline', -dash, $'bad\xffutf8'   odd names
#   xattr          user.comment and a binary user.bin
#   acl            access ACL u:nobody:r--, g:staff:rw-
#   mode0 (0000), suid (4755), t1777 (1777 file), exec (0755),
#   nobodys        owned by nobody:nogroup (root)
make_tree ()
{
  local cache=${BATS_FILE_TMPDIR:?}/cpdiff-tree.$EUID tmp
  # Built once per .bats file and copied with cp -a (ten times faster
  # than forty setfattr, setfacl and touch).
  if [[ ! -d $cache ]]; then
    tmp=$(mktemp -d "$cache.XXXX") || return 1
    # strictly: errexit, which _make_tree's subshell relies on, is off
    # in a call from an || list.
    strictly _make_tree "$tmp/t" || return 1
    mv -T "$tmp/t" "$cache" 2>/dev/null || [[ -d $cache ]] || return 1
    rm -rf "$tmp"
  fi
  # mode0 is 0400 in the cache: cp -a could not read it there, without
  # root.
  mkdir -p -- "$1" && cp -a -- "$cache/." "$1" && chmod 0 -- "$1/mode0"
}

_make_tree ()
{
  local d=$1 root=
  if [[ $EUID -eq 0 ]]; then root=1; fi
  mkdir -p -- "$d" || return 1
  (
    set -e
    cd -- "$d"
    umask 022
    printf 'regular\n' >reg
    : >empty
    truncate -s 3M sparse
    printf 'data block in the middle\n' |
      dd of=sparse bs=4096 seek=256 conv=notrunc status=none
    mkdir -p sub/deep/deeper emptydir
    printf 'deep\n' >sub/deep/deeper/file
    printf 'three names\n' >hl1
    ln hl1 sub/hl2
    ln hl1 hl3
    ln -s /etc/passwd abslink
    ln -s reg rellink
    ln -s ../reg sub/uplink
    ln -s nowhere dangling
    ln -s sub dirlink
    mkfifo fifo
    mkdir sgdir sticky dacl
    printf 'in a setgid directory\n' >sgdir/f
    [[ -z $root ]] || chgrp -R staff sgdir
    chmod 2775 sgdir
    chmod 1777 sticky
    setfacl -d -m u::rwx,g::r-x,o::---,m::rwx dacl
    [[ -z $root ]] || setfacl -d -m u:nobody:rwx dacl
    printf 'space\n' >'with space'
    printf 'newline\n' >$'new\nline'
    printf 'dash\n' >-dash
    printf 'not utf-8\n' >$'bad\xffutf8'
    printf 'with xattrs\n' >xattr
    setfattr -n user.comment -v 'a comment' xattr
    setfattr -n user.bin -v 0x00ff01 xattr
    printf 'with an ACL\n' >acl
    if [[ -n $root ]]; then
      setfacl -m u:nobody:r--,g:staff:rw- acl
    else
      setfacl -m g::rw-,m::rw- acl
    fi
    printf 'secret\n' >mode0
    chmod 0400 mode0              # make_tree makes it 0
    printf '#!/bin/sh\necho suid\n' >suid
    chmod 4755 suid
    printf 'sticky file\n' >t1777
    chmod 1777 t1777
    printf '#!/bin/sh\necho exec\n' >exec
    chmod 755 exec
    printf 'not mine\n' >nobodys
    [[ -z $root ]] || chown nobody:nogroup nobodys
    # Times last, deepest first, so that no later change moves them.
    # Access times in the future: with relatime (the default mount
    # option), reading a file updates its atime only if that is older
    # than the mtime, the ctime or a day, so a future atime survives the
    # reads of cp -a (make_tree), of cp and of fcopy, and every copy of
    # the tree has the same.
    find . -depth -exec touch -h -d '2001-02-03 04:05:06.123456789 UTC' {} +
    touch -m -d '2009-10-11 12:13:14.987654321 UTC' reg
    find . -type f -exec touch -a -d '2099-01-02 03:04:05.5 UTC' {} +
  )
}

# ---------------------------------------------------------------------------
# Snapshots

# snapshot DIR [T0]: print one line per file under DIR (DIR itself is "."),
# sorted by name bytes:
#   NAME TYPE mode=0755 own=UID:GID [nlink=N] [size=N sha=SHA]
#        [data=START-END,...] [blocks=N] [target=T] [rdev=MAJ,MIN]
#        [mtime=T] [atime=T] [xattr.NAME=VALUE]... [acl=...] [dacl=...]
#        [ino=FIRST]
# SHA is the first 16 hex digits of the SHA-256 of the content.
# NAME is escaped as printf %q would ($'...' for anything unusual), so the
# listing is one line per file whatever the names hold.  data= lists the
# data regions SEEK_DATA/SEEK_HOLE see, only for a file with a hole.
# Symlink targets have DIR replaced by @WS.  A non-directory with several
# names within DIR gets ino=the first of them, so the listing shows which
# names share an inode without inode numbers.
#
# Timestamps (unless CPDIFF_TIMES=0): mtime of everything and atime of
# regular files (reading a symlink or a directory stamps its atime), to
# the nanosecond, in UTC.  One between T0 (ns since the epoch; no T0, no
# "new") and now prints as "new", since "now" differs from run to run: so
# a preserved time is compared exactly and a fresh one only as fresh.
# blocks= (st_blocks) only with CPDIFF_BLOCKS=1.  xattrs other than the
# POSIX ACL ones are listed by name and value; ACLs (acl=, dacl= for the
# default one) are decoded from their xattrs in getfacl's short form.
# Files are read with O_NOATIME, so a snapshot does not change atimes.
snapshot ()
{
  _cpdiff_snapshots "${2:-}" "$1" /dev/stdout "" ""
}

# _cpdiff_snapshots T0 DIR OUT [NAME RUN]...: snapshot DIR into the file
# OUT; with NAME and RUN, OUT is instead the report run_both compares:
# exit status, stdout and stderr of the command run as NAME (from the
# files RUN.status, RUN.stdout, RUN.stderr) then the snapshot.
# In the outputs, DIR becomes @WS, and in stderr a line's leading
# "NAME: " (also after -i's "? ") becomes "PROG: " and "Try 'NAME --help'" "Try 'PROG --help'".
# Several groups of DIR OUT NAME RUN in one python, whose start-up is
# most of the time a snapshot takes.
_cpdiff_snapshots ()
{
  python3 -S - "${CPDIFF_TIMES:-1}" "${CPDIFF_BLOCKS:-0}" "$@" <<'EOF'
import hashlib, os, stat, struct, sys, time

times = sys.argv[1] == "1"
blocks = sys.argv[2] == "1"
t0 = int(sys.argv[3]) if sys.argv[3] else 1 << 80

SAFE = set(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
           b"0123456789_./+-:@%,=")

def q(b):
    """bytes -> str, as bash's printf %q would write it."""
    if b and all(c in SAFE for c in b):
        return b.decode()
    out = []
    for c in b:
        if c == 0x0A: out.append("\\n")
        elif c == 0x09: out.append("\\t")
        elif c == 0x5C: out.append("\\\\")
        elif c == 0x27: out.append("\\'")
        elif 0x20 <= c < 0x7F: out.append(chr(c))
        else: out.append("\\x%02x" % c)
    return "$'" + "".join(out) + "'"

now = time.time_ns() + 10**9

def ts(ns):
    if t0 <= ns <= now:
        return "new"
    s, frac = divmod(ns, 10**9)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(s)) + ".%09d" % frac

ACL_TAGS = {1: "u::", 2: "u:", 4: "g::", 8: "g:", 0x10: "m::", 0x20: "o::"}

def acl(value):
    """Decode a system.posix_acl_* value (version 2, 8-byte entries)."""
    if len(value) < 4 or struct.unpack_from("<I", value)[0] != 2:
        return "raw:" + value.hex()
    ents = []
    for off in range(4, len(value) - 7, 8):
        tag, perm, qid = struct.unpack_from("<HHI", value, off)
        who = ACL_TAGS.get(tag, "?%d:" % tag)
        if tag in (2, 8):
            who += "%d:" % qid
        ents.append(who + "".join(ch if perm & bit else "-"
                                  for ch, bit in (("r", 4), ("w", 2), ("x", 1))))
    return ",".join(ents)

def data_map(fd, size):
    regions, pos = [], 0
    while pos < size:
        try:
            start = os.lseek(fd, pos, os.SEEK_DATA)
        except OSError:
            break
        end = min(os.lseek(fd, start, os.SEEK_HOLE), size)
        regions.append((start, end))
        pos = end
    if size == 0 or regions == [(0, size)]:
        return None
    return ",".join("%d-%d" % r for r in regions) or "none"

def content(path, st):
    """sha256 and data map; O_NOATIME where we may use it."""
    fd = None
    for flags in (os.O_RDONLY | os.O_NOFOLLOW | os.O_NOATIME,
                  os.O_RDONLY | os.O_NOFOLLOW):
        try:
            fd = os.open(path, flags)
            break
        except PermissionError:
            continue
        except OSError as e:
            return ["sha=error:" + (e.strerror or str(e)).replace(" ", "_")]
    if fd is None:
        return ["sha=unreadable"]
    try:
        h = hashlib.sha256()
        while True:
            b = os.read(fd, 1 << 20)
            if not b:
                break
            h.update(b)
        out = ["sha=" + h.hexdigest()[:16]]
        m = data_map(fd, st.st_size)
        if m is not None:
            out.append("data=" + m)
        return out
    finally:
        os.close(fd)

def snap(top, out):
    names = [b"."]
    for dirpath, dirnames, filenames in os.walk(top):
        rel = os.path.relpath(dirpath, top)
        for n in dirnames + filenames:
            names.append(os.path.normpath(os.path.join(rel, n)))

    rows, inodes = {}, {}
    for name in names:
        path = os.path.join(top, name)
        st = os.lstat(path)
        m = st.st_mode
        kind = ("f" if stat.S_ISREG(m) else "d" if stat.S_ISDIR(m) else
                "l" if stat.S_ISLNK(m) else "p" if stat.S_ISFIFO(m) else
                "s" if stat.S_ISSOCK(m) else "c" if stat.S_ISCHR(m) else
                "b" if stat.S_ISBLK(m) else "?")
        f = [kind, "mode=%04o" % stat.S_IMODE(m), "own=%d:%d" % (st.st_uid, st.st_gid)]
        if kind != "d":
            f.append("nlink=%d" % st.st_nlink)
            inodes.setdefault((st.st_dev, st.st_ino), []).append(name)
        if kind == "f":
            f.append("size=%d" % st.st_size)
            f += content(path, st)
            if blocks:
                f.append("blocks=%d" % st.st_blocks)
        elif kind == "l":
            f.append("target=" + q(os.readlink(path).replace(top, b"@WS")))
        elif kind in "cb":
            f.append("rdev=%d,%d" % (os.major(st.st_rdev), os.minor(st.st_rdev)))
        if times:
            f.append("mtime=" + ts(st.st_mtime_ns))
            if kind == "f":
                f.append("atime=" + ts(st.st_atime_ns))
        try:
            xnames = sorted(os.listxattr(path, follow_symlinks=False))
        except OSError:
            xnames = []
        for x in xnames:
            try:
                v = os.getxattr(path, x, follow_symlinks=False)
            except OSError as e:
                v = ("error:" + e.strerror).encode()
            if x == "system.posix_acl_access":
                f.append("acl=" + acl(v))
            elif x == "system.posix_acl_default":
                f.append("dacl=" + acl(v))
            else:
                f.append("xattr.%s=%s" % (x, q(v)))
        rows[name] = f

    for group in inodes.values():
        if len(group) > 1:
            first = q(min(group))
            for name in group:
                rows[name].append("ino=" + first)

    for name in sorted(rows):
        out.write((q(name) + " " + " ".join(rows[name]) + "\n").encode())

def report(top, name, run, out):
    """The run's status and outputs, normalized, then the snapshot."""
    name = os.fsencode(name)
    def read(f):
        with open(run + "." + f, "rb") as fh:
            return fh.read().replace(top, b"@WS")
    stderr = read("stderr").split(b"\n")
    for i, line in enumerate(stderr):
        if line.startswith(name + b": "):
            line = b"PROG: " + line[len(name) + 2:]
        # -i's prompts end in "? " with no newline: what follows them on
        # the line is the next message, or the next prompt.
        line = line.replace(b"? " + name + b": ", b"? PROG: ")
        line = line.replace(b"Try '" + name + b" --help'", b"Try 'PROG --help'")
        stderr[i] = line
    out.write(b"# exit status\n" + read("status") + b"# stdout\n" + read("stdout") +
              b"# stderr\n" + b"\n".join(stderr) + b"# files\n")

args = sys.argv[4:]
for i in range(0, len(args), 4):
    top = os.fsencode(os.path.abspath(args[i]))
    with open(args[i + 1], "wb") as out:
        if args[i + 2]:
            report(top, args[i + 2], args[i + 3], out)
        snap(top, out)
EOF
}

# ---------------------------------------------------------------------------
# Comparing cp and fcopy

# A default scene: the tree in src.
scene ()
{
  make_tree src
}

# give PATH...: in a scene under as_user, hand PATHs to that user (chown -h);
# without as_user, nothing.
give ()
{
  [[ -z ${CPDIFF_OWNER:-} ]] || chown -h -- "$CPDIFF_OWNER" "$@"
}

# intended_difference PHRASE LINE...: the next run_both must differ from cp
# in exactly these LINEs of `diff -u` (from the cp side "-...", from the
# fcopy side "+...", in diff's order), and the man page must say PHRASE
# (looked for in man's rendering of man/fcopy.1, whitespace squeezed).
intended_difference ()
{
  need_cmd man col
  CPDIFF_INTENDED_PHRASE=$1
  shift
  CPDIFF_INTENDED_LINES=$(printf '%s\n' "$@")
}

# man_says PHRASE: the rendered man page contains PHRASE.
man_says ()
{
  local page=${CPDIFF_MAN:-$BATS_TEST_DIRNAME/../man/fcopy.1} text want
  [[ -r $page ]] || { echo "man_says: no man page at $page" >&2; return 1; }
  text=$(MANWIDTH=1000 man --no-hyphenation --no-justification -l "$page" 2>/dev/null |
           col -b | tr -s ' \n\t' '   ')
  want=$(printf '%s' "$1" | tr -s ' \n\t' '   ')
  if [[ $text != *"$want"* ]]; then
    echo "the man page does not say: $want" >&2
    return 1
  fi
}

# _cpdiff_run UMASK NAME PROG WS RUN ARG...: run PROG as NAME (argv[0])
# in WS with UMASK, leave status, stdout and stderr in RUN.status,
# RUN.stdout, RUN.stderr.  An operand @WS/X becomes WS/X, for absolute
# paths.
_cpdiff_run ()
{
  local mask=$1 name=$2 prog=$3 ws=$4 run=$5 a rc=0
  shift 5
  local args=()
  for a; do
    if [[ $a == @WS/* ]]; then
      a=$ws/${a#@WS/}
    fi
    args+=("$a")
  done
  (
    cd "$ws" || exit 125
    umask "$mask"
    exec ${CPDIFF_RUNAS[@]+"${CPDIFF_RUNAS[@]}"} \
      timeout -k 2 "${CPDIFF_TIMEOUT:-20}" \
      bash -c 'exec -a "$0" "$@"' "$name" "$prog" ${args[@]+"${args[@]}"}
  ) <"${CPDIFF_STDIN:-/dev/null}" >"$run.stdout" 2>"$run.stderr" || rc=$?
  echo "$rc" >"$run.status"
}

# run_both ARG...: run `cp ARG...` and `fcopy ARG...` (the ARGs verbatim,
# a "--" included; with the caller's umask), each in its workspace that
# `scene` built (with umask 022), and compare exit status, stdout, stderr
# (program name and workspace path normalized) and a snapshot of the
# whole workspace afterwards (sources included).  On a difference, print the command and a diff
# (cp's side "-", fcopy's "+") and fail.  The workspaces and reports stay
# in $CPDIFF_LAST: cp/, fcopy/, cp.report, fcopy.report, and the raw
# outputs cp.run.{status,stdout,stderr}, fcopy.run.*.
run_both ()
{
  local mask rc=0
  mask=$(umask)
  umask 022
  _run_both "$mask" "$@" || rc=$?
  umask "$mask"
  return $rc
}

# _run_both UMASK ARG...: run_both, with the caller's umask in UMASK and
# umask 022 for building and comparing.
_run_both ()
{
  local mask=$1 base t0 side
  shift
  local CPDIFF_MASK=$mask
  # Anything stamped from now on is "new"; 1 s of slack for the coarse
  # clock the kernel stamps files with.
  t0=${EPOCHREALTIME/./}000
  t0=$(( t0 - 1000000000 ))
  base=$BATS_TEST_TMPDIR/cpdiff.${EPOCHREALTIME/./}
  mkdir -m 755 "$base" "$base/cp" "$base/fcopy" || return 1
  CPDIFF_LAST=$base
  # The scene twice, not once and cloned: a clone would read the files
  # and so change the atimes of one copy.
  if [[ -n ${CPDIFF_OWNER:-} ]]; then
    chown "$CPDIFF_OWNER" "$base/cp" "$base/fcopy" || return 1
  fi
  for side in cp fcopy; do
    ( cd "$base/$side" && _cpdiff_scene ) ||
      { echo "run_both: scene failed in $side" >&2; return 1; }
  done
  if [[ ${CPDIFF_CHECK_SCENE:-0} == 1 ]]; then
    _cpdiff_snapshots "$t0" "$base/cp" "$base/cp.before" "" "" \
      "$base/fcopy" "$base/fcopy.before" "" "" || return 1
    if ! cmp -s "$base/cp.before" "$base/fcopy.before"; then
      echo "run_both: the scene is not reproducible; the workspaces differ:" >&2
      diff -a -u "$base/cp.before" "$base/fcopy.before" | cat -v >&2
      return 1
    fi
  fi

  _cpdiff_run "$mask" cp "$CPDIFF_CP" "$base/cp" "$base/cp.run" "$@"
  _cpdiff_run "$mask" fcopy "${CPDIFF_FCOPY:-$FCOPY}" "$base/fcopy" "$base/fcopy.run" "$@"
  _cpdiff_snapshots "$t0" \
    "$base/cp" "$base/cp.report" cp "$base/cp.run" \
    "$base/fcopy" "$base/fcopy.report" fcopy "$base/fcopy.run" || return 1

  local d rc=0
  d=$(diff -a -U 3 --label cp --label fcopy "$base/cp.report" "$base/fcopy.report") ||
    rc=$?
  [[ $rc -le 1 ]] || return 1
  local intended=${CPDIFF_INTENDED_LINES-} phrase=${CPDIFF_INTENDED_PHRASE-}
  unset CPDIFF_INTENDED_LINES CPDIFF_INTENDED_PHRASE
  if [[ -n $phrase ]]; then
    local got
    got=$(sed -n -e '1,2d' -e '/^[-+]/p' <<<"$d")
    if [[ $got != "$intended" ]]; then
      printf 'cpdiff: %s\nthe difference from cp is not the intended one.\n' \
        "$(_cpdiff_cmdline "$@")" >&2
      printf 'intended:\n%s\nactual:\n%s\n' "$intended" "$d" | cat -v >&2
      return 1
    fi
    man_says "$phrase"
    return
  fi
  if [[ -n $d ]]; then
    printf 'cpdiff: %s\nfcopy differs from cp (- cp, + fcopy):\n' \
      "$(_cpdiff_cmdline "$@")" >&2
    printf '%s\n' "$d" | cat -v >&2
    return 1
  fi
}

# _cpdiff_scene: the test's scene in the current directory, under errexit
# (strictly): run_both runs with errexit off (it is called from || lists),
# and a scene of several commands would otherwise fail only if its last
# one did.  give needs CPDIFF_OWNER, which is not exported.
_cpdiff_scene ()
{
  if [[ -n ${CPDIFF_OWNER:-} ]]; then
    export CPDIFF_OWNER
  fi
  strictly scene
}

_cpdiff_cmdline ()
{
  local s="cp"
  [[ -z ${CPDIFF_OWNER:-} ]] || s="(as $CPDIFF_OWNER) $s"
  [[ ${CPDIFF_MASK:-0022} == 0022 ]] || s="(umask $CPDIFF_MASK) $s"
  printf '%s' "$s"
  printf ' %q' "$@"
}

# ---------------------------------------------------------------------------
# Running as another user

# as_user USER CMD ARG...: run CMD (usually run_both) so that cp and fcopy
# run as USER, with its uid and primary gid and no supplementary groups
# (setpriv).  The scenes are still built as root; each workspace directory
# is USER's, and `give` hands over more.  Needs root.
as_user ()
{
  local user=$1 uid gid rc
  shift
  [[ $EUID -eq 0 ]] || { skip_or_fail "needs root to run as $user"; return; }
  need_cmd setpriv
  uid=$(id -u "$user") && gid=$(id -g "$user") || return 1
  _cpdiff_reach "$uid" "$gid" "$BATS_TEST_TMPDIR" ||
    { skip_or_fail "$user cannot reach $BATS_TEST_TMPDIR"; return; }
  # The binary under test, where USER can run it.
  local fc=${CPDIFF_FCOPY:-$FCOPY}
  if ! setpriv --reuid="$uid" --regid="$gid" --clear-groups test -x "$fc"; then
    mkdir -p "$BATS_FILE_TMPDIR/bin"
    install -m 755 "$fc" "$BATS_FILE_TMPDIR/bin/fcopy"
    fc=$BATS_FILE_TMPDIR/bin/fcopy
    _cpdiff_reach "$uid" "$gid" "$BATS_FILE_TMPDIR/bin" ||
      { skip_or_fail "$user cannot run $FCOPY"; return; }
  fi
  CPDIFF_RUNAS=(setpriv --reuid="$uid" --regid="$gid" --clear-groups --)
  CPDIFF_OWNER=$uid:$gid
  rc=0
  CPDIFF_FCOPY=$fc "$@" || rc=$?
  unset CPDIFF_RUNAS CPDIFF_OWNER
  return $rc
}

# _cpdiff_reach UID GID DIR: give o+x to DIR and the directories above it
# up to bats' run directory (which bats makes 0700), then check that UID
# can get to DIR.
_cpdiff_reach ()
{
  local dirs=() d=$3
  while [[ $d == "${BATS_RUN_TMPDIR:?}"* ]]; do
    dirs+=("$d")
    d=${d%/*}
  done
  [[ ${#dirs[@]} -eq 0 ]] || chmod o+x "${dirs[@]}" || return 1
  setpriv --reuid="$1" --regid="$2" --clear-groups test -x "$3"
}

# ---------------------------------------------------------------------------
# Trees: order of reading

# run_both_tree ARG...: run_both for a command that walks a tree, where
# cp and fcopy read each directory in inode order (cp's savedir), so that
# -v lines and messages come out in the order of the inode numbers of
# their workspace.  The two scenes are built one after the other on a
# file system that other processes use too, and a freed inode number
# reused in one of them can give its files another order than in the
# other.  So when run_both fails and some directory of the two scenes (as
# built, before cp and fcopy ran) held its entries in different inode
# orders, the comparison was not fair and is run again, up to five
# times in all; a failure with the same orders in both is fcopy's.
run_both_tree ()
{
  local try rc unfair=0 phrase=${CPDIFF_INTENDED_PHRASE-} lines=${CPDIFF_INTENDED_LINES-}
  eval "$(declare -f scene | sed '1s/^scene /_cpdiff_tree_scene /')"
  scene ()
  {
    # Run by strictly: each command on its own line fails the scene.
    _cpdiff_tree_scene
    find . -mindepth 1 -printf '%h/\t%i\t%f\0' >"../${PWD##*/}.inodes"
  }
  for try in 1 2 3 4 5; do
    # run_both forgets an intended_difference once used.
    [[ -z $phrase ]] || intended_difference "$phrase" "$lines"
    rc=0 unfair=0
    run_both "$@" || rc=$?
    [[ $rc -ne 0 ]] || break
    [[ -f $CPDIFF_LAST/cp.inodes && -f $CPDIFF_LAST/fcopy.inodes ]] || break
    _cpdiff_same_inode_order "$CPDIFF_LAST/cp.inodes" "$CPDIFF_LAST/fcopy.inodes" &&
      break
    echo "run_both_tree: the scenes' inode orders differed (run $try of 5)" >&2
    unfair=1
  done
  # Five unfair runs in a row happen on a busy ext4, where the inode a
  # new file or directory gets depends on what else was made and removed
  # in between.  Then the order of the lines cannot be compared, but what
  # they say, the exit status and the files can: the reports again with
  # each section's lines sorted.
  if [[ $rc -ne 0 && $unfair -eq 1 ]] &&
    cmp -s <(_cpdiff_sorted_report "$CPDIFF_LAST/cp.report") \
      <(_cpdiff_sorted_report "$CPDIFF_LAST/fcopy.report"); then
    echo "run_both_tree: the same lines in another order; with unequal" \
      "inode orders their order was not compared" >&2
    rc=0
  fi
  eval "$(declare -f _cpdiff_tree_scene | sed '1s/^_cpdiff_tree_scene /scene /')"
  return $rc
}

# _cpdiff_sorted_report REPORT: REPORT with the lines of each section
# (from one of its "# " headings to the next) sorted within the section.
_cpdiff_sorted_report ()
{
  LC_ALL=C awk '/^# (exit status|stdout|stderr|files)$/ { n++ }
    { printf "%06d %s\n", n, $0 }' "$1" | LC_ALL=C sort | cut -c8-
}

# _cpdiff_same_inode_order LIST1 LIST2: the two lists of find -printf
# '%h/\t%i\t%f\0' give each directory's entries in the same inode order.
_cpdiff_same_inode_order ()
{
  python3 -S - "$1" "$2" <<'EOF2'
import sys
def orders(path):
    dirs = {}
    with open(path, "rb") as f:
        for rec in f.read().split(b"\0"):
            if rec:
                d, ino, name = rec.split(b"\t", 2)
                dirs.setdefault(d, []).append((int(ino), name))
    return {d: [n for _, n in sorted(v)] for d, v in dirs.items()}
sys.exit(orders(sys.argv[1]) != orders(sys.argv[2]))
EOF2
}
