#!/usr/bin/env bash
# run.sh — heapprof's benchmark runner (`make bench`).
#
# Builds every workload three ways with clang-19 -O2 and the same flags
#   base      clang-19                                     (no profiler)
#   upstream  clang-19 -fmemory-profile                    (LLVM MemProf 19)
#   heapprof  build/bin/heapprof-clang -fheapprof=DIR      (this project)
# runs them alternately (base upstream heapprof, base upstream heapprof, ...)
# after one warm-up each, and writes medians and ratios to baseline into
# docs/performance.md between <!-- bench:begin --> and <!-- bench:end -->.
# A second table compares the allocators alone (malloc_pairs linked against
# glibc, heapprof's runtime archive, MemProf's runtime; no instrumentation),
# a third their resident memory after frees (rss_release, glibc against
# heapprof's runtime with and without release_freed_pages).
#
# Run from anywhere; paths are relative to the repository root. Knobs (all
# environment variables; bench/README.md says more):
#   BENCH_RUNS=5           measured runs per variant (after 1 warm-up)
#   BENCH_QUICK=1          tiny sizes, 1 run: checks the scripts in ~1 min;
#                          writes build/bench/results.md, not the docs
#   BENCH_TIMEOUT=60       seconds before one run is killed ("timeout")
#   BENCH_VARIANT_BUDGET=60   seconds of measured runs per variant per
#                          workload; a slower variant gets fewer runs (n<N)
#   BENCH_ALLOC_VARIANT_BUDGET=10   the same for the allocator-only rows
#   BENCH_DEADLINE=840     seconds after start; workloads not yet started
#                          then are skipped (and say so), keeping make bench
#                          under 15 minutes on 2 cores
#   BENCH_ONLY=REGEX       only workloads whose name matches (grep -E)
#   BENCH_NO_ALLOC=1       skip the allocator-only table
#   BENCH_SECTIONS="main alloc rss report unwind allocators fshare opcost peak sampled"   the tables to measure (and
#                          rewrite in the doc); e.g. BENCH_SECTIONS=rss runs
#                          only the RSS rows and leaves the other tables alone
#   BENCH_NO_REPORT=1      skip heapprof report at scale (bench/report/run.sh;
#                          the same as leaving "report" out of BENCH_SECTIONS)
#   BENCH_REPORT_CONTEXTS=100000   contexts in that profile
#   BENCH_REPORT_RUNS=2    runs per command there (the fastest is shown)
#   BENCH_DOC=FILE         where the tables go (default docs/performance.md)
#   BENCH_HEAPPROF_OPTIONS, BENCH_MEMPROF_OPTIONS   extra runtime options
#   BENCH_ALLOC_HEAPPROF_OPTIONS  HEAPPROF_OPTIONS for the allocator-only rows
#   BENCH_JOBS=nproc       parallel compile jobs
# Exit status: 0 when every built variant ran, produced the baseline's
# output and (if profiled) a non-empty profile; 1 otherwise. A variant that
# could not be built is reported loudly and in the table, but is not an
# error unless BENCH_STRICT=1.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# The commit the tables were measured at; "+ uncommitted changes" when the
# code (not docs/, which a run rewrites) had changes not yet committed: the
# tables then describe those.
hp_rev() {
  local c
  c=$(git -C "$root" rev-parse --short HEAD 2>/dev/null) || { echo "no commit"; return; }
  [ -n "$(git -C "$root" status --porcelain -- compiler-rt llvm clang tools bench scripts CMakeLists.txt 2>/dev/null)" ] &&
    c="$c + uncommitted changes"
  echo "$c"
}
cd "$root" || exit 1

QUICK=${BENCH_QUICK:-0}
RUNS=${BENCH_RUNS:-5}
[ "$QUICK" = 1 ] && RUNS=${BENCH_RUNS:-1}
TIMEOUT=${BENCH_TIMEOUT:-60}
VBUDGET=${BENCH_VARIANT_BUDGET:-60}
ABUDGET=${BENCH_ALLOC_VARIANT_BUDGET:-10}
DEADLINE=${BENCH_DEADLINE:-840}
ONLY=${BENCH_ONLY:-}
JOBS=${BENCH_JOBS:-$(nproc)}
STRICT=${BENCH_STRICT:-0}
SECTIONS=" ${BENCH_SECTIONS:-main alloc rss report unwind allocators fshare opcost peak sampled} "
[ "${BENCH_NO_REPORT:-0}" = 1 ] && SECTIONS=${SECTIONS/ report / }
[ "${BENCH_NO_ALLOC:-0}" = 1 ] && SECTIONS=${SECTIONS/ alloc / }
want() { [[ $SECTIONS == *" $1 "* ]]; }
if [ -n "${BENCH_DOC:-}" ]; then DOC=$BENCH_DOC
elif [ "$QUICK" = 1 ]; then DOC=${BUILD:-build}/bench/results.md
else DOC=docs/performance.md; fi

B=${BUILD:-build}           # heapprof's build tree (the Makefile's BUILD)
CC=${BENCH_CC:-clang-19}
HPCC=${BENCH_HEAPPROF_CC:-$B/bin/heapprof-clang}
RTLIB=$B/lib/heapprof/libheapprof_rt.a
COMMON="-O2 -gline-tables-only -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer"

case $B in /*) OUT=$B/bench ;; *) OUT=$root/$B/bench ;; esac
OUTREL=${OUT#"$root"/}        # for messages
BIN=$OUT/bin
LOGS=$OUT/logs
RUNDIR=$OUT/run            # cwd of every run; MemProf's log_path points here
HPDIR=$OUT/prof-heapprof   # the -fheapprof=DIR compiled into heapprof builds
SRC_CACHE=$root/bench/.cache/src
TSV=$OUT/results.tsv
rm -rf "$OUT/refs" "$OUT"/ref.*.out
mkdir -p "$BIN" "$LOGS" "$OUT/refs"
: >"$TSV"
: >"$OUT/commands.txt"
: >"$OUT/builds.txt"       # the builds this run wanted (BENCH_SECTIONS)

PROBLEMS=$OUT/problems.txt   # a file: run_one runs in a subshell
: >"$PROBLEMS"
log() { printf '[bench] %s\n' "$*"; }
loud() { # a problem worth a banner: to stderr now, and into the final summary
  printf '\n[bench] !!!!!!!!!! %s\n\n' "$*" >&2
  printf '%s\n' "$*" >>"$PROBLEMS"
}
fail() { loud "ERROR: $*"; }
oneline() { tr '\t\n' '  ' | cut -c1-${1:-160}; }

t_start=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

# ---------------------------------------------------------------- timer ---
TIMEIT=$BIN/timeit
if [ ! -x "$TIMEIT" ] || [ bench/timeit.c -nt "$TIMEIT" ]; then
  $CC -O2 -Wall -o "$TIMEIT" bench/timeit.c || { echo "cannot build bench/timeit.c" >&2; exit 1; }
fi

# ---------------------------------------------------------------- sizes ---
# One place for every workload's size. QUICK: tiny, for checking scripts.
if [ "$QUICK" = 1 ]; then
  PAIRS=20000 BT=8 HT=20000 LL="10000 2" STREAM="100000 2" REALLOC=1 VECTOR="1 1"
  LUA_SCALE=1 SQL_SIZE=1 ALLOC_PAIRS=20000 ALLOC_UP_PAIRS=2000
  LARSON="2 4 1000 20000 8 1000" XMALLOC="1 50 200 8 512"
  RSS_BIG=1000 RSS_SMALL=100000 SPARSE="16 1"
else
  PAIRS=2000000 BT=15 HT=4000000 LL="1000000 10" STREAM="4000000 20" REALLOC=40 VECTOR="8 10"
  LUA_SCALE=8 SQL_SIZE=20 ALLOC_PAIRS=2000000 ALLOC_UP_PAIRS=500000
  LARSON="2 20 1000 100000 8 1000" XMALLOC="1 500 1000 8 512"
  RSS_BIG=3000 RSS_SMALL=1000000 SPARSE="512 4"
fi

# ---------------------------------------------------------------- sources ---
src_reason=""
if want main; then
log "sources: bench/fetch-src.sh (Debian source packages lua5.4, sqlite3)"
if ! bench/fetch-src.sh "$SRC_CACHE" >"$LOGS/fetch-src.log" 2>&1; then
  src_reason="sources unavailable: $(grep -m1 ERROR "$LOGS/fetch-src.log" | oneline 120) (log: $OUTREL/logs/fetch-src.log)"
  loud "bench/fetch-src.sh failed: Lua and SQLite workloads are not built. $src_reason"
fi
LUA_DIR=$(ls -d "$SRC_CACHE"/lua5.4-[0-9]*/src 2>/dev/null | head -1)
AMAL=$SRC_CACHE/sqlite3-amalgamation
mkdir -p "$OUT/lua-include"
# Debian's luaconf.h patch includes a header its packaging generates.
echo '#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"' >"$OUT/lua-include/lua5.4-deb-multiarch.h"
fi

# ---------------------------------------------------------------- builds ---
# spec ID: sets SRCS (files), XFLAGS, LIBS for one program.
spec() {
  case $1 in
    lua)
      SRCS=$(ls "$LUA_DIR"/*.c 2>/dev/null | grep -v '/luac\.c$' | tr '\n' ' ')
      XFLAGS="-DLUA_USE_LINUX -I$OUT/lua-include" LIBS="-lm -ldl" ;;
    speedtest1)
      SRCS="$AMAL/speedtest1.c $AMAL/sqlite3.c"
      XFLAGS="-I$AMAL -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION" LIBS="-lm" ;;
    *)
      SRCS="bench/micro/$1.c" XFLAGS="-Ibench/micro -pthread" LIBS="-pthread" ;;
  esac
}

# cmd_for ID VARIANT OUT: the exact build command (one bash -c string).
cmd_for() {
  local id=$1 v=$2 o=$3
  spec "$id"
  case $v in
    base) echo "$CC $COMMON $XFLAGS $SRCS -o $o $LIBS" ;;
    upstream) echo "$CC $COMMON -fmemory-profile $XFLAGS $SRCS -o $o $LIBS" ;;
    heapprof) echo "$HPCC $COMMON -fheapprof=$HPDIR $XFLAGS $SRCS -o $o $LIBS" ;;
    hprt) echo "$CC $COMMON $XFLAGS $SRCS -o $o -Wl,--whole-archive $RTLIB -Wl,--no-whole-archive -lpthread -ldl -lm" ;;
    uprt) echo "$CC $COMMON $XFLAGS -c $SRCS -o $o.o && $CC -fmemory-profile $o.o -o $o $LIBS" ;;
  esac
}

# deps_newer OUT FILES...: true if OUT is missing or older than any file.
deps_newer() {
  local o=$1; shift
  [ -e "$o" ] || return 0
  local f
  for f in "$@"; do [ -e "$f" ] && [ "$f" -nt "$o" ] && return 0; done
  return 1
}

# build ID VARIANT: writes $BIN/ID.VARIANT and $BIN/ID.VARIANT.status, which
# holds "ok" or "not built: <reason>". Skips work that is up to date.
build() {
  local id=$1 v=$2 o=$BIN/$1.$2
  local st=$o.status blog=$LOGS/build.$1.$2.log
  echo "$1.$2" >>"$OUT/builds.txt"
  spec "$id"
  if [ -n "$src_reason" ] && { [ "$id" = lua ] || [ "$id" = speedtest1 ]; }; then
    echo "not built: $src_reason" >"$st"; return
  fi
  if [ -z "$SRCS" ]; then echo "not built: no sources for $id" >"$st"; return; fi
  local extra=()
  case $v in
    heapprof)
      if [ ! -x "$HPCC" ]; then
        echo "not built: $HPCC does not exist (heapprof driver not built yet)" >"$st"; return
      fi
      extra=("$HPCC" "$B"/lib/heapprof/*) ;;
    hprt)
      if [ ! -f "$RTLIB" ]; then
        echo "not built: $RTLIB does not exist (heapprof runtime not built yet)" >"$st"; return
      fi
      extra=("$RTLIB") ;;
  esac
  local cmd; cmd=$(cmd_for "$id" "$v" "$o")
  printf '%s.%s: %s\n' "$id" "$v" "$cmd" >>"$OUT/commands.txt"
  # shellcheck disable=SC2086
  if [ "$(cat "$o.cmd" 2>/dev/null)" = "$cmd" ] && [ "$(cat "$st" 2>/dev/null)" = ok ] &&
     ! deps_newer "$o" $SRCS bench/micro/bench_common.h "${extra[@]}"; then
    return
  fi
  rm -f "$o" "$o.cmd"
  local t0; t0=$(date +%s)
  if bash -c "$cmd" >"$blog" 2>&1 && [ -x "$o" ]; then
    echo ok >"$st"; echo "$cmd" >"$o.cmd"
    log "built $id.$v ($(($(date +%s) - t0)) s)"
  else
    local why; why=$(grep -m1 -E 'error|Error|ERROR' "$blog" | oneline 140)
    echo "not built: compile failed: ${why:-see log} ($OUTREL/logs/build.$id.$v.log)" >"$st"
  fi
}

micro=(malloc_pairs bt ht ll stream realloc_growth vector_growth sparse larson xmalloc empty)
jobs_run=0
spawn() { # run "build ID V" with at most $JOBS in flight
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
  build "$@" &
}
log "building workloads ($JOBS jobs): base, upstream, heapprof; allocator-only variants"
t_build=$(date +%s)
if want main; then
  for v in base upstream heapprof; do spawn speedtest1 $v; done
  for v in base upstream heapprof; do spawn lua $v; done
  for id in "${micro[@]}"; do for v in base upstream heapprof; do spawn "$id" $v; done; done
fi
if want alloc; then
  want main || spawn malloc_pairs base
  spawn malloc_pairs hprt
  spawn malloc_pairs uprt
fi
if want rss; then
  spawn rss_release base
  spawn rss_release hprt
fi
wait
t_build=$(($(date +%s) - t_build))
log "builds done in ${t_build} s"

notbuilt=$(for b in $(sort -u "$OUT/builds.txt"); do
  f=$BIN/$b.status
  s=$(cat "$f"); [ "$s" = ok ] || printf '\n    %s: %s' "$(basename "$f" .status)" "$s"
done)
[ -n "$notbuilt" ] && loud "NOT BUILT (these variants are missing from the measurements):$notbuilt"

# ---------------------------------------------------------------- runs ---
# run_one SECTION NAME VARIANT BINARY ARGS PHASE IDX OPS CHECK
# One timed run in a fresh run directory; appends one line to $TSV and
# prints the wall time (or the failure status) on stdout.
run_one() {
  local sec=$1 name=$2 v=$3 bin=$4 args=$5 phase=$6 idx=$7 ops=$8 check=$9
  rm -rf "$RUNDIR" "$HPDIR"
  mkdir -p "$RUNDIR" "$HPDIR"
  local out=$OUT/last.out err=$OUT/last.err
  local env=(env -u MEMPROF_OPTIONS -u HEAPPROF_OPTIONS)
  local expect_profile=0
  case $v in
    upstream | uprt)
      env+=("MEMPROF_OPTIONS=log_path=$RUNDIR/memprof${BENCH_MEMPROF_OPTIONS:+:$BENCH_MEMPROF_OPTIONS}")
      expect_profile=1 ;;
    heapprof)
      [ -n "${BENCH_HEAPPROF_OPTIONS:-}" ] && env+=("HEAPPROF_OPTIONS=$BENCH_HEAPPROF_OPTIONS")
      expect_profile=1 ;;
    hprt)
      [ -n "${BENCH_ALLOC_HEAPPROF_OPTIONS:-}" ] && env+=("HEAPPROF_OPTIONS=$BENCH_ALLOC_HEAPPROF_OPTIONS") ;;
    hpoff)
      # heapprof's allocator alone: no stacks, shadow or profile.
      env+=("HEAPPROF_OPTIONS=profiling=0${BENCH_ALLOC_HEAPPROF_OPTIONS:+:$BENCH_ALLOC_HEAPPROF_OPTIONS}") ;;
    hprel)
      # heapprof's runtime giving freed pages back (phkmalloc's H).
      env+=("HEAPPROF_OPTIONS=release_freed_pages=1${BENCH_ALLOC_HEAPPROF_OPTIONS:+:$BENCH_ALLOC_HEAPPROF_OPTIONS}") ;;
  esac
  local res
  # shellcheck disable=SC2086
  res=$(cd "$RUNDIR" && "$TIMEIT" -t "$TIMEOUT" -o "$out" -e "$err" -- "${env[@]}" "$bin" $args)
  local wall cpu rss st
  read -r wall cpu rss st <<<"$res"
  # Profile size: every file the run left in its run directory or the
  # heapprof profile directory (both were empty before the run).
  local bytes nfiles
  read -r bytes nfiles < <(find "$RUNDIR" "$HPDIR" -type f -printf '%s\n' | awk '{s += $1; n++} END {print s + 0, n + 0}')
  local note=""
  if [ "$st" != ok ]; then
    note="$(tail -c 300 "$err" | oneline 200)"
    fail "$name [$v]: run $phase/$idx ended with $st: $note"
  else
    if [ "$expect_profile" = 1 ] && [ "$bytes" -eq 0 ]; then
      st=noprofile
      fail "$name [$v]: run $phase/$idx wrote no profile (or an empty one)"
    fi
    if [ "$check" = 1 ]; then
      local ref=$OUT/refs/$(printf '%s' "$name|$args" | md5sum | cut -c1-12).out
      if [ ! -e "$ref" ]; then cp "$out" "$ref"
      elif ! cmp -s "$out" "$ref"; then
        st=wrongoutput
        cp "$out" "$LOGS/wrong-output.$v.$(printf '%s' "$name" | tr -c 'A-Za-z0-9' _).out"
        fail "$name [$v]: output differs from the first run's (saved in $OUTREL/logs/)"
      fi
    fi
  fi
  # rss rows: the resident KiB the program saw after its first phase's frees.
  local extra=""
  [ "$sec" = rss ] && extra=$(sed -n 's/.*resident after phase 1 \([0-9]*\) KiB.*/\1/p' "$err" | head -1)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$sec" "$name" "$v" "$phase" "$idx" \
    "$wall" "$cpu" "$rss" "$bytes" "$nfiles" "$st" "$ops" "$note" "$extra" >>"$TSV"
  rm -rf "$RUNDIR" "$HPDIR"
  if [ "$st" = ok ]; then echo "$wall"; else echo "$st"; fi
}

# measure SECTION NAME CHECK, with the variants in the arrays VN (names),
# VB (binaries, by build id), VA (arguments), VO (operations, for ns/op).
# Warm-up once each, then RUNS rounds of VN in order.
measure() {
  local sec=$1 name=$2 check=$3 budget=$VBUDGET
  [ "$sec" = main ] || budget=$ABUDGET
  if [ -n "$ONLY" ] && ! grep -qE -- "$ONLY" <<<"$name"; then return; fi
  local n=${#VN[@]} i r
  if [ $(($(date +%s) - t_start)) -gt "$DEADLINE" ]; then
    for ((i = 0; i < n; i++)); do
      printf '%s\t%s\t%s\tnotbuilt\t0\t\t\t\t\t\t%s\t%s\t\n' "$sec" "$name" "${VN[i]}" \
        "skipped: past BENCH_DEADLINE=${DEADLINE} s" "${VO[i]}" >>"$TSV"
    done
    loud "$name: skipped, past BENCH_DEADLINE=${DEADLINE} s"
    return
  fi
  local nruns=() alive=()
  for ((i = 0; i < n; i++)); do
    local st; st=$(cat "$BIN/${VB[i]}.status" 2>/dev/null || echo "not built: no build")
    if [ "$st" != ok ]; then
      printf '%s\t%s\t%s\tnotbuilt\t0\t\t\t\t\t\t%s\t%s\t\n' "$sec" "$name" "${VN[i]}" "$st" "${VO[i]}" >>"$TSV"
      alive[i]=0
    else
      alive[i]=1
    fi
  done
  printf '[bench] %-28s warm-up:' "$name"
  for ((i = 0; i < n; i++)); do
    [ "${alive[i]}" = 1 ] || { printf ' %s=not-built' "${VN[i]}"; continue; }
    local w; w=$(run_one "$sec" "$name" "${VN[i]}" "$BIN/${VB[i]}" "${VA[i]}" warm 0 "${VO[i]}" "$check")
    printf ' %s=%s' "${VN[i]}" "$w"
    if [[ $w =~ ^[0-9.]+$ ]]; then
      # Fewer runs for a variant whose N runs would blow the budget.
      nruns[i]=$(awk -v w="$w" -v n="$RUNS" -v b="$budget" \
        'BEGIN { k = (w * n > b) ? int(b / (w > 0 ? w : 1)) : n; if (k < 1) k = 1; print k }')
    else
      alive[i]=0
    fi
  done
  echo
  for ((r = 1; r <= RUNS; r++)); do
    printf '[bench] %-28s run %d/%d:' "$name" "$r" "$RUNS"
    for ((i = 0; i < n; i++)); do
      [ "${alive[i]}" = 1 ] && [ "$r" -le "${nruns[i]}" ] || continue
      local w; w=$(run_one "$sec" "$name" "${VN[i]}" "$BIN/${VB[i]}" "${VA[i]}" run "$r" "${VO[i]}" "$check")
      printf ' %s=%s' "${VN[i]}" "$w"
      [[ $w =~ ^[0-9.]+$ ]] || alive[i]=0
    done
    echo
  done
}

three_way() { # NAME BUILD_ID CHECK ARGS [OPS]
  VN=(base upstream heapprof)
  VB=("$2.base" "$2.upstream" "$2.heapprof")
  VA=("$4" "$4" "$4")
  VO=("${5:-0}" "${5:-0}" "${5:-0}")
  measure main "$1" "$3"
}

t_runs=$(date +%s)
log "measuring: $RUNS run(s) per variant after 1 warm-up, timeout ${TIMEOUT} s"
if want main; then
three_way "empty main" empty 1 ""
three_way "malloc_pairs 64 1 $PAIRS" malloc_pairs 1 "64 1 $PAIRS"
three_way "malloc_pairs 4096 1 $PAIRS" malloc_pairs 1 "4096 1 $PAIRS"
three_way "malloc_pairs 64 8 $PAIRS" malloc_pairs 1 "64 8 $PAIRS"
three_way "bt $BT" bt 1 "$BT"
three_way "ht $HT" ht 1 "$HT"
three_way "ll $LL" ll 1 "$LL"
three_way "stream $STREAM" stream 1 "$STREAM"
three_way "realloc_growth $REALLOC" realloc_growth 1 "$REALLOC"
three_way "vector_growth $VECTOR" vector_growth 1 "$VECTOR"
three_way "sparse $SPARSE" sparse 1 "$SPARSE"
three_way "lua alloc.lua $LUA_SCALE" lua 1 "$root/bench/lua/alloc.lua $LUA_SCALE"
# speedtest1 prints its own timings, so its output is not compared.
three_way "sqlite speedtest1 --size $SQL_SIZE" speedtest1 0 "--memdb --size $SQL_SIZE"
# larson and xmalloc print their throughput, so their output is not
# compared either (the checksum line does not depend on the allocator).
three_way "larson $LARSON" larson 0 "$LARSON"
three_way "xmalloc $XMALLOC" xmalloc 0 "$XMALLOC"
fi

if want alloc; then
  log "allocator only: malloc_pairs without instrumentation (ns per malloc+free pair)"
  for size in 16 64 256 1024 4096 65536; do
    for thr in 1 2 8; do
      VN=(glibc hpoff hprt) VB=(malloc_pairs.base malloc_pairs.hprt malloc_pairs.hprt)
      VA=("$size $thr $ALLOC_PAIRS" "$size $thr $ALLOC_PAIRS" "$size $thr $ALLOC_PAIRS")
      VO=("$ALLOC_PAIRS" "$ALLOC_PAIRS" "$ALLOC_PAIRS")
      if [ "$thr" = 1 ]; then # MemProf's runtime is ~1 µs a pair: fewer pairs
        VN+=(uprt) VB+=(malloc_pairs.uprt) VA+=("$size $thr $ALLOC_UP_PAIRS") VO+=("$ALLOC_UP_PAIRS")
      fi
      measure alloc "$size B x $thr thr" 1
    done
  done
fi

if want rss; then
  log "resident memory after frees: rss_release, uninstrumented (peak RSS)"
  for w in "big $RSS_BIG" "small $RSS_SMALL"; do
    VN=(glibc hprt hprel) VB=(rss_release.base rss_release.hprt rss_release.hprt)
    VA=("$w" "$w" "$w") VO=(0 0 0)
    measure rss "rss_release $w" 1
  done
fi
t_runs=$(($(date +%s) - t_runs))

# ------------------------------------------------------ heapprof report ---
# Post-processing at scale: report, merge, diff, flamegraph, pprof, html and show
# on profiles of 100,000 contexts.
repblock=$OUT/block-report.md
if want report; then
  log "heapprof report at scale: bench/report/run.sh"
  {
    echo "heapprof's commands on profiles of ${BENCH_REPORT_CONTEXTS:-$([ "$QUICK" = 1 ] && echo 10000 || echo 100000)} contexts (bench/report/run.sh: the widget example's profile grown by bench/report/gen-profile.py to that many contexts of 8 real return addresses each; BASE, and NEW the same program after a change), measured $(date -u '+%Y-%m-%d %H:%M UTC')$(want main && echo ' after the runs above'), heapprof at $(hp_rev); the fastest of ${BENCH_REPORT_RUNS:-$([ "$QUICK" = 1 ] && echo 1 || echo 2)} runs each: wall and cpu seconds, peak RSS (wait4 ru_maxrss) of the whole command, input = the profiles it reads:"
    echo
    BUILD=$B bench/report/run.sh "$OUT" "$TIMEIT" 2>"$LOGS/report-scale.log" ||
      { fail "heapprof report at scale failed (log: $OUTREL/logs/report-scale.log)"; echo "(failed: see $OUTREL/logs/report-scale.log)"; }
  } >"$repblock"
fi

# Allocator profiler: heap utilization and false sharing, on and off.
fsblock=$OUT/block-fshare.md
if want fshare; then
  log "heap utilization and false sharing: bench/allocprof/fshare.sh"
  { echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') by bench/allocprof/fshare.sh (\`BENCH_SECTIONS=fshare\` runs only this table): lowest CPU seconds of several runs; *off* is heap_utilization=0:false_sharing=0."; echo
    BUILD=$B bench/allocprof/fshare.sh "$OUT" "$TIMEIT" 2>"$LOGS/fshare.log" ||
      { fail "bench/allocprof/fshare.sh failed (log: $OUTREL/logs/fshare.log)"; echo "(failed)"; }
  } >"$fsblock"
fi

# The allocator profiler's features on and off (bench/allocprof/opcost.sh).
ocblock=$OUT/block-opcost.md
if want opcost; then
  log "allocator profiler costs: bench/allocprof/opcost.sh"
  { echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') by bench/allocprof/opcost.sh (\`BENCH_SECTIONS=opcost\` runs only this table), heapprof at $(hp_rev):"; echo
    BUILD=$B bench/allocprof/opcost.sh "$OUT" 2>"$LOGS/opcost.log" || echo "(failed: see $OUTREL/logs/opcost.log)"; } >"$ocblock"
fi

# The peak tracker on and off (bench/allocprof/peak.sh).
pblock=$OUT/block-peak.md
want peak && { log "peak tracker: bench/allocprof/peak.sh"
  { echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') by bench/allocprof/peak.sh (\`BENCH_SECTIONS=peak\` runs only this table), heapprof at $(hp_rev): CPU seconds, the fastest of several alternating runs; cost = against peak=0; snapshots = sums of the live tables (heap_growth: a 256 MiB heap)."; echo
    BUILD=$B bench/allocprof/peak.sh "$OUT" "$TIMEIT" 2>"$LOGS/peak.log" ||
      { fail "bench/allocprof/peak.sh failed (log: $OUTREL/logs/peak.log)"; echo "(failed: see $OUTREL/logs/peak.log)"; }; } >"$pblock"; }

# ---------------------------------------------------------------- report ---
hp_commit=$(hp_rev)
hp_state="$(cat "$BIN/bt.heapprof.status" 2>/dev/null)"
model=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
total=$(($(date +%s) - t_start))

block=$OUT/block-main.md
want main && {
  echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') by \`make bench\` (bench/run.sh$([ "$QUICK" = 1 ] && echo ', BENCH_QUICK=1: tiny sizes, not for comparison'))."
  echo
  echo "- Machine: $(nproc) CPUs, $model, Linux $(uname -r), $(awk '/MemTotal/ {printf "%.0f GiB RAM", $2 / 1048576}' /proc/meminfo), $(ldd --version 2>/dev/null | head -1 | sed 's/^ldd //')"
  echo "- Compiler: $($CC --version | head -1); heapprof at $hp_commit ($([ "$hp_state" = ok ] && echo "heapprof variant built" || echo "heapprof variant: $hp_state"))"
  echo "- Runs: $RUNS measured per variant after 1 warm-up, variants alternating; medians (wall min–max in the detail table). Timeout ${TIMEOUT} s per run; a variant slower than ${VBUDGET} s for all its runs gets fewer (n)."
  echo "- Load average at start / end: $load_start / $(cut -d' ' -f1-3 /proc/loadavg). The machine is shared: other work inflates wall times (wall > cpu for single-threaded rows), so the cpu ratio is the steadier figure."
  echo "- Ratios are variant median / baseline median; *fastest runs*: the variant's fastest cpu time / the baseline's (the machine's speed drifts during a run; the least disturbed runs track instruction counts best). Peak = peak RSS (wait4 ru_maxrss). Profile = bytes the run wrote (MemProf raw file via \`MEMPROF_OPTIONS=log_path=\`; heapprof's \`-fheapprof=\` directory), median; every profiled run is checked to write a non-empty profile, and every run's output is checked against the baseline's checksum."
  echo "- Whole \`make bench\` took ${total} s (builds ${t_build} s, runs ${t_runs} s)."
  echo
  awk -F'\t' -v section=main -f bench/report.awk "$TSV"
  echo
  echo "Commands (\`\$SRC\` is the workload's sources, see bench/README.md; \`\$F\` = \`$COMMON\`):"
  echo
  echo '```'
  echo "base:      $CC \$F \$SRC -o prog"
  echo "upstream:  $CC \$F -fmemory-profile \$SRC -o prog"
  echo "           MEMPROF_OPTIONS=log_path=$OUTREL/run/memprof ./prog ARGS"
  echo "heapprof:  $HPCC \$F -fheapprof=$OUTREL/prof-heapprof \$SRC -o prog${BENCH_HEAPPROF_OPTIONS:+   (run with HEAPPROF_OPTIONS=$BENCH_HEAPPROF_OPTIONS)}"
  echo "micro:     SRC=bench/micro/NAME.c -Ibench/micro -pthread"
  echo "lua:       SRC=\$(Debian lua5.4 source)/src/*.c except luac.c, -DLUA_USE_LINUX, -lm -ldl; run: ./lua bench/lua/alloc.lua $LUA_SCALE"
  echo "sqlite:    SRC=speedtest1.c sqlite3.c (amalgamation made from Debian sqlite3 source), -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION, -lm; run: ./speedtest1 --memdb --size $SQL_SIZE"
  echo '```'
  echo
  echo "Every exact command line is in $OUTREL/commands.txt after a run; per-run raw numbers in $OUTREL/results.tsv."
} >"$block"

# The cost of one allocation stack per unwinder (bench/micro/unwind.c):
# heapprof's frame-pointer walk, its CFI walk and libunwind's unw_backtrace.
ublock=$OUT/block-unwind.md
want unwind && {
  UNW_DEPTH=30 UNW_ITERS=200000
  [ "$QUICK" = 1 ] && UNW_ITERS=20000
  ucmd="$CC $COMMON bench/micro/unwind.c -Wl,--whole-archive $RTLIB -Wl,--no-whole-archive -lunwind -lpthread -ldl -lm -o $BIN/unwind"
  log "unwind: $ucmd"
  if bash -c "$ucmd" >"$LOGS/unwind.build.log" 2>&1; then
    : >"$OUT/unwind.txt"
    for r in $(seq "$RUNS"); do
      "$BIN/unwind" "$UNW_DEPTH" "$UNW_ITERS" >>"$OUT/unwind.txt" 2>>"$LOGS/unwind.run.log" ||
        fail "bench/micro/unwind.c run $r failed (log: $OUTREL/logs/unwind.run.log)"
    done
    {
      echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') by bench/run.sh (\`BENCH_SECTIONS=unwind\` runs only this table$([ "$QUICK" = 1 ] && echo '; BENCH_QUICK=1: few iterations, not for comparison')). \`unwind $UNW_DEPTH $UNW_ITERS\` (bench/micro/unwind.c, built with \`${ucmd/-o $BIN\/unwind/-o unwind}\`): one stack taken $UNW_ITERS times from $UNW_DEPTH frames deep, median of $RUNS runs. *fp-frames*: every frame has a frame pointer; *through-libc*: the same below a qsort comparator, so frames of libc (no frame pointers) are on the stack. *fp* = hp_unwind_fp (frame pointers only), *cfi* = hp_unwind (CFI recipes cached per return address, what heapprof uses), *libunwind* = Debian libunwind's unw_backtrace with UNW_CACHE_PER_THREAD. Frames = the frames each returned (libunwind's include the measuring function and libc's start-up frames; fp's through libc lose callers)."
      echo
      echo "| stack | unwinder | ns per stack | frames |"
      echo "|---|---|---:|---:|"
      # median per (stack, unwinder), in the order the program prints them
      awk '{print NR"\t"$2"\t"$3"\t"$4"\t"$5}' "$OUT/unwind.txt" | sort -t"$(printf '\t')" -k2,3 -k4,4n |
        awk -F'\t' '{k=$2" "$3; if (!(k in first)) {first[k]=$1; o[k]=""}; v[k]=v[k]" "$4; f[k]=$5; c[k]++}
          END {for (k in c) {split(substr(v[k],2),a," "); split(k,kk," ");
            printf "%d\t| %s | %s | %s | %s |\n", first[k], kk[1], kk[2], a[int((c[k]+1)/2)], f[k]}}' |
        sort -n | cut -f2-
    } >"$ublock"
  else
    fail "bench/micro/unwind.c did not build (needs libunwind-dev; log: $OUTREL/logs/unwind.build.log)"
    echo "Not measured: bench/micro/unwind.c did not build (libunwind-dev missing?)." >"$ublock"
  fi
}

ablock=$OUT/block-alloc.md
want alloc && {
  {
    echo "Allocator only, measured with the tables above: \`malloc_pairs SIZE THREADS PAIRS\` compiled *without* instrumentation, linked against glibc, heapprof's runtime (\`-Wl,--whole-archive $RTLIB -Wl,--no-whole-archive -lpthread -ldl -lm\`) run twice — as the allocator alone with \`HEAPPROF_OPTIONS=profiling=0\` (no stacks, shadow or profile), and with profiling on (${BENCH_ALLOC_HEAPPROF_OPTIONS:+HEAPPROF_OPTIONS=$BENCH_ALLOC_HEAPPROF_OPTIONS}${BENCH_ALLOC_HEAPPROF_OPTIONS:-default options}: stacks, HIBs and the profile, but no access instrumentation) — and MemProf's runtime (object compiled without \`-fmemory-profile\`, linked with it; 1 thread only, $ALLOC_UP_PAIRS pairs instead of $ALLOC_PAIRS). Figures are ns per malloc+free pair = median wall / pairs (whole process, start-up included); up to $RUNS runs, fewer for a variant slower than ${ABUDGET} s for all of them."
    echo
    awk -F'\t' -v section=alloc -f bench/report.awk "$TSV"
  }
} >"$ablock"

rblock=$OUT/block-rss.md
want rss && {
  echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') by bench/run.sh (\`BENCH_SECTIONS=rss\` runs only this table$([ "$QUICK" = 1 ] && echo '; BENCH_QUICK=1: small counts, not for comparison')); heapprof at $hp_commit. \`rss_release MODE COUNT\` (bench/micro/rss_release.c) compiled *without* instrumentation, linked against glibc and against heapprof's runtime (profiling on, default options), the latter run again with \`HEAPPROF_OPTIONS=release_freed_pages=1\`. Peak = peak RSS (wait4 ru_maxrss), median of up to $RUNS runs; *after phase 1* = resident set right after the first phase's frees (/proc/self/statm, printed by the program), median."
  echo
  awk -F'\t' -v section=rss -f bench/report.awk "$TSV"
} >"$rblock"

# Splice a block between <!-- TAG:begin --> and <!-- TAG:end --> in $DOC.
splice() { # TAG BLOCKFILE
  local tag=$1 blockf=$2 tmp
  tmp=$(mktemp)
  awk -v b="<!-- $tag:begin -->" -v e="<!-- $tag:end -->" -v f="$blockf" '
    $0 == b { print; while ((getline l < f) > 0) print l; skip = 1; next }
    $0 == e { skip = 0 }
    !skip { print }' "$DOC" >"$tmp" && cat "$tmp" >"$DOC"
  rm -f "$tmp"
}
mkdir -p "$(dirname "$DOC")"
if [ ! -f "$DOC" ]; then
  cat >"$DOC" <<'EOF'
# Performance

heapprof's costs, measured side by side with upstream LLVM MemProf 19 by
`make bench` (bench/run.sh; bench/README.md says what each workload is and
how to read the tables). The tables between the `bench:` markers are
rewritten by every full run; the text around them is kept.

## Results

<!-- bench:begin -->
<!-- bench:end -->

## Allocator microbenchmark

(Placeholder: how heapprof's allocator compares with glibc, and why.
The table below is generated by `make bench`.)

<!-- bench-alloc:begin -->
<!-- bench-alloc:end -->
EOF
fi
grep -q '^<!-- bench:begin -->$' "$DOC" || printf '\n## Results\n\n<!-- bench:begin -->\n<!-- bench:end -->\n' >>"$DOC"
grep -q '^<!-- bench-alloc:begin -->$' "$DOC" ||
  printf '\n## Allocator microbenchmark\n\n<!-- bench-alloc:begin -->\n<!-- bench-alloc:end -->\n' >>"$DOC"
grep -q '^<!-- bench-rss:begin -->$' "$DOC" ||
  printf '\n## Resident memory after free\n\n<!-- bench-rss:begin -->\n<!-- bench-rss:end -->\n' >>"$DOC"
grep -q '^<!-- bench-report:begin -->$' "$DOC" ||
  printf '\n## heapprof report at scale\n\n<!-- bench-report:begin -->\n<!-- bench-report:end -->\n' >>"$DOC"
want main && splice bench "$block"
want alloc && splice bench-alloc "$ablock"
want rss && splice bench-rss "$rblock"
want report && splice bench-report "$repblock"
grep -q '^<!-- bench-unwind:begin -->$' "$DOC" ||
  printf '\n## Allocation stacks: frame pointers and CFI\n\n<!-- bench-unwind:begin -->\n<!-- bench-unwind:end -->\n' >>"$DOC"
want unwind && splice bench-unwind "$ublock"
# heapprof run --allocator's per-operation cycles against each allocator's
# own throughput (bench/allocprof/allocators.sh).
want allocators && { log "allocators: bench/allocprof/allocators.sh"
  BUILD=$B bench/allocprof/allocators.sh "$OUT" >"$OUT/block-allocators.md" 2>"$LOGS/allocators.log" || fail "bench/allocprof/allocators.sh failed (log: $OUTREL/logs/allocators.log)"
  grep -q '^<!-- bench-allocators:begin -->$' "$DOC" || printf '\n## Profiling other allocators\n\n<!-- bench-allocators:begin -->\n<!-- bench-allocators:end -->\n' >>"$DOC"
  splice bench-allocators "$OUT/block-allocators.md"; }
grep -q '^<!-- bench-fshare:begin -->$' "$DOC" ||
  printf '\n## Allocator profiler: heap utilization and false sharing\n\n<!-- bench-fshare:begin -->\n<!-- bench-fshare:end -->\n' >>"$DOC"
want fshare && splice bench-fshare "$fsblock"
grep -q '^<!-- bench-opcost:begin -->$' "$DOC" ||
  printf '\n## Allocator profiler: cost of each feature\n\n<!-- bench-opcost:begin -->\n<!-- bench-opcost:end -->\n' >>"$DOC"
want opcost && splice bench-opcost "$ocblock"
grep -q '^<!-- bench-peak:begin -->$' "$DOC" ||
  printf '\n## The peak tracker on and off\n\n<!-- bench-peak:begin -->\n<!-- bench-peak:end -->\n' >>"$DOC"
want peak && splice bench-peak "$pblock"
# Sampled mode against the plain programs (bench/sampled.sh).
want sampled && { log "sampled mode: bench/sampled.sh"
  { echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') by bench/sampled.sh (\`BENCH_SECTIONS=sampled\` runs only this table), heapprof at $(hp_rev): Lua, SQLite and bench/micro's newdel, larson and xmalloc compiled without instrumentation, linked plain or with the runtime; CPU seconds, the fastest of several alternating runs; ratio = against plain."; echo
    BUILD=$B bench/sampled.sh "$OUT" "$TIMEIT" 2>"$LOGS/sampled.log" || echo "(failed: see $OUTREL/logs/sampled.log)"; } >"$OUT/block-sampled.md"
  grep -q '^<!-- bench-sampled:begin -->$' "$DOC" || printf '\n## Sampled mode\n\n<!-- bench-sampled:begin -->\n<!-- bench-sampled:end -->\n' >>"$DOC"
  splice bench-sampled "$OUT/block-sampled.md"; }
log "tables written to $DOC"

if want main; then
  echo
  awk -F'\t' -v section=main -v summary_only=1 -f bench/report.awk "$TSV"
fi
want rss && { echo; cat "$rblock"; }
want unwind && { echo; cat "$ublock"; }
echo
log "make bench took ${total} s (builds ${t_build} s, runs ${t_runs} s)"
if [ -s "$PROBLEMS" ]; then
  echo
  echo "[bench] ==================== problems ===================="
  sed 's/^/[bench] /' "$PROBLEMS"
  echo "[bench] ================================================="
fi
errors=$(grep -c '^ERROR' "$PROBLEMS")
if [ "$errors" -gt 0 ]; then
  echo "[bench] FAILED: $errors error(s) above" >&2
  exit 1
fi
if [ "$STRICT" = 1 ] && grep -q -v '^ok$' "$BIN"/*.status; then
  echo "[bench] FAILED (BENCH_STRICT=1): some variants were not built" >&2
  exit 1
fi
exit 0
