#!/usr/bin/env bats
# debug-json.bats -- --debug=json: one JSON object a line per file copied:
# the names (bytes that are not UTF-8 escaped as \udc80-\udcff, so they
# read back exact), the step that moved the data, the bytes by step and
# in holes, each step's word, and whether FIEMAP proved the extents
# shared.  Parsed with python3's json module.

bats_require_minimum_version 1.5.0
load helpers

setup_file ()
{
  need_cmd python3
  setup_fs_file TMPFS=tmpfs:64M BTRFS=btrfs
}

setup ()
{
  setup_fs_test "$TMPFS"
}

# field KEY...: KEY's value in each JSON line of $output, a line each
# (Python's repr for strings read back as bytes, JSON's words else).
field ()
{
  python3 -c '
import json, os, sys
for line in sys.argv[1].splitlines():
    o = json.loads(line)
    v = [o[k] for k in sys.argv[2:]]
    print(" ".join(repr(os.fsencode(x)) if isinstance(x, str) and k in ("source", "destination")
                   else json.dumps(x) for k, x in zip(sys.argv[2:], v)))' "$output" "$@"
}

@test "tmpfs: one object for a file: copy_file_range, bytes, sharing unknown" {
  head -c 5000 /dev/urandom >a
  run --separate-stderr fcopy --debug=json a b
  assert_status 0
  assert_stderr ""
  assert_equal "${#lines[@]}" 1 "lines"
  run field source destination ok mechanism bytes bytes_copy_file_range extents_shared
  # tmpfs has no FIEMAP: whether extents are shared is not known.
  assert_equal "$output" "b'a' b'b' true \"copy_file_range\" 5000 5000 null" "fields"
  cmp a b
}

@test "tmpfs: every key of the schema, with its type" {
  echo x >a
  run --separate-stderr fcopy --debug=json a b
  assert_status 0
  run python3 -c '
import json, sys
o = json.loads(sys.argv[1])
want = {"source": str, "destination": str, "ok": bool, "mechanism": str,
        "bytes": int, "bytes_cloned": int, "bytes_copy_file_range": int,
        "bytes_splice": int, "bytes_read_write": int, "bytes_in_holes": int,
        "clone": str, "copy_file_range": str, "splice": str,
        "read_write": str, "sparse_detection": str,
        "extents_shared": (bool, type(None)),
        "cloned_from": (str, type(None)), "verified": (str, type(None))}
assert list(o) == list(want), list(o)
for k, t in want.items():
    assert isinstance(o[k], t), (k, o[k])
print("ok")' "$output"
  assert_equal "$output" "ok" "the schema"
}

@test "names that are not UTF-8, with quotes, backslashes and newlines, read back exact" {
  mkdir s
  local name
  name=$(printf 'x\377y"z\\\001\nw\303\251')
  printf 1 >"s/$name"
  printf 2 >"s/$(printf 'ok\355\240\200')"        # a UTF-8 surrogate: not UTF-8
  fcopy -r --debug=json s t >out
  assert_equal "$(wc -l <out)" 2 "lines: one a file, whatever its name holds"
  # The output is read as bytes and must be strict UTF-8 (JSON's
  # encoding, RFC 8259), ASCII-safe where the names are not.
  run python3 -c '
import json, os, sys
text = open(sys.argv[1], "rb").read().decode("utf-8", "strict")
got = sorted(os.fsencode(json.loads(l)["source"]) for l in text.splitlines())
want = sorted(b"s/" + n for n in os.listdir(b"s"))
assert got == want, (got, want)
print("exact")' out
  assert_equal "$output" "exact" "the names read back"
}

@test "a sparse file: bytes in holes, SEEK_HOLE" {
  truncate -s 1M sp
  head -c 4096 /dev/urandom >>sp
  run --separate-stderr fcopy --debug=json sp sp2
  assert_status 0
  run field bytes bytes_in_holes sparse_detection
  assert_equal "$output" '4096 1048576 "SEEK_HOLE"' "bytes, holes, detection"
}

@test "read/write when copy_file_range and splice are refused" {
  need_shim
  head -c 3000 /dev/urandom >a
  run --separate-stderr env LD_PRELOAD="$FAULT_SHIM" \
    FCOPY_FAULT='copy_file_range:*:EXDEV,splice:*:EINVAL' \
    "$FCOPY" --debug=json a b
  assert_status 0
  run field mechanism copy_file_range splice read_write bytes_read_write
  assert_equal "$output" '"read_write" "unsupported" "unsupported" "yes" 3000' "steps"
  cmp a b
}

@test "a failed copy: ok false, and the error on stderr" {
  need_shim
  head -c 3000 /dev/urandom >a
  run --separate-stderr env LD_PRELOAD="$FAULT_SHIM" \
    FCOPY_FAULT='copy_file_range:1:EIO' "$FCOPY" --debug=json a b
  assert_status 1
  [[ $stderr == *"Input/output error"* ]] || { echo "stderr: $stderr"; false; }
  run field ok mechanism copy_file_range
  assert_equal "$output" 'false "none" "failed"' "ok, mechanism, step"
}

@test "btrfs: a clone, its bytes, extents proven shared" {
  cd "$BTRFS" && mkdir -p "$BATS_TEST_NUMBER" && cd "$BATS_TEST_NUMBER"
  head -c 70000 /dev/urandom >a
  run --separate-stderr fcopy --debug=json a b
  assert_status 0
  run field mechanism bytes_cloned clone extents_shared
  assert_equal "$output" '"clone" 70000 "yes" true' "clone"
}

@test "btrfs: --reflink=never: read/write, extents proven not shared" {
  cd "$BTRFS" && mkdir -p "$BATS_TEST_NUMBER" && cd "$BATS_TEST_NUMBER"
  head -c 70000 /dev/urandom >a
  run --separate-stderr fcopy --reflink=never --debug=json a b
  assert_status 0
  run field clone extents_shared
  assert_equal "$output" '"no" false' "clone, shared"
}

@test "--debug=text is --debug; --debug=xml is a usage error" {
  echo x >a
  run --separate-stderr fcopy --debug=text a b
  assert_status 0
  assert_equal "${lines[0]}" "'a' -> 'b'" "the -v line of --debug"
  run --separate-stderr fcopy --debug=xml a c
  assert_status 1
  [[ $stderr == *"invalid argument"*"xml"*"--debug"* ]] || { echo "stderr: $stderr"; false; }
}
