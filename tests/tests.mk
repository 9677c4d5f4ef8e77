## tests/tests.mk -- the test suite, included by Makefile.am.
## One .bats file per behaviour; helpers.bash, reflink.bash and
## clone-dest.bash are loaded by them, fault-shim.c is built into
## tests/fault-shim.so by Makefile.am.
## The list is BATS_FILES, not TESTS alone: 'make distcheck TESTS=...'
## (.ci/run) overrides TESTS in every sub-make, and the tarball must still
## carry every file.

BATS_FILES = \
  tests/shim.bats \
  tests/completion.bats \
  tests/stats.bats \
  tests/verify.bats \
  tests/progress.bats \
  tests/debug-json.bats \
  tests/positions.bats \
  tests/dedupe-progress.bats \
  tests/cli.bats \
  tests/bytes.bats \
  tests/sparse.bats \
  tests/sparse-stream.bats \
  tests/early-eof.bats \
  tests/fifo-source.bats \
  tests/reflink-btrfs.bats \
  tests/reflink-xfs.bats \
  tests/reflink-unsupported.bats \
  tests/cross-fs.bats \
  tests/clone-dest.bats \
  tests/clone-dest-fallback.bats \
  tests/faults.bats \
  tests/range.bats \
  tests/preserve.bats \
  tests/dedupe-cli.bats \
  tests/dedupe-pairs.bats \
  tests/dedupe-errors.bats \
  tests/dedupe-lists.bats \
  tests/dedupe-recursive.bats \
  tests/dedupe-big.bats \
  tests/dedupe-jobs.bats \
  tests/dedupe-special.bats \
  tests/dedupe-memory.bats \
  tests/cpdiff-tree.bats \
  tests/cpdiff-options.bats \
  tests/dest-options.bats \
  tests/dest-race.bats \
  tests/just-created.bats \
  tests/same-file.bats \
  tests/dest-links.bats \
  tests/parents.bats \
  tests/atomic.bats \
  tests/crash.bats \
  tests/resume.bats \
  tests/fault-matrix.bats \
  tests/fault-calls.bats \
  tests/hostile.bats \
  tests/fuzz.bats \
  tests/jobs.bats \
  tests/cpdiff.bats \
  tests/locale.bats \
  tests/syscalls.bats \
  tests/layers.bats

TESTS = $(BATS_FILES)

EXTRA_DIST += \
  $(BATS_FILES) \
  tests/helpers.bash \
  tests/reflink.bash \
  tests/cpdiff.bash \
  tests/clone-dest.bash \
  tests/fault-shim.c
