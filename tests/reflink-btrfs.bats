#!/usr/bin/env bats
# reflink-btrfs.bats -- on btrfs, auto and always clone (the copy shares every
# extent of the source), never makes a real copy.  The checks are in
# reflink.bash, shared with the other cloning filesystem.

load helpers
load reflink

setup_file ()
{
  setup_fs_file MNT=btrfs
}

# teardown_file and teardown: helpers.bash's; setup: reflink.bash's.

@test "btrfs: --reflink=auto (the default) clones" {
  reflink_auto
}

@test "btrfs: --reflink=always clones" {
  reflink_always
}

@test "btrfs: bare --reflink clones" {
  reflink_bare
}

@test "btrfs: --reflink=never copies into blocks of its own" {
  reflink_never
}

@test "btrfs: --sparse=never does not clone" {
  sparse_never_no_clone
}

@test "btrfs: --reflink=always over a longer existing file" {
  reflink_always_existing
}

@test "btrfs: a sparse source is cloned with its holes" {
  reflink_sparse
}

@test "btrfs: several sources into a directory are each cloned" {
  reflink_into_dir
}

@test "btrfs: empty and small files" {
  reflink_small
}

@test "btrfs: a tree: every file cloned" {
  reflink_tree_each_cloned
}
