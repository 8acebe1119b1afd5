# targets.awk: the performance targets of issue 5, checked against the
# medians CSV of medians.awk (lib,npes,test,size,unit,median,min,max,n,limit).
# All targets are at 2 PEs; ratio = Shoal / OSHMEM of the medians of one run
# of the suite.  Prints a markdown table: target, measured, goal, result
# (MET, MISSED, or NO DATA when a point is missing).
# Usage: awk -F, -f targets.awk medians.csv
function have(lib, t, s) { return (lib SUBSEP 2 SUBSEP t SUBSEP s) in med }
function ratio(t, s) {
    if (!have("shoal", t, s) || !have("oshmem", t, s) || med["oshmem" SUBSEP 2 SUBSEP t SUBSEP s] <= 0) return ""
    return med["shoal" SUBSEP 2 SUBSEP t SUBSEP s] / med["oshmem" SUBSEP 2 SUBSEP t SUBSEP s]
}
function row(what, measured, goal, ok) {
    printf "| %s | %s | %s | %s |\n", what, measured, goal, ok
    if (ok == "MET") nmet++
    ntot++
}
# Latency-like target: ratio <= goal.
function at_most(what, t, s, goal,   r) {
    r = ratio(t, s)
    if (r == "") row(what, "-", "<= " goal, "NO DATA")
    else row(what, sprintf("%.2f", r), "<= " goal, r <= goal ? "MET" : "MISSED")
}
function at_least(what, t, s, goal,   r) {
    r = ratio(t, s)
    if (r == "") row(what, "-", ">= " goal, "NO DATA")
    else row(what, sprintf("%.2f", r), ">= " goal, r >= goal ? "MET" : "MISSED")
}
# Bandwidth: at every size >= 1 MiB, ratio >= 1 and Shoal >= 90% of the
# memcpy limit; reports the worst of each over those sizes.
function bandwidth(what, t,   i, s, r, k, p, rmin, pmin, n) {
    rmin = ""; pmin = ""; n = 0
    for (i = 1; i <= nsz; i++) {
        s = szlist[i]; if (s < 1048576) continue
        r = ratio(t, s); k = "shoal" SUBSEP 2 SUBSEP t SUBSEP s
        if (r == "" || lim[k] == "" || lim[k] <= 0) continue
        p = med[k] / lim[k]; n++
        if (rmin == "" || r < rmin) rmin = r
        if (pmin == "" || p < pmin) pmin = p
    }
    if (!n) { row(what, "-", "ratio >= 1 and >= 90% of memcpy_bw", "NO DATA"); return }
    row(what, sprintf("ratio %.2f, %.0f%% of memcpy_bw (worst of %d sizes)", rmin, pmin * 100, n),
        "ratio >= 1 and >= 90% of memcpy_bw", (rmin >= 1 && pmin >= 0.9) ? "MET" : "MISSED")
}
NR == 1 { next }
{
    k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
    med[k] = $6; lim[k] = $10
    if (!($4 in sizeseen)) { sizeseen[$4] = 1; szlist[++nsz] = $4 + 0 }
}
END {
    print "| target (2 PEs, ratio = Shoal / OSHMEM) | measured | goal | result |"
    print "|---|---|---|---|"
    at_most("put_lat 8 B", "put_lat", 8, 0.5)
    at_most("get_lat 8 B", "get_lat", 8, 0.5)
    at_most("fadd_lat", "fadd_lat", 8, 0.5)
    at_most("cswap_lat", "cswap_lat", 8, 0.5)
    bandwidth("put_bw >= 1 MiB", "put_bw")
    bandwidth("get_bw >= 1 MiB", "get_bw")
    at_least("put_nbi message rate 8 B (put_rate)", "put_rate", 8, 2.0)
    at_most("barrier_all", "barrier_all", 0, 0.7)
    at_most("broadcast 8 B", "broadcast", 8, 0.7)
    at_most("sum_reduce 8 B", "sum_reduce", 8, 0.7)
    printf "\n%d of %d targets met.\n", nmet, ntot
}
