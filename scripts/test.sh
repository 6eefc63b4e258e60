#!/usr/bin/env bash
# Installs what is missing, builds with warnings as errors and runs the whole test suite
# through ctest. With --sanitize: builds with clang under ASan and UBSan (build-sanitize/),
# runs the same suite there, then each libFuzzer target for $FUZZ_SECONDS (default 10) s.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
if [ "${1:-}" = "--sanitize" ]; then
  scripts/build.sh --sanitize
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:malloc_context_size=10 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-sanitize --output-on-failure -j"$(nproc)" --timeout 300
  FUZZ_NO_BUILD=1 scripts/fuzz.sh "${FUZZ_SECONDS:-10}"
else
  scripts/build.sh
  ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 300
fi
