#!/usr/bin/env bash
# A real Slurm cluster on this machine (issue 20): one slurmctld and one slurmd per host of the
# network-namespace test bed (scripts/netns/), started directly (no systemd), with Slurm's own
# auth/none + cred/none (no munged), proctrack/linuxproc, task/none, MpiDefault=none (jobs ask for
# --mpi=pmix). Every node declares CPUs=8 (SlurmdParameters=config_overrides), so 8 tasks run on
# a 2-core machine. Everything the cluster writes (configuration, state, spool, logs, pid files,
# TmpFS, where mpi/pmix puts each step's spmix_appdir_*) lives in the bed's own directory under
# /tmp, and each host sees its own TmpFS (bind-mounted in the host's mount namespace): the hosts
# share /tmp, and the PMIx directories of one step on two nodes would otherwise collide.
#
#   slurm_testbed.sh check                    # exit 0 if a cluster can be made here, else print why
#   slurm_testbed.sh start <bed> <hosts>      # bring a cluster up, wait until every node is idle;
#                                             # <bed> becomes a symlink to its directory
#   slurm_testbed.sh exec <bed> <command...>  # run a command on host 1 (the "login node", where
#                                             # slurmctld runs too), SLURM_CONF set
#   slurm_testbed.sh stop <bed>               # cancel every job, stop the daemons, remove the hosts
#                                             # and the directory; idempotent
#   slurm_testbed.sh run <hosts> <command...> # start, exec, stop, with the command's status
#   slurm_testbed.sh sweep                    # remove beds whose keeper process is gone
#
# Host K is node <prefix>-hK, address 198.18.0.K (scripts/netns/netns_testbed.sh). The prefix is
# shoal-sl<pid of the bed's keeper>, a "sleep" that bounds the bed's life (SHOAL_SLURM_BED_LIFE
# seconds, default 1800): a bed whose keeper is gone (its cleanup never ran) is swept by the next
# start. "start" exits 77 (CTest's SKIP_RETURN_CODE) with the reason when Slurm's programs, root
# or network namespaces are missing.
set -uo pipefail

readonly kSkip=77
here=$(cd "${BASH_SOURCE[0]%/*}" && pwd)
netns=$(cd "$here/../../scripts/netns" && pwd)/netns_testbed.sh
readonly kStem=shoal-sl
life=${SHOAL_SLURM_BED_LIFE:-1800}

die() { echo "slurm_testbed: $*" >&2; exit 1; }

# Prints why no cluster can be made here, or nothing (status 0) when one can.
check() {
  local p
  for p in slurmctld slurmd srun sbatch salloc sinfo squeue scancel scontrol; do
    command -v "$p" >/dev/null ||
      { echo "$p is not installed (Debian: apt-get install slurmctld slurmd slurm-client" \
          "slurm-wlm-basic-plugins)"; return 1; }
  done
  [[ $(id -u) -eq 0 ]] || { echo "slurmd must run as root to start jobs (this is uid $(id -u))"; return 1; }
  compgen -G "/usr/lib/*/slurm-wlm/mpi_pmix*.so" >/dev/null ||
    compgen -G "/usr/lib*/slurm/mpi_pmix*.so" >/dev/null ||
    { echo "Slurm's PMIx plugin (mpi_pmix*.so, Debian: slurm-wlm-basic-plugins) is missing"; return 1; }
  command -v unshare >/dev/null || { echo "the unshare command is missing (util-linux)"; return 1; }
  "$netns" check
}

# Reads a bed's state file (written by start) into dir, prefix, hosts, keeper, daemons.
load() {
  local bed=$1
  dir=$(readlink -f "$bed" 2>/dev/null) || return 1
  [[ -f "$dir/bed.env" ]] || return 1
  # shellcheck disable=SC1091
  source "$dir/bed.env"
}

exec_on_login() {  # <command...>: on host 1 with SLURM_CONF set
  SLURM_CONF=$dir/slurm.conf "$netns" exec "$prefix" 1 "$@"
}

write_conf() {
  local k
  cat >"$dir/slurm.conf" <<EOF
# Written by tests/slurm/slurm_testbed.sh for the bed $prefix.
ClusterName=shoal
SlurmctldHost=$prefix-h1($("$netns" address 1))
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
TmpFS=$dir/tmp
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MailProg=/bin/true
KillWait=2
MinJobAge=2
InactiveLimit=0
MessageTimeout=20
EOF
  # slurmd 22.05 loads a cgroup plugin whatever the other plugins are, and the hosts' /sys
  # (remounted by "ip netns exec") has no /sys/fs/cgroup: cgroup/v1 on an empty directory of
  # the bed. proctrack/linuxproc and task/none never create a cgroup in it.
  cat >"$dir/cgroup.conf" <<EOF
CgroupPlugin=cgroup/v1
CgroupMountpoint=$dir/cgroup
ConstrainCores=no
ConstrainRAMSpace=no
ConstrainDevices=no
EOF
  for ((k = 1; k <= hosts; ++k)); do
    echo "NodeName=$prefix-h$k NodeAddr=$("$netns" address "$k") CPUs=8 State=UNKNOWN" \
      >>"$dir/slurm.conf"
  done
  echo "PartitionName=shoal Nodes=ALL Default=YES MaxTime=10 State=UP" >>"$dir/slurm.conf"
}

sweep() {
  local ns
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}'); do
    if [[ "$ns" =~ ^${kStem}([0-9]+)-br$ ]] && ! kill -0 "${BASH_REMATCH[1]}" 2>/dev/null; then
      echo "slurm_testbed: removing the stale bed ${kStem}${BASH_REMATCH[1]}" >&2
      "$netns" down "${kStem}${BASH_REMATCH[1]}"
    fi
  done
  # Their directories: a bed.env whose keeper is gone.
  local f
  for f in /tmp/shoal-slurm.*/bed.env; do
    [[ -f "$f" ]] || continue
    local k
    k=$(sed -n 's/^keeper=//p' "$f")
    [[ -n "$k" ]] && ! kill -0 "$k" 2>/dev/null && rm -rf "${f%/bed.env}"
  done
  return 0
}

# Waits until every node is idle (sinfo), at most 60 s, while every daemon lives.
wait_idle() {
  local states="" i
  for ((i = 0; i < 120; ++i)); do
    local pid
    for pid in $daemons; do
      kill -0 "$pid" 2>/dev/null ||
        { echo "slurm_testbed: a daemon of the bed ended (pid $pid); its logs:" >&2; return 1; }
    done
    states=$(exec_on_login sinfo -h -N -o '%N %T' 2>/dev/null)
    if [[ $(grep -c ' idle$' <<<"$states") -eq $hosts ]]; then
      return 0
    fi
    sleep 0.5
  done
  echo "slurm_testbed: the nodes are not idle after 60 s: ${states:-sinfo answered nothing}" >&2
  return 1
}

start() {
  local bed=$1 k why
  hosts=$2
  [[ "$hosts" =~ ^[1-9]$ ]] || die "host count must be 1..9, not '$hosts'"
  why=$(check) || { echo "SKIPPED: $why"; exit $kSkip; }
  sweep
  if load "$bed"; then stop "$bed"; fi  # a bed of an earlier run at the same place
  dir=$(mktemp -d /tmp/shoal-slurm.XXXXXX)
  chmod 755 "$dir"
  mkdir -p "$dir"/{state,spool,run,log,tmp,cgroup}
  setsid sleep "$life" </dev/null >/dev/null 2>&1 &
  keeper=$!
  prefix=$kStem$keeper
  "$netns" up "$prefix" "$hosts" "$dir/hostfile" || { stop_dir; die "could not build the hosts"; }
  write_conf
  # slurmctld on host 1, one slurmd per host; -D keeps them in the foreground of their own
  # session (setsid), so their pids are ours, and their output goes to the bed's log directory.
  SLURM_CONF=$dir/slurm.conf setsid "$netns" exec "$prefix" 1 \
    slurmctld -D -i -f "$dir/slurm.conf" </dev/null >"$dir/log/slurmctld.out" 2>&1 &
  daemons=$!
  for ((k = 1; k <= hosts; ++k)); do
    mkdir -p "$dir/tmp-h$k" "$dir/spool/$prefix-h$k"
    # shellcheck disable=SC2016  # expanded inside host k's mount namespace
    SLURM_CONF=$dir/slurm.conf setsid "$netns" exec "$prefix" "$k" \
      sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh "$dir/tmp-h$k" "$dir/tmp" \
      slurmd -D -N "$prefix-h$k" -f "$dir/slurm.conf" \
      </dev/null >"$dir/log/slurmd-h$k.out" 2>&1 &
    daemons+=" $!"
  done
  cat >"$dir/bed.env" <<EOF
prefix=$prefix
hosts=$hosts
keeper=$keeper
daemons="$daemons"
EOF
  ln -sfn "$dir" "$bed"
  if ! wait_idle; then
    tail -n 20 "$dir"/log/*.log "$dir"/log/*.out >&2
    stop "$bed"
    exit 1
  fi
  if ! exec_on_login srun --mpi=list 2>&1 | grep -q pmix; then
    echo "slurm_testbed: srun --mpi=list does not list pmix" >&2
    stop "$bed"
    exit 1
  fi
  echo "slurm_testbed: $hosts node(s) idle: $(exec_on_login sinfo -h -N -o '%N' | paste -sd ' ')" \
    "(bed $dir)"
}

# Ends everything of the bed loaded into dir/prefix/keeper/daemons, and removes it.
stop_dir() {
  local pid i
  if [[ -n "${daemons:-}" ]]; then
    # Steps outlive a stopped slurmd: cancel the jobs first, while the daemons still run.
    local jobs
    jobs=$(exec_on_login squeue -h -o %i 2>/dev/null)
    if [[ -n "$jobs" ]]; then
      # shellcheck disable=SC2086
      exec_on_login scancel $jobs 2>/dev/null
      for ((i = 0; i < 40; ++i)); do
        [[ -z "$(exec_on_login squeue -h -o %i 2>/dev/null)" ]] && break
        sleep 0.25
      done
    fi
    for pid in $daemons; do kill -TERM "$pid" 2>/dev/null; done
    for ((i = 0; i < 40; ++i)); do
      local alive=""
      for pid in $daemons; do kill -0 "$pid" 2>/dev/null && alive=1; done
      [[ -z "$alive" ]] && break
      sleep 0.1
    done
    for pid in $daemons; do kill -KILL "$pid" 2>/dev/null; done
  fi
  # Whatever still runs in the hosts (slurmstepd, tasks) is killed with the namespaces; wait
  # until they are reaped too, so that "pgrep slurm" finds nothing once this returns.
  local inside="" k
  if [[ -n "${prefix:-}" ]]; then
    for ((k = 1; k <= ${hosts:-0}; ++k)); do inside+=" $(ip netns pids "$prefix-h$k" 2>/dev/null)"; done
    "$netns" down "$prefix"
  fi
  [[ -n "${keeper:-}" ]] && kill "$keeper" 2>/dev/null
  local left=""
  for ((i = 0; i < 50; ++i)); do
    left=$(pgrep -f -- "$dir/" || true)
    for pid in $inside; do [[ -d /proc/$pid ]] && left+=" $pid"; done
    # Steps that ended just before the namespaces went are zombies for a moment (their parent
    # was killed); any pid 1 reaps them.
    left+=" $(ps -e -o pid=,stat=,comm= | awk '$2 ~ /^Z/ && $3 ~ /^slurm/ {print $1}')"
    [[ -z "${left// /}" ]] && { left=""; break; }
    sleep 0.1
  done
  if [[ -n "$left" ]]; then
    echo "slurm_testbed: left of the bed after 5 s: $(ps -o pid=,stat=,args= -p "$(tr -s ' ' ',' <<<"${left# }")")" >&2
    # shellcheck disable=SC2086
    kill -KILL $left 2>/dev/null
  fi
  [[ -n "${dir:-}" && "$dir" == /tmp/shoal-slurm.* ]] && rm -rf "$dir"
  return 0
}

stop() {
  local bed=$1
  if load "$bed"; then
    stop_dir
  fi
  [[ -L "$bed" ]] && rm -f "$bed"
  return 0
}

case "${1:-}" in
  check) check ;;
  start) [[ $# -eq 3 ]] || die "usage: $0 start <bed> <hosts>"; start "$2" "$3" ;;
  stop) [[ $# -eq 2 ]] || die "usage: $0 stop <bed>"; stop "$2" ;;
  exec)
    [[ $# -ge 3 ]] || die "usage: $0 exec <bed> <command...>"
    load "$2" || die "no Slurm test bed at '$2' (start one first)"
    shift 2
    exec_on_login "$@" ;;
  run)
    [[ $# -ge 3 ]] || die "usage: $0 run <hosts> <command...>"
    bed=$(mktemp -u /tmp/shoal-slurm-bed.XXXXXX)
    trap 'stop "$bed"' EXIT
    trap 'exit 130' INT TERM
    start "$bed" "$2" || exit $?
    shift 2
    load "$bed"
    exec_on_login "$@"
    exit $? ;;
  sweep) sweep ;;
  *) die "usage: $0 check | start <bed> <hosts> | exec <bed> <command...> | stop <bed>" \
       "| run <hosts> <command...> | sweep" ;;
esac
