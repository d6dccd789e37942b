"""Checks the mean= of every op-class line `heapprof show` printed (stdin)
against its own cycles and sampled counts, rounded to the nearest cycle as
`heapprof report` prints it (show had truncated: 6859 where the report said
6860).  Prints the number of lines checked, or fails naming the line."""
import re
import sys

n = 0
for line in sys.stdin:
    m = re.search(r"sampled=(\d+) cycles=(\d+) mean=(\d+)", line)
    if not m:
        continue
    sampled, cycles, mean = (int(x) for x in m.groups())
    want = "%.0f" % (cycles / sampled)
    assert str(mean) == want, (line.strip(), want)
    n += 1
print("means checked:", "some" if n else "none")
