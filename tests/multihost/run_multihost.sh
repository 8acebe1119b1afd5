#!/usr/bin/env bash
# Runs one SHMEM program with Open MPI's mpirun across <hosts> test-bed hosts (network
# namespaces on this machine, scripts/netns/) with <ppn> PEs on each, placed round-robin
# (--map-by node: PE k on host k mod <hosts>, so neighbours are on different hosts).
#
#   run_multihost.sh <hosts> <ppn> <program> [args...]
#   run_multihost.sh local <np> <program> [args...]   # plain mpirun on this host, no namespaces
#
# Exits with the job's status; 77 (CTest SKIP_RETURN_CODE) with the reason when mpirun is
# missing or network namespaces cannot be made here. The bed is removed on every exit path.
#
# Environment:
#   SHOAL_MULTIHOST_LIMIT   seconds before the job is ended (default 100)
#   SHOAL_MULTIHOST_EXPORT  extra variable names forwarded to the PEs (space-separated)
#   SHOAL_MULTIHOST_EXPECT  an extended regular expression the job's output must match (a job
#                           that exits 0 without it fails)
#   SMA_*, SHMEM_*, UCX_*, SHOAL_*, GTEST_*, LD_LIBRARY_PATH  forwarded to every PE
set -uo pipefail

readonly kSkip=77
here=$(cd "${BASH_SOURCE[0]%/*}" && pwd)
netns_dir=$(cd "$here/../../scripts/netns" && pwd)
limit=${SHOAL_MULTIHOST_LIMIT:-100}

skip() { echo "SKIPPED: $*"; exit $kSkip; }
usage() { echo "usage: $0 <hosts> <ppn> | local <np>  <program> [args...]" >&2; exit 2; }

[[ $# -ge 3 ]] || usage
mode=$1 count=$2
shift 2
mpirun=$(command -v mpirun) || skip "mpirun (Debian package openmpi-bin) is not installed"
"$mpirun" --version 2>&1 | grep -q "Open MPI" ||
  skip "$mpirun is not Open MPI's (the options below are Open MPI's)"

# Variables every PE needs, wherever it runs: mpirun forwards its own environment only to
# the PEs it starts itself, so the remote ones get these through -x.
export SHOAL_MULTIHOST_HOSTS=1
export GTEST_COLOR=${GTEST_COLOR:-no}  # mpirun gives its PEs a pty: no escape codes in logs
forward=(LD_LIBRARY_PATH ${SHOAL_MULTIHOST_EXPORT:-})
for x in $(compgen -e); do
  case "$x" in SMA_* | SHMEM_* | UCX_* | SHOAL_* | GTEST_*) forward+=("$x") ;; esac
done
mpirun_args=(--allow-run-as-root --oversubscribe --bind-to none)

run_job() {  # run_job <launch prefix...> -- <np> <program> [args...]
  local prefix=() x
  while [[ "$1" != "--" ]]; do prefix+=("$1"); shift; done
  shift
  local np=$1
  shift
  for x in "${forward[@]}"; do [[ -n "${!x+set}" ]] && mpirun_args+=(-x "$x"); done
  local started=$SECONDS
  timeout -k 5 "$limit" "${prefix[@]}" "$mpirun" "${mpirun_args[@]}" -np "$np" "$@"
  local rc=$?
  # 124 is also a job's own status (a hang report): only a job that ran the whole limit timed out.
  [[ $rc -eq 124 && $((SECONDS - started)) -ge $limit ]] &&
    echo "FAILED: the job did not finish within $limit s (SHOAL_MULTIHOST_LIMIT)"
  return $rc
}

if [[ "$mode" == "local" ]]; then
  run_job -- "$count" "$@"
  exit $?
fi

hosts=$mode ppn=$count
[[ "$hosts" =~ ^[1-9][0-9]?$ && "$ppn" =~ ^[1-9][0-9]?$ ]] || usage
command -v ip >/dev/null || skip "the ip command is missing (apt-get install iproute2)"
command -v unshare >/dev/null || skip "the unshare command is missing (util-linux)"
why=$("$netns_dir/netns_testbed.sh" check) || skip "$why"

"$netns_dir/netns_testbed.sh" sweep shoal-mh  # beds of earlier runs killed before cleanup

export SHOAL_NETNS_PREFIX="shoal-mh$$"
workdir=$(mktemp -d /tmp/shoal-multihost.XXXXXX)
teardown() {
  "$netns_dir/netns_testbed.sh" down "$SHOAL_NETNS_PREFIX"
  rm -rf "$workdir"
}
trap teardown EXIT
trap 'exit 130' INT TERM

"$netns_dir/netns_testbed.sh" up "$SHOAL_NETNS_PREFIX" "$hosts" "$workdir/hostfile" ||
  { echo "FAILED: could not build the test bed"; exit 1; }

export SHOAL_MULTIHOST_HOSTS=$hosts
# No UCX settings needed: UCX picks TCP on shoal0 (a host's only interface besides lo) between
# hosts and shared memory within one, since every host has its own IPC namespace.
# Session directories (/tmp/ompi.<hostname>.<uid> by default) go to the work directory: every
# bed has new hostnames, and the teardown removes them with it.
mpirun_args+=(--hostfile "$workdir/hostfile" --map-by node
              --mca plm_rsh_agent "$netns_dir/netns_rsh.sh" --mca plm_rsh_no_tree_spawn 1
              --mca oob_tcp_if_include 198.18.0.0/15 --mca orte_tmpdir_base "$workdir")
# mpirun itself runs on host 1, as on a cluster's first node.
if [[ -z "${SHOAL_MULTIHOST_EXPECT:-}" ]]; then
  run_job "$netns_dir/netns_testbed.sh" exec "$SHOAL_NETNS_PREFIX" 1 -- $((hosts * ppn)) "$@"
  exit $?
fi
run_job "$netns_dir/netns_testbed.sh" exec "$SHOAL_NETNS_PREFIX" 1 -- $((hosts * ppn)) "$@" \
  2>&1 | tee "$workdir/output"
rc=${PIPESTATUS[0]}
[[ $rc -ne 0 ]] && exit $rc
grep -Eq "$SHOAL_MULTIHOST_EXPECT" "$workdir/output" ||
  { echo "FAILED: the output does not match '$SHOAL_MULTIHOST_EXPECT' (SHOAL_MULTIHOST_EXPECT)"; exit 1; }
