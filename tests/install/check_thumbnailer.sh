#!/usr/bin/env bash
# The desktop files as a file manager uses them: desktop/pakfs.thumbnailer's Exec line run with
# %s, %o and %i filled in (pak found on PATH) turns maps and an item of the shared fixtures into
# PNGs whose longer side is the size asked for (or the picture's own, when smaller); the
# shared-mime-info package is well-formed and names each kind the thumbnailer serves.
# Usage: check_thumbnailer.sh BUILD_DIR SOURCE_DIR SHARED_DIR (exit 77: fixtures absent)
set -euo pipefail
build=$1 src=$2 shared=${PAKFS_SHARED_DIR:-$3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAILED: $*"
  exit 1
}
thumbnailer=$src/desktop/pakfs.thumbnailer
mime=$src/desktop/pakfs-mime.xml

# The MIME package: well-formed, and every type the thumbnailer names is defined there.
python3 - "$mime" "$thumbnailer" << 'PY' || fail "the MIME package or the thumbnailer"
import configparser, sys, xml.etree.ElementTree as ET
ns = "{http://www.freedesktop.org/standards/shared-mime-info}"
types = {t.get("type"): t for t in ET.parse(sys.argv[1]).getroot().iter(ns + "mime-type")}
entry = configparser.ConfigParser(interpolation=None)
entry.read(sys.argv[2])
served = [t for t in entry["Thumbnailer Entry"]["MimeType"].split(";") if t]
missing = [t for t in served if t not in types]
assert not missing, f"not in the MIME package: {missing}"
globs = {g.get("pattern") for t in types.values() for g in t.iter(ns + "glob")}
for g in ("*.map.gbx", "*.challenge.gbx", "*.replay.gbx", "*.item.gbx", "*.pak", "*.pack.gbx"):
    assert g in globs, f"no glob {g}"
PY

exec_line=$(sed -n 's/^Exec=//p' "$thumbnailer")
[ -n "$exec_line" ] || fail "no Exec line in $thumbnailer"
maps=$shared/fixtures/gbx
if [ ! -d "$maps" ]; then
  echo "SKIPPED: $maps is absent (the shared fixtures are not beside the checkout)"
  exit 77
fi
export PATH=$build/tools:$PATH
# The PNG's width and height, from its IHDR chunk.
png_size() {
  [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$1 is not a PNG"
  local w h
  w=$(od -An -tu1 -j16 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
  h=$(od -An -tu1 -j20 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
  echo "${w}x$h"
}
run_exec() {  # SIZE OUT IN: the Exec line as a file manager runs it (one word per argument)
  local words=() w
  read -r -a words <<< "$exec_line"
  local args=()
  for w in "${words[@]}"; do
    case $w in
      %s) args+=("$1") ;;
      %o) args+=("$2") ;;
      %i) args+=("$3") ;;
      *) args+=("$w") ;;
    esac
  done
  "${args[@]}" 2> "$tmp/err" || fail "${args[*]}: $(cat "$tmp/err")"
}
check() {  # FILE SIZE WANT
  cp "$maps/$1" "$tmp/in.Gbx"
  run_exec "$2" "$tmp/out.png" "$tmp/in.Gbx"
  [ "$(png_size "$tmp/out.png")" = "$3" ] || fail "$1 at --size $2: $(png_size "$tmp/out.png"), not $3"
}
check "GBX-NET 2 CGameCtnChallenge TMF 001.Challenge.Gbx" 128 128x128
check "GBX-NET 2 CGameCtnChallenge TMF 001.Challenge.Gbx" 100 100x100
check "GBX-NET 2 CGameCtnChallenge TMF 001.Challenge.Gbx" 512 256x256
check "GBX-NET 2 CGameCtnChallenge MP4 001.Map.Gbx" 256 256x256
check "GBX-NET 2 CGameItemModel TM2020 001.Item.Gbx" 32 32x32  # a lossless WebP icon, 64x64
echo "thumbnailer: every check passed ($exec_line)"
