"""Checks the peak in heapprof report --format json against expectations
given on the command line:

  key=value        summary[key] == value ("null" for None)
  site=OBJ,BYTES   the contexts whose allocation site (frame 0's function)
                   is site hold OBJ objects and BYTES bytes at the peak
                   (in the peak's own table, report["peak"]["top"], whose
                   rows are call chains; the contexts table, which has
                   only contexts that allocated bytes in the dumps read,
                   must agree where it has site)
  peak.key=value   report["peak"][key] == value

Prints "ok" or fails with what differs."""
import json
import sys

r = json.load(open(sys.argv[1]))
for arg in sys.argv[2:]:
    key, want = arg.split("=", 1)
    if key.startswith("peak."):
        got = r["peak"][key[5:]]
        assert str(got) == want, (key, got, want)
    elif "," in want:
        obj, nbytes = (int(x) for x in want.split(","))
        for rows in (r["peak"]["top"], r["contexts"]):
            ctx = [c for c in rows
                   if c.get("chain", c.get("stack"))[0]["function"] == key]
            if not ctx and rows is r["contexts"]:
                continue
            got = (sum(c["peak_objects"] for c in ctx),
                   sum(c["peak_bytes"] for c in ctx))
            assert got == (obj, nbytes), (key, got, (obj, nbytes))
    else:
        got = r["summary"][key]
        assert str(got) == want or (got is None and want == "null"), (key, got, want)
print("ok")
