"""Checks that a process's exit profile and its leak check describe the
same objects, from `heapprof show` output of one exit dump per file: the
check examined exactly the objects the records list live (the sum of
live_at_dump), no context has more unreachable objects than live ones
(nor a leak row without a record), and no record has more objects live
than it allocated and continued.  Prints the facts per file, then with
--verbose the counts.

usage: exit_consistency.py [--verbose] SHOW_OUTPUT...
"""
import re
import sys

verbose = "--verbose" in sys.argv
for path in [a for a in sys.argv[1:] if a != "--verbose"]:
    live, allocs, cont = {}, {}, {}
    head, rows, current = None, {}, None
    for line in open(path):
        m = re.match(r"\s+MIB stack id (\d+): (.*)", line)
        if m:
            current = int(m.group(1))
            f = dict(kv.split("=") for kv in m.group(2).split())
            allocs[current] = int(f["AllocCount"])
            continue
        m = re.match(r"\s+heapprof: (.*)", line)
        if m and current is not None:
            f = dict(kv.split("=") for kv in m.group(1).split())
            live[current] = int(f["live_at_dump"])
            cont[current] = int(f["continuations"])
            current = None
            continue
        m = re.match(r"\s+leaks: (.*)", line)
        if m:
            head = dict((k, int(v)) for k, v in
                        (kv.split("=") for kv in m.group(1).split()))
            continue
        m = re.match(r"\s+stack id (\d+): direct_objects=(\d+) "
                     r"direct_bytes=\d+ indirect_objects=(\d+)", line)
        if m and head is not None:
            rows[int(m.group(1))] = int(m.group(2)) + int(m.group(3))
    print("%s" % path.rsplit("/", 1)[-1].rsplit(".", 1)[-1])
    print("leak check: %s" % ("yes" if head else "no"))
    if not head:
        continue
    total = sum(live.values())
    print("examined == live: %s" % ("yes" if head["objects"] == total else
          "no (%d examined, %d live)" % (head["objects"], total)))
    over = [s for s, n in rows.items() if n > live.get(s, 0)]
    print("contexts with more leaked than live: %d" % len(over))
    bad = [s for s in live if live[s] > allocs[s] + cont[s]]
    print("records with more live than allocated: %d" % len(bad))
    if verbose:
        print("live %d examined %d leaked %d rows %d" %
              (total, head["objects"], sum(rows.values()), len(rows)))
