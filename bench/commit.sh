#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A small commit against a copy: one 1 MiB file changed in a 256 MiB pak, `pak commit` (its
# output fsynced before the rename) against `cp` then `sync` of the pak, for a version 3 pak
# and a version 18 pack, in alternating runs; medians and the median of the per-pair ratios,
# of wall time and of CPU time (user + system: on a busy machine it moves less than wall).
#
#   bench/commit.sh [--runs N] [--mib M] [--build DIR] [--out DIR]
#
# The packs (M files of 1 MiB of random bytes, stored) are made once in --out (default
# bench/out-commit, on disk: the sync writes there).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=5
MIB=256
BUILD=$ROOT/build-bench
OUT=$ROOT/bench/out-commit
while [ $# -gt 0 ]; do
    case $1 in
        --runs) RUNS=$2; shift 2 ;;
        --mib) MIB=$2; shift 2 ;;
        --build) BUILD=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        -h|--help) sed -n '3,10p' "$0" | cut -c3-; exit 0 ;;
        *) echo "commit.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

. "$ROOT/bench/lib.sh"
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
timed() {  # lib.sh's, but "WALL CPU" (CPU: user + system), and a failing command stops the run
    local TIMEFORMAT='%R %U %S' t
    t=$( { time "$@" > /dev/null 2> "$OUT/stderr"; } 2>&1 ) || { cat "$OUT/stderr" >&2; exit 1; }
    set -- $t
    echo "$1 $(calc "$2 + $3" 3)"
}

if [ ! -x "$BUILD/tools/pak" ]; then
    log "building pak in $BUILD"
    cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release > /dev/null
    cmake --build "$BUILD" -j "$(nproc)" --target pak > /dev/null
fi
PAK=$BUILD/tools/pak
KEY=00112233445566778899AABBCCDDEEFF
mkdir -p "$OUT"
PARAMS="mib=$MIB"
if [ ! -f "$OUT/v3.pak" ] || [ "$(cat "$OUT/params" 2> /dev/null)" != "$PARAMS" ]; then
    log "making the packs ($MIB files of 1 MiB) in $OUT"
    rm -rf "$OUT/tree" "$OUT/params"
    mkdir -p "$OUT/tree/Data"
    for i in $(seq 1 "$MIB"); do head -c 1048576 /dev/urandom > "$OUT/tree/Data/f$i.bin"; done
    "$PAK" pack -q --level 0 --key "$KEY" "$OUT/tree" "$OUT/v3.pak"
    "$PAK" pack -q --level 0 --version 18 --key "$KEY" "$OUT/tree" "$OUT/v18.pak"
    rm -rf "$OUT/tree"
    echo "$PARAMS" > "$OUT/params"
fi

# The change: the middle file's 1 MiB replaced, in each pak's folder of the overlay.
OV=$OUT/overlay
rm -rf "$OV"
for v in v3 v18; do
    mkdir -p "$OV/$v/Data"
    head -c 1048576 /dev/urandom > "$OV/$v/Data/f$((MIB / 2)).bin"
done

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| pak | commit wall | cp+sync wall | ratio wall | commit CPU | cp+sync CPU | ratio CPU |"
echo "|---|---|---|---|---|---|---|"
for v in v3 v18; do
    cat "$OUT/$v.pak" > /dev/null  # page cache: both read it from memory
    cw=() pw=() rw=() cc=() pc=() rc=()
    for i in $(seq 1 "$RUNS"); do
        rm -f "$OUT/commit.pak" "$OUT/copy.pak"
        read -r w c < <(timed "$PAK" commit -q --key "$KEY" "$OUT/$v.pak" "$OV" "$OUT/commit.pak")
        read -r w2 c2 < <(timed sh -c 'cp "$1" "$2" && sync "$2"' sh "$OUT/$v.pak" "$OUT/copy.pak")
        cw+=("$w") pw+=("$w2") rw+=("$(calc "$w / $w2" 3)")
        cc+=("$c") pc+=("$c2") rc+=("$(calc "$c / ($c2 > 0 ? $c2 : 0.001)" 3)")
    done
    rm -f "$OUT/commit.pak" "$OUT/copy.pak"
    echo "| $v.pak, $MIB MiB, one 1 MiB file changed | $(calc "$(median "${cw[@]}")" 3) s" \
        "| $(calc "$(median "${pw[@]}")" 3) s | $(calc "$(median "${rw[@]}")" 2)x (${rw[*]})" \
        "| $(calc "$(median "${cc[@]}")" 3) s | $(calc "$(median "${pc[@]}")" 3) s" \
        "| $(calc "$(median "${rc[@]}")" 2)x (${rc[*]}) |"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$OV"
