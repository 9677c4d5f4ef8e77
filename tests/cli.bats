#!/usr/bin/env bats
# cli.bats -- operands, options and messages, as GNU cp has them.
# Every message is compared whole; every error exits 1.

load helpers

setup ()
{
  cd "$BATS_TEST_TMPDIR"
  printf 'alpha\n' >a
  printf 'bravo\n' >b
  mkdir d
}

TRY="Try 'fcopy --help' for more information."

@test "no operand: missing file operand" {
  run --separate-stderr fcopy
  assert_status 1
  assert_stderr "fcopy: missing file operand" "$TRY"
  assert_equal "$output" "" stdout
}

@test "-t DIR without a source: missing file operand" {
  run --separate-stderr fcopy -t d
  assert_status 1
  assert_stderr "fcopy: missing file operand" "$TRY"
}

@test "one operand: missing destination file operand" {
  run --separate-stderr fcopy a
  assert_status 1
  assert_stderr "fcopy: missing destination file operand after 'a'" "$TRY"
}

@test "several operands, last one missing: target No such file or directory" {
  run --separate-stderr fcopy a b c
  assert_status 1
  assert_stderr "fcopy: target 'c': No such file or directory"
  assert_no_file c
}

@test "several operands, last one a file: target Not a directory" {
  printf 'charlie\n' >c
  run --separate-stderr fcopy a b c
  assert_status 1
  assert_stderr "fcopy: target 'c': Not a directory"
  assert_equal "$(cat c)" charlie "c's content"
}

@test "-t with a missing directory" {
  run --separate-stderr fcopy -t nod a
  assert_status 1
  assert_stderr "fcopy: target directory 'nod': No such file or directory"
  assert_no_file nod
}

@test "-T with three operands: extra operand" {
  run --separate-stderr fcopy -T a b c
  assert_status 1
  assert_stderr "fcopy: extra operand 'c'" "$TRY"
  assert_equal "$(cat b)" bravo "b's content"
}

@test "-t and -T together are refused" {
  run --separate-stderr fcopy -t d -T a
  assert_status 1
  assert_stderr "fcopy: cannot combine --target-directory (-t) and --no-target-directory (-T)"
  assert_no_file d/a
}

@test "invalid --reflink argument lists the valid ones" {
  run --separate-stderr fcopy --reflink=sometimes a z
  assert_status 1
  assert_stderr "fcopy: invalid argument 'sometimes' for '--reflink'" \
    "Valid arguments are:" "  - 'auto'" "  - 'always'" "  - 'never'" "$TRY"
  assert_no_file z
}

@test "invalid --sparse argument is refused the same way" {
  run --separate-stderr fcopy --sparse=sometimes a z
  assert_status 1
  assert_equal "${stderr_lines[0]}" "fcopy: invalid argument 'sometimes' for '--sparse'" "first line"
  assert_equal "${stderr_lines[1]}" "Valid arguments are:" "second line"
  assert_equal "${stderr_lines[-1]}" "$TRY" "last line"
  assert_no_file z
}

@test "--reflink=always with --sparse=always or never is a usage error" {
  local s
  for s in always never; do
    run --separate-stderr fcopy --reflink=always --sparse=$s a z
    assert_status 1
    assert_stderr "fcopy: --reflink can be used only with --sparse=auto" "$TRY"
  done
  assert_no_file z
}

@test "bare --reflink means always (so --sparse=never is refused)" {
  run --separate-stderr fcopy --reflink --sparse=never a z
  assert_status 1
  assert_stderr "fcopy: --reflink can be used only with --sparse=auto" "$TRY"
  # --reflink=auto and never combine with any --sparse.
  run --separate-stderr fcopy --reflink=auto --sparse=never a z
  assert_status 0
  assert_same a z
  run --separate-stderr fcopy --reflink=never --sparse=always a y
  assert_status 0
  assert_same a y
}

@test "unknown long option" {
  run --separate-stderr fcopy --bogus a z
  assert_status 1
  assert_stderr "fcopy: unrecognized option '--bogus'" "$TRY"
}

@test "unknown short option" {
  run --separate-stderr fcopy -z a z
  assert_status 1
  assert_stderr "fcopy: invalid option -- 'z'" "$TRY"
}

@test "same file: a onto a" {
  run --separate-stderr fcopy a a
  assert_status 1
  assert_stderr "fcopy: 'a' and 'a' are the same file"
  assert_equal "$(cat a)" alpha "a's content"
}

@test "same file: a hard link of the source" {
  ln a h
  run --separate-stderr fcopy a h
  assert_status 1
  assert_stderr "fcopy: 'a' and 'h' are the same file"
  assert_equal "$(cat a)" alpha "a's content"
}

@test "same file: a into its own directory" {
  run --separate-stderr fcopy a .
  assert_status 1
  assert_stderr "fcopy: 'a' and './a' are the same file"
  assert_equal "$(cat a)" alpha "a's content"
}

@test "missing source: cannot stat" {
  run --separate-stderr fcopy x y
  assert_status 1
  assert_stderr "fcopy: cannot stat 'x': No such file or directory"
  assert_no_file y
}

@test "missing source among others: the others are still copied" {
  run --separate-stderr fcopy a x b d
  assert_status 1
  assert_stderr "fcopy: cannot stat 'x': No such file or directory"
  assert_same a d/a
  assert_same b d/b
  assert_no_file d/x
}

@test "dangling destination symlink is not written through" {
  ln -s nowhere dl
  run --separate-stderr fcopy a dl
  assert_status 1
  assert_stderr "fcopy: not writing through dangling symlink 'dl'"
  assert_no_file nowhere
  assert_equal "$(readlink dl)" nowhere "dl's target"
}

@test "destination symlink to an existing file is written through" {
  ln -s b bl
  run --separate-stderr fcopy a bl
  assert_status 0
  [[ -L bl ]]
  assert_same a b
}

@test "directory operand: -r not specified, other files still copied" {
  mkdir sub
  run --separate-stderr fcopy a sub b d
  assert_status 1
  assert_stderr "fcopy: -r not specified; omitting directory 'sub'"
  assert_same a d/a
  assert_same b d/b
  assert_no_file d/sub
}

@test "--help exits 0 and describes --reflink" {
  run --separate-stderr fcopy --help
  assert_status 0
  assert_equal "$stderr" "" stderr
  [[ ${lines[0]} == "Usage: fcopy "* ]] || { echo "first line: ${lines[0]}" >&2; false; }
  [[ $output == *--reflink* ]]
  [[ $output == *--sparse=WHEN* ]]
  [[ $output == *--target-directory* ]]
}

@test "--version exits 0 and names the program" {
  run --separate-stderr fcopy --version
  assert_status 0
  assert_equal "$stderr" "" stderr
  [[ ${lines[0]} == "fcopy "* ]] || { echo "first line: ${lines[0]}" >&2; false; }
}

@test "--help and --version ignore the other operands" {
  run --separate-stderr fcopy --version a z
  assert_status 0
  assert_no_file z
}

@test "SOURCE DEST copies the bytes" {
  run --separate-stderr fcopy a z
  assert_status 0
  assert_equal "$output$stderr" "" "output"
  assert_same a z
}

@test "an existing directory as the only DEST receives the file" {
  run --separate-stderr fcopy a d
  assert_status 0
  assert_same a d/a
}

@test "SOURCE... DIRECTORY copies each into the directory" {
  run --separate-stderr fcopy a b d
  assert_status 0
  assert_same a d/a
  assert_same b d/b
}

@test "-t DIRECTORY with several sources" {
  run --separate-stderr fcopy -t d a b
  assert_status 0
  assert_same a d/a
  assert_same b d/b
  run --separate-stderr fcopy --target-directory=d a
  assert_status 0
}

@test "-T copies onto DEST as a file name" {
  run --separate-stderr fcopy -T a z
  assert_status 0
  assert_same a z
  run --separate-stderr fcopy --no-target-directory b z
  assert_status 0
  assert_same b z
}

@test "-v prints 'a' -> 'd/a'" {
  run --separate-stderr fcopy -v a d
  assert_status 0
  assert_stdout "'a' -> 'd/a'"
  run --separate-stderr fcopy --verbose -t d a b
  assert_status 0
  assert_stdout "'a' -> 'd/a'" "'b' -> 'd/b'"
}

@test "-v prints nothing for a file that failed" {
  run --separate-stderr fcopy -v x a d
  assert_status 1
  assert_stdout "'a' -> 'd/a'"
  assert_stderr "fcopy: cannot stat 'x': No such file or directory"
}

@test "abbreviated option: --ref=never" {
  run --separate-stderr fcopy --ref=never --debug a z
  assert_status 0
  assert_same a z
  [[ $output == "'a' -> 'z'"$'\n'"copy offload: avoided, reflink: no, "* ]] || {
    echo "debug: $output" >&2; false; }
}

@test "--debug prints three lines per file in the stable format" {
  run --separate-stderr fcopy --debug a b d
  assert_status 0
  assert_equal "${#lines[@]}" 6 "number of lines"
  local cp_re='^copy offload: [a-z]+, reflink: [a-z]+, sparse detection: [A-Za-z_ +]+$'
  local own_re='^splice: [a-z]+, read/write: [a-z]+, extents shared: (yes|no|unknown)$'
  assert_equal "${lines[0]}" "'a' -> 'd/a'" "line 1"
  [[ ${lines[1]} =~ $cp_re ]] || { echo "line 2: ${lines[1]}" >&2; false; }
  [[ ${lines[2]} =~ $own_re ]] || { echo "line 3: ${lines[2]}" >&2; false; }
  assert_equal "${lines[3]}" "'b' -> 'd/b'" "line 4"
  [[ ${lines[4]} =~ $cp_re ]] || { echo "line 5: ${lines[4]}" >&2; false; }
  [[ ${lines[5]} =~ $own_re ]] || { echo "line 6: ${lines[5]}" >&2; false; }
}

@test "the program name follows argv[0]: run as cp" {
  mkdir bin
  ln -s "$FCOPY" bin/cp
  # env finds "cp" on PATH and runs it with argv[0] = "cp".
  run --separate-stderr env PATH="$BATS_TEST_TMPDIR/bin:$PATH" cp
  assert_status 1
  assert_stderr "cp: missing file operand" "Try 'cp --help' for more information."
  run --separate-stderr env PATH="$BATS_TEST_TMPDIR/bin:$PATH" cp x y
  assert_status 1
  assert_stderr "cp: cannot stat 'x': No such file or directory"
}

@test "new file mode: source mode masked by umask 022" {
  printf 'x\n' >m640; chmod 0640 m640
  printf 'x\n' >m777; chmod 0777 m777
  printf 'x\n' >m4755; chmod 4755 m4755
  umask 022
  run --separate-stderr fcopy m640 m777 m4755 d
  assert_status 0
  assert_equal "$(stat -c %a d/m640)" 640 "mode of a copy of 0640"
  assert_equal "$(stat -c %a d/m777)" 755 "mode of a copy of 0777"
  assert_equal "$(stat -c %a d/m4755)" 755 "mode of a copy of 4755"
}

@test "new file mode: umask 077 leaves owner bits only" {
  chmod 0664 a
  umask 077
  run --separate-stderr fcopy a z
  assert_status 0
  assert_equal "$(stat -c %a z)" 600 "mode"
}

@test "existing destination: truncated and rewritten in place" {
  head -c 100000 /dev/urandom >big
  local ino
  ino=$(stat -c %i big)
  run --separate-stderr fcopy a big
  assert_status 0
  assert_same a big
  assert_equal "$(stat -c %i big)" "$ino" "inode of the destination"
}
