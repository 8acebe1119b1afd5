#!/usr/bin/env bash
# Builds Shoal and runs every test: the generated headers are current, the library exports
# the API, and the multi-PE test programs (ctest) pass.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
python3 scripts/gen_api.py --check
scripts/build.sh
build=${BUILD_DIR:-build}
ctest --test-dir "$build" --output-on-failure -j"${TEST_JOBS:-2}" --timeout 300
