#!/usr/bin/env bash
# plot_suite.sh: PNG charts from the medians CSV of medians.awk
# (lib,npes,test,size,unit,median,min,max,n,limit), with gnuplot.
#
#   <test>-<npes>pe.png  one per test measured at several sizes: log-log,
#                        x = message size, lines for Shoal, OSHMEM, the
#                        machine's limit where one applies, and (thin,
#                        dashed) Shoal's per-algorithm runs <test>@<algo>
#   amo_lat.png          the single-size atomic latencies, Shoal vs OSHMEM,
#                        with the cache-line one-way time
#   amo_rate.png         the single-size message rates
#   sync.png             barrier_all and team_sync against the PE count
#
# Prints the names of the PNGs it wrote, one a line, in a sensible order.
# Usage: bench/plot_suite.sh MEDIANS_CSV OUTDIR
set -uo pipefail
[ $# = 2 ] || { echo "usage: $0 MEDIANS_CSV OUTDIR" >&2; exit 2; }
med=$1 dir=$2
command -v gnuplot >/dev/null || { echo "plot_suite: gnuplot not found" >&2; exit 1; }
[ -f "$med" ] || { echo "plot_suite: $med not found" >&2; exit 1; }
mkdir -p "$dir" || exit 1

direction() { case $1 in us) echo "lower is better" ;; *) echo "higher is better" ;; esac; }
# Runs gnuplot on the script on stdin; prints $1 (the PNG) if it worked.
gp() {
    if gnuplot 2>"$dir/.gnuplot.err"; then
        echo "$1"
    else
        echo "plot_suite: gnuplot failed for $1:" >&2
        cat "$dir/.gnuplot.err" >&2
    fi
}
term='set terminal pngcairo noenhanced size 900,560 font "Sans,10"; set key top left box opaque; set grid'

# "test npes unit" of every Shoal series with more than one size, in file order.
series=$(awk -F, 'NR > 1 && $1 == "shoal" && $3 !~ /@/ { k = $3 " " $2 " " $5; if (!(k in n)) o[++m] = k; n[k]++ }
                  END { for (i = 1; i <= m; i++) { split(o[i], f, " "); if (n[o[i]] > 1) print o[i] } }' "$med")

while read -r test np unit; do
    [ -n "$test" ] || continue
    png=$dir/$test-${np}pe.png
    {
        echo "$term"
        echo "set output '$png'"
        echo "set title '$test, $np PEs, $unit ($(direction "$unit"))'"
        echo "set logscale x 2; set logscale y 10; set xtics 4; set format x '%.0b%BB'"
        echo "set xlabel 'message size (bytes per PE for collectives)'"
        echo "set ylabel '$unit'"
        # One data block per line: Shoal, OSHMEM, limit, then each algorithm.
        awk -F, -v t="$test" -v np="$np" -v u="$unit" '
            NR == 1 { next }
            $2 != np && $1 != "limit" { next }
            $1 == "shoal" && $3 == t { s = s $4 " " $6 "\n"; if ($10 != "") l = l $4 " " $10 "\n" }
            $1 == "oshmem" && $3 == t { o = o $4 " " $6 "\n" }
            $1 == "shoal" && index($3, t "@") == 1 { a = substr($3, length(t) + 2); if (!(a in al)) ao[++na] = a; al[a] = al[a] $4 " " $6 "\n" }
            END {
                printf "$shoal << EOD\n%sEOD\n", s
                plot = "plot $shoal using 1:2 with linespoints lw 2.5 pt 7 lc rgb \"#1f77b4\" title \"Shoal (auto)\""
                if (o != "") { printf "$oshmem << EOD\n%sEOD\n", o; plot = plot ", $oshmem using 1:2 with linespoints lw 2.5 pt 5 lc rgb \"#d62728\" title \"Open MPI OSHMEM\"" }
                if (l != "") { printf "$limit << EOD\n%sEOD\n", l; plot = plot ", $limit using 1:2 with lines lw 2 dt 2 lc rgb \"black\" title \"machine limit (" (u == "us" ? "cache-line one-way" : u == "MB/s" ? "memcpy" : "memcpy / size") ")\"" }
                split("#2ca02c #9467bd #ff7f0e #8c564b #e377c2 #17becf #7f7f7f", c, " ")
                for (i = 1; i <= na; i++) {
                    printf "$alg%d << EOD\n%sEOD\n", i, al[ao[i]]
                    plot = plot sprintf(", $alg%d using 1:2 with linespoints lw 1.5 dt 2 pt %d ps 0.8 lc rgb \"%s\" title \"Shoal %s\"", i, i + 7, c[(i - 1) % 7 + 1], ao[i])
                }
                print plot
            }' "$med"
    } | gp "$png"
done <<<"$series"

# Categorical chart of single-size tests at 2 PEs: $1 file, $2 title, $3 unit,
# $4 the tests; a horizontal line at the cache-line one-way time for us.
bars() {
    local png=$dir/$1 data lim plot
    data=$(awk -F, -v tests="$4" 'BEGIN { n = split(tests, o, " ") }
        NR > 1 && $2 == 2 && ($1 == "shoal" || $1 == "oshmem") { v[$1, $3] = $6 }
        NR > 1 && $1 == "limit" && $3 == "cacheline_oneway" { lim = $6 }
        END { for (i = 1; i <= n; i++) if (("shoal", o[i]) in v)
                  printf "%s %s %s %s\n", o[i], v["shoal", o[i]], ((("oshmem", o[i]) in v) ? v["oshmem", o[i]] : "NaN"), (lim == "" ? "NaN" : lim) }' "$med")
    [ -n "$data" ] || return 0
    {
        echo "$term"
        echo "set output '$png'"
        echo "set title '$2, 2 PEs, $3 ($(direction "$3"))'"
        echo "set style data histograms; set style histogram clustered gap 1; set style fill solid 0.8 border -1"
        echo "set ylabel '$3'; set yrange [0:*]; set boxwidth 0.9"
        # shellcheck disable=SC2016  # $d is a gnuplot data block
        printf '$d << EOD\n%s\nEOD\n' "$data"
        plot="plot \$d using 2:xtic(1) lc rgb '#1f77b4' title 'Shoal', '' using 3 lc rgb '#d62728' title 'Open MPI OSHMEM'"
        lim=$(awk 'NR == 1 { print $4 }' <<<"$data")
        [ "$3" != us ] || [ "$lim" = NaN ] ||
            plot="$plot, $lim with lines lw 2 dt 2 lc rgb 'black' title 'cache-line one-way (machine)'"
        echo "$plot"
    } | gp "$png"
}
bars amo_lat.png "atomics latency" us "fadd_lat cswap_lat swap_lat fetch_lat add_lat"
bars amo_rate.png "message rate" Mops/s "add_rate put8_rate"

# barrier_all and team_sync against the PE count.
sync_data=$(awk -F, 'NR > 1 && ($3 == "barrier_all" || $3 == "team_sync") && ($1 == "shoal" || $1 == "oshmem") { v[$1, $3, $2] = $6; np[$2] = 1 }
    END { for (p in np) printf "%d %s %s %s %s\n", p, (("shoal", "barrier_all", p) in v) ? v["shoal", "barrier_all", p] : "NaN",
              (("oshmem", "barrier_all", p) in v) ? v["oshmem", "barrier_all", p] : "NaN",
              (("shoal", "team_sync", p) in v) ? v["shoal", "team_sync", p] : "NaN",
              (("oshmem", "team_sync", p) in v) ? v["oshmem", "team_sync", p] : "NaN" }' "$med" | sort -n)
if [ -n "$sync_data" ]; then
    {
        echo "$term"
        echo "set output '$dir/sync.png'"
        echo "set title 'barrier_all and team_sync, us per call (lower is better)'"
        echo "set logscale xy 2; set xlabel 'PEs'; set ylabel 'us'; set xtics (2, 4, 8, 16, 32, 64)"
        # shellcheck disable=SC2016  # $d is a gnuplot data block
        printf '$d << EOD\n%s\nEOD\n' "$sync_data"
        echo "plot \$d using 1:2 with linespoints lw 2.5 pt 7 lc rgb '#1f77b4' title 'barrier_all Shoal', \
'' using 1:3 with linespoints lw 2.5 pt 5 lc rgb '#d62728' title 'barrier_all OSHMEM', \
'' using 1:4 with linespoints lw 1.5 dt 2 pt 7 lc rgb '#1f77b4' title 'team_sync Shoal', \
'' using 1:5 with linespoints lw 1.5 dt 2 pt 5 lc rgb '#d62728' title 'team_sync OSHMEM (shmem_sync)'"
    } | gp "$dir/sync.png"
fi
rm -f "$dir/.gnuplot.err"
