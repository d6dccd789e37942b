#!/bin/bash
# make demo: profile examples/demo.c with heapprof-clang -fheapprof=DIR and
# show the profile it wrote.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
OUT=${DEMO_OUT:-demo-out}
rm -rf "$OUT"
mkdir -p "$OUT"
echo "\$ $BUILD/bin/heapprof-clang -O2 -fheapprof=$OUT/prof examples/demo.c -o $OUT/demo"
"$BUILD/bin/heapprof-clang" -O2 -fheapprof="$OUT/prof" "$root/examples/demo.c" -o "$OUT/demo"
export HEAPPROF_OPTIONS=print_text=1
echo "\$ HEAPPROF_OPTIONS=print_text=1 $OUT/demo"
"$OUT/demo"
prof=$(ls "$OUT"/prof/heapprof.demo.*.txt)
echo
echo "== $prof"
cat "$prof"
raw=$(ls "$OUT"/prof/heapprof.demo.*.profraw)
LLVM_PROFDATA=$(command -v llvm-profdata-19 || echo /usr/lib/llvm-19/bin/llvm-profdata)
echo
echo "== the raw profile, as llvm-profdata reads it (first records)"
echo "\$ llvm-profdata-19 show --memory $raw --profiled-binary $OUT/demo"
"$LLVM_PROFDATA" show --memory "$raw" --profiled-binary "$OUT/demo" > "$OUT/demo.profdata.yaml"
# (not piped into head: with pipefail a closed pipe would fail the demo)
sed -n '/^  Records:/,$p' "$OUT/demo.profdata.yaml" > "$OUT/records.yaml"
head -40 "$OUT/records.yaml"
echo "..."
echo
echo "\$ llvm-profdata-19 merge $raw --profiled-binary $OUT/demo -o $OUT/demo.memprofdata"
"$LLVM_PROFDATA" merge "$raw" --profiled-binary "$OUT/demo" -o "$OUT/demo.memprofdata"
ls -l "$OUT/demo.memprofdata"
echo "(the indexed profile clang -fmemory-profile-use= takes: docs/pgo.md)"
echo
echo "== the profile for people: what is biggest, what leaked, what is cold"
echo "\$ $BUILD/bin/heapprof report $OUT/prof"
"$BUILD/bin/heapprof" report "$OUT/prof"
echo
echo "== next"
echo "what each table and column means: docs/user-guide.md, \"Finding answers: heapprof report\""
echo "profile a program of your own: README.md, \"Using it\" (heapprof run for one you cannot rebuild: docs/run.md)"
