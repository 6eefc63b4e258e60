#!/usr/bin/env bash
# Configures and builds pakfs. Extra arguments go to cmake's configure step.
#   scripts/build.sh              -O2 with warnings as errors, into build/ (or $BUILD_DIR)
#   scripts/build.sh --sanitize   clang with ASan and UBSan, tests and libFuzzer targets,
#                                 into build-sanitize/ (used by test.sh --sanitize and fuzz.sh)
# $BUILD_TARGETS (space-separated) limits what is built; default: everything.
set -euo pipefail
cd "$(dirname "$0")/.."
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
if [ "${1:-}" = "--sanitize" ]; then
  shift
  BUILD_DIR=build-sanitize
  # -O1 with line tables: fast enough to build and run, and reports still name the line.
  # Warnings as errors are enforced by the normal build (GCC); clang adds no -Werror here.
  config=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=None
    -DCMAKE_CXX_FLAGS="-O1 -g1" -DPAKFS_SANITIZE=ON -DPAKFS_FUZZ=ON -DPAKFS_BUILD_BENCH=OFF)
else
  BUILD_DIR=${BUILD_DIR:-build}
  config=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DPAKFS_WERROR=ON)
  # CI leaves the benchmark program out (PAKFS_BUILD_BENCH=OFF); bench/run.sh builds its own.
  [ -n "${PAKFS_BUILD_BENCH:-}" ] && config+=(-DPAKFS_BUILD_BENCH="$PAKFS_BUILD_BENCH")
fi
# A folder configured before keeps its generator (cmake refuses to switch).
[ -f "$BUILD_DIR/CMakeCache.txt" ] && generator=()
cmake -S . -B "$BUILD_DIR" "${generator[@]}" "${config[@]}" "$@" > /dev/null
targets=()
for t in ${BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$BUILD_DIR" -j"$(nproc)" "${targets[@]}"
