#!/bin/bash
# Installs what heapprof needs from Debian bookworm's own packages, once:
# a package already installed is not touched.  Run as root (or with sudo).
set -euo pipefail
PKGS="clang-19 llvm-19 llvm-19-dev llvm-19-tools libclang-rt-19-dev lld-19 cmake ninja-build python3 make protobuf-c-compiler libprotobuf-c-dev zlib1g-dev golang-go chromium libunwind-dev lua5.4 sqlite3 libjemalloc2 libtcmalloc-minimal4 libmimalloc2.0 libomp-19-dev"
missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
if [ -z "$missing" ]; then
  exit 0
fi
echo "heapprof setup: installing$missing"
SUDO=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    echo "heapprof setup: error: need root (or sudo) to apt-get install$missing" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
