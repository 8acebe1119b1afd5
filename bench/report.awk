# report.awk: one markdown table from the medians CSV of medians.awk
# (lib,npes,test,size,unit,median,min,max,n,limit).
# Variables (-v):
#   prog   title, e.g. putget_bench; limits_bench prints the lib=limit rows
#   tests  the tests in table order, space-separated (test@algorithm rows
#          are Shoal's per-algorithm runs, compared with OSHMEM's plain row)
#   npes   only rows of this PE count ("" = any)
#   reps   runs per point, for the title
# Usage: awk -F, -v prog=... -v tests=... -v npes=... -v reps=... -f report.awk medians.csv
function fmt(v, u) { return (u == "us") ? sprintf("%.3f", v) : (u == "MB/s") ? sprintf("%.0f", v) : sprintf("%.2f", v) }
function spread(k) { return (med[k] > 0 && cnt[k] > 1) ? sprintf("%.0f%%", (hi[k] - lo[k]) / med[k] * 100) : "-" }
function sortsizes(name,   n, i, j, x) {
    n = split(sizes[name], sz, " ")
    for (i = 2; i <= n; i++) { x = sz[i] + 0; for (j = i - 1; j >= 1 && sz[j] + 0 > x; j--) sz[j + 1] = sz[j]; sz[j + 1] = x }
    return n
}
BEGIN { ntest = split(tests, order, " "); for (t = 1; t <= ntest; t++) mine[order[t]] = 1; lims = (prog == "limits_bench") }
NR == 1 { next }
!($3 in mine) || (npes != "" && $2 != npes && $1 != "limit") { next }
lims != ($1 == "limit") { next }
{
    k = $1 SUBSEP $3 SUBSEP $4
    med[k] = $6; lo[k] = $7; hi[k] = $8; cnt[k] = $9; lim[k] = $10
    if ($10 != "") haslimit = 1
    unit[$3] = $5; units[$5] = 1
    if (!(($3, $4) in seen)) { seen[$3, $4] = 1; sizes[$3] = sizes[$3] " " $4; nsizes[$3]++ }
}
END {
    if (lims) {
        printf "## limits_bench: this machine's limits, median of %d runs\n\n", reps
        printf "memcpy_bw: one thread, memcpy between two buffers (MB/s, 10^6 B/s). cacheline_rtt: one 64-byte line bounced between\n"
        printf "two threads pinned to two CPUs (us per round trip); cacheline_oneway = half of it.\n"
        for (t = 1; t <= ntest; t++) if (order[t] ~ /^tcp_/ && (order[t] in sizes)) tcp = 1
        if (tcp) {
            printf "tcp_*: tcp_floor between hosts 1 and 2, one TCP connection and no library (us): pingpong = half a round trip,\n"
            printf "exchange = both send, then both receive (a 2-PE barrier's step); epoll = epoll_wait before recv, as UCX does.\n"
        }
        printf "\n"
        printf "| test | size (B) | unit | median | spread |\n|---|---:|---|---:|---:|\n"
        for (t = 1; t <= ntest; t++) {
            name = order[t]; if (!(name in sizes)) continue
            n = sortsizes(name)
            for (i = 1; i <= n; i++) {
                k = "limit" SUBSEP name SUBSEP sz[i]
                printf "| %s | %d | %s | %s | %s |\n", name, sz[i], unit[name], fmt(med[k], unit[name]), spread(k)
            }
        }
        exit
    }
    printf "## %s: Shoal vs Open MPI OSHMEM, median of %d interleaved runs each%s\n\n", prog, reps,
        (npes != "" ? sprintf(", %d PEs", npes) : "")
    printf "ratio = Shoal / OSHMEM."
    if ("us" in units) printf " Latency rows (us per op): lower is better, ratio < 1 means Shoal is faster."
    printf "\n"
    if ("MB/s" in units) printf "Bandwidth rows (MB/s, 1 MB = 10^6 B): higher is better, ratio > 1 means Shoal is faster.\n"
    if ("Mops/s" in units) printf "Message rate rows (Mops/s, 10^6 operations per second): higher is better, ratio > 1 means Shoal is faster.\n"
    printf "better: the faster side when the medians differ by more than 10%%, else \"~\"; a trailing \"?\" means the\n"
    printf "[min, max] ranges of the two sides over the runs overlap (likely noise). spread = (max - min) / median over the runs.\n"
    for (t = 1; t <= ntest; t++) {
        if (!(order[t] in sizes) || !index(order[t], "@")) continue
        if (order[t] ~ /@global$/) globalrows = 1
        else algrows = 1
    }
    if (globalrows) printf "Rows test@global: the same test on static (global) objects instead of the symmetric heap, both libraries.\n"
    if (algrows) printf "Rows test@algorithm: Shoal with SMA_<X>_ALGORITHM=algorithm against OSHMEM's default (the OSHMEM column repeats the plain row).\n"
    if (haslimit) {
        printf "limit: this machine's limit from limits_bench (bandwidth: memcpy_bw; rate: memcpy_bw / size; latency up to 64 B:\n"
        printf "cacheline_oneway, informative). %% of limit: Shoal / limit for bandwidth and rate, limit / Shoal for latency.\n"
    }
    printf "\n| test | size (B) | unit | Shoal | OSHMEM | ratio Shoal/OSHMEM | better | spread Shoal | spread OSHMEM |%s\n",
        haslimit ? " limit | Shoal % of limit |" : ""
    printf "|---|---:|---|---:|---:|---:|---|---:|---:|%s\n", haslimit ? "---:|---:|" : ""
    for (t = 1; t <= ntest; t++) {
        name = order[t]; if (!(name in sizes)) continue
        u = unit[name]; lat = (u == "us")
        n = sortsizes(name)
        gl = 0; gn = 0
        base = name; sub(/@.*/, "", base)
        for (i = 1; i <= n; i++) {
            # OSHMEM's row of the same name (test@global), else its plain one (test@algorithm).
            s = sz[i]; ko = "shoal" SUBSEP name SUBSEP s; kt = "oshmem" SUBSEP name SUBSEP s
            if (!(kt in med)) kt = "oshmem" SUBSEP base SUBSEP s
            mo = (ko in med) ? med[ko] : ""; mt = (kt in med) ? med[kt] : ""
            r = "-"; b = "-"
            if (mo != "" && mt != "" && mt > 0 && mo > 0) {
                q = mo / mt; r = sprintf("%.2f", q); gl += log(q); gn++
                b = (q > 1.1) ? (lat ? "OSHMEM" : "Shoal") : (q < 1 / 1.1) ? (lat ? "Shoal" : "OSHMEM") : "~"
                if (b != "~" && lo[ko] <= hi[kt] && lo[kt] <= hi[ko]) b = b "?"
            }
            extra = ""
            if (haslimit) {
                l = (ko in lim) ? lim[ko] : (kt in lim) ? lim[kt] : ""
                pct = (l == "" || mo == "" || mo <= 0 || l <= 0) ? "-" : sprintf("%.0f%%", (lat ? l / mo : mo / l) * 100)
                extra = sprintf(" %s | %s |", l == "" ? "-" : fmt(l, u), pct)
            }
            printf "| %s | %d | %s | %s | %s | %s | %s | %s | %s |%s\n", name, s, u,
                (mo == "" ? "-" : fmt(mo, u)), (mt == "" ? "-" : fmt(mt, u)), r, b,
                (mo == "" ? "-" : spread(ko)), (mt == "" ? "-" : spread(kt)), extra
        }
        # Tests measured at a single size need no summary line.
        if (gn && nsizes[name] > 1) summary = summary sprintf("| %s | %s | %.2f | %d |\n", name, u, exp(gl / gn), gn)
    }
    if (summary != "") {
        printf "\nGeometric mean of the ratio over sizes (same direction rules):\n\n"
        printf "| test | unit | geomean Shoal/OSHMEM | sizes |\n|---|---|---:|---:|\n%s", summary
    }
}
