#!/usr/bin/env bash
# oshrun_on_hosts.sh -np N program [args...]: runs program on N PEs across 2 namespace hosts
# (N/2 per host, round-robin) through run_multihost.sh, for test drivers written for oshrun's
# command line (tests/observe/check_observe.py).
set -uo pipefail
[[ $# -ge 3 && "$1" == "-np" ]] || { echo "usage: $0 -np N program [args...]" >&2; exit 2; }
np=$2
shift 2
exec "$(dirname "${BASH_SOURCE[0]}")/run_multihost.sh" 2 $((np / 2)) "$@"
