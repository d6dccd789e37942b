"""Prints, for each dump `heapprof show` printed (a process's files in
order), one context's AllocCount, continuations and live_at_dump: the
context that allocated objects of SIZE bytes (max_size64) in some dump.
Stack ids are the process's, the same in each of its dumps; a dump
without the context prints zeros.

usage: context_by_dump.py SIZE SHOW_OUTPUT [N]

and the allocations over all dumps, an estimate of N if N is given.
"""
import re
import sys

size = sys.argv[1]
dumps = []   # [checkpoint, {stack id: (allocs, continuations, live)}]
ids = set()  # stack ids with max_size64 == size
sid = alloc = None
for line in open(sys.argv[2]):
    if line.startswith("dump "):
        m = re.search(r"checkpoint (\d+)", line)
        dumps.append([m.group(1) if m else "?", {}])
        continue
    m = re.match(r"\s+MIB stack id (\d+): .*AllocCount=(\d+)", line)
    if m:
        sid, alloc = m.group(1), int(m.group(2))
        continue
    m = re.match(r"\s+heapprof: (.*)", line)
    if m and sid is not None:
        f = dict(kv.split("=") for kv in m.group(1).split())
        dumps[-1][1][sid] = (alloc, int(f["continuations"]),
                             int(f["live_at_dump"]))
        if f["max_size64"] == size:
            ids.add(sid)
        sid = None
if len(ids) != 1:
    sys.exit("context_by_dump.py: %d contexts of %s bytes" % (len(ids), size))
(want,) = ids
total = 0
for cp, recs in dumps:
    rec = recs.get(want, (0, 0, 0))
    total += rec[0]
    print("checkpoint %s: allocs %d continuations %d live %d" % ((cp,) + rec))
print("estimate of %s allocations: %d" % (sys.argv[3], total)
      if len(sys.argv) > 3 else "allocations: %d" % total)
