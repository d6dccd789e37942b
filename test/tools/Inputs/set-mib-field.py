"""Sets one field of a MIB of every dump of a raw profile (as a corrupt
file could have it): the first, or the one whose AllocCount is ALLOCS.
FIELD is `size` (TotalSize, a u64) or `overlaps` (NumLifetimeOverlaps, a
u32: the u32 counts' clamp in heapprof merge).

usage: set-mib-field.py FILE FIELD VALUE [ALLOCS]
"""
import struct
import sys

# Offsets into the packed MIB: AllocCount (u32), three u64 access counts,
# TotalSize (u64), MinSize, MaxSize, AllocTimestamp, DeallocTimestamp (u32
# each), TotalLifetime (u64), MinLifetime, MaxLifetime, AllocCpuId,
# DeallocCpuId, NumMigratedCpu (u32 each), then NumLifetimeOverlaps.
FIELDS = {"size": ("<Q", 4 + 3 * 8), "overlaps": ("<I", 80)}

path, field, value = sys.argv[1], sys.argv[2], int(sys.argv[3], 0)
fmt, at = FIELDS[field]
allocs = int(sys.argv[4]) if len(sys.argv) > 4 else None
d = bytearray(open(path, "rb").read())
off = 0
while off < len(d):
    total = struct.unpack_from("<Q", d, off + 16)[0]
    mib_off, stack_off = struct.unpack_from("<QQ", d, off + 32)
    n = struct.unpack_from("<Q", d, off + mib_off)[0]
    assert n > 0, "no MIB"
    # Each record: its stack id (u64), then the MIB; the records fill the
    # section up to the stacks.
    size = (stack_off - mib_off - 8) // n
    done = False
    for i in range(n):
        rec = off + mib_off + 8 + i * size
        if allocs is None or struct.unpack_from("<I", d, rec + 8)[0] == allocs:
            struct.pack_into(fmt, d, rec + 8 + at, value)
            done = True
            break
    assert done, "no MIB with that AllocCount"
    off += total
open(path, "wb").write(bytes(d))
