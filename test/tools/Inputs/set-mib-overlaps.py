"""Sets the NumLifetimeOverlaps (a u32) of a MIB of every dump of a raw
profile: the first, or the one whose AllocCount is ALLOCS.  As
set-mib-size.py, for the u32 counts' clamp in heapprof merge.

usage: set-mib-overlaps.py FILE VALUE [ALLOCS]
"""
import struct
import sys

path, value = sys.argv[1], int(sys.argv[2], 0)
allocs = int(sys.argv[3]) if len(sys.argv) > 3 else None
d = bytearray(open(path, "rb").read())
off = 0
while off < len(d):
    total = struct.unpack_from("<Q", d, off + 16)[0]
    mib_off, stack_off = struct.unpack_from("<QQ", d, off + 32)
    n = struct.unpack_from("<Q", d, off + mib_off)[0]
    assert n > 0, "no MIB"
    # Each record: its stack id (u64), then the packed MIB: AllocCount
    # (u32), three u64 access counts, TotalSize (u64), MinSize, MaxSize,
    # AllocTimestamp, DeallocTimestamp (u32 each), TotalLifetime (u64),
    # MinLifetime, MaxLifetime, AllocCpuId, DeallocCpuId, NumMigratedCpu
    # (u32 each), then NumLifetimeOverlaps: 80 bytes into the MIB.
    size = (stack_off - mib_off - 8) // n
    done = False
    for i in range(n):
        rec = off + mib_off + 8 + i * size
        if allocs is None or struct.unpack_from("<I", d, rec + 8)[0] == allocs:
            struct.pack_into("<I", d, rec + 8 + 80, value)
            done = True
            break
    assert done, "no MIB with that AllocCount"
    off += total
open(path, "wb").write(bytes(d))
