# reflink.bash -- the checks of reflink-btrfs.bats and reflink-xfs.bats, on
# a filesystem that can clone, mounted at $MNT by the caller's setup_file.
# The proof of a clone is physical: the copy's extents are the source's
# extents (same physical offsets, flagged shared), not merely equal bytes.

MiB=$((1024 * 1024))

setup ()
{
  setup_fs_test "$MNT"
  # Several MiB and an unaligned tail: the clone must take the EOF block.
  make_random src $((4 * MiB + 4097))
  # Each test starts from a source that shares nothing.
  extents_none_shared src
}

# teardown: helpers.bash's (this test's directory removed).

# check_clone DST: DST has the bytes of src and shares all its blocks.
check_clone ()
{
  assert_same src "$1"
  extents_all_shared "$1"
  extents_all_shared src
  same_physical src "$1"
}

# check_no_clone DST: DST has the bytes of src in blocks of its own.
check_no_clone ()
{
  assert_same src "$1"
  extents_none_shared "$1"
  extents_none_shared src
  no_common_physical src "$1"
}

reflink_auto ()
{
  run --separate-stderr fcopy --debug src dst
  assert_status 0
  assert_stdout "'src' -> 'dst'" "copy offload: unknown, reflink: yes, sparse detection: unknown" "splice: no, read/write: no, extents shared: yes"
  assert_equal "$stderr" "" stderr
  check_clone dst
}

reflink_always ()
{
  run --separate-stderr fcopy --debug --reflink=always src dst
  assert_status 0
  assert_stdout "'src' -> 'dst'" "copy offload: unknown, reflink: yes, sparse detection: unknown" "splice: no, read/write: no, extents shared: yes"
  check_clone dst
}

reflink_bare ()
{
  run --separate-stderr fcopy --reflink src dst
  assert_status 0
  assert_equal "$output$stderr" "" "output"
  check_clone dst
}

reflink_never ()
{
  run --separate-stderr fcopy --debug --reflink=never src dst
  assert_status 0
  assert_stdout "'src' -> 'dst'" "copy offload: avoided, reflink: no, sparse detection: no" "splice: yes, read/write: no, extents shared: no"
  check_no_clone dst
}

# --sparse=never writes every byte itself: no clone, no copy offload.
sparse_never_no_clone ()
{
  run --separate-stderr fcopy --debug --sparse=never src dst
  assert_status 0
  [[ $output == "'src' -> 'dst'"$'\n'"copy offload: avoided, reflink: avoided, "* ]] || {
    echo "debug: $output" >&2; false; }
  check_no_clone dst
}

# An existing, longer destination becomes a clone of the source.
reflink_always_existing ()
{
  make_random dst $((7 * MiB))
  run --separate-stderr fcopy --reflink=always src dst
  assert_status 0
  assert_equal "$(apparent_bytes dst)" "$(apparent_bytes src)" "size of the copy"
  check_clone dst
}

# A sparse source is cloned with its holes.
reflink_sparse ()
{
  rm src
  truncate -s 64M src
  write_at src 1 2
  write_at src 40 3
  run --separate-stderr fcopy --debug src dst
  assert_status 0
  assert_stdout "'src' -> 'dst'" "copy offload: unknown, reflink: yes, sparse detection: unknown" "splice: no, read/write: no, extents shared: yes"
  assert_equal "$(hole_map dst)" "$(hole_map src)" "data/hole map"
  (( $(alloc_bytes dst) <= 6 * MiB ))
  check_clone dst
}

# Several sources into a directory: each one cloned.
reflink_into_dir ()
{
  make_random src2 $((MiB + 1))
  mkdir d
  run --separate-stderr fcopy --debug src src2 d
  assert_status 0
  assert_stdout "'src' -> 'd/src'" \
    "copy offload: unknown, reflink: yes, sparse detection: unknown" \
    "splice: no, read/write: no, extents shared: yes" \
    "'src2' -> 'd/src2'" \
    "copy offload: unknown, reflink: yes, sparse detection: unknown" \
    "splice: no, read/write: no, extents shared: yes"
  check_clone d/src
  assert_same src2 d/src2
  extents_all_shared d/src2
  same_physical src2 d/src2
}

# Empty and tiny files (btrfs keeps those inline) still copy exactly.
reflink_small ()
{
  local size
  for size in 0 1 100 4096; do
    make_random small $size
    run --separate-stderr fcopy small small.copy
    assert_status 0
    assert_same small small.copy
    rm small.copy
  done
}

# reflink_tree_each_cloned: a tree copied with -r: every file cloned
# (one FICLONE each: nothing remembered as refused), all shared.
reflink_tree_each_cloned ()
{
  need_shim
  mkdir -p t/a t/b
  local f
  for f in a/1 a/2 b/3 5; do make_random "t/$f" $((64 * 1024 + 5)); done
  export FCOPY_SHIM_LOG=$PWD/log
  fcopy_fault '' -r t out
  assert_equal "$(shim_count log ficlone)" 4 "FICLONE calls"
  for f in a/1 a/2 b/3 5; do
    assert_same "t/$f" "out/$f"
    same_physical "t/$f" "out/$f"
  done
}
