#!/usr/bin/env bash
# Writes docs/performance/globals.md from two one-node runs of compare_oshmem.sh with --globals:
#
#   bench/compare_oshmem.sh --bench putget --globals --reps 3 --tests put_lat,get_lat,put_rate \
#       --putget-args '--max-size 64K' --out bench/results/globals-putget.csv
#   bench/compare_oshmem.sh --bench amo --globals --reps 3 --tests fadd_lat,add_lat,add_rate \
#       --out bench/results/globals-amo.csv
#   bench/publish_globals.sh bench/results/globals-putget.csv bench/results/globals-amo.csv \
#       "load average 0.3 before the run"
#
# The page: how it was measured, the issue-15 targets for globals (targets_globals.awk), and the
# tables compare_oshmem.sh printed.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
usage="usage: publish_globals.sh <putget csv> <amo csv> [note on the load]"
putget=${1:?$usage} amo=${2:?$usage} load_note=${3:-}
for csv in "$putget" "$amo"; do
  [ -f "${csv%.csv}.medians.csv" ] && [ -f "${csv%.csv}.md" ] || {
    echo "publish_globals: ${csv%.csv}.medians.csv or .md is missing" >&2; exit 1; }
done
out=$here/../docs/performance/globals.md
{
  echo "# Static (global) symmetric objects on one node: Shoal vs Open MPI OSHMEM"
  echo
  echo "Measured $(date -r "$putget" '+%Y-%m-%d %H:%M') on $(nproc) CPUs, $(uname -sr), commit" \
       "$(git -C "$here/.." rev-parse --short HEAD)${load_note:+, $load_note}."
  echo "Two PEs on this machine, each library started by its own \`oshrun\`, interleaved run by run;"
  echo "\`putget_bench\` and \`amo_bench\` with \`--target global\` (rows \`test@global\`: the objects in"
  echo "a static array of the data segment) beside the same tests on the heap. Across hosts, the"
  echo "global rows are in [internode.md](internode.md). How to reproduce: the commands at the top"
  echo "of \`bench/publish_globals.sh\`."
  echo
  echo "## Targets of issue 15"
  echo
  awk -F, -f "$here/targets_globals.awk" "${putget%.csv}.medians.csv" "${amo%.csv}.medians.csv"
  echo
  echo "## Tables"
  for csv in "$putget" "$amo"; do
    echo
    sed -n '/^## /,$p' "${csv%.csv}.md" | sed 's/^## /### /'
  done
} >"$out"
echo "wrote $out"
