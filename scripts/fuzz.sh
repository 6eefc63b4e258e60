#!/usr/bin/env bash
# Builds the libFuzzer targets in build-fuzz/ (clang, ASan and UBSan) and runs each for
# SECONDS (default 20) on a seed corpus made by the test generators. Corpora grow in
# build-fuzz/corpus/<target>/; crashing inputs land in build-fuzz/findings/<target>/.
# Exit code 1 if any target found a crash, leak, timeout or out-of-memory.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET="${1:-20}"
JOBS="${FUZZ_BUILD_JOBS:-2}"
BUILD=build-fuzz
TARGETS=(pak_header metadata packlist gbx_header gbx_body gbx_entry)

cmake -S . -B "$BUILD" -DPAKFS_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DPAKFS_BUILD_TESTS=OFF -DPAKFS_BUILD_FUSE=OFF >/dev/null
cmake --build "$BUILD" -j"$JOBS" --target fuzz_make_seeds "${TARGETS[@]/#/fuzz_}"

rm -rf "$BUILD/seeds"
"$BUILD/fuzz/fuzz_make_seeds" "$BUILD/seeds"

status=0
for t in "${TARGETS[@]}"; do
  mkdir -p "$BUILD/corpus/$t" "$BUILD/findings/$t"
  log="$BUILD/findings/$t.log"
  echo "== fuzz_$t for ${SECONDS_PER_TARGET}s"
  # rss_limit/malloc_limit: a single allocation over 512 MiB counts as a finding.
  if ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 \
     UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     "$BUILD/fuzz/fuzz_$t" "$BUILD/corpus/$t" "$BUILD/seeds/$t" \
       -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 \
       -malloc_limit_mb=512 -max_len=65536 -print_final_stats=1 \
       -artifact_prefix="$BUILD/findings/$t/" >"$log" 2>&1; then
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$log" | tr '\n' ' '
    echo
  else
    status=1
    echo "fuzz_$t: FINDING (see $log and $BUILD/findings/$t/)"
    grep -E "ERROR|SUMMARY|==[0-9]+==" "$log" | head -5 || true
  fi
done
exit "$status"
