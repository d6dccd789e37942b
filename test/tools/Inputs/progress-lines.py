"""Prints what a terminal capture (a `script` typescript) shows of heapprof's
progress lines: one line per step drawn, "draw STEP DONE/TOTAL", and
"erased" when the drawn line was cleared (\\r then ESC [K) before the next
step or the end; "end clean" when nothing but erased lines is left, else
"end dirty"; "nothing" when no progress was drawn at all.

usage: progress-lines.py TYPESCRIPT
"""
import re
import sys

t = open(sys.argv[1], "rb").read().decode("latin-1")
ERASE = "\r\x1b[K"
pos, drawn, shown = 0, 0, False
for m in re.finditer(r"\rheapprof: (\w+) (\d+)/(\d+)|\r\x1b\[K", t):
    if m.group(0) == ERASE:
        if shown:
            print("erased")
        shown = False
        continue
    print("draw %s %s/%s" % m.groups())
    drawn += 1
    shown = True
if not drawn:
    print("nothing")
rest = re.sub(r"\rheapprof: \w+ \d+/\d+|\r\x1b\[K", "", t)
print("end clean" if not shown and not rest.strip() else "end dirty: %r" % rest[:200])
