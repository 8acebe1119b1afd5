# shellcheck shell=bash
# Shared by the launcher scenario scripts (sourced, not run): a private work directory that is
# also oshrun's TMPDIR, running oshrun with its output captured, expectations on the result,
# and the check that a job left nothing behind.
#
# Every run of oshrun is checked for leftovers when it exits: its session directory under
# $TMPDIR, its directory for UCX's files /dev/shm/oshrun.<pid>.*, /dev/shm/shoal-oshrun-<pid>-*,
# its record of bound CPUs /dev/shm/shoal-cpus.<pid>,
# every shared-memory object its PEs were seen to map (note_job_memory), and any process
# carrying this run's unique $MARK in its arguments.
set -u
ulimit -c 0  # PEs killed by SIGSEGV must not spend seconds writing cores

: "${OSHRUN:?set OSHRUN to the oshrun binary}"

WORK=$(mktemp -d /tmp/oshrun-test.XXXXXX)
OSH_PIDS=()  # oshruns started (started_oshrun) and not yet reaped: the EXIT trap ends them

# A scenario that fails while its PEs wait (for a file, in a barrier) must not leave the job
# running: oshrun gets SIGTERM (so it cleans up), then SIGKILL (its PEs die with it).
end_jobs() {
  local pid
  for pid in "${OSH_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  for pid in "${OSH_PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
  done
}
trap 'end_jobs; rm -rf "$WORK"' EXIT
export TMPDIR=$WORK/tmp  # oshrun's session directory must appear (and vanish) here only
mkdir "$TMPDIR"
OUT=$WORK/out
ERR=$WORK/err
# Unique text in the PEs' arguments, to find any of them left running.
MARK=mark-$$-$RANDOM
JOB_SHM=()   # /dev/shm objects the job's PEs mapped (note_job_memory)
JOB_SYSV=()  # System V segment ids they attached

# Sets LISTED to the CPUs of a list such as "0-3,6" (the kernel's format).
expand_cpu_list() {
  local ranges r c
  LISTED=()
  IFS=, read -r -a ranges <<<"$1"
  for r in "${ranges[@]}"; do
    for (( c = ${r%-*}; c <= ${r#*-}; c++ )); do LISTED+=("$c"); done
  done
}

# Sets CPUS to the CPUs this shell (and so oshrun) may use, in the order oshrun binds PEs to
# them (launcher/cpu_topology.hpp): the first hardware thread of every core, then the second
# ones. Without SMT, in numeric order.
read_allowed_cpus() {
  local cpu thread
  expand_cpu_list "$(grep Cpus_allowed_list /proc/self/status | cut -f2)"
  mapfile -t CPUS < <(for cpu in "${LISTED[@]}"; do
    expand_cpu_list "$(cat "/sys/devices/system/cpu/cpu$cpu/topology/thread_siblings_list" \
                       2>/dev/null || echo "$cpu")"
    for (( thread = 0; thread < ${#LISTED[@]}; thread++ )); do
      [ "${LISTED[thread]}" = "$cpu" ] && break
    done
    (( thread < ${#LISTED[@]} )) || thread=0
    echo "$thread $cpu"
  done | sort -s -n -k1,1 | cut -d' ' -f2)
}

fail() {
  echo "FAIL: $*" >&2
  echo "--- stdout of oshrun:" >&2
  head -n 50 "$OUT" >&2 2>/dev/null
  echo "--- stderr of oshrun:" >&2
  head -n 50 "$ERR" >&2 2>/dev/null
  exit 1
}

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# The processes of this run's PEs (oshrun itself excluded).
# Ends a scenario that cannot run here as skipped (CTest: SKIP_RETURN_CODE 77).
skip() {
  echo "SKIP: $*"
  exit 77
}
job_pids() { pgrep -f -- "$MARK" | grep -vx "${OSH_PID:-0}"; }
# The running job's PMIx namespace, from the environment oshrun gave a PE.
job_nspace() {
  local pid
  for pid in $(job_pids); do
    tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | sed -n 's/^PMIX_NAMESPACE=//p' | grep . && return
  done
  return 1
}

# Records the shared memory the running PEs map (from /proc/<pid>/maps: path, or "SYSV" and the
# segment id in the inode column), so check_clean can tell that it went away with them.
note_job_memory() {
  local pid maps
  for pid in $(job_pids); do
    maps=$(cat "/proc/$pid/maps" 2>/dev/null) || continue
    while read -r path; do JOB_SHM+=("$path"); done < <(
      awk '$6 ~ /^\/dev\/shm\// {print $6}' <<<"$maps" | sort -u)
    while read -r id; do JOB_SYSV+=("$id"); done < <(
      awk '$6 ~ /^\/SYSV/ {print $5}' <<<"$maps" | sort -u)
  done
}

check_clean() {
  local left path id
  left=$(ls -A "$TMPDIR" | grep -vxF -e "${KEEP:-}")
  [ -z "$left" ] || fail "left in TMPDIR: $left"
  left=$(compgen -G "/dev/shm/shoal-oshrun-$OSH_PID-*" "/dev/shm/oshrun.$OSH_PID.*" \
    "/dev/shm/shoal-cpus.$OSH_PID")
  [ -z "$left" ] || fail "left in /dev/shm: $left"
  if pgrep -f -- "$MARK" >/dev/null; then
    fail "PEs still running after oshrun exited: $(pgrep -a -f -- "$MARK")"
  fi
  for path in "${JOB_SHM[@]}"; do
    [ ! -e "$path" ] || fail "shared memory $path of the job outlived it"
  done
  # A segment goes when the last process detaches, in that process's exit, which a loaded
  # machine (sanitizer builds, -j4) may not have finished when oshrun reports the job over:
  # give it up to 5 s, far less than a leaked segment would last.
  local tries=50
  while :; do
    left=""
    [ ${#JOB_SYSV[@]} -eq 0 ] || left=$(ipcs -m | awk 'NR == FNR {job[$1]; next} $2 in job {print $2}' \
      <(printf '%s\n' "${JOB_SYSV[@]}") -)
    [ -n "$left" ] && [ $((tries -= 1)) -gt 0 ] || break
    sleep 0.1
  done
  [ -z "$left" ] || fail "System V segments of the job outlived it: $(echo $left)"
}

# Records the oshrun just started in the background ($!) as OSH_PID.
started_oshrun() {
  OSH_PID=$1
  OSH_PIDS+=("$1")
}

# Forgets a reaped oshrun: its pid may now be reused by an unrelated process.
reaped_oshrun() {
  local pid kept=()
  for pid in "${OSH_PIDS[@]}"; do [ "$pid" = "$1" ] || kept+=("$pid"); done
  OSH_PIDS=("${kept[@]}")
}

# Waits for the background oshrun $OSH_PID and sets RC and END_MS. A job still running after
# JOB_LIMIT seconds is a hang: it is killed (its PEs die with it) and the scenario fails, rather
# than leaving processes behind when CTest's timeout ends the script.
JOB_LIMIT=60
wait_oshrun() {
  local deadline=$(( $(now_ms) + JOB_LIMIT * 1000 ))
  while kill -0 "$OSH_PID" 2>/dev/null && [ "$(now_ms)" -lt "$deadline" ]; do sleep 0.05; done
  if kill -0 "$OSH_PID" 2>/dev/null; then
    kill -KILL "$OSH_PID"
    wait "$OSH_PID"
    reaped_oshrun "$OSH_PID"
    fail "the job did not end within $JOB_LIMIT s"
  fi
  wait "$OSH_PID"
  RC=$?
  END_MS=$(now_ms)
  reaped_oshrun "$OSH_PID"
  expect_no_sanitizer_report
}

# A report of a sanitizer (the asan and tsan test presets) fails the scenario, even one whose
# job is meant to fail. SANITIZER_REPORT: tests/cmake/sanitizer_report.cmake's pattern.
expect_no_sanitizer_report() {
  [ -z "${SANITIZER_REPORT:-}" ] || ! grep -Eq -- "$SANITIZER_REPORT" "$OUT" "$ERR" ||
    fail "a sanitizer reported a problem (see the output)"
}

# Sets OSH_PID, RC and MS (duration). Input from $IN (default /dev/null).
run_oshrun() {
  local start
  start=$(now_ms)
  "$OSHRUN" "$@" <"${IN:-/dev/null}" >"$OUT" 2>"$ERR" &
  started_oshrun $!
  wait_oshrun
  MS=$(( END_MS - start ))
  check_clean
}

# Starts oshrun in the background (SIG_DFL for INT, which bash would make it ignore) and
# waits until `n` lines of its stdout start with "ready".
start_oshrun() {
  local n=$1
  shift
  env --default-signal=INT "$OSHRUN" "$@" </dev/null >"$OUT" 2>"$ERR" &
  started_oshrun $!
  for _ in $(seq 600); do
    [ "$(grep -c '^ready' "$OUT")" -ge "$n" ] && return 0
    kill -0 "$OSH_PID" 2>/dev/null || fail "oshrun ended before the PEs were all ready"
    sleep 0.1
  done
  kill -KILL "$OSH_PID"
  fail "the PEs did not all start within 60 s"
}

# Sends `sig` to the oshrun of start_oshrun and waits for it; sets RC and MS (from the signal).
signal_oshrun() {
  local start
  start=$(now_ms)
  kill -s "$1" "$OSH_PID"
  wait_oshrun
  MS=$(( END_MS - start ))
  check_clean
}

expect_rc() { [ "$RC" -eq "$1" ] || fail "exit status $RC, expected $1"; }
expect_out() { grep -Eq -- "$1" "$OUT" || fail "stdout lacks /$1/"; }
expect_err() { grep -Eq -- "$1" "$ERR" || fail "stderr lacks /$1/"; }
expect_no_out() { ! grep -Eq -- "$1" "$OUT" || fail "stdout has /$1/"; }
expect_no_err() { ! grep -Eq -- "$1" "$ERR" || fail "stderr has /$1/"; }
expect_faster() { [ "$MS" -lt "$1" ] || fail "took ${MS} ms, expected under $1 ms"; }

# A pmix_probe job of $1 ranks (run with "nspace") ended well: one ok line per rank, each in
# oshrun's own namespace, nothing on stderr.
expect_probe_ok() {
  local n=$1 r
  expect_rc 0
  for ((r = 0; r < n; r++)); do
    [ "$(grep -c "^probe ok rank $r of $n\$" "$OUT")" -eq 1 ] || fail "no single ok line of rank $r"
  done
  [ "$(grep -c '^probe ok' "$OUT")" -eq "$n" ] || fail "wrong number of ok lines"
  # oshrun-<pid>-<128 random bits>: unguessable (issue 18), the same for every rank.
  [ "$(grep -Ec "^nspace oshrun-$OSH_PID-[0-9a-f]{32}\$" "$OUT")" -eq "$n" ] ||
    fail "namespace is not oshrun-<pid>-<32 hex digits>"
  [ "$(grep '^nspace ' "$OUT" | sort -u | wc -l)" -eq 1 ] || fail "ranks disagree on the namespace"
  [ ! -s "$ERR" ] || fail "unexpected stderr"
}
