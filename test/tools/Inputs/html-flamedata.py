"""Prints the flame-graph data embedded in a heapprof html page: how many
frames the profile has and how many the page shows, the weights recorded,
then each shown frame as its path from the root with its allocs and bytes,
sorted by path; "end" last.  Checks that the page has the element that says
so when frames were left out.

usage: html-flamedata.py PAGE
"""
import json
import re
import sys

page = open(sys.argv[1]).read()
m = re.search(r'<script type="application/json" id="flamedata">(.*?)</script>',
              page, re.S)
F = json.loads(m.group(1))
nodes = F["nodes"]
print("frames %d, shown %d" % (F["frames"], len(nodes) - 1))
if len(nodes) - 1 < F["frames"]:
    assert 'id="flame-pruned"' in page, "no note on the page"
print("weights " + " ".join(w for w in ("allocs", "bytes") if w in F["weights"]))
paths = []
for node in nodes:
    parent, name, b, a = node[:4]  # then accesses, live bytes, temporary
    paths.append((paths[parent][0] + ";" + F["names"][name] if parent >= 0 else "all", a, b))
for p, a, b in sorted(paths):
    print("%s allocs=%d bytes=%d" % (p, a, b))
print("end")
