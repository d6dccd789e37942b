# Prints report-sparse-counts.c's contexts (by allocation site) and totals.
import json
import sys

r = json.load(sys.stdin)
F = ["allocs", "bytes", "frees", "live_objects", "live_bytes", "min_size",
     "max_size", "bytes_small", "bytes_medium", "bytes_large", "bytes_xlarge",
     "live_bytes_small", "live_bytes_medium", "live_bytes_xlarge"]
rows = {}
for c in r["contexts"]:
    site = c["stack"][0]["function"]
    assert site not in rows, site
    rows[site] = c
for site in sorted(rows):
    print(site, " ".join("%s %d" % (f, rows[site][f]) for f in F))
s = r["summary"]
print("total", " ".join("%s %d" % (f, s[f]) for f in F[:5]))
