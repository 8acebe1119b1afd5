#!/usr/bin/env bash
# Runs error_after_start (PE 0 makes a bad call right after start-up) <runs> times on 2 hosts of
# the test bed, one PE on each, through run_multihost.sh. Every job must end with a non-zero
# status and Shoal's message naming the routine and the PE, no PE may go on, and no PE may die
# of a UCX assertion ("got REP message", with a backtrace): before start-up completed the
# connection handshakes (core/runtime.cpp, Runtime::fence_completing_handshakes), 2 of 10 to 7 of
# 12 such jobs did, as the PE of the other host purged a connection reply still queued for PE 0.
# One job would catch that a fifth to half of the time, hence several; each takes about 4 s,
# most of it mpirun's.
#
#   error_after_start.sh <runs> <error_after_start program>
#
# Exits 77 (skipped), saying why, where run_multihost.sh cannot make the bed.
set -uo pipefail
runs=${1:?usage: $0 <runs> <program>} program=${2:?usage: $0 <runs> <program>}
driver=$(dirname "${BASH_SOURCE[0]}")/run_multihost.sh
output=$(mktemp /tmp/shoal-error-after-start.XXXXXX)
trap 'rm -f "$output"' EXIT

for ((run = 1; run <= runs; ++run)); do
  "$driver" 2 1 "$program" >"$output" 2>&1
  rc=$?
  [[ $rc -eq 77 ]] && { cat "$output"; exit 77; }
  why=""
  if [[ $rc -eq 0 ]]; then
    why="the job exited 0"
  elif ! grep -Eq "pe 0\] error: shmem_long_p: PE 5 is out of range: this job has PEs 0 to 1" "$output"; then
    why="no message of Shoal's naming shmem_long_p and PE 5"
  elif grep -Eq "UNREACHABLE" "$output"; then
    why="a PE went on"
  elif grep -Eq "Assertion|backtrace|Fatal" "$output"; then
    why="a PE died of UCX's own error"
  fi
  if [[ -n "$why" ]]; then
    echo "FAILED in run $run of $runs (status $rc): $why; the job's output:"
    cat "$output"
    exit 1
  fi
done
echo "PASS: $runs jobs ended on PE 0's error, each with its message and nothing else"
