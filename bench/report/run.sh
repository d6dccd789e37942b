#!/usr/bin/env bash
# bench/report/run.sh OUT TIMEIT: heapprof report at scale (a `make bench`
# row; the contract is "a profile of 100,000 contexts reports in under 5 s,
# in memory proportional to the profile").
#
# Profiles test/tools/report-widgets.c, grows the profile to N contexts with
# gen-profile.py (each a real stack of 8 return addresses in the program),
# then times `heapprof report` on it, text and JSON, with bench/timeit.
# Prints a markdown table on stdout. BENCH_REPORT_CONTEXTS=N (default
# 100000; BENCH_QUICK=1: 10000).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$1 TIMEIT=$2
B=${BUILD:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
N=${BENCH_REPORT_CONTEXTS:-$([ "${BENCH_QUICK:-0}" = 1 ] && echo 10000 || echo 100000)}
dir=$OUT/report-scale
rm -rf "$dir" && mkdir -p "$dir/prof"
"$B/bin/heapprof-clang" -fheapprof -O0 -g "$root/test/tools/report-widgets.c" -o "$dir/widgets"
HEAPPROF_OPTIONS=profile_dir=$dir/prof "$dir/widgets"
python3 "$root/bench/report/gen-profile.py" "$dir"/prof/*.profraw "$dir/big.profraw" "$N"
size=$(stat -c %s "$dir/big.profraw")
echo "| contexts | profile | output | wall s | cpu s | peak RSS | RSS / profile |"
echo "|---:|---:|---|---:|---:|---:|---:|"
for fmt in text json; do
  read -r wall cpu rss status < <("$TIMEIT" -t 120 -o "$dir/report.$fmt" -- \
    "$B/bin/heapprof" report --format "$fmt" "$dir/big.profraw")
  [ "$status" = ok ] || { echo "heapprof report --format $fmt: $status" >&2; exit 1; }
  printf '| %d | %.1f MB | %s | %s | %s | %.0f MB | %.1f× |\n' "$N" \
    "$(echo "$size / 1000000" | bc -l)" "$fmt" "$wall" "$cpu" \
    "$(echo "$rss / 1024" | bc -l)" "$(echo "$rss * 1024 / $size" | bc -l)"
done
