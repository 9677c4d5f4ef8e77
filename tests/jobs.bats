#!/usr/bin/env bats
# jobs.bats -- --jobs=N: the regular files of a tree copied by N threads.
# The copy must be the one fcopy makes without --jobs and the one GNU cp
# makes (types, bytes, holes, modes, owners, times to the nanosecond of
# files and of directories, hard-link groups, xattrs and ACLs: cpdiff's
# snapshot), whatever order the copies end in; a failure is reported once
# and the other files are copied; -v lines and messages come out in the
# walk's order, as with one thread; -i copies one file after the other;
# --atomic leaves no temporary, also after a signal.  Without --jobs=N,
# the threads start on a tree of more than 64 files, and not before.

load helpers
load cpdiff

setup_file ()
{
  need_cmd python3 setfattr setfacl timeout
  [[ -x $CPDIFF_CP ]] || skip_or_fail "no reference cp at $CPDIFF_CP"
  # fcopy --jobs=4 under the name cpdiff's run_both gives it, "fcopy".
  JOBS4=$BATS_FILE_TMPDIR/fcopy-jobs4
  printf '#!/bin/bash\nexec -a fcopy %q --jobs=4 "$@"\n' "$FCOPY" >"$JOBS4"
  chmod +x "$JOBS4"
  export JOBS4
}

# setup: cpdiff.bash's (a directory of the test's own, umask 022).

# ---------------------------------------------------------------------------
# The tree

# make_jobs_tree DIR: make_tree's one of everything cp meets, and around
# it work for the threads: directories three levels deep with 150 small
# files each, two files of ~4 MiB, a 64 MiB file with three data blocks,
# a hard link from one directory to another, a read-only (0555) and a
# 0500 directory full of files, modes 4755 and 0; nanosecond times, with
# atimes in the future as make_tree's (reading leaves them be).  Made
# once per file and copied (cp -a), as make_tree is.
make_jobs_tree ()
{
  local cache=$BATS_FILE_TMPDIR/jobs-tree.$EUID tmp
  if [[ ! -d $cache ]]; then
    tmp=$(mktemp -d "$cache.XXXX") || return 1
    make_tree "$tmp/t" || return 1
    # strictly: errexit, which _make_jobs_tree's subshell relies on, is
    # off in a call from an || list.
    strictly _make_jobs_tree "$tmp/t" || return 1
    mv -T "$tmp/t" "$cache" 2>/dev/null || [[ -d $cache ]] || return 1
    rm -rf "$tmp"
  fi
  mkdir -p -- "$1" && cp -a -- "$cache/." "$1" && chmod 0 -- "$1/mode0"
}

_make_jobs_tree ()
{
  (
    set -e
    cd -- "$1"
    umask 022
    local d i
    for d in many many/a many/a/b many/a/b/c many/d many/e ro rx; do
      mkdir -p "$d"
      for (( i = 1; i <= 150; i++ )); do
        printf '%s/f%d\n' "$d" "$i" >"$d/f$i"
      done
    done
    seq 1 600000 >big1
    seq 600000 1200000 >many/a/big2
    truncate -s 64M many/sparse
    for i in 3 300 9000; do
      printf 'block %d\n' "$i" | dd of=many/sparse bs=4096 seek="$i" \
        conv=notrunc status=none
    done
    ln many/a/f1 many/d/link-to-a-f1
    chmod 4755 many/d/f3
    chmod 0 many/e/f77
    chmod 0555 ro
    chmod 0500 rx
    find many ro rx big1 -depth -exec touch -h -d '2003-04-05 06:07:08.987654321 UTC' {} +
    find many ro rx big1 -type f -exec touch -a -d '2099-01-02 03:04:05.5 UTC' {} +
    touch -h -d '2001-02-03 04:05:06.123456789 UTC' .
  )
}

# snapshot_to DIR FILE: snapshot DIR into FILE; fail if the snapshot
# fails or is empty (a <(snapshot) hides both, and two empty listings
# compare equal).
snapshot_to ()
{
  snapshot "$1" >"$2" || { echo "snapshot of $1 failed" >&2; return 1; }
  [[ -s $2 ]] || { echo "snapshot of $1 is empty" >&2; return 1; }
}

# same_copies A B: snapshots of the trees A and B are the same.
same_copies ()
{
  local s=$BATS_TEST_TMPDIR/snap.$$
  snapshot_to "$1" "$s.a" || return 1
  snapshot_to "$2" "$s.b" || return 1
  diff -u "$s.a" "$s.b" >&2
}

# fcopy_without_dac ARG...: fcopy, unable to read a file its mode forbids
# even as root (no CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH).
fcopy_without_dac ()
{
  if [[ $EUID -eq 0 ]]; then
    setpriv --bounding-set=-dac_override,-dac_read_search -- \
      bash -c 'exec -a fcopy "$0" "$@"' "$FCOPY" "$@"
  else
    fcopy "$@"
  fi
}

# same_but ONE FOUR NAME: the trees ONE and FOUR are the same but for the
# file NAME (and the hard links of other names to it).
same_but ()
{
  local s=$BATS_TEST_TMPDIR/snap.$$ side
  snapshot_to "$1" "$s.a" || return 1
  snapshot_to "$2" "$s.b" || return 1
  for side in a b; do
    grep -v -F -- "$3 " "$s.$side" | sed 's/ ino=[^ ]*//; s/ nlink=[0-9]*//' \
      >"$s.$side.but" || return 1
  done
  diff -u "$s.a.but" "$s.b.but" >&2
}

# ---------------------------------------------------------------------------
# The option

@test "--jobs=0, x, -1, empty, AUTO or above 1024: usage errors" {
  local arg
  for arg in 0 x -1 '' 2x AUTO auto2; do
    run --separate-stderr fcopy --jobs="$arg" a b
    assert_status 1
    assert_stderr "fcopy: invalid --jobs '$arg'" \
                  "Try 'fcopy --help' for more information."
  done
  run --separate-stderr fcopy --jobs=1025 a b
  assert_status 1
  assert_stderr "fcopy: invalid --jobs '1025': Value too large for defined data type" \
                "Try 'fcopy --help' for more information."
  run --separate-stderr fcopy a b --jobs
  assert_status 1
  assert_stderr "fcopy: option '--jobs' requires an argument" \
                "Try 'fcopy --help' for more information."
}

@test "--jobs=1 and more jobs than CPUs copy a file; --jobs appears in --help" {
  printf 'one\n' >a
  fcopy --jobs=1 a b
  fcopy --jobs=64 a c
  fcopy --jobs=1024 -r --jobs=3 a d
  fcopy --jobs=3 --jobs=auto a e
  cmp a b
  cmp a c
  cmp a d
  cmp a e
  run fcopy --help
  [[ $output == *"--jobs=N"* ]]
}

# ---------------------------------------------------------------------------
# The same copy

@test "-a --jobs=4 and --jobs=2: the same tree as -a --jobs=1" {
  make_jobs_tree src
  fcopy -a --jobs=1 src one
  fcopy -a --jobs=4 src four
  fcopy -a --jobs=2 src two
  same_copies one four
  same_copies one two
  # Each directory's time is the source's: none was changed by a file
  # made in it after its metadata.
  [[ $(stat -c %y four/many/a/b) == "2003-04-05 06:07:08.987654321 +0000" ]]
  [[ $(stat -c %a four/ro) == 555 ]]
  [[ $(stat -c %a four/rx) == 500 ]]
}

@test "--jobs=4 against cp: -a, -r, -rp, -a --no-preserve=mode, into an existing tree" {
  scene () { make_jobs_tree src; }
  CPDIFF_FCOPY=$JOBS4 CPDIFF_TIMEOUT=60 run_both_tree -a src new
  CPDIFF_FCOPY=$JOBS4 CPDIFF_TIMEOUT=60 run_both_tree -r src new
  CPDIFF_FCOPY=$JOBS4 CPDIFF_TIMEOUT=60 run_both_tree -rp src new
  CPDIFF_FCOPY=$JOBS4 CPDIFF_TIMEOUT=60 run_both_tree -a --no-preserve=mode src new
  scene () { make_jobs_tree src && make_tree dst; }
  CPDIFF_FCOPY=$JOBS4 CPDIFF_TIMEOUT=60 run_both_tree -a src/. dst
}

@test "--jobs=4 against cp: -rL, -aH, --sparse=always, --attributes-only, --backup" {
  scene () { make_jobs_tree src; }
  CPDIFF_FCOPY=$JOBS4 CPDIFF_TIMEOUT=60 run_both_tree -rL src new
  CPDIFF_FCOPY=$JOBS4 CPDIFF_TIMEOUT=60 run_both_tree -aH src new
  CPDIFF_FCOPY=$JOBS4 CPDIFF_TIMEOUT=60 CPDIFF_BLOCKS=1 \
    run_both_tree -a --sparse=always src new
  scene () { make_jobs_tree src && make_tree dst; }
  CPDIFF_FCOPY=$JOBS4 CPDIFF_TIMEOUT=60 run_both_tree -r --attributes-only src/. dst
  CPDIFF_FCOPY=$JOBS4 CPDIFF_TIMEOUT=60 run_both_tree -a --backup=numbered src/. dst
}

# update_both OPTS...: fcopy OPTS --jobs=1 src/. one and fcopy OPTS
# --jobs=4 src/. four: the same -v lines in the same order, the same
# trees.
update_both ()
{
  run --separate-stderr fcopy "$@" --jobs=1 src/. one
  assert_status 0
  local out1=$output
  run --separate-stderr fcopy "$@" --jobs=4 src/. four
  assert_status 0
  assert_equal "${output//four/one}" "$out1" "-v lines"
  same_copies one four
}

@test "-u --jobs=4 over an older copy: what -u alone does, hard links too" {
  make_jobs_tree src
  local opts
  # -a keeps hard links; -rp does not, and -u then links the names of a
  # file that it keeps to the first (as cp).
  for opts in -a -rp; do
    rm -rf one four
    fcopy $opts --jobs=1 src one
    fcopy $opts --jobs=1 src four
    # Older copies of some files, newer of others, one missing.
    touch -d '1999-01-01 UTC' one/many/a/f5 four/many/a/f5 one/reg four/reg
    printf 'newer\n' | tee one/many/d/f9 >four/many/d/f9
    touch -d '2099-01-01 UTC' one/many/d/f9 four/many/d/f9
    rm one/many/e/f1 four/many/e/f1
    update_both ${opts}uv
    [[ $(cat four/many/d/f9) == newer ]]
  done
  [[ $output == *"removed 'four/./"* ]]
}

@test "several operands into one directory: --update=none-fail keeps the first's files; whole messages" {
  make_jobs_tree a
  make_jobs_tree b
  mkdir x1 x2 one
  mv a x1/t
  mv b x2/t
  run --separate-stderr fcopy -r --update=none-fail --jobs=1 x1/t x2/t one
  local err1=$stderr status1=$status try torn
  assert_status 1
  # Some 1200 messages from four threads at once, three times: each
  # whole, on a line of its own, in the order of one thread's.
  for try in 1 2 3; do
    rm -rf four
    mkdir four
    run --separate-stderr fcopy -r --update=none-fail --jobs=4 x1/t x2/t four
    assert_status "$status1"
    assert_equal "${stderr//four/one}" "$err1" stderr
    torn=$( (grep -v "^fcopy: not replacing 'four/t/.*'$" \
               <<<"$stderr"; grep "fcopy: .*fcopy: " <<<"$stderr") || true)
    [[ -z $torn ]] || { echo "messages not whole: $torn" >&2; false; }
  done
  [[ $stderr == *"not replacing 'four/t/big1'"* ]]
  CPDIFF_TIMES=0 same_copies one four
  cmp x1/t/big1 four/t/big1
}

# ---------------------------------------------------------------------------
# Failures, output

@test "an unreadable file in the middle: one message, exit 1, the rest copied" {
  [[ $EUID -ne 0 ]] || need_cmd setpriv
  make_jobs_tree src
  run --separate-stderr fcopy_without_dac -a --jobs=1 src one
  assert_status 1
  local err1=$stderr
  run --separate-stderr fcopy_without_dac -a --jobs=4 src four
  assert_status 1
  # mode0 (make_tree's) and many/e/f77: one line each, in the walk's
  # order.
  assert_equal "${stderr//four/one}" "$err1" stderr
  assert_equal "$(grep -c "cannot open 'src/many/e/f77' for reading: Permission denied" <<<"$stderr")" 1
  assert_equal "$(wc -l <<<"$stderr")" 2 "lines of stderr"
  same_copies one four
  cmp src/many/e/f76 four/many/e/f76
  cmp src/many/e/f78 four/many/e/f78
}

@test "a write that fails in a worker: one message, exit 1, the other files copied" {
  need_shim
  make_jobs_tree src
  # The 40th data copy of the run, whichever thread makes it.
  run --separate-stderr fcopy_fault copy_file_range:40:EIO -a --jobs=4 src four
  assert_status 1
  [[ $(wc -l <<<"$stderr") -eq 1 ]]
  [[ $stderr == "fcopy: error copying 'src/"*"' to 'four/"*"': Input/output error" ]]
  fcopy -a --jobs=1 src one
  # Only the file named in the message differs.
  local bad=${stderr#*\' to \'four/}
  bad=${bad%%\'*}
  same_but one four "$bad"
}

@test "-v --jobs=4 prints the lines of -v --jobs=1, in their order, messages among them" {
  [[ $EUID -ne 0 ]] || need_cmd setpriv
  make_jobs_tree src
  # Big files first in their directories, small ones after: the copies
  # end in another order than the walk's.
  seq 1 3000000 >src/many/a/b/c/a-big
  seq 1 3000000 >src/many/a/b/a-big
  run --separate-stderr fcopy_without_dac -av --jobs=1 src one
  assert_status 1
  local out1=$output err1=$stderr
  run --separate-stderr fcopy_without_dac -av --jobs=4 src four
  assert_status 1
  assert_equal "${output//four/one}" "$out1" "-v lines"
  assert_equal "${stderr//four/one}" "$err1" "messages"
  [[ $(wc -l <<<"$output") -gt 1000 ]]
  # One stream: each message after the line of the file before it.
  fcopy_without_dac -av --jobs=1 src one1 >one.all 2>&1 || true
  fcopy_without_dac -av --jobs=4 src four1 >four.all 2>&1 || true
  diff -u one.all <(sed 's/four1/one1/g' four.all) >&2
  grep -q "f77' for reading" four.all
  run --separate-stderr fcopy -a --debug --jobs=1 src debug1
  out1=$output
  run --separate-stderr fcopy -a --debug --jobs=4 src debug4
  assert_status 0
  assert_equal "${output//debug4/debug1}" "$out1" "--debug lines"
}

@test "without --jobs: one thread for a small tree; threads once it passes 64 files, the same output" {
  need_cmd strace
  [[ $EUID -ne 0 ]] || need_cmd setpriv
  # One thread a CPU, at most 4: the walk's and the workers (none on one
  # CPU).
  local want=$(( $(nproc) < 4 ? $(nproc) - 1 : 3 ))
  # 64 files to copy before the threads start (JOBS_AUTO_AFTER).
  mkdir small
  for (( n = 1; n <= 63; n++ )); do echo $n >small/f$n; done
  strace -f -qq -e trace=clone,clone3 -o small.trace "$FCOPY" -a small small2
  [[ ! -s small.trace ]] || { cat small.trace >&2; false; }
  echo 64 >small/f64
  strace -f -qq -e trace=clone,clone3 -o small.trace "$FCOPY" -a small small3
  assert_equal "$(grep -c clone small.trace)" "$want" "threads started"
  fcopy -a --jobs=1 small small4
  # Reading a file may change its atime (relatime): not compared.
  CPDIFF_TIMES=0 same_copies small4 small3
  make_jobs_tree src
  strace -f -qq -e trace=clone,clone3 -o big.trace "$FCOPY" -a src traced
  assert_equal "$(grep -c clone big.trace)" "$want" "threads started"
  # The same run, untraced: what one thread prints.
  fcopy_without_dac -av src autocopy >auto.out 2>auto.err || true
  fcopy_without_dac -av --jobs=1 src one >one.out 2>one.err || true
  diff -u one.out <(sed "s/autocopy/one/g" auto.out) >&2
  diff -u one.err <(sed "s/autocopy/one/g" auto.err) >&2
  grep -q "f77' for reading" auto.err
  same_copies one autocopy
}

@test "-i --jobs=4 asks and copies one file after the other, as -i alone" {
  make_jobs_tree src
  fcopy -a --jobs=1 src one
  fcopy -a --jobs=1 src four
  # Copies emptied, so that the ones overwritten show.
  find one four -type f -exec truncate -s 0 {} +
  # Answers in turn: yes, no, yes, no...
  yes $'y\nn' | head -n 2000 >answers
  run --separate-stderr fcopy -ri src/many one <answers
  local err1=$stderr status1=$status
  run --separate-stderr fcopy -ri --jobs=4 src/many four <answers
  assert_status "$status1"
  assert_equal "${stderr//four/one}" "$err1" "prompts, in order"
  [[ $(grep -o 'overwrite' <<<"$stderr" | wc -l) -gt 900 ]]
  CPDIFF_TIMES=0 same_copies one four
}

# ---------------------------------------------------------------------------
# --atomic

@test "--atomic --jobs=4: the same tree, no temporary left; also named temporaries" {
  need_shim
  make_jobs_tree src
  fcopy -a src one
  fcopy -a --atomic --jobs=4 src four
  same_copies one four
  # Without O_TMPFILE each temporary has a name from the start.
  fcopy_fault 'tmpfile:*:EOPNOTSUPP' -a --atomic --jobs=4 src named
  same_copies one named
  # Over an existing copy: every file replaced by a temporary renamed.
  fcopy_fault 'tmpfile:*:EOPNOTSUPP' -a --atomic --jobs=4 src/. one
  same_copies four one
  [[ -z $(find one four named -name '.fcopy-*') ]]
}

@test "--atomic --jobs=4: SIGTERM and SIGINT while workers hold named temporaries: none left" {
  need_shim
  make_jobs_tree src
  local spec sig rc pid i
  for spec in copy_file_range:30:stall futimens:200:stall fchmod:500:stall; do
    for sig in TERM INT; do
      rm -rf dst stalled
      env --default-signal=INT,HUP,TERM LD_PRELOAD="$FAULT_SHIM" \
        FCOPY_FAULT="tmpfile:*:EOPNOTSUPP,$spec" \
        FCOPY_SHIM_STALLED=$PWD/stalled "$FCOPY" -a --atomic --jobs=4 src dst &
      pid=$!
      for (( i = 0; i < 1000; i++ )); do [[ ! -e stalled ]] || break; sleep 0.01; done
      [[ -e stalled ]] || { kill -KILL "$pid"; echo "$spec: never stalled"; false; }
      kill -s "$sig" "$pid"
      rc=0
      wait_dead "$pid" 10 || rc=$?
      assert_equal "$rc" $((128 + $(kill -l "$sig"))) "$spec $sig: exit status"
      [[ -z $(find dst -name '.fcopy-*') ]] ||
        { echo "$spec $sig: temporaries left"; find dst -name '.fcopy-*'; false; }
    done
  done
}

@test "--atomic --backup --jobs=4: a signal while an old backup is replaced leaves no temporary" {
  need_shim
  make_jobs_tree src
  fcopy -a src dst
  # Backups made once: from now on each is replaced through a temporary
  # second name of the old file, renamed over the old backup.
  fcopy -a --atomic --backup src/. dst
  local n rc pid i
  for n in 1 5 40; do
    rm -f stalled
    # The first renameat of a file replaces its backup: a worker stalls
    # there with that name made, its signals blocked; another thread
    # takes the signal.
    env --default-signal=TERM LD_PRELOAD="$FAULT_SHIM" FCOPY_FAULT="renameat:$n:stall" \
      FCOPY_SHIM_STALLED=$PWD/stalled "$FCOPY" -a --atomic --backup --jobs=4 src/. dst &
    pid=$!
    for (( i = 0; i < 1000; i++ )); do [[ ! -e stalled ]] || break; sleep 0.01; done
    [[ -e stalled ]] || { kill -KILL "$pid"; echo "renameat $n: never stalled"; false; }
    kill -TERM "$pid"
    rc=0
    wait_dead "$pid" 10 || rc=$?
    assert_equal "$rc" 143 "renameat $n: exit status"
    [[ -z $(find dst -name '.fcopy-*') ]] ||
      { echo "renameat $n: temporaries left"; find dst -name '.fcopy-*'; false; }
  done
}
