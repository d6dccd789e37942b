#!/bin/bash
# make demo: profile examples/demo.c with heapprof-clang -fheapprof=DIR and
# show the profile it wrote.
set -euo pipefail
BUILD=${BUILD:-build}
OUT=demo-out
rm -rf "$OUT"
mkdir -p "$OUT"
echo "\$ $BUILD/bin/heapprof-clang -O2 -fheapprof=$OUT/prof examples/demo.c -o $OUT/demo"
"$BUILD/bin/heapprof-clang" -O2 -fheapprof="$OUT/prof" examples/demo.c -o "$OUT/demo"
export HEAPPROF_OPTIONS=print_text=1
echo "\$ HEAPPROF_OPTIONS=print_text=1 $OUT/demo"
"$OUT/demo"
prof=$(ls "$OUT"/prof/heapprof.demo.*.txt)
echo
echo "== $prof"
cat "$prof"
