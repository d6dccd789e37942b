"""Damages the leak check's section (tag 10) of a raw profile, for the
refusal tests of test/tools/leaks.c.

usage: leak-section.py KIND IN OUT
  KIND head       the head says 9 words (fewer than its 10)
       row-words  rows of 4 words (fewer than their 5)
       rows       1000000 rows, more than the payload holds
       stack-id   the first row's stack id is one no record has (12345678)

The section is found by its shape: tag 10, a payload of exactly
head_words x 8 + nrows x row_words x 8 bytes, head_words 10, row_words 5."""
import struct
import sys

kind, src, out = sys.argv[1:4]
data = bytearray(open(src, "rb").read())
for at in range(0, len(data) - 96, 8):
    tag, size, head = struct.unpack_from("<QQQ", data, at)
    if tag != 10 or head != 10:
        continue
    row, n = struct.unpack_from("<QQ", data, at + 16 + 64)
    if row != 5 or size != 8 * (head + row * n):
        continue
    if kind == "head":
        struct.pack_into("<Q", data, at + 16, 9)
    elif kind == "row-words":
        struct.pack_into("<Q", data, at + 16 + 64, 4)
    elif kind == "rows":
        struct.pack_into("<Q", data, at + 16 + 72, 1000000)
    elif kind == "stack-id":
        assert n, "no rows"
        struct.pack_into("<Q", data, at + 16 + 80, 12345678)
    else:
        sys.exit("unknown kind " + kind)
    open(out, "wb").write(data)
    sys.exit(0)
sys.exit("no leak section (tag 10) found")
