#!/usr/bin/env bats
# fuzz.bats -- run the fuzz targets of tests/fuzz for a bounded time:
# the pair-list reader (--pairs-from, --groups-from) and the byte-count
# parser (--length, --src-offset, --dst-offset).  Each target checks its
# results against a reference written the simple way, so a wrong answer
# fails as surely as a crash.
#
# Built with --enable-fuzzers (clang, libFuzzer, sanitizers), as CI's
# fuzz build does, the targets are guided by coverage; in a plain build a
# small driver mutates the seeds blindly.  FUZZ_SECONDS (default 5) is
# the time per target; CI gives each 120.

bats_require_minimum_version 1.5.0
load helpers

fuzz_dir="$abs_top_builddir/tests/fuzz"
seed_dir="$abs_top_srcdir/tests/fuzz"

# Run target $1 on a copy of the seeds in corpus-$2 (libFuzzer adds the
# inputs it finds to its corpus directory); it must end cleanly after
# many runs.  On a failure, show the input that made it.
run_fuzzer ()
{
  local target=$1 seeds=$2 secs=${FUZZ_SECONDS:-5} seed=$((RANDOM * 32768 + RANDOM))
  cd "$BATS_TEST_TMPDIR"
  cp -R "$seed_dir/corpus-$seeds" corpus
  chmod -R u+w corpus
  run "$fuzz_dir/$target" -max_total_time="$secs" -seed="$seed" \
    -close_fd_mask=2 -print_final_stats=0 corpus
  if [[ $status -ne 0 ]]; then
    echo "# $target -seed=$seed failed with status $status:"
    printf '%s\n' "$output" | tail -40
    local crash
    for crash in crash-*; do
      [[ -e $crash ]] && { echo "# $crash:"; od -c "$crash" | head -20; }
    done
    return 1
  fi
  local runs
  runs=$(sed -n 's/^Done \([0-9]*\) runs in .*/\1/p' <<<"$output")
  [[ -n $runs ]] || { echo "no 'Done N runs' line: $output"; return 1; }
  echo "# $target: $runs inputs in ${secs} s (seed $seed)" >&3
  # A target that ran a handful of inputs has not been fuzzed.
  (( runs >= 1000 )) || { echo "only $runs runs"; return 1; }
}

@test "fuzz: the pair-list reader agrees with a reference reading" {
  run_fuzzer fuzz-pair-list pair-list
}

@test "fuzz: the byte-count parser: exact, scaled by suffixes, in range" {
  run_fuzzer fuzz-size size
}
