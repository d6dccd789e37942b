"""Asserts two heapprof report JSON documents count the same: every count
of the summary, the contexts, leaks, bins, direct table and call graph.
Timing (lifetimes, cycles) and per-window ratios differ between runs and
are left out."""
import json
import sys

COUNTS = ["allocs", "bytes", "frees", "live_objects", "live_bytes", "accesses",
          "min_size", "max_size", "bytes_small", "bytes_medium", "bytes_large",
          "bytes_xlarge", "live_bytes_small", "live_bytes_medium",
          "live_bytes_large", "live_bytes_xlarge"]


def view(path):
    r = json.load(open(path))
    s = {k: r["summary"][k] for k in ["allocs", "bytes", "frees", "live_objects",
                                      "live_bytes", "accesses", "contexts"]}
    ctx = sorted(
        (tuple((f["function"], f["line"]) for f in c["stack"]),
         tuple(c[k] for k in COUNTS)) for c in r["contexts"])
    return dict(summary=s, contexts=ctx, leaks=r["leaks"], bins=r["bins"],
                direct=r["direct"], callgraph=r["callgraph"])


a, b = view(sys.argv[1]), view(sys.argv[2])
for k in a:
    assert a[k] == b[k], "%s differs:\n%s\n%s" % (k, a[k], b[k])
print("same")
