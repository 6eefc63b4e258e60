#!/usr/bin/env bash
# Runs each libFuzzer target for SECONDS (default 20) on a seed corpus made by the test
# generators. Builds them first in build-sanitize/ (clang, ASan, UBSan; see scripts/build.sh),
# unless FUZZ_NO_BUILD=1 says they are built. Corpora grow in build-sanitize/corpus/<target>/;
# crashing inputs land in build-sanitize/findings/<target>/. The body target also reads
# game-written files of the later classes from ../shared (or $PAKFS_SHARED_DIR) when present.
# Exit code 1 if any target found a crash, leak, timeout or out-of-memory.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET="${1:-20}"
BUILD=build-sanitize
TARGETS=(pak_header pack_gbx_header pack_header lz4 metadata packlist gbx_header gbx_body gbx_entry
  overlay_commit packlist_edit)
# FUZZ_TARGETS (space-separated, e.g. "gbx_body") runs only those.
[ -n "${FUZZ_TARGETS:-}" ] && read -r -a TARGETS <<< "$FUZZ_TARGETS"

if [ -z "${FUZZ_NO_BUILD:-}" ]; then
  BUILD_TARGETS="fuzz_make_seeds ${TARGETS[*]/#/fuzz_}" scripts/build.sh --sanitize
fi

rm -rf "$BUILD/seeds"
"$BUILD/fuzz/fuzz_make_seeds" "$BUILD/seeds"

# Game-written files of each later class for the body target: read from ../shared beside the
# checkout (linked, never copied into the project), left out when it is absent. Each is under
# -max_len below.
SHARED="${PAKFS_SHARED_DIR:-../shared}"
SHARED_SEEDS=(
  assets2/MP-CGameCtnMacroBlockInfo~AirCheckpoint.Macroblock.Gbx
  assets2/MP-CGameItemModel~3_75x6_.Item.gbx
  assets2/MP-CPlugCrystal~Portail_Base_Mesh.Crystal.Gbx
  assets2/MP-CPlugSolid2Model~xxx_Icon_Door_Segmental.Mesh.gbx
  assets2/MP-CPlugMaterialUserInst~Decals.Mat.Gbx
  assets2/MP-CPlugSurface~Wall_Normal_H20__22_2x8.Shape.gbx
  assets2/MP-CPlugFontBitmap~light.Font.gbx
  assets/CPlugPrefab~GBX-NET_2_CPlugPrefab_TM2020_001.Prefab.Gbx
  assets/CPlugTrainWagonModel~GBX-NET_2_CPlugTrainWagonModel_MP4_001.Wagon.Gbx
  "gbx/GBX-NET 2 CGameCtnMediaClip MP4 001.Clip.Gbx"
  "gbx/GBX-NET 2 CGameCtnGhost TM2020 001.Ghost.Gbx"
)
shared_seeds=()
if [ -d "$SHARED/fixtures" ]; then
  mkdir -p "$BUILD/seeds/gbx_body_shared"
  for f in "${SHARED_SEEDS[@]}"; do
    if [ -f "$SHARED/fixtures/$f" ]; then
      ln -s "$(cd "$SHARED/fixtures" && pwd)/$f" "$BUILD/seeds/gbx_body_shared/$(basename "$f" | tr ' ' _)"
    else
      echo "fuzz.sh: warning: seed $SHARED/fixtures/$f is absent" >&2
    fi
  done
  shared_seeds=("$BUILD/seeds/gbx_body_shared")
else
  echo "fuzz.sh: $SHARED/fixtures is absent: the body target runs without the game-written seeds" >&2
fi

status=0
for t in "${TARGETS[@]}"; do
  mkdir -p "$BUILD/corpus/$t" "$BUILD/findings/$t"
  log="$BUILD/findings/$t.log"
  extra=()
  [ "$t" = gbx_body ] && extra=(${shared_seeds[@]+"${shared_seeds[@]}"})
  echo "== fuzz_$t for ${SECONDS_PER_TARGET}s"
  # rss_limit/malloc_limit: a single allocation over 512 MiB counts as a finding.
  if ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 \
     UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     "$BUILD/fuzz/fuzz_$t" "$BUILD/corpus/$t" "$BUILD/seeds/$t" ${extra[@]+"${extra[@]}"} \
       -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 \
       -malloc_limit_mb=512 -max_len=65536 -print_final_stats=1 \
       -artifact_prefix="$BUILD/findings/$t/" >"$log" 2>&1; then
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$log" | tr '\n' ' '
    echo
  else
    status=1
    echo "fuzz_$t: FINDING (see $log and $BUILD/findings/$t/)"
    # The error and where it happened (a timeout's or crash's stack), so that a CI log
    # says enough to reproduce it without the artifact.
    grep -E -A24 "ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error" "$log" |
      grep -E "ERROR|runtime error|^ *#[0-9]+ " | head -30 || true
    grep -E "SUMMARY" "$log" | head -2 || true
  fi
done
exit "$status"
