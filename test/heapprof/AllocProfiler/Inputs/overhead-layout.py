"""Checks report JSON peak.overhead of overhead-layout.c (see there)."""
import json, sys
o = json.load(open(sys.argv[1]))["peak"]["overhead"]
want = dict(requested=400000, blocks=479488, internal_fragmentation=79488,
            headers=36128, rounding=43360, blowup=0, threads=1)
for k, v in want.items():
    assert o[k] == v, (k, o[k], v)
raw = o["raw"]
assert raw["large_mapped"] == 204800, raw
assert o["heap_mapped"] == raw["primary_carved"] + raw["large_mapped"], o
ext = o["external_fragmentation"]
assert ext == o["heap_mapped"] - o["blocks"] and 0 <= ext < 32 * 160, o
assert raw["thread_cached"] + raw["free_listed"] == ext, raw
assert 0 < o["heap_resident"] <= o["heap_mapped"], o
assert o["metadata"] > 0 and o["process_resident"] > o["heap_resident"], o
print("ok")
