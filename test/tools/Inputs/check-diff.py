"""Checks heapprof diff --format json of test/tools/diff.c.

check-diff.py CASE FILE: CASE is ckpt (checkpoint 1 against the exit),
builds (SCALE=1 against SCALE=3) or same (two runs of one build).  The
expected numbers are derived from the program in diff.c's comments.
"""
import json
import sys

case, path = sys.argv[1], sys.argv[2]
d = json.load(open(path))
assert d["format"] == "heapprof-diff" and d["version"] == 1, d
assert d["missing"] == [], d["missing"]
MEASURES = ["allocs", "bytes", "live_objects", "live_bytes", "accesses",
            "temporary"]


def site(row):
    return row["stack"][0]["function"]


def check(m, base, new):
    # diff.c frees no object before its thread's next allocation: no
    # temporary allocations on either side.
    base, new = base + [0], new + [0]
    assert len(base) == len(MEASURES)
    for k, b, n in zip(MEASURES, base, new):
        assert m[k] == {"base": b, "new": n, "delta": n - b}, (k, m[k], b, n)


rows = {site(r): r for r in d["contexts"]}
s = d["summary"]
if case == "ckpt":
    assert d["cumulative_new"] is True
    check(s, [110, 24800, 110, 24800, 10], [180, 26560, 140, 24640, 20])
    assert [site(r) for r in d["contexts"]] == ["alloc_a", "alloc_c",
                                                 "alloc_b"], d["contexts"]
    assert [r["status"] for r in d["contexts"]] == ["grew", "new", "changed"]
    check(rows["alloc_a"], [100, 4800, 100, 4800, 0], [120, 5760, 80, 3840, 0])
    check(rows["alloc_c"], [0, 0, 0, 0, 0], [50, 800, 50, 800, 0])
    check(rows["alloc_b"], [10, 20000, 10, 20000, 10],
          [10, 20000, 10, 20000, 20])
    assert [f["function"] for f in rows["alloc_a"]["stack"]] == [
        "alloc_a", "make_a", "main"]
    assert (s["base_contexts"], s["new_contexts"], s["changed_contexts"],
            s["unchanged_contexts"]) == (2, 3, 3, 0), s
elif case == "builds":
    assert d["cumulative_new"] is False
    check(s, [160, 25600, 160, 25600, 10], [260, 27200, 260, 27200, 10])
    assert len(d["contexts"]) == 1, d["contexts"]
    check(rows["alloc_c"], [50, 800, 50, 800, 0], [150, 2400, 150, 2400, 0])
    assert rows["alloc_c"]["status"] == "grew"
    assert s["unchanged_contexts"] == 2, s
elif case == "same":
    assert d["contexts"] == [], d["contexts"]
    check(s, [160, 25600, 160, 25600, 10], [160, 25600, 160, 25600, 10])
    assert s["changed_contexts"] == 0 and s["unchanged_contexts"] == 3, s
else:
    sys.exit("unknown case " + case)
