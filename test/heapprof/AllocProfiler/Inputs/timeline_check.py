"""Checks the heap over time in heapprof report --format json for
test/heapprof/AllocProfiler/timeline.c, or corrupts a profile's timeline.

  timeline_check.py REPORT.json PEAK PAUSE_MS FINAL
      the buckets ascend; the highest size is PEAK; after it a bucket ends
      at 0 at least PAUSE_MS (less 10 for the coarse clock) after the
      highest bucket; the last bucket ends at FINAL, at least PAUSE_MS
      after that.  Prints "ok".
  timeline_check.py --corrupt PROFRAW OUT N
      writes PROFRAW to OUT with its timeline section's bucket count (the
      first one found) set to N.
  timeline_check.py --text REPORT.json REPORT.txt
      the text report shows the timeline as a chart when it spans 8
      buckets or more, its axis ending at the run's span (the last dump of
      the timeline's process), else as one line with the span and the
      lowest, highest and last sizes (in the report's units).  Prints
      "chart" or "line"."""
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

def human(b):
    """The report's human units: bytes below 10000, else KiB, MiB, ..."""
    if b < 10000:
        return "%d B" % b
    units = ["KiB", "MiB", "GiB", "TiB"]
    v, i = b / 1024.0, 0
    while v >= 1024 and i < len(units) - 1:
        v /= 1024
        i += 1
    return "%.1f %s" % (v, units[i])

if sys.argv[1] == "--text":
    t = json.load(open(sys.argv[2]))["timeline"]
    text = open(sys.argv[3]).read().split("== The heap over time")[1]
    b = t["buckets"]
    slots = b[-1]["ms"] // t["bucket_ms"] + 1
    span = max([b[-1]["ms"]] + [p["last_ms"] for p in json.load(open(sys.argv[2]))["summary"]["processes"]
                                 if p["pid"] == t["pid"]])
    if slots < 8:
        want = "(%d ms recorded, too short for a chart: the live heap went from %s up to %s and ended at %s)" % (
            span, human(min(x["lowest"] for x in b)),
            human(max(x["highest"] for x in b)), human(b[-1]["last"]))
        assert want in text, (want, text)
        print("line")
    else:
        assert " +--" in text and "(each column" in text, text
        axis = text.split(" +--")[1].split("\n")[1].split()
        assert axis[:2] == ["0", "ms"] and axis[-2:] == [str(span), "ms"], (axis, span)
        print("chart")
    sys.exit(0)

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
