"""Prints, for test/heapprof/TestCases/temporary.c, each of its sites'
allocations and temporary allocations (summed over the site's contexts),
in the program's order, and the report's missing fields."""
import json
import sys

r = json.load(sys.stdin)
sites = ["churn", "lifo", "fifo", "first", "grown", "handoff"]
for site in sites:
    rows = [c for c in r["contexts"] if c["stack"][0]["function"] == site]
    allocs = sum(c["allocs"] for c in rows)
    temps = [c["temporary"] for c in rows]
    temp = None if None in temps else sum(temps)
    print("%s allocs=%d temporary=%s" % (site, allocs, temp))
print("missing", r["missing"])
