"""Checks the direct table and call graph of report-callgraph.c in JSON."""
import json
import sys

r = json.load(open(sys.argv[1]))
d = {x["function"]: x for x in r["direct"]}
assert sorted(d) == ["even", "leaf_alloc"], sorted(d)
assert (d["leaf_alloc"]["bytes"], d["leaf_alloc"]["calls"]) == (1000, 8)
assert (d["leaf_alloc"]["medium"], d["leaf_alloc"]["small"]) == (1000, 0)
assert (d["even"]["bytes"], d["even"]["calls"]) == (64, 1)

g = r["callgraph"]
assert [e["name"] for e in g] == ["main", "leaf_alloc", "b", "a", "<cycle 1>"], g
assert [e["index"] for e in g] == [1, 2, 3, 4, 5]
e = {x["name"]: x for x in g}
rows = {n: (x["self_bytes"], x["total_bytes"], x["self_calls"], x["total_calls"])
        for n, x in e.items()}
assert rows == {"main": (0, 1064, 0, 9), "leaf_alloc": (1000, 1000, 8, 8),
                "b": (0, 700, 0, 5), "a": (0, 600, 0, 6),
                "<cycle 1>": (64, 64, 1, 1)}, rows
edges = lambda x, k: [(y["name"], y["bytes"], y["calls"]) for y in x[k]]
assert edges(e["leaf_alloc"], "callers") == [("a", 600, 6), ("b", 400, 2)]
assert edges(e["a"], "callers") == [("main", 300, 3), ("b", 300, 3)]
assert edges(e["b"], "callees") == [("leaf_alloc", 400, 2), ("a", 300, 3)]
assert edges(e["main"], "callees") == [("b", 700, 5), ("a", 300, 3), ("<cycle 1>", 64, 1)]
assert e["<cycle 1>"]["members"] == ["even", "odd"]
assert edges(e["<cycle 1>"], "callees") == []
print("ok")
