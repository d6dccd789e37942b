"""Prints a FileCheck CHECK-DAG line for every flag in heapprof_flags.inc, so
the help=1 test covers each flag without listing them by hand."""
import re
import sys

for line in open(sys.argv[1]):
    m = re.match(r"HEAPPROF_FLAG\((\w+),\s*(\w+),", line)
    if m:
        print("CHECK-DAG: {{^  }}%s=" % m.group(2))
