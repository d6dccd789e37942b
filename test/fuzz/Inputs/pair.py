#!/usr/bin/env python3
"""merge_fuzzer's seeds (tools/heapprof/fuzz/merge_fuzzer.c) from raw
profiles: each input is a u32 (little-endian) N, then the first profile's N
bytes, then the second's.  Writes into OUTDIR, for the profiles given (in
name order), each one alone and each one with the next (the last with the
first): a process's checkpoint with its exit dump, one process with another.

usage: pair.py OUTDIR PROFILE...
"""
import os
import struct
import sys


def main():
    out, files = sys.argv[1], sorted(sys.argv[2:])
    if not files:
        sys.exit("pair.py: no profiles given")
    data = [open(f, "rb").read() for f in files]
    n = 0
    for i, a in enumerate(data):
        for b in (b"", data[(i + 1) % len(data)]):
            with open(os.path.join(out, "seed-%d" % n), "wb") as f:
                f.write(struct.pack("<I", len(a)) + a + b)
            n += 1


main()
