#!/usr/bin/env bats
# completion.bats -- completion/fcopy, the bash completion: it offers
# every long option of --help, the values of the options that take a
# word from a list, file names; and make install puts it in
# bash-completion's completionsdir under the prefix.

bats_require_minimum_version 1.5.0
load helpers

setup ()
{
  COMPLETION=${abs_top_srcdir:-$(dirname "$FCOPY")/..}/completion/fcopy
  [[ -r $COMPLETION ]] || skip_or_fail "no $COMPLETION"
  cd "$BATS_TEST_TMPDIR"
}

# complete LINE: what the completion offers at the end of LINE, one a
# line, as bash would call it (COMP_LINE, COMP_POINT, COMP_WORDBREAKS).
complete_line ()
{
  bash --norc -c '
    source "$1"
    COMP_LINE=$2 COMP_POINT=${#2}
    _fcopy
    printf "%s\n" "${COMPREPLY[@]}"' bash "$COMPLETION" "$1"
}

@test "the completion is registered for fcopy" {
  run bash --norc -c 'source "$1"; complete -p fcopy' bash "$COMPLETION"
  assert_status 0
  assert_equal "$output" "complete -F _fcopy fcopy" "complete -p"
}

@test "-- offers every long option of --help, and only those" {
  local want got
  want=$(fcopy --help | grep -oE -- '--[a-z0-9-]+' | sort -u)
  got=$(complete_line 'fcopy --' | sed 's/=$//' | sort -u)
  assert_equal "$got" "$want" "the long options"
}

@test "a prefix completes to the options that start with it" {
  run complete_line 'fcopy --refl'
  assert_equal "$output" "$(printf '%s\n' --reflink --reflink=)" "--refl"
}

@test "the values of --reflink, --sparse, --update, --stats, --backup" {
  run complete_line 'fcopy --reflink=al'
  assert_equal "$output" always "--reflink=al"
  run complete_line 'fcopy --sparse='
  assert_equal "$output" "$(printf '%s\n' auto always never)" "--sparse="
  run complete_line 'fcopy --update=no'
  assert_equal "$output" "$(printf '%s\n' none none-fail)" "--update=no"
  run complete_line 'fcopy --stats='
  assert_equal "$output" "$(printf '%s\n' text json)" "--stats="
  run complete_line 'fcopy --backup=nu'
  assert_equal "$output" numbered "--backup=nu"
}

@test "--preserve= completes the last word of its list" {
  run complete_line 'fcopy -a --preserve=mode,ow'
  assert_equal "$output" mode,ownership "--preserve=mode,ow"
  run complete_line 'fcopy --no-preserve=x'
  assert_equal "$output" xattr "--no-preserve=x"
}

@test "without '=' in COMP_WORDBREAKS the whole word is given" {
  run bash --norc -c '
    source "$1"
    COMP_WORDBREAKS=" " COMP_LINE="fcopy --reflink=ne" COMP_POINT=18
    _fcopy
    printf "%s\n" "${COMPREPLY[@]}"' bash "$COMPLETION"
  assert_equal "$output" --reflink=never "the reply"
}

@test "an operand completes to file names" {
  mkdir -p src/sub
  : >src/file
  run complete_line 'fcopy -a src/'
  assert_equal "$(sort <<<"$output")" "$(printf '%s\n' src/file src/sub)" "src/"
}

@test "make install puts it in the completionsdir under the prefix" {
  [[ -n ${abs_top_builddir:-} ]] || skip_or_fail "not run by make check"
  local dir
  dir=$(make -s --no-print-directory -C "$abs_top_builddir" -f Makefile -f - print-bashcompdir <<<'print-bashcompdir: ; @echo $(bashcompdir)')
  [[ $dir == */bash-completion/completions ]] || { echo "bashcompdir: $dir"; false; }
  make -s --no-print-directory -C "$abs_top_builddir" install-dist_bashcompDATA DESTDIR="$BATS_TEST_TMPDIR/inst"
  cmp "$COMPLETION" "$BATS_TEST_TMPDIR/inst$dir/fcopy"
}
