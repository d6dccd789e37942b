# Reads a heapprof report --format json on stdin; prints "equal True" when
# the context allocating through alloc48 has as many accesses as objects
# (and it has objects), else the two numbers.
import json
import sys

report = json.load(sys.stdin)
for ctx in report["contexts"]:
    if any(f["function"] == "alloc48" for f in ctx["stack"]):
        ok = ctx["allocs"] > 0 and ctx["accesses"] == ctx["allocs"]
        print("equal", ok, ctx["allocs"], ctx["accesses"])
        break
else:
    print("no alloc48 context")
