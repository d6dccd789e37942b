"""Checks the sites of `heapprof report --format json` against bounds.

usage: sampled_sites.py REPORT_JSON FUNCTION:LO:HI:SIZE:LIVE ...

The context whose innermost frame is FUNCTION must have an object count in
[LO, HI], bytes equal to that count times SIZE, and (LIVE 1) every object
live at the end or (LIVE 0) none.  Prints "FUNCTION: ok" per argument, or
what is wrong.
"""
import json
import sys

contexts = json.load(open(sys.argv[1]))["contexts"]
by_function = {c["stack"][0]["function"]: c for c in contexts if c["stack"]}
for spec in sys.argv[2:]:
    function, lo, hi, size, live = spec.split(":")
    c = by_function.get(function)
    if c is None:
        print("%s: missing" % function)
    elif not int(lo) <= c["allocs"] <= int(hi):
        print("%s: %d objects outside [%s, %s]" % (function, c["allocs"], lo, hi))
    elif c["bytes"] != c["allocs"] * int(size):
        print("%s: %d bytes for %d objects of %s" % (function, c["bytes"], c["allocs"], size))
    elif c["live_objects"] != (c["allocs"] if live == "1" else 0):
        print("%s: %d live of %d" % (function, c["live_objects"], c["allocs"]))
    else:
        print("%s: ok" % function)
