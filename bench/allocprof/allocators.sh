#!/usr/bin/env bash
# bench/allocprof/allocators.sh [OUT]: does heapprof run --allocator rank
# allocators the way their own throughput does?  (issue 11 part 3; the
# "Profiling other allocators" table of make bench, BENCH_SECTIONS=allocators)
#
# Workloads (bench/micro, written for heapprof after mimalloc-bench's):
#   larson.c   THREADS ROUNDS SLOTS OPS MIN MAX  (server-style, cross-thread)
#   xmalloc.c  PAIRS BATCHES BATCH MIN MAX       (producers allocate,
#                                                 consumers free)
# For each allocator installed -- glibc, Debian's jemalloc, tcmalloc,
# mimalloc -- runs each workload natively (LD_PRELOAD=the library) and
# under `heapprof run --allocator=...` with cycle_sample_every=1 and
# print_stats=1.  Native: the workload's own throughput, median of RUNS.
# Profiled: TSC cycles per malloc+free pair measured around the wrapped
# calls alone, (malloc_cycles + free_cycles) / (cycle_samples / 2); the
# lowest of RUNS runs (a run's mean is inflated by preemptions inside a
# timed call, which a loaded machine has more of: the least disturbed run
# is the best estimate).  Prints a markdown block: the table and, per
# workload, whether the two rankings agree.
# Knobs: BENCH_RUNS (default 3), BENCH_QUICK=1 (small sizes, 1 run),
# BUILD (heapprof's build tree, default build).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
B=${BUILD:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
OUT=${1:-$B/bench}
QUICK=${BENCH_QUICK:-0}
RUNS=${BENCH_RUNS:-3}
[ "$QUICK" = 1 ] && RUNS=1
H=$B/bin/heapprof
dir=$OUT/allocprof
mkdir -p "$dir/bin" "$dir/prof"
CC=${BENCH_CC:-clang-19}
F="-O2 -gline-tables-only -fno-omit-frame-pointer -pthread -I$root/bench/micro"
if [ "$QUICK" = 1 ]; then
  LARSON="2 4 1000 20000 8 1000"; XMALLOC="1 200 500 8 512"
else
  LARSON="2 20 1000 100000 8 1000"; XMALLOC="1 2000 1000 8 512"
fi
for w in larson xmalloc; do
  $CC $F "$root/bench/micro/$w.c" -o "$dir/bin/$w" || { echo "cannot build bench/micro/$w.c" >&2; exit 1; }
done
L=/usr/lib/x86_64-linux-gnu
names=(glibc) libs=(system)
for a in jemalloc:libjemalloc.so.2 tcmalloc:libtcmalloc_minimal.so.4 mimalloc:libmimalloc.so.2; do
  [ -e "$L/${a#*:}" ] && { names+=("${a%%:*}"); libs+=("$L/${a#*:}"); }
done

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
status=0
tsv=$dir/results.tsv
: >"$tsv"
for w in larson xmalloc; do
  args=$LARSON; [ $w = xmalloc ] && args=$XMALLOC
  for i in "${!names[@]}"; do
    lib=${libs[$i]} pre=""
    [ "$lib" = system ] || pre=$lib
    for ((r = 0; r < RUNS; r++)); do
      LD_PRELOAD=$pre "$dir/bin/$w" $args >"$dir/native.$r" || { echo "$w on ${names[$i]} failed" >&2; status=1; }
    done
    nat=$(cat "$dir"/native.* | awk '/_per_sec/ {print $2}' | median)
    flt=$(cat "$dir"/native.* | awk '/minor_faults/ {print $2}' | median)
    rm -f "$dir"/native.*
    best="" bestq="" prof_tp=""
    for ((r = 0; r < RUNS; r++)); do
      rm -rf "$dir/prof"/*
      HEAPPROF_OPTIONS=print_stats=1:cycle_sample_every=1 \
        "$H" run -o "$dir/prof" --allocator="$lib" -- "$dir/bin/$w" $args \
        >"$dir/out" 2>"$dir/err" || { echo "$w on ${names[$i]} under heapprof run failed: $(tail -3 "$dir/err")" >&2; status=1; continue; }
      # all sampled calls, and without the slow ones (over 2^20 cycles:
      # mostly preempted calls)
      read -r c q < <(awk '$1=="malloc_cycles"{m=$2} $1=="free_cycles"{f=$2} $1=="cycle_samples"{s=$2}
               $1=="slow_calls"{n=$2} $1=="slow_cycles"{sc=$2}
               END {if (s && s > n) printf "%.0f %.0f\n", (m + f) / (s / 2), (m + f - sc) / ((s - n) / 2)}' "$dir/err")
      [ -n "$c" ] && { [ -z "$best" ] || [ "$c" -lt "$best" ]; } && best=$c
      [ -n "$q" ] && { [ -z "$bestq" ] || [ "$q" -lt "$bestq" ]; } && bestq=$q
      prof_tp="$prof_tp $(awk '/_per_sec/ {print $2}' "$dir/out")"
    done
    ptp=$(echo $prof_tp | tr ' ' '\n' | median)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$w" "${names[$i]}" "$nat" "${best:-0}" "${ptp:-0}" "${bestq:-0}" "${flt:-0}" >>"$tsv"
  done
done

echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') by bench/allocprof/allocators.sh (\`BENCH_SECTIONS=allocators\`$([ "$QUICK" = 1 ] && echo '; BENCH_QUICK=1: small sizes, 1 run, not for comparison')), load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs. \`larson $LARSON\` and \`xmalloc $XMALLOC\` (bench/micro; built \`$CC ${F//$root\//}\`). *native*: the workload's own throughput with the allocator preloaded (malloc+free pairs/s for larson, blocks allocated and freed/s for xmalloc), median of $RUNS runs. *cycles/pair*: TSC cycles of one malloc plus one free as \`heapprof run --allocator=...\` measured them around the allocator's own calls (\`HEAPPROF_OPTIONS=cycle_sample_every=1:print_stats=1\`: (malloc_cycles + free_cycles) / (cycle_samples / 2)), lowest of $RUNS runs; *fast calls*: the same without the sampled calls over 2^20 cycles (\`slow_calls\`, \`slow_cycles\`: mostly calls during which the thread was preempted, which a loaded machine has many of; also real page-fault-heavy calls, so it can flatter an allocator that purges memory inside its calls), lowest of $RUNS runs. *faults*: minor page faults of the native run (getrusage, median): the allocator's cost that happens outside its calls, when the program first touches memory it was handed (fresh or purged pages). *profiled*: the workload's throughput under heapprof run (heapprof's own cost included), median. Rankings: native throughput, highest first; cycles/pair, lowest first."
echo
echo "| workload | allocator | native (M/s) | rank | faults | cycles/pair under heapprof run | rank | fast calls only | rank | profiled (M/s) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for w in larson xmalloc; do
  awk -F'\t' -v w=$w '$1==w' "$tsv" | sort -t$'\t' -k6,6n | awk -F'\t' '{print $0"\t"NR}' |
    sort -t$'\t' -k3,3nr | awk -F'\t' '{print $0"\t"NR}' |
    sort -t$'\t' -k4,4n | awk -F'\t' '{printf "| %s | %s | %.2f | %d | %d | %d | %d | %d | %d | %.2f |\n", $1, $2, $3/1e6, $9, $7, $4, NR, $6, $8, $5/1e6}'
done
echo
for w in larson xmalloc; do
  a=$(awk -F'\t' -v w=$w '$1==w' "$tsv" | sort -t$'\t' -k3,3nr | cut -f2 | tr '\n' ' ')
  b=$(awk -F'\t' -v w=$w '$1==w' "$tsv" | sort -t$'\t' -k4,4n | cut -f2 | tr '\n' ' ')
  q=$(awk -F'\t' -v w=$w '$1==w' "$tsv" | sort -t$'\t' -k6,6n | cut -f2 | tr '\n' ' ')
  a=${a% } b=${b% } q=${q% }
  for m in "cycles per pair:$b" "fast calls only:$q"; do
    if [ "$a" = "${m#*:}" ]; then
      echo "- $w, ${m%%:*}: the ranking agrees with native throughput (fastest first: $a)."
    else
      echo "- $w, ${m%%:*}: the ranking differs: by native throughput $a; by ${m%%:*} ${m#*:}."
    fi
  done
done
exit $status
