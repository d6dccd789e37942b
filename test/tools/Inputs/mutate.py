"""Runs `heapprof show` on many randomly damaged copies of a raw profile and
fails if it ever dies of a signal (a crash) instead of exiting 0 or 1.

usage: mutate.py HEAPPROF IN WORKDIR COUNT
"""
import os
import random
import subprocess
import sys

tool, src, work, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
data = open(src, "rb").read()
rng = random.Random(1234)  # deterministic
bad = 0
for i in range(count):
    b = bytearray(data)
    kind = i % 4
    if kind == 0:  # flip a few bytes anywhere
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] ^= rng.randrange(1, 256)
    elif kind == 1:  # damage a header or count word with a big value
        pos = rng.randrange(0, len(b) - 8) & ~7
        b[pos:pos + 8] = rng.getrandbits(64).to_bytes(8, "little")
    elif kind == 2:  # cut it short
        b = b[: rng.randrange(len(b))]
    else:  # append garbage
        b += bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    path = os.path.join(work, "m%d.profraw" % i)
    open(path, "wb").write(bytes(b))
    r = subprocess.run([tool, "show", path], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE)
    if r.returncode not in (0, 1):
        print("CRASH: exit %d on %s" % (r.returncode, path))
        bad += 1
    elif r.returncode == 1 and not r.stderr.startswith(b"heapprof: error: "):
        print("NO MESSAGE: %s" % path)
        bad += 1
    else:
        os.unlink(path)
print("%d mutations, %d bad" % (count, bad))
sys.exit(1 if bad else 0)
