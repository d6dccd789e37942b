"""Damages the unloaded modules' section (tag 11) of a raw profile, for the
refusal tests of test/tools/unloaded-errors.c.

usage: unloaded-section.py KIND IN OUT
  KIND head      the head says 2 words (fewer than its 3)
       count     1000000 modules, more than the payload holds
       build-id  the first module's build id is 33 bytes (at most 32)
       segs      the first module has 5 segments (at most 4)
       seg-end   the first module's first segment ends at its start

The section is found by its tag followed by head_words 3; the first
module starts at word 3 of the payload: unloaded_ms, bias, build id size,
32 bytes of build id, nsegs, then the segments."""
import struct
import sys

kind, src, out = sys.argv[1:4]
data = bytearray(open(src, "rb").read())
for at in range(0, len(data) - 40, 8):
    tag, size, head, n = struct.unpack_from("<QQQQ", data, at)
    if tag != 11 or head != 3 or not n or size < 8 * 3 + 72:
        continue
    mod = at + 16 + 24
    if kind == "head":
        struct.pack_into("<Q", data, at + 16, 2)
    elif kind == "count":
        struct.pack_into("<Q", data, at + 24, 1000000)
    elif kind == "build-id":
        struct.pack_into("<Q", data, mod + 16, 33)
    elif kind == "segs":
        struct.pack_into("<Q", data, mod + 56, 5)
    elif kind == "seg-end":
        start, = struct.unpack_from("<Q", data, mod + 64)
        struct.pack_into("<Q", data, mod + 72, start)
    else:
        sys.exit("unknown kind " + kind)
    open(out, "wb").write(data)
    sys.exit(0)
sys.exit("no unloaded modules' section (tag 11) found")
