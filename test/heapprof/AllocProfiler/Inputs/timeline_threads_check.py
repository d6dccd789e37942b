#!/usr/bin/env python3
# Checks timeline-threads.c's heap over time (report JSON): the peak is the
# block and the threads' 240000 bytes (glibc's thread vectors on top, under
# 4096 bytes); the first bucket that reached 1000000 bytes (the block's
# allocation, 20 ms before its free) holds no size below 1240000; no bucket
# from there on holds one below 240000.
import json
import sys

THREADS, BLOCK, SLACK = 240000, 1000000, 4096
d = json.load(open(sys.argv[1]))
buckets = d["timeline"]["buckets"]
peak = d["summary"]["peak_bytes"]
assert THREADS + BLOCK <= peak < THREADS + BLOCK + SLACK, peak
print("peak 1240000 + glibc's")
first = next(i for i, b in enumerate(buckets) if b["highest"] >= BLOCK)
assert buckets[first]["lowest"] >= THREADS + BLOCK, buckets[first]
print("the block's allocation noted with the threads' bytes")
low = [b for b in buckets[first:] if b["lowest"] < THREADS]
assert not low, low
print("never below 240000 after it")
