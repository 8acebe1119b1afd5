#!/bin/bash
# Jobs on a node whose /dev/shm is a 64 MiB tmpfs (Docker's default): the symmetric heap and the
# globals must not depend on it, and memory the node cannot give is refused with a message.
# Runs in a private mount namespace (root, or CAP_SYS_ADMIN); SKIPs (77) saying why where one
# cannot be made.
#   small_dev_shm.sh OSHRUN HEAP_MEMORY touch NP MIB [SYMMETRIC_SIZE]
#   small_dev_shm.sh OSHRUN HEAP_MEMORY refuse NP
set -u
oshrun=$1 prog=$2 mode=$3 np=$4
shift 4

if [ -z "${SHOAL_IN_SMALL_SHM:-}" ]; then
  unshare -m true 2>/dev/null || { echo "SKIP: cannot make a mount namespace (needs root)"; exit 77; }
  exec env SHOAL_IN_SMALL_SHM=1 unshare -m --propagation private "$0" "$oshrun" "$prog" "$mode" "$np" "$@"
fi
mount -t tmpfs -o size=64m,mode=1777 shoal-small-shm /dev/shm || { echo "FAIL: cannot mount"; exit 1; }
size=$(df -B1M --output=size /dev/shm | tail -n 1 | tr -d ' ')
[ "$size" -eq 64 ] || { echo "FAIL: /dev/shm is $size MiB, expected 64"; exit 1; }

out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
fail() {
  echo "FAIL: $*"
  echo "--- stdout:"; head -n 40 "$out"
  echo "--- stderr:"; head -n 40 "$err"
  exit 1
}
run() {
  timeout 120 "$oshrun" -np "$np" "$prog" "$@" >"$out" 2>"$err"
  rc=$?
}
expect_lines() {  # expect_lines WORD: one "WORD PE k" line per PE, nothing BAD
  local k
  ! grep -q '^BAD' "$out" || fail "wrong values"
  for ((k = 0; k < np; k++)); do
    [ "$(grep -cx "$1 PE $k" "$out")" -eq 1 ] || fail "no '$1 PE $k' line"
  done
}

case $mode in
touch)  # touch NP MIB [SYMMETRIC_SIZE]: every PE writes MIB MiB of heap and 16 MiB of globals
  mib=$1
  if [ $# -ge 2 ]; then export SHMEM_SYMMETRIC_SIZE=$2; else unset SHMEM_SYMMETRIC_SIZE SMA_SYMMETRIC_SIZE; fi
  run touch "$mib"
  [ "$rc" -eq 0 ] || fail "exit status $rc (SIGBUS is 135)"
  expect_lines ok
  ;;
refuse)  # more than this node's memory and swap: refused on every PE with a message
  total_kib=$(awk '/^(MemTotal|SwapTotal):/ {s += $2} END {print s}' /proc/meminfo)
  ask_mib=$(( total_kib * 3 / 2 / 1024 ))
  export SHMEM_SYMMETRIC_SIZE=$(( total_kib * 2 / 1024 ))M
  run refuse "$ask_mib"
  [ "$rc" -eq 0 ] || fail "exit status $rc"
  expect_lines refused
  grep -Eq "shmem_malloc: PE [0-9]+ cannot commit [0-9]+ more bytes of memory for its symmetric heap .*SHMEM_SYMMETRIC_SIZE.*: only [0-9]+ bytes are available" "$err" ||
    fail "no message naming the PE, the size and SHMEM_SYMMETRIC_SIZE"
  ;;
*)
  echo "unknown mode $mode"
  exit 2
  ;;
esac
# Nothing of the job is left in (or was ever kept in) this /dev/shm but empty directories.
left=$(find /dev/shm -mindepth 1 -type f)
[ -z "$left" ] || fail "left in /dev/shm: $left"
echo "PASS: $mode $np $*"
