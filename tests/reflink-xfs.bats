#!/usr/bin/env bats
# reflink-xfs.bats -- on XFS, auto and always clone (the copy shares every
# extent of the source), never makes a real copy.  The checks are in
# reflink.bash, shared with the other cloning filesystem.

load helpers
load reflink

setup_file ()
{
  setup_fs_file MNT=xfs
}

# teardown_file and teardown: helpers.bash's; setup: reflink.bash's.

@test "xfs: --reflink=auto (the default) clones" {
  reflink_auto
}

@test "xfs: --reflink=always clones" {
  reflink_always
}

@test "xfs: bare --reflink clones" {
  reflink_bare
}

@test "xfs: --reflink=never copies into blocks of its own" {
  reflink_never
}

@test "xfs: --sparse=never does not clone" {
  sparse_never_no_clone
}

@test "xfs: --reflink=always over a longer existing file" {
  reflink_always_existing
}

@test "xfs: a sparse source is cloned with its holes" {
  reflink_sparse
}

@test "xfs: several sources into a directory are each cloned" {
  reflink_into_dir
}

@test "xfs: empty and small files" {
  reflink_small
}

@test "xfs: a tree: every file cloned" {
  reflink_tree_each_cloned
}
