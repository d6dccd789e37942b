"""Checks heapprof report --format json of report-widgets.c, row by row,
against what the program does (see the comments there), written without the
leak check (detect_leaks=0): the leak table lists everything live."""
import json
import sys

r = json.load(open(sys.argv[1]))
assert r["format"] == "heapprof-report" and r["version"] == 5, r["format"]
s = r["summary"]
want = dict(allocs=7205, bytes=292520, frees=2101, live_objects=5104,
            live_bytes=209120, contexts=5, accesses=7103)
for k, v in want.items():
    assert s[k] == v, (k, s[k], v)
# Written with detect_leaks=0: every count but the leak check's.
assert r["missing"] == ["leaked_objects", "leaked_bytes", "indirect_objects",
                        "indirect_bytes"], r["missing"]
assert r["leak_check"] is None and r["leaks_measure"] == "live", r["leaks_measure"]

c = r["contexts"]
assert [x["bytes"] for x in c] == [204120, 80000, 5000, 2400, 1000], c
red = c[0]
assert [f["function"] for f in red["stack"]] == ["make_widget", "make_red", "main"]
assert red["stack"][0]["file"].endswith("report-widgets.c")
assert red["stack"][0]["line"] > 0
assert (red["allocs"], red["live_objects"], red["live_bytes"], red["frees"]) == (5103, 5103, 204120, 0)
assert red["accesses"] == 5103 and red["min_size"] == 40 and red["max_size"] == 40
assert (red["bytes_small"], red["bytes_medium"], red["bytes_large"], red["bytes_xlarge"]) == (0, 204120, 0, 0)
assert red["derived"]["accesses_per_object"] == 1.0
assert c[1]["frees"] == 2000 and c[1]["live_bytes"] == 0

leaks = r["leaks"]
assert len(leaks) == 2, leaks
assert [f["function"] for f in leaks[0]["chain"]] == ["make_widget", "make_red", "main"]
assert (leaks[0]["objects"], leaks[0]["bytes"], leaks[0]["percent"]) == (5103, 204120, 97.61)
assert [f["function"] for f in leaks[1]["chain"]] == ["make_buffer", "main"]
assert (leaks[1]["objects"], leaks[1]["bytes"]) == (1, 5000)

bins = {b["label"]: b for b in r["bins"]}
assert sorted(bins) == ["1000", "24", "40", ">1024"], sorted(bins)
assert [(b["allocs"], b["bytes"], b["frees"], b["kept"]) for b in
        (bins["24"], bins["40"], bins["1000"], bins[">1024"])] == [
    (100, 2400, 100, 0), (7103, 284120, 2000, 204120), (1, 1000, 1, 0),
    (1, 5000, 0, 5000)]
assert bins[">1024"]["size"] == 1025
assert r["bins_omitted"]["sizes"] == 0 and r["bins_omitted"]["allocs"] == 0

direct = {d["function"]: d for d in r["direct"]}
assert sorted(direct) == ["make_buffer", "make_label", "make_widget"]
w = direct["make_widget"]
assert (w["bytes"], w["kept_bytes"], w["calls"], w["medium"], w["kept_medium"]) == (284120, 204120, 7103, 284120, 204120)
b = direct["make_buffer"]
assert (b["bytes"], b["calls"], b["large"], b["xlarge"], b["kept_xlarge"], b["kept_large"]) == (6000, 2, 1000, 5000, 5000, 0)
assert (direct["make_label"]["small"], direct["make_label"]["kept_bytes"]) == (2400, 0)

g = {e["name"]: e for e in r["callgraph"]}
assert (g["main"]["index"], g["main"]["total_bytes"], g["main"]["self_bytes"], g["main"]["total_calls"]) == (1, 292520, 0, 7205)
mw = g["make_widget"]
assert (mw["self_bytes"], mw["total_bytes"], mw["total_calls"]) == (284120, 284120, 7103)
assert [(e["name"], e["bytes"], e["calls"]) for e in mw["callers"]] == [("make_red", 204120, 5103), ("make_blue", 80000, 2000)]
assert [(e["name"], e["bytes"]) for e in g["make_red"]["callees"]] == [("make_widget", 204120)]
assert all(not e["members"] for e in r["callgraph"])
print("ok")
