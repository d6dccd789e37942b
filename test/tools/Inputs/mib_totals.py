"""Checks that heapprof merge adds the MIB totals of its inputs: reads the
`heapprof show` output of the merged profile and of each input, sums each
Total field (and AllocCount) over every record of every dump, and prints
one line per field, "FIELD merged M inputs I equal|DIFFERENT".

usage: mib_totals.py MERGED_SHOW INPUT_SHOW...
"""
import re
import sys

FIELDS = ["AllocCount", "TotalAccessCount", "TotalSize", "TotalLifetime",
          "TotalAccessDensity", "TotalLifetimeAccessDensity"]


def totals(path):
    t = dict.fromkeys(FIELDS, 0)
    for line in open(path):
        m = re.match(r"\s+MIB stack id \d+: (.*)", line)
        if m:
            f = dict(kv.split("=") for kv in m.group(1).split())
            for k in FIELDS:
                t[k] += int(f[k])
    return t


merged = totals(sys.argv[1])
inputs = dict.fromkeys(FIELDS, 0)
for p in sys.argv[2:]:
    for k, v in totals(p).items():
        inputs[k] += v
for k in FIELDS:
    print("%s merged %d inputs %d %s" % (k, merged[k], inputs[k],
                                         "equal" if merged[k] == inputs[k]
                                         else "DIFFERENT"))
