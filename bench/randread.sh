#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Random 4 KiB reads in one large compressed entry, through pakfs and through squashfuse_ll on a
# gzip squashfs image of the same file, in the same run: fresh mounts, rounds interleaved,
# medians over the rounds. bench/run.sh sources this file for its rows; run alone it builds,
# makes a pack with one text entry (256 MiB at --scale 0.5) and prints only these rows:
#
#   bench/randread.sh [--scale S] [--rounds N] [--reads N] [--build DIR] [--out DIR]
set -euo pipefail

# Rows into `row` (run.sh's, or the one below). Needs PAK, PAKFS, PB, KEY, BIG (a pak whose
# largest entry is Media/big.xml), OUT, READS, RR_ROUNDS and bench/lib.sh's helpers.
randread_rows() {
    local mnt=$OUT/rr-mnt sq=$OUT/rr-sqmnt img=$OUT/big.sqfs tree=$OUT/rr-tree
    local cache=$OUT/rr-cache file=Media/big.xml pid=
    mkdir -p "$mnt" "$sq"
    fusermount3 -u "$mnt" 2> /dev/null || true
    fusermount3 -u "$sq" 2> /dev/null || true
    if [ ! -f "$img" ] || [ "$img" -ot "$BIG" ]; then
        log "squashfs image of the big entry (mksquashfs -comp gzip)"
        rm -rf "$tree" "$img"
        "$PAK" extract -q --key "$KEY" "$BIG" "$tree"
        mksquashfs "$tree" "$img" -comp gzip -noappend -quiet -no-progress > /dev/null
        rm -rf "$tree"
    fi
    rr_mount() {  # fresh pakfs mount of BIG with the seek folder under $cache
        load RRM env XDG_CACHE_HOME="$cache" "$PB" mount "$mnt/big" -- "$PAKFS" -f --key "$KEY" "$BIG" "$mnt"
        pid=$RRM_pid
    }
    rr_unmount() {
        fusermount3 -u "$mnt"
        while kill -0 "$pid" 2> /dev/null; do sleep 0.05; done
    }
    median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
    local i j pf=() pr=() sf=() pc=() cs=() off=0
    log "random reads: first read of a fresh mount and seek folder ($RR_ROUNDS rounds)"
    for i in $(seq 1 "$RR_ROUNDS"); do
        # The first read needs both CPUs and the sequential decode one: how fast the slower CPU
        # is against the faster at the same work this round, shown beside the ratio.
        load RRC "$PB" cpuspeed
        cs+=("$RRC_cpuspeed_slowest")
        # Three fresh mounts, as the sequential decode below takes three runs: the round's
        # value is their median for both.
        pr=()
        for j in 1 2 3; do
            rm -rf "$cache"
            rr_mount
            load RR1 "$PB" randread "$mnt/big/$file" --count 1 --first-at 0.86
            rr_unmount
            pr+=("$RR1_randread_first_ms")
        done
        pf+=("$(printf '%s\n' "${pr[@]}" | median)")
        off=$RR1_randread_first_offset
        squashfuse_ll "$img" "$sq"
        load RR2 "$PB" randread "$sq/$file" --count 1 --first-at 0.86
        fusermount3 -u "$sq"
        sf+=("$RR2_randread_first_ms")
        # What `pak cat` does to get there: a sequential decode (in process, no pipe), the
        # median of three (a single one moves by a fifth from run to run on this machine).
        load RR3 "$PB" seqread "$BIG" --offset "$off" --runs 3
        pc+=("$RR3_seqread_ms")
    done
    local pfm sfm pcm
    pfm=$(printf '%s\n' "${pf[@]}" | median)
    sfm=$(printf '%s\n' "${sf[@]}" | median)
    pcm=$(printf '%s\n' "${pc[@]}" | median)
    row "first 4 KiB read of a fresh mount and seek folder, $(calc "$off / 1048576" 0) MiB into the big entry (median of $RR_ROUNDS rounds; medians of 3 fresh mounts per round: ${pf[*]} ms)" "$pfm ms" "$(calc "$pfm / $pcm")x the sequential decode to that offset as \`pak cat\` makes it ($pcm ms; medians of 3 per round: ${pc[*]} ms); the slower CPU at ${cs[*]} of the faster's speed (per round); squashfuse_ll: $sfm ms" "<= 0.6x: $(verdict "$pfm / $pcm <= 0.6")"

    # The seek points of the whole entry, saved: later mounts load them.
    rm -rf "$cache"
    rr_mount
    "$PB" randread "$mnt/big/$file" --count 2 > /dev/null
    local idx=
    for i in $(seq 1 1200); do
        idx=$(find "$cache" -name '*.idx' 2> /dev/null | head -1 || true)
        [ -n "$idx" ] && break
        sleep 0.1
    done
    rr_unmount
    local entry
    load RRS env XDG_CACHE_HOME="$cache" "$PB" fsread "$BIG" --count 20
    entry=$RRS_fsread_size
    if [ -n "$idx" ]; then
        row "seek index file of the big entry ($RRS_fsread_seek_points points)" "$(calc "$(stat -c %s "$idx") / 1024" 0) KiB" "$(calc "$(stat -c %s "$idx") * 1073741824 / $entry / 1048576" 1) MiB per GiB of entry" ""
    fi
    row "seek point memory of the big entry ($RRS_fsread_seek_points points)" "$(calc "$RRS_fsread_seek_bytes / 1048576" 1) MiB" "$(calc "$RRS_fsread_seek_bytes * 268435456 / $entry / 1048576" 1) MiB per 256 MiB of entry" ""

    log "random reads: $READS 4 KiB reads per fresh mount, pakfs and squashfuse_ll interleaved ($RR_ROUNDS rounds)"
    local pm=() pp=() sm=() sp=()
    for i in $(seq 1 "$RR_ROUNDS"); do
        rr_mount
        load RRP "$PB" randread "$mnt/big/$file" --count "$READS"
        rr_unmount
        pm+=("$RRP_randread_median_ms")
        pp+=("$RRP_randread_p99_ms")
        squashfuse_ll "$img" "$sq"
        load RRQ "$PB" randread "$sq/$file" --count "$READS"
        fusermount3 -u "$sq"
        sm+=("$RRQ_randread_median_ms")
        sp+=("$RRQ_randread_p99_ms")
    done
    local pmm ppm smm spm
    pmm=$(printf '%s\n' "${pm[@]}" | median)
    ppm=$(printf '%s\n' "${pp[@]}" | median)
    smm=$(printf '%s\n' "${sm[@]}" | median)
    spm=$(printf '%s\n' "${sp[@]}" | median)
    row "random 4 KiB read through the mount, median (fresh mounts, index file kept; median of $RR_ROUNDS rounds of $READS; runs: ${pm[*]} ms)" "$pmm ms" "$(calc "$pmm / $smm")x squashfuse_ll's $smm ms (runs: ${sm[*]} ms)" "<= 1.5x: $(verdict "$pmm / $smm <= 1.5")"
    row "random 4 KiB read through the mount, p99 (runs: ${pp[*]} ms)" "$ppm ms" "$(calc "$ppm / $spm")x squashfuse_ll's $spm ms (runs: ${sp[*]} ms)" "<= 3x: $(verdict "$ppm / $spm <= 3")"
    rm -rf "$cache"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    ROOT=$(cd "$(dirname "$0")/.." && pwd)
    SCALE=0.5
    RR_ROUNDS=3
    READS=200
    BUILD=$ROOT/build-bench
    OUT=$ROOT/bench/out-rand
    while [ $# -gt 0 ]; do
        case $1 in
            --scale) SCALE=$2; shift 2 ;;
            --rounds) RR_ROUNDS=$2; shift 2 ;;
            --reads) READS=$2; shift 2 ;;
            --build) BUILD=$2; shift 2 ;;
            --out) OUT=$2; shift 2 ;;
            -h|--help) sed -n '3,9p' "$0"; exit 0 ;;
            *) echo "randread.sh: unknown option $1" >&2; exit 2 ;;
        esac
    done
    . "$ROOT/bench/lib.sh"
    row() { echo "| $1 | $2 | $3 | $4 |"; }
    log "building in $BUILD; load average $(cut -d' ' -f1-3 /proc/loadavg)"
    cmake -S "$ROOT" -B "$BUILD" > /dev/null
    cmake --build "$BUILD" -j "$(nproc)" --target pak pakfs pakbench > /dev/null
    PAK=$BUILD/tools/pak
    PAKFS=$BUILD/tools/pakfs
    PB=$BUILD/bench/pakbench
    KEY=$("$PB" key)
    BIG=$OUT/big.pak
    if [ ! -f "$BIG" ] || [ "$(cat "$OUT/params" 2> /dev/null)" != "scale=$SCALE" ]; then
        log "generating the pack (scale $SCALE) in $OUT"
        mkdir -p "$OUT"
        "$PB" make-packs "$OUT" --scale "$SCALE" --entries 10 > /dev/null
        echo "scale=$SCALE" > "$OUT/params"
    fi
    cat "$BIG" > /dev/null
    # Nothing stays mounted if a step fails.
    trap 'fusermount3 -u "$OUT/rr-mnt" 2> /dev/null; fusermount3 -u "$OUT/rr-sqmnt" 2> /dev/null; true' EXIT
    echo "| measurement | value | ratio | target |"
    echo "|---|---|---|---|"
    randread_rows
    echo "- $(date -u '+%Y-%m-%d %H:%M UTC'), revision $(git -C "$ROOT" rev-parse --short HEAD 2> /dev/null || echo '?'), load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
