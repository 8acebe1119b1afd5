#!/usr/bin/env bash
# Scenario tests of oshrun running real Shoal programs (failing_pe.c): failing PEs, signals,
# many and concurrent jobs, and the ownership and lifetime of a job's shared memory. One
# scenario per invocation:
#   OSHRUN=... FAILING_PE=... shoal_job_tests.sh <scenario> [args]
# launcher_lib.sh checks every run for leftovers (files, shared memory, processes).
# shellcheck source=tests/launcher/launcher_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/launcher_lib.sh"
: "${FAILING_PE:?set FAILING_PE to the failing_pe binary}"

# "A few seconds": the longest a job may take to end after a PE failed or oshrun was signalled.
LIMIT_MS=5000

# Checks the job ended within LIMIT_MS of the moment the failing PE announced.
expect_prompt_end() {
  local failed_at
  failed_at=$(sed -n 's/^pe [0-9]* fails at \([0-9]*\)$/\1/p' "$OUT" | head -n 1)
  [ -n "$failed_at" ] || fail "the failing PE did not announce its failure"
  (( END_MS - failed_at < LIMIT_MS )) ||
    fail "the job ended $(( END_MS - failed_at )) ms after the failure, expected under $LIMIT_MS"
}

# oshrun's verdict: exactly one line of its own, matching $1 (the first cause; the PEs it ended
# afterwards are not reported).
expect_verdict() {
  expect_err "^oshrun: $1\$"
  [ "$(grep -c '^oshrun: ' "$ERR")" -eq 1 ] || fail "more than one line from oshrun"
}

# Every running PE maps the heap of every PE of the node: np distinct memfd segments named
# shoal-heap (the library's memory is never a file in /dev/shm). A memfd goes with the last
# process holding it, so check_clean's "no PE left running" covers what it could leave.
expect_heaps_noted() {
  local np=$1 pid heaps
  for pid in $(job_pids); do
    heaps=$(awk '$6 == "/memfd:shoal-heap" && !seen[$5]++' "/proc/$pid/maps" | wc -l)
    [ "$heaps" -eq "$np" ] || fail "pid $pid maps $heaps heaps, not all $np"
  done
}

# "ok K of N tag T" from every PE and nothing wrong.
expect_exchange_ok() {
  local np=$1 tag=$2 k
  expect_no_out '^BAD'
  for ((k = 0; k < np; k++)); do
    [ "$(grep -c "^ok $k of $np tag $tag\$" "$OUT")" -eq 1 ] || fail "no single ok line of PE $k"
  done
  [ "$(grep -c '^ok ' "$OUT")" -eq "$np" ] || fail "wrong number of ok lines"
}

case "${1:-}" in
die)  # PE np/2 fails while the others wait in a barrier: prompt end, verdict, status.
  how=$2 np=$3
  victim=$(( np / 2 ))
  who="PE $victim \\(pid [0-9]+\\)"
  case $how in
    segv) rc=139 verdict="$who was killed by signal 11 \\(Segmentation fault\\)" ;;
    abort) rc=134 verdict="$who was killed by signal 6 \\(Aborted\\)" ;;
    sigkill) rc=137 verdict="$who was killed by signal 9 \\(Killed\\)" ;;
    exit3) rc=3 verdict="$who exited with status 3" ;;
    exit5) rc=5 verdict="$who exited with status 5" ;;
    exit0 | return) rc=1 verdict="$who exited without calling shmem_finalize" ;;
    *) fail "unknown way to fail '$how'" ;;
  esac
  # Under AddressSanitizer (the asan test preset) the failure must stay the one this test
  # makes: ASan would catch the SIGSEGV and exit 1, and LeakSanitizer would report the
  # runtime a PE leaves behind when it exits without shmem_finalize on purpose (exit status
  # 1 again). Later options in ASAN_OPTIONS override the preset's; without ASan they are unread.
  case $how in
    segv) export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0" ;;
    exit0 | exit5 | return) export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" ;;
  esac
  run_oshrun -np "$np" "$FAILING_PE" die "$how" "$victim" "$MARK"
  expect_rc "$rc"
  expect_verdict "$verdict"
  expect_out "^pe $victim fails at "
  expect_no_out UNREACHABLE
  expect_prompt_end
  ;;

global_exit)  # shmem_global_exit(7) while the others wait: status 7, promptly.
  where=$2 np=$3
  run_oshrun -np "$np" "$FAILING_PE" global_exit "$where" 1 "$MARK"
  expect_rc 7
  expect_verdict "PE 1 aborted the job with status 7"
  expect_no_out UNREACHABLE
  expect_prompt_end
  ;;

signal)  # SIGINT/SIGTERM to oshrun while the PEs wait in a barrier or compute.
  sig=$2 where=$3 np=$4
  before=$(ls /dev/shm)
  start_oshrun "$np" -np "$np" "$FAILING_PE" hang "$where" "$MARK"
  [ "$(job_pids | wc -l)" -ge "$np" ] || fail "fewer than $np PEs running"
  note_job_memory
  [ "${SMA_SHARED_MEMORY:-1}" = 0 ] || [ "$np" -lt 2 ] || expect_heaps_noted "$np"
  signal_oshrun "$sig"
  expect_rc $((128 + $(kill -l "$sig")))
  expect_faster "$LIMIT_MS"
  expect_no_out UNREACHABLE
  # Nothing new in /dev/shm that bears the job's name: its heaps, its directory for UCX's files
  # (check_clean covered what the PEs mapped; other jobs may run on this machine meanwhile).
  new=$(comm -13 <(sort <<<"$before") <(ls /dev/shm | sort) |
    grep -e "oshrun-$OSH_PID-" -e "oshrun\.$OSH_PID\." || true)
  [ -z "$new" ] || fail "left in /dev/shm: $new"
  ;;

many_jobs)  # Short jobs in a row, each checking its values; nothing accumulates.
  count=$2 np=$3
  for ((i = 1; i <= count; i++)); do
    run_oshrun -np "$np" "$FAILING_PE" exchange "$i" 20 "$MARK"
    expect_rc 0
    expect_exchange_ok "$np" "$i"
    [ ! -s "$ERR" ] || fail "job $i: unexpected stderr"
  done
  ;;

cpu_share)  # How PEs wait follows which PEs may run on their CPUs, not only how many share the
  # machine (core/bootstrap/machine.hpp): PE 0 reports its share on SMA_INFO's waiting line.
  read_allowed_cpus
  (( ${#CPUS[@]} >= 2 )) || fail "needs 2 CPUs, this shell may use ${#CPUS[@]}"
  waiting() {  # PEs on the machine, their CPUs, PEs that may run on PE 0's CPUs, how PE 0 waits
    echo "^Waiting in force: $1 PEs of the job on this machine, on $2; $3 of them" \
      "\\(this one included\\) may run on this PE's CPUs, 1 CPU between them: $4\$"
  }
  # Both PEs bound to one CPU: they take turns on it, on a machine of any size.
  run_oshrun -x SMA_INFO=1 --bind-to none -np 2 \
    sh -c 'exec taskset -c "$0" "$@"' "${CPUS[0]}" "$FAILING_PE" exchange 1 20 "$MARK"
  expect_rc 0
  expect_exchange_ok 2 1
  expect_out "$(waiting 2 "1 CPU" 2 "more PEs than CPUs, waits yield from the start")"
  # PE 0 alone on a CPU, PEs 1 and 2 on another: more PEs than CPUs, but not on PE 0's. Each
  # PE's own counts are in its debug log.
  run_oshrun -x SMA_INFO=1 -x SMA_LOG_LEVEL=debug --bind-to none -np 3 \
    sh -c 'c=$0; [ "$PMIX_RANK" = 0 ] || c=$1; shift; exec taskset -c "$c" "$@"' \
    "${CPUS[0]}" "${CPUS[1]}" "$FAILING_PE" exchange 2 20 "$MARK"
  expect_rc 0
  expect_exchange_ok 3 2
  expect_out "$(waiting 3 "2 CPUs" 1 "waits spin, then yield")"
  counts="PEs of the job on this machine: 3, their CPUs: 2; this PE's CPUs: 1,"
  for pe in 1 2; do
    expect_err "pe $pe\\] debug: \\[core\\] $counts PEs that may run on them: 2, their CPUs: 1\$"
  done
  expect_err "pe 0\\] debug: \\[core\\] $counts PEs that may run on them: 1, their CPUs: 1\$"
  ;;

concurrent)  # Two jobs at once, released together, each with values of its own.
  np=$2
  go=$WORK/go
  declare -A pid_of mark_of tag_of=([a]=11 [b]=22)
  # Each job has its own TMPDIR, so that one's leftover check does not see the other's files.
  for job in a b; do
    MARK=mark-$job-$$-$RANDOM
    OUT=$WORK/out.$job ERR=$WORK/err.$job TMPDIR=$WORK/tmp.$job
    mkdir "$TMPDIR"
    start_oshrun "$np" -np "$np" "$FAILING_PE" exchange "${tag_of[$job]}" 300 "$go" "$MARK"
    note_job_memory
    pid_of[$job]=$OSH_PID mark_of[$job]=$MARK
  done
  touch "$go"
  for job in a b; do
    OSH_PID=${pid_of[$job]} MARK=${mark_of[$job]} OUT=$WORK/out.$job ERR=$WORK/err.$job
    TMPDIR=$WORK/tmp.$job
    wait_oshrun
    check_clean
    expect_rc 0
    expect_exchange_ok "$np" "${tag_of[$job]}"
    [ ! -s "$ERR" ] || fail "job $job: unexpected stderr"
  done
  [ "${pid_of[a]}" != "${pid_of[b]}" ] || fail "both jobs had the same oshrun"
  # The two exchanges overlapped in time: they really ran side by side.
  read -r a_from a_to < <(sed -n 's/^exchanged from \([0-9]*\) to \([0-9]*\)$/\1 \2/p' "$WORK/out.a")
  read -r b_from b_to < <(sed -n 's/^exchanged from \([0-9]*\) to \([0-9]*\)$/\1 \2/p' "$WORK/out.b")
  (( a_from < b_to && b_from < a_to )) ||
    fail "the exchanges did not overlap (a $a_from-$a_to, b $b_from-$b_to)"
  ;;

security)  # While the PEs run: the job's memory and files are the user's alone.
  np=$2
  me=$(id -u)
  # Under the most permissive umask: the modes below must not depend on the user's.
  umask 000
  start_oshrun "$np" -np "$np" "$FAILING_PE" inspect "$WORK/go" "$MARK"
  umask 022
  note_job_memory
  expect_heaps_noted "$np"
  # Nothing of the job's memory has a name in /dev/shm for anyone to open.
  left=$(compgen -G "/dev/shm/shoal-oshrun-$OSH_PID-*")
  [ -z "$left" ] || fail "shared memory with a name in /dev/shm: $left"
  # Every PE maps every heap of the node, and every data segment (globals) or none; each is
  # this user's, mode 0600 (stat through /proc/<pid>/map_files).
  for pid in $(job_pids); do
    ranges=$(awk '$6 ~ /^\/memfd:shoal-(heap|globals)$/ && !seen[$5]++ {print "/proc/'"$pid"'/map_files/" $1}' \
      "/proc/$pid/maps")
    heaps=$(awk '$6 == "/memfd:shoal-heap" && !seen[$5]++' "/proc/$pid/maps" | wc -l)
    data=$(awk '$6 == "/memfd:shoal-globals" && !seen[$5]++' "/proc/$pid/maps" | wc -l)
    [ "$heaps" -eq "$np" ] || fail "pid $pid does not map all $np heaps"
    [ "$data" -eq 0 ] || [ "$data" -eq "$np" ] ||
      fail "pid $pid maps $data data segments, not all $np"
    owners_modes=$(stat -L -c '%u %a' $ranges) || fail "cannot stat the heaps mapped by pid $pid"
    [ -z "$(grep -vx "$me 600" <<<"$owners_modes")" ] ||
      fail "heaps mapped by pid $pid: owner and mode $owners_modes"
  done
  # oshrun's session directory (PMIx's stores and rendezvous files) and its directory for UCX's
  # shared-memory files: ours, private.
  session=$(find "$TMPDIR" -mindepth 1 -maxdepth 1)
  [ -n "$session" ] || fail "no session directory in TMPDIR"
  ucx_dir=$(compgen -G "/dev/shm/oshrun.$OSH_PID.*") || fail "no directory for UCX in /dev/shm"
  while read -r uid mode type path; do
    [ "$uid" = "$me" ] || fail "$path belongs to uid $uid"
    case $type in
      d) [ "$mode" = 700 ] || fail "directory $path has mode $mode" ;;
      f) [ "$mode" = 600 ] || fail "file $path has mode $mode" ;;
      *) (( (8#$mode & 8#077) == 0 )) || fail "$path has mode $mode" ;;
    esac
  done < <(find "$TMPDIR" -mindepth 1 -printf '%U %m %y %p\n'
           find "$ucx_dir" -printf '%U %m %y %p\n')
  # The PMIx server listens on the loopback interface only.
  if command -v ss >/dev/null; then
    listen=$(ss -Hltnp | grep "pid=$OSH_PID," | awk '{print $4}')
    [ -n "$listen" ] || fail "no listening socket of oshrun found"
    ! grep -Evq '^(127\.0\.0\.1|\[::1\]):' <<<"$listen" || fail "oshrun listens beyond loopback: $listen"
  fi
  touch "$WORK/go"
  wait_oshrun
  check_clean
  expect_rc 0
  for ((k = 0; k < np; k++)); do expect_out "^ok $k of $np\$"; done
  ;;

no_network)  # A job on one node listens on no network address (issue 18), only loopback.
  np=$2
  start_oshrun "$np" -np "$np" "$FAILING_PE" inspect "$WORK/go" "$MARK"
  # The PEs' sockets (by inode) and, from their network namespace's tables, which of them
  # listen (state 0A) and where. Loopback: 127.0.0.0/8, ::1 and ::ffff:127.0.0.0/104 (the
  # kernel prints each 32-bit word of an address in host byte order).
  for pid in $(job_pids); do
    inodes=$(find "/proc/$pid/fd" -lname 'socket:*' -printf '%l\n' 2>/dev/null |
      sed 's/^socket:\[\([0-9]*\)\]$/\1/' | sort -u)
    [ -n "$inodes" ] || continue
    open=$(awk -v inodes="$inodes" '
      BEGIN { n = split(inodes, list, "\n"); for (i = 1; i <= n; i++) mine[list[i]] = 1 }
      FNR > 1 && $4 == "0A" && ($10 in mine) {
        split($2, a, ":"); addr = a[1]
        if (length(addr) == 8 && substr(addr, 7, 2) == "7F") next
        if (addr == "00000000000000000000000001000000") next
        if (substr(addr, 1, 24) == "0000000000000000FFFF0000" && substr(addr, 31, 2) == "7F") next
        print FILENAME ": " $2
      }' "/proc/$pid/net/tcp" "/proc/$pid/net/tcp6")
    [ -z "$open" ] || fail "PE pid $pid listens on a network address: $open"
  done
  touch "$WORK/go"
  wait_oshrun
  check_clean
  expect_rc 0
  for ((k = 0; k < np; k++)); do expect_out "^ok $k of $np\$"; done
  ;;

no_intruder)  # Another uid cannot reach the job's PMIx server, as a client or as a tool.
  : "${INTRUDER:?set INTRUDER to the pmix_intruder binary}"
  [ "$(id -u)" = 0 ] || skip "needs root to run a program as another user"
  user=shoal-intruder
  if ! id "$user" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$user" 2>/dev/null ||
      id "$user" >/dev/null 2>&1 || skip "cannot create the user $user"
  fi
  uid=$(id -u "$user") gid=$(id -g "$user")
  # The intruder's own copy, in a directory it can read.
  idir=$(mktemp -d /tmp/shoal-intruder.XXXXXX)
  trap 'end_jobs; rm -rf "$WORK" "$idir"' EXIT
  cp "$INTRUDER" "$idir/pmix_intruder" && chmod 755 "$idir" "$idir/pmix_intruder"
  as_intruder() { setpriv --reuid="$uid" --regid="$gid" --clear-groups -- "$@"; }
  start_oshrun 2 -np 2 "$FAILING_PE" inspect "$WORK/go" "$MARK"
  pe=$(job_pids | head -n 1)
  # The worst case: the intruder knows everything a PE was given (its PMIx variables), which in
  # fact only the owner can read. It tries with its own uid and claiming the owner's.
  mapfile -t pmix_env < <(tr '\0' '\n' <"/proc/$pe/environ" | grep -E '^PMIX_')
  uri=$(printf '%s\n' "${pmix_env[@]}" | sed -n 's/^PMIX_SERVER_URI4[0-9]*=//p' | head -n 1)
  [ -n "$uri" ] || uri=$(printf '%s\n' "${pmix_env[@]}" | sed -n 's/^PMIX_SERVER_URI[0-9]*=//p' | head -n 1)
  [ -n "$uri" ] || fail "no PMIX_SERVER_URI in the environment of PE pid $pe"
  attempts=0
  try() {  # try <label> <env...> -- <intruder args...>
    local label=$1 envs=() out
    shift
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    out=$(cd "$idir" && as_intruder env -i PATH="$PATH" HOME=/ TMPDIR=/tmp "${envs[@]}" \
      timeout 20 "$idir/pmix_intruder" "$@" 2>&1) && fail "$label got in: $out"
    echo "$label: ${out:-no output}"
    attempts=$((attempts + 1))
  }
  owner="CLAIM_UID=$(id -u) CLAIM_GID=$(id -g)"
  for claim in "" "$owner"; do
    # shellcheck disable=SC2086
    try "tool${claim:+ claiming the owner uid}" $claim -- tool "$uri"
    # shellcheck disable=SC2086
    try "tool with its own identity${claim:+ claiming the owner uid}" $claim -- tool "$uri" self
  done
  # Knowing oshrun's pid (anyone can see it) was once enough: the namespace was oshrun-<pid>.
  guessed=()
  for v in "${pmix_env[@]}"; do
    case $v in
      PMIX_NAMESPACE=*) guessed+=("PMIX_NAMESPACE=oshrun-$OSH_PID") ;;
      *) guessed+=("$v") ;;
    esac
  done
  # shellcheck disable=SC2086
  try "client claiming the owner uid in namespace oshrun-<pid>" "${guessed[@]}" $owner -- client
  # The job went on unharmed.
  touch "$WORK/go"
  wait_oshrun
  check_clean
  expect_rc 0
  for ((k = 0; k < 2; k++)); do expect_out "^ok $k of 2\$"; done
  # Last, with the namespace stolen (only the owner can read it): PMIx refuses the intruder's
  # own uid; when it claims the owner's, oshrun shuts the connection, and the intruder gets
  # nothing either way. But PMIx 4.2 then takes the rank it posed as for lost, so this job is
  # only ended, not expected to finish.
  rm -f "$WORK/go"
  : >"$OUT"
  start_oshrun 2 -np 2 "$FAILING_PE" inspect "$WORK/go" "$MARK"
  pe=$(job_pids | head -n 1)
  mapfile -t pmix_env < <(tr '\0' '\n' <"/proc/$pe/environ" | grep -E '^PMIX_')
  try "client with the real namespace" "${pmix_env[@]}" -- client
  # shellcheck disable=SC2086
  try "client claiming the owner uid with the real namespace" "${pmix_env[@]}" $owner -- client
  signal_oshrun TERM
  [ "$attempts" -eq 7 ] || fail "$attempts attempts made, expected 7"
  ;;

foreign_open)  # Another user cannot open a running PE's heap; the node's PEs (same user) can.
  [ "$(id -u)" = 0 ] || skip "needs root to try as another user"
  start_oshrun 2 -np 2 "$FAILING_PE" inspect "$WORK/go" "$MARK"
  pe=$(job_pids | head -n 1)
  # The heap is a memfd the PE keeps open: the node's other PEs open /proc/<pid>/fd/<fd>.
  heap_fd=$(find "/proc/$pe/fd" -lname '/memfd:shoal-heap*' -printf '%f\n' | head -n 1)
  [ -n "$heap_fd" ] || fail "PE pid $pe holds no memfd shoal-heap: $(ls -l "/proc/$pe/fd")"
  path=/proc/$pe/fd/$heap_fd
  head -c 1 "$path" >/dev/null || fail "the owner cannot read $path"
  out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups -- head -c 1 "$path" 2>&1) &&
    fail "user nobody read the heap of PE pid $pe through $path"
  echo "as nobody: $out"
  touch "$WORK/go"
  wait_oshrun
  check_clean
  expect_rc 0
  ;;

leftover)  # A file named like an old job's heap (a killed oshrun with this pid) is swept and
  # harms nothing. exec keeps the pid: the name is the one such a job would have had.
  bash -c 'printf stale >"/dev/shm/shoal-oshrun-$$-0"; exec "$@"' sh \
    "$OSHRUN" -np 2 "$FAILING_PE" exchange 5 10 "$MARK" </dev/null >"$OUT" 2>"$ERR" &
  started_oshrun $!
  wait_oshrun
  check_clean
  expect_rc 0
  expect_exchange_ok 2 5
  ;;

*)
  echo "unknown scenario '${1:-}'" >&2
  exit 2
  ;;
esac
echo "PASS: $*"
