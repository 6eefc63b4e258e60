#!/usr/bin/env bash
# The main job on bundled sample data: build everything, pack the sample tree into a pak
# (key from a packlist.dat), list it, extract it again, look at its gbx files (one read by the
# chunk readers, one through the node scan, both with node reads that change the cipher, the
# first referring to the second), then mount it with pakfs, show the tree and the gbx
# attributes, copy files out with cp, and unmount.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
pak=build/tools/pak
demo=build/demo
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
build/tools/pakfs "$demo/Sample.pak" "$mnt"   # key from packlist.dat beside the pak
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
