# clone-dest.bash -- what clone-dest.bats, clone-dest-fallback.bats and
# resume.bats share: a source tree and its changes from one generation of
# snapshots to the next, a listing of a tree's bytes and metadata, and
# the checks that a snapshot's file was cloned from the previous
# snapshot's or copied from the source.  Loaded after helpers.bash.
#
# The source is on tmpfs in the tests that look at extents: it cannot be
# cloned onto btrfs or XFS, so a file of the snapshot that shares its
# extents got them from the --clone-dest directory, not from the source,
# and a file copied from the source shares nothing.

# The generations.  Every file of the tracked lists is at least 64 KiB,
# so that it has real extents (btrfs keeps small files inline, and FIEMAP
# says nothing useful of those); small and empty are checked in bytes and
# metadata only.
#
#   gen 1    keep1 keep2 sub/keep3 sub/deep/keep4 edit grow gone mode
#            touched oldname owned (nobody's) exec (0755) small empty,
#            link -> keep1, emptydir/
#   gen 2    edit: bytes changed, same size; grow: appended; gone: removed;
#            mode: chmod 600 only; touched: touch -m only; oldname renamed
#            renamed; new and newdir/f, newdir/g made
#   gen 3    keep2: bytes changed, same size; sub/keep3: appended; new2
#            made; newdir/g removed
GEN2_CLONED=(keep1 keep2 sub/keep3 sub/deep/keep4 mode owned exec)
GEN2_COPIED=(edit grow touched renamed new newdir/f newdir/g)
GEN3_CLONED=(keep1 sub/deep/keep4 mode owned exec edit grow touched renamed new newdir/f)
GEN3_COPIED=(keep2 sub/keep3 new2)
# Matched too, but not extent-checked.
UNTRACKED=(small empty)

# make_gen1 DIR: the source of generation 1, every time with new random
# bytes and the same names, sizes, modes, owners and (past) times.
make_gen1 ()
{
  local d=$1 f size
  mkdir -p "$d/sub/deep" "$d/emptydir"
  for f in keep1:65541 keep2:200000 sub/keep3:100001 sub/deep/keep4:70000 \
           edit:65537 grow:65536 gone:65540 mode:65543 touched:65542 \
           oldname:65544 owned:65545 exec:65546 small:10 empty:0; do
    size=${f#*:}
    make_random "$d/${f%:*}" "$size" || return 1
  done
  chmod 644 "$d/mode"
  chmod 755 "$d/exec"
  chmod 750 "$d/sub/deep"
  chown nobody:nogroup "$d/owned" || return 1
  ln -s keep1 "$d/link"
  # Times last, deepest first: nanoseconds that a copy must keep.
  find "$d" -depth -exec touch -h -d '2020-01-02 03:04:05.123456789 UTC' {} + || return 1
  touch -m -d '2019-07-08 09:10:11.000000001 UTC' "$d/keep1"
  touch -m -d '2018-03-04 05:06:07.999999999 UTC' "$d/sub/keep3"
}

# overwrite_same_size FILE: new random bytes over the first 4 KiB of FILE,
# its size kept (its mtime becomes now).
overwrite_same_size ()
{
  head -c 4096 /dev/urandom | dd of="$1" conv=notrunc status=none
}

# change_gen2 DIR: the changes of generation 2 (see above).
change_gen2 ()
{
  local d=$1
  overwrite_same_size "$d/edit"
  head -c 3000 /dev/urandom >>"$d/grow"
  rm "$d/gone"
  chmod 600 "$d/mode"
  touch -m -d '2021-05-06 07:08:09.987654321 UTC' "$d/touched"
  mv "$d/oldname" "$d/renamed"
  make_random "$d/new" 70001
  mkdir "$d/newdir"
  make_random "$d/newdir/f" 66000
  make_random "$d/newdir/g" 66001
}

# change_gen3 DIR: the changes of generation 3.
change_gen3 ()
{
  local d=$1
  overwrite_same_size "$d/keep2"
  head -c 5000 /dev/urandom >>"$d/sub/keep3"
  make_random "$d/new2" 80000
  rm "$d/newdir/g"
}

# tree_state DIR: one line per entry of DIR (DIR itself is "."), sorted:
# name, type, mode, owner, mtime in ns, and for a regular file its size
# and SHA-256, for a symbolic link its target.  Two trees with the same
# state are equal byte for byte and in the metadata -a keeps (atimes
# aside: reading a file moves them).  If DIR is missing the output is a
# line that no other state can equal.
tree_state ()
{
  python3 - "$1" <<'EOF' || echo "tree_state of '$1' failed ($BASHPID $RANDOM)"
import hashlib, os, stat, sys
top = sys.argv[1]
if not os.path.isdir(top):
    sys.exit(1)
names = ["."]
for dirpath, dirs, files in os.walk(top):
    rel = os.path.relpath(dirpath, top)
    names += [os.path.normpath(os.path.join(rel, n)) for n in dirs + files]
for name in sorted(names):
    path = os.path.join(top, name)
    st = os.lstat(path)
    m = st.st_mode
    f = [repr(name), stat.filemode(m), "%04o" % stat.S_IMODE(m),
         "%d:%d" % (st.st_uid, st.st_gid), "mtime=%d" % st.st_mtime_ns]
    if stat.S_ISREG(m):
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            h.update(fh.read())
        f += ["size=%d" % st.st_size, h.hexdigest()[:20]]
    elif stat.S_ISLNK(m):
        f.append("-> " + os.readlink(path))
    print(" ".join(f))
EOF
}

# assert_same_tree A B: A and B have the same tree_state; a diff if not.
assert_same_tree ()
{
  assert_tree_state "$2" "$(tree_state "$1")" || {
    echo "(- $1, + $2)" >&2
    return 1
  }
}

# assert_tree_state DIR STATE: DIR's tree_state is still STATE.
assert_tree_state ()
{
  local now
  now=$(tree_state "$1")
  if [[ $now != "$2" ]]; then
    echo "$1 changed (- before, + now):" >&2
    diff <(echo "$2") <(echo "$now") >&2
    return 1
  fi
}

# check_cloned PREV NEW REL...: each NEW/REL was cloned from PREV/REL:
# every extent shared, the same physical blocks, and an inode of its own.
check_cloned ()
{
  local prev=$1 new=$2 rel
  shift 2
  for rel; do
    extents_all_shared "$new/$rel" || { echo "$new/$rel: not cloned from $prev" >&2; return 1; }
    same_physical "$prev/$rel" "$new/$rel" || return 1
    if [[ $(stat -c %i "$prev/$rel") == "$(stat -c %i "$new/$rel")" ]]; then
      echo "$new/$rel is the inode of $prev/$rel (a hard link), not a file of its own" >&2
      return 1
    fi
    assert_equal "$(stat -c %h "$new/$rel")" 1 "links of $new/$rel" || return 1
  done
}

# check_copied NEW REL...: each NEW/REL was copied from the source (on
# tmpfs): it shares no extent with any file.
check_copied ()
{
  local new=$1 rel
  shift
  for rel; do
    extents_none_shared "$new/$rel" || { echo "$new/$rel: should have been copied from the source" >&2; return 1; }
  done
}

# sum_sizes DIR REL...: the total size of DIR/REL...
sum_sizes ()
{
  local dir=$1 rel n=0
  shift
  for rel; do
    n=$(( n + $(stat -c %s "$dir/$rel") ))
  done
  echo "$n"
}
