# floor_internode.awk: the 2-PE collectives of issue 15 whose goal is 0.8 x OSHMEM's time,
# beside the kernel's floor for the same messages with no library at all (tcp_floor, which
# compare_oshmem.sh --hosts runs in the same reps as the libraries: lib "limit", tests tcp_*).
# Reads the medians CSV (medians.awk: lib,npes,test,size,unit,median,min,max,n,limit) of that
# run; prints two markdown tables, or nothing when the run has no tcp_* rows. The first sets
# each goal beside the floor of its messages: the exchange with epoll_wait before recv (as
# UCX's tcp transport takes a message) for the barrier and the reduction, the one-way time for
# the broadcast.
# Usage: awk -F, -f bench/floor_internode.awk <run>.medians.csv
function key(lib, t, s) { return lib SUBSEP t SUBSEP s }
FNR > 1 && $2 == 2 { med[key($1, $3, $4)] = $6; if ($3 ~ /^tcp_/) floor = 1 }
function us(lib, t, s) { return (key(lib, t, s) in med) ? sprintf("%.2f", med[key(lib, t, s)]) : "-" }
function goal(t, s) {
    return (key("oshmem", t, s) in med) ? sprintf("%.2f", 0.8 * med[key("oshmem", t, s)]) : "-"
}
# A row with the floor of the row's messages (tcp test f) and whether the goal lies below it.
function row(what, t, s, f,    g, fl) {
    g = goal(t, s); fl = us("limit", f, 8)
    printf "| %s | %s | %s | %s | %s | %s |\n", what, us("shoal", t, s), us("oshmem", t, s), g, fl,
        (g == "-" || fl == "-") ? "-" : (g + 0 < fl + 0 ? "below" : "above")
}
END {
    if (!floor) exit
    print "| 2 PEs on 2 hosts, us per call | Shoal | OSHMEM | goal (0.8 x OSHMEM) | floor | goal vs floor |"
    print "|---|---:|---:|---:|---:|---|"
    row("barrier_all", "barrier_all", 0, "tcp_exchange_epoll")
    row("sum reduction 8 B", "sum_reduce", 8, "tcp_exchange_epoll")
    row("broadcast 8 B", "broadcast", 8, "tcp_pingpong_epoll")
    print ""
    print "| the same messages with no library (tcp_floor), us | 8 B |"
    print "|---|---:|"
    printf "| exchange (both send, both receive), epoll_wait before recv as UCX's tcp transport | %s |\n", us("limit", "tcp_exchange_epoll", 8)
    printf "| exchange, recv polled alone | %s |\n", us("limit", "tcp_exchange_spin", 8)
    printf "| one way (half a ping-pong), epoll_wait before recv | %s |\n", us("limit", "tcp_pingpong_epoll", 8)
    printf "| one way, recv polled alone | %s |\n", us("limit", "tcp_pingpong_spin", 8)
}
