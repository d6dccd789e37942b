# Checks diff-checkpoint-base.c's JSON: BASE_ALLOCS and BASE_LIVE on the
# base side, and the changes after checkpoint 2 whatever BASE started at.
import json, sys

d = json.load(open(sys.argv[1]))
base_allocs, base_live = int(sys.argv[2]), int(sys.argv[3])
s = d["summary"]
assert d["cumulative_new"] is True, d["cumulative_new"]
assert s["allocs"]["base"] == base_allocs, s["allocs"]
want = {"allocs": 10, "bytes": 10000, "live_objects": 10,
        "live_bytes": 10000, "accesses": 0}
for k, v in want.items():
    assert s[k]["delta"] == v, (k, s[k])
assert s["live_objects"]["base"] == base_live, s["live_objects"]
rows = d["contexts"]
assert len(rows) == 1, rows
r = rows[0]
assert r["status"] == "new" and r["stack"][0]["function"] == "alloc_b", r
assert r["allocs"]["delta"] == 10 and r["bytes"]["delta"] == 10000, r
