# Prints "SITE allocs=A bytes=B frees=F accesses=X" for each SITE named on
# the command line, from `heapprof report --top 0 --format json` output:
# the contexts whose allocation site (the stack's first frame) is SITE,
# added up.
import json, sys
contexts = json.load(open(sys.argv[1]))["contexts"]
for site in sys.argv[2:]:
    mine = [c for c in contexts if c["stack"] and c["stack"][0]["function"] == site]
    print("%s allocs=%d bytes=%d frees=%d accesses=%d" % (
        site, sum(c["allocs"] for c in mine), sum(c["bytes"] for c in mine),
        sum(c["frees"] for c in mine), sum(c["accesses"] for c in mine)))
