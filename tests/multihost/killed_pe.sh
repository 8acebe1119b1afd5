#!/usr/bin/env bash
# A PE killed in the middle of a collective across hosts (issue 18, item 4): 4 PEs on 2 hosts of
# the network-namespace test bed (scripts/netns/), PEs 0-1 on host 1 and 2-3 on host 2, loop in
# collectives until PE <victim> fails. With "sigkill" (the default) it kills itself, and the
# job must
#   - end with a non-zero status within kEndMs of the death,
#   - say which PE is gone: a line of Shoal's ("[host:pid pe N] error: ... PE <victim> ...")
#     from a PE of the other host that noticed it, not only the launcher's report. (UCX 1.13 may
#     still abort a PE that was acknowledging a put from the dead PE, "ucp_request.inl: Fatal:
#     unexpected error" in ucp_put_handler, whatever the endpoints' error mode: not checked.)
# With "global_exit" it calls shmem_global_exit(7), and the job must end with status 7 within
# kEndMs and no error line at all: the PEs that the launcher ends one after the other must not
# report each other as lost. Either way nothing may be left behind on either host: no process
# in the bed's namespaces or carrying this run's mark, nothing in either host's /dev/shm,
# nothing in the job's TMPDIR (the launcher's session directories, PMIx's files) or in /tmp under
# the bed's host names.
#
#   killed_pe.sh mpirun|oshrun <victim> <killed_in_collective program> [sigkill|global_exit]
#
# mpirun: Open MPI's mpirun started on host 1 with --host h1:2,h2:2. oshrun: $OSHRUN started on
# host 1 with the same --host, which hands the job to that mpirun (docs/cluster.md). Exits 77
# (skipped), saying why, where namespaces cannot be made or mpirun is missing.
set -uo pipefail

readonly kSkip=77
readonly kEndMs=10000    # from the death to the launcher's exit
readonly kLimit=60       # seconds before the job counts as hung
readonly kIterations=20  # collective rounds before the victim dies

engine=${1:-} victim=${2:-} program=${3:-} how=${4:-sigkill}
[[ "$engine" =~ ^(mpirun|oshrun)$ && "$victim" =~ ^[0-3]$ && -x "$program" &&
   "$how" =~ ^(sigkill|global_exit)$ ]] ||
  { echo "usage: $0 mpirun|oshrun <victim 0-3> <killed_in_collective> [sigkill|global_exit]" >&2
    exit 2; }
if [[ "$engine" == oshrun ]]; then
  : "${OSHRUN:?set OSHRUN to the oshrun binary}"
fi

skip() { echo "SKIPPED: $*"; exit $kSkip; }
netns_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../scripts/netns" && pwd)
mpirun=$(command -v mpirun) || skip "mpirun (Debian package openmpi-bin) is not installed"
"$mpirun" --version 2>&1 | grep -q "Open MPI" || skip "$mpirun is not Open MPI's"
command -v unshare >/dev/null || skip "the unshare command is missing (util-linux)"
why=$("$netns_dir/netns_testbed.sh" check) || skip "$why"

"$netns_dir/netns_testbed.sh" sweep shoal-kp  # beds of earlier runs killed before cleanup
prefix=shoal-kp$$
work=$(mktemp -d /tmp/shoal-killed-pe.XXXXXX)
mark=killed-pe-$$-$RANDOM  # in the PEs' arguments, to find any of them left running
teardown() {
  "$netns_dir/netns_testbed.sh" down "$prefix"
  rm -rf "$work" /tmp/*"$prefix"-h[0-9]*
}
trap teardown EXIT
trap 'exit 130' INT TERM
"$netns_dir/netns_testbed.sh" up "$prefix" 2 "$work/hostfile" || { echo "FAILED: no test bed"; exit 1; }
h1=$("$netns_dir/netns_testbed.sh" address 1)
h2=$("$netns_dir/netns_testbed.sh" address 2)

fail() {
  echo "FAILED ($engine, PE $victim, $how): $*"
  echo "--- output of the job:"
  head -n 60 "$work/output"
  exit 1
}

# Everything the job writes to its TMPDIR (session directories of mpirun and its daemons, PMIx's
# files) goes to $work/tmp, which must be empty again when the job is over.
mkdir "$work/tmp"
export TMPDIR=$work/tmp SHOAL_NETNS_PREFIX=$prefix
# Open MPI's settings for the bed, through the environment so that both engines get them (oshrun
# passes its environment on to mpirun untouched).
export OMPI_MCA_plm_rsh_agent=$netns_dir/netns_rsh.sh OMPI_MCA_plm_rsh_no_tree_spawn=1 \
  OMPI_MCA_oob_tcp_if_include=198.18.0.0/15
args=(--host "$h1:2,$h2:2" --bind-to none)
[[ -n "${LD_LIBRARY_PATH:-}" ]] && args+=(-x LD_LIBRARY_PATH)
if [[ "$engine" == mpirun ]]; then
  launcher=("$mpirun" --allow-run-as-root -np 4)
  for x in $(compgen -e); do
    case "$x" in SMA_* | SHMEM_* | UCX_* | TMPDIR) args+=(-x "$x") ;; esac
  done
else
  launcher=("$OSHRUN" -np 4 -x TMPDIR)  # oshrun forwards SMA_*, SHMEM_*, UCX_* itself
fi

now_ms() { echo $(($(date +%s%N) / 1000000)); }
start=$(now_ms)
timeout -k 5 "$kLimit" "$netns_dir/netns_testbed.sh" exec "$prefix" 1 \
  "${launcher[@]}" "${args[@]}" "$program" "$victim" "$kIterations" "$how" "$mark" \
  </dev/null >"$work/output" 2>&1
rc=$?
end=$(now_ms)
echo "job of $((end - start)) ms, status $rc ($engine, PE $victim, $how)"

((end - start < kLimit * 1000)) || fail "the job did not end within $kLimit s"
died=$(sed -En "s/^pe $victim fails \($how\) at iteration [0-9]+ at ([0-9]+)\$/\1/p" \
  "$work/output")
[[ -n "$died" ]] || fail "PE $victim did not get to fail"
echo "ended $((end - died)) ms after PE $victim failed"
((end - died < kEndMs)) ||
  fail "the job ended $((end - died)) ms after PE $victim failed (limit $kEndMs)"
if [[ "$how" == sigkill ]]; then
  [[ $rc -ne 0 ]] || fail "the job exited 0 although PE $victim was killed"
  grep -Eq "\] error: .*\bPE $victim\b" "$work/output" ||
    fail "no message of Shoal's naming PE $victim"
else
  [[ $rc -eq 7 ]] || fail "status $rc, expected 7 (shmem_global_exit)"
  ! grep -Eq "\] error: " "$work/output" || fail "an error was reported after shmem_global_exit"
fi
! grep -Eq "^(UNREACHABLE|BAD)" "$work/output" || fail "a PE went on or saw wrong values"

# Nothing left: processes may take a moment to be reaped after the launcher exits.
left=""
for _ in $(seq 30); do
  left=$(for k in 1 2; do ip netns pids "$prefix-h$k" 2>/dev/null; done; pgrep -f -- "$mark")
  [[ -z "$left" ]] && break
  sleep 0.1
done
[[ -z "$left" ]] || fail "processes left: $(ps -o pid=,args= -p "$(paste -sd, <<<"$left")")"
for k in 1 2; do
  shm=$("$netns_dir/netns_testbed.sh" shm_dir "$prefix" "$k")
  [[ -d "$shm" ]] || fail "host $k's /dev/shm ($shm) is missing"
  left=$(find "$shm" -mindepth 1)
  [[ -z "$left" ]] || fail "left in host $k's /dev/shm: $left"
done
left=$(find "$work/tmp" -mindepth 1 -maxdepth 3)
[[ -z "$left" ]] || fail "left in the job's TMPDIR: $left"
left=$(compgen -G "/tmp/*$prefix-h[0-9]*")
[[ -z "$left" ]] || fail "left in /tmp: $left"
echo "PASS: $engine, PE $victim, $how: status $rc, ended $((end - died)) ms after the failure"
