#!/usr/bin/env bats
# dedupe-cli.bats -- the command line of fcopy --dedupe (SPEC-dedupe.md):
# usage errors exit 2 under --dedupe (like cmp); -r is for --dedupe only
# until recursive copying comes.  No filesystem of its own: every case
# fails before any file is opened.

load helpers

setup ()
{
  cd "$BATS_TEST_TMPDIR"
  printf 'alpha\n' >a
  printf 'alpha\n' >b
  printf '%s\n' a b >list
  mkdir d
  A_STATE=$(file_state a)
  B_STATE=$(file_state b)
}

TRY="Try 'fcopy --help' for more information."

# assert_usage_error: exit 2, a message and the Try line, nothing on
# stdout, a and b as they were.
assert_usage_error ()
{
  assert_status 2
  assert_equal "$output" "" stdout
  (( ${#stderr_lines[@]} >= 2 )) || { echo "stderr: $stderr" >&2; false; }
  [[ ${stderr_lines[0]} == "fcopy: "* ]] || { echo "stderr: $stderr" >&2; false; }
  assert_equal "${stderr_lines[-1]}" "$TRY" "last stderr line"
  assert_equal "$(file_state a)" "$A_STATE" "a"
  assert_equal "$(file_state b)" "$B_STATE" "b"
}

@test "--dedupe without operands: missing file operand, exit 2" {
  run --separate-stderr fcopy --dedupe
  assert_status 2
  assert_stderr "fcopy: missing file operand" "$TRY"
}

@test "--dedupe with one operand: missing destination file operand, exit 2" {
  run --separate-stderr fcopy --dedupe a
  assert_status 2
  assert_stderr "fcopy: missing destination file operand after 'a'" "$TRY"
}

@test "--dedupe --reflink=never: usage error, exit 2" {
  run --separate-stderr fcopy --dedupe --reflink=never a b
  assert_usage_error
  run --separate-stderr fcopy --reflink=never --dedupe a b
  assert_usage_error
}

@test "--dedupe: operands and --pairs-from may not be mixed" {
  run --separate-stderr fcopy --dedupe --pairs-from=list a b
  assert_usage_error
  run --separate-stderr fcopy --dedupe --groups-from=list a b
  assert_usage_error
}

@test "-r without --dedupe copies the tree, with cp's exit status" {
  run --separate-stderr cp -r d e.cp
  local cp_status=$status
  run --separate-stderr fcopy -r d e
  assert_status "$cp_status"
  diff -r e e.cp
}
