#!/usr/bin/env bash
# bench/sampled.sh OUT [TIMEIT]: sampled mode's cost (issue 13; docs/user-guide.md
# "Sampled mode").  Lua (bench/lua/alloc.lua) and SQLite's speedtest1, built
# as bench/run.sh builds them (sources from bench/fetch-src.sh), and
# bench/micro/newdel.cpp (C++'s new and delete), and bench/micro's larson.c
# and xmalloc.c (threads allocating and freeing each other's blocks; the
# rows make bench runs with heapprof's allocator), compiled WITHOUT
# instrumentation and linked plain or with heapprof's runtime, run
# alternating as
#   plain                  glibc alone
#   sample_bytes=524288    sampled mode at 512 KiB
#   profiling=0            heapprof's own allocator with no profiling at all
#                          (why sampled mode runs on glibc: docs/design.md)
# CPU seconds (user + sys, timeit) are the fastest of BENCH_SAMPLED_RUNS
# (default 5) runs.  On a shared machine those are noisy, so the script also
# counts instructions with callgrind (when valgrind is installed), on smaller
# inputs, against a copy of the runtime built with small reservations as
# bench/callgrind.sh does (valgrind cannot map the 16 TiB shadow).  Prints a
# markdown table on stdout.  BENCH_QUICK=1: small inputs, 2 runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
OUT=$1 TIMEIT=${2:-}
B=${BUILD:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
QUICK=${BENCH_QUICK:-0}
RUNS=${BENCH_SAMPLED_RUNS:-$([ "$QUICK" = 1 ] && echo 2 || echo 5)}
dir=$OUT/sampled
mkdir -p "$dir/inc"
if [ -z "$TIMEIT" ]; then
  TIMEIT=$dir/timeit
  clang-19 -O2 -o "$TIMEIT" "$root/bench/timeit.c"
fi
SRC=$root/bench/.cache/src
"$root/bench/fetch-src.sh" "$SRC" >"$dir/fetch-src.log" 2>&1 ||
  { echo "sources unavailable (bench/fetch-src.sh: $dir/fetch-src.log)" >&2; exit 1; }
LUA=$(ls -d "$SRC"/lua5.4-[0-9]*/src | head -1) AMAL=$SRC/sqlite3-amalgamation
echo '#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"' >"$dir/inc/lua5.4-deb-multiarch.h"
COMMON="-O2 -gline-tables-only -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer"
LUA_SRCS=$(ls "$LUA"/*.c | grep -v '/luac\.c$' | tr '\n' ' ')
# build NAME RUNTIME_ARCHIVE|"": lua.NAME, speedtest1.NAME, newdel.NAME
# (bench/micro/newdel.cpp: C++'s new and delete, with the runtime's C++
# archive next to RUNTIME_ARCHIVE), larson.NAME and xmalloc.NAME.
build() {
  local rt=() rtx=()
  [ -n "$2" ] && rt=(-Wl,--whole-archive "$2" -Wl,--no-whole-archive -lpthread -ldl)
  [ -n "$2" ] && rtx=(-Wl,--whole-archive "${2%/*}/libheapprof_cxx.a" "$2" -Wl,--no-whole-archive -lpthread -ldl)
  # shellcheck disable=SC2086
  clang++-19 $COMMON -I"$root/bench/micro" "$root/bench/micro/newdel.cpp" -o "$dir/newdel.$1" "${rtx[@]}"
  # shellcheck disable=SC2086
  for m in larson xmalloc; do
    # shellcheck disable=SC2086
    clang-19 $COMMON -I"$root/bench/micro" -pthread "$root/bench/micro/$m.c" -o "$dir/$m.$1" "${rt[@]}"
  done
  # shellcheck disable=SC2086
  clang-19 $COMMON -DLUA_USE_LINUX -I"$dir/inc" $LUA_SRCS -o "$dir/lua.$1" "${rt[@]}" -lm -ldl
  clang-19 $COMMON -I"$AMAL" -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION \
    "$AMAL/speedtest1.c" "$AMAL/sqlite3.c" -o "$dir/speedtest1.$1" "${rt[@]}" -lm
}
build plain ""
build hprt "$B/lib/heapprof/libheapprof_rt.a"

if [ "$QUICK" = 1 ]; then LS=1 SS=1; else LS=8 SS=20; fi
if [ "$QUICK" = 1 ]; then ND=100000; else ND=10000000; fi
# larson and xmalloc as bench/run.sh runs them.
if [ "$QUICK" = 1 ]; then LA="2 4 1000 20000 8 1000" XM="1 50 200 8 512"
else LA="2 20 1000 100000 8 1000" XM="1 500 1000 8 512"; fi
W=("lua|$root/bench/lua/alloc.lua $LS" "speedtest1|--memdb --size $SS" "newdel|$ND"
   "larson|$LA" "xmalloc|$XM")
V=("plain|" "hprt|sample_bytes=524288" "hprt|profiling=0")

cpu() { # BIN OPTIONS ARGS -> CPU seconds
  local line
  # shellcheck disable=SC2086
  line=$(cd "$dir" && HEAPPROF_OPTIONS=$2 "$TIMEIT" -t 600 -- "$1" $3)
  [[ $line == *" ok" ]] || { echo "$1 ($2): $line" >&2; exit 1; }
  echo "$line" | awk '{print $2}'
}
min() { printf '%s\n' "$@" | sort -g | head -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }

# fastest RESULT ROUNDS RUNNER VARIANT...: per workload, ROUNDS rounds of
# the variants one after another (RUNNER NAME VARIANT ARGS prints CPU
# seconds); the fastest of each variant into RESULT[name,variant].
fastest() {
  local -n res=$1
  local rounds=$2 runner=$3 w name args v r
  shift 3
  for w in "${W[@]}"; do
    name=${w%%|*} args=${w#*|}
    local -A S=()
    for ((r = 0; r < rounds; r++)); do
      for v in "$@"; do
        S[$v]+=" $("$runner" "$name" "$v" "$args")"
      done
    done
    for v in "$@"; do
      # shellcheck disable=SC2086
      res[$name,$v]=$(min ${S[$v]})
    done
    unset S
  done
}
# The program NAME linked plain or with the runtime (the variant's build).
linked() { cpu "$dir/$1.${2%%|*}" "${2#*|}" "$3"; }
# The plain program with the variant's preload, through env: for the
# program only (not timeit).
preloaded() { cpu env "${2#*|}" "LD_PRELOAD=${2%%|*} $dir/$1.plain $3"; }

declare -A T
fastest T "$RUNS" linked "${V[@]}"

# Sampled mode on another allocator (docs/run.md, "Sampled, on another
# allocator"): the plain programs on jemalloc, as heapprof run profiles a
# program that links it (Redis), alone and with libheapprof_rt.so preloaded
# before it, sampling at 512 KiB; the fastest of 3 alternating runs (of
# RUNS if fewer: make bench's time is bounded).
JE=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2
declare -A J
if [ -f "$JE" ]; then
  JV=("$JE|" "$B/lib/heapprof/libheapprof_rt.so:$JE|allocator=$JE:sample_bytes=524288")
  fastest J $((RUNS < 3 ? RUNS : 3)) preloaded "${JV[@]}"
fi

# Instruction counts (callgrind), when valgrind is there.
declare -A I
cg=0
if command -v valgrind >/dev/null && [ "${BENCH_SAMPLED_CALLGRIND:-1}" = 1 ]; then
  cg=1
  csrc=$dir/cg-src cbld=$dir/cg-build
  mkdir -p "$csrc"
  (cd "$root" && git ls-files -co --exclude-standard -z |
     xargs -0 cp -a --parents -t "$csrc")
  for f in compiler-rt/lib/heapprof/heapprof_shadow.h compiler-rt/lib/heapprof/heapprof_allocator.h; do
    sed -i -e 's|#define HP_USER_SPACE_END (1ull << 47)|#define HP_USER_SPACE_END (1ull << 38)|' \
      -e 's|#define HP_REGION_SIZE (1ull << 35)|#define HP_REGION_SIZE (1ull << 28)|' "$csrc/$f"
  done
  [ -f "$cbld/build.ninja" ] || cmake -G Ninja -S "$csrc" -B "$cbld" \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 >"$dir/cg-cmake.log" 2>&1
  ninja -C "$cbld" lib/heapprof/libheapprof_rt.a lib/heapprof/libheapprof_cxx.a >"$dir/cg-ninja.log" 2>&1
  build cg "$cbld/lib/heapprof/libheapprof_rt.a"
  strip --strip-debug "$dir"/lua.plain "$dir"/lua.cg "$dir"/speedtest1.plain "$dir"/speedtest1.cg \
    "$dir"/newdel.plain "$dir"/newdel.cg "$dir"/larson.plain "$dir"/larson.cg \
    "$dir"/xmalloc.plain "$dir"/xmalloc.cg
  count() { # BIN OPTIONS ARGS -> instructions
    local f=$dir/cg.$(basename "$1").$RANDOM.out
    # shellcheck disable=SC2086
    (cd "$dir" && HEAPPROF_OPTIONS=$2 valgrind --tool=callgrind --callgrind-out-file="$f" "$1" $3 >/dev/null 2>"$f.log")
    awk '/^(summary|totals):/ {print $2; exit}' "$f"
  }
  CW=("lua|$root/bench/lua/alloc.lua 1" "speedtest1|--memdb --size 2" "newdel|1000000"
      "larson|2 4 1000 20000 8 1000" "xmalloc|1 50 1000 8 512")
  for w in "${CW[@]}"; do
    name=${w%%|*} args=${w#*|}
    for v in "${V[@]}"; do
      b=${v%%|*}; [ "$b" = hprt ] && b=cg
      I[$name,$v]=$(count "$dir/$name.$b" "${v#*|}" "$args")
    done
  done
fi

echo "| program | plain cpu s | sample_bytes=524288 cpu s | ratio | profiling=0 cpu s | ratio |$([ $cg = 1 ] && echo ' instructions plain | sampled ratio | profiling=0 ratio |')"
echo "|---|---:|---:|---:|---:|---:|$([ $cg = 1 ] && echo '---:|---:|---:|')"
for w in "${W[@]}"; do
  name=${w%%|*} args=${w#*|}
  p=${T[$name,${V[0]}]} s=${T[$name,${V[1]}]} z=${T[$name,${V[2]}]}
  label="$name ${args/#$root\/bench\/lua\//}"
  line="| $label | $p | $s | $(ratio "$s" "$p") | $z | $(ratio "$z" "$p") |"
  if [ $cg = 1 ]; then
    ip=${I[$name,${V[0]}]} is=${I[$name,${V[1]}]} iz=${I[$name,${V[2]}]}
    line+=" $ip | $(ratio "$is" "$ip") | $(ratio "$iz" "$ip") |"
  fi
  echo "$line"
done
[ $cg = 1 ] && echo && echo "Instructions (callgrind, load-independent) on smaller inputs: lua alloc.lua 1, speedtest1 --memdb --size 2, newdel 1000000 (bench/micro/newdel.cpp: C++'s new and delete), larson 2 4 1000 20000 8 1000, xmalloc 1 50 1000 8 512 (valgrind runs their threads one at a time)."
if [ -f "$JE" ]; then
  echo
  echo 'On jemalloc (`LD_PRELOAD=libjemalloc.so.2`), as heapprof run profiles a program that links it: the same plain programs alone and with libheapprof_rt.so preloaded before jemalloc, `allocator=libjemalloc.so.2:sample_bytes=524288` (every call still counted by class; docs/run.md, "Sampled, on another allocator").'
  echo
  echo "| program | jemalloc cpu s | sampled on jemalloc cpu s | ratio |"
  echo "|---|---:|---:|---:|"
  for w in "${W[@]}"; do
    name=${w%%|*} args=${w#*|}
    p=${J[$name,${JV[0]}]} s=${J[$name,${JV[1]}]}
    echo "| $name ${args/#$root\/bench\/lua\//} | $p | $s | $(ratio "$s" "$p") |"
  done
fi
exit 0
