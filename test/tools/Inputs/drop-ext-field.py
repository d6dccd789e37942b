"""Rewrites a raw profile as an older runtime would have written it, with
the last N heapprof extension fields of every record left out (the header's
field count, each record, the extension's and the dump's sizes adjusted).

usage: drop-ext-field.py IN OUT N"""
import struct
import sys

EXT_MAGIC = 0x0076005458455048
data = open(sys.argv[1], "rb").read()
drop = int(sys.argv[3])
out = bytearray()
pos = 0
while pos < len(data):
    # Raw header: magic, version, total size, then the section offsets.
    total = struct.unpack_from("<Q", data, pos + 16)[0]
    dump = bytearray(data[pos:pos + total])
    at = dump.find(struct.pack("<Q", EXT_MAGIC))
    assert at > 0, "no extension"
    (_, _, size, seq, ms, pid, evict, nfields, nrec) = struct.unpack_from("<9Q", dump, at)
    head = 9 * 8
    recs = at + head
    rec_size = 8 * (1 + nfields)
    new_recs = bytearray()
    for r in range(nrec):
        rec = dump[recs + r * rec_size:recs + (r + 1) * rec_size]
        new_recs += rec[:rec_size - 8 * drop]
    rest = dump[recs + nrec * rec_size:]
    ext = bytearray(dump[at:at + head]) + new_recs + rest[:size - head - nrec * rec_size]
    struct.pack_into("<Q", ext, 16, len(ext))
    struct.pack_into("<Q", ext, 56, nfields - drop)
    new_dump = dump[:at] + ext + rest[size - head - nrec * rec_size:]
    struct.pack_into("<Q", new_dump, 16, len(new_dump))
    out += new_dump
    pos += total
open(sys.argv[2], "wb").write(out)
