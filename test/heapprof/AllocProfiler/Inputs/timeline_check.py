"""Checks the heap over time in heapprof report --format json for
test/heapprof/AllocProfiler/timeline.c, or corrupts a profile's timeline.

  timeline_check.py REPORT.json PEAK PAUSE_MS FINAL
      the buckets ascend; the highest size is PEAK; after it a bucket ends
      at 0 at least PAUSE_MS (less 10 for the coarse clock) after the
      highest bucket; the last bucket ends at FINAL, at least PAUSE_MS
      after that.  Prints "ok".
  timeline_check.py --corrupt PROFRAW OUT N
      writes PROFRAW to OUT with its timeline section's bucket count (the
      first one found) set to N."""
import json
import struct
import sys

if sys.argv[1] == "--corrupt":
    data = bytearray(open(sys.argv[2], "rb").read())
    for at in range(0, len(data) - 32, 8):
        tag, size, width, n = struct.unpack_from("<QQQQ", data, at)
        if tag == 9 and width and size == 16 + 32 * n:
            struct.pack_into("<Q", data, at + 24, int(sys.argv[4]))
            open(sys.argv[3], "wb").write(data)
            sys.exit(0)
    sys.exit("no timeline section found")

t = json.load(open(sys.argv[1]))["timeline"]
peak, pause, final = (int(x) for x in sys.argv[2:5])
b = t["buckets"]
assert all(x["ms"] < y["ms"] for x, y in zip(b, b[1:])), "out of order"
assert all(x["ms"] % t["bucket_ms"] == 0 for x in b), "not on the grid"
top = max(range(len(b)), key=lambda i: b[i]["highest"])
assert b[top]["highest"] == peak, (b[top], peak)
zero = [i for i in range(top, len(b)) if b[i]["last"] == 0]
assert zero, "the heap never went back to 0"
z = zero[0]
assert b[z]["ms"] + t["bucket_ms"] >= b[top]["ms"] + pause - 10, (b[top], b[z])
assert b[-1]["last"] == final, b[-1]
assert b[-1]["ms"] + t["bucket_ms"] >= b[z]["ms"] + pause - 10, (b[z], b[-1])
print("ok")
