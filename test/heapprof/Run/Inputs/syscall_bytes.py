# Reads `heapprof report --format json` on stdin; prints how many rows of
# the allocator's mapping calls (mmap, munmap, mremap, madvise, brk) the
# syscalls table has, and whether every row's bytes lie in [0, 2^40).
import json
import sys

rows = [r for r in json.load(sys.stdin).get("syscalls", [])
        if r["syscall"] in ("mmap", "munmap", "mremap", "madvise", "brk")]
print("mapping rows: %d" % len(rows))
bad = [r for r in rows if not 0 <= r["bytes"] < 1 << 40 or r["count"] < 1]
print("bytes below 2^40 in each: %s" % ("no: %s" % bad if bad else "yes"))
