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
# print_stats=1.  Native: the workload's own throughput (wall clock) and
# its CPU time per operation (user + system of all threads: on a shared
# machine the wall clock also counts waiting for a CPU), the best of RUNS
# (the least disturbed run, as for the profiled figures).
# Profiled: TSC cycles per malloc+free pair measured around the wrapped
# calls alone, (malloc_cycles + free_cycles) / (cycle_samples / 2), and
# the same plus the page faults the program took outside the allocator's
# calls at their measured cost (faults_outside x fault_cycles: the
# report's cost per operation including faults, docs/allocator-profiler.md);
# each the lowest of RUNS runs (a run's mean is inflated by preemptions
# inside a timed call, which a loaded machine has more of: the least
# disturbed run is the best estimate).  Prints a markdown block: the table
# and, per workload, whether the rankings agree.  For reference, the
# calls alone timed natively by bench/allocprof/rdtsc_shim.c (two RDTSCs
# around each malloc and free, nothing else): whether the ranking differs
# even without heapprof.
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
$CC -O2 -shared -fPIC "$root/bench/allocprof/rdtsc_shim.c" -o "$dir/bin/rdtsc_shim.so" -ldl ||
  { echo "cannot build bench/allocprof/rdtsc_shim.c" >&2; exit 1; }
L=/usr/lib/x86_64-linux-gnu
names=(glibc) libs=(system)
for a in jemalloc:libjemalloc.so.2 tcmalloc:libtcmalloc_minimal.so.4 mimalloc:libmimalloc.so.2; do
  [ -e "$L/${a#*:}" ] && { names+=("${a%%:*}"); libs+=("$L/${a#*:}"); }
done

median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
lowest() { sort -n | head -1; }
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
    nat=$(cat "$dir"/native.* | awk '/_per_sec/ {print $2}' | sort -n | tail -1)
    cpu=$(cat "$dir"/native.* | awk '/^cpu_ns_per/ {print $2}' | lowest)
    flt=$(cat "$dir"/native.* | awk '/minor_faults/ {print $2}' | median)
    rm -f "$dir"/native.*
    # the calls alone, timed by a bare RDTSC shim (no heapprof)
    shim=$(for ((r = 0; r < RUNS; r++)); do
      LD_PRELOAD="$dir/bin/rdtsc_shim.so $pre" "$dir/bin/$w" $args 2>&1 >/dev/null | awk '/shim_cycles_per_pair/ {print $2}'
    done | lowest)
    : >"$dir/runs"
    for ((r = 0; r < RUNS; r++)); do
      rm -rf "$dir/prof"/*
      HEAPPROF_OPTIONS=print_stats=1:cycle_sample_every=1 \
        "$H" run -o "$dir/prof" --allocator="$lib" -- "$dir/bin/$w" $args \
        >"$dir/out" 2>"$dir/err" || { echo "$w on ${names[$i]} under heapprof run failed: $(tail -3 "$dir/err")" >&2; status=1; continue; }
      # per pair: in the calls; with the faults outside them; those faults
      awk -v tp="$(awk '/_per_sec/ {print $2}' "$dir/out")" '
        $1=="malloc_cycles"{m=$2} $1=="free_cycles"{f=$2} $1=="cycle_samples"{s=$2}
        $1=="faults_outside"{o=$2} $1=="fault_cycles"{c=$2}
        END {if (s) printf "%.0f %.0f %d %s\n", (m + f) / (s / 2), (m + f + o * c) / (s / 2), o, tp}' \
        "$dir/err" >>"$dir/runs"
    done
    calls=$(cut -d' ' -f1 "$dir/runs" | lowest)
    withf=$(cut -d' ' -f2 "$dir/runs" | lowest)
    outf=$(cut -d' ' -f3 "$dir/runs" | median)
    ptp=$(cut -d' ' -f4 "$dir/runs" | median)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$w" "${names[$i]}" "${nat:-0}" "${cpu:-0}" "${flt:-0}" \
      "${calls:-0}" "${withf:-0}" "${outf:-0}" "${ptp:-0}" "${shim:-0}" >>"$tsv"
  done
done

# rank KEY ORDER: "allocator rank" lines of one workload, by column KEY
rank() { awk -F'\t' -v w="$w" '$1==w' "$tsv" | sort -t$'\t' -k"$1","$1"$2 | awk -F'\t' '{print $2, NR}'; }
order() { awk -F'\t' -v w="$w" '$1==w' "$tsv" | sort -t$'\t' -k"$1","$1"$2 | cut -f2 | tr '\n' ' ' | sed 's/ $//'; }

echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') by bench/allocprof/allocators.sh (\`BENCH_SECTIONS=allocators\`$([ "$QUICK" = 1 ] && echo '; BENCH_QUICK=1: small sizes, 1 run, not for comparison')), load average $(cut -d' ' -f1-3 /proc/loadavg) before the table was printed, $(nproc) CPUs. \`larson $LARSON\` and \`xmalloc $XMALLOC\` (bench/micro; built \`$CC ${F//$root\//}\`). *native*: the workload's own throughput with the allocator preloaded (malloc+free pairs/s for larson, blocks allocated and freed/s for xmalloc), the best of $RUNS runs; *cpu ns/op*: the same runs' CPU time (user + system, all threads) per pair or block, the lowest; *faults*: their minor page faults (getrusage), median; *shim*: cycles per malloc+free pair of the allocator's calls timed natively by a bare RDTSC shim (bench/allocprof/rdtsc_shim.c: no heapprof; calls over 2^20 cycles left out), lowest of $RUNS runs. Under \`heapprof run --allocator=...\` (\`HEAPPROF_OPTIONS=cycle_sample_every=1:print_stats=1\`), per malloc+free pair, each the lowest of $RUNS runs: *in calls*: TSC cycles measured around the allocator's own calls, (malloc_cycles + free_cycles) / (cycle_samples / 2) (calls during which the thread lost the CPU are not samples); *with faults*: plus the page faults the program took outside the allocator's calls (*outside faults*, median) at the cost of one fault heapprof measured at start (faults_outside × fault_cycles: the report's cost per operation including faults, docs/allocator-profiler.md); *profiled*: the workload's throughput under heapprof run, median. Rankings: throughput highest first, costs lowest first."
echo
echo "| workload | allocator | native (M/s) | rank | cpu ns/op | rank | faults | shim | rank | in calls | rank | outside faults | with faults | rank | profiled (M/s) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for w in larson xmalloc; do
  awk -F'\t' -v w=$w '$1==w' "$tsv" | sort -t$'\t' -k3,3nr | while IFS=$'\t' read -r _ a nat cpu flt calls withf outf ptp shim; do
    r1=$(rank 3 nr | awk -v a=$a '$1==a {print $2}') r2=$(rank 4 n | awk -v a=$a '$1==a {print $2}')
    r3=$(rank 6 n | awk -v a=$a '$1==a {print $2}') r4=$(rank 7 n | awk -v a=$a '$1==a {print $2}')
    r5=$(rank 10 n | awk -v a=$a '$1==a {print $2}')
    awk -v w=$w -v a=$a -v nat=$nat -v cpu=$cpu -v flt=$flt -v calls=$calls -v withf=$withf -v outf=$outf -v ptp=$ptp \
      -v shim=$shim -v r1=$r1 -v r2=$r2 -v r3=$r3 -v r4=$r4 -v r5=$r5 'BEGIN {printf "| %s | %s | %.2f | %d | %.1f | %d | %d | %.0f | %d | %d | %d | %d | %d | %d | %.2f |\n", w, a, nat/1e6, r1, cpu, r2, flt, shim, r5, calls, r3, outf, withf, r4, ptp/1e6}'
  done
done
echo
for w in larson xmalloc; do
  tp=$(order 3 nr) cpu=$(order 4 n) calls=$(order 6 n) withf=$(order 7 n) shim=$(order 10 n)
  for m in "shim cycles (no heapprof):$shim" "cycles in calls:$calls" "cycles with faults:$withf"; do
    for ref in "native throughput:$tp" "native CPU time per operation:$cpu"; do
      if [ "${ref#*:}" = "${m#*:}" ]; then
        echo "- $w, ${m%%:*} vs ${ref%%:*}: the rankings agree (cheapest first: ${m#*:})."
      else
        echo "- $w, ${m%%:*} vs ${ref%%:*}: the rankings differ: by ${ref%%:*} ${ref#*:}; by ${m%%:*} ${m#*:}."
      fi
    done
  done
done
exit $status
