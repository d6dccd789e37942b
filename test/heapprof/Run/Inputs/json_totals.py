# Prints "allocs A frees F" from `heapprof report --format json` output.
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print("allocs %d frees %d" % (s["allocs"], s["frees"]))
