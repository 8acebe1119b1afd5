#!/usr/bin/env bash
# Builds Shoal and runs every test: the generated headers are current, the library exports
# the API, the multi-PE test programs (ctest) pass in the default build, the whole suite
# passes under AddressSanitizer + UndefinedBehaviorSanitizer (preset asan, build-asan/) and
# the thread tests under ThreadSanitizer (preset tsan, build-tsan/). CMakePresets.json
# defines the builds; scripts/sanitizers/ the sanitizers' runtime settings.
#
#   scripts/test.sh                  all three
#   scripts/test.sh --no-sanitizers  the default build only (a quick local run)
# TEST_JOBS (default 4) sets ctest -j; BUILD_DIR moves the default build (see build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

sanitizers=yes
for arg in "$@"; do
  case "$arg" in
    --no-sanitizers) sanitizers=no ;;
    -h|--help) sed -n '2,9s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "scripts/test.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done
jobs=${TEST_JOBS:-4}
# Each stage's start, for the CI log (CI must stay well inside its time limit).
stage() { echo "== test.sh: $1 (at $((SECONDS / 60)) min $((SECONDS % 60)) s)"; }

stage "install dependencies"
scripts/install-deps.sh
stage "default build"
python3 scripts/gen_api.py --check
scripts/build.sh
build=${BUILD_DIR:-build}
stage "default build: test"
ctest --test-dir "$build" --output-on-failure -j"$jobs" --timeout 300

if [ "$sanitizers" = yes ]; then
  for preset in asan tsan; do
    stage "$preset: configure and build"
    cmake --preset "$preset" >/dev/null
    cmake --build --preset "$preset" -j"$(nproc)"
    stage "$preset: test"
    ctest --preset "$preset" -j"$jobs"
  done
fi
stage "all passed"
