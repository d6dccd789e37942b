#!/usr/bin/env python3
"""Checks a heapprof html page's flamedata block against what
docs/formats.md ("HTML page") says it holds: the documented keys, in that
order, are the block's; every node has the documented columns; node 0 is
the root and every parent comes before its children.  Then prints the
root's weights under the documented column names, for FileCheck:

  keys names weights frames min_share nodes
  root bytes=B allocs=A ...
  weights bytes allocs ...

usage: html-flamedata-doc.py PAGE FORMATS_MD
"""
import json
import re
import sys

page = open(sys.argv[1], encoding="utf-8").read()
doc = open(sys.argv[2], encoding="utf-8").read()

section = doc.split("\n## HTML page", 1)[1].split("\n## ", 1)[0]
block = re.search(r"```\n(.*?)```", section, re.S).group(1)
keys = re.findall(r'"(\w+)":', block)
columns = re.search(r"\[\[([^\]]*)\]", block).group(1).split(", ")

m = re.search(r'<script type="application/json" id="flamedata">(.*?)</script>',
              page, re.S)
F = json.loads(m.group(1))
assert list(F) == keys, "the block's keys %s, documented %s" % (list(F), keys)
print("keys " + " ".join(keys))
nodes = F["nodes"]
for i, n in enumerate(nodes):
    assert len(n) == len(columns), "node %d has %d columns, documented %d" % (
        i, len(n), len(columns))
    assert all(isinstance(v, int) for v in n), "node %d: %s" % (i, n)
    parent, name = n[0], n[1]
    if i == 0:
        assert parent == -1 and name == -1, "node 0 is not the root: %s" % n
    else:
        assert 0 <= parent < i, "node %d's parent %d" % (i, parent)
        assert 0 <= name < len(F["names"]), "node %d's name %d" % (i, name)
assert columns[:2] == ["parent", "name"], columns
print("root " + " ".join("%s=%d" % (c, v) for c, v in zip(columns[2:], nodes[0][2:])))
print("weights " + " ".join(F["weights"]))
assert all(w in columns[2:] for w in F["weights"]), F["weights"]
assert F["frames"] >= len(nodes) - 1
