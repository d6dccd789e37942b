"""Checks heapprof report --format json --top 0 of test/tools/leaks.c
against what the program leaves at exit (see the comments there), for N
runs of it added up (two processes, or their merge).

usage: check-leaks-json.py VIEW N REPORT.json
  VIEW unreachable  the default: the leak table lists what is unreachable
       live         --leaks=live on the same profile: everything live
       off          a profile written with detect_leaks=0: no leak check
Prints "ok"."""
import json
import sys

view, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
r = json.load(open(path))

# One run, per allocation site: (objects, bytes) live at exit.
WIDGETS = (5000, 5000 * 204)  # pointers dropped: direct leaks
RECORDS = (300, 300 * 96)     # held by a global array: reachable
LIST = (11, 11 * 48)          # head dropped: 1 direct, 10 indirect
LIST_INDIRECT = (10, 10 * 48)


def times(pair):
    return tuple(n * x for x in pair)


assert r["format"] == "heapprof-report" and r["version"] == 5, (r["format"], r["version"])
s = r["summary"]
live = times((WIDGETS[0] + RECORDS[0] + LIST[0], WIDGETS[1] + RECORDS[1] + LIST[1]))
assert (s["live_objects"], s["live_bytes"]) == live, (s["live_objects"], s["live_bytes"], live)

LEAK_FIELDS = ["leaked_objects", "leaked_bytes", "indirect_objects", "indirect_bytes"]
lc = r["leak_check"]
if view == "off":
    assert lc is None, lc
    assert all(f in r["missing"] for f in LEAK_FIELDS), r["missing"]
else:
    assert not any(f in r["missing"] for f in LEAK_FIELDS), r["missing"]
    assert lc["objects"] == live[0], lc
    # Direct: the widgets and the list's head; indirect: the nodes behind it.
    assert (lc["direct_objects"], lc["direct_bytes"]) == times(
        (WIDGETS[0] + 1, WIDGETS[1] + 48)), lc
    assert (lc["indirect_objects"], lc["indirect_bytes"]) == times(LIST_INDIRECT), lc
    assert lc["threads_running"] == 0, lc
    assert (lc["reachable_objects"], lc["reachable_bytes"]) == times(RECORDS), lc
    # The roots hold at least the array's words.
    assert lc["root_bytes"] >= n * RECORDS[0] * 8, lc

site = lambda row: row["chain"][0]["function"]
rows = [(site(x), x["objects"], x["bytes"], x["indirect_objects"],
         x["indirect_bytes"], x["contexts"]) for x in r["leaks"]]
if view == "unreachable":
    assert r["leaks_measure"] == "unreachable", r["leaks_measure"]
    want = [("make_widget",) + times(WIDGETS) + (0, 0, 1),
            ("new_node",) + times(LIST) + times(LIST_INDIRECT) + (1,)]
else:
    assert r["leaks_measure"] == "live", r["leaks_measure"]
    want = [("make_widget",) + times(WIDGETS) + (None, None, 1),
            ("keep_record",) + times(RECORDS) + (None, None, 1),
            ("new_node",) + times(LIST) + (None, None, 1)]
assert rows == want, (rows, want)
# Percentages (two decimals) of the table's bytes: the unreachable ones
# (1,020,528 a run), or all live ones (1,049,328).
total = sum(w[2] for w in want)
for x, w in zip(r["leaks"], want):
    assert abs(x["percent"] - 100.0 * w[2] / total) <= 0.005, (x["percent"], w)

# Each context's own counts (the report's contexts merge across runs).
ctx = {c["stack"][0]["function"]: c for c in r["contexts"]}
assert sorted(ctx) == ["keep_record", "make_widget", "new_node", "scratch"], sorted(ctx)
got = {f: tuple(ctx[f][k] for k in LEAK_FIELDS) for f in ctx}
if view == "off":
    assert all(v == (None,) * 4 for v in got.values()), got
else:
    assert got == {"make_widget": times(WIDGETS) + (0, 0),
                   "keep_record": (0, 0, 0, 0),
                   "new_node": times(LIST) + times(LIST_INDIRECT),
                   "scratch": (0, 0, 0, 0)}, got
print("ok")
