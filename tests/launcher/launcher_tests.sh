#!/usr/bin/env bash
# Scenario tests of oshrun with real processes. One scenario per invocation:
#   OSHRUN=... PROBE=... launcher_tests.sh <scenario> [args]
# The PEs are pmix_probe, a plain PMIx client without the Shoal library (shoal_job_tests.sh
# runs real Shoal programs). launcher_lib.sh checks every run for leftovers.
# shellcheck source=tests/launcher/launcher_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/launcher_lib.sh"
: "${PROBE:?set PROBE to the pmix_probe binary}"

# The probe's fake library segment (made by PE $1) proves oshrun removed a file of its own
# namespace. Made by the PE that fails, as the others may be ended before they get to it.
expect_shm_made() { expect_out "^shm /dev/shm/shoal-oshrun-$OSH_PID-[0-9a-f]{32}-probe$1\$"; }

case "${1:-}" in
values)  # Job values and the Put/Fence/Get exchange at -np N.
  n=$2
  run_oshrun -np "$n" "$PROBE" out="$MARK" nspace on=0 shm
  expect_probe_ok "$n"
  expect_shm_made 0
  ;;

exit_status)  # The first failing PE's status; the others (sleeping) are ended at once.
  run_oshrun -np 3 "$PROBE" out="$MARK" on=1 shm exit=3 on=0 sleep=60 on=2 sleep=60
  expect_rc 3
  expect_err "^oshrun: PE 1 \(pid [0-9]+\) exited with status 3\$"
  expect_shm_made 1
  expect_faster 20000
  ;;

killed_by_signal)  # 128+signal, and a line naming the signal.
  run_oshrun -np 3 "$PROBE" out="$MARK" on=1 shm signal=11 on=all sleep=60
  expect_rc 139
  expect_err "^oshrun: PE 1 \(pid [0-9]+\) was killed by signal 11 \(Segmentation fault\)\$"
  expect_shm_made 1
  expect_faster 20000
  ;;

abort)  # PMIx_Abort: its message, its status, every PE ended.
  run_oshrun -np 4 "$PROBE" out="$MARK" on=3 shm msg="boom at 3" abort=7 on=all sleep=60
  expect_rc 7
  expect_err "^oshrun: PE 3 aborted the job: boom at 3\$"
  expect_shm_made 3
  expect_faster 20000
  ;;

abort_zero)  # shmem_global_exit(0): status 0, no message for an empty one.
  run_oshrun -np 3 "$PROBE" out="$MARK" on=1 abort=0 on=all sleep=60
  expect_rc 0
  expect_no_err "aborted"
  expect_faster 20000
  ;;

no_finalize)  # Exiting 0 after PMIx_Init without PMIx_Finalize fails the job quickly.
  run_oshrun -np 3 "$PROBE" out="$MARK" on=0 shm nofinalize on=all sleep=60
  expect_rc 1
  expect_err "^oshrun: PE 0 \(pid [0-9]+\) exited without calling shmem_finalize\$"
  expect_shm_made 0
  expect_faster 20000
  ;;

not_pmix)  # Programs that never talk to PMIx are fine when they exit 0.
  run_oshrun -np 2 true
  expect_rc 0
  [ ! -s "$ERR" ] || fail "unexpected stderr"
  run_oshrun -np 2 sh -c 'echo "pe $PMIX_RANK"'
  expect_rc 0
  expect_out '^pe 0$'
  expect_out '^pe 1$'
  run_oshrun -np 2 sh -c 'exit $((PMIX_RANK + 4))'
  [ "$RC" -eq 4 ] || [ "$RC" -eq 5 ] || fail "exit status $RC, expected 4 or 5"
  expect_err "^oshrun: PE [01] \(pid [0-9]+\) exited with status [45]\$"
  ;;

signal)  # A signal to oshrun reaches every PE; oshrun exits 128+signal.
  sig=$2
  start_oshrun 3 -np 3 "$PROBE" out="$MARK" on=0 shm on=all out=ready sleep=60
  signal_oshrun "$sig"
  expect_rc $((128 + $(kill -l "$sig")))
  expect_shm_made 0
  expect_faster 10000
  ;;

sigkill_escalation)  # A PE that ignores SIGTERM is killed about 2 s later.
  start_oshrun 2 -np 2 "$PROBE" out="$MARK" on=1 ignoreterm on=all out=ready sleep=60
  signal_oshrun TERM
  expect_rc 143
  [ "$MS" -ge 1500 ] || fail "PE killed after ${MS} ms, before the grace period"
  expect_faster 10000
  ;;

tag_output)  # --tag-output: every line of either stream carries its PE.
  run_oshrun -np 2 --tag-output "$PROBE" out="$MARK" on=1 out=hello err=oops
  expect_rc 0
  expect_out '^\[PE 0\] probe ok rank 0 of 2$'
  expect_out '^\[PE 1\] probe ok rank 1 of 2$'
  expect_out '^\[PE 1\] hello$'
  expect_err '^\[PE 1\] oops$'
  ! grep -vq '^\[PE [01]\] ' "$OUT" || fail "untagged stdout line"
  ;;

output_complete)  # Nothing is lost when PEs write a lot and exit at once.
  # Without tags bytes are forwarded as they come (lines of different PEs may mix), so count
  # bytes: the ok line, the mark line and 20000 spew lines of each of the 4 PEs.
  run_oshrun -np 4 "$PROBE" out="$MARK" spew=20000
  expect_rc 0
  want=$(awk -v mark="$MARK" 'BEGIN {
    for (k = 0; k < 20000; k++) s += length("spew rank 0 line " k) + 1
    print 4 * (s + length("probe ok rank 0 of 4") + 1 + length(mark) + 1) }')
  [ "$(wc -c <"$OUT")" -eq "$want" ] || fail "lost output: $(wc -c <"$OUT") bytes, expected $want"
  # With tags every line is whole and carries its own PE.
  run_oshrun -np 4 --tag-output "$PROBE" out="$MARK" spew=20000
  expect_rc 0
  [ "$(grep -c '^\[PE \([0-3]\)\] spew rank \1 line [0-9]*$' "$OUT")" -eq 80000 ] ||
    fail "lost or mixed tagged lines"
  ;;

export)  # -x VAR and -x VAR=value; a caller's PMIx identity does not leak into the PEs.
  export SHOAL_TEST_A=from-caller
  PMIX_NAMESPACE=bogus PMIX_SERVER_URI41=bogus PMIX_RANK=9 \
    run_oshrun -x SHOAL_TEST_A -x SHOAL_TEST_B=given -x SHOAL_TEST_C=a=b -x SHOAL_TEST_A_UNSET \
    "$PROBE" out="$MARK" env=SHOAL_TEST_A env=SHOAL_TEST_B env=SHOAL_TEST_C env=SHOAL_TEST_A_UNSET
  expect_rc 0
  expect_out '^env SHOAL_TEST_A=from-caller$'
  expect_out '^env SHOAL_TEST_B=given$'
  expect_out '^env SHOAL_TEST_C=a=b$'
  expect_out '^env SHOAL_TEST_A_UNSET unset$'
  expect_err 'SHOAL_TEST_A_UNSET is not set'
  ;;

stdin)  # oshrun's stdin reaches PE 0 only; its end is PE 0's end of input.
  printf 'line one\nline two\n' >"$WORK/in"
  IN=$WORK/in run_oshrun -np 2 --tag-output "$PROBE" out="$MARK" echo
  expect_rc 0
  expect_out '^\[PE 0\] line one$'
  expect_out '^\[PE 0\] line two$'
  expect_out '^\[PE 0\] stdin bytes 18$'
  expect_out '^\[PE 1\] stdin bytes 0$'
  # More than any pipe buffer, so that flow control matters.
  yes | head -c 3000000 >"$WORK/in"
  IN=$WORK/in run_oshrun -np 2 "$PROBE" out="$MARK" echo
  expect_rc 0
  expect_out '^stdin bytes 3000000$'
  expect_out '^stdin bytes 0$'
  [ "$(grep -c '^y$' "$OUT")" -eq 1500000 ] || fail "stdin data lost or changed"
  ;;

bad_program)  # Checked before forking: message and shell-like status.
  run_oshrun -np 2 ./does-not-exist
  expect_rc 127
  expect_err "^oshrun: cannot run './does-not-exist': No such file or directory\$"
  run_oshrun -np 2 no-such-command-shoal
  expect_rc 127
  expect_err "^oshrun: cannot run 'no-such-command-shoal': No such file or directory\$"
  printf '#!/bin/sh\n' >"$WORK/noexec"
  chmod 644 "$WORK/noexec"
  run_oshrun "$WORK/noexec"
  expect_rc 126
  expect_err "^oshrun: cannot run '$WORK/noexec': Permission denied\$"
  run_oshrun "$WORK"
  expect_rc 126
  expect_err "^oshrun: cannot run '$WORK': Is a directory\$"
  run_oshrun ""
  expect_rc 127
  expect_err "^oshrun: cannot run '': No such file or directory\$"
  # Found and executable, but the kernel cannot run it: each PE says why, and the job fails.
  printf '#!/nonexistent/shoal-interpreter\n' >"$WORK/badinterp"
  chmod 755 "$WORK/badinterp"
  run_oshrun -np 2 "$WORK/badinterp"
  expect_rc 127
  expect_err "^oshrun: exec of '$WORK/badinterp' failed: its interpreter or a library it needs was not found\$"
  expect_err "^oshrun: PE [01] \(pid [0-9]+\) exited with status 127\$"
  printf '\177ELF-not-really' >"$WORK/badelf"
  chmod 755 "$WORK/badelf"
  run_oshrun -np 2 "$WORK/badelf"
  expect_rc 126
  expect_err "^oshrun: exec of '$WORK/badelf' failed: Exec format error \(not a program this machine can run\)\$"
  ;;

stale_sweep)  # What a SIGKILLed oshrun left is removed by the next one; a live job's is not.
  stale=$TMPDIR/oshrun.999999.abcdef   # pids above pid_max: never a real process
  live=$TMPDIR/oshrun.999998.abcdef
  trap 'end_jobs; kill $holder 2>/dev/null; rm -rf "$WORK" /dev/shm/shoal-oshrun-99999[89]-x' EXIT
  mkdir -m 700 "$stale" "$live"
  touch "$stale/rendezvous" /dev/shm/shoal-oshrun-999999-x /dev/shm/shoal-oshrun-999998-x
  touch -d '5 minutes ago' "$stale" "$live"
  # A live job holds the lock on its directory: here a sleep that inherits the locked fd.
  (exec 9<"$live" && flock 9 && exec sleep 60) </dev/null >/dev/null 2>&1 &
  holder=$!
  for _ in $(seq 100); do flock -n "$live" true || break; sleep 0.05; done
  KEEP=oshrun.999998.abcdef run_oshrun true
  expect_rc 0
  [ ! -e "$stale" ] || fail "stale session directory not removed"
  [ ! -e /dev/shm/shoal-oshrun-999999-x ] || fail "stale segment not removed"
  [ -d "$live" ] || fail "live session directory removed"
  [ -e /dev/shm/shoal-oshrun-999998-x ] || fail "live job's segment removed"
  ;;

sysv_orphans)  # System V segments the PEs made and never attached are removed with the job.
  run_oshrun -np 2 ipcmk -M 4096
  expect_rc 0
  ids=$(sed -n 's/^Shared memory id: \([0-9]*\)$/\1/p' "$OUT")
  [ "$(wc -w <<<"$ids")" -eq 2 ] || fail "ipcmk did not make a segment in each PE"
  for id in $ids; do
    ! ipcs -m | awk -v id="$id" '$2 == id {found = 1} END {exit !found}' ||
      fail "segment $id outlived the job"
  done
  ;;

cli)  # --help, --version, shmemrun, bad usage, ignored Open MPI options, "--".
  run_oshrun --help
  expect_rc 0
  expect_out '^Usage: oshrun '
  run_oshrun --version
  expect_rc 0
  [ "$(cat "$OUT")" = "oshrun (Shoal) 0.1.0" ] || fail "wrong --version output"
  shmemrun=$(dirname "$OSHRUN")/shmemrun
  [ -x "$shmemrun" ] || fail "no shmemrun beside oshrun"
  "$shmemrun" --version | grep -qx "oshrun (Shoal) 0.1.0" || fail "shmemrun --version"
  run_oshrun --bogus "$PROBE"
  expect_rc 2
  expect_err "^oshrun: unknown option '--bogus'\$"
  expect_err '^Usage: '
  run_oshrun -np 2
  expect_rc 2
  expect_err "^oshrun: no program to run\$"
  for bad in 0 -3 abc 2x 65537; do
    run_oshrun -np "$bad" true
    expect_rc 2
    expect_err "^oshrun: invalid number of PEs '$bad' \(expected 1\.\.65536\)\$"
  done
  run_oshrun -np
  expect_rc 2
  expect_err "^oshrun: option '-np' needs a number of PEs\$"
  run_oshrun -x
  expect_rc 2
  expect_err "^oshrun: option '-x' needs VAR or VAR=value\$"
  run_oshrun -x 1BAD=v true
  expect_rc 2
  expect_err "^oshrun: invalid environment variable name in '-x 1BAD=v'\$"
  run_oshrun --bind-to socket true
  expect_rc 2
  expect_err "^oshrun: option '--bind-to' needs core, none or auto\$"
  run_oshrun -n 3 true
  expect_rc 0
  run_oshrun --allow-run-as-root --oversubscribe --np=2 -- sh -c 'echo "args: $*"' sh -np 5 -x
  expect_rc 0
  [ "$(grep -c '^args: -np 5 -x$' "$OUT")" -eq 2 ] || fail "program arguments not passed as given"
  ;;

binding)  # auto binds PE k to the k-th free CPU while the PEs fit, else none; core always.
  read_allowed_cpus
  cpus=("${CPUS[@]}")
  all=$(grep Cpus_allowed_list /proc/self/status | cut -f2)
  show='echo "pe $PMIX_RANK cpus $(grep Cpus_allowed_list /proc/self/status | cut -f2)"'
  fit=${#cpus[@]}
  crowd=$(( 2 * fit + 1 ))  # more PEs than CPUs, and not a multiple of them
  expect_round_robin() {
    expect_rc 0
    for (( k = 0; k < $1; k++ )); do expect_out "^pe $k cpus ${cpus[k % fit]}\$"; done
  }
  expect_unbound() {
    expect_rc 0
    [ "$(grep -c "^pe [0-9]* cpus $all\$" "$OUT")" -eq "$1" ] || fail "$2 bound a PE"
  }
  run_oshrun -np "$fit" sh -c "$show"
  expect_round_robin "$fit"
  run_oshrun --bind-to auto -np "$fit" sh -c "$show"
  expect_round_robin "$fit"
  run_oshrun --oversubscribe --bind-to core -np "$crowd" sh -c "$show"
  expect_round_robin "$crowd"
  run_oshrun --oversubscribe -np "$crowd" sh -c "$show"
  expect_unbound "$crowd" "auto with more PEs than CPUs"
  run_oshrun --bind-to none -np "$fit" sh -c "$show"
  expect_unbound "$fit" "--bind-to none"

  # Jobs side by side keep off each other's CPUs (launcher/cpu_claims.hpp); registered
  # RUN_SERIAL, so no other test's job holds CPUs meanwhile.
  (( fit >= 2 )) || exit 0
  last=$(( fit - 1 ))
  # A dead job's record (nobody holds its lock) counts for nothing and is removed.
  trap 'end_jobs; kill $holder 2>/dev/null; rm -rf "$WORK" /dev/shm/shoal-cpus.99999[89]' EXIT
  echo "${cpus[0]}" >/dev/shm/shoal-cpus.999999
  run_oshrun -np "$fit" sh -c "$show"
  expect_round_robin "$fit"
  [ ! -e /dev/shm/shoal-cpus.999999 ] || fail "a dead job's CPU record was not removed"
  # A live one (its lock held) keeps the next job off CPU 0.
  echo "${cpus[0]}" >/dev/shm/shoal-cpus.999998
  (exec 9</dev/shm/shoal-cpus.999998 && flock 9 && exec sleep 60) </dev/null >/dev/null 2>&1 &
  holder=$!
  for _ in $(seq 100); do flock -n /dev/shm/shoal-cpus.999998 true || break; sleep 0.05; done
  run_oshrun -np 1 sh -c "$show"
  expect_rc 0
  expect_out "^pe 0 cpus ${cpus[1]}\$"
  kill "$holder"
  wait "$holder" 2>/dev/null
  # A running oshrun job on all CPUs but the last: the next job's PE takes the last; two PEs do
  # not fit, so auto leaves them free, and core binds to the free CPU first, then round robin.
  release=$WORK/release
  mkdir "$WORK/tmp2"  # its session directory, apart from those check_clean expects gone
  TMPDIR=$WORK/tmp2 start_oshrun "$last" -np "$last" sh -c \
    "$show; echo ready; while [ ! -e $release ]; do sleep 0.05; done"
  holding=$OSH_PID
  for (( k = 0; k < last; k++ )); do expect_out "^pe $k cpus ${cpus[k]}\$"; done
  [ "$(cat "/dev/shm/shoal-cpus.$holding")" = "$(IFS=,; echo "${cpus[*]:0:last}")" ] ||
    fail "the running job's record does not list its CPUs"
  run_oshrun -np 1 sh -c "$show"
  expect_rc 0
  expect_out "^pe 0 cpus ${cpus[last]}\$"
  run_oshrun -np 2 sh -c "$show"
  expect_unbound 2 "auto with more PEs than free CPUs"
  run_oshrun --bind-to core -np 2 sh -c "$show"
  expect_rc 0
  expect_out "^pe 0 cpus ${cpus[last]}\$"
  expect_out "^pe 1 cpus ${cpus[0]}\$"
  touch "$release"
  OSH_PID=$holding
  wait_oshrun
  expect_rc 0
  check_clean
  [ -z "$(ls -A "$WORK/tmp2")" ] || fail "the running job left its session directory"
  ;;

*)
  echo "unknown scenario '${1:-}'" >&2
  exit 2
  ;;
esac
echo "PASS: $*"
