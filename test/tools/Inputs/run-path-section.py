"""Damages the section of the path the program was run by (tag 15) of a
raw profile, for the refusal tests of
test/heapprof/Run/program-name-symlink.c.

usage: run-path-section.py KIND IN OUT
  KIND length  the length reaches past the payload
       nul     a NUL inside the path (its first byte)

The section is found by its tag, its size and a length that fits it."""
import struct
import sys

kind, src, out = sys.argv[1:4]
data = bytearray(open(src, "rb").read())
for at in range(0, len(data) - 24, 8):
    tag, size, length = struct.unpack_from("<QQQ", data, at)
    if tag != 15 or not length or size != 8 + (length + 8) // 8 * 8:
        continue
    if kind == "length":
        struct.pack_into("<Q", data, at + 16, size)
    elif kind == "nul":
        data[at + 24] = 0
    else:
        sys.exit("unknown kind " + kind)
    open(out, "wb").write(data)
    sys.exit(0)
sys.exit("no program path section (tag 15) found")
