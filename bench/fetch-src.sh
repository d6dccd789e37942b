#!/usr/bin/env bash
# fetch-src.sh — get the sources of the real-program workloads from Debian
# SOURCE packages (lua5.4, sqlite3) with `apt-get source`, into a cache.
#
#   bench/fetch-src.sh [CACHE_DIR]        (default: bench/.cache/src)
#
# Leaves in CACHE_DIR:
#   lua5.4-<version>/src/*.c              Lua 5.4 (Debian patches applied)
#   sqlite3-<version>/                    SQLite's full source tree
#   sqlite3-amalgamation/{sqlite3.c,sqlite3.h,speedtest1.c}
#     made once from that tree with SQLite's own generator (the Debian
#     source has no amalgamation): configure && make sqlite3.c (needs tclsh)
#
# Idempotent: what is already there is kept. If apt knows no source
# repository, a deb-src twin of the machine's Debian entries is written as
# its own deb822 file, /etc/apt/sources.list.d/heapprof-bench-src.sources,
# and `apt-get update` runs. That step, and installing dpkg-dev or tcl when
# they are missing, need root; without it the script says what is missing
# and fails. Nothing downloaded here may be committed (bench/.gitignore).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${1:-$here/.cache/src}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
pkgs=(lua5.4 sqlite3)

log() { printf 'fetch-src: %s\n' "$*" >&2; }
die() { printf 'fetch-src: ERROR: %s\n' "$*" >&2; exit 1; }
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo -n "$@"
  else return 1; fi
}

need=()
for p in "${pkgs[@]}"; do
  [ -f "$cache/.done-$p" ] || need+=("$p")
done

if [ ${#need[@]} -gt 0 ]; then
  if ! command -v dpkg-source >/dev/null; then
    log "installing dpkg-dev (apt-get source unpacks with dpkg-source)"
    as_root apt-get install -y -q dpkg-dev >&2 ||
      die "dpkg-dev is missing and cannot be installed (not root?)"
  fi

  if ! apt-cache showsrc "${need[0]}" 2>/dev/null | grep -q '^Package:'; then
    srcfile=/etc/apt/sources.list.d/heapprof-bench-src.sources
    if [ ! -f "$srcfile" ]; then
      log "apt knows no deb-src entry; adding $srcfile"
      tmp=$(mktemp)
      if [ -f /etc/apt/sources.list.d/debian.sources ]; then
        # deb822: the same stanzas, with Types: deb-src.
        awk 'BEGIN { RS = ""; ORS = "\n\n" }
             /(^|\n)Types:[^\n]*deb/ {
               gsub(/(^|\n)Types:[^\n]*/, "\nTypes: deb-src"); sub(/^\n/, ""); print }' \
          /etc/apt/sources.list.d/debian.sources >"$tmp"
      fi
      if ! grep -q '^Types: deb-src' "$tmp"; then
        codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
        cat >"$tmp" <<EOS
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $codename $codename-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: $codename-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
      fi
      as_root install -m 0644 "$tmp" "$srcfile" ||
        { rm -f "$tmp"; die "cannot write $srcfile (not root?)"; }
      rm -f "$tmp"
    fi
    log "apt-get update"
    as_root apt-get update -q >&2 || die "apt-get update failed"
    apt-cache showsrc "${need[0]}" 2>/dev/null | grep -q '^Package:' ||
      die "apt still knows no source package ${need[0]} (see $srcfile)"
  fi

  for p in "${need[@]}"; do
    log "apt-get source $p -> $cache"
    (cd "$cache" && apt-get source -q "$p") >"$cache/apt-source-$p.log" 2>&1 ||
      { tail -20 "$cache/apt-source-$p.log" >&2; die "apt-get source $p failed"; }
    touch "$cache/.done-$p"
  done
fi

amal=$cache/sqlite3-amalgamation
if [ ! -s "$amal/sqlite3.c" ]; then
  top=$(ls -d "$cache"/sqlite3-[0-9]*/ 2>/dev/null | head -1)
  [ -n "$top" ] || die "no unpacked sqlite3 source in $cache"
  if ! command -v tclsh >/dev/null; then
    log "installing tcl (SQLite's amalgamation generator is a Tcl script)"
    as_root apt-get install -y -q tcl >&2 || die "tclsh is missing and cannot be installed"
  fi
  log "generating the SQLite amalgamation (configure; make sqlite3.c) — once"
  rm -rf "$amal.tmp" && mkdir -p "$amal.tmp"
  (cd "$amal.tmp" && "$top/configure" --disable-tcl CC="${CC:-clang-19}" >configure.log 2>&1 &&
    make sqlite3.c >make.log 2>&1) ||
    { tail -20 "$amal.tmp"/*.log >&2; die "could not generate sqlite3.c (logs in $amal.tmp)"; }
  mkdir -p "$amal"
  cp "$amal.tmp/sqlite3.c" "$amal.tmp/sqlite3.h" "$top/test/speedtest1.c" "$amal/"
  rm -rf "$amal.tmp"
fi
log "ready in $cache: $(cd "$cache" && ls -d */ | tr '\n' ' ')"
