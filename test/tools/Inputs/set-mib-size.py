"""Sets the TotalSize of a MIB of every dump of a raw profile (as a
corrupt file could have it): the first, or the one whose AllocCount is
ALLOCS.

usage: set-mib-size.py FILE VALUE [ALLOCS]
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
    # Each record: its stack id (u64), then the MIB, whose TotalSize
    # follows AllocCount (u32) and three u64 access counts; the records
    # fill the section up to the stacks.
    size = (stack_off - mib_off - 8) // n
    done = False
    for i in range(n):
        rec = off + mib_off + 8 + i * size
        if allocs is None or struct.unpack_from("<I", d, rec + 8)[0] == allocs:
            struct.pack_into("<Q", d, rec + 8 + 4 + 3 * 8, value)
            done = True
            break
    assert done, "no MIB with that AllocCount"
    off += total
open(path, "wb").write(bytes(d))
