# targets_internode.awk: the inter-node targets of issue 15, checked against the medians CSV
# (medians.awk: lib,npes,test,size,unit,median,min,max,n,limit) of a run of
#   bench/compare_oshmem.sh --hosts 2 --bench all --npes 2,4 ...
# ratio = Shoal / OSHMEM time per operation (for MB/s and Mops/s rows the inverse of the
# value ratio, so lower is better everywhere). Prints a markdown table: target, measured,
# goal, result (MET, MISSED, or NO DATA when a point is missing).
# Usage: awk -F, -f bench/targets_internode.awk <csv>.medians.csv
function key(lib, np, t, s) { return lib SUBSEP np SUBSEP t SUBSEP s }
function time_ratio(np, t, s,   a, b) {
    if (!(key("shoal", np, t, s) in med) || !(key("oshmem", np, t, s) in med)) return ""
    a = med[key("shoal", np, t, s)]; b = med[key("oshmem", np, t, s)]
    if (a <= 0 || b <= 0) return ""
    return unit[key("shoal", np, t, s)] == "us" ? a / b : b / a
}
# Two decimals, or three where two would round the ratio onto its goal from the other side (1.004
# against a goal of 1 reads "1.00" and MISSED otherwise).
function shown(r, goal,   two) {
    two = sprintf("%.2f", r)
    return ((two + 0 <= goal) != (r <= goal)) ? sprintf("%.3f", r) : two
}
function target(what, np, t, s, goal,   r) {
    r = time_ratio(np, t, s)
    if (r == "") { printf "| %s | - | <= %s | NO DATA |\n", what, goal; ntot++; return }
    printf "| %s | %s | <= %s | %s |\n", what, shown(r, goal), goal, r <= goal ? "MET" : "MISSED"
    if (r <= goal) nmet++
    ntot++
}
# The point-to-point targets, on heap objects (suffix "") or static globals ("@global", rows of
# compare_oshmem.sh --globals).
function point_to_point(sfx, label) {
    target("put 8 B + quiet, 2 PEs" label, 2, "put_lat" sfx, 8, 0.7)
    target("get 8 B, 2 PEs" label, 2, "get_lat" sfx, 8, 1.0)
    target("fetch-add, 2 PEs" label, 2, "fadd_lat" sfx, 8, 1.0)
    target("add + quiet, 2 PEs" label, 2, "add_lat" sfx, 8, 0.7)
    target("put 8 B message rate (us per message), 2 PEs" label, 2, "put_rate" sfx, 8, 0.8)
    target("put 64 KiB + quiet, 2 PEs" label, 2, "put_lat" sfx, 65536, 1.0)
    target("put 1 MiB + quiet, 2 PEs" label, 2, "put_lat" sfx, 1048576, 1.0)
    target("get 64 KiB, 2 PEs" label, 2, "get_lat" sfx, 65536, 1.0)
    target("get 1 MiB, 2 PEs" label, 2, "get_lat" sfx, 1048576, 1.0)
}
NR > 1 { med[key($1, $2, $3, $4)] = $6; unit[key($1, $2, $3, $4)] = $5; if ($3 ~ /@global$/) globals = 1 }
END {
    print "| target (time ratio Shoal / OSHMEM, across 2 hosts) | measured | goal | result |"
    print "|---|---|---|---|"
    point_to_point("", "")
    if (globals) point_to_point("@global", ", global")
    target("barrier_all, 2 PEs", 2, "barrier_all", 0, 0.8)
    target("broadcast 8 B, 2 PEs", 2, "broadcast", 8, 0.8)
    target("sum reduction 8 B, 2 PEs", 2, "sum_reduce", 8, 0.8)
    target("broadcast 64 KiB, 2 PEs", 2, "broadcast", 65536, 1.0)
    target("sum reduction 64 KiB, 2 PEs", 2, "sum_reduce", 65536, 1.0)
    target("barrier_all, 4 PEs on 2 hosts", 4, "barrier_all", 0, 1.0)
    target("broadcast 8 B, 4 PEs on 2 hosts", 4, "broadcast", 8, 1.0)
    target("sum reduction 8 B, 4 PEs on 2 hosts", 4, "sum_reduce", 8, 1.0)
    printf "\n%d of %d targets met.\n", nmet, ntot
}
