"""Runs a heapprof command on many randomly damaged copies of a raw profile
and fails if it ever dies of a signal (a crash) instead of exiting 0 or 1,
or exits 1 with anything but exactly one "heapprof: error:" line, first.

usage: mutate.py IN WORKDIR COUNT SEED [--alternate A,B] -- HEAPPROF ARGS...

In ARGS, @PROFILE stands for the damaged copy and @ALT for A in the even
mutations and B in the odd ones (e.g. --format @ALT with text,json).  The
damage: a few bytes flipped, a header, count or field word set to a random
value, the file cut short, or garbage appended, in turn; the copies that
pass are deleted, the bad ones kept in WORKDIR.  Deterministic for a SEED.
"""
import os
import random
import subprocess
import sys

src, work, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rest = sys.argv[5:]
alternate = None
if rest[0] == "--alternate":
    alternate = rest[1].split(",")
    rest = rest[2:]
assert rest[0] == "--", __doc__
command = rest[1:]
data = open(src, "rb").read()
rng = random.Random(seed)
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
    args = [path if a == "@PROFILE" else
            alternate[i % 2] if a == "@ALT" and alternate else a
            for a in command]
    r = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = r.stderr.decode(errors="replace").splitlines()
    errors = [l for l in err if l.startswith("heapprof: error: ")]
    if r.returncode not in (0, 1) or (
            r.returncode == 1 and (len(errors) != 1 or err[0] != errors[0])):
        bad += 1
        print("mutation %d (%s): exit %d: %s" % (i, path, r.returncode, err[:3]))
    else:
        os.unlink(path)
print("%d mutations, %d bad" % (count, bad))
sys.exit(1 if bad else 0)
