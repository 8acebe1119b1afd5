#!/usr/bin/env bash
# compare_oshmem.sh: run the benchmarks of bench/ (putget_bench.c, amo_bench.c,
# coll_bench.c) with Shoal and with Open MPI's OSHMEM, interleaved (for each
# rep and each benchmark: Shoal, then OSHMEM), and print the median of each
# (test, size) for both side by side with their ratio, one table per benchmark.
#
# With --algorithms, coll_bench also runs on Shoal once per collective
# algorithm of docs/collectives.md (SMA_<X>_ALGORITHM=<name>); those rows are
# named <test>@<algorithm> and are compared with OSHMEM's default.
#
# The same source file is built for both: with OSHMEM's oshcc into a temp
# dir, and for Shoal the CMake-built build/bin/<name>_bench (also compiled
# with Shoal's build/bin/oshcc when that wrapper exists, to show the source
# builds with both).  Raw results go to a CSV (default
# bench/results/<name>-<date>.csv) and the tables also to <csv>.md.
#
# Exit status: 0 all runs complete; 1 setup failure or one side produced no
# data at all; 2 tables printed but some run was incomplete or failed the
# benchmark's data verification.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)

# The benchmarks this script knows, bench/<name>_bench.c, each with its tests
# in the order its table lists them.  Test names are unique across benchmarks,
# so the raw CSV does not need a benchmark column.
known_benches=(putget amo coll)
declare -A bench_tests=(
    [putget]="put_lat put_lat_noquiet get_lat put_bw get_bw"
    [amo]="fadd_lat cswap_lat swap_lat fetch_lat add_lat add_rate put8_rate"
    [coll]="barrier_all broadcast sum_reduce collect fcollect alltoall"
)
# coll_bench's tests and the variable that picks Shoal's algorithm for each.
declare -A coll_var=([barrier_all]=BARRIER [broadcast]=BCAST [sum_reduce]=REDUCE
                     [collect]=COLLECT [fcollect]=FCOLLECT [alltoall]=ALLTOALL)

bench=putget
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
declare -A own_args=([putget]="" [amo]="" [coll]="")
npes=2
algorithms=0

usage() {
    cat <<EOF
usage: bench/compare_oshmem.sh [options] [-- benchmark options]
  --bench NAME             putget (default), amo, coll, or all (all three,
                           interleaved rep by rep)
  --reps N                 runs per library and benchmark, interleaved (default $reps)
  --build-dir DIR          Shoal build dir with bin/oshrun (default $build_dir)
  --tests LIST             tests to run, comma- or space-separated, or 'all';
                           each goes to the benchmark it belongs to:
                           putget: ${bench_tests[putget]}
                           amo:    ${bench_tests[amo]}
                           coll:   ${bench_tests[coll]}
  --npes N                 PEs for coll_bench (default $npes; putget and amo
                           always run on 2)
  --algorithms             coll_bench also runs on Shoal once per algorithm of
                           each selected test, as listed in docs/collectives.md,
                           with SMA_<X>_ALGORITHM=<name>; rows <test>@<name>,
                           compared with OSHMEM's default
  --out FILE               raw CSV (default bench/results/<name>-<date>.csv)
  --timeout SEC            limit for one run (default $run_timeout)
  --ours-bin PATH          Shoal benchmark binary (default DIR/bin/<name>_bench;
                           only with a single benchmark)
  --ours-launch-args STR   extra arguments for Shoal's oshrun
  --oshmem-launch-args STR extra arguments for OSHMEM's oshrun (e.g. '--mca spml ucx')
  --putget-args STR        extra arguments for putget_bench only (e.g. '--max-size 64K')
  --amo-args STR           extra arguments for amo_bench only (e.g. '--window 128')
  --coll-args STR          extra arguments for coll_bench only (e.g. '--max-size 64K')
  -h, --help               this text
Anything after -- goes to every benchmark that runs (e.g. -- --max-time 0.1;
with --bench putget or coll, also -- --max-size 64K).
Env: OSHMEM_OSHCC, OSHMEM_OSHRUN pick the OSHMEM wrappers (default /usr/bin).
EOF
}

die() { echo "compare_oshmem: error: $*" >&2; exit 1; }
note() { echo "compare_oshmem: $*" >&2; }

while [ $# -gt 0 ]; do
    case $1 in
    --bench) bench=${2:?}; shift 2 ;;
    --bench=*) bench=${1#*=}; shift ;;
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
    --putget-args) own_args[putget]=${2?}; shift 2 ;;
    --putget-args=*) own_args[putget]=${1#*=}; shift ;;
    --amo-args) own_args[amo]=${2?}; shift 2 ;;
    --amo-args=*) own_args[amo]=${1#*=}; shift ;;
    --coll-args) own_args[coll]=${2?}; shift 2 ;;
    --coll-args=*) own_args[coll]=${1#*=}; shift ;;
    --npes) npes=${2:?}; shift 2 ;;
    --npes=*) npes=${1#*=}; shift ;;
    --algorithms) algorithms=1; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; bench_args=("$@"); break ;;
    *) usage >&2; die "unknown argument '$1'" ;;
    esac
done
case $reps in ''|*[!0-9]*|0) die "--reps needs a positive integer" ;; esac
case $run_timeout in ''|*[!0-9]*|0) die "--timeout needs a positive integer (seconds)" ;; esac
case $npes in ''|*[!0-9]*|0) die "--npes needs a positive integer" ;; esac
case $bench in
all) benches=("${known_benches[@]}") ;;
putget|amo|coll) benches=("$bench") ;;
*) die "--bench must be putget, amo, coll or all, not '$bench'" ;;
esac
build_dir=$(cd "$build_dir" 2>/dev/null && pwd) || die "build dir not found; build Shoal first: cmake -S $repo -B $repo/build && cmake --build $repo/build -j2"

# Hand each test of --tests to its benchmark; a benchmark left without tests
# does not run.
declare -A sel_tests=()
for b in "${benches[@]}"; do sel_tests[$b]=; done
for t in $(echo "$tests" | tr ',' ' '); do
    found=0
    for b in "${benches[@]}"; do
        if [ "$t" = all ]; then
            sel_tests[$b]=all; found=1
        elif [[ " ${bench_tests[$b]} " == *" $t "* ]]; then
            [ "${sel_tests[$b]}" = all ] || sel_tests[$b]=${sel_tests[$b]:+${sel_tests[$b]},}$t
            found=1
        fi
    done
    [ "$found" = 1 ] || die "unknown test '$t' for --bench $bench (see --help)"
done
run_benches=()
for b in "${benches[@]}"; do [ -z "${sel_tests[$b]}" ] || run_benches+=("$b"); done
[ "${#run_benches[@]}" -gt 0 ] || die "no tests selected"
[ -z "$ours_bin" ] || [ "${#run_benches[@]}" = 1 ] ||
    die "--ours-bin names one binary, but more than one benchmark would run"
[ "$npes" = 2 ] || [[ " ${run_benches[*]} " != *" putget "* && " ${run_benches[*]} " != *" amo "* ]] ||
    note "--npes $npes applies to coll_bench only; putget_bench and amo_bench run on 2 PEs"

# --algorithms: the algorithm names of each collective, from the table of
# docs/collectives.md ("| `SMA_BCAST_ALGORITHM` | ... | `binomial`, `linear` |").
declare -A coll_algos=()
coll_variants=()      # "test algorithm" pairs to run on Shoal, in table order
if [ "$algorithms" = 1 ]; then
    [[ " ${run_benches[*]} " == *" coll "* ]] || die "--algorithms needs coll_bench (--bench coll or all)"
    doc=$repo/docs/collectives.md
    [ -f "$doc" ] || die "--algorithms: $doc not found"
    for t in ${bench_tests[coll]}; do
        coll_algos[$t]=$(awk -F'|' -v v="SMA_${coll_var[$t]}_ALGORITHM" '
            $2 ~ ("`" v "`") { n = split($(NF - 1), a, "`"); for (i = 2; i <= n; i += 2) printf "%s ", a[i]; exit }' "$doc")
        coll_algos[$t]=${coll_algos[$t]% }
        [ -n "${coll_algos[$t]}" ] ||
            note "warning: --algorithms: no algorithms for SMA_${coll_var[$t]}_ALGORITHM in $doc"
        if [ "${sel_tests[coll]}" = all ] || [[ ",${sel_tests[coll]}," == *",$t,"* ]]; then
            for a in ${coll_algos[$t]}; do coll_variants+=("$t $a"); done
        fi
    done
fi

[ -x "$oshmem_oshcc" ] || die "OSHMEM compiler wrapper $oshmem_oshcc not found (Debian: apt-get install libopenmpi-dev openmpi-bin)"
[ -x "$oshmem_oshrun" ] || die "OSHMEM launcher $oshmem_oshrun not found"
ours_oshrun=$build_dir/bin/oshrun
[ -x "$ours_oshrun" ] || die "Shoal launcher $ours_oshrun not found; build Shoal first"
command -v timeout >/dev/null || die "'timeout' (coreutils) is needed"

if [ -z "$out" ]; then
    mkdir -p "$here/results" || die "cannot create $here/results"
    out=$here/results/$(IFS=-; echo "${run_benches[*]}")-$(date +%Y%m%d-%H%M%S).csv
else
    mkdir -p "$(dirname "$out")" || die "cannot create the directory of $out"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/shoal-compare.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

# --- build and launch commands, per benchmark -----------------------------------
ours_oshcc=$build_dir/bin/oshcc
oshmem_root=()
[ "$(id -u)" = 0 ] && oshmem_root=(--allow-run-as-root)
declare -A oshcc_status=()

# Builds benchmark $1 with OSHMEM, checks it builds with Shoal's oshcc, and
# sets the arrays ours_cmd_$1 and oshmem_cmd_$1 (the two launch commands).
setup_bench() {
    local b=$1 prog=$1_bench src obin bin
    local -n ours_cmd=ours_cmd_$b oshmem_cmd=oshmem_cmd_$b
    src=$here/$prog.c
    [ -f "$src" ] || die "benchmark source $src not found"
    obin=$tmp/$prog.oshmem
    if ! "$oshmem_oshcc" -O2 -o "$obin" "$src" >"$tmp/oshcc.oshmem.$b.log" 2>&1; then
        cat "$tmp/oshcc.oshmem.$b.log" >&2
        die "building $prog with OSHMEM's $oshmem_oshcc failed"
    fi

    oshcc_status[$b]="not checked ($ours_oshcc missing)"
    if [ -x "$ours_oshcc" ]; then
        if "$ours_oshcc" -O2 -o "$tmp/$prog.shoal-oshcc" "$src" >"$tmp/oshcc.shoal.$b.log" 2>&1; then
            oshcc_status[$b]="builds with Shoal's oshcc too"
        else
            oshcc_status[$b]="FAILED to build with Shoal's oshcc (see the setup messages)"
            note "building $prog with $ours_oshcc failed:"
            sed 's/^/    /' "$tmp/oshcc.shoal.$b.log" >&2
        fi
    fi
    bin=$ours_bin
    if [ -z "$bin" ]; then
        if [ -x "$build_dir/bin/$prog" ]; then
            bin=$build_dir/bin/$prog
            [ "$bin" -nt "$src" ] ||
                note "warning: $bin is older than $src; rebuild with: cmake --build $build_dir --target $prog"
        elif [ -x "$tmp/$prog.shoal-oshcc" ]; then
            bin=$tmp/$prog.shoal-oshcc
            note "no $build_dir/bin/$prog; using the one built with $ours_oshcc"
        else
            die "no Shoal $prog binary: build it with cmake --build $build_dir --target $prog"
        fi
    fi
    [ -x "$bin" ] || die "Shoal benchmark binary $bin is not executable"

    local np=2
    [ "$b" != coll ] || np=$npes
    # shellcheck disable=SC2206  # the *_args strings are meant to be word-split
    local args=(-t "${sel_tests[$b]}" ${own_args[$b]} "${bench_args[@]}")
    # shellcheck disable=SC2206
    ours_cmd=("$ours_oshrun" -np "$np" $ours_launch_args "$bin" "${args[@]}")
    # shellcheck disable=SC2206
    oshmem_cmd=("$oshmem_oshrun" "${oshmem_root[@]}" --oversubscribe -np "$np" $oshmem_launch_args
                "$obin" "${args[@]}")
    note "$prog Shoal : ${ours_cmd[*]}"
    note "$prog OSHMEM: ${oshmem_cmd[*]}"
}
for b in "${run_benches[@]}"; do setup_bench "$b"; done
[ "${#coll_variants[@]}" = 0 ] ||
    note "coll_bench Shoal, also once per algorithm and rep: $(printf '%s, ' "${coll_variants[@]/ /@}" | sed 's/, $//')"
note "$reps interleaved runs per library and benchmark; raw CSV -> $out"

# --- runs ----------------------------------------------------------------------
# Per-run bookkeeping is keyed by "bench lib".
echo "lib,rep,test,size,value,unit,iters" >"$out"
declare -A nruns=() ncomplete=() ndata=() nbadexit=() nverify=() lastbad=()
for b in "${run_benches[@]}"; do
    for lib in shoal oshmem alg; do
        k="$b $lib"; nruns[$k]=0; ncomplete[$k]=0; ndata[$k]=0; nbadexit[$k]=0; nverify[$k]=0; lastbad[$k]=
    done
done

# One run of a benchmark.  With a test and an algorithm (coll_bench, Shoal
# only): that test alone, with SMA_<X>_ALGORITHM=<algorithm> (and the
# SHMEM_ spelling, read first, removed); its rows become <test>@<algorithm>.
run_one() { # bench lib rep [test algorithm]
    local b=$1 lib=$2 rep=$3 vt=${4-} va=${5-} k="$1 $2" tag="" o e rc t0 t1 n status data_re var
    local -n base_cmd=${lib/shoal/ours}_cmd_$b
    local cmd=("${base_cmd[@]}")
    if [ -n "$va" ]; then
        var=${coll_var[$vt]}
        cmd=(env -u "SHMEM_${var}_ALGORITHM" "SMA_${var}_ALGORITHM=$va" "${cmd[@]}" -t "$vt")
        k="$b alg" tag=".$vt@$va"
    fi
    o=$tmp/$b.$lib$tag.$rep.out e=$tmp/$b.$lib$tag.$rep.err
    data_re="^($(echo "${bench_tests[$b]}" | tr ' ' '|')),[0-9]+,[0-9.eE+-]+,(us|MB/s|Mops/s)(,|\$)"
    t0=$(date +%s.%N)
    timeout -k 10 "$run_timeout" "${cmd[@]}" >"$o" 2>"$e" </dev/null; rc=$?
    t1=$(date +%s.%N)
    n=$(grep -cE "$data_re" "$o")
    if [ -n "$va" ]; then
        grep -E "^$vt," "$o" | grep -E "$data_re" | sed "s/^$vt,/$vt@$va,/; s/^/$lib,$rep,/" >>"$out"
    else
        grep -E "$data_re" "$o" | sed "s/^/$lib,$rep,/" >>"$out"
    fi
    nruns[$k]=$((nruns[$k] + 1))
    ndata[$k]=$((ndata[$k] + n))
    if grep -q "^${b}_bench: done: " "$e" "$o"; then
        ncomplete[$k]=$((ncomplete[$k] + 1))
        status=complete
        [ "$rc" = 0 ] || { nbadexit[$k]=$((nbadexit[$k] + 1)); status="complete, then exit status $rc"; }
    else
        status="INCOMPLETE (exit status $rc$([ "$rc" = 124 ] && echo ", timed out after ${run_timeout}s"))"
        lastbad[$k]=$e
    fi
    if grep -q 'VERIFY FAILED' "$e" "$o"; then
        nverify[$k]=$((nverify[$k] + 1))
        status="$status, VERIFICATION FAILED"
        lastbad[$k]=$e
    fi
    note "$(printf 'rep %d/%d %-6s %-6s %3d points %6.1fs  %s' "$rep" "$reps" "$b" \
        "$lib${va:+ $vt@$va}" "$n" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$status")"
}

for ((rep = 1; rep <= reps; rep++)); do
    for b in "${run_benches[@]}"; do
        run_one "$b" shoal "$rep"
        run_one "$b" oshmem "$rep"
        if [ "$b" = coll ]; then
            for v in "${coll_variants[@]}"; do
                # shellcheck disable=SC2086  # "test algorithm"
                run_one "$b" shoal "$rep" $v
            done
        fi
    done
done

# --- report ------------------------------------------------------------------
name() { case $1 in shoal) echo Shoal ;; alg) echo "Shoal (per-algorithm runs)" ;; *) echo OSHMEM ;; esac; }
fatal=0
for b in "${run_benches[@]}"; do
    for lib in shoal oshmem alg; do
        k="$b $lib"
        [ "${nruns[$k]}" != 0 ] || continue
        if [ "${lastbad[$k]}" != "" ]; then
            note "${b}_bench, $(name "$lib"): last failing run's stderr (tail):"
            if grep -q '[^[:space:]]' "${lastbad[$k]}"; then
                grep -v '^[[:space:]]*$' "${lastbad[$k]}" | tail -n 25 | sed 's/^/    /' >&2
            else
                echo "    (empty)" >&2
            fi
        fi
        if [ "${ndata[$k]}" = 0 ]; then
            note "error: ${b}_bench: $(name "$lib") produced no data in ${nruns[$k]} runs"
            [ "$lib" = alg ] || fatal=1
        fi
    done
done
[ "$fatal" = 0 ] || { note "raw output kept in $out"; exit 1; }

# The table of one benchmark: the rows of the raw CSV whose test is in $1.
table() { # bench
    local order=${bench_tests[$1]} t a pes=
    if [ "$1" = coll ]; then
        pes=$npes
        if [ "${#coll_variants[@]}" != 0 ]; then
            order=
            for t in ${bench_tests[coll]}; do
                order="$order $t"
                for a in ${coll_algos[$t]}; do order="$order $t@$a"; done
            done
        fi
    fi
    awk -F, -v reps="$reps" -v prog="$1_bench" -v tests="$order" -v pes="$pes" '
function med(key,   n, a, i, j, x) {
    n = split(vals[key], a, " ")
    for (i = 2; i <= n; i++) { x = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    lo[key] = a[1]; hi[key] = a[n]; cnt[key] = n
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function fmt(v, u) { return (u == "us") ? sprintf("%.3f", v) : (u == "MB/s") ? sprintf("%.0f", v) : sprintf("%.2f", v) }
function spread(key, m) { return (m > 0 && cnt[key] > 1) ? sprintf("%.0f%%", (hi[key] - lo[key]) / m * 100) : "-" }
BEGIN { ntest = split(tests, order, " "); for (t = 1; t <= ntest; t++) mine[order[t]] = 1 }
NR == 1 || !($3 in mine) { next }
{
    k = $1 SUBSEP $3 SUBSEP $4
    vals[k] = vals[k] " " $5; unit[$3] = $6; units[$6] = 1
    if (!(($3, $4) in seen)) { seen[$3, $4] = 1; sizes[$3] = sizes[$3] " " $4; nsizes[$3]++ }
}
END {
    printf "## %s: Shoal vs Open MPI OSHMEM, median of %d interleaved runs each%s\n\n", prog, reps,
        (pes != "" ? sprintf(", %d PEs", pes) : "")
    printf "ratio = Shoal / OSHMEM."
    if ("us" in units) printf " Latency rows (us per op): lower is better, ratio < 1 means Shoal is faster."
    printf "\n"
    if ("MB/s" in units) printf "Bandwidth rows (MB/s, 1 MB = 10^6 B): higher is better, ratio > 1 means Shoal is faster.\n"
    if ("Mops/s" in units) printf "Message rate rows (Mops/s, 10^6 operations per second): higher is better, ratio > 1 means Shoal is faster.\n"
    printf "better: the faster side when the medians differ by more than 10%%, else \"~\"; a trailing \"?\" means the\n"
    printf "[min, max] ranges of the two sides over the runs overlap (likely noise). spread = (max - min) / median over the runs.\n"
    for (t = 1; t <= ntest; t++) if (index(order[t], "@") && (order[t] in sizes)) { algrows = 1; break }
    if (algrows) printf "Rows test@algorithm: Shoal with SMA_<X>_ALGORITHM=algorithm against OSHMEM'"'"'s default (the OSHMEM column repeats the plain row).\n"
    printf "\n"
    printf "| test | size (B) | unit | Shoal | OSHMEM | ratio Shoal/OSHMEM | better | spread Shoal | spread OSHMEM |\n"
    printf "|---|---:|---|---:|---:|---:|---|---:|---:|\n"
    for (t = 1; t <= ntest; t++) {
        name = order[t]; if (!(name in sizes)) continue
        u = unit[name]; lat = (u == "us")
        n = split(sizes[name], sz, " ")
        for (i = 2; i <= n; i++) { x = sz[i] + 0; for (j = i - 1; j >= 1 && sz[j] + 0 > x; j--) sz[j + 1] = sz[j]; sz[j + 1] = x }
        gl = 0; gn = 0
        for (i = 1; i <= n; i++) {
            base = name; sub(/@.*/, "", base)
            s = sz[i]; ko = "shoal" SUBSEP name SUBSEP s; kt = "oshmem" SUBSEP base SUBSEP s
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
        # Tests measured at a single size need no summary line.
        if (gn && nsizes[name] > 1) summary = summary sprintf("| %s | %s | %.2f | %d |\n", name, u, exp(gl / gn), gn)
    }
    if (summary != "") {
        printf "\nGeometric mean of the ratio over sizes (same direction rules):\n\n"
        printf "| test | unit | geomean Shoal/OSHMEM | sizes |\n|---|---|---:|---:|\n%s", summary
    }
}' "$out"
}

{
    first=1
    for b in "${run_benches[@]}"; do
        [ "$first" = 1 ] || echo
        first=0
        table "$b"
        echo
        echo "Runs: Shoal ${ncomplete[$b shoal]}/${nruns[$b shoal]} complete," \
             "OSHMEM ${ncomplete[$b oshmem]}/${nruns[$b oshmem]} complete." \
             "Benchmark source ${oshcc_status[$b]}."
        [ "${nruns[$b alg]}" = 0 ] ||
            echo "Shoal per-algorithm runs: ${ncomplete[$b alg]}/${nruns[$b alg]} complete."
        [ "${nbadexit[$b oshmem]}" = 0 ] ||
            echo "OSHMEM: ${nbadexit[$b oshmem]} run(s) exited non-zero after printing every result (Open MPI 4.1.4 crashes in shmem_finalize here)."
        [ "${nbadexit[$b shoal]}" = 0 ] ||
            echo "Shoal: ${nbadexit[$b shoal]} run(s) exited non-zero after printing every result."
        [ "${nbadexit[$b alg]}" = 0 ] ||
            echo "Shoal per-algorithm runs: ${nbadexit[$b alg]} exited non-zero after printing every result."
    done
    echo "Raw CSV: $out"
} | tee "${out%.csv}.md"

rc=0
for b in "${run_benches[@]}"; do
    for lib in shoal oshmem alg; do
        k="$b $lib"
        if [ "${ncomplete[$k]}" != "${nruns[$k]}" ]; then
            note "warning: ${b}_bench, $(name "$lib"): $((nruns[$k] - ncomplete[$k])) of ${nruns[$k]} runs did not finish; their partial results are included"
            rc=2
        fi
        if [ "${nverify[$k]}" != 0 ]; then
            note "warning: ${b}_bench, $(name "$lib"): ${nverify[$k]} run(s) failed the benchmark's data verification"
            rc=2
        fi
    done
done
exit $rc
