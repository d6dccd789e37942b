"""Reads `heapprof report --format json` on stdin and prints the allocations
and frees of all the contexts whose allocating function is FUNCTION:
"allocs N frees M".

usage: sum_allocs.py FUNCTION
"""
import json
import sys

func = sys.argv[1]
ctx = [c for c in json.load(sys.stdin)["contexts"]
       if c["stack"] and c["stack"][0]["function"] == func]
if not ctx:
    sys.exit("sum_allocs.py: no context allocates in %s" % func)
print("allocs %d frees %d" % (sum(c["allocs"] for c in ctx),
                              sum(c["frees"] for c in ctx)))
