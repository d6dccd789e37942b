# allocator-faults.c: the JSON cost_per_op is the arithmetic the docs give:
# per_op = cycles_in_calls / timed_calls (the malloc, a thread's first call,
# is not timed); per_op_with_faults = per_op + outside x cycles_each / calls;
# the outside faults are the 255 touches
# (and a few of the program's own); the fault rows of "syscalls" agree.
import json
import sys

r = json.load(open(sys.argv[1]))
c = r["cost_per_op"]
f = c["faults"]
assert c["calls"] == 2, c
assert 255 <= f["outside"] <= 269, f
assert f["in_calls"] >= 1, f
assert f["cycles_each"] > 0 and f["outside_cycles"] == round(f["outside"] * f["cycles_each"]), f
assert c["timed_calls"] == 1, c
assert abs(c["per_op"] - c["cycles_in_calls"] / 1) < 1e-6, c
want = c["per_op"] + f["outside_cycles"] / 2
assert abs(c["per_op_with_faults"] - want) < 1e-6 * want, (c, want)
rows = [s for s in r["syscalls"] if s["syscall"] == "fault"]
assert sum(s["count"] for s in rows if s["op"] == "none") == f["outside"], rows
assert sum(s["count"] for s in rows if s["op"] != "none") == f["in_calls"], rows
assert all(s["bytes"] == 4096 * s["count"] for s in rows), rows
print("ok")
