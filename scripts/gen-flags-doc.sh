#!/bin/bash
# Prints the markdown table of runtime flags from heapprof_flags.inc, the one
# place flags are defined.  docs/flags.md embeds this output between markers;
# test/heapprof/TestCases/flags-doc.test fails when the two drift apart.
set -euo pipefail
inc=${1:-$(dirname "$0")/../compiler-rt/lib/heapprof/heapprof_flags.inc}
echo "| flag | type | default | meaning |"
echo "|---|---|---|---|"
sed -n 's/^HEAPPROF_FLAG(\([a-z]*\), *\([a-z_0-9]*\), *\(.*\), *"\(.*\)")$/| `\2` | \1 | `\3` | \4 |/p' "$inc" \
  | sed 's/`""`/(empty)/'
