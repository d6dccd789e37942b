"""Prints, for test/heapprof/TestCases/new_replaced.cpp, the objects and
bytes of the contexts allocated in the program's own operator new: the first
frame (above malloc, if it is there) is an "operator new" in the test's
source file (the C++ library's aligned new is one too, elsewhere)."""
import json
import sys

r = json.load(sys.stdin)
rows = []
for c in r["contexts"]:
    frames = c["stack"]
    if frames and frames[0]["function"] == "malloc":
        frames = frames[1:]
    if (frames and frames[0]["function"] == "operator new" and
            (frames[0]["file"] or "").endswith("new_replaced.cpp")):
        rows.append(c)
print("operator new: %d objects, %d bytes" %
      (sum(c["allocs"] for c in rows), sum(c["bytes"] for c in rows)))
