"""Reads `heapprof report --format json` on stdin and prints, for the one
context whose allocating function is FUNCTION (default mk), its allocs and
FIELD: "allocs N FIELD V".

usage: json_field.py FIELD [FUNCTION]
"""
import json
import sys

field = sys.argv[1]
func = sys.argv[2] if len(sys.argv) > 2 else "mk"
ctx = [c for c in json.load(sys.stdin)["contexts"]
       if c["stack"] and c["stack"][0]["function"] == func]
if len(ctx) != 1:
    sys.exit("json_field.py: %d contexts allocating in %s" % (len(ctx), func))
print("allocs %d %s %s" % (ctx[0]["allocs"], field, ctx[0][field]))
