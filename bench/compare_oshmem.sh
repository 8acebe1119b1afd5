#!/usr/bin/env bash
# compare_oshmem.sh: run bench/putget_bench.c with Shoal and with Open MPI's
# OSHMEM, interleaved (Shoal, OSHMEM, Shoal, OSHMEM, ...), and print the
# median of each (test, size) for both side by side with their ratio.
#
# The same source file is built for both: with OSHMEM's oshcc into a temp
# dir, and for Shoal the CMake-built build/bin/putget_bench (also compiled
# with Shoal's build/bin/oshcc when that wrapper exists, to show the source
# builds with both).  Raw results go to a CSV (default
# bench/results/putget-<date>.csv) and the table also to <csv>.md.
#
# Exit status: 0 all runs complete; 1 setup failure or one side produced no
# data at all; 2 table printed but some run was incomplete or failed the
# benchmark's data verification.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
src=$here/putget_bench.c

reps=5
build_dir=$repo/build
tests=all
out=
run_timeout=180
ours_bin=
ours_launch_args=
oshmem_launch_args=
oshmem_oshcc=${OSHMEM_OSHCC:-/usr/bin/oshcc}
oshmem_oshrun=${OSHMEM_OSHRUN:-/usr/bin/oshrun}
bench_args=()

usage() {
    cat <<EOF
usage: bench/compare_oshmem.sh [options] [-- putget_bench options]
  --reps N                 runs per library, interleaved (default $reps)
  --build-dir DIR          Shoal build dir with bin/oshrun (default $build_dir)
  --tests LIST             tests to run, comma- or space-separated, or 'all'
                           (put_lat put_lat_noquiet get_lat put_bw get_bw)
  --out FILE               raw CSV (default bench/results/putget-<date>.csv)
  --timeout SEC            limit for one run (default $run_timeout)
  --ours-bin PATH          Shoal benchmark binary (default DIR/bin/putget_bench)
  --ours-launch-args STR   extra arguments for Shoal's oshrun
  --oshmem-launch-args STR extra arguments for OSHMEM's oshrun (e.g. '--mca spml ucx')
  -h, --help               this text
Anything after -- goes to putget_bench (e.g. -- --max-size 64K --max-time 0.1).
Env: OSHMEM_OSHCC, OSHMEM_OSHRUN pick the OSHMEM wrappers (default /usr/bin).
EOF
}

die() { echo "compare_oshmem: error: $*" >&2; exit 1; }
note() { echo "compare_oshmem: $*" >&2; }

while [ $# -gt 0 ]; do
    case $1 in
    --reps) reps=${2:?}; shift 2 ;;
    --reps=*) reps=${1#*=}; shift ;;
    --build-dir) build_dir=${2:?}; shift 2 ;;
    --build-dir=*) build_dir=${1#*=}; shift ;;
    --tests)
        shift; tests=
        # take every following word that is not an option
        while [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; do tests="$tests,$1"; shift; done
        tests=${tests#,}; [ -n "$tests" ] || die "--tests needs a value" ;;
    --tests=*) tests=${1#*=}; shift ;;
    --out) out=${2:?}; shift 2 ;;
    --out=*) out=${1#*=}; shift ;;
    --timeout) run_timeout=${2:?}; shift 2 ;;
    --timeout=*) run_timeout=${1#*=}; shift ;;
    --ours-bin) ours_bin=${2:?}; shift 2 ;;
    --ours-bin=*) ours_bin=${1#*=}; shift ;;
    --ours-launch-args) ours_launch_args=${2?}; shift 2 ;;
    --ours-launch-args=*) ours_launch_args=${1#*=}; shift ;;
    --oshmem-launch-args) oshmem_launch_args=${2?}; shift 2 ;;
    --oshmem-launch-args=*) oshmem_launch_args=${1#*=}; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; bench_args=("$@"); break ;;
    *) usage >&2; die "unknown argument '$1'" ;;
    esac
done
case $reps in ''|*[!0-9]*|0) die "--reps needs a positive integer" ;; esac
case $run_timeout in ''|*[!0-9]*|0) die "--timeout needs a positive integer (seconds)" ;; esac
tests=$(echo "$tests" | tr ' ' ',' | tr -s ',')
build_dir=$(cd "$build_dir" 2>/dev/null && pwd) || die "build dir not found; build Shoal first: cmake -S $repo -B $repo/build && cmake --build $repo/build -j2"

[ -f "$src" ] || die "benchmark source $src not found"
[ -x "$oshmem_oshcc" ] || die "OSHMEM compiler wrapper $oshmem_oshcc not found (Debian: apt-get install libopenmpi-dev openmpi-bin)"
[ -x "$oshmem_oshrun" ] || die "OSHMEM launcher $oshmem_oshrun not found"
ours_oshrun=$build_dir/bin/oshrun
[ -x "$ours_oshrun" ] || die "Shoal launcher $ours_oshrun not found; build Shoal first"
command -v timeout >/dev/null || die "'timeout' (coreutils) is needed"

if [ -z "$out" ]; then
    mkdir -p "$here/results" || die "cannot create $here/results"
    out=$here/results/putget-$(date +%Y%m%d-%H%M%S).csv
else
    mkdir -p "$(dirname "$out")" || die "cannot create the directory of $out"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/shoal-compare.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

# --- build -------------------------------------------------------------------
oshmem_bin=$tmp/putget_bench.oshmem
if ! "$oshmem_oshcc" -O2 -o "$oshmem_bin" "$src" >"$tmp/oshcc.oshmem.log" 2>&1; then
    cat "$tmp/oshcc.oshmem.log" >&2
    die "building the benchmark with OSHMEM's $oshmem_oshcc failed"
fi

ours_oshcc=$build_dir/bin/oshcc
ours_oshcc_status="not checked ($ours_oshcc missing)"
if [ -x "$ours_oshcc" ]; then
    if "$ours_oshcc" -O2 -o "$tmp/putget_bench.shoal-oshcc" "$src" >"$tmp/oshcc.shoal.log" 2>&1; then
        ours_oshcc_status="builds with Shoal's oshcc too"
    else
        ours_oshcc_status="FAILED to build with Shoal's oshcc (see below)"
        note "building the benchmark with $ours_oshcc failed:"
        sed 's/^/    /' "$tmp/oshcc.shoal.log" >&2
    fi
fi
if [ -z "$ours_bin" ]; then
    if [ -x "$build_dir/bin/putget_bench" ]; then
        ours_bin=$build_dir/bin/putget_bench
        [ "$build_dir/bin/putget_bench" -nt "$src" ] ||
            note "warning: $ours_bin is older than $src; rebuild with: cmake --build $build_dir --target putget_bench"
    elif [ -x "$tmp/putget_bench.shoal-oshcc" ]; then
        ours_bin=$tmp/putget_bench.shoal-oshcc
        note "no $build_dir/bin/putget_bench; using the one built with $ours_oshcc"
    else
        die "no Shoal benchmark binary: build it with cmake --build $build_dir --target putget_bench"
    fi
fi
[ -x "$ours_bin" ] || die "Shoal benchmark binary $ours_bin is not executable"

# --- launch commands ---------------------------------------------------------
# shellcheck disable=SC2206  # the *_launch_args strings are meant to be word-split
ours_cmd=("$ours_oshrun" -np 2 $ours_launch_args "$ours_bin" -t "$tests" "${bench_args[@]}")
oshmem_root=()
[ "$(id -u)" = 0 ] && oshmem_root=(--allow-run-as-root)
# shellcheck disable=SC2206
oshmem_cmd=("$oshmem_oshrun" "${oshmem_root[@]}" --oversubscribe -np 2 $oshmem_launch_args
            "$oshmem_bin" -t "$tests" "${bench_args[@]}")

note "Shoal : ${ours_cmd[*]}"
note "OSHMEM: ${oshmem_cmd[*]}"
note "$reps interleaved runs each; raw CSV -> $out"

# --- runs ----------------------------------------------------------------------
data_re='^(put_lat|put_lat_noquiet|get_lat|put_bw|get_bw),[0-9]+,[0-9.eE+-]+,(us|MB/s)(,|$)'
echo "lib,rep,test,size,value,unit,iters" >"$out"
declare -A nruns=() ncomplete=() ndata=() nbadexit=() nverify=() lastbad=()
for lib in shoal oshmem; do nruns[$lib]=0; ncomplete[$lib]=0; ndata[$lib]=0; nbadexit[$lib]=0; nverify[$lib]=0; lastbad[$lib]=; done

run_one() { # lib rep
    local lib=$1 rep=$2 o e rc t0 t1 n status
    o=$tmp/$lib.$rep.out e=$tmp/$lib.$rep.err
    t0=$(date +%s.%N)
    if [ "$lib" = shoal ]; then
        timeout -k 10 "$run_timeout" "${ours_cmd[@]}" >"$o" 2>"$e" </dev/null; rc=$?
    else
        timeout -k 10 "$run_timeout" "${oshmem_cmd[@]}" >"$o" 2>"$e" </dev/null; rc=$?
    fi
    t1=$(date +%s.%N)
    n=$(grep -cE "$data_re" "$o")
    grep -E "$data_re" "$o" | sed "s/^/$lib,$rep,/" >>"$out"
    nruns[$lib]=$((nruns[$lib] + 1))
    ndata[$lib]=$((ndata[$lib] + n))
    if grep -q '^putget_bench: done: ' "$e" "$o"; then
        ncomplete[$lib]=$((ncomplete[$lib] + 1))
        status=complete
        [ "$rc" = 0 ] || { nbadexit[$lib]=$((nbadexit[$lib] + 1)); status="complete, then exit status $rc"; }
    else
        status="INCOMPLETE (exit status $rc$([ "$rc" = 124 ] && echo ", timed out after ${run_timeout}s"))"
        lastbad[$lib]=$e
    fi
    if grep -q 'VERIFY FAILED' "$e" "$o"; then
        nverify[$lib]=$((nverify[$lib] + 1))
        status="$status, VERIFICATION FAILED"
        lastbad[$lib]=$e
    fi
    note "$(printf 'rep %d/%d %-6s %3d points %6.1fs  %s' "$rep" "$reps" "$lib" "$n" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$status")"
}

for ((rep = 1; rep <= reps; rep++)); do
    run_one shoal "$rep"
    run_one oshmem "$rep"
done

# --- report ------------------------------------------------------------------
name() { [ "$1" = shoal ] && echo Shoal || echo OSHMEM; }
fatal=0
for lib in shoal oshmem; do
    if [ "${lastbad[$lib]}" != "" ]; then
        note "$(name $lib): last failing run's stderr (tail):"
        if grep -q '[^[:space:]]' "${lastbad[$lib]}"; then
            grep -v '^[[:space:]]*$' "${lastbad[$lib]}" | tail -n 25 | sed 's/^/    /' >&2
        else
            echo "    (empty)" >&2
        fi
    fi
    if [ "${ndata[$lib]}" = 0 ]; then
        note "error: $(name $lib) produced no data in ${nruns[$lib]} runs"
        fatal=1
    fi
done
[ "$fatal" = 0 ] || { note "raw output kept in $out"; exit 1; }

table=$(awk -F, -v reps="$reps" '
function med(key,   n, a, i, j, x) {
    n = split(vals[key], a, " ")
    for (i = 2; i <= n; i++) { x = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    lo[key] = a[1]; hi[key] = a[n]; cnt[key] = n
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function fmt(v, u) { return (u == "us") ? sprintf("%.3f", v) : sprintf("%.0f", v) }
function spread(key, m) { return (m > 0 && cnt[key] > 1) ? sprintf("%.0f%%", (hi[key] - lo[key]) / m * 100) : "-" }
NR == 1 { next }
{
    k = $1 SUBSEP $3 SUBSEP $4
    vals[k] = vals[k] " " $5; unit[$3] = $6
    if (!(($3, $4) in seen)) { seen[$3, $4] = 1; sizes[$3] = sizes[$3] " " $4 }
}
END {
    ntest = split("put_lat put_lat_noquiet get_lat put_bw get_bw", order, " ")
    printf "## putget_bench: Shoal vs Open MPI OSHMEM, median of %d interleaved runs each\n\n", reps
    printf "ratio = Shoal / OSHMEM. Latency rows (us per op): lower is better, ratio < 1 means Shoal is faster.\n"
    printf "Bandwidth rows (MB/s, 1 MB = 10^6 B): higher is better, ratio > 1 means Shoal is faster.\n"
    printf "better: the faster side when the medians differ by more than 10%%, else \"~\"; a trailing \"?\" means the\n"
    printf "[min, max] ranges of the two sides over the runs overlap (likely noise). spread = (max - min) / median over the runs.\n\n"
    printf "| test | size (B) | unit | Shoal | OSHMEM | ratio Shoal/OSHMEM | better | spread Shoal | spread OSHMEM |\n"
    printf "|---|---:|---|---:|---:|---:|---|---:|---:|\n"
    for (t = 1; t <= ntest; t++) {
        name = order[t]; if (!(name in sizes)) continue
        u = unit[name]; lat = (u == "us")
        n = split(sizes[name], sz, " ")
        for (i = 2; i <= n; i++) { x = sz[i] + 0; for (j = i - 1; j >= 1 && sz[j] + 0 > x; j--) sz[j + 1] = sz[j]; sz[j + 1] = x }
        gl = 0; gn = 0
        for (i = 1; i <= n; i++) {
            s = sz[i]; ko = "shoal" SUBSEP name SUBSEP s; kt = "oshmem" SUBSEP name SUBSEP s
            mo = (ko in vals) ? med(ko) : ""; mt = (kt in vals) ? med(kt) : ""
            r = "-"; b = "-"
            if (mo != "" && mt != "" && mt > 0 && mo > 0) {
                q = mo / mt; r = sprintf("%.2f", q); gl += log(q); gn++
                b = (q > 1.1) ? (lat ? "OSHMEM" : "Shoal") : (q < 1 / 1.1) ? (lat ? "Shoal" : "OSHMEM") : "~"
                if (b != "~" && lo[ko] <= hi[kt] && lo[kt] <= hi[ko]) b = b "?"
            }
            printf "| %s | %d | %s | %s | %s | %s | %s | %s | %s |\n", name, s, u,
                (mo == "" ? "-" : fmt(mo, u)), (mt == "" ? "-" : fmt(mt, u)), r, b,
                (mo == "" ? "-" : spread(ko, mo)), (mt == "" ? "-" : spread(kt, mt))
        }
        if (gn) summary = summary sprintf("| %s | %s | %.2f | %d |\n", name, u, exp(gl / gn), gn)
    }
    if (summary != "") {
        printf "\nGeometric mean of the ratio over sizes (same direction rules):\n\n"
        printf "| test | unit | geomean Shoal/OSHMEM | sizes |\n|---|---|---:|---:|\n%s", summary
    }
}' "$out")

{
    echo "$table"
    echo
    echo "Runs: Shoal ${ncomplete[shoal]}/${nruns[shoal]} complete, OSHMEM ${ncomplete[oshmem]}/${nruns[oshmem]} complete." \
         "Benchmark source $ours_oshcc_status."
    [ "${nbadexit[oshmem]}" = 0 ] ||
        echo "OSHMEM: ${nbadexit[oshmem]} run(s) exited non-zero after printing every result (Open MPI 4.1.4 crashes in shmem_finalize here)."
    [ "${nbadexit[shoal]}" = 0 ] ||
        echo "Shoal: ${nbadexit[shoal]} run(s) exited non-zero after printing every result."
    echo "Raw CSV: $out"
} | tee "${out%.csv}.md"

rc=0
for lib in shoal oshmem; do
    if [ "${ncomplete[$lib]}" != "${nruns[$lib]}" ]; then
        note "warning: $(name $lib): $((nruns[$lib] - ncomplete[$lib])) of ${nruns[$lib]} runs did not finish; their partial results are included"
        rc=2
    fi
    if [ "${nverify[$lib]}" != 0 ]; then
        note "warning: $(name $lib): ${nverify[$lib]} run(s) failed the benchmark's data verification"
        rc=2
    fi
done
exit $rc
