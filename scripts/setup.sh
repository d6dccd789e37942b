#!/bin/bash
# Installs what heapprof needs from Debian bookworm's own packages, once:
# a package already installed is not touched.  Run as root (or with sudo).
#   scripts/setup.sh          what make build, check, demo and bench need
#   scripts/setup.sh --dhat   that and what bench/dhat (run by hand) needs
#                             besides: make bench-deps
set -euo pipefail
DHAT=0
case "${1:-}" in
  "") ;;
  --dhat) DHAT=1 ;;
  *) echo "heapprof setup: error: unknown option '$1' (--dhat or none)" >&2; exit 2 ;;
esac
PKGS="clang-19 llvm-19 llvm-19-dev llvm-19-tools libclang-rt-19-dev lld-19 cmake ninja-build python3 make protobuf-c-compiler libprotobuf-c-dev zlib1g-dev golang-go chromium libunwind-dev lua5.4 sqlite3 libjemalloc2 libtcmalloc-minimal4 libmimalloc2.0 libomp-19-dev strace"
# bench/dhat: Valgrind's DHAT, gcc/g++ for its programs and the realloc
# shim (cc), readelf (binutils), and the programs it compares on (gawk,
# git, xz; sqlite3, lua5.4 and python3 are above).
if [ "$DHAT" = 1 ]; then
  PKGS="$PKGS valgrind gcc g++ binutils gawk git xz-utils"
fi
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
