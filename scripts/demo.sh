#!/usr/bin/env bash
# The main job on bundled sample data: build everything, pack the sample tree into a pak
# (key from a packlist.dat), list it, extract it again, look at its gbx files (one read by the
# chunk readers, one through the node scan, both with node reads that change the cipher, the
# first referring to the second), then mount it with pakfs, show the tree and the gbx
# attributes, copy files out with cp, and unmount. Last, the round trip of a change: mount it
# writable with an overlay folder, copy a file in, edit one, delete one, unmount, and commit
# the overlay into the pak with pak commit (--dry-run first), then check and mount the result.
# $BUILD_DIR: the build folder (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
# The programs only: the test suite is not needed to run them.
BUILD_TARGETS="pak pakfs" scripts/build.sh
build=${BUILD_DIR:-build}
pak=$build/tools/pak
pakfs=$build/tools/pakfs
demo=$build/demo
rm -rf "$demo" && mkdir -p "$demo"
echo "== a packlist.dat with the key of pack 'Sample'"
$pak packlist add "$demo/packlist.dat" Sample --key-string 00112233445566778899AABBCCDDEEFF
echo "== pak pack sample/tree $demo/Sample.pak"
$pak pack sample/tree "$demo/Sample.pak"
echo "== pak info"
$pak info "$demo/Sample.pak"
echo "== pak ls -l (kind: how each gbx file's bytes are proven)"
$pak ls -l "$demo/Sample.pak"
echo "== pak check"
$pak check "$demo/Sample.pak"
echo "== pak gbx info Sample.pak:Tracks/Demo.Challenge.Gbx"
$pak gbx info "$demo/Sample.pak:Tracks/Demo.Challenge.Gbx"
echo "== pak gbx refs Sample.pak:Tracks/Demo.Challenge.Gbx"
$pak gbx refs "$demo/Sample.pak:Tracks/Demo.Challenge.Gbx"
echo "== pak extract into $demo/out"
$pak extract "$demo/Sample.pak" "$demo/out"
diff -r sample/tree "$demo/out" && echo "extracted tree is identical to sample/tree"

echo "== pakfs: mount the pak as a folder"
if [ ! -e /dev/fuse ] || ! command -v fusermount3 >/dev/null; then
  echo "FUSE is not available here (/dev/fuse or fusermount3 missing): mount step skipped"
  exit 0
fi
mnt="$demo/mnt"
mkdir -p "$mnt"
$pakfs "$demo/Sample.pak" "$mnt"   # key from packlist.dat beside the pak
trap 'fusermount3 -u "$mnt" 2>/dev/null || true' EXIT
ls -R "$mnt"
cp "$mnt/Sample/Media/Texts/readme.txt" "$demo/readme-from-mount.txt"
cmp "$demo/readme-from-mount.txt" sample/tree/Media/Texts/readme.txt && echo "cp from the mount: identical"
getfattr -d "$mnt/Sample/Config/default.xml" 2>/dev/null || true
echo "== the gbx files in the mount"
getfattr -d -m "^user.gbx" "$mnt/Sample/Tracks/Demo.Challenge.Gbx" 2>/dev/null || true
for f in Demo.Challenge.Gbx Demo.Solid.Gbx; do
  cp "$mnt/Sample/Tracks/$f" "$demo/$f"
  cmp "$demo/$f" "sample/tree/Tracks/$f" && echo "cp $f from the mount: byte-exact"
done
fusermount3 -u "$mnt"
trap - EXIT
echo "unmounted"

echo "== pakfs -o overlay: change the pack through the mount (the pak stays as it is)"
overlay="$demo/overlay"
mkdir -p "$overlay"
$pakfs "$demo/Sample.pak" "$mnt" -o overlay="$overlay"
trap 'fusermount3 -u "$mnt" 2>/dev/null || true' EXIT
cp NOTICE "$mnt/Sample/Media/Texts/notice.txt"                     # a file copied in
sed -i 's/"option0" value="[0-9]*"/"option0" value="1"/' "$mnt/Sample/Config/default.xml"  # edited
rm "$mnt/Sample/Media/noise.bin"                                    # deleted
ls "$mnt/Sample/Media" "$mnt/Sample/Media/Texts"
fusermount3 -u "$mnt"
trap - EXIT
echo "== what the overlay folder holds"
(cd "$overlay" && find . -path ./.pakfs-work -prune -o -type f -print | sort)
echo "== pak commit --dry-run"
$pak commit --dry-run "$demo/Sample.pak" "$overlay"
echo "== pak commit --in-place"
$pak commit -q "$demo/Sample.pak" "$overlay" --in-place
rm -r "$overlay"   # its changes are in the pak now
echo "== pak check of the committed pak"
$pak check "$demo/Sample.pak"
$pakfs "$demo/Sample.pak" "$mnt"
trap 'fusermount3 -u "$mnt" 2>/dev/null || true' EXIT
cmp "$mnt/Sample/Media/Texts/notice.txt" NOTICE && echo "notice.txt in the pak: identical to NOTICE"
grep -o '"option0" value="[0-9]*"' "$mnt/Sample/Config/default.xml"
[ ! -e "$mnt/Sample/Media/noise.bin" ] && echo "noise.bin: gone"
cmp "$mnt/Sample/Tracks/Demo.Challenge.Gbx" sample/tree/Tracks/Demo.Challenge.Gbx &&
  echo "Demo.Challenge.Gbx, untouched: byte-exact"
fusermount3 -u "$mnt"
trap - EXIT
echo "unmounted"
