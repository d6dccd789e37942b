"""Writes a raw profile of N allocation contexts for heapprof report's
scale benchmark, from a real one-dump profile of a program: its header,
segments, modules and bins are kept; its first MemInfoBlock and extension
record are repeated N times, each with its own stack of DEPTH return
addresses taken from the program's executable segment (so every frame
symbolizes to a real function and line).

usage: gen-profile.py IN OUT N [DEPTH [VARIANT]]

VARIANT 1 writes the same program's profile after a change, for heapprof
diff: another process (pid + 1), every 10th context's bytes doubled, every
20th context's stack replaced by one the base lacks (a context gone, one
new).  VARIANT 0 (the default) is the base.
"""
import random
import struct
import sys

src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
depth = int(sys.argv[4]) if len(sys.argv) > 4 else 8
variant = int(sys.argv[5]) if len(sys.argv) > 5 else 0
d = open(src, "rb").read()
magic, ver, total, seg_off, mib_off, stack_off = struct.unpack_from("<6Q", d, 0)
assert ver == 4
nsegs = struct.unpack_from("<Q", d, seg_off)[0]
start, end = struct.unpack_from("<2Q", d, seg_off + 8)  # the program's text
segs = d[seg_off:mib_off]
mib = d[mib_off + 8:mib_off + 8 + 152]
# the extension: after the stack section
pos = stack_off
ns = struct.unpack_from("<Q", d, pos)[0]
pos += 8
for _ in range(ns):
    k = struct.unpack_from("<Q", d, pos + 8)[0]
    pos += 16 + 8 * k
ext = pos
emagic, ever, esize, seq, ms, pid, evict, nfields, nrec = struct.unpack_from("<9Q", d, ext)
rec = d[ext + 72:ext + 72 + 8 * (1 + nfields)]
tail = d[ext + 72 + nrec * 8 * (1 + nfields):ext + esize]  # modules, bins

rng = random.Random(1)
# A few hundred distinct addresses per frame level: many contexts share
# functions, as in a real program.
pcs = [rng.randrange(start, end) for _ in range(512)]
seen = set()
stacks = []
while len(stacks) < n:
    s = tuple(rng.choice(pcs) for _ in range(depth))
    if s not in seen:
        seen.add(s)
        stacks.append(s)
if variant:
    pid += 1
    for i in range(0, n, 20):
        while True:
            s = tuple(rng.choice(pcs) for _ in range(depth))
            if s not in seen:
                seen.add(s)
                stacks[i] = s
                break

out = bytearray()
mibs = bytearray(struct.pack("<Q", n))
TOTAL_SIZE = 8 + 0x1c  # MIB: stack id, then TotalSize at 0x1c (u64)
total_size = struct.unpack_from("<Q", mib, TOTAL_SIZE)[0]
for i in range(n):
    m = bytearray(mib)
    if variant and i % 10 == 0:
        struct.pack_into("<Q", m, TOTAL_SIZE, 2 * total_size)
    mibs += struct.pack("<Q", i + 1) + m[8:]
stk = bytearray(struct.pack("<Q", n))
for i, s in enumerate(stacks):
    stk += struct.pack("<QQ", i + 1, len(s)) + struct.pack("<%dQ" % len(s), *s)
recs = bytearray()
for i in range(n):
    recs += struct.pack("<Q", i + 1) + rec[8:]
ext_size = 72 + len(recs) + len(tail)
extb = struct.pack("<9Q", emagic, ever, ext_size, seq, ms, pid, evict, nfields, n) + recs + tail
seg_off2 = 48
mib_off2 = seg_off2 + len(segs)
stack_off2 = mib_off2 + len(mibs)
total2 = stack_off2 + len(stk) + len(extb)
out += struct.pack("<6Q", magic, 4, total2, seg_off2, mib_off2, stack_off2)
out += segs + mibs + stk + extb
open(dst, "wb").write(out)
