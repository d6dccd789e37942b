"""Checks that llvm-profdata reads the same object counts as heapprof report.

usage: profdata_counts.py PROFDATA_SHOW REPORT_JSON FUNCTION...

For each FUNCTION, the AllocCount of the llvm-profdata record whose first
frame is FUNCTION must equal the report's object count of the context whose
innermost frame is FUNCTION.  Prints "FUNCTION: ok" or what differs.
"""
import json
import re
import sys

# Each record lists its frames (innermost first), then its AllocCount.
counts, first = {}, None
for line in open(sys.argv[1]):
    m = re.match(r"\s*SymbolName: (\S+)", line)
    if m and first is None:
        first = m.group(1)
    m = re.match(r"\s*AllocCount: (\d+)", line)
    if m:
        if first is not None:
            counts.setdefault(first, int(m.group(1)))
        first = None
contexts = json.load(open(sys.argv[2]))["contexts"]
report = {c["stack"][0]["function"]: c["allocs"] for c in contexts if c["stack"]}
for f in sys.argv[3:]:
    if counts.get(f) == report.get(f) and f in report:
        print("%s: ok" % f)
    else:
        print("%s: llvm-profdata %s, heapprof report %s" % (f, counts.get(f), report.get(f)))
