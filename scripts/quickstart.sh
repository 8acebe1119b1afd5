#!/usr/bin/env bash
# From a fresh Debian 12 machine to a 4-PE OpenSHMEM program: install the packages, build
# Shoal, compile examples/ with our oshcc (and oshfort) and run them with our oshrun.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
bin=${BUILD_DIR:-build}/bin
"$bin/oshcc" examples/hello.c -o "$bin/hello"
"$bin/oshcc" examples/circular_shift.c -o "$bin/circular_shift"
"$bin/oshcc" examples/team_reduce.c -o "$bin/team_reduce"
"$bin/oshrun" -np 4 "$bin/hello"
"$bin/oshrun" -np 4 "$bin/circular_shift"
"$bin/oshrun" -np 4 "$bin/team_reduce"
# The Fortran examples (the 1.0 manual pages of and_to_all and xor_to_all), when the build found
# a Fortran compiler and so made oshfort.
if [ -x "$bin/oshfort" ]; then
  "$bin/oshfort" examples/and_to_all.f -o "$bin/and_to_all"
  "$bin/oshfort" examples/xor_to_all.f -o "$bin/xor_to_all"
  "$bin/oshrun" -np 4 "$bin/and_to_all"
  "$bin/oshrun" -np 4 "$bin/xor_to_all"
fi
