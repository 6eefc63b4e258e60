#!/usr/bin/env bash
# cpack -G DEB from the build folder: the package's control fields and file list, read with
# dpkg-deb. Usage: check_deb.sh BUILD_DIR VERSION
set -euo pipefail
build=$1 version=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() {
  echo "FAILED: $*"
  exit 1
}
arch=$(dpkg --print-architecture)
(cd "$build" && cpack -G DEB -B "$out" > "$out/cpack.log" 2>&1) || {
  cat "$out/cpack.log"
  fail "cpack -G DEB"
}
deb=$out/pakfs_${version}_${arch}.deb
[ -f "$deb" ] || fail "no $deb: $(ls "$out")"
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = pakfs ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version)"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture: $(field Architecture)"
depends=$(field Depends)
for dep in fuse3 libfuse3-3 'libcrypto++8' zlib1g liblzo2-2 liblz4-1 libdeflate0 libisal2 libc6 'libstdc++6'; do
  grep -q "\(^\|, \)$dep\( \|,\|$\)" <<< "$depends" || fail "Depends lacks $dep: $depends"
done
files=$(dpkg-deb -c "$deb" | awk '{ print $6 }')
for f in ./usr/bin/pak ./usr/bin/pakfs ./usr/share/man/man1/pak.1 ./usr/share/man/man1/pakfs.1 \
  ./usr/share/bash-completion/completions/pak ./usr/share/bash-completion/completions/pakfs \
  ./usr/share/doc/pakfs/README.md ./usr/share/doc/pakfs/FORMAT.md ./usr/share/doc/pakfs/LICENSE \
  ./usr/share/doc/pakfs/NOTICE ./usr/share/thumbnailers/pakfs.thumbnailer \
  ./usr/share/mime/packages/pakfs.xml; do
  grep -qx -- "$f" <<< "$files" || fail "the package lacks $f"
done
# Nothing of the build: no tests, benchmarks or libraries.
extra=$(grep -v '/$' <<< "$files" | grep -vx -e ./usr/bin/pak -e ./usr/bin/pakfs \
  -e './usr/share/man/man1/pak.1' -e './usr/share/man/man1/pakfs.1' \
  -e ./usr/share/bash-completion/completions/pak \
  -e ./usr/share/bash-completion/completions/pakfs -e ./usr/share/doc/pakfs/README.md \
  -e ./usr/share/doc/pakfs/FORMAT.md -e ./usr/share/doc/pakfs/LICENSE -e ./usr/share/doc/pakfs/NOTICE \
  -e ./usr/share/thumbnailers/pakfs.thumbnailer -e ./usr/share/mime/packages/pakfs.xml || true)
[ -z "$extra" ] || fail "unexpected files in the package: $extra"
echo "deb: every check passed ($(basename "$deb"); Depends: $depends)"
