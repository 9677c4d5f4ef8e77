#!/usr/bin/env bats
# progress.bats -- --progress[=WHEN]: on a terminal, one status line
# redrawn in place after a first second, erased before any other output
# and replaced at the end by a summary; on a file, with always, a plain
# line every 5 s and the summary.  The terminal is a tmux pane of a fixed
# size, read back with capture-pane.  The copies are on tmpfs, where
# copy_file_range moves the bytes, so that the fault shim can stall the
# copy of the second file and the line has time to show.

bats_require_minimum_version 1.5.0
load helpers

setup_file ()
{
  need_cmd tmux timeout
  need_shim
  setup_fs_file TMPFS=tmpfs:256M
}

setup ()
{
  setup_fs_test "$TMPFS"
  # A tmux server of this test's own, on a private socket.
  SOCK=fcopy-progress-$$-$BATS_TEST_NUMBER
  SESSION=fcopy-$BATS_TEST_NUMBER-$$
  PIDFILE=$BATS_TEST_TMPDIR/pid
  export FCOPY_SHIM_STALLED=$BATS_TEST_TMPDIR/stalled
}

teardown ()
{
  local pid i sock
  # kill-server leaves the socket file: remove it too.
  sock=$(tmux -L "$SOCK" display -p '#{socket_path}' 2>/dev/null) || sock=
  tmux -L "$SOCK" kill-server 2>/dev/null || true
  if [[ -S $sock ]]; then rm -f "$sock"; fi
  # The pane's hangup ends fcopy; make sure of it before its files go.
  if [[ -s $PIDFILE ]]; then
    pid=$(<"$PIDFILE")
    for (( i = 0; i < 30; i++ )); do
      if ! kill -0 "$pid" 2>/dev/null; then break; fi
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fi
  fi
  teardown_fs_test
}

TRY="Try 'fcopy --help' for more information."

# The forms of the line, as regular expressions: a size as ls -lh
# prints it, with a space (0 B, 512 B, 1.0 MiB, 20 MiB), and a rate.
SIZE_RE='[0-9]+(\.[0-9])? ([KMGTPEZY]i)?B'
RATE_RE="$SIZE_RE/s"
ETA_RE='ETA [0-9]+:[0-9]{2}(:[0-9]{2})?'

# The slow copy: s/a and s/b of 10 MiB each.  With the shim's stall on
# the second copy_file_range, the file a walk takes first is copied at
# once and the other waits: $SECOND.  A walk takes them in inode order
# (as cp), and which of the two gets the lower number depends on what the
# tests running beside this one freed.
make_pair ()
{
  mkdir s
  make_random s/a 10M
  make_random s/b 10M
  SECOND=$(stat -c '%i %n' s/a s/b | sort -n | tail -n 1 | cut -d ' ' -f 2)
}

# pane_start WIDTH LOCALE FAULT ARG...: in a new tmux pane WIDTH columns
# wide, in this directory, run fcopy ARG... (under that name, as the
# fcopy function does) with LC_ALL=LOCALE, and the fault shim with
# FCOPY_FAULT=FAULT unless FAULT is empty; then print EXIT=status.  The
# pane stays.  fcopy's pid goes to $PIDFILE.
pane_start ()
{
  local width=$1 locale=$2 fault=$3 cmd
  shift 3
  cmd="cd $(printf %q "$PWD") && env LC_ALL=$locale"
  cmd+=" FCOPY_SHIM_STALLED=$(printf %q "$FCOPY_SHIM_STALLED")"
  cmd+=" PIDFILE=$(printf %q "$PIDFILE")"
  if [[ -n $fault ]]; then
    cmd+=" LD_PRELOAD=$(printf %q "$FAULT_SHIM") FCOPY_FAULT=$(printf %q "$fault")"
  fi
  cmd+=" bash -c 'echo \$\$ >\"\$PIDFILE\"; exec -a fcopy \"\$0\" \"\$@\"'"
  cmd+=" $(printf '%q ' "$FCOPY" "$@"); echo EXIT=\$?; sleep 600"
  tmux -L "$SOCK" -f /dev/null new-session -d -s "$SESSION" \
    -x "$width" -y 20 bash -c "$cmd"
}

# pane_screen: the pane's non-empty lines, wrapped lines joined (-J), so
# that a line wider than the pane reads as one long line.
pane_screen ()
{
  tmux -L "$SOCK" capture-pane -p -J -t "$SESSION" |
    sed -e 's/[[:space:]]*$//' -e '/^$/d'
}

# wait_screen ERE SECONDS: poll the pane every 0.1 s until a line of it
# matches ERE; SCREEN holds the last capture.  False after SECONDS.
wait_screen ()
{
  local i
  for (( i = 0; i < $2 * 10; i++ )); do
    SCREEN=$(pane_screen)
    if grep -Eq -- "$1" <<<"$SCREEN"; then return 0; fi
    sleep 0.1
  done
  return 1
}

# wait_stalled: wait up to 10 s for the shim's stall to begin.
wait_stalled ()
{
  local i
  for (( i = 0; i < 100; i++ )); do
    if [[ -e $FCOPY_SHIM_STALLED ]]; then return 0; fi
    sleep 0.1
  done
  return 1
}

# screen_lines: how many lines $SCREEN has.
screen_lines ()
{
  if [[ -z $SCREEN ]]; then echo 0; else wc -l <<<"$SCREEN"; fi
}

# cols TEXT: the columns TEXT takes (characters, in UTF-8: … is one).
cols ()
{
  printf %s "$1" | LC_ALL=C.UTF-8 wc -m
}

# fcopy_timed FAULT ARG...: fcopy ARG... as "fcopy", with the shim and
# FCOPY_FAULT=FAULT unless FAULT is empty, killed after 15 s.
fcopy_timed ()
{
  local fault=$1
  shift
  if [[ -n $fault ]]; then
    timeout 15 env LD_PRELOAD="$FAULT_SHIM" FCOPY_FAULT="$fault" \
      bash -c 'exec -a fcopy "$0" "$@"' "$FCOPY" "$@"
  else
    timeout 15 bash -c 'exec -a fcopy "$0" "$@"' "$FCOPY" "$@"
  fi
}

@test "tty: during a stalled copy, one line: percent, bytes, files, rate, ETA, name" {
  make_pair
  pane_start 100 C.UTF-8 'copy_file_range:2:stall=3' -r --progress s t
  wait_stalled || { echo "the stall did not start"; false; }
  wait_screen 'files|EXIT=' 10 || { echo "no status line after 10 s; screen: $SCREEN"; false; }
  assert_equal "$(screen_lines)" 1 "non-empty lines during the stall (screen: $SCREEN)"
  # The scan of two files has ended long before the first line, at 1 s:
  # no "of >=" bounds, but the totals and the percent.
  local re="^50% 10 MiB of 20 MiB, 1 of 2 files, $RATE_RE, $ETA_RE, $SECOND\$"
  [[ $SCREEN =~ $re ]] || { echo "first status line drawn: $SCREEN"; false; }
  # Redrawn in place: still one line a little later, while $SECOND waits.
  sleep 0.6
  SCREEN=$(pane_screen)
  [[ $SCREEN == *EXIT=* || $(screen_lines) == 1 ]] || { echo "screen 0.6 s later: $SCREEN"; false; }
}

@test "tty: at the end, the summary replaces the status line" {
  make_pair
  pane_start 100 C.UTF-8 'copy_file_range:2:stall=2' -r --progress s t
  wait_screen 'files,' 10 || { echo "no status line after 10 s; screen: $SCREEN"; false; }
  wait_screen 'EXIT=' 15 || { echo "fcopy did not end in 15 s; screen: $SCREEN"; false; }
  local -a l
  mapfile -t l <<<"$SCREEN"
  assert_equal "${#l[@]}" 2 "non-empty lines at the end (screen: $SCREEN)"
  local re="^fcopy: 2 files, 20 MiB in [0-9]+\.[0-9] s, $RATE_RE\$"
  [[ ${l[0]} =~ $re ]] || { echo "summary: ${l[0]}"; false; }
  assert_equal "${l[1]}" EXIT=0 "the exit line"
  [[ $SCREEN != *ETA* ]] || { echo "ETA left on the screen: $SCREEN"; false; }
  [[ $SCREEN != *%* ]] || { echo "a percent left on the screen: $SCREEN"; false; }
  cmp s/a t/a
  cmp s/b t/b
}

@test "tty: a copy quicker than the first second prints nothing" {
  make_random a 1000
  pane_start 100 C.UTF-8 '' --progress a b
  wait_screen 'EXIT=' 10 || { echo "fcopy did not end in 10 s; screen: $SCREEN"; false; }
  assert_equal "$SCREEN" EXIT=0 "the screen"
  cmp a b
}

# s/a's copy_file_range waits 2 s: the line is drawn at 1 s, and the
# error for 'missing', the next operand, comes at 2 s.
@test "tty: the status line is erased before an error message" {
  make_pair
  mkdir dir
  pane_start 100 C.UTF-8 'copy_file_range:1:stall=2' --progress s/a missing s/b dir/
  wait_screen 'files,' 10 || { echo "no status line after 10 s; screen: $SCREEN"; false; }
  [[ $SCREEN != *missing* ]] || { echo "the error came before the line was drawn: $SCREEN"; false; }
  wait_screen 'EXIT=' 15 || { echo "fcopy did not end in 15 s; screen: $SCREEN"; false; }
  local msg="fcopy: cannot stat 'missing': No such file or directory"
  grep -Fxq -- "$msg" <<<"$SCREEN" || { echo "no line that is the message alone: $SCREEN"; false; }
  assert_equal "$(grep -c -- 'cannot stat' <<<"$SCREEN")" 1 "lines with the message (screen: $SCREEN)"
  assert_equal "$(grep -c -- ' of \|%\|ETA' <<<"$SCREEN" || true)" 0 "lines with status text (screen: $SCREEN)"
  local re="^fcopy: 2 files, 20 MiB in [0-9]+\.[0-9] s, $RATE_RE\$"
  grep -Eq -- "$re" <<<"$SCREEN" || { echo "no summary: $SCREEN"; false; }
  assert_equal "$(tail -n 1 <<<"$SCREEN")" EXIT=1 "the exit line"
}

# The fields of the line take some 57 columns: at 80, the name of 62
# has some 22 left, and is shortened from its left.
LONG=s/$(printf 'n%.0s' {1..60})

# make_long: s/a and $LONG, 10 MiB each.
make_long ()
{
  mkdir s t
  make_random s/a 10M
  make_random "$LONG" 10M
}

@test "tty: a narrow terminal: the name is shortened with … to fit" {
  make_long
  pane_start 80 C.UTF-8 'copy_file_range:2:stall=3' --progress s/a "$LONG" t
  wait_stalled || { echo "the stall did not start"; false; }
  wait_screen 'files,|EXIT=' 10 || { echo "no status line after 10 s; screen: $SCREEN"; false; }
  assert_equal "$(screen_lines)" 1 "non-empty lines during the stall (screen: $SCREEN)"
  (( $(cols "$SCREEN") <= 79 )) || { echo "$(cols "$SCREEN") columns, more than 79: $SCREEN"; false; }
  [[ $SCREEN =~ ,\ …n+$ ]] || { echo "first status line: $SCREEN"; false; }
  # Once the scan has ended (test 1 checks when), the same with the percent.
  wait_screen '^50%|EXIT=' 5 || { echo "no percent after 5 s; screen: $SCREEN"; false; }
  assert_equal "$(screen_lines)" 1 "non-empty lines during the stall (screen: $SCREEN)"
  (( $(cols "$SCREEN") <= 79 )) || { echo "$(cols "$SCREEN") columns, more than 79: $SCREEN"; false; }
  [[ $SCREEN =~ ^50%\ 10\ MiB\ of\ 20\ MiB,\ 1\ of\ 2\ files,\ .*,\ …n+$ ]] || { echo "status line: $SCREEN"; false; }
}

@test "tty: a narrow terminal in the C locale: shortened with ..." {
  make_long
  pane_start 80 C 'copy_file_range:2:stall=3' --progress s/a "$LONG" t
  wait_stalled || { echo "the stall did not start"; false; }
  wait_screen 'files,|EXIT=' 10 || { echo "no status line after 10 s; screen: $SCREEN"; false; }
  assert_equal "$(screen_lines)" 1 "non-empty lines during the stall (screen: $SCREEN)"
  (( $(cols "$SCREEN") <= 79 )) || { echo "$(cols "$SCREEN") columns, more than 79: $SCREEN"; false; }
  [[ $SCREEN =~ ,\ \.\.\.n+$ ]] || { echo "first status line: $SCREEN"; false; }
  wait_screen '^50%|EXIT=' 5 || { echo "no percent after 5 s; screen: $SCREEN"; false; }
  assert_equal "$(screen_lines)" 1 "non-empty lines during the stall (screen: $SCREEN)"
  (( $(cols "$SCREEN") <= 79 )) || { echo "$(cols "$SCREEN") columns, more than 79: $SCREEN"; false; }
  [[ $SCREEN =~ ^50%\ 10\ MiB\ of\ 20\ MiB,\ 1\ of\ 2\ files,\ .*,\ \.\.\.n+$ ]] || { echo "status line: $SCREEN"; false; }
  [[ $SCREEN != *…* ]] || { echo "a UTF-8 ellipsis in the C locale: $SCREEN"; false; }
}

@test "tty: SIGWINCH: a wider terminal shows the whole name" {
  make_long
  pane_start 80 C.UTF-8 'copy_file_range:2:stall=4' --progress s/a "$LONG" t
  wait_screen '…|EXIT=' 10 || { echo "no shortened status line after 10 s; screen: $SCREEN"; false; }
  [[ $SCREEN != *EXIT=* ]] || { echo "fcopy ended before the resize: $SCREEN"; false; }
  # resize-window is tmux 2.9's; before it, resize-pane.
  if tmux -L "$SOCK" list-commands resize-window >/dev/null 2>&1; then
    tmux -L "$SOCK" resize-window -t "$SESSION" -x 200
  else
    tmux -L "$SOCK" resize-pane -t "$SESSION" -x 200
  fi
  assert_equal "$(tmux -L "$SOCK" display -p -t "$SESSION" '#{pane_width}')" 200 "the pane's width"
  wait_screen ", $LONG\$|EXIT=" 5 || { echo "no whole name 5 s after the resize; screen: $SCREEN"; false; }
  assert_equal "$(screen_lines)" 1 "non-empty lines after the resize (screen: $SCREEN)"
  (( $(cols "$SCREEN") > 79 )) || { echo "$(cols "$SCREEN") columns, not more than 79: $SCREEN"; false; }
  [[ $SCREEN =~ ^50%\ 10\ MiB\ of\ 20\ MiB,\ 1\ of\ 2\ files,\ .*,\ $LONG$ ]] || { echo "status line: $SCREEN"; false; }
}

# s/b waits 2 s: the line is on the screen when s/c's -v line comes, if
# not already at s/b's.
@test "tty: -v lines on the terminal start at column 0, whole" {
  make_pair
  make_random s/c 10M
  mkdir t
  pane_start 100 C.UTF-8 'copy_file_range:2:stall=2' -v --progress s/a s/b s/c t
  wait_screen 'files,' 10 || { echo "no status line after 10 s; screen: $SCREEN"; false; }
  wait_screen 'EXIT=' 15 || { echo "fcopy did not end in 15 s; screen: $SCREEN"; false; }
  local -a l
  mapfile -t l <<<"$SCREEN"
  assert_equal "${#l[@]}" 5 "non-empty lines at the end (screen: $SCREEN)"
  assert_equal "${l[0]}" "'s/a' -> 't/a'" "line 1 (screen: $SCREEN)"
  assert_equal "${l[1]}" "'s/b' -> 't/b'" "line 2 (screen: $SCREEN)"
  assert_equal "${l[2]}" "'s/c' -> 't/c'" "line 3 (screen: $SCREEN)"
  local re="^fcopy: 3 files, 30 MiB in [0-9]+\.[0-9] s, $RATE_RE\$"
  [[ ${l[3]} =~ $re ]] || { echo "summary: ${l[3]}"; false; }
  assert_equal "${l[4]}" EXIT=0 "the exit line"
}

@test "not a tty: --progress=always: a plain line at 5 s, then the summary" {
  make_pair
  local out=$BATS_TEST_TMPDIR/out err=$BATS_TEST_TMPDIR/err rc=0
  fcopy_timed 'copy_file_range:2:stall=6' -r --progress=always s t >"$out" 2>"$err" || rc=$?
  assert_equal "$rc" 0 "exit status (stderr: $(cat -A "$err"))"
  assert_equal "$(cat "$out")" "" "stdout"
  assert_equal "$(grep -c $'[\r\033]' "$err" || true)" 0 "lines with a CR or an ESC (stderr: $(cat -A "$err"))"
  local -a l
  mapfile -t l <"$err"
  assert_equal "${#l[@]}" 2 "lines on stderr (stderr: $(cat "$err"))"
  local re="^fcopy: 50% 10 MiB of 20 MiB, 1 of 2 files, $RATE_RE, $ETA_RE, $SECOND\$"
  [[ ${l[0]} =~ $re ]] || { echo "line at 5 s: ${l[0]}"; false; }
  re="^fcopy: 2 files, 20 MiB in [0-9]+\.[0-9] s, $RATE_RE\$"
  [[ ${l[1]} =~ $re ]] || { echo "summary: ${l[1]}"; false; }
  cmp s/b t/b
}

@test "not a tty: --progress and --progress=auto print nothing" {
  make_pair
  run --separate-stderr fcopy_timed 'copy_file_range:2:stall=2' -r --progress s t
  assert_status 0
  assert_stderr ""
  assert_equal "$output" "" "stdout"
  run --separate-stderr fcopy_timed 'copy_file_range:2:stall=2' -r --progress=auto s t2
  assert_status 0
  assert_stderr ""
  assert_equal "$output" "" "stdout"
  cmp s/b t2/b
}

@test "not a tty: --progress=always on a quick copy: the summary alone" {
  mkdir s
  make_random s/a 1024
  make_random s/b 1024
  run --separate-stderr fcopy_timed '' -r --progress=always s t
  assert_status 0
  assert_equal "$output" "" "stdout"
  assert_equal "${#stderr_lines[@]}" 1 "lines on stderr (stderr: $stderr)"
  local re="^fcopy: 2 files, 2\.0 KiB in [0-9]+\.[0-9] s, $RATE_RE\$"
  [[ $stderr =~ $re ]] || { echo "summary: $stderr"; false; }
}

@test "tty: --progress=never prints nothing, even for a slow copy" {
  make_pair
  pane_start 100 C.UTF-8 'copy_file_range:2:stall=2' -r --progress=never s t
  wait_screen 'EXIT=' 15 || { echo "fcopy did not end in 15 s; screen: $SCREEN"; false; }
  [[ -e $FCOPY_SHIM_STALLED ]] || { echo "the stall did not happen"; false; }
  assert_equal "$SCREEN" EXIT=0 "the screen"
}

@test "--progress=x is a usage error" {
  echo hi >a
  run --separate-stderr fcopy --progress=x a b
  assert_status 1
  assert_stderr "fcopy: invalid argument 'x' for '--progress'" \
    "Valid arguments are:" "  - 'auto'" "  - 'always'" "  - 'never'" "$TRY"
  assert_no_file b
}

@test "--progress changes neither stdout nor the exit status: --stats still counts" {
  make_pair
  run --separate-stderr fcopy_timed '' -r --progress=always --stats s t
  assert_status 0
  local stats=$output
  run --separate-stderr fcopy_timed '' -r --stats s t2
  assert_equal "$(grep -v '^seconds' <<<"$stats")" "$(grep -v '^seconds' <<<"$output")" "--stats with and without --progress"
  grep -qx 'files: 2' <<<"$stats" || { echo "stdout: $stats"; false; }
}

@test "tty: SIGUSR1 during the stall: its line on a line of its own" {
  make_pair
  pane_start 100 C.UTF-8 'copy_file_range:2:stall=3' -r --progress s t
  wait_screen 'files,' 10 || { echo "no status line after 10 s; screen: $SCREEN"; false; }
  [[ -s $PIDFILE ]] || { echo "no pid in $PIDFILE"; false; }
  kill -USR1 "$(<"$PIDFILE")"
  wait_screen 'EXIT=' 15 || { echo "fcopy did not end in 15 s; screen: $SCREEN"; false; }
  local re="^fcopy: [0-9]+ files, $SIZE_RE copied, 0 B shared, [0-9]+\.[0-9] s, $RATE_RE\$"
  grep -Eq -- "$re" <<<"$SCREEN" || { echo "no SIGUSR1 line alone on its line: $SCREEN"; false; }
  assert_equal "$(grep -c -- 'copied' <<<"$SCREEN")" 1 "lines with 'copied' (screen: $SCREEN)"
  assert_equal "$(grep -c -- ' of \|%\|ETA' <<<"$SCREEN" || true)" 0 "lines with status text (screen: $SCREEN)"
  re="^fcopy: 2 files, 20 MiB in [0-9]+\.[0-9] s, $RATE_RE\$"
  grep -Eq -- "$re" <<<"$SCREEN" || { echo "no summary: $SCREEN"; false; }
  assert_equal "$(tail -n 1 <<<"$SCREEN")" EXIT=0 "the exit line"
}
