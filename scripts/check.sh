#!/bin/bash
# Runs every heapprof test: the C unit tests (ctest) and the lit suites
# (runtime TestCases, Instrumentation, Driver, tools), then prints one line
#   N passed, N failed[, N skipped]
# summing both.  Exits non-zero if anything failed.
set -uo pipefail
BUILD=${BUILD:-build}
LIT=${LIT:-/usr/lib/llvm-19/build/utils/lit/lit.py}
JOBS=${JOBS:-$(nproc)}
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

echo "== unit tests (ctest)"
ctest --test-dir "$BUILD" -j "$JOBS" --output-on-failure >"$log/ctest" 2>&1
cat "$log/ctest"
u_total=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\2/p' "$log/ctest" | tail -1)
u_failed=$(sed -n 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\1/p' "$log/ctest" | tail -1)
if [ -z "$u_total" ]; then
  if grep -q "No tests were found" "$log/ctest"; then u_total=0; u_failed=0;
  else echo "check: could not read ctest's summary" >&2; u_total=1; u_failed=1; fi
fi
u_passed=$((u_total - u_failed))

echo "== lit suites"
python3 "$LIT" -sv -j "$JOBS" "$BUILD/test" >"$log/lit" 2>&1
lit_rc=$?
cat "$log/lit"
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log/lit" | tail -1; }
l_passed=$(( $(count Passed || true) + $(count 'Expectedly Failed' || true) + 0 ))
l_failed=0
for k in Failed Unresolved 'Timed Out' 'Unexpectedly Passed'; do
  v=$(count "$k"); l_failed=$((l_failed + ${v:-0}))
done
l_skipped=$(( $(count Unsupported || true) + 0 ))
if [ "$lit_rc" != 0 ] && [ "$l_failed" = 0 ]; then
  echo "check: lit exited $lit_rc without reporting a failure" >&2
  l_failed=1
fi

passed=$((u_passed + l_passed))
failed=$((u_failed + l_failed))
echo "unit: $u_passed passed, $u_failed failed; lit: $l_passed passed, $l_failed failed, $l_skipped skipped"
echo "$passed passed, $failed failed, $l_skipped skipped"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
