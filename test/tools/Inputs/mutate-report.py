"""Runs `heapprof report` (text and JSON) on many randomly damaged copies of
a raw profile and fails if it ever dies of a signal instead of exiting 0 or
1, or fails with anything but one "heapprof: error:" line.

usage: mutate-report.py HEAPPROF IN BINARY WORKDIR COUNT
"""
import os
import random
import subprocess
import sys

tool, src, binary, work = sys.argv[1:5]
count = int(sys.argv[5])
data = open(src, "rb").read()
rng = random.Random(4321)  # deterministic
bad = 0
for i in range(count):
    b = bytearray(data)
    kind = i % 4
    if kind == 0:  # flip a few bytes anywhere
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] ^= rng.randrange(1, 256)
    elif kind == 1:  # a header, count or field word set to a random value
        pos = rng.randrange(0, len(b) - 8) & ~7
        b[pos:pos + 8] = rng.getrandbits(64).to_bytes(8, "little")
    elif kind == 2:  # cut it short
        b = b[: rng.randrange(len(b))]
    else:  # append garbage
        b += bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    path = os.path.join(work, "m%d.profraw" % i)
    open(path, "wb").write(bytes(b))
    fmt = "json" if i % 2 else "text"
    r = subprocess.run([tool, "report", "--top", "0", "--format", fmt,
                        "--binary", binary, path],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = r.stderr.decode(errors="replace").splitlines()
    errors = [l for l in err if l.startswith("heapprof: error:")]
    if r.returncode not in (0, 1) or (r.returncode == 1 and len(errors) != 1):
        bad += 1
        print("mutation %d (%s): exit %d: %s" % (i, path, r.returncode, err[:3]))
print("%d mutations, %d bad" % (count, bad))
