#!/usr/bin/env bash
# callgrind.sh — instruction counts of the micro workloads under heapprof,
# load-independent (same binary and input, same count), for speed work on a
# busy machine where wall-clock times are noise.
#
#   bench/callgrind.sh [WORKLOAD...]     (default: bt ht ll stream mp)
#
# valgrind cannot map heapprof's reservations (16 TiB of shadow, 3 TiB of
# primary regions), so the runtime is rebuilt from a copy of this tree with
# HP_USER_SPACE_END = 2^38 and HP_REGION_SIZE = 2^28 (valgrind's client
# addresses are far below 2^38); nothing else differs. Workloads are built
# as bench/run.sh builds them (-O2, -fheapprof=DIR) and stripped of debug
# info (valgrind 3.19 cannot read clang 19's DWARF 5). Prints, per workload,
# the instructions of the heapprof build, of the plain build, and the ratio;
# callgrind's files stay in $OUT for callgrind_annotate.
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
declare -A ARGS=([bt]="12" [ht]="200000" [ll]="100000 10" [stream]="400000 5" [mp]="64 1 200000")
declare -A FILE=([bt]=bt [ht]=ht [ll]=ll [stream]=stream [mp]=malloc_pairs)
count() { # BINARY ARGS... -> instructions
  local f=$OUT/cg.$(basename "$1").out
  (cd "$OUT" && valgrind --tool=callgrind --callgrind-out-file="$f" "$@" >/dev/null 2>"$f.log")
  awk '/^(summary|totals):/ {print $2; exit}' "$f"
}
for w in ${@:-bt ht ll stream mp}; do
  [ -n "${ARGS[$w]:-}" ] || { echo "callgrind.sh: unknown workload $w (bt ht ll stream mp)" >&2; exit 1; }
  src=$root/bench/micro/${FILE[$w]}.c
  "$BLD/bin/heapprof-clang" $COMMON -fheapprof="$OUT/prof" -I"$root/bench/micro" -pthread "$src" -o "$OUT/bin/$w.heapprof" -pthread
  clang-19 $COMMON -I"$root/bench/micro" -pthread "$src" -o "$OUT/bin/$w.base" -pthread
  strip --strip-debug "$OUT/bin/$w.heapprof" "$OUT/bin/$w.base"
  h=$(count "$OUT/bin/$w.heapprof" ${ARGS[$w]})
  b=$(count "$OUT/bin/$w.base" ${ARGS[$w]})
  awk -v w="$w ${ARGS[$w]}" -v h="$h" -v b="$b" 'BEGIN { printf "%-20s heapprof %13d  base %12d  ratio %.3f\n", w, h, b, h / b }'
done
