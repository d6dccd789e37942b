"""Writes damaged copies of a raw profile for heapprof show's error tests.

usage: corrupt.py IN OUTDIR
"""
import os
import struct
import sys

src, out = sys.argv[1], sys.argv[2]
data = bytearray(open(src, "rb").read())
total = struct.unpack_from("<Q", data, 16)[0]
stack_off = struct.unpack_from("<Q", data, 40)[0]


def write(name, b):
    with open(os.path.join(out, name), "wb") as f:
        f.write(bytes(b))


b = bytearray(data); b[0] ^= 0xFF; write("bad-magic.profraw", b)
b = bytearray(data); struct.pack_into("<Q", b, 8, 5); write("version5.profraw", b)
write("truncated.profraw", data[: len(data) // 2])
b = bytearray(data); struct.pack_into("<Q", b, 16, total + 4096); write("total-too-big.profraw", b)
b = bytearray(data); struct.pack_into("<Q", b, 40, total + 8); write("stack-offset.profraw", b)
# the MIB count claims far more records than fit
mib_off = struct.unpack_from("<Q", data, 32)[0]
b = bytearray(data); struct.pack_into("<Q", b, mib_off, 1 << 40); write("mib-count.profraw", b)
# find the extension (after the stack section) and damage its version
pos = stack_off
n = struct.unpack_from("<Q", data, pos)[0]; pos += 8
for _ in range(n):
    k = struct.unpack_from("<Q", data, pos + 8)[0]
    pos += 16 + 8 * k
assert struct.unpack_from("<Q", data, pos)[0] == 0x0076005458455048, "no extension"
b = bytearray(data); struct.pack_into("<Q", b, pos + 8, 4); write("ext-version.profraw", b)
b = bytearray(data); struct.pack_into("<Q", b, pos + 8, 0); write("ext-version0.profraw", b)
b = bytearray(data); struct.pack_into("<Q", b, pos + 16, 1 << 30); write("ext-size.profraw", b)
b = bytearray(data); struct.pack_into("<Q", b, pos + 16, 16); write("ext-size-small.profraw", b)
# version 2's sections follow the records: modules, then size bins
nfields, nrec = struct.unpack_from("<QQ", data, pos + 56)
rec_end = pos + 72 + nrec * 8 * (1 + nfields)
# the same dump as extension version 1 wrote it: no modules, no bins
b = bytearray(data[:rec_end])
struct.pack_into("<Q", b, 16, rec_end)
struct.pack_into("<Q", b, pos + 8, 1)
struct.pack_into("<Q", b, pos + 16, rec_end - pos)
write("ext-v1.profraw", b)
nmod = struct.unpack_from("<Q", data, rec_end)[0]
b = bytearray(data); struct.pack_into("<Q", b, rec_end, 1 << 40); write("module-count.profraw", b)
b = bytearray(data); struct.pack_into("<Q", b, rec_end + 8 + 48, 1 << 40); write("module-path.profraw", b)
b = bytearray(data); struct.pack_into("<Q", b, rec_end + 8 + 8, 33); write("module-build-id.profraw", b)
bins = rec_end + 8
for _ in range(nmod):
    n = struct.unpack_from("<Q", data, bins + 48)[0]
    bins += 56 + (n + 7) // 8 * 8
b = bytearray(data); struct.pack_into("<Q", b, bins, 1 << 40); write("bin-count.profraw", b)
b = bytearray(data); struct.pack_into("<Q", b, bins + 8, 1026); write("bin-size.profraw", b)
write("empty.profraw", b"")
# two copies back to back: a valid two-dump file
write("two-dumps.profraw", data + data)
# extension version 3's tagged sections follow the bins and end the
# extension; put other lists in their place
ext_size = struct.unpack_from("<Q", data, pos + 16)[0]
nbins = struct.unpack_from("<Q", data, bins)[0]
sections = bins + 8 + 40 * nbins
assert pos + ext_size == len(data) and sections < len(data)


def with_sections(words):
    b = bytearray(data[:sections]) + struct.pack("<%dQ" % len(words), *words)
    struct.pack_into("<Q", b, 16, len(b))
    struct.pack_into("<Q", b, pos + 16, len(b) - pos)
    return b


# tags 97 and 99: no reader knows them (shown word by word, never merged)
write("sections.profraw", with_sections([2, 97, 16, 11, 12, 99, 8, 13]))
write("section-order.profraw", with_sections([2, 99, 8, 13, 97, 16, 11, 12]))
write("section-odd.profraw", with_sections([1, 97, 12, 11, 12]))
write("section-size.profraw", with_sections([1, 97, 1 << 30, 11]))
write("section-count.profraw", with_sections([1 << 40]))
# heap utilization (tag 7) has 8 words; 2 is too few to merge
write("section-util-short.profraw", with_sections([1, 7, 16, 11, 12]))
# false sharing (tag 6): 10 head words claiming 5 rows of 5 words, none there
write("section-fs-rows.profraw", with_sections([1, 6, 80, 0, 0, 0, 0, 0, 0, 0, 0, 5, 5]))
