#!/usr/bin/env bash
# bench/allocprof/opcost.sh OUT: what the allocator profiler's cost features
# (docs/allocator-profiler.md sections 2-4) add to every malloc/free, on and
# off.  bench/micro/malloc_pairs (one thread, 64-byte blocks, PAIRS
# malloc/free pairs; BENCH_OPCOST_PAIRS, default 2,000,000) built with plain
# clang and linked with the runtime (no pass: the allocator path alone), run
# RUNS times per setting (BENCH_OPCOST_RUNS, default 5, interleaved so that
# load changes hit every setting alike); the row is the least CPU time (user
# + sys, bench/timeit) per pair.  Instruction counts would not depend on
# the machine's load, but valgrind cannot host heapprof (it refuses the
# 16 TiB shadow reservation) and this VM has no hardware counters.  Prints
# a markdown table on stdout.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$1
B=${BUILD:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
PAIRS=${BENCH_OPCOST_PAIRS:-2000000}
RUNS=${BENCH_OPCOST_RUNS:-5}
dir=$OUT/opcost
rm -rf "$dir" && mkdir -p "$dir"
rt=$B/lib/heapprof/libheapprof_rt.a
clang-19 -O2 -o "$dir/timeit" "$root/bench/timeit.c"
clang-19 -O2 -I"$root/bench/micro" "$root/bench/micro/malloc_pairs.c" \
  -o "$dir/pairs" -Wl,--whole-archive "$rt" -Wl,--no-whole-archive \
  -Wl,--dynamic-list="$rt.syms" -lpthread -ldl -lm

# everything off; the defaults (op classes and system calls on, PMU off);
# every call timed; PMU events on (1 call in 256 of each kind, and every call)
SETTINGS=("op_classes=0:alloc_syscalls=0" "op_classes=1:alloc_syscalls=1"
  "op_classes=1:cycle_sample_every=1" "pmu_events=1"
  "pmu_events=1:pmu_sample_every=1")
for ((r = 0; r < RUNS; r++)); do
  for i in "${!SETTINGS[@]}"; do
    HEAPPROF_OPTIONS="profile_dir=$dir:print_raw=0:${SETTINGS[$i]}" \
      "$dir/timeit" -- "$dir/pairs" 64 1 "$PAIRS" |
      awk -v i="$i" '{print i, $2, $4}' >>"$dir/runs.txt"
  done
done
echo "| options | ns CPU per malloc/free pair (least of $RUNS) | vs. all off |"
echo "|---|---:|---:|"
awk -v n="$PAIRS" -v list="$(IFS='|'; echo "${SETTINGS[*]}")" '
  $3 != "ok" { bad[$1] = 1 }
  !($1 in best) || $2 < best[$1] { best[$1] = $2 }
  END {
    k = split(list, names, "|")
    for (i = 0; i < k; i++) {
      ns = best[i] * 1e9 / n
      if (i == 0) base = ns
      printf "| %s | %s | %s |\n", names[i + 1],
             bad[i] ? "failed" : sprintf("%.1f", ns),
             i ? sprintf("%+.1f", ns - base) : ""
    }
  }' "$dir/runs.txt"
