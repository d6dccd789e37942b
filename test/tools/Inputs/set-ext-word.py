"""Sets a word of the heapprof extension in every dump of a raw profile (as
a corrupt file could have it):

  set-ext-word.py FILE field N ALLOCS VALUE   extension field N of the
                                              record of the MIB whose
                                              AllocCount is ALLOCS
  set-ext-word.py FILE bin SIZE WORD VALUE    word WORD (1 allocs, 2 bytes,
                                              3 frees, 4 freed bytes) of the
                                              size bin SIZE
  set-ext-word.py FILE section TAG WORD VALUE payload word WORD of the
                                              tagged section TAG
  set-ext-word.py FILE header WORD 0 VALUE   word WORD of the extension's
                                              header (6: HIB table evictions)

Layouts: docs/formats.md, "Raw profile".
"""
import struct
import sys

path, kind = sys.argv[1], sys.argv[2]
a, b, value = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5], 0)
d = bytearray(open(path, "rb").read())
u64 = lambda at: struct.unpack_from("<Q", d, at)[0]
off = 0
while off < len(d):
    total, mib_off, stack_off = u64(off + 16), u64(off + 32), u64(off + 40)
    # The stack id of the MIB with AllocCount ALLOCS (records fill the MIB
    # section up to the stacks: stack id, then the MIB, AllocCount first).
    nmib = u64(off + mib_off)
    size = (stack_off - mib_off - 8) // nmib
    ids = {}
    for i in range(nmib):
        rec = off + mib_off + 8 + i * size
        ids[struct.unpack_from("<I", d, rec + 8)[0]] = u64(rec)
    pos = off + stack_off
    n = u64(pos)
    pos += 8
    for _ in range(n):
        pos += 16 + 8 * u64(pos + 8)
    assert u64(pos) == 0x0076005458455048, "no extension"
    nfields, nrec = u64(pos + 56), u64(pos + 64)
    recs = pos + 72
    at = pos + 8 * a if kind == "header" else None
    if kind == "field":
        for r in range(nrec):
            rec = recs + r * 8 * (1 + nfields)
            if u64(rec) == ids[b]:
                at = rec + 8 + 8 * a
    pos = recs + nrec * 8 * (1 + nfields)
    nmod = u64(pos)
    pos += 8
    for _ in range(nmod):
        pos += 56 + (u64(pos + 48) + 7) // 8 * 8
    nbins = u64(pos)
    pos += 8
    for i in range(nbins):
        if kind == "bin" and u64(pos + 40 * i) == a:
            at = pos + 40 * i + 8 * b
    pos += 40 * nbins
    nsec = u64(pos)
    pos += 8
    for _ in range(nsec):
        tag, psize = u64(pos), u64(pos + 8)
        if kind == "section" and tag == a:
            at = pos + 16 + 8 * b
        pos += 16 + psize
    assert at is not None, "no such %s in the dump at offset %d" % (kind, off)
    struct.pack_into("<Q", d, at, value)
    off += total
open(path, "wb").write(bytes(d))
