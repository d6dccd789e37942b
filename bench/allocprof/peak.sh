#!/usr/bin/env bash
# bench/allocprof/peak.sh OUT [TIMEIT]: the cost of the peak tracker (issue
# 10 parts 1 and 5; docs/allocator-profiler.md).  Builds bench/micro's
# malloc_pairs (a ring of 64 live blocks: the malloc/free path, the heap
# flat), bt (binary trees: allocation-heavy, the heap rising and falling),
# realloc_growth (a heap that grows) and heap_growth (a heap that grows to
# 256 MiB of 64-byte objects, with frees all along: many snapshots) with
# heapprof-clang -O2 and runs each, alternating, with
#   peak=0                       the tracker off
#   peak=1                       on, default threshold (1024 KiB)
#   peak=1:peak_threshold_kb=64  on, a finer threshold (more snapshots)
# CPU seconds (user + sys, timeit) are the fastest of BENCH_PEAK_RUNS
# (default 7) runs: the least disturbed by a busy machine.  (Instruction
# counts need valgrind and a runtime rebuilt with smaller reservations,
# which bench/callgrind.sh does; this VM has no PMU for perf.)
# snapshots: read from the profile's peak section.  Prints a markdown
# table on stdout.
# TIMEIT defaults to a fresh build of bench/timeit.c; BENCH_QUICK=1: small
# inputs, 3 runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$1 TIMEIT=${2:-}
B=${BUILD:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
QUICK=${BENCH_QUICK:-0}
RUNS=${BENCH_PEAK_RUNS:-$([ "$QUICK" = 1 ] && echo 3 || echo 7)}
dir=$OUT/allocprof-peak
rm -rf "$dir" && mkdir -p "$dir"
if [ -z "$TIMEIT" ]; then
  TIMEIT=$dir/timeit
  clang-19 -O2 -o "$TIMEIT" "$root/bench/timeit.c"
fi
COMMON="-O2 -gline-tables-only -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer"
for w in malloc_pairs bt realloc_growth heap_growth; do
  "$B/bin/heapprof-clang" -fheapprof="$dir/prof" $COMMON -I"$root/bench/micro" \
    "$root/bench/micro/$w.c" -o "$dir/$w" -lpthread
done
if [ "$QUICK" = 1 ]; then
  W=("malloc_pairs 64 1 200000" "bt 12" "realloc_growth 10" "heap_growth 200000")
else
  W=("malloc_pairs 64 1 5000000" "bt 16" "realloc_growth 40" "heap_growth 4000000")
fi
V=("peak=0" "peak=1" "peak=1:peak_threshold_kb=64")

# cpu WORKLOAD OPTIONS: CPU seconds of one run (the profile at exit
# included).
cpu() {
  rm -rf "$dir/prof"
  local line
  line=$(HEAPPROF_OPTIONS=$2 "$TIMEIT" -t 300 -- "$dir"/$1)
  [[ $line == *" ok" ]] || { echo "$1 ($2): $line" >&2; exit 1; }
  echo "$line" | awk '{print $2}'
}
snapshots() {
  rm -rf "$dir/prof"
  HEAPPROF_OPTIONS=$2 "$dir"/$1 >/dev/null
  "$B/bin/heapprof" show "$dir"/prof/*.profraw |
    sed -n 's/.* snapshots=\([0-9]*\).*/\1/p' | tail -1
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f%%", (b > 0 ? 100 * (a - b) / b : 0) }'; }
min() { printf '%s\n' "$@" | sort -g | head -1; }

echo "| workload | peak=0 cpu s | peak=1 cpu s | cost | threshold 64 KiB cpu s | cost | snapshots (1024 / 64 KiB) |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for w in "${W[@]}"; do
  off=() on=() fine=()
  for ((r = 0; r < RUNS; r++)); do
    off+=("$(cpu "$w" "${V[0]}")")
    on+=("$(cpu "$w" "${V[1]}")")
    fine+=("$(cpu "$w" "${V[2]}")")
  done
  o=$(min "${off[@]}") n=$(min "${on[@]}") f=$(min "${fine[@]}")
  echo "| $w | $o | $n | $(pct "$n" "$o") | $f | $(pct "$f" "$o") | $(snapshots "$w" "${V[1]}") / $(snapshots "$w" "${V[2]}") |"
done
