#!/usr/bin/env bash
# Remote-start agent for mpirun (--mca plm_rsh_agent <this file>) on the netns test bed:
# called like ssh, "netns_rsh.sh [ssh options] <address> <command...>", it runs the command
# with sh on the test-bed host that owns the address. SHOAL_NETNS_PREFIX names the bed
# (inherited from mpirun's environment).
set -euo pipefail
prefix=${SHOAL_NETNS_PREFIX:?netns_rsh: SHOAL_NETNS_PREFIX is not set}
while [[ $# -gt 0 && "$1" == -* ]]; do shift; done  # ssh options mpirun may add (-x)
[[ $# -ge 2 ]] || { echo "netns_rsh: usage: $0 <address> <command...>" >&2; exit 255; }
address=$1
shift
[[ "$address" =~ ^198\.18\.0\.([0-9]+)$ ]] || {
  echo "netns_rsh: $address is not an address of the test bed (198.18.0.K)" >&2
  exit 255
}
exec "$(dirname "$0")/netns_testbed.sh" exec "$prefix" "${BASH_REMATCH[1]}" sh -c "$*"
