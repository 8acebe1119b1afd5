# medians.awk: the raw benchmark CSV of compare_oshmem.sh (header
# lib,rep,npes,test,size,value,unit,iters; lib is shoal, oshmem or limit)
# -> one row per (lib, npes, test, size) with the median over the runs:
#     lib,npes,test,size,unit,median,min,max,n,limit
# limit is the machine's limit for that point, from the lib=limit rows of
# the same CSV (limits_bench), where one applies, else empty:
#   put_bw, get_bw                 memcpy_bw at the same size (MB/s)
#   put_rate, get_rate, put8_rate  memcpy_bw / size at the same size (Mops/s)
#   the latencies of putget_bench and amo_bench up to 64 B: cacheline_oneway (us)
# This file is the one place where medians are taken and limits assigned;
# report.awk, plot_suite.sh and targets.awk read its output.
# Usage: awk -F, -f medians.awk raw.csv > medians.csv
function median(key,   n, a, i, j, x) {
    n = split(vals[key], a, " ")
    for (i = 2; i <= n; i++) {
        x = a[i] + 0
        for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]
        a[j + 1] = x
    }
    lo[key] = a[1]; hi[key] = a[n]; cnt[key] = n
    return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function limit_of(lib, test, size,   base, m) {
    if (lib == "limit") return ""
    base = test; sub(/@.*/, "", base)
    if (base == "put_bw" || base == "get_bw")
        return (("memcpy_bw" SUBSEP size) in lim) ? lim["memcpy_bw" SUBSEP size] : ""
    if (base == "put_rate" || base == "get_rate" || base == "put8_rate") {
        if (!(("memcpy_bw" SUBSEP size) in lim) || size <= 0) return ""
        return lim["memcpy_bw" SUBSEP size] / size
    }
    if (base ~ /^(put_lat|put_lat_noquiet|get_lat|put_signal_lat|fadd_lat|cswap_lat|swap_lat|fetch_lat|add_lat)$/ &&
        size <= 64 && (("cacheline_oneway" SUBSEP 64) in lim))
        return lim["cacheline_oneway" SUBSEP 64]
    return ""
}
NR == 1 {
    for (i = 1; i <= NF; i++) col[$i] = i
    if (!("lib" in col) || !("npes" in col) || !("test" in col) || !("size" in col) || !("value" in col) || !("unit" in col)) {
        print "medians.awk: the header must name lib, npes, test, size, value and unit" > "/dev/stderr"
        exit 1
    }
    next
}
{
    k = $col["lib"] SUBSEP $col["npes"] SUBSEP $col["test"] SUBSEP $col["size"]
    if (!(k in unit)) { order[++n] = k; unit[k] = $col["unit"] }
    vals[k] = vals[k] " " $col["value"]
}
END {
    if (NR == 0) exit 1
    for (i = 1; i <= n; i++) {
        med[order[i]] = median(order[i])
        split(order[i], f, SUBSEP)
        if (f[1] == "limit") lim[f[3] SUBSEP f[4]] = med[order[i]]
    }
    print "lib,npes,test,size,unit,median,min,max,n,limit"
    for (i = 1; i <= n; i++) {
        k = order[i]; split(k, f, SUBSEP)
        print f[1] "," f[2] "," f[3] "," f[4] "," unit[k] "," med[k] "," lo[k] "," hi[k] "," cnt[k] "," limit_of(f[1], f[3], f[4] + 0)
    }
}
