#!/usr/bin/env bash
# The main job on bundled sample data: build everything, pack the sample tree into a pak
# (key from a packlist.dat), list it, and extract it again.
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
echo "== pak ls -l"
$pak ls -l "$demo/Sample.pak"
echo "== pak extract into $demo/out"
$pak extract "$demo/Sample.pak" "$demo/out"
diff -r sample/tree "$demo/out" && echo "extracted tree is identical to sample/tree"
