#!/usr/bin/env bash
# Installs the Debian packages pakfs needs to build and test, when any is missing.
set -euo pipefail
# xfslibs-dev: the headers fsx and fsstress (tests/fs/overlay/test_stress.cpp) are built with.
# pybind11 and python3-*: the Python module pakfs (python/) and its pytest suite.
# libjpeg-dev (libjpeg-turbo), libpng-dev: pak gbx thumbnail --size (desktop/).
packages=(build-essential cmake pkg-config libcrypto++-dev zlib1g-dev liblzo2-dev libfuse3-dev
  fuse3 attr catch2 libcli11-dev nlohmann-json3-dev ninja-build clang libclang-rt-dev man-db
  bsdutils liblz4-dev libdeflate-dev libisal-dev rsync xfslibs-dev
  pybind11-dev python3-pybind11 python3-dev python3-fsspec python3-pytest libjpeg-dev libpng-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
