"""Adds up the dumps `heapprof show` printed (one or more files, in order)
the way a reader of a process's dumps must: per context (by stack id) the
deltas AllocCount, TotalSize and bytes_<class> are summed, while live_* and
live_at_dump are the state of the last dump that has the context; the size
bins are summed, and kept = allocs - frees over all bins.  One dump in,
that dump's numbers out.

usage: sum_show.py SHOW_OUTPUT
"""
import re
import sys

DELTA = ["AllocCount", "TotalSize", "bytes_small", "bytes_medium",
         "bytes_large", "bytes_xlarge"]
STATE = ["live_at_dump", "live_bytes", "live_bytes_small", "live_bytes_medium",
         "live_bytes_large", "live_bytes_xlarge"]

ctx = {}       # stack id -> {field: value}
state = {}     # stack id -> (dump number, {field: value})
bins = {}      # size label -> [allocs, bytes, frees, freed_bytes]
dump = -1
current = None
for line in open(sys.argv[1]):
    if line.startswith("dump "):
        dump += 1
        continue
    m = re.match(r"\s+MIB stack id (\d+): (.*)", line)
    if m:
        current = int(m.group(1))
        f = dict(kv.split("=") for kv in m.group(2).split())
        c = ctx.setdefault(current, {k: 0 for k in DELTA})
        for k in ("AllocCount", "TotalSize"):
            c[k] += int(f[k])
        continue
    m = re.match(r"\s+heapprof: (.*)", line)
    if m and current is not None:
        f = dict(kv.split("=") for kv in m.group(1).split())
        for k in DELTA[2:]:
            ctx[current][k] += int(f[k])
        state[current] = (dump, {k: int(f[k]) for k in STATE})
        continue
    m = re.match(r"\s+bin (\S+): allocs=(\d+) bytes=(\d+) frees=(\d+) freed_bytes=(\d+)", line)
    if m:
        b = bins.setdefault(m.group(1), [0, 0, 0, 0])
        for i in range(4):
            b[i] += int(m.group(i + 2))

last = dump
print("contexts %d" % len(ctx))
for sid in sorted(ctx):
    # a context absent from the last dump has nothing live any more
    live = state[sid][1] if sid in state and state[sid][0] == last else {k: 0 for k in STATE}
    print("context " + " ".join("%s=%d" % (k, ctx[sid][k]) for k in DELTA) +
          " " + " ".join("%s=%d" % (k, live[k]) for k in STATE))
order = lambda s: 1025 if s == ">1024" else int(s)
for size in sorted(bins, key=order):
    b = bins[size]
    print("bin %s: allocs=%d bytes=%d frees=%d freed_bytes=%d" % (size, *b))
print("kept: objects=%d bytes=%d" % (
    sum(b[0] - b[2] for b in bins.values()),
    sum(b[1] - b[3] for b in bins.values())))
