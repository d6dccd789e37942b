#!/bin/sh
# bench/checkpoint_load.sh - checkpoints taken while threads allocate.
#
#   bench/checkpoint_load.sh [OUTDIR] [DUMPS] [LIVE...]
#
# Builds bench/micro/checkpoint_load.c plain and with heapprof-clang
# -fheapprof, then for each LIVE (default 1000 100000) runs, with 4 and with
# 1 allocating threads: plain; heapprof without checkpoints; heapprof with
# a checkpoint every 100 ms (DUMPS of them, default 200); the same with
# append_dumps=1.  Prints each run's lines (the workers' longest gap, the
# checkpoints' milliseconds, the resident set), the profile's size (first,
# last and all checkpoint files, or the one append_dumps file), and checks
# with `heapprof report --format json` that the series counts exactly the
# workers' pairs at their call site and one allocation in each of the LIVE
# contexts.  docs/performance.md, "Checkpoints under load".
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/build/bench-checkpoint-load}
DUMPS=${2:-200}
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
LIVES=${*:-1000 100000}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
PROF=$OUT/prof
SRC=$ROOT/bench/micro/checkpoint_load.c
clang-19 -O2 -pthread "$SRC" -o "$OUT/plain"
"$ROOT/build/bin/heapprof-clang" -O2 -pthread -fheapprof="$PROF" "$SRC" \
  -o "$OUT/heapprof"

check_counts() { # LIVE PAIRS
  "$ROOT/build/bin/heapprof" report --format json --top 200000 "$PROF" \
    >"$OUT/report.json"
  python3 - "$OUT/report.json" "$1" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
live, pairs = int(sys.argv[2]), int(sys.argv[3])
worker = [c for c in d["contexts"]
          if any(f["function"] == "worker_pair" for f in c["stack"])]
ctx = [c for c in d["contexts"]
       if any(f["function"].startswith("l3_") for f in c["stack"])]
w = sum(c["allocs"] for c in worker)
ones = sum(1 for c in ctx if c["allocs"] == 1)
ok = w == pairs and len(ctx) == live and ones == live
print("counts: worker_pair allocs %d (program made %d), %d live contexts "
      "with 1 alloc each of %d (program made %d): %s"
      % (w, pairs, ones, len(ctx), live, "exact" if ok else "WRONG"))
EOF
}

run() { # NAME LIVE THREADS INTERVAL OPTIONS
  rm -rf "$PROF"
  mkdir -p "$PROF"
  echo "== $1 live=$2 threads=$3 options=${5:-none}"
  bin=$OUT/heapprof
  [ "$1" = plain ] && bin=$OUT/plain
  HEAPPROF_OPTIONS=detect_leaks=0${5:+:$5} "$bin" "$2" "$4" "$DUMPS" "$3" \
    >"$OUT/run.txt"
  grep -v checksum "$OUT/run.txt"
  [ "$1" = plain ] && return 0
  n=$(ls "$PROF" | wc -l)
  all=$(du -sb "$PROF" | cut -f1)
  first=$(stat -c %s "$PROF"/*.1.profraw 2>/dev/null || echo -)
  last=$(stat -c %s "$PROF"/*."$DUMPS".profraw 2>/dev/null || echo -)
  echo "profile: $n files, $all bytes in all; checkpoint 1: $first, checkpoint $DUMPS: $last"
  pairs=$(sed -n 's/^worker pairs \([0-9]*\).*/\1/p' "$OUT/run.txt")
  check_counts "$2" "$pairs"
}

for live in $LIVES; do
  for t in 4 1; do
    run plain "$live" "$t" -100 ""
    run heapprof "$live" "$t" -100 ""
    run heapprof "$live" "$t" 100 ""
    run heapprof "$live" "$t" 100 append_dumps=1
  done
done
