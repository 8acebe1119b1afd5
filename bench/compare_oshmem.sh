#!/usr/bin/env bash
# compare_oshmem.sh: run the benchmarks of bench/ (putget_bench.c, amo_bench.c,
# coll_bench.c) with Shoal and with Open MPI's OSHMEM, interleaved (for each
# rep and each benchmark: Shoal, then OSHMEM), and print the median of each
# (test, size) for both side by side with their ratio, one table per benchmark
# (and PE count).  limits_bench (the machine's memcpy bandwidth and cache-line
# round trip, no SHMEM) runs once per rep in the same loop, as lib "limit"; with
# --hosts 2 or more so does tcp_floor between hosts 1 and 2 (one small TCP
# message each way with no library at all, tests tcp_*), so the floor is
# measured in the same reps as the libraries.
#
# With --globals, putget_bench and amo_bench also run with --target global
# (their objects in a static array instead of the heap), for both libraries;
# those rows are named <test>@global.
#
# With --algorithms, coll_bench also runs on Shoal once per collective
# algorithm of docs/collectives.md (SMA_<X>_ALGORITHM=<name>); those rows are
# named <test>@<algorithm> and are compared with OSHMEM's default.
#
# The same source file is built for both: with OSHMEM's oshcc into a temp
# dir, and for Shoal the CMake-built build/bin/<name>_bench (also compiled
# with Shoal's build/bin/oshcc when that wrapper exists, to show the source
# builds with both).  Raw results go to a CSV (default
# bench/results/<name>-<date>.csv, columns lib,rep,npes,test,size,value,unit,
# iters), the medians to <csv>.medians.csv (medians.awk) and the tables
# (report.awk) also to <csv>.md.
#
# With --busy N, N processes that only compute run beside both libraries for
# the whole comparison: a node where other work shares the PEs' CPUs (another
# job, the program's own threads).
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
known_benches=(limits putget amo coll)
declare -A bench_tests=(
    [putget]="put_lat put_lat_noquiet get_lat put_signal_lat flag_lat flag_idle_lat iput_lat iget_lat put_bw get_bw put_rate get_rate"
    [amo]="fadd_lat cswap_lat swap_lat fetch_lat add_lat add_rate put8_rate add_rate_many"
    [coll]="barrier_all team_sync broadcast sum_reduce sum_reduce_double collect fcollect alltoall"
    [limits]="memcpy_bw cacheline_rtt cacheline_oneway tcp_pingpong_spin tcp_pingpong_epoll tcp_exchange_spin tcp_exchange_epoll"
)
# The limits tests that tcp_floor measures across hosts (--hosts); limits_bench measures the others.
floor_tests="tcp_pingpong_spin tcp_pingpong_epoll tcp_exchange_spin tcp_exchange_epoll"
# coll_bench's tests and the variable that picks Shoal's algorithm for each.
declare -A coll_var=([barrier_all]=BARRIER [team_sync]=BARRIER [broadcast]=BCAST
                     [sum_reduce]=REDUCE [sum_reduce_double]=REDUCE
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
declare -A own_args=([putget]="" [amo]="" [coll]="" [limits]="")
npes=2
hosts=0
host_cpus='split'
algorithms=0
globals=0
alg_args=
alg_reps=
busy=0

usage() {
    cat <<EOF
usage: bench/compare_oshmem.sh [options] [-- benchmark options]
  --bench NAME             putget (default), amo, coll, limits, or all (all
                           four, interleaved rep by rep)
  --reps N                 runs per library and benchmark, interleaved (default $reps)
  --build-dir DIR          Shoal build dir with bin/oshrun (default $build_dir)
  --tests LIST             tests to run, comma- or space-separated, or 'all';
                           each goes to the benchmark it belongs to:
                           putget: ${bench_tests[putget]}
                           amo:    ${bench_tests[amo]}
                           coll:   ${bench_tests[coll]}
                           limits: ${bench_tests[limits]}
  --npes LIST              PE counts for coll_bench, e.g. 2 or 2,4,8 (default
                           $npes; putget and amo run on 2, amo's add_rate_many
                           on each of LIST too)
  --globals                putget and amo also run on static (global) objects
                           (--target global), both libraries; rows <test>@global
  --algorithms             coll_bench also runs on Shoal once per algorithm of
                           each selected test, as listed in docs/collectives.md,
                           with SMA_<X>_ALGORITHM=<name>; rows <test>@<name>,
                           compared with OSHMEM's default
  --alg-args STR           extra coll_bench arguments for those runs only
                           (e.g. '--max-size 64K')
  --alg-reps N             those runs only in the first N reps (default all)
  --hosts N                across N hosts of a network-namespace test bed
                           (scripts/netns, needs root): both libraries are
                           started by Open MPI's mpirun, PEs placed round-robin
                           (putget and amo: one PE on each of 2 hosts; coll:
                           --npes over N hosts), UCX over TCP between hosts
                           (UCX_TLS=tcp,self,sm UCX_NET_DEVICES=shoal0)
  --host-cpus MODE         with --hosts: split (default) gives each host CPUs of
                           its own, as real hosts have (scripts/netns,
                           SHOAL_NETNS_HOST_CPUS); shared lets every host run
                           on every CPU
  --busy N                 N processes that only compute run beside both
                           libraries for the whole comparison (default 0)
  --out FILE               raw CSV (default bench/results/<name>-<date>.csv)
  --timeout SEC            limit for one run (default $run_timeout)
  --ours-bin PATH          Shoal benchmark binary (default DIR/bin/<name>_bench;
                           only with a single benchmark)
  --ours-launch-args STR   extra arguments for Shoal's oshrun
  --oshmem-launch-args STR extra arguments for OSHMEM's oshrun (e.g. '--mca spml ucx')
  --putget-args STR        extra arguments for putget_bench only (e.g. '--max-size 64K')
  --amo-args STR           extra arguments for amo_bench only (e.g. '--window 128')
  --coll-args STR          extra arguments for coll_bench only (e.g. '--max-size 64K')
  --limits-args STR        extra arguments for limits_bench only (e.g. '-S 64K')
  -h, --help               this text
Anything after -- goes to every SHMEM benchmark that runs (e.g. -- --max-time
0.1; with --bench putget or coll, also -- --max-size 64K), not to limits_bench.
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
    --limits-args) own_args[limits]=${2?}; shift 2 ;;
    --limits-args=*) own_args[limits]=${1#*=}; shift ;;
    --alg-args) alg_args=${2?}; shift 2 ;;
    --alg-args=*) alg_args=${1#*=}; shift ;;
    --alg-reps) alg_reps=${2:?}; shift 2 ;;
    --alg-reps=*) alg_reps=${1#*=}; shift ;;
    --npes) npes=${2:?}; shift 2 ;;
    --npes=*) npes=${1#*=}; shift ;;
    --globals) globals=1; shift ;;
    --hosts) hosts=${2:?}; shift 2 ;;
    --hosts=*) hosts=${1#*=}; shift ;;
    --host-cpus) host_cpus=${2:?}; shift 2 ;;
    --host-cpus=*) host_cpus=${1#*=}; shift ;;
    --algorithms) algorithms=1; shift ;;
    --busy) busy=${2:?}; shift 2 ;;
    --busy=*) busy=${1#*=}; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; bench_args=("$@"); break ;;
    *) usage >&2; die "unknown argument '$1'" ;;
    esac
done
case $reps in ''|*[!0-9]*|0) die "--reps needs a positive integer" ;; esac
case $hosts in ''|*[!0-9]*) die "--hosts needs a whole number" ;; esac
case $host_cpus in split|shared) ;; *) die "--host-cpus needs split or shared" ;; esac
case $busy in ''|*[!0-9]*) die "--busy needs a whole number" ;; esac
case $run_timeout in ''|*[!0-9]*|0) die "--timeout needs a positive integer (seconds)" ;; esac
npes_list=()
for n in ${npes//,/ }; do
    case $n in ''|*[!0-9]*|0) die "--npes needs positive integers, e.g. 2 or 2,4,8" ;; esac
    npes_list+=("$n")
done
[ "${#npes_list[@]}" -gt 0 ] || die "--npes needs a value"
alg_reps=${alg_reps:-$reps}
case $alg_reps in ''|*[!0-9]*) die "--alg-reps needs a non-negative integer" ;; esac
case $bench in
all) benches=("${known_benches[@]}") ;;
putget|amo|coll|limits) benches=("$bench") ;;
*) die "--bench must be putget, amo, coll, limits or all, not '$bench'" ;;
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
# The limits tests split between limits_bench (limits_sel) and tcp_floor (floor_sel), each
# comma-separated or 'all', empty when none is selected; tcp_floor runs only with --hosts 2 or
# more (it needs hosts 1 and 2).
limits_sel= floor_sel=
if [ "${sel_tests[limits]:-}" = all ]; then
    limits_sel=all floor_sel=all
elif [ -n "${sel_tests[limits]:-}" ]; then
    for t in $(echo "${sel_tests[limits]}" | tr ',' ' '); do
        if [[ " $floor_tests " == *" $t "* ]]; then
            floor_sel=${floor_sel:+$floor_sel,}$t
        else
            limits_sel=${limits_sel:+$limits_sel,}$t
        fi
    done
fi
if [ "$hosts" -lt 2 ] && [ -n "$floor_sel" ]; then
    [ "$floor_sel" = all ] || note "$floor_sel: measured between two hosts only (--hosts 2 or more): skipped"
    floor_sel=
fi
[ -n "$limits_sel$floor_sel" ] || sel_tests[limits]=
run_benches=()
for b in "${benches[@]}"; do [ -z "${sel_tests[$b]:-}" ] || run_benches+=("$b"); done
[ "${#run_benches[@]}" -gt 0 ] || die "no tests selected"
[ -z "$ours_bin" ] || [ "${#run_benches[@]}" = 1 ] ||
    die "--ours-bin names one binary, but more than one benchmark would run"
[ "$npes" = 2 ] || [[ " ${run_benches[*]} " != *" putget "* && " ${run_benches[*]} " != *" amo "* ]] ||
    note "--npes $npes applies to coll_bench and amo_bench's add_rate_many only; the rest runs on 2 PEs"

# The PE counts benchmark $1 runs on: coll_bench each of --npes; amo_bench 2, and each larger
# one of --npes when add_rate_many is selected (the only test it runs on more than 2 PEs); the
# others 2.
bench_npes() {
    case $1 in
    coll) echo "${npes_list[@]}" ;;
    amo)
        local n list=2
        if [ "${sel_tests[amo]}" = all ] || [[ ",${sel_tests[amo]}," == *",add_rate_many,"* ]]; then
            for n in "${npes_list[@]}"; do [ "$n" -le 2 ] || list="$list $n"; done
        fi
        echo "$list" ;;
    *) echo 2 ;;
    esac
}

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
bed_up=0      # a test bed of --hosts to take down at the end
busy_pids=()  # the --busy processes
cleanup() {
    [ "${#busy_pids[@]}" = 0 ] || kill "${busy_pids[@]}" 2>/dev/null
    [ "$bed_up" = 0 ] || "$netns/netns_testbed.sh" down "$SHOAL_NETNS_PREFIX"
    rm -rf "$tmp"
}
trap cleanup EXIT

# --- launchers: oshrun on this host, or mpirun across the hosts of a test bed ---------
oshmem_root=()
[ "$(id -u)" = 0 ] && oshmem_root=(--allow-run-as-root)
ours_launch=("$ours_oshrun")
oshmem_launch=("$oshmem_oshrun" "${oshmem_root[@]}" --oversubscribe)
if [ "$hosts" -gt 0 ]; then
    netns=$repo/scripts/netns
    mpirun=$(command -v mpirun) || die "--hosts needs Open MPI's mpirun (apt-get install openmpi-bin)"
    why=$("$netns/netns_testbed.sh" check) || die "--hosts: $why"
    export SHOAL_NETNS_PREFIX="shoal-bench$$" SHOAL_NETNS_HOST_CPUS=$host_cpus
    "$netns/netns_testbed.sh" sweep shoal-bench
    bed_up=1
    "$netns/netns_testbed.sh" up "$SHOAL_NETNS_PREFIX" "$hosts" "$tmp/hostfile" >/dev/null ||
        die "could not build the test bed of $hosts hosts"
    export UCX_TLS=${UCX_TLS:-tcp,self,sm} UCX_NET_DEVICES=${UCX_NET_DEVICES:-shoal0}
    # mpirun runs on host 1 and starts the others through the bed's remote-start agent; the
    # variables both libraries read go to every PE.
    bed_mpirun=("$netns/netns_testbed.sh" exec "$SHOAL_NETNS_PREFIX" 1 "$mpirun"
                --allow-run-as-root --oversubscribe --bind-to none --hostfile "$tmp/hostfile"
                --map-by node --mca plm_rsh_agent "$netns/netns_rsh.sh"
                --mca plm_rsh_no_tree_spawn 1 --mca oob_tcp_if_include 198.18.0.0/15
                --mca orte_tmpdir_base "$tmp" -x UCX_TLS -x UCX_NET_DEVICES)
    for x in $(compgen -e); do
        case $x in SMA_* | SHMEM_* | LD_LIBRARY_PATH) bed_mpirun+=(-x "$x") ;; esac
    done
    ours_launch=("${bed_mpirun[@]}")
    # OSHMEM's UCX SPML over TCP on the bed's interface; with 2 PEs on a 2-CPU host its PEs
    # yield when idle, as Open MPI advises for oversubscribed nodes.
    oshmem_launch=("${bed_mpirun[@]}" --mca spml ucx --mca pml ucx --mca pml_ucx_tls any
                   --mca pml_ucx_devices any --mca btl self,vader,tcp
                   --mca btl_tcp_if_include 198.18.0.0/15 -x OMPI_MCA_mpi_yield_when_idle=1)
    note "across $hosts hosts of test bed $SHOAL_NETNS_PREFIX (UCX_TLS=$UCX_TLS UCX_NET_DEVICES=$UCX_NET_DEVICES)"
    for ((host = 1; host <= hosts; ++host)); do
        cpus=$("$netns/netns_testbed.sh" cpus "$SHOAL_NETNS_PREFIX" "$host") || die "--host-cpus: see above"
        note "host $host runs on CPUs ${cpus:-(all)} (--host-cpus $host_cpus)"
    done
fi

# --- build and launch commands, per benchmark -----------------------------------
ours_oshcc=$build_dir/bin/oshcc
declare -A oshcc_status=()

# Builds benchmark $1 with OSHMEM, checks it builds with Shoal's oshcc, and
# sets ours_bin_$1, oshmem_bin_$1 and args_$1; run_one makes the launch
# commands.  limits_bench needs no SHMEM: only the CMake-built binary.
setup_bench() {
    local b=$1 prog=$1_bench src obin bin
    local -n obin_ref=oshmem_bin_$b bin_ref=ours_bin_$b args_ref=args_$b
    src=$here/$prog.c
    [ -f "$src" ] || die "benchmark source $src not found"
    # shellcheck disable=SC2206  # the *_args strings are meant to be word-split
    if [ "$b" = limits ]; then
        args_ref=(-t "$limits_sel" ${own_args[$b]})
    else
        args_ref=(-t "${sel_tests[$b]}" ${own_args[$b]} "${bench_args[@]}")
    fi
    bin=$ours_bin
    if [ "$b" = limits ]; then
        bin=$build_dir/bin/$prog
        [ -z "$limits_sel" ] || [ -x "$bin" ] ||
            die "no $bin: build it with cmake --build $build_dir --target $prog"
        bin_ref=$bin
        oshcc_status[$b]="needs no SHMEM"
        [ -z "$limits_sel" ] || note "$prog (machine limits): $bin ${args_ref[*]}"
        if [ -n "$floor_sel" ]; then
            floor_bin=$build_dir/bin/tcp_floor
            [ -x "$floor_bin" ] ||
                die "no $floor_bin: build it with cmake --build $build_dir --target tcp_floor"
            note "tcp_floor (the kernel's floor between hosts 1 and 2): $floor_bin -t $floor_sel"
        fi
        return
    fi
    obin=$tmp/$prog.oshmem
    if ! "$oshmem_oshcc" -O2 -o "$obin" "$src" >"$tmp/oshcc.oshmem.$b.log" 2>&1; then
        cat "$tmp/oshcc.oshmem.$b.log" >&2
        # openmpi-bin brings the wrapper; OSHMEM's shmem.h comes with libopenmpi-dev.
        grep -q 'shmem.h: No such file' "$tmp/oshcc.oshmem.$b.log" &&
            die "building $prog with OSHMEM's $oshmem_oshcc failed: OSHMEM's headers are missing (Debian: apt-get install libopenmpi-dev, or scripts/install-deps.sh --bench)"
        die "building $prog with OSHMEM's $oshmem_oshcc failed"
    fi
    obin_ref=$obin

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
    bin_ref=$bin
    note "$prog Shoal : ${ours_launch[*]} -np N $ours_launch_args $bin ${args_ref[*]}"
    note "$prog OSHMEM: ${oshmem_launch[*]} -np N $oshmem_launch_args $obin ${args_ref[*]}"
}
for b in "${run_benches[@]}"; do setup_bench "$b"; done
[ "${#coll_variants[@]}" = 0 ] ||
    note "coll_bench Shoal, also once per algorithm in the first $alg_reps rep(s): $(printf '%s, ' "${coll_variants[@]/ /@}" | sed 's/, $//')${alg_args:+ (with $alg_args)}"
note "$reps interleaved runs per library and benchmark; coll_bench on ${npes_list[*]} PEs; raw CSV -> $out"

# --- other work beside the PEs (--busy) ----------------------------------------
for ((i = 0; i < busy; i++)); do
    bash -c 'while :; do :; done' &
    busy_pids+=($!)
done
[ "$busy" = 0 ] || note "$busy busy process(es) beside the PEs for the whole run"

# --- runs ----------------------------------------------------------------------
# Per-run bookkeeping is keyed by "bench lib"; lib is shoal, oshmem, alg
# (Shoal's per-algorithm runs) or limit.
echo "lib,rep,npes,test,size,value,unit,iters" >"$out"
declare -A nruns=() ncomplete=() ndata=() nbadexit=() nverify=() lastbad=()
for b in "${run_benches[@]}"; do
    for lib in shoal oshmem alg limit; do
        k="$b $lib"; nruns[$k]=0; ncomplete[$k]=0; ndata[$k]=0; nbadexit[$k]=0; nverify[$k]=0; lastbad[$k]=
    done
done

# One run of a benchmark on np PEs.  With a test and an algorithm
# (coll_bench, Shoal only): that test alone, with SMA_<X>_ALGORITHM=<algorithm>
# (and the SHMEM_ spelling, read first, removed); its rows become
# <test>@<algorithm>.  The CSV's lib column says "shoal" for those rows.
# With run_target=global (putget, amo): the objects in a static array (--target global);
# the rows become <test>@global.
run_target=heap
run_one() { # bench lib rep np [test algorithm]
    local b=$1 lib=$2 rep=$3 np=$4 vt=${5-} va=${6-} k="$1 $2" tag="" o e rc t0 t1 n status data_re var
    local -n bin_ref=ours_bin_$b obin_ref=oshmem_bin_$b run_args=args_$b
    local cmd csvlib=$lib
    # shellcheck disable=SC2206  # the *_launch_args strings are meant to be word-split
    case $lib in
    limit) cmd=("$bin_ref" "${run_args[@]}") np=1 ;;
    shoal) cmd=("${ours_launch[@]}" -np "$np" $ours_launch_args "$bin_ref" "${run_args[@]}") ;;
    *) cmd=("${oshmem_launch[@]}" -np "$np" $oshmem_launch_args "$obin_ref" "${run_args[@]}") ;;
    esac
    if [ -n "$va" ]; then
        var=${coll_var[$vt]}
        # shellcheck disable=SC2206
        cmd=(env -u "SHMEM_${var}_ALGORITHM" "SMA_${var}_ALGORITHM=$va" "${cmd[@]}" -t "$vt" $alg_args)
        k="$b alg" tag=".$vt@$va" csvlib=shoal
    fi
    [ "$run_target" = heap ] || { cmd+=(--target "$run_target"); tag="$tag@$run_target"; }
    o=$tmp/$b.$lib$tag.$np.$rep.out e=$tmp/$b.$lib$tag.$np.$rep.err
    data_re="^($(echo "${bench_tests[$b]}" | tr ' ' '|')),[0-9]+,[0-9.eE+-]+,(us|MB/s|Mops/s)(,|\$)"
    t0=$(date +%s.%N)
    timeout -k 10 "$run_timeout" "${cmd[@]}" >"$o" 2>"$e" </dev/null; rc=$?
    t1=$(date +%s.%N)
    n=$(grep -cE "$data_re" "$o")
    if [ -n "$va" ]; then
        grep -E "^$vt," "$o" | grep -E "$data_re" | sed "s/^$vt,/$vt@$va,/; s/^/$csvlib,$rep,$np,/" >>"$out"
    elif [ "$run_target" != heap ]; then
        grep -E "$data_re" "$o" | sed -E "s/^([a-z0-9_]+),/\1@$run_target,/; s/^/$csvlib,$rep,$np,/" >>"$out"
    else
        grep -E "$data_re" "$o" | sed "s/^/$csvlib,$rep,$np,/" >>"$out"
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
    note "$(printf 'rep %d/%d %-6s %-6s %dPE %3d points %6.1fs  %s' "$rep" "$reps" "$b" \
        "$lib${va:+ $vt@$va}$([ "$run_target" = heap ] || echo "@$run_target")" "$np" "$n" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$status")"
}

# One run of tcp_floor between hosts 1 and 2 of the bed (--hosts), rows of lib "limit" on 2 PEs:
# host 2 listens, host 1 connects and prints the results.
run_floor() { # rep
    local rep=$1 k="limits limit" o=$tmp/floor.$1.out e=$tmp/floor.$1.err rc=0 n status
    local -a on=("$netns/netns_testbed.sh" exec "$SHOAL_NETNS_PREFIX")
    "${on[@]}" 2 timeout -k 5 "$run_timeout" "$floor_bin" --listen -t "$floor_sel" \
        >/dev/null 2>"$e.listen" </dev/null &
    local listener=$!
    timeout -k 10 "$run_timeout" "${on[@]}" 1 "$floor_bin" -t "$floor_sel" \
        --connect "$("$netns/netns_testbed.sh" address 2)" >"$o" 2>"$e" </dev/null || rc=$?
    wait "$listener" || [ "$rc" != 0 ] || rc=1
    n=$(grep -cE '^tcp_[a-z_]+,[0-9]+,[0-9.]+,us,' "$o")
    grep -E '^tcp_[a-z_]+,[0-9]+,[0-9.]+,us,' "$o" | sed "s/^/limit,$rep,2,/" >>"$out"
    nruns[$k]=$((nruns[$k] + 1))
    ndata[$k]=$((ndata[$k] + n))
    if grep -q '^tcp_floor: done: ' "$e" && [ "$rc" = 0 ]; then
        ncomplete[$k]=$((ncomplete[$k] + 1))
        status=complete
    else
        status="INCOMPLETE (exit status $rc)"
        lastbad[$k]=$e
    fi
    note "$(printf 'rep %d/%d %-6s %-6s 2 hosts %3d points  %s' "$rep" "$reps" floor limit "$n" "$status")"
}

for ((rep = 1; rep <= reps; rep++)); do
    for b in "${run_benches[@]}"; do
        if [ "$b" = limits ]; then
            [ -z "$limits_sel" ] || run_one "$b" limit "$rep" 1
            [ -z "$floor_sel" ] || run_floor "$rep"
            continue
        fi
        read -ra nps <<<"$(bench_npes "$b")"
        for np in "${nps[@]}"; do
            run_one "$b" shoal "$rep" "$np"
            run_one "$b" oshmem "$rep" "$np"
            if [ "$globals" = 1 ] && { [ "$b" = putget ] || [ "$b" = amo ]; }; then
                run_target=global
                run_one "$b" shoal "$rep" "$np"
                run_one "$b" oshmem "$rep" "$np"
                run_target=heap
            fi
            if [ "$b" = coll ] && [ "$rep" -le "$alg_reps" ]; then
                for v in "${coll_variants[@]}"; do
                    # shellcheck disable=SC2086  # "test algorithm"
                    run_one "$b" shoal "$rep" "$np" $v
                done
            fi
        done
    done
done

# --- report ------------------------------------------------------------------
name() { case $1 in shoal) echo Shoal ;; alg) echo "Shoal (per-algorithm runs)" ;; limit) echo "machine limits" ;; *) echo OSHMEM ;; esac; }
fatal=0
for b in "${run_benches[@]}"; do
    for lib in shoal oshmem alg limit; do
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

# The medians, taken once (medians.awk), feed every table (report.awk).
medians=${out%.csv}.medians.csv
awk -F, -f "$here/medians.awk" "$out" >"$medians" || die "medians.awk failed on $out"

# The table of one benchmark (and PE count).
table() { # bench [npes]
    local order=${bench_tests[$1]} t a
    if [ "$1" = coll ] && [ "${#coll_variants[@]}" != 0 ]; then
        order=
        for t in ${bench_tests[coll]}; do
            order="$order $t"
            for a in ${coll_algos[$t]}; do order="$order $t@$a"; done
        done
    fi
    if [ "$globals" = 1 ] && { [ "$1" = putget ] || [ "$1" = amo ]; }; then
        order=
        for t in ${bench_tests[$1]}; do order="$order $t $t@global"; done
    fi
    awk -F, -v reps="$reps" -v prog="$1_bench" -v tests="$order" -v npes="${2-}" \
        -f "$here/report.awk" "$medians"
}

{
    first=1
    for b in "${run_benches[@]}"; do
        nps=("")
        [ "$b" != coll ] || nps=("${npes_list[@]}")
        [ "$b" != amo ] || read -ra nps <<<"$(bench_npes amo)"
        [ "${#nps[@]}" != 1 ] || [ "$b" = coll ] || nps=("")
        for np in "${nps[@]}"; do
            [ "$first" = 1 ] || echo
            first=0
            table "$b" "$np"
        done
        echo
        if [ "$b" = limits ]; then
            echo "Runs: ${ncomplete[$b limit]}/${nruns[$b limit]} complete."
            continue
        fi
        echo "Runs: Shoal ${ncomplete[$b shoal]}/${nruns[$b shoal]} complete," \
             "OSHMEM ${ncomplete[$b oshmem]}/${nruns[$b oshmem]} complete." \
             "Benchmark source ${oshcc_status[$b]}."
        [ "${nruns[$b alg]}" = 0 ] ||
            echo "Shoal per-algorithm runs: ${ncomplete[$b alg]}/${nruns[$b alg]} complete (rows test@algorithm: median of $alg_reps run(s)${alg_args:+, coll_bench $alg_args})."
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
    for lib in shoal oshmem alg limit; do
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
