"""Checks a heapprof text profile's contexts against bounds.

usage: check_estimates.py PROFILE_TEXT LO:HI:AVE_SIZE ...

The i-th argument is for the context with stack id i+1: its alloc_count must
lie in [LO, HI] and its average size must print as AVE_SIZE.  Prints one
"context N: ok" line per context, or what is wrong.
"""
import re
import sys

text = open(sys.argv[1]).read()
blocks = re.findall(r"Memory allocation stack id = (\d+)\n\s*alloc_count (\d+), "
                    r"size \(ave/min/max\) ([0-9.]+) /", text)
got = {int(i): (int(c), a) for i, c, a in blocks}
for n, spec in enumerate(sys.argv[2:], start=1):
    lo, hi, ave = spec.split(":")
    if n not in got:
        print("context %d: missing" % n)
        continue
    count, avesize = got[n]
    if not int(lo) <= count <= int(hi):
        print("context %d: alloc_count %d outside [%s, %s]" % (n, count, lo, hi))
    elif avesize != ave:
        print("context %d: average size %s, expected %s" % (n, avesize, ave))
    else:
        print("context %d: ok" % n)
