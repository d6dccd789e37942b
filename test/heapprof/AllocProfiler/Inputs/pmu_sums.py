# Sums the PMU rows' samples of `heapprof show` by operation (malloc, free).
import re
import sys

sums = {"malloc": 0, "free": 0}
in_pmu = False
for line in sys.stdin:
    if line.strip().startswith("PMU events:"):
        in_pmu = True
        continue
    m = re.match(r"\s*(malloc|free) .*: samples=(\d+) ", line)
    if in_pmu and m:
        sums[m.group(1)] += int(m.group(2))
print("malloc samples %d, free samples %d" % (sums["malloc"], sums["free"]))
