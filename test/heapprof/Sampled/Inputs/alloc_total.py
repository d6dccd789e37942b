"""Sums AllocCount over every MIB of each `heapprof show` output named, and
says whether the last file's total is the sum of the others'."""
import re
import sys

totals = []
for path in sys.argv[1:]:
    text = open(path).read()
    totals.append(sum(int(n) for n in re.findall(r"AllocCount=(\d+)", text)))
print("totals: " + " ".join(str(t) for t in totals))
print("last is the sum of the others: %s" %
      ("yes" if totals[-1] == sum(totals[:-1]) else "no"))
