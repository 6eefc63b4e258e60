#!/usr/bin/env bash
# Installs what is missing, builds with warnings as errors and runs the whole test suite
# through ctest. With --sanitize, does the same in build-asan/ under ASan and UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
if [ "${1:-}" = "--sanitize" ]; then
  export BUILD_DIR=build-asan
  # -O1 with line tables: fast enough to build and run, and reports still name the line.
  # Warnings are enforced by the normal build; GCC's flow warnings give false alarms under ASan.
  scripts/build.sh -DPAKFS_SANITIZE=ON -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g1" \
    -DPAKFS_BUILD_BENCH=OFF -DPAKFS_WERROR=OFF
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
else
  export BUILD_DIR=build
  scripts/build.sh
fi
ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$(nproc)" --timeout 300
