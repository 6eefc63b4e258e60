#!/usr/bin/env bash
# The installed C++ library: `cmake --install --component library` into a temporary prefix,
# the prefix moved elsewhere (the files must find each other relative to where they are), the
# examples built against it with find_package(pakfs) and with pkg-config (and pakfs-config),
# then run on a pak packed from sample/tree: list_pak prints what `pak ls -l` prints and writes
# each file as `pak cat` does; map_thumbnail writes what `pak gbx thumbnail` writes; the Python
# module imports from `pakfs-config --python-path`.
# The thumbnail part needs a map of the shared fixtures (skipped, with a note, without them).
# Usage: check_library.sh BUILD_DIR SOURCE_DIR VERSION SHARED_DIR
set -euo pipefail
build=$1 src=$2 version=$3 shared=${PAKFS_SHARED_DIR:-$4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
  echo "FAILED: $*"
  exit 1
}
pak=$build/tools/pak

cmake --install "$build" --prefix "$tmp/first" --component library > "$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; fail "cmake --install --component library"; }
mv "$tmp/first" "$tmp/prefix"
prefix=$tmp/prefix
config=$prefix/bin/pakfs-config
[ -x "$config" ] || fail "no bin/pakfs-config"
[ "$("$config" --prefix)" = "$prefix" ] || fail "pakfs-config --prefix: $("$config" --prefix)"
[ "$("$config" --version)" = "$version" ] || fail "pakfs-config --version: $("$config" --version)"
libdir=$("$config" --libdir)
[ -f "$prefix/include/pakfs/pakfs.hpp" ] || fail "no include/pakfs/pakfs.hpp"
[ -f "$libdir/cmake/pakfs/pakfsConfig.cmake" ] || fail "no pakfsConfig.cmake under $libdir"
[ ! -e "$prefix/bin/pak" ] || fail "the library component installed the pak program"

# One shared library, its SONAME versioned, exporting the public names only.
so=$(readlink -f "$libdir/libpakfs.so")
soname=$(objdump -p "$so" | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = "libpakfs.so.${version%.*}" ] || fail "SONAME $soname, not libpakfs.so.${version%.*}"
[ -e "$libdir/$soname" ] || fail "no $soname link"
exported=$(nm -DC --defined-only "$so" | awk '{ $1 = ""; $2 = ""; print }')
grep -q 'pakfs::PakFile::read' <<< "$exported" || fail "pakfs::PakFile::read is not exported"
internal=$(grep -e 'pakfs::archive' -e 'pakfs::gbx::' -e 'pakfs::api' <<< "$exported" | head -3 || true)
[ -z "$internal" ] || fail "internal names exported: $internal"

# The examples: CMake's find_package...
cmake -S "$src/examples" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=None \
  > "$tmp/cmake.log" 2>&1 && cmake --build "$tmp/cmake" >> "$tmp/cmake.log" 2>&1 ||
  { cat "$tmp/cmake.log"; fail "the examples with find_package(pakfs)"; }
# ...pkg-config (through the .pc file alone), and pakfs-config.
export PKG_CONFIG_PATH=$libdir/pkgconfig
flags=$(pkg-config --cflags --libs pakfs) || fail "pkg-config pakfs"
mkdir "$tmp/pc"
c++ -std=c++17 -O0 "$src/examples/list_pak.cpp" $flags -o "$tmp/pc/list_pak" ||
  fail "list_pak with pkg-config ($flags)"
c++ -std=c++17 -O0 "$src/examples/map_thumbnail.cpp" $("$config" --cflags --libs) \
  -o "$tmp/pc/map_thumbnail" || fail "map_thumbnail with pakfs-config"

# A pak to read, its key in the packlist.dat beside it.
mkdir "$tmp/pack"
cp -r "$src/sample/tree" "$tmp/tree"
map=Tracks/Tmf.Challenge.Gbx
fixture="$shared/fixtures/gbx/GBX-NET 2 CGameCtnChallenge TMF 001.Challenge.Gbx"
if [ -f "$fixture" ]; then
  cp "$fixture" "$tmp/tree/$map"
else
  echo "note: $fixture is absent (the shared fixtures are not beside the checkout): no thumbnail read"
  map=
fi
"$pak" packlist add "$tmp/pack/packlist.dat" Sample --key-string 00112233445566778899AABBCCDDEEFF \
  > /dev/null
"$pak" pack -q "$tmp/tree" "$tmp/pack/Sample.pak" 2> "$tmp/pack.log" || { cat "$tmp/pack.log"; fail "pak pack"; }
sample=$tmp/pack/Sample.pak
"$pak" ls -l "$sample" > "$tmp/ls.txt"
for dir in cmake pc; do
  export LD_LIBRARY_PATH=$libdir  # the pkg-config build has no run path
  "$tmp/$dir/list_pak" "$sample" > "$tmp/list.txt" || fail "$dir/list_pak $sample"
  diff -u "$tmp/ls.txt" "$tmp/list.txt" || fail "$dir/list_pak differs from pak ls -l"
  count=0
  while IFS= read -r name; do
    "$pak" cat "$sample" "$name" > "$tmp/want" 2> /dev/null || continue
    "$tmp/$dir/list_pak" "$sample" "$name" > "$tmp/got" || fail "$dir/list_pak $name"
    cmp -s "$tmp/want" "$tmp/got" || fail "$dir/list_pak $name differs from pak cat"
    count=$((count + 1))
  done < <("$pak" ls "$sample")
  [ "$count" -ge 5 ] || fail "only $count files read"
  [ -n "$map" ] || continue
  "$pak" gbx thumbnail "$sample:$map" -o "$tmp/want.jpg" 2> /dev/null
  "$tmp/$dir/map_thumbnail" "$sample" "$map" "$tmp/got.jpg" > "$tmp/thumb.txt" ||
    fail "$dir/map_thumbnail: $(cat "$tmp/thumb.txt")"
  cmp -s "$tmp/want.jpg" "$tmp/got.jpg" || fail "$dir/map_thumbnail differs from pak gbx thumbnail"
  grep -q '^CGameCtnChallenge (03043000): ' "$tmp/thumb.txt" || fail "map_thumbnail: $(cat "$tmp/thumb.txt")"
done
# The Python module, from the moved prefix, as Debian's python3 imports it.
pythonpath=$("$config" --python-path)
if [ -f "$pythonpath/pakfs/__init__.py" ]; then
  PYTHONPATH=$pythonpath /usr/bin/python3 -c 'import pakfs, sys; sys.stdout.buffer.write(pakfs.PakFile(sys.argv[1]).read("Media/noise.bin"))' \
    "$sample" > "$tmp/py.bin" || fail "import pakfs from $pythonpath"
  "$pak" cat "$sample" Media/noise.bin | cmp -s - "$tmp/py.bin" || fail "pakfs.PakFile.read differs from pak cat"
else
  echo "note: no Python module under $pythonpath (built without pybind11)"
fi
echo "library: every check passed ($soname; $count files read as pak cat reads them)"
