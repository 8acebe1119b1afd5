#!/usr/bin/env bash
# Runs one command of a test under the Slurm test bed (slurm_testbed.sh): on host 1 (the login
# node) with SLURM_CONF set, and checks its result. Slurm's srun can exit 0 when a step failed
# to launch, so a run passes only when its output shows the programs' own verdict too.
#
#   run_slurm.sh srun <nodes> <ppn> <program> [args...]
#       srun --mpi=pmix -N <nodes> --ntasks-per-node=<ppn> (-w host 1 when <nodes> is 1)
#   run_slurm.sh cmd <command...>      # any command (salloc, oshrun, ...), run as given
#   run_slurm.sh sbatch <sbatch options...> -- <command...>
#       sbatch --wait with the command as its script (--wrap); the batch job's output (a file
#       in /tmp, which the hosts share) is added to the run's output once the job is over
#
# The bed: the one at $SHOAL_SLURM_BED (a CTest fixture starts it once for the whole group,
# tests/slurm/CMakeLists.txt), else one of 2 hosts made for this run alone and removed after.
# Exits 77 (CTest's SKIP_RETURN_CODE) with the reason when no bed can be made here.
#
# Environment:
#   SHOAL_SLURM_LIMIT    seconds before the run is ended (default 90)
#   SHOAL_SLURM_STATUS   the exit status expected (default 0); "nonzero" for any but 0
#   SHOAL_SLURM_EXPECT   extended regular expressions the output must match, separated by "@@"
#   SHOAL_SLURM_REJECT   an extended regular expression the output must not match
#   SHOAL_SLURM_DIST     srun's --distribution (default: block, PEs 0..ppn-1 on host 1)
# The rest of the environment (SMA_*, SHMEM_*, GTEST_*, ...) reaches the tasks: srun exports
# its whole environment by default.
set -uo pipefail

readonly kSkip=77
here=$(cd "${BASH_SOURCE[0]%/*}" && pwd)
bed_tool=$here/slurm_testbed.sh
limit=${SHOAL_SLURM_LIMIT:-90}

usage() {
  echo "usage: $0 srun <nodes> <ppn> <program> [args...] | cmd <command...>" \
    "| sbatch <options...> -- <command...>" >&2
  exit 2
}
[[ $# -ge 2 ]] || usage
export GTEST_COLOR=${GTEST_COLOR:-no}

bed=${SHOAL_SLURM_BED:-}
if [[ -n "$bed" && ! -e "$bed" ]]; then
  # The fixture did not bring a bed up: say why when it could not, fail when it should have.
  why=$("$bed_tool" check) || { echo "SKIPPED: $why"; exit $kSkip; }
  echo "FAILED: no Slurm test bed at $bed (its fixture, slurm_bed_start, failed?)"
  exit 1
fi
if [[ -z "$bed" ]]; then
  why=$("$bed_tool" check) || { echo "SKIPPED: $why"; exit $kSkip; }
  bed=$(mktemp -u /tmp/shoal-slurm-bed.XXXXXX)
  trap '"$bed_tool" stop "$bed"' EXIT
  trap 'exit 130' INT TERM
  "$bed_tool" start "$bed" 2 || exit $?
fi
prefix=$(sed -n 's/^prefix=//p' "$bed/bed.env")

mode=$1
shift
case "$mode" in
  srun)
    [[ $# -ge 3 && "$1" =~ ^[1-9]$ && "$2" =~ ^[1-9]$ ]] || usage
    nodes=$1 ppn=$2
    shift 2
    command=(srun --mpi=pmix -N "$nodes" --ntasks-per-node="$ppn" -n $((nodes * ppn))
             --distribution="${SHOAL_SLURM_DIST:-block}")
    [[ "$nodes" -eq 1 ]] && command+=(-w "$prefix-h1")
    command+=("$@") ;;
  cmd) command=("$@") ;;
  sbatch)
    batch_options=()
    while [[ $# -gt 0 && "$1" != "--" ]]; do batch_options+=("$1"); shift; done
    [[ $# -ge 2 ]] || usage
    shift
    batch_out=$(mktemp /tmp/shoal-slurm-batch.XXXXXX)
    command=(sbatch --wait --output="$batch_out" "${batch_options[@]}" --wrap "$(printf '%q ' "$@")") ;;
  *) usage ;;
esac

out=$(mktemp /tmp/shoal-slurm-out.XXXXXX)
trap 'rm -f "$out" ${batch_out:+"$batch_out"}; [[ -z "${SHOAL_SLURM_BED:-}" ]] && "$bed_tool" stop "$bed"' EXIT
echo "+ ${command[*]}"
timeout -k 5 "$limit" "$bed_tool" exec "$bed" "${command[@]}" </dev/null 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
if [[ -n "${batch_out:-}" ]]; then
  echo "--- the batch job's output ($batch_out):"
  tee -a "$out" <"$batch_out"
fi
echo "status $rc"
if [[ $rc -eq 124 ]]; then
  echo "FAILED: the run did not end within $limit s (SHOAL_SLURM_LIMIT)"
  "$bed_tool" exec "$bed" squeue
  exit 1
fi
want=${SHOAL_SLURM_STATUS:-0}
if [[ "$want" == nonzero ]]; then
  [[ $rc -ne 0 ]] || { echo "FAILED: status 0, expected a failure"; exit 1; }
elif [[ $rc -ne $want ]]; then
  echo "FAILED: status $rc, expected $want (SHOAL_SLURM_STATUS)"
  exit 1
fi
if [[ -n "${SHOAL_SLURM_EXPECT:-}" ]]; then
  IFS=$'\n' read -r -d '' -a patterns <<<"${SHOAL_SLURM_EXPECT//@@/$'\n'}"
  for p in "${patterns[@]}"; do
    grep -Eq -- "$p" "$out" || { echo "FAILED: the output does not match '$p' (SHOAL_SLURM_EXPECT)"; exit 1; }
  done
fi
if [[ -n "${SHOAL_SLURM_REJECT:-}" ]] && grep -Eq -- "$SHOAL_SLURM_REJECT" "$out"; then
  echo "FAILED: the output matches '$SHOAL_SLURM_REJECT' (SHOAL_SLURM_REJECT):"
  grep -E -- "$SHOAL_SLURM_REJECT" "$out" | head -n 5
  exit 1
fi
echo "PASS"
