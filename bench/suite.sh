#!/usr/bin/env bash
# suite.sh: the whole benchmark suite of issue 5 in one command, for Shoal and
# for Open MPI's OSHMEM, with the machine's limits measured in the same run.
#
# It checks (and where it can, provides) the prerequisites, then runs
# compare_oshmem.sh once with every benchmark: limits_bench, putget_bench and
# amo_bench on 2 PEs, coll_bench on 2, 4 and 8 PEs (also once per Shoal
# algorithm), interleaved rep by rep.  Into one directory it writes:
#   suite.csv          raw rows: lib,rep,npes,test,size,value,unit,iters
#   suite.medians.csv  the median of each point (medians.awk), with its limit
#   suite.md           the tables (report.awk), as compare_oshmem.sh prints them
#   targets.md         the issue's targets with the measured ratios (targets.awk)
#   report.md          reproduction notes + targets + tables (without the
#                      per-algorithm rows) + plots
#   algorithms.md      the full tables, with every test@algorithm row
#   *.png              one chart per test and PE count (plot_suite.sh)
#   run.log            the progress messages of the run
# --publish copies report.md to docs/performance.md, and the PNGs and
# algorithms.md to docs/performance/.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)

reps=3
alg_reps=
quick=0
publish=0
algorithms=1
out=
build_dir=$repo/build
run_timeout=600

usage() {
    cat <<EOF
usage: bench/suite.sh [options]
  --reps N         runs per library and benchmark, interleaved; the median is kept
                   (default $reps)
  --alg-reps N     Shoal's per-algorithm coll_bench runs (8 B .. 64 KiB) in the
                   first N reps only (default 1; each more adds about 6 min)
  --no-algorithms  skip Shoal's per-algorithm coll_bench runs
  --quick          smoke run of a few minutes: 1 rep, short points (-T 0.01),
                   fewer sizes
  --out DIR        result directory (default bench/results/suite-<date>)
  --build-dir DIR  Shoal build directory, configured and built if needed
                   (default $build_dir)
  --timeout SEC    limit for one benchmark run (default $run_timeout)
  --publish        copy report.md and the PNGs to docs/performance.md and
                   docs/performance/
  -h, --help       this text
EOF
}
die() { echo "suite: error: $*" >&2; exit 1; }
note() { echo "suite: $*" >&2; }

while [ $# -gt 0 ]; do
    case $1 in
    --reps) reps=${2:?}; shift 2 ;;
    --alg-reps) alg_reps=${2:?}; shift 2 ;;
    --no-algorithms) algorithms=0; shift ;;
    --quick) quick=1; shift ;;
    --out) out=${2:?}; shift 2 ;;
    --build-dir) build_dir=${2:?}; shift 2 ;;
    --timeout) run_timeout=${2:?}; shift 2 ;;
    --publish) publish=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument '$1'" ;;
    esac
done
case $reps in ''|*[!0-9]*|0) die "--reps needs a positive integer" ;; esac
[ "$quick" = 0 ] || { reps=1; alg_reps=1; }
alg_reps=${alg_reps:-1}
case $alg_reps in ''|*[!0-9]*|0) die "--alg-reps needs a positive integer" ;; esac
[ "$alg_reps" -le "$reps" ] || alg_reps=$reps
out=${out:-$here/results/suite-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)

# --- prerequisites -------------------------------------------------------------
oshmem_oshcc=${OSHMEM_OSHCC:-/usr/bin/oshcc}
oshmem_oshrun=${OSHMEM_OSHRUN:-/usr/bin/oshrun}
if [ ! -x "$oshmem_oshcc" ] || [ ! -x "$oshmem_oshrun" ]; then
    die "Open MPI's OSHMEM wrappers ($oshmem_oshcc, $oshmem_oshrun) are missing; install them with: apt-get install -y openmpi-bin libopenmpi-dev"
fi
command -v cmake >/dev/null || die "cmake is needed to build Shoal"
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
    note "configuring Shoal in $build_dir"
    cmake -S "$repo" -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$out/build.log" 2>&1 ||
        { tail -n 20 "$out/build.log" >&2; die "cmake configure failed (log: $out/build.log)"; }
fi
note "building Shoal's launcher, wrappers and benchmarks in $build_dir"
cmake --build "$build_dir" -j2 --target oshrun shoal_wrappers putget_bench amo_bench coll_bench limits_bench \
    >>"$out/build.log" 2>&1 || { tail -n 20 "$out/build.log" >&2; die "build failed (log: $out/build.log)"; }
plots=1
if ! command -v gnuplot >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        note "installing gnuplot-nox for the plots"
        apt-get install -y gnuplot-nox >"$out/apt.log" 2>&1 ||
            note "warning: apt-get install -y gnuplot-nox failed (log: $out/apt.log)"
    fi
    if ! command -v gnuplot >/dev/null; then
        plots=0
        note "warning: no gnuplot, so no plots (CSV and markdown are still written); install it with: sudo apt-get install -y gnuplot-nox"
    fi
fi

# --- the runs ------------------------------------------------------------------
# Default: every size; Shoal's per-algorithm runs from 8 B to 64 KiB.
# --quick: 1 rep, -T 0.01, putget from 8 B to 1 MiB, coll up to 4 KiB,
# per-algorithm runs at 8 and 64 B.
cmp=("$here/compare_oshmem.sh" --bench all --npes "2,4,8" --reps "$reps" --build-dir "$build_dir"
     --timeout "$run_timeout" --out "$out/suite.csv")
alg_args='--max-size 64K'
[ "$algorithms" = 0 ] || cmp+=(--algorithms --alg-reps "$alg_reps")
if [ "$quick" = 1 ]; then
    alg_args='--max-size 64'
    cmp+=(--putget-args '--min-size 8 --max-size 1M' --coll-args '--max-size 4K'
          --limits-args '--max-size 1M --round-trips 200000 --max-time 0.01')
    [ "$algorithms" = 0 ] || cmp+=(--alg-args "$alg_args")
    cmp+=(-- --max-time 0.01)
else
    [ "$algorithms" = 0 ] || cmp+=(--alg-args "$alg_args")
fi
note "results -> $out"
start=$(date +%s)
"${cmp[@]}" 2>&1 >/dev/null | tee "$out/run.log" >&2
rc=${PIPESTATUS[0]}
elapsed=$(($(date +%s) - start))
[ "$rc" != 1 ] || die "compare_oshmem.sh failed (exit status 1); see $out/run.log"
[ "$rc" = 0 ] || note "warning: compare_oshmem.sh exit status $rc: some run was incomplete or failed verification (see $out/run.log)"

# --- targets, plots, report ----------------------------------------------------
medians=$out/suite.medians.csv
awk -F, -f "$here/targets.awk" "$medians" >"$out/targets.md" || die "targets.awk failed"
pngs=()
if [ "$plots" = 1 ]; then
    mapfile -t pngs < <("$here/plot_suite.sh" "$medians" "$out")
fi

when=$(date '+%Y-%m-%d %H:%M')
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
how="bench/suite.sh --reps $reps"
[ "$quick" = 0 ] || how="bench/suite.sh --quick"
[ "$algorithms" = 1 ] || how="$how --no-algorithms"
[ "$alg_reps" = 1 ] || [ "$quick" = 1 ] || how="$how --alg-reps $alg_reps"
{
    echo "# Performance: Shoal vs Open MPI OSHMEM"
    echo
    echo "Measured $when on $(nproc) CPUs (${cpu:-unknown CPU}), $(uname -sr), in $((elapsed / 60)) min $((elapsed % 60)) s,"
    echo "with \`$how\`. Open MPI: $("$oshmem_oshrun" --version 2>/dev/null | head -n 1)."
    echo
    echo "These are one-node figures on heap objects. Static (global) symmetric objects on one node:"
    echo "[globals.md](globals.md). Across hosts (network-namespace hosts, UCX over TCP, heap and"
    echo "globals), see [internode.md](internode.md)."
    echo
    echo "## How to reproduce"
    echo
    echo '```sh'
    echo "bench/suite.sh              # the whole suite, --reps 3, about 10 to 15 minutes on 2 cores"
    echo "bench/suite.sh --quick      # smoke run, a few minutes"
    echo "bench/suite.sh --publish    # also refresh docs/performance.md and docs/performance/"
    echo '```'
    echo
    echo "Every benchmark source (bench/*_bench.c) is built with Shoal and with Open MPI's \`oshcc\`; for each"
    echo "rep, each benchmark runs with Shoal and then with OSHMEM, so both see the same machine noise, and"
    echo "limits_bench measures the machine (memcpy bandwidth, cache-line round trip between two pinned"
    echo "threads) in the same loop. Each point is the median over the reps. Shoal's per-algorithm"
    echo "collective rows (\`test@algorithm\`) cover 8 B to $([ "$quick" = 1 ] && echo "64 B" || echo "64 KiB"), over $alg_reps rep(s)."
    echo "The machine is shared and small: with 4 and 8 PEs on $(nproc) CPUs the collectives mostly measure the"
    echo "scheduler. See bench/README.md for what each test does."
    echo
    echo "## Targets of issue 5"
    echo
    cat "$out/targets.md"
    echo
    echo "## Tables"
    echo
    if [ "$algorithms" = 1 ]; then
        echo "The rows of each algorithm Shoal registers (\`test@algorithm\`) are in [algorithms.md](algorithms.md)."
        echo
    fi
    sed '/^Raw CSV: /d; /^Rows test@algorithm/d; /^| [a-z_0-9]*@/d; s/^## /### /' "$out/suite.md"
    if [ "${#pngs[@]}" != 0 ]; then
        echo
        echo "## Plots"
        echo
        for p in "${pngs[@]}"; do echo "![$(basename "$p" .png)]($(basename "$p"))"; done
    fi
} >"$out/report.md"
if [ "$algorithms" = 1 ]; then
    {
        echo "# Shoal's collective algorithms vs Open MPI OSHMEM's default"
        echo
        echo "Measured $when with \`$how\` (see [performance.md](../performance.md)): every plain row and every"
        echo "\`test@algorithm\` row, Shoal run with SMA_<X>_ALGORITHM=algorithm."
        echo
        sed '/^Raw CSV: /d; s/^## /### /' "$out/suite.md"
    } >"$out/algorithms.md"
fi

if [ "$publish" = 1 ]; then
    mkdir -p "$repo/docs/performance" || die "cannot create docs/performance"
    rm -f "$repo/docs/performance/"*.png
    for p in "${pngs[@]}"; do cp "$p" "$repo/docs/performance/"; done
    rm -f "$repo/docs/performance/algorithms.md"
    [ "$algorithms" = 0 ] || cp "$out/algorithms.md" "$repo/docs/performance/algorithms.md"
    sed 's/^\(!\[[^]]*\]\)(\([^)/]*\.png\))$/\1(performance\/\2)/; s/(algorithms\.md)/(performance\/algorithms.md)/; s/(internode\.md)/(performance\/internode.md)/; s/(globals\.md)/(performance\/globals.md)/' \
        "$out/report.md" >"$repo/docs/performance.md"
    note "published docs/performance.md and ${#pngs[@]} PNGs in docs/performance/"
fi

echo
echo "Targets (2 PEs, Shoal / OSHMEM):"
grep -E '^\| [a-z]' "$out/targets.md" | grep -v '^| target' | awk -F' \\| ' '{ sub(/^\| /, "", $1); sub(/ \|$/, "", $4); printf "  %-8s %-38s %s (goal %s)\n", $4, $1, $2, $3 }'
tail -n 1 "$out/targets.md" | sed 's/^/  /'
echo
echo "Run time: $((elapsed / 60)) min $((elapsed % 60)) s. Results: $out (report.md, suite.csv, ${#pngs[@]} PNGs)"
exit "$rc"
