"""Damages the command line's section (tag 14) of a raw profile, for the
refusal tests of test/tools/command-line.c.

usage: command-section.py KIND IN OUT
  KIND argc    argc one more than the arguments the bytes hold
       length  the length reaches past the payload
       flags   a flag no runtime writes (2)

The section is found by its tag, its size, flags 0 or 1, an argc and a
length that fit the size."""
import struct
import sys

kind, src, out = sys.argv[1:4]
data = bytearray(open(src, "rb").read())
for at in range(0, len(data) - 40, 8):
    tag, size, flags, argc, length = struct.unpack_from("<QQQQQ", data, at)
    if tag != 14 or flags > 1 or not argc or size != 24 + (length + 7) // 8 * 8:
        continue
    if kind == "argc":
        struct.pack_into("<Q", data, at + 24, argc + 1)
    elif kind == "length":
        struct.pack_into("<Q", data, at + 32, size)
    elif kind == "flags":
        struct.pack_into("<Q", data, at + 16, 2)
    else:
        sys.exit("unknown kind " + kind)
    open(out, "wb").write(data)
    sys.exit(0)
sys.exit("no command line section (tag 14) found")
