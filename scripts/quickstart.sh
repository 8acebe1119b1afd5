#!/usr/bin/env bash
# From a fresh Debian 12 machine to a 4-PE OpenSHMEM program: install the packages, build
# Shoal, compile examples/ with our oshcc and run them with our oshrun.
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
