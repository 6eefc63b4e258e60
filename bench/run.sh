#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs every measurement and prints a table, also written to BENCHMARKS.md.
#
#   bench/run.sh [--scale S] [--entries N] [--jobs N] [--build DIR] [--out DIR] [--reads N]
#                [--no-md] [--only writable-cat]
#
# --scale multiplies every file size (1: about 1.2 GiB over --entries files, default 100000,
# and a 512 MiB entry); the packs are made once per scale in --out (default bench/out).
# --only writable-cat: only cat of every file, and of the big entry, through a writable and a
# read-only mount, side by side (defaults then: --scale 0.25 --entries 20000 --out
# bench/out-quick); the table is added to a section at the end of BENCHMARKS.md; a whole run
# writes the table at its top anew and keeps the sections after it.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SCALE=1
ENTRIES=100000
JOBS=$(nproc)
BUILD=$ROOT/build-bench
OUT=$ROOT/bench/out
READS=200
WRITE_MD=1
ONLY=
GIVEN=" $* "
while [ $# -gt 0 ]; do
    case $1 in
        --scale) SCALE=$2; shift 2 ;;
        --entries) ENTRIES=$2; shift 2 ;;
        --jobs) JOBS=$2; shift 2 ;;
        --build) BUILD=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --reads) READS=$2; shift 2 ;;
        --no-md) WRITE_MD=0; shift ;;
        --only) ONLY=$2; shift 2 ;;
        -h|--help) sed -n '3,13p' "$0" | cut -c3-; exit 0 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

case $ONLY in
    '') ;;
    writable-cat)
        [[ $GIVEN == *" --scale "* ]] || SCALE=0.25
        [[ $GIVEN == *" --entries "* ]] || ENTRIES=20000
        [[ $GIVEN == *" --out "* ]] || OUT=$ROOT/bench/out-quick
        ONLY_HEADING="## Writable against read-only mount (bench/run.sh --only writable-cat)"
        ;;
    *) echo "run.sh: --only takes writable-cat" >&2; exit 2 ;;
esac

. "$ROOT/bench/lib.sh"

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
log "building in $BUILD"
cmake -S "$ROOT" -B "$BUILD" > /dev/null
TARGETS=(pak pakbench)
grep -q '^PAKFS_BUILD_FUSE:BOOL=ON' "$BUILD/CMakeCache.txt" && TARGETS+=(pakfs)
cmake --build "$BUILD" -j "$JOBS" --target "${TARGETS[@]}" > /dev/null
PAK=$BUILD/tools/pak
PAKFS=$BUILD/tools/pakfs
PB=$BUILD/bench/pakbench
KEY=$("$PB" key)

PARAMS="scale=$SCALE entries=$ENTRIES"
if [ ! -f "$OUT/many.pak" ] || [ "$(cat "$OUT/params" 2>/dev/null)" != "$PARAMS" ]; then
    log "generating packs ($PARAMS) in $OUT"
    rm -f "$OUT/params"
    "$PB" make-packs "$OUT" --scale "$SCALE" --entries "$ENTRIES" > /dev/null
    echo "$PARAMS" > "$OUT/params"
fi
MANY=$OUT/many.pak
BIG=$OUT/big.pak
cat "$MANY" "$BIG" > /dev/null  # page cache: measure decoding, not the disk

ROWS=()
row() {
    ROWS+=("| $1 | $2 | $3 | $4 |")
    echo "row: | $1 | $2 | $3 | $4 |" >&2  # as it comes: a run stopped early keeps its rows
}

# Mounts.
MNT=$OUT/mnt
OV=$OUT/overlay
HAVE_FUSE=0
[ -x "$PAKFS" ] && [ -c /dev/fuse ] && command -v fusermount3 > /dev/null && HAVE_FUSE=1
PID=
unmount() {
    fusermount3 -u "$MNT"
    while kill -0 "$PID" 2> /dev/null; do sleep 0.05; done
}
mountpak() {  # pak ready-path [pakfs options...] -> sets MOUNT_mount_s, MOUNT_pid
    local pak=$1 ready=$2
    shift 2
    load MOUNT "$PB" mount "$MNT/$ready" -- "$PAKFS" -f "$@" --key "$KEY" "$pak" "$MNT"
    PID=$MOUNT_pid
}
hwm() { awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$PID/status"; }
freshoverlay() { rm -rf "$OV" && mkdir -p "$OV"; }
catmany() { timed sh -c "find '$MNT/many' -type f -print0 | xargs -0 cat"; }
median3() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
catbig() { timed sh -c "cat '$MNT'/big/Media/*"; }
# Times function $3 through a read-only mount of pak $1 (ready path $2) and through a writable one
# (-o overlay, an empty overlay, nothing changed), side by side: three rounds of a fresh mount of
# each, the first of a round alternating (single reads minutes apart move with the machine's
# speed). Sets T_RO and T_RW (the medians), R (their ratio) and RATIOS (each round's).
interleaved() {
    local pak=$1 ready=$2 timer=$3 i mode t_ro t_rw ro=() rw=()
    RATIOS=()
    mkdir -p "$MNT"
    fusermount3 -u "$MNT" 2> /dev/null || true
    for i in 1 2 3; do
        for mode in $([ $((i % 2)) = 1 ] && echo "ro rw" || echo "rw ro"); do
            if [ "$mode" = ro ]; then
                mountpak "$pak" "$ready" && t_ro=$($timer) && unmount
            else
                freshoverlay && mountpak "$pak" "$ready" -o "overlay=$OV" && t_rw=$($timer) && unmount
            fi
        done
        ro+=("$t_ro")
        rw+=("$t_rw")
        RATIOS+=("$(calc "$t_ro / $t_rw")")
    done
    rm -rf "$OV"
    T_RO=$(median3 "${ro[@]}")
    T_RW=$(median3 "${rw[@]}")
    R=$(calc "$T_RO / $T_RW")
}
# Reading unchanged files through a writable mount against a read-only one: every file of
# many.pak, then the big entry (with MB/s where a whole run measured their sizes).
writablereads() {
    local what bytes speed
    for what in many big; do
        if [ "$what" = many ]; then
            interleaved "$MANY" many catmany
            bytes=${M_out_bytes:-}
            what="every file of many.pak ($ENTRIES files)"
        else
            interleaved "$BIG" big catbig
            bytes=${B_out_bytes:-}
            what="the big entry"
        fi
        speed=""
        [ -n "$bytes" ] && speed=" ($(mbps "$bytes" "$T_RW") / $(mbps "$bytes" "$T_RO") MB/s)"
        row "cat $what through a writable mount (-o overlay, nothing changed) / through a read-only mount (medians of 3 interleaved rounds, fresh mounts)" "$(calc "$T_RW" 3) s / $(calc "$T_RO" 3) s$speed" "$R of the read-only mount's speed (rounds: ${RATIOS[*]})" ">= 0.9: $(verdict "$R >= 0.9")"
    done
}

# --only: just the rows named, then the table.
if [ "$ONLY" = writable-cat ]; then
    M_simd_impl="not measured (--only)"
    if [ "$HAVE_FUSE" = 1 ]; then
        log "FUSE: cat of every file, writable mount against read-only (3 interleaved rounds)"
        writablereads
    else
        row "FUSE measurements" "skipped" "" "no pakfs binary, /dev/fuse or fusermount3"
    fi
fi
# Every row: the whole run (its body is not indented).
if [ -z "$ONLY" ]; then

log "single-core limit (Crypto++ Blowfish-CBC + zlib inflate of the packs' bytes)"
load M "$PB" limit "$MANY"
load B "$PB" limit "$BIG"
# The limit of pack P (M or B): its output over the time of decryption D and inflation I alone.
limit() {  # P D I -> MB/s
    local bytes=${1}_out_bytes decrypt=${1}_decrypt_${2}_s inflate=${1}_inflate${3}_s
    mbps "${!bytes}" "${!decrypt} + ${!inflate}"
}
M_LIM_CPP=$(limit M cryptopp "")
M_LIM_SIMD=$(limit M simd "")
B_LIM_CPP=$(limit B cryptopp "")
B_LIM_SIMD=$(limit B simd "")
# Our limit: the vector decryptor and the inflater plain entries use (libdeflate).
M_LIM_OURS=$(limit M simd _libdeflate)
B_LIM_OURS=$(limit B simd _libdeflate)
MB=$(calc "$M_out_bytes / 1e6" 1)
BB=$(calc "$B_out_bytes / 1e6" 1)
row "many.pak: $M_entries entries, $MB MB out, $(calc "$M_cipher_bytes / 1e6" 1) MB ciphertext" "" "" ""
# The physical floor: reading the pak once (page cache) and decrypting it, nothing else.
T_READ=$(for i in 1 2 3; do timed sh -c "cat '$MANY' > /dev/null"; done | sort -n | head -1)
row "read many.pak once from the page cache (best of 3)" "$(mbps "$(stat -c %s "$MANY")" "$T_READ") MB/s" "$(calc "$T_READ" 3) s" ""
row "decryption only, vector ($M_simd_impl), 1 core" "$(calc "$M_decrypt_simd_s" 3) s" "$(mbps "$M_out_bytes" "$M_decrypt_simd_s") MB/s of output" ""
row "Crypto++ Blowfish-CBC decryption, 1 core" "$(mbps "$M_cipher_bytes" "$M_decrypt_cryptopp_s") MB/s" "" ""
row "vector decryption ($M_simd_impl), 1 core" "$(mbps "$M_cipher_bytes" "$M_decrypt_simd_s") MB/s" "$(calc "$M_decrypt_cryptopp_s / $M_decrypt_simd_s")x Crypto++" ""
row "zlib inflate, 1 core" "$(mbps "$M_out_bytes" "$M_inflate_s") MB/s out" "" ""
row "libdeflate inflate (whole buffer, Adler-32 checked), 1 core" "$(mbps "$M_out_bytes" "$M_inflate_libdeflate_s") MB/s out" "$(calc "$M_inflate_s / $M_inflate_libdeflate_s")x zlib" ""
row "ISA-L inflate (whole buffer, Adler-32 checked), 1 core" "$(mbps "$M_out_bytes" "$M_inflate_isal_s") MB/s out" "$(calc "$M_inflate_s / $M_inflate_isal_s")x zlib" ""
row "**limit** (Crypto++ + zlib inflate), 1 core" "$M_LIM_CPP MB/s out" "1.00" ""
row "limit with vector decryption, 1 core" "$M_LIM_SIMD MB/s out" "$(calc "$M_LIM_SIMD / $M_LIM_CPP")" ""
row "**our limit** (vector decryption + libdeflate), 1 core" "$M_LIM_OURS MB/s out" "$(calc "$M_LIM_OURS / $M_LIM_CPP")" ""

EX=/dev/shm/pakbench-extract-$$
[ -w /dev/shm ] || EX=$OUT/extract
trap 'rm -rf "$EX"' EXIT
extract() {  # impl jobs pak -> seconds
    rm -rf "$EX"
    local t
    t=$(PAKFS_BLOWFISH=$1 timed "$PAK" extract -q -j "$2" --key "$KEY" "$3" "$EX")
    rm -rf "$EX"
    echo "$t"
}
# Five runs each (the machine may be shared): the best and the median time.
extract5() {  # impl jobs pak -> "best median" seconds
    local i
    for i in 1 2 3 4 5; do extract "$1" "$2" "$3"; done | sort -n | awk '{ t[NR] = $1 } END { print t[1], t[3] }'
}
log "pak extract (5 runs each)"
T_M_CPP1=$(extract portable 1 "$MANY")
read -r T_M_1 T_M_1_MED <<< "$(extract5 default 1 "$MANY")"
read -r T_M_N T_M_N_MED <<< "$(extract5 default "$JOBS" "$MANY")"
T_B_CPP1=$(extract portable 1 "$BIG")
read -r T_B_1 T_B_1_MED <<< "$(extract5 default 1 "$BIG")"
# X_NAME: the rate of time T_NAME, over many.pak's output for M_*, big.pak's for B_*.
for t in M_CPP1 M_1 M_1_MED M_N M_N_MED B_CPP1 B_1 B_1_MED; do
    rate_bytes=${t%%_*}_out_bytes rate_time=T_$t
    printf -v "X_$t" '%s' "$(mbps "${!rate_bytes}" "${!rate_time}")"
done
R=$(calc "$X_M_CPP1 / $M_LIM_CPP")
row "pak extract -j 1, Crypto++ decryption (PAKFS_BLOWFISH=portable)" "$X_M_CPP1 MB/s" "$R of limit" ""
R=$(calc "$X_M_1 / $M_LIM_CPP")
row "pak extract -j 1, vector decryption (best / median of 5)" "$X_M_1 / $X_M_1_MED MB/s" "$R (median $(calc "$X_M_1_MED / $M_LIM_CPP")) of limit, $(calc "$X_M_1 / $M_LIM_OURS") of our limit" ">= 2.0 of limit: $(verdict "$R >= 2.0"); >= 0.8 of ours: $(verdict "$X_M_1 / $M_LIM_OURS >= 0.8")"
# What writing the output costs by itself: the same number of bytes into new tmpfs pages, and
# reading the extracted files back with cat (the floor of the mount's cat row).
mkdir -p "$EX"
T_FILL=$(for i in 1 2 3; do
    rm -f "$EX/fill"
    timed sh -c "head -c $M_out_bytes /dev/zero > '$EX/fill'"
done | sort -n | head -1)
rm -rf "$EX"
row "write $MB MB into tmpfs once (head -c from /dev/zero, best of 3)" "$(mbps "$M_out_bytes" "$T_FILL") MB/s" "$(calc "$T_FILL" 3) s" ""
PAKFS_BLOWFISH=default "$PAK" extract -q -j "$JOBS" --key "$KEY" "$MANY" "$EX"
T_CATX=$(for i in 1 2 3; do timed sh -c "find '$EX' -type f -print0 | xargs -0 cat"; done | sort -n | head -1)
rm -rf "$EX"
X_CATX=$(mbps "$M_out_bytes" "$T_CATX")
row "cat every extracted file of many.pak from tmpfs (best of 3)" "$X_CATX MB/s" "$(calc "$T_CATX" 3) s" ""
# Our limit with the output written once (one file, not 100000): what one core could reach.
M_LIM_WRITE=$(mbps "$M_out_bytes" "$M_decrypt_simd_s + $M_inflate_libdeflate_s + $T_FILL")
row "our limit plus writing the output into tmpfs once, 1 core" "$M_LIM_WRITE MB/s out" "pak extract -j 1: $(calc "$X_M_1 / $M_LIM_WRITE") of it" ""
R=$(calc "$X_M_N / $X_M_1")
row "pak extract -j $JOBS, vector decryption (best / median of 5)" "$X_M_N / $X_M_N_MED MB/s" "${R}x -j 1 (median $(calc "$X_M_N_MED / $X_M_1_MED")x)" ">= 1.7x (2 cores): $(verdict "$R >= 1.7")"

log "pak pack against mksquashfs -comp gzip (the same trees, from tmpfs)"
# The peers: squashfs-tools (mksquashfs, unsquashfs) and squashfuse (squashfuse_ll).
if { ! command -v mksquashfs || ! command -v squashfuse_ll; } > /dev/null && [ "$(id -u)" = 0 ]; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq squashfs-tools squashfuse; } > /dev/null 2>&1 || true
fi
TREE=$EX-tree
MIXED=$EX-mixed
trap 'rm -rf "$EX" "$TREE" "$MIXED"' EXIT
PAKFS_BLOWFISH=default "$PAK" extract -q -j "$JOBS" --key "$KEY" "$MANY" "$TREE"
# A tree like a game's media: half random (textures, sounds), half text, 32 files.
mkdir -p "$MIXED"
MIXED_FILE=$(calc "8388608 * $SCALE" 0)
for i in $(seq 1 16); do
    head -c "$MIXED_FILE" /dev/urandom > "$MIXED/r$i.bin"
    "$PB" text "$MIXED_FILE" "$i" > "$MIXED/t$i.txt"
done
packrow() {  # name tree
    local name=$1 tree=$2 t1 tn ts l9 s1 sn ss s9
    t1=$(timed "$PAK" pack -q -j 1 --key "$KEY" "$tree" "$OUT/pack1.pak")
    tn=$(for i in 1 2; do rm -f "$OUT/packn.pak"; timed "$PAK" pack -q -j "$JOBS" --key "$KEY" "$tree" "$OUT/packn.pak"; done | sort -n | head -1)
    l9=$(timed "$PAK" pack -q -j "$JOBS" --level 9 --key "$KEY" "$tree" "$OUT/pack9.pak")
    s1=$(stat -c %s "$OUT/pack1.pak"); sn=$(stat -c %s "$OUT/packn.pak"); s9=$(stat -c %s "$OUT/pack9.pak")
    cmp -s "$OUT/pack1.pak" "$OUT/packn.pak" || echo "run.sh: -j 1 and -j $JOBS differ" >&2
    rm -f "$OUT/pack1.pak" "$OUT/packn.pak" "$OUT/pack9.pak"
    row "pak pack $name, -j 1 (default level 6)" "$(calc "$t1" 2) s" "$(calc "$s1 / 1e6" 1) MB" ""
    R=$(calc "$t1 / $tn")
    row "pak pack $name, -j $JOBS (best of 2)" "$(calc "$tn" 2) s" "${R}x -j 1" ">= 1.7x: $(verdict "$R >= 1.7")"
    row "pak pack $name, -j $JOBS --level 9" "$(calc "$l9" 2) s" "$(calc "$l9 / $tn")x level 6's time, $(calc "$s9 / 1e6" 1) MB ($(calc "$s9 / $sn" 3)x level 6's size)" ""
    if command -v mksquashfs > /dev/null; then
        rm -f "$OUT/t.sqfs"
        ts=$(timed mksquashfs "$tree" "$OUT/t.sqfs" -comp gzip -processors "$JOBS" -noappend -quiet -no-progress)
        ss=$(stat -c %s "$OUT/t.sqfs")
        [ "$tree" = "$TREE" ] && mv "$OUT/t.sqfs" "$OUT/many.sqfs"
        rm -f "$OUT/t.sqfs"
        R=$(calc "$tn / $ts")
        row "mksquashfs $name -comp gzip -processors $JOBS" "$(calc "$ts" 2) s" "pak pack -j $JOBS: ${R}x its time, $(calc "$sn / $ss" 3)x its size ($(calc "$ss / 1e6" 1) MB)" "<= 0.5x time: $(verdict "$R <= 0.5"); <= 1.03x size: $(verdict "$sn / $ss <= 1.03")"
    else
        row "mksquashfs $name" "skipped" "" "squashfs-tools not installed"
    fi
}
rm -f "$OUT/many.sqfs"
packrow "of many.pak's tree ($M_entries files, $MB MB)" "$TREE"
packrow "of a mixed tree (16 random + 16 text files, $(calc "32 * $MIXED_FILE / 1e6" 1) MB)" "$MIXED"
rm -rf "$TREE" "$MIXED"
if [ -f "$OUT/many.sqfs" ] && command -v unsquashfs > /dev/null; then
    T_UNSQ=$(for i in 1 2 3; do rm -rf "$EX"; timed unsquashfs -p 1 -q -n -d "$EX" "$OUT/many.sqfs"; done | sort -n | head -1)
    rm -rf "$EX"
    R=$(calc "$T_UNSQ / $T_M_1")
    row "unsquashfs -p 1 of the same tree (gzip image, best of 3)" "$(mbps "$M_out_bytes" "$T_UNSQ") MB/s" "pak extract -j 1 (best $(calc "$T_M_1" 2) s): ${R}x its speed" ""
fi

log "pak ls"
T_LS=$(for i in 1 2 3; do timed "$PAK" ls --key "$KEY" "$MANY"; done | sort -n | head -1)
row "pak ls many.pak (best of 3)" "$(calc "$T_LS * 1000" 1) ms" "" ""

log "gbx entries: chunk readers against the node scan"
load G "$PB" gbxscan "$OUT" --files 2000
R=$(calc "$G_gbxscan_scan_s / $G_gbxscan_parse_s")
row "gbx entries through the node scan instead of the chunk readers ($G_gbxscan_entries zlib entries, $(calc "$G_gbxscan_bytes / 1e6" 1) MB; best of 3)" "$(mbps "$G_gbxscan_bytes" "$G_gbxscan_scan_s") MB/s (readers: $(mbps "$G_gbxscan_bytes" "$G_gbxscan_parse_s") MB/s)" "${R}x the readers' time" "<= 3x: $(verdict "$R <= 3")"
load E "$PB" gbxscan "$OUT" --files 2000 --engine
R=$(calc "$E_gbxengine_parse_s / $E_gbxengine_scan_s")
row "engine-class gbx entries (solids, fonts, control styles, shader sprites) through the chunk readers instead of the node scan ($E_gbxengine_entries zlib entries the scan can decode, $(calc "$E_gbxengine_bytes / 1e6" 1) MB; $E_gbxengine_scan_fails more it cannot; best of 3)" "$(mbps "$E_gbxengine_bytes" "$E_gbxengine_parse_s") MB/s (scan: $(mbps "$E_gbxengine_bytes" "$E_gbxengine_scan_s") MB/s)" "${R}x the scan's time" "<= 1.0x: $(verdict "$R <= 1.0")"

row "big.pak: one entry, $BB MB out" "" "" ""
row "**limit** (Crypto++ + zlib inflate), 1 core" "$B_LIM_CPP MB/s out" "1.00" ""
row "limit with vector decryption, 1 core" "$B_LIM_SIMD MB/s out" "$(calc "$B_LIM_SIMD / $B_LIM_CPP")" ""
row "**our limit** (vector decryption + libdeflate), 1 core" "$B_LIM_OURS MB/s out" "$(calc "$B_LIM_OURS / $B_LIM_CPP")" ""
R=$(calc "$X_B_CPP1 / $B_LIM_CPP")
row "pak extract, Crypto++ decryption" "$X_B_CPP1 MB/s" "$R of limit" ""
R=$(calc "$X_B_1 / $B_LIM_CPP")
row "pak extract, vector decryption (best / median of 5)" "$X_B_1 / $X_B_1_MED MB/s" "$R (median $(calc "$X_B_1_MED / $B_LIM_CPP")) of limit, $(calc "$X_B_1 / $B_LIM_OURS") of our limit" ">= 1.5 of limit: $(verdict "$R >= 1.5"); >= 0.8 of ours: $(verdict "$X_B_1 / $B_LIM_OURS >= 0.8")"

log "vector Blowfish against Crypto++ (64 MiB, 256 KiB calls)"
load C "$PB" cipher --mib 64
for impl in avx2 avx512; do
    v=C_cipher_${impl}_mbps
    [ -n "${!v:-}" ] || continue
    R=$(calc "${!v} / $C_cipher_portable_mbps")
    row "Blowfish-CBC decryption, $impl vs Crypto++ ($C_cipher_portable_mbps MB/s)" "${!v} MB/s" "${R}x" ">= 2.5x: $(verdict "$R >= 2.5")"
done

log "random 4 KiB reads in the big entry, in process (fs::Filesystem, no kernel)"
load S "$PB" fsread "$BIG" --count "$READS"
load N "$PB" fsread "$BIG" --count $((READS / 10 > 5 ? READS / 10 : 5)) --no-seek
row "random 4 KiB read, seek points (in process, $S_fsread_seek_count reads)" "median $S_fsread_seek_median_ms ms, p99 $S_fsread_seek_p99_ms ms" "first $S_fsread_seek_first_ms ms" "median <= 20 ms: $(verdict "$S_fsread_seek_median_ms <= 20")"
row "random 4 KiB read, no seek points (in process, $N_fsread_noseek_count reads)" "median $N_fsread_noseek_median_ms ms, p99 $N_fsread_noseek_p99_ms ms" "" ""

if [ "$HAVE_FUSE" = 1 ]; then
    mkdir -p "$MNT"
    fusermount3 -u "$MNT" 2> /dev/null || true
    log "FUSE: mount time and RSS"
    TIMES=()
    for i in 1 2 3; do
        mountpak "$MANY" many
        TIMES+=("$MOUNT_mount_s")
        RSS_MOUNT=$(hwm)
        unmount
    done
    T_MOUNT=$(printf '%s\n' "${TIMES[@]}" | sort -n | sed -n 2p)
    row "mount many.pak ($M_entries entries), median of 3" "$(calc "$T_MOUNT * 1000" 0) ms" "" "<= 300 ms: $(verdict "$T_MOUNT <= 0.3")"
    row "pakfs peak RSS after mounting many.pak" "$RSS_MOUNT MiB" "" "<= 64 MiB: $(verdict "$RSS_MOUNT <= 64")"

    log "FUSE: cat of every file (3 fresh mounts)"
    CATS=()
    RSS_CAT=0
    for i in 1 2 3; do
        mountpak "$MANY" many
        CATS+=("$(timed sh -c "find '$MNT/many' -type f -print0 | xargs -0 cat")")
        RSS_CAT=$(awk "BEGIN { print ($(hwm) > $RSS_CAT) ? $(hwm) : $RSS_CAT }")
        unmount
    done
    read -r T_CAT T_CAT_MED <<< "$(printf '%s\n' "${CATS[@]}" | sort -n | awk '{ t[NR] = $1 } END { print t[1], t[2] }')"
    X_CAT=$(mbps "$M_out_bytes" "$T_CAT")
    X_CAT_MED=$(mbps "$M_out_bytes" "$T_CAT_MED")
    R=$(calc "$X_CAT / $X_M_1")
    row "cat every file of many.pak through the mount (best / median of 3)" "$X_CAT / $X_CAT_MED MB/s" "$R (median $(calc "$X_CAT_MED / $X_M_1_MED")) of pak extract -j 1, $(calc "$X_CAT / $X_CATX") of cat from tmpfs" ">= 0.8: $(verdict "$R >= 0.8")"
    row "pakfs peak RSS after reading every file (cache_size 64 MiB)" "$RSS_CAT MiB" "" "<= 128 MiB: $(verdict "$RSS_CAT <= 128")"
    if [ -f "$OUT/many.sqfs" ] && command -v squashfuse_ll > /dev/null; then
        SQ=$OUT/sqmnt
        mkdir -p "$SQ"
        SQCATS=()
        for i in 1 2 3; do
            squashfuse_ll "$OUT/many.sqfs" "$SQ"
            SQCATS+=("$(timed sh -c "find '$SQ' -type f -print0 | xargs -0 cat")")
            fusermount3 -u "$SQ"
        done
        T_SQCAT=$(printf '%s\n' "${SQCATS[@]}" | sort -n | head -1)
        row "cat every file of the same tree through squashfuse_ll (gzip image, best of 3 fresh mounts)" "$(mbps "$M_out_bytes" "$T_SQCAT") MB/s" "pakfs: $(calc "$T_SQCAT / $T_CAT")x its speed" ""
    fi
    mountpak "$MANY" many -o read_ahead=0
    T_CAT0=$(timed sh -c "find '$MNT/many' -type f -print0 | xargs -0 cat")
    unmount
    X_CAT0=$(mbps "$M_out_bytes" "$T_CAT0")
    row "the same without read-ahead (-o read_ahead=0)" "$X_CAT0 MB/s" "$(calc "$X_CAT0 / $X_M_1") of pak extract -j 1" ""
    mountpak "$BIG" big
    T_CATB=$(timed sh -c "cat '$MNT'/big/Media/*")
    unmount
    X_CATB=$(mbps "$B_out_bytes" "$T_CATB")
    R=$(calc "$X_CATB / $X_B_1")
    row "cat the big entry through the mount" "$X_CATB MB/s" "$R of pak extract" ">= 0.8: $(verdict "$R >= 0.8")"

    log "FUSE: a writable mount (-o overlay): reading unchanged files, writing"
    writablereads
    # 256 MiB written with dd and synced, into the mount and straight into the overlay's folder.
    freshoverlay
    mountpak "$MANY" many -o "overlay=$OV"
    T_WM=$(timed dd if=/dev/zero of="$MNT/many/bench-write.bin" bs=1M count=256 conv=fsync status=none)
    unmount
    rm -f "$OV/direct.bin"
    T_WD=$(timed dd if=/dev/zero of="$OV/direct.bin" bs=1M count=256 conv=fsync status=none)
    rm -f "$OV/direct.bin"
    R=$(calc "$T_WD / $T_WM")
    row "write 256 MiB into the writable mount (dd bs=1M, fsync)" "$(calc "268.435456 / $T_WM" 1) MB/s" "$R of writing into the overlay's folder directly ($(calc "268.435456 / $T_WD" 1) MB/s)" ">= 0.5: $(verdict "$R >= 0.5")"

    log "pak commit: one 1 MiB file of many.pak changed"
    freshoverlay
    FIRST=$("$PAK" ls --key "$KEY" "$MANY" | awk 'NR == 1')
    mkdir -p "$OV/many/$(dirname "$FIRST")"
    head -c 1048576 /dev/urandom > "$OV/many/$FIRST"
    T_CP=$(for i in 1 2 3; do rm -f "$OUT/copy.pak"; timed cp "$MANY" "$OUT/copy.pak"; done | sort -n | head -1)
    rm -f "$OUT/copy.pak"
    # The same copy made durable, as a commit makes its output (fsync before the rename).
    T_CPS=$(for i in 1 2 3; do rm -f "$OUT/copy.pak"; timed sh -c 'cp "$1" "$2" && sync "$2"' sh "$MANY" "$OUT/copy.pak"; done | sort -n | head -1)
    rm -f "$OUT/copy.pak"
    T_COMMIT=$(for i in 1 2 3; do rm -f "$OUT/commit.pak"; timed "$PAK" commit -q --key "$KEY" "$MANY" "$OV" "$OUT/commit.pak"; done | sort -n | head -1)
    rm -f "$OUT/commit.pak"
    RSS_COMMIT=$( { /usr/bin/time -f %M "$PAK" commit -q --key "$KEY" "$MANY" "$OV" "$OUT/commit.pak" > /dev/null; } 2>&1 | tail -1)
    rm -f "$OUT/commit.pak"
    RSS_COMMIT=$(calc "$RSS_COMMIT / 1024" 1)
    R=$(calc "$T_COMMIT / $T_CP")
    row "pak commit of many.pak with one 1 MiB file changed (best of 3)" "$(calc "$T_COMMIT" 2) s" "${R}x the time of cp of the pak ($(calc "$T_CP" 2) s); $(calc "$T_COMMIT / $T_CPS")x cp then sync of it ($(calc "$T_CPS" 2) s)" "<= 1.5x cp: $(verdict "$R <= 1.5"); <= 1.5x cp then sync: $(verdict "$T_COMMIT / $T_CPS <= 1.5")"
    row "pak commit peak RSS" "$RSS_COMMIT MiB" "" "<= 64 MiB beyond the 1 MiB file: $(verdict "$RSS_COMMIT <= 65")"
    rm -rf "$OV"

    log "FUSE: random 4 KiB reads"
    mountpak "$BIG" big
    load F "$PB" randread "$MNT/big/Media/big.xml" --count "$READS"
    unmount
    row "random 4 KiB read through the mount ($F_randread_count reads, seek points: the mount's default; no switch)" "median $F_randread_median_ms ms, p99 $F_randread_p99_ms ms" "first $F_randread_first_ms ms" "median <= 20 ms: $(verdict "$F_randread_median_ms <= 20")"
    # Side by side with squashfuse_ll on the same file (bench/randread.sh runs these alone).
    if command -v squashfuse_ll > /dev/null && command -v mksquashfs > /dev/null; then
        . "$ROOT/bench/randread.sh"
        RR_ROUNDS=3
        randread_rows
    fi
else
    row "FUSE measurements" "skipped" "" "no pakfs binary, /dev/fuse or fusermount3"
    echo "run.sh: FUSE unavailable, mount measurements skipped" >&2
fi
fi  # the whole run

LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
CPU=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
TABLE=$(
    echo "| measurement | value | ratio | target |"
    echo "|---|---|---|---|"
    printf '%s\n' "${ROWS[@]}"
)
HEAD=$(
    echo "- CPU: $CPU, $(nproc) cores; vector decryptor: $M_simd_impl"
    echo "- $(date -u '+%Y-%m-%d %H:%M UTC'), revision $(git -C "$ROOT" rev-parse --short HEAD 2> /dev/null || echo '?')"
    echo "- bench/run.sh --scale $SCALE --entries $ENTRIES${ONLY:+ --only $ONLY} (many.pak $(du -m "$MANY" | cut -f1) MiB, big.pak $(du -m "$BIG" | cut -f1) MiB on disk)"
    echo "- load average before: $LOAD_BEFORE; after: $LOAD_AFTER"
)
echo
echo "$HEAD"
echo
echo "$TABLE"
if [ "$WRITE_MD" = 1 ] && [ -n "$ONLY" ]; then
    # A run of some rows only: added to the file's section of such runs (a whole run
    # writes the file anew).
    {
        grep -qx "$ONLY_HEADING" "$ROOT/BENCHMARKS.md" || printf '\n%s\n' "$ONLY_HEADING"
        echo
        echo "$HEAD"
        echo
        echo "$TABLE"
    } >> "$ROOT/BENCHMARKS.md"
    log "added to $ROOT/BENCHMARKS.md"
elif [ "$WRITE_MD" = 1 ]; then
    # The sections after the table (dated notes on single measurements) are kept.
    KEPT=$(awk '/^## / { on = 1 } on' "$ROOT/BENCHMARKS.md" 2> /dev/null || true)
    {
        cat << 'EOF'
# Benchmarks

Made by `bench/run.sh`: a whole run writes this part anew (the method, then the table of the
run) and keeps the sections after it, which hold the earlier runs and the measurement notes,
each with its date and revision.

### Method

- Data: `pakbench make-packs` writes many.pak, 100000 files of mixed sizes and kinds (1.3 GB at
  `--scale 1`; `--entries`), and big.pak, one compressible entry (512 MiB at `--scale 1`);
  `--scale` multiplies every size. `bench/randread.sh` (run by `run.sh` too, or alone at
  `--scale 0.5`) reads one large text entry at random.
- Units: a MB is 10^6 bytes; throughput counts output (decoded) bytes. Packs are read from the
  page cache and files extracted into tmpfs; trees to pack are read from tmpfs and paks written
  into bench/out, on disk.
- The **limit** is one core decrypting (Crypto++) and inflating (zlib) the same bytes from
  memory, measured in the same run; **our limit** is the vector decryptor and libdeflate. The
  physical floor: reading the pak once, decrypting alone, writing the output into tmpfs once,
  `cat` of the extracted files.
- Mounts are fresh; two mounts compared run in interleaved rounds, and the row gives medians.
  `pak commit` includes the fsync before its rename, and is compared with `cp` of the pak, and
  with `cp` then `sync`.
- Peers, on the same data in the same run: `mksquashfs -comp gzip`, `unsquashfs -p 1` and
  `squashfuse_ll` on a gzip image (installed by the script when it runs as root). FUSE rows are
  skipped without FUSE.
- Code paths: plain zlib entries read from their start inflate in one libdeflate call up to 64
  MiB, larger ones stream through ISA-L (Adler-32 checked), as do the mount's reads of entries
  whose seek points are known; the mount's seeks resume through ISA-L at a seek point; readers
  that record seek points use zlib; gbx entries use zlib in the game's 0x100/0x400 steps;
  whatever libdeflate or ISA-L rejects is decoded again by zlib. `pak pack` deflates plain files
  with libdeflate, gbx files with zlib. Blowfish-CBC decrypts 16 or 32 blocks at once with AVX2
  or AVX-512 (`PAKFS_BLOWFISH` chooses). The mount stores the files it decodes ahead in the
  kernel's page cache (`fuse_lowlevel_notify_store`).
- The target column is the goal set for the row, met or NOT met in that run.
- Noise: the machine's 2 cores are shared; figures move by 20-30% between runs, and its two CPUs
  do not always run at the same speed. The notes compare ratios within one run, or builds run
  alternately.

### The last whole run

EOF
        echo "$HEAD"
        echo
        echo "$TABLE"
        [ -z "$KEPT" ] || printf '\n%s\n' "$KEPT"
    } > "$ROOT/BENCHMARKS.md"
    log "written to $ROOT/BENCHMARKS.md"
fi
