#!/usr/bin/env bash
# cmake --install into a temporary prefix: the installed pak and pakfs run from there with
# nothing from the source or build tree, the man pages render, and the completions complete.
# Usage: check_install.sh BUILD_DIR VERSION
set -euo pipefail
build=$1 version=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() {
  echo "FAILED: $*"
  exit 1
}
cmake --install "$build" --prefix "$prefix" > /dev/null
for f in bin/pak bin/pakfs share/man/man1/pak.1 share/man/man1/pakfs.1 \
  share/bash-completion/completions/pak share/bash-completion/completions/pakfs \
  share/doc/pakfs/README.md share/doc/pakfs/FORMAT.md share/doc/pakfs/LICENSE \
  share/doc/pakfs/NOTICE; do
  [ -e "$prefix/$f" ] || fail "$f is not installed"
done

# Run from / with a bare environment: no path into the checkout can help them.
cd /
v=$(env -i PATH=/usr/bin:/bin "$prefix/bin/pak" --version)
[[ $v == "pak $version ("*"zlib "*"Crypto++ "* ]] || fail "pak --version printed: $v"
v=$(env -i PATH=/usr/bin:/bin "$prefix/bin/pakfs" --version)
[[ $v == "pakfs $version (libfuse "* ]] || fail "pakfs --version printed: $v"
key=00112233445566778899aabbccddeeff
mkdir -p "$prefix/work/src/Media"
echo hello > "$prefix/work/src/Media/a.txt"
env -i PATH=/usr/bin:/bin "$prefix/bin/pak" pack -q --key $key "$prefix/work/src" \
  "$prefix/work/T.pak" 2> /dev/null
[ "$(env -i "$prefix/bin/pak" cat --key $key "$prefix/work/T.pak" Media/a.txt)" = hello ] ||
  fail "the installed pak does not read back what it packed"

if command -v man > /dev/null; then
  for page in pak pakfs; do
    warnings=$(MANWIDTH=80 man --warnings -l "$prefix/share/man/man1/$page.1" 2>&1 > /dev/null)
    [ -z "$warnings" ] || fail "man $page: $warnings"
    MANPATH=$prefix/share/man MANWIDTH=80 man "$page" 2> /dev/null | grep -q "EXIT STATUS" ||
      fail "man $page does not show the page"
  done
  MANPATH=$prefix/share/man MANWIDTH=80 man pak | grep -q "extract" || fail "man pak lacks extract"
  MANPATH=$prefix/share/man MANWIDTH=80 man pakfs | grep -q "fuse.pakfs" ||
    fail "man pakfs lacks the mount type"
else
  echo "note: man is not installed; the pages were not rendered"
fi

completion=$prefix/share/bash-completion/completions/pak
complete_words() { # words... -> the completions of the last one
  PATH=$prefix/bin:$PATH bash -c '
    source "$1"; shift
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
    _pak; printf "%s\n" "${COMPREPLY[@]}"' _ "$completion" "$@"
}
complete_words pak ex | grep -qx extract || fail "completion of 'pak ex'"
complete_words pak commit --pat | grep -qx -- --patch || fail "completion of commit's --patch"
complete_words pak extract --unv | grep -qx -- --unverified ||
  fail "completion of extract's options"
cd "$prefix/work"
complete_words pak cat --key $key T.pak M | grep -q "^Media/" ||
  fail "completion of paths inside the pak: $(complete_words pak cat --key $key T.pak M)"
# pakfs: its options, and a folder after -o overlay= (readline splits the word at '=').
pakfs_completion=$prefix/share/bash-completion/completions/pakfs
complete_pakfs() { # COMP_LINE words... -> the completions of the last word
  bash -c '
    source "$1"; COMP_LINE=$2; shift 2
    COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_POINT=${#COMP_LINE}
    _pakfs; printf "%s\n" "${COMPREPLY[@]}"' _ "$pakfs_completion" "$@"
}
complete_pakfs "pakfs --ov" pakfs --ov | grep -qx -- --overlay || fail "completion of pakfs --ov"
complete_pakfs "pakfs -o drives,ov" pakfs -o drives,ov | grep -qx -- drives,overlay= ||
  fail "completion of pakfs -o drives,ov"
mkdir -p "$prefix/work/changes"
complete_pakfs "pakfs -o overlay=cha" pakfs -o overlay = cha | grep -qx changes ||
  fail "completion of pakfs -o overlay=cha: $(complete_pakfs "pakfs -o overlay=cha" pakfs -o \
    overlay = cha)"
echo "install: every check passed"
