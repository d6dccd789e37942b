#!/usr/bin/env bash
# callgrind.sh — instruction counts of the micro workloads under heapprof,
# load-independent (same binary and input, same count), for speed work on a
# busy machine where wall-clock times are noise.
#
#   bench/callgrind.sh [WORKLOAD...]     (default: bt ht ll stream mp)
#
# larson is bench/micro/larson.c with random sizes 8..1000 (every free of a
# context a different size: the HIB merge's slow path); valgrind runs its
# threads one at a time, so its count is as repeatable as the others'.
#
# Workloads: the micro ones above, and lua and sqlite (the Debian sources
# bench/fetch-src.sh leaves in $SRC_CACHE, default bench/.cache/src).
#
# valgrind cannot map heapprof's reservations (16 TiB of shadow, 3 TiB of
# primary regions), so the runtime is rebuilt from a copy of this tree with
# HP_USER_SPACE_END = 2^38 and HP_REGION_SIZE = 2^28 (valgrind's client
# addresses are far below 2^38); nothing else differs. Workloads are built
# as bench/run.sh builds them (-O2, -fheapprof=DIR) and stripped of debug
# info (valgrind 3.19 cannot read clang 19's DWARF 5). Prints, per workload,
# the instructions of the heapprof build, of the plain build, and the ratio;
# with RT=1 also of the plain objects linked with the runtime (no pass:
# what the allocator costs alone; the rest of the ratio is the pass's).
# HPFLAGS adds flags to the heapprof build only (e.g. "-mllvm
# -heapprof-hoist-loop-invariant=0" to see what one pass transformation
# gives). callgrind's files stay in $OUT for callgrind_annotate.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$root/build/callgrind}
SRC=$OUT/src BLD=$OUT/build
mkdir -p "$SRC" "$OUT/bin" "$OUT/prof"
command -v valgrind >/dev/null || { echo "callgrind.sh: valgrind is not installed" >&2; exit 1; }

# The copy: only changed files get a new mtime, so ninja rebuilds little.
(cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 cp -a --parents -t "$SRC")
for f in compiler-rt/lib/heapprof/heapprof_shadow.h compiler-rt/lib/heapprof/heapprof_allocator.h; do
  sed -e 's|#define HP_USER_SPACE_END (1ull << 47)|#define HP_USER_SPACE_END (1ull << 38)|' \
      -e 's|#define HP_REGION_SIZE (1ull << 35)|#define HP_REGION_SIZE (1ull << 28)|' \
      "$SRC/$f" >"$SRC/$f.new"
  if cmp -s "$SRC/$f" "$SRC/$f.new"; then
    echo "callgrind.sh: the reservation in $f is not where this script expects it" >&2; exit 1
  fi
  touch -r "$SRC/$f" "$SRC/$f.new"; mv "$SRC/$f.new" "$SRC/$f"
done
[ -f "$BLD/build.ninja" ] || cmake -G Ninja -S "$SRC" -B "$BLD" \
  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 >/dev/null
ninja -C "$BLD" lib/heapprof/HeapProfiler.so lib/heapprof/libheapprof_cxx.a \
  lib/heapprof/libheapprof_rt.a bin/heapprof-clang >/dev/null

COMMON="-O2 -gline-tables-only -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer"
SRC_CACHE=${SRC_CACHE:-$root/bench/.cache/src}
declare -A ARGS=([bt]="12" [ht]="200000" [ll]="100000 10" [stream]="400000 5" [mp]="64 1 200000"
                 [larson]="2 4 1000 20000 8 1000" [rg]="4"
                 [lua]="$root/bench/lua/alloc.lua 1" [sqlite]="--memdb --size 2")
declare -A FILE=([bt]=bt [ht]=ht [ll]=ll [stream]=stream [mp]=malloc_pairs [larson]=larson [rg]=realloc_growth)
# srcs WORKLOAD: sets SRCS, XFLAGS and LIBS as bench/run.sh's spec does.
srcs() {
  case $1 in
    lua)
      SRCS=$(ls "$SRC_CACHE"/lua5.4-[0-9]*/src/*.c 2>/dev/null | grep -v '/luac\.c$' | tr '\n' ' ')
      mkdir -p "$OUT/lua-include"
      echo '#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"' >"$OUT/lua-include/lua5.4-deb-multiarch.h"
      XFLAGS="-DLUA_USE_LINUX -I$OUT/lua-include" LIBS="-lm -ldl" ;;
    sqlite)
      SRCS="$SRC_CACHE/sqlite3-amalgamation/speedtest1.c $SRC_CACHE/sqlite3-amalgamation/sqlite3.c"
      XFLAGS="-I$SRC_CACHE/sqlite3-amalgamation -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION" LIBS="-lm" ;;
    *)
      SRCS="$root/bench/micro/${FILE[$1]}.c" XFLAGS="-I$root/bench/micro -pthread" LIBS="-pthread" ;;
  esac
  [ -n "${SRCS// /}" ] || { echo "callgrind.sh: no sources for $1 (run bench/fetch-src.sh)" >&2; exit 1; }
}
count() { # BINARY ARGS... -> instructions
  local f=$OUT/cg.$(basename "$1").out
  (cd "$OUT" && valgrind --tool=callgrind --callgrind-out-file="$f" "$@" >/dev/null 2>"$f.log")
  awk '/^(summary|totals):/ {print $2; exit}' "$f"
}
for w in ${@:-bt ht ll stream mp}; do
  [ -n "${ARGS[$w]:-}" ] || { echo "callgrind.sh: unknown workload $w (bt ht ll stream mp larson lua sqlite)" >&2; exit 1; }
  srcs "$w"
  "$BLD/bin/heapprof-clang" $COMMON -fheapprof="$OUT/prof" ${HPFLAGS:-} $XFLAGS $SRCS -o "$OUT/bin/$w.heapprof" $LIBS
  clang-19 $COMMON $XFLAGS $SRCS -o "$OUT/bin/$w.base" $LIBS
  strip --strip-debug "$OUT/bin/$w.heapprof" "$OUT/bin/$w.base"
  h=$(count "$OUT/bin/$w.heapprof" ${ARGS[$w]})
  b=$(count "$OUT/bin/$w.base" ${ARGS[$w]})
  name="$w ${ARGS[$w]#$root/}"
  if [ "${RT:-0}" = 1 ]; then
    clang-19 $COMMON $XFLAGS $SRCS -o "$OUT/bin/$w.rt" -Wl,--whole-archive "$BLD/lib/heapprof/libheapprof_rt.a" \
      -Wl,--no-whole-archive -lpthread -ldl -lm $LIBS
    strip --strip-debug "$OUT/bin/$w.rt"
    r=$(count "$OUT/bin/$w.rt" ${ARGS[$w]})
    awk -v w="$name" -v h="$h" -v r="$r" -v b="$b" 'BEGIN { printf "%-28s heapprof %13d (%.3f)  runtime only %13d (%.3f)  base %12d  pass share %.0f %%\n", w, h, h / b, r, r / b, b, 100 * (h - r) / (h - b) }'
  else
    awk -v w="$name" -v h="$h" -v b="$b" 'BEGIN { printf "%-28s heapprof %13d  base %12d  ratio %.3f\n", w, h, b, h / b }'
  fi
done
