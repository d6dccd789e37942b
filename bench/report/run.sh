#!/usr/bin/env bash
# bench/report/run.sh OUT TIMEIT: heapprof's post-processing at scale (the
# `make bench` rows of "heapprof report at scale"; the contract: on a profile
# of 100,000 contexts, report in under 5 s, diff and merge in under 10 s, in
# memory proportional to the profile).
#
# Profiles test/tools/report-widgets.c and grows the profile to N contexts
# with gen-profile.py (each a real stack of 8 return addresses in the
# program): BASE; then NEW, the same program after a change (another
# process; 1 context in 10 allocates more, 1 in 20 is replaced by a new one).
# Times, with bench/timeit, each command the issue names: report (text,
# JSON), merge (BASE and NEW into one file), diff (BASE against NEW; and BASE
# against itself, one process's checkpoints: NEW is then re-read with BASE's
# files), flamegraph (collapsed, SVG), pprof, html and show, and headless Chromium
# loading the html page when chromium is installed.  Each runs RUNS times;
# the row is the run with the lowest wall time.  Prints a markdown table on
# stdout.  BENCH_REPORT_CONTEXTS=N (default 100000; BENCH_QUICK=1: 10000),
# BENCH_REPORT_RUNS=RUNS (default 2; BENCH_QUICK=1: 1).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$1 TIMEIT=$2
B=${BUILD:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
QUICK=${BENCH_QUICK:-0}
N=${BENCH_REPORT_CONTEXTS:-$([ "$QUICK" = 1 ] && echo 10000 || echo 100000)}
RUNS=${BENCH_REPORT_RUNS:-$([ "$QUICK" = 1 ] && echo 1 || echo 2)}
H=$B/bin/heapprof
dir=$OUT/report-scale
rm -rf "$dir" && mkdir -p "$dir/prof"
"$B/bin/heapprof-clang" -fheapprof -O0 -g "$root/test/tools/report-widgets.c" -o "$dir/widgets"
HEAPPROF_OPTIONS=profile_dir=$dir/prof "$dir/widgets" >/dev/null
python3 "$root/bench/report/gen-profile.py" "$dir"/prof/*.profraw "$dir/base.profraw" "$N" 8 0
python3 "$root/bench/report/gen-profile.py" "$dir"/prof/*.profraw "$dir/new.profraw" "$N" 8 1
size=$(stat -c %s "$dir/base.profraw")
mb() { echo "$1 / 1000000" | bc -l; }

echo "| command | input | output | wall s | cpu s | peak RSS | RSS / input |"
echo "|---|---:|---:|---:|---:|---:|---:|"
# row LABEL INPUT_BYTES OUTPUT_FILE -- CMD...: the fastest of RUNS runs.
row() {
  local label=$1 in=$2 outf=$3 best="" r wall cpu rss status
  shift 4
  for ((r = 0; r < RUNS; r++)); do
    rm -f "$outf"
    read -r wall cpu rss status < <("$TIMEIT" -t 120 -o "$dir/stdout" -e "$dir/stderr" -- "$@")
    [ "$status" = ok ] || { echo "$label: $status: $(tail -c 300 "$dir/stderr")" >&2; exit 1; }
    if [ -z "$best" ] || awk -v a="$wall" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
      best="$wall $cpu $rss"
    fi
  done
  read -r wall cpu rss <<<"$best"
  [ -s "$outf" ] || { echo "$label: no output in $outf" >&2; exit 1; }
  local ratio
  ratio=$(printf '%.1f×' "$(echo "$rss * 1024 / $in" | bc -l)")
  [[ $label == Chromium* ]] && ratio="—" # the browser's own memory
  printf '| %s | %.1f MB | %.1f MB | %s | %s | %.0f MB | %s |\n' "$label" \
    "$(mb "$in")" "$(mb "$(stat -c %s "$outf")")" "$wall" "$cpu" \
    "$(echo "$rss / 1024" | bc -l)" "$ratio"
}
base=$dir/base.profraw new=$dir/new.profraw
row "report (text)" "$size" "$dir/report.txt" -- "$H" report -o "$dir/report.txt" "$base"
row "report --format json" "$size" "$dir/report.json" -- "$H" report --format json -o "$dir/report.json" "$base"
row "merge BASE NEW" $((2 * size)) "$dir/merged.profraw" -- "$H" merge -o "$dir/merged.profraw" "$base" "$new"
row "diff BASE NEW (two runs)" $((2 * size)) "$dir/diff.txt" -- "$H" diff -o "$dir/diff.txt" "$base" "$new"
row "diff BASE BASE (one process)" "$size" "$dir/diff-same.txt" -- "$H" diff -o "$dir/diff-same.txt" "$base" "$base"
row "flamegraph (collapsed)" "$size" "$dir/flame.txt" -- "$H" flamegraph -o "$dir/flame.txt" "$base"
row "flamegraph --svg" "$size" "$dir/flame.svg" -- "$H" flamegraph --svg -o "$dir/flame.svg" "$base"
row "pprof" "$size" "$dir/profile.pb.gz" -- "$H" pprof -o "$dir/profile.pb.gz" "$base"
row "html" "$size" "$dir/report.html" -- "$H" html -o "$dir/report.html" "$base"
# show prints every record (no symbolizing): its stdout, to a file.
row "show" "$size" "$dir/show.txt" -- sh -c '"$1" show "$2" >"$3"' sh "$H" "$base" "$dir/show.txt"
if command -v chromium >/dev/null; then
  # The page in headless Chromium until its script has built the tables and
  # the flame graph (data-ready="1" in the DOM): the whole browser, start-up
  # included, so compare with the small page's row.
  "$H" html -o "$dir/small.html" "$dir/prof"
  for page in small report; do
    row "Chromium loads $page.html" "$(stat -c %s "$dir/$page.html")" "$dir/$page.dom" -- \
      sh -c 'chromium --headless --disable-gpu --no-sandbox --dump-dom "file://$1" >"$2" 2>/dev/null' \
      sh "$dir/$page.html" "$dir/$page.dom"
    grep -q 'data-ready="1"' "$dir/$page.dom" || { echo "Chromium: $page.html did not finish its script" >&2; exit 1; }
  done
fi
