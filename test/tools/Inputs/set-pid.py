"""Rewrites the pid (and, if given, the ms since start) in the heapprof
extension of every dump of a raw profile, as if the process had had
another pid (pid reuse in containers).

usage: set-pid.py FILE PID [MS]
"""
import struct
import sys

path, pid = sys.argv[1], int(sys.argv[2])
ms = int(sys.argv[3]) if len(sys.argv) > 3 else None
d = bytearray(open(path, "rb").read())
off = 0
while off < len(d):
    total, stack_off = struct.unpack_from("<Q", d, off + 16)[0], struct.unpack_from("<Q", d, off + 40)[0]
    pos = off + stack_off
    n = struct.unpack_from("<Q", d, pos)[0]
    pos += 8
    for _ in range(n):
        pos += 16 + 8 * struct.unpack_from("<Q", d, pos + 8)[0]
    assert struct.unpack_from("<Q", d, pos)[0] == 0x0076005458455048, "no extension"
    struct.pack_into("<Q", d, pos + 40, pid)
    if ms is not None:
        struct.pack_into("<Q", d, pos + 32, ms)
    off += total
open(path, "wb").write(bytes(d))
