#!/usr/bin/env bash
# bench/allocprof/fshare.sh OUT TIMEIT: the cost of heap utilization
# (heap_utilization) and passive false sharing (false_sharing), each on and
# off (issue 10 parts 6 and 7; the `make bench` table "Allocator profiler:
# heap utilization and false sharing").
#
#   malloc_pairs 32 2 N   bench/micro/malloc_pairs.c, 2 threads: the
#                         allocation path, where false_sharing=1 adds a
#                         lock per call (heap_utilization costs nothing
#                         there: it works at dump time)
#   live_heap M           bench/allocprof/live_heap.c: M 48-byte objects,
#                         half kept live to the exit dump, where
#                         heap_utilization=1 scans the heap's counters
#
# The same two again on glibc's malloc (allocator=system): false sharing
# measured on the real layout, where false_sharing=1 keeps an index of the
# live objects' edge lines (two striped locks per malloc/free pair) and
# sorts the live objects at each dump; "off" there is
# allocator=system:heap_utilization=0:false_sharing=0.
#
# Both built with heapprof-clang -fheapprof -O2, and again with -mllvm
# -heapprof-false-sharing ("store hooks": a call per store, which returns at
# once unless false_sharing=1).  Each variant runs RUNS
# times; the row is the lowest CPU time (user + sys, less sensitive than
# wall time to a loaded machine; instruction counts are not available:
# valgrind cannot map heapprof's 16 TiB shadow reservation and perf has no
# counters in a VM).  "off" = heap_utilization=0:false_sharing=0.  Prints a
# markdown table on stdout.  BENCH_FSHARE_RUNS (default 5; BENCH_QUICK=1:
# 2), BENCH_FSHARE_PAIRS (default 2000000), BENCH_FSHARE_OBJECTS (default
# 1000000).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$1 TIMEIT=$2
B=${BUILD:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
QUICK=${BENCH_QUICK:-0}
RUNS=${BENCH_FSHARE_RUNS:-$([ "$QUICK" = 1 ] && echo 2 || echo 5)}
PAIRS=${BENCH_FSHARE_PAIRS:-2000000}
OBJECTS=${BENCH_FSHARE_OBJECTS:-1000000}
dir=$OUT/allocprof-fshare
rm -rf "$dir" && mkdir -p "$dir/prof"
HPCC=$B/bin/heapprof-clang
# Each also with -mllvm -heapprof-false-sharing (.fs): a hook call per store.
for w in malloc_pairs:micro live_heap:allocprof; do
  for fs in "" .fs; do
    "$HPCC" -fheapprof -O2 ${fs:+-mllvm -heapprof-false-sharing} \
      "$root/bench/${w#*:}/${w%%:*}.c" -o "$dir/${w%%:*}$fs" -lpthread
  done
done

# cpu OPTIONS CMD...: the lowest CPU seconds of RUNS runs.
cpu() {
  local opts=$1 best="" r wall c rss status
  shift
  for ((r = 0; r < RUNS; r++)); do
    rm -rf "$dir/prof" && mkdir -p "$dir/prof"
    read -r wall c rss status < <(HEAPPROF_OPTIONS="profile_dir=$dir/prof:$opts" \
      "$TIMEIT" -t 300 -o "$dir/stdout" -e "$dir/stderr" -- "$@")
    [ "$status" = ok ] || { echo "$*: $status: $(tail -c 300 "$dir/stderr")" >&2; exit 1; }
    if [ -z "$best" ] || awk -v a="$c" -v b="$best" 'BEGIN { exit !(a < b) }'; then
      best=$c
    fi
  done
  echo "$best"
}

echo "| workload | variant | cpu s | vs off |"
echo "|---|---|---:|---:|"
row() { # WORKLOAD_LABEL BINARY ARGS...
  local label=$1 bin=$2 off t
  shift 2
  local args=("$@")
  off=$(cpu "heap_utilization=0:false_sharing=0" "$bin" "${args[@]}")
  printf '| %s | off | %s | 1.00× |\n' "$label" "$off"
  one() { # VARIANT_LABEL OPTIONS BINARY
    t=$(cpu "$2" "$3" "${args[@]}")
    printf '| %s | %s | %s | %.2f× |\n' "$label" "$1" "$t" \
      "$(echo "$t / $off" | bc -l)"
  }
  one "heap_utilization=1" "heap_utilization=1:false_sharing=0" "$bin"
  one "false_sharing=1 (passive)" "heap_utilization=0:false_sharing=1" "$bin"
  one "store hooks, false_sharing=0" "heap_utilization=0:false_sharing=0" "$bin.fs"
  one "store hooks, false_sharing=1 (passive + active)" "heap_utilization=0:false_sharing=1" "$bin.fs"
}
row "malloc_pairs 32 2 $PAIRS" "$dir/malloc_pairs" 32 2 "$PAIRS"
row "live_heap $OBJECTS" "$dir/live_heap" "$OBJECTS"
# The measured mode, on glibc's malloc: its own "off".
sysrow() { # WORKLOAD_LABEL BINARY ARGS...
  local label="$1 (allocator=system)" bin=$2 off t sys=allocator=system:heap_utilization=0
  shift 2
  local args=("$@")
  off=$(cpu "$sys:false_sharing=0" "$bin" "${args[@]}")
  printf '| %s | off | %s | 1.00× |\n' "$label" "$off"
  one() { # VARIANT_LABEL OPTIONS BINARY
    t=$(cpu "$2" "$3" "${args[@]}")
    printf '| %s | %s | %s | %.2f× |\n' "$label" "$1" "$t" \
      "$(echo "$t / $off" | bc -l)"
  }
  one "false_sharing=1 (measured passive)" "$sys:false_sharing=1" "$bin"
  one "store hooks, false_sharing=0" "$sys:false_sharing=0" "$bin.fs"
  one "store hooks, false_sharing=1 (measured passive + active)" "$sys:false_sharing=1" "$bin.fs"
}
sysrow "malloc_pairs 32 2 $PAIRS" "$dir/malloc_pairs" 32 2 "$PAIRS"
sysrow "live_heap $OBJECTS" "$dir/live_heap" "$OBJECTS"
