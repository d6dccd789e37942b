#!/bin/bash
# Prints the markdown table of runtime flags from heapprof_flags.inc, the one
# place flags are defined.  docs/flags.md embeds this output between markers;
# test/docs/flags-doc.test fails when the two drift apart.
#   scripts/gen-flags-doc.sh            print the table
#   scripts/gen-flags-doc.sh --update   rewrite the table in docs/flags.md
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
inc=$root/compiler-rt/lib/heapprof/heapprof_flags.inc
table() {
  echo "| flag | type | default | meaning |"
  echo "|---|---|---|---|"
  sed -n 's/^HEAPPROF_FLAG(\([a-z]*\), *\([a-z_0-9]*\), *\(.*\), *"\(.*\)")$/| `\2` | \1 | `\3` | \4 |/p' "$inc" \
    | sed 's/`""`/(empty)/'
}
if [ "${1:-}" = --update ]; then
  doc=$root/docs/flags.md
  tmp=$(mktemp)
  table > "$tmp.table"
  awk -v t="$tmp.table" '
    /<!-- flags:begin/ { print; while ((getline l < t) > 0) print l; skip = 1; next }
    /<!-- flags:end/ { skip = 0 }
    !skip { print }' "$doc" > "$tmp"
  mv "$tmp" "$doc"
  rm -f "$tmp.table"
else
  table
fi
