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
# disturbed run is the best estimate).  For reference, the calls alone
# timed natively by bench/allocprof/rdtsc_shim.c (two RDTSCs around each
# malloc and free, nothing else): whether the ranking differs even without
# heapprof.  Both also give the larger of the malloc and free calls' parts
# of the pair: the pace of a pipeline whose allocating and freeing sides
# are different threads, like xmalloc's.  And the same profiled measures
# with the profile sampled (sample_bytes=524288: every call still timed,
# one object per 512 KiB recorded, the others without heapprof's
# per-object work: docs/run.md, "Sampled, on another allocator").  The
# runs are interleaved (run r of every allocator, then run r + 1) and
# every run's value is kept;
# bench/allocprof/rankings.py prints the markdown block: the table and, per
# workload, whether the rankings agree on every pair of allocators the
# reference tells apart (one better than the other in every run, run r of
# each compared with run r of the other: they were measured seconds apart).
# Knobs: BENCH_RUNS (default 5), BENCH_QUICK=1 (small sizes, 1 run),
# BUILD (heapprof's build tree, default build).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
B=${BUILD:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
OUT=${1:-$B/bench}
QUICK=${BENCH_QUICK:-0}
RUNS=${BENCH_RUNS:-5}
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

status=0
tsv=$dir/results.tsv
: >"$tsv"
# Runs are interleaved -- run r of every allocator, then run r + 1 -- so
# that each allocator's runs see the same mix of the machine's states (this
# VM has two speeds, and a dozen runs of one allocator in a row could all
# fall in one).  Every run's value is kept, one file per workload,
# allocator and measure; bench/allocprof/rankings.py takes the
# representative value and the run-to-run spread from them.
rm -rf "$dir/v" && mkdir -p "$dir/v"
for ((r = 0; r < RUNS; r++)); do
  for w in larson xmalloc; do
    args=$LARSON; [ $w = xmalloc ] && args=$XMALLOC
    for i in "${!names[@]}"; do
      a=${names[$i]} lib=${libs[$i]} pre=""
      [ "$lib" = system ] || pre=$lib
      v=$dir/v/$w.$a
      if LD_PRELOAD=$pre "$dir/bin/$w" $args >"$dir/native"; then
        awk '/_per_sec/ {print $2}' "$dir/native" >>"$v.native"
        awk '/^cpu_ns_per/ {print $2}' "$dir/native" >>"$v.cpu"
        awk '/minor_faults/ {print $2}' "$dir/native" >>"$v.faults"
      else
        echo "$w on $a failed" >&2; status=1
      fi
      # the calls alone, timed by a bare RDTSC shim (no heapprof)
      LD_PRELOAD="$dir/bin/rdtsc_shim.so $pre" "$dir/bin/$w" $args 2>&1 >/dev/null |
        awk -v v="$v" '$1 == "shim_cycles_per_pair" {print $2 >> (v ".shim")}
                       $1 == "shim_malloc_per_pair" {m = $2}
                       $1 == "shim_free_per_pair" {print (m > $2 ? m : $2) >> (v ".shimh")}'
      # profiled, every object (p = "") and sampled (p = "s."): per pair,
      # in the calls; the larger half; with the faults outside them; those
      # faults; the workload's throughput under heapprof run
      for p in "" s.; do
        opts=print_stats=1:cycle_sample_every=1
        [ -n "$p" ] && opts=$opts:sample_bytes=524288
        rm -rf "$dir/prof"/*
        if HEAPPROF_OPTIONS=$opts \
          "$H" run -o "$dir/prof" --allocator="$lib" -- "$dir/bin/$w" $args \
          >"$dir/out" 2>"$dir/err"; then
          awk -v tp="$(awk '/_per_sec/ {print $2}' "$dir/out")" -v v="$v.$p" '
            $1=="malloc_cycles"{m=$2} $1=="free_cycles"{f=$2} $1=="cycle_samples"{s=$2}
            $1=="faults_outside"{o=$2} $1=="fault_cycles"{c=$2}
            END {if (s) {printf "%.0f\n", (m + f) / (s / 2) >> (v "calls")
                         printf "%.0f\n", (m > f ? m : f) / (s / 2) >> (v "half")
                         printf "%.0f\n", (m + f + o * c) / (s / 2) >> (v "withf")
                         printf "%d\n", o >> (v "outf"); printf "%s\n", tp >> (v "profiled")}}' "$dir/err"
        else
          echo "$w on $a under heapprof run${p:+ (sampled)} failed: $(tail -3 "$dir/err")" >&2; status=1
        fi
      done
    done
  done
done
list() { [ -e "$1" ] && paste -sd, "$1"; }
for w in larson xmalloc; do
  for a in "${names[@]}"; do
    v=$dir/v/$w.$a
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$w" "$a" "$(list $v.native)" "$(list $v.cpu)" \
      "$(list $v.faults)" "$(list $v.calls)" "$(list $v.withf)" "$(list $v.outf)" "$(list $v.profiled)" \
      "$(list $v.shim)" "$(list $v.shimh)" "$(list $v.half)" \
      "$(list $v.s.calls)" "$(list $v.s.half)" "$(list $v.s.withf)" "$(list $v.s.profiled)" >>"$tsv"
  done
done

echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') by bench/allocprof/allocators.sh (\`BENCH_SECTIONS=allocators\`$([ "$QUICK" = 1 ] && echo '; BENCH_QUICK=1: small sizes, 1 run, not for comparison')), load average $(cut -d' ' -f1-3 /proc/loadavg) before the table was printed, $(nproc) CPUs. \`larson $LARSON\` and \`xmalloc $XMALLOC\` (bench/micro; built \`$CC ${F//$root\//}\`), $RUNS runs of each measure."
echo
python3 "$root/bench/allocprof/rankings.py" "$tsv" || status=1
exit $status
