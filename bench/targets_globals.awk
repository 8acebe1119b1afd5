# targets_globals.awk: issue 15's targets for static (global) symmetric objects on one node,
# checked against the medians CSV (medians.awk: lib,npes,test,size,unit,median,...) of
#   bench/compare_oshmem.sh --bench putget --globals ...   and   --bench amo --globals ...
# (concatenate the two medians files). Prints a markdown table: target, measured, goal, result.
# Usage: awk -F, -f bench/targets_globals.awk putget.medians.csv amo.medians.csv
function key(lib, t, s) { return lib SUBSEP t SUBSEP s }
# Time per operation of lib's test at size s (MB/s and Mops/s turned into their inverse).
function time_of(lib, t, s,   k) {
    k = key(lib, t, s)
    if (!(k in med) || med[k] <= 0) return ""
    return unit[k] == "us" ? med[k] : 1 / med[k]
}
function check(what, a, b, goal, inverse,   r, ok) {
    if (a == "" || b == "") { printf "| %s | - | %s %s | NO DATA |\n", what, inverse ? ">=" : "<=", goal; ntot++; return }
    r = inverse ? b / a : a / b
    ok = inverse ? r >= goal : r <= goal
    printf "| %s | %.3g | %s %s | %s |\n", what, r, inverse ? ">=" : "<=", goal, ok ? "MET" : "MISSED"
    nmet += ok; ntot++
}
FNR > 1 && $2 == 2 { med[key($1, $3, $4)] = $6; unit[key($1, $3, $4)] = $5 }
END {
    print "| target (2 PEs on one node, static global on the neighbour) | measured | goal | result |"
    print "|---|---|---|---|"
    split("put_lat:put 8 B + quiet,get_lat:get 8 B,fadd_lat:fetch-add", ops, ",")
    for (i = 1; i <= 3; i++) {
        split(ops[i], f, ":")
        g = time_of("shoal", f[1] "@global", 8)
        check(f[2] " to a global / to the heap (Shoal)", g, time_of("shoal", f[1], 8), 2, 0)
        check(f[2] " to a global, Shoal / OSHMEM", g, time_of("oshmem", f[1] "@global", 8), 0.3, 0)
    }
    check("put 8 B rate to a global, Shoal / OSHMEM (operations per second)",
          time_of("shoal", "put_rate@global", 8), time_of("oshmem", "put_rate@global", 8), 3, 1)
    printf "\n%d of %d targets met.\n", nmet, ntot
}
