#!/usr/bin/env bash
# Runs each libFuzzer target for SECONDS (default 20) on a seed corpus made by the test
# generators. Builds them first in build-sanitize/ (clang, ASan, UBSan; see scripts/build.sh),
# unless FUZZ_NO_BUILD=1 says they are built. Corpora grow in build-sanitize/corpus/<target>/;
# crashing inputs land in build-sanitize/findings/<target>/.
# Exit code 1 if any target found a crash, leak, timeout or out-of-memory.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET="${1:-20}"
BUILD=build-sanitize
TARGETS=(pak_header pack_gbx_header pack_header lz4 metadata packlist gbx_header gbx_body gbx_entry
  overlay_commit packlist_edit)

if [ -z "${FUZZ_NO_BUILD:-}" ]; then
  BUILD_TARGETS="fuzz_make_seeds ${TARGETS[*]/#/fuzz_}" scripts/build.sh --sanitize
fi

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
