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
# The sanitizer presets' new build directories use Ninja too, as scripts/build.sh does.
if [ -z "${CMAKE_GENERATOR:-}" ] && command -v ninja >/dev/null; then
  export CMAKE_GENERATOR=Ninja
fi
# Each stage's start, for the CI log (CI must stay well inside its time limit).
stage() { echo "== test.sh: $1 (at $((SECONDS / 60)) min $((SECONDS % 60)) s)"; }

# Milliseconds since boot (the clock of /proc/uptime).
uptime_ms() {
  local up
  read -r up _ </proc/uptime
  echo $((10#${up/./} * 10))
}
# Appends a line to $1 whenever a half-second sleep took over 3 s: the whole machine stood still
# (a virtual machine's host can freeze it for 10-20 s; a sleeping process under any CPU load
# wakes within milliseconds). Runs until killed.
watch_for_stalls() {
  local before now
  before=$(uptime_ms)
  while sleep 0.5; do
    now=$(uptime_ms)
    if ((now - before > 3000)); then
      echo "the machine stood still for $((now - before - 500)) ms before $(date +%T)" >>"$1"
    fi
    before=$now
  done
}
# run_tests <ctest arguments...>: ctest. A stall of the machine pushes whatever runs at that
# moment past the deadlines the launcher and progress tests check (a job must end within 5 s of
# a PE's failure), so when tests failed and the machine stood still during the run, the failed
# tests run once more and their second result counts; both runs' output stays in the log.
# Failures without a stall count at once.
run_tests() {
  local stalls rc=0 watcher
  stalls=$(mktemp)
  watch_for_stalls "$stalls" &
  watcher=$!
  ctest "$@" || rc=$?
  kill "$watcher" 2>/dev/null || true
  wait "$watcher" 2>/dev/null || true
  if [ "$rc" -ne 0 ] && [ -s "$stalls" ]; then
    cat "$stalls"
    echo "== test.sh: tests failed while the machine stood still (above); running them once more:"
    rc=0
    ctest "$@" --rerun-failed || rc=$?
  fi
  rm -f "$stalls"
  return "$rc"
}

stage "install dependencies"
scripts/install-deps.sh
stage "default build"
python3 scripts/gen_api.py --check
scripts/build.sh
build=${BUILD_DIR:-build}
stage "default build: test"
run_tests --test-dir "$build" --output-on-failure -j"$jobs" --timeout 300

if [ "$sanitizers" = yes ]; then
  for preset in asan tsan; do
    stage "$preset: configure and build"
    cmake --preset "$preset" >/dev/null
    cmake --build --preset "$preset" -j"$(nproc)"
    stage "$preset: test"
    rc=0
    run_tests --preset "$preset" -j"$jobs" || rc=$?
    if [ "$rc" -ne 0 ] && [ "$preset" = asan ]; then
      # The asan preset does not symbolize (scripts/sanitizers/README.md): name the frames here.
      echo "== test.sh: the asan tests' sanitizer reports, with functions and lines:"
      python3 scripts/sanitizers/symbolize.py --reports \
        "build-$preset/Testing/Temporary/LastTest.log" || true
    fi
    [ "$rc" -eq 0 ] || exit "$rc"
  done
fi
stage "all passed"
