#!/usr/bin/env bats
# dedupe-big.bats -- fcopy --dedupe of a pair larger than 1 GiB on btrfs.
# One FIDEDUPERANGE request asks for at most 1 GiB and fcopy loops on
# bytes_deduped, so such a pair takes several calls; at the end every
# extent is shared, with the unaligned tail past 1 GiB too.

load helpers

MiB=$((1024 * 1024))
GiB=$((1024 * MiB))
# 18 pieces of 64 MiB (1.125 GiB) and an unaligned tail.
PIECES=18
BIG=$((PIECES * 64 * MiB + 12345))

setup_file ()
{
  setup_fs_file MNT=btrfs:4G
  [[ -z ${FCOPY_FILE_SKIP:-} ]] || return 0
  # Real data, no holes: one random 64 MiB piece (on the host disk), written
  # PIECES times with read/write, so that no block is shared yet.
  local piece=$BATS_FILE_TMPDIR/piece i
  head -c $((64 * MiB)) /dev/urandom >"$piece"
  for ((i = 0; i < PIECES; i++)); do
    dd if="$piece" of="$MNT/big" bs=4M seek=$((i * 16)) conv=notrunc status=none
  done
  head -c 12345 /dev/urandom >>"$MNT/big"
  rm "$piece"
}

# teardown_file: helpers.bash's.

setup ()
{
  check_file_skip
  export FCOPY_SHIM_LOG=$BATS_TEST_TMPDIR/shim.log
  cd "$MNT"
  # A copy in blocks of its own (no clone, no copy_file_range).
  cp --reflink=never big copy
  touch -d '2001-02-03 04:05:06.123456789' copy
  sync
}

teardown ()
{
  cd /
  [[ -z ${MNT:-} ]] || rm -f "$MNT/copy"
}

@test "btrfs: a 1.1 GiB pair: several FIDEDUPERANGE calls, every extent shared" {
  need_shim
  assert_equal "$(stat -c %s big)" "$BIG" "size of big"
  assert_equal "$(data_bytes big)" "$BIG" "data bytes of big (no holes)"
  no_common_physical big copy
  local state
  state=$(file_state copy)

  run --separate-stderr fcopy_fault '' --dedupe -v big copy
  assert_status 0
  assert_stdout "'big' -> 'copy': deduplicated $BIG bytes" \
    "$(dedupe_stats 1 1 0 0 0 0 "$BIG")"
  assert_equal "$stderr" "" stderr
  local n
  n=$(shim_count "$FCOPY_SHIM_LOG" fideduperange)
  (( n >= 2 )) || { echo "$n fideduperange calls, expected at least 2" >&2; false; }
  extents_all_shared copy
  same_physical big copy
  assert_equal "$(file_state copy)" "$state" "DST's content and mtime"
}

@test "btrfs: a 1.1 GiB pair: no request asks for more than 1 GiB (strace)" {
  need_cmd strace
  local log=$BATS_TEST_TMPDIR/strace.log
  run --separate-stderr strace -f -o "$log" -e trace=ioctl -e verbose=ioctl -- \
    bash -c 'exec -a fcopy "$0" "$@"' "$FCOPY" --dedupe big copy
  assert_status 0
  same_physical big copy
  # ioctl(4, BTRFS_IOC_FILE_EXTENT_SAME or FIDEDUPERANGE, {src_offset=0,
  #   src_length=N, ...} => {info=[{bytes_deduped=N, status=0}]}) = 0
  python3 - "$log" "$BIG" "$GiB" <<'EOF'
import re, sys
log, size, gib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
calls = [l for l in open(log) if "FIDEDUPERANGE" in l]
if len(calls) < 2:
    sys.exit(f"{len(calls)} FIDEDUPERANGE calls, expected at least 2")
done = 0
for l in calls:
    m = re.search(r"src_length=(\d+)", l)
    d = re.search(r"bytes_deduped=(\d+)", l)
    if not m or not d:
        sys.exit(f"cannot read the call: {l}")
    if int(m.group(1)) > gib:
        sys.exit(f"a request asks for {m.group(1)} bytes, more than 1 GiB: {l}")
    done += int(d.group(1))
if done != size:
    sys.exit(f"bytes_deduped add up to {done}, expected {size}")
EOF
}

@test "btrfs: a 1.1 GiB pair, the 2nd FIDEDUPERANGE fails: one message, exit 2, no 3rd call" {
  need_shim
  local state
  state=$(file_state copy)
  # The 2nd call and every later one fail: a 3rd call would be a retry
  # after a failure.
  run --separate-stderr fcopy_fault 'fideduperange:2+:EIO' --dedupe --stats big copy
  assert_status 2
  assert_equal "${#stderr_lines[@]}" 1 "number of stderr lines"
  [[ $stderr == "fcopy: cannot deduplicate 'copy' from 'big': Input/output error"* ]] || {
    echo "stderr: $stderr" >&2; false; }
  assert_equal "$(shim_count "$FCOPY_SHIM_LOG" fideduperange)" 2 "fideduperange calls"
  # Whatever the first call shared, the pair counts as failed.
  [[ $output == "pairs examined: 1"$'\n'"deduplicated: 0"$'\n'*$'\n'"failed: 1"$'\n'* ]] || {
    echo "stdout: $output" >&2; false; }
  assert_equal "$(file_state copy)" "$state" "DST's content and mtime"
}
