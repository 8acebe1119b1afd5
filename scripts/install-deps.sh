#!/usr/bin/env bash
# Installs the Debian packages Shoal builds and tests with, when any is missing.
# openmpi-bin is only the reference the benchmarks compare against; it is never linked.
# gfortran builds the Fortran interface (shmem.fh, oshfort, the Fortran routines).
# clang-format checks the sources' format (the `format` test, scripts/format.sh).
# iproute2 builds the network-namespace hosts of tests/multihost and tests/slurm; slurmctld,
# slurmd, slurm-client and slurm-wlm-basic-plugins (mpi_pmix_v4.so) are the real Slurm that
# tests/slurm runs (issue 20). The daemons are started by the tests only: the packages' systemd
# units are not used.
# ninja-build builds faster than make here (the default build took 4:35 instead of 5:22, with
# 12% less CPU: one graph of the whole build instead of make's passes target by target;
# scripts/build.sh, scripts/test.sh).
# --bench also installs what the benchmarks of bench/ compare and plot with: OSHMEM's compiler
# wrappers (libopenmpi-dev: oshcc) and gnuplot-nox. The tests need neither.
set -euo pipefail
packages=(build-essential gfortran cmake pkg-config python3 libucx-dev libpmix-dev libspdlog-dev
          libgtest-dev ninja-build openmpi-bin iproute2 clang-format slurmctld slurmd slurm-client
          slurm-wlm-basic-plugins)
case "${1:-}" in
  "") ;;
  --bench) packages+=(libopenmpi-dev gnuplot-nox) ;;
  *) echo "usage: $0 [--bench]" >&2; exit 2 ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
