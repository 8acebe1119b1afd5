#!/usr/bin/env bash
# The kernel's floor across two hosts: runs tcp_floor (bench/tcp_floor.c, no SHMEM) between two
# network-namespace hosts of scripts/netns, the bed compare_oshmem.sh --hosts measures the
# libraries on, and writes its rows in compare_oshmem.sh's raw CSV form with lib "limit", and
# the medians (medians.awk) beside it:
#
#   bench/tcp_floor.sh [--reps N] [--build-dir DIR] [--out FILE] [-- tcp_floor options]
#
# Needs root (the bed) and tcp_floor built (cmake --build build --target tcp_floor).
# publish_internode.sh --floor FILE puts the medians beside the libraries' 2-PE figures.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
netns=$repo/scripts/netns
reps=5 build_dir=$repo/build out=""
die() { echo "tcp_floor.sh: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
  case $1 in
    --reps) reps=${2?}; shift 2 ;;
    --build-dir) build_dir=${2?}; shift 2 ;;
    --out) out=${2?}; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (try --help)" ;;
  esac
done
bin=$build_dir/bin/tcp_floor
[ -x "$bin" ] || die "no $bin: build it with cmake --build $build_dir --target tcp_floor"
out=${out:-$here/results/tcp-floor-$(date +%Y%m%d-%H%M%S).csv}
mkdir -p "$(dirname "$out")"
why=$("$netns/netns_testbed.sh" check) || die "$why"
prefix="shoal-floor$$"
"$netns/netns_testbed.sh" sweep shoal-floor
trap '"$netns/netns_testbed.sh" down "$prefix" >/dev/null 2>&1 || true' EXIT
"$netns/netns_testbed.sh" up "$prefix" 2 /dev/null >/dev/null || die "could not build the bed"
server=$("$netns/netns_testbed.sh" address 2)

echo "lib,rep,npes,test,size,value,unit,iters" >"$out"
for ((rep = 1; rep <= reps; rep++)); do
  "$netns/netns_testbed.sh" exec "$prefix" 2 "$bin" --listen "$@" &
  listener=$!
  rows=$("$netns/netns_testbed.sh" exec "$prefix" 1 "$bin" --connect "$server" "$@")
  wait "$listener" || die "the listening side failed in run $rep"
  grep -E '^[a-z_]+,[0-9]+,[0-9.]+,us,' <<<"$rows" | sed "s/^/limit,$rep,2,/" >>"$out"
  echo "tcp_floor.sh: run $rep/$reps done" >&2
done
awk -F, -f "$here/medians.awk" "$out" >"${out%.csv}.medians.csv"
echo "tcp_floor.sh: $out, medians in ${out%.csv}.medians.csv" >&2
