"""Reads `heapprof report`'s text on stdin and checks that the rows of its
memory-overhead table line up: every row's byte count ends in the same
column (" bytes" starts there), so that the digits can be compared by eye."""
import sys

lines = sys.stdin.read().split("\n")
start = next(i for i, l in enumerate(lines)
             if l.startswith("memory overhead "))
rows = []
for l in lines[start + 1:]:
    if not l.startswith("  "):
        break
    if " bytes " in l:
        rows.append(l)
ends = {l.index(" bytes ") for l in rows}
shares = {l.index("%  of the heap") for l in rows if "of the heap" in l}
print("rows %d, byte columns %d, share columns %d" % (len(rows), len(ends),
                                                       len(shares)))
if len(ends) != 1 or len(shares) != 1:
    print("\n".join(rows))
    sys.exit(1)
