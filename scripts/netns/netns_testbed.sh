#!/usr/bin/env bash
# A test bed of "hosts" on this machine: network namespaces <prefix>-h1..hN, each with one
# veth (named shoal0 inside) plugged into a bridge that lives in its own namespace
# <prefix>-br, addresses 198.18.0.K/24 (198.18.0.0/15 is reserved for network test beds).
# Nothing is added to the root namespace, there is no default route, so no packet can leave
# the bed. Commands run on host K through "exec" (see exec_on): a hostname of its own
# (Open MPI's orted finds its node by hostname: with one shared hostname every host gets
# the first host's PMIX_LOCAL_PEERS), its own IPC namespace and /dev/shm. The hosts still
# share /tmp, the file system and the pid space, as containers on one machine would. A host's
# /dev/shm is the directory /dev/shm/netns-<prefix>-hK of this machine, kept until "down": it
# outlives the commands run there, as a real host's does, so a test can see what a job left in
# it ("shm_dir").
#
#   netns_testbed.sh check                 # exit 0 if namespaces can be made, else print why
#   netns_testbed.sh up <prefix> <N> <hostfile>   # create, and write "198.18.0.K slots=..." lines
#   netns_testbed.sh down <prefix>         # end what runs in the bed, remove it (idempotent)
#   netns_testbed.sh sweep <stem>          # down every bed <stem><pid> whose pid is gone
#   netns_testbed.sh address <K>           # the address of host K
#   netns_testbed.sh shm_dir <prefix> <K>  # where host K's /dev/shm lives on this machine
#   netns_testbed.sh exec <prefix> <K> <command...>  # run a command on host K
#   netns_testbed.sh cpus <prefix> <K>     # the CPUs host K runs on (see SHOAL_NETNS_HOST_CPUS)
#
# Host K's namespace is <prefix>-hK; netns_rsh.sh maps an address back to it.
#
# SHOAL_NETNS_HOST_CPUS=split gives each host CPUs of its own, as real hosts have: of the C
# CPUs online, host K of the bed's N gets CPUs (K-1)*C/N .. K*C/N-1 (with more hosts than
# CPUs, CPU (K-1) mod C), and everything "exec" starts there is bound to them (taskset; the
# bound processes may narrow it further). Unset or "shared", every host runs on every CPU, and
# the scheduler may put the PEs of two hosts on one CPU and leave the other idle: a message
# between hosts then waits for a context switch. (4 PEs on 2 hosts of a 2-CPU machine: a barrier
# took 11.7 us with each host's PEs on a CPU of their own and 21-23 with each CPU serving PEs
# of both hosts; unbound, runs land in either.)
#
# SHOAL_NETNS_TCP_CC names the TCP congestion control of the bed's hosts: a list, of which each
# host takes the first that its namespace accepts (default "cubic,reno"), or "machine" for the
# one the namespaces inherit from this machine. Cubic is Linux's default and what cluster nodes
# run; a namespace may only take one of net.ipv4.tcp_allowed_congestion_control, and reno, which
# behaves as cubic on a link that loses nothing, is always among them. This machine's own
# default is BBR, which paces each connection at the bandwidth it estimated: a 1 MiB sum
# reduction on 4 PEs of 2 hosts, timed after a 1 MiB broadcast, took 4 to 24 ms from run to run
# with BBR, the CPUs mostly idle, and 1.83 to 1.91 ms in every run with reno.
set -euo pipefail

readonly kSubnet=198.18.0      # hosts are .1 .. .N, /24
readonly kDevice=shoal0         # the veth's name inside every host namespace
readonly kSlots=${SHOAL_NETNS_SLOTS:-8}

die() { echo "netns_testbed: $*" >&2; exit 1; }

address_of() { echo "${kSubnet}.$1"; }

# Host K's /dev/shm, a directory of this machine's (a tmpfs, as /dev/shm is everywhere).
shm_dir_of() { echo "/dev/shm/netns-$1-h$2"; }

# Can the bed be built here? Tries a throw-away host: a namespace, a veth pair in it, and
# entering it (needs root with CAP_NET_ADMIN and CAP_SYS_ADMIN).
check() {
  command -v ip >/dev/null || { echo "the ip command (iproute2) is not installed"; return 1; }
  local probe="shoal-probe$$-h1"  # named like a host, so exec_on can enter it
  local out
  if ! out=$(ip netns add "$probe" 2>&1); then
    echo "cannot create a network namespace (ip netns add: ${out:-failed});" \
      "needs root with CAP_SYS_ADMIN and CAP_NET_ADMIN"
    return 1
  fi
  local why=""
  if ! out=$(ip -n "$probe" link add shoal-pa type veth peer name shoal-pb 2>&1); then
    why="cannot create a veth pair inside a namespace (${out:-failed})"
  elif ! out=$( (exec_on "${probe%-h1}" 1 true) 2>&1); then
    why="cannot enter a host of the bed (unshare --uts --ipc --mount, /dev/shm bound):"
    why+=" ${out:-failed}"
  fi
  ip netns del "$probe" 2>/dev/null || true
  rm -rf "$(shm_dir_of "${probe%-h1}" 1)"
  [[ -z "$why" ]] || { echo "$why"; return 1; }
}

down() {
  local prefix=$1 ns pid
  # Processes still inside a host (a job ended by a time limit) would keep its namespace alive;
  # everything in a bed was started by the test that made it. Deleting a namespace deletes the
  # veth ends inside it, hence their peers too.
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}'); do
    case "$ns" in
      "$prefix"-h[0-9]*)
        for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
        ip netns del "$ns" 2>/dev/null || true ;;
      "$prefix"-br) ip netns del "$ns" 2>/dev/null || true ;;
    esac
  done
  local dir
  for dir in "$(shm_dir_of "$prefix" "")"[0-9]*; do [[ -d "$dir" ]] && rm -rf "$dir"; done
  return 0
}

# Beds named <stem><pid> whose creator (pid) was killed before its own cleanup.
sweep() {
  local stem=$1 ns
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}'); do
    [[ "$ns" =~ ^${stem}([0-9]+)-br$ ]] && ! kill -0 "${BASH_REMATCH[1]}" 2>/dev/null &&
      down "${stem}${BASH_REMATCH[1]}"
  done
  return 0
}

# Gives host namespace $1 the first TCP congestion control of SHOAL_NETNS_TCP_CC it accepts.
set_congestion_control() {
  local ns=$1 cc
  local -a choices
  IFS=, read -ra choices <<<"${SHOAL_NETNS_TCP_CC:-cubic,reno}"
  [[ "${choices[*]}" == machine ]] && return 0
  for cc in "${choices[@]}"; do
    # /proc/sys/net shows the writer's namespace; no sysctl command (procps) needed.
    ip netns exec "$ns" sh -c 'echo "$0" >/proc/sys/net/ipv4/tcp_congestion_control' "$cc" \
      2>/dev/null && return 0
  done
  die "host $ns accepts none of the TCP congestion controls '${SHOAL_NETNS_TCP_CC:-cubic,reno}'" \
    "(allowed here: $(cat /proc/sys/net/ipv4/tcp_allowed_congestion_control))"
}

up() {
  local prefix=$1 hosts=$2 hostfile=$3 k
  [[ "$hosts" =~ ^[1-9][0-9]*$ && "$hosts" -le 250 ]] ||
    die "host count must be 1..250, not '$hosts'"
  down "$prefix"
  ip netns add "$prefix-br"
  ip -n "$prefix-br" link add br0 type bridge
  ip -n "$prefix-br" link set br0 up
  : >"$hostfile"
  for ((k = 1; k <= hosts; ++k)); do
    local ns="$prefix-h$k"
    ip netns add "$ns"
    ip -n "$prefix-br" link add "h$k" type veth peer name "$kDevice" netns "$ns"
    ip -n "$prefix-br" link set "h$k" master br0 up
    ip -n "$ns" link set lo up
    ip -n "$ns" addr add "$(address_of "$k")/24" dev "$kDevice"
    ip -n "$ns" link set "$kDevice" up
    set_congestion_control "$ns"
    echo "$(address_of "$k") slots=$kSlots" >>"$hostfile"
  done
}

# This machine's online CPUs, one per line.
online_cpus() {
  local part first last cpu
  local -a parts
  IFS=, read -ra parts </sys/devices/system/cpu/online
  for part in "${parts[@]}"; do
    first=${part%-*} last=${part#*-}
    for ((cpu = first; cpu <= last; ++cpu)); do echo "$cpu"; done
  done
}

# The CPUs host K runs on, as a taskset list, under SHOAL_NETNS_HOST_CPUS=split; nothing
# otherwise (every CPU).
host_cpus() {
  local prefix=$1 k=$2 hosts
  case "${SHOAL_NETNS_HOST_CPUS:-shared}" in
    shared) return 0 ;;
    split) ;;
    *) die "SHOAL_NETNS_HOST_CPUS must be split or shared, not '$SHOAL_NETNS_HOST_CPUS'" ;;
  esac
  local -a cpus
  mapfile -t cpus < <(online_cpus)
  hosts=$(ip netns list 2>/dev/null | awk '{print $1}' | grep -c "^$prefix-h[0-9][0-9]*\$" || true)
  [[ "$hosts" -ge 1 && "$k" -le "$hosts" ]] || die "no host $k in bed $prefix"
  local c=${#cpus[@]}
  if ((hosts >= c)); then
    echo "${cpus[(k - 1) % c]}"
    return 0
  fi
  local from=$(((k - 1) * c / hosts)) to=$((k * c / hosts)) i list=""
  for ((i = from; i < to; ++i)); do list+="${list:+,}${cpus[i]}"; done
  echo "$list"
}

# Enters host K: its network namespace, then fresh UTS, IPC and mount namespaces with the
# hostname <prefix>-hK and a /dev/shm of its own, so that neither UCX (which tells hosts
# apart by IPC namespace and boot id) nor Shoal can share memory with another host. Called from
# another host (mpirun's remote-start agent), it first uncovers this machine's /dev/shm, which
# that host's own hides (the topmost mount there is a bed host's directory).
exec_on() {
  local prefix=$1 k=$2 cpus
  shift 2
  cpus=$(host_cpus "$prefix" "$k")
  local -a bind=()
  [[ -z "$cpus" ]] || bind=(taskset -c "$cpus")
  # shellcheck disable=SC2016  # expanded by the shell inside the host's namespaces
  exec "${bind[@]}" ip netns exec "$prefix-h$k" unshare --uts --ipc --mount --propagation private -- \
    sh -c 'hostname "$0" || exit
      while findmnt -n -o FSROOT -T /dev/shm | tail -n 1 | grep -q "^/netns-"; do
        umount /dev/shm || exit
      done
      mkdir -p "$1" && chmod 1777 "$1" && mount --bind "$1" /dev/shm && shift && exec "$@"' \
    "$prefix-h$k" "$(shm_dir_of "$prefix" "$k")" "$@"
}

case "${1:-}" in
  check) check ;;
  up) [[ $# -eq 4 ]] || die "usage: $0 up <prefix> <N> <hostfile>"; up "$2" "$3" "$4" ;;
  down) [[ $# -eq 2 ]] || die "usage: $0 down <prefix>"; down "$2" ;;
  sweep) [[ $# -eq 2 ]] || die "usage: $0 sweep <stem>"; sweep "$2" ;;
  address) [[ $# -eq 2 ]] || die "usage: $0 address <K>"; address_of "$2" ;;
  shm_dir) [[ $# -eq 3 ]] || die "usage: $0 shm_dir <prefix> <K>"; shm_dir_of "$2" "$3" ;;
  exec) [[ $# -ge 4 ]] || die "usage: $0 exec <prefix> <K> <command...>"; shift; exec_on "$@" ;;
  cpus) [[ $# -eq 3 ]] || die "usage: $0 cpus <prefix> <K>"; host_cpus "$2" "$3" ;;
  *) die "usage: $0 check | up <prefix> <N> <hostfile> | down <prefix> | sweep <stem>" \
       "| address <K> | shm_dir <prefix> <K>" \
       "| exec <prefix> <K> <command...> | cpus <prefix> <K>" ;;
esac
