#!/usr/bin/env python3
"""Compare a heapprof raw profile (via `heapprof show`) with a DHAT profile.

usage: compare.py HEAPPROF_BIN PROFRAW DHAT_JSON VALGRIND_LOG [K]

Frames are normalised to (module file name, file address) on both sides:
heapprof's PC minus its module's bias; DHAT's address minus the bias that
valgrind -v printed ("Reading syms from F" / "svma S, avma A"). Contexts are
keyed by their innermost K frames (default 8). DHAT's allocator frames
(vgpreload_*, the realloc shim) and its frames from the C library's start
(__libc_start_call_main, start_thread, ...) on are dropped, as heapprof drops
its own and the start-up's. Under a signal handler, the frame the signal
interrupted is no return address: heapprof keeps its PC, DHAT that PC - 1
(docs/run.md, "Checked against DHAT"); the DHAT frame after a signal
trampoline (the code `mov $15, %rax; syscall`, rt_sigreturn) gets its 1 back.
"""
import collections, json, os, re, subprocess, sys

heapprof, profraw, dhat_json, vglog = sys.argv[1:5]
K = int(sys.argv[5]) if len(sys.argv) > 5 else 8


def load_segments(path):
    """[(lo, hi, file offset)] of the PT_LOAD segments, by file address."""
    out = subprocess.run(["readelf", "-lW", path], capture_output=True,
                         text=True).stdout
    r = []
    for l in out.splitlines():
        f = l.split()
        if f and f[0] == "LOAD":
            off, va, fsz = int(f[1], 16), int(f[2], 16), int(f[4], 16)
            msz = int(f[5], 16)
            r.append((va, va + msz, off, fsz))
    return r


def load_ranges(path):
    """[(lo, hi)] file-address ranges of PT_LOAD segments."""
    return [(lo, hi) for lo, hi, _, _ in load_segments(path)]


# x86-64 Linux's signal trampoline (glibc's __restore_rt): rt_sigreturn.
SIGRETURN = bytes.fromhex("48c7c00f0000000f05")
tramp_cache = {}


def is_trampoline(path, addr):
    """Whether file address addr of path is a signal trampoline's frame:
    its code is at addr or, as both profilers give the handler's return
    address less 1 (glibc puts a nop before __restore_rt for that), at
    addr + 1."""
    k = (path, addr)
    if k not in tramp_cache:
        hit = False
        try:
            with open(path, "rb") as f:
                for lo, hi, off, fsz in load_segments(path):
                    for a in (addr, addr + 1):
                        if lo <= a and a + len(SIGRETURN) <= lo + fsz:
                            f.seek(off + a - lo)
                            hit = hit or f.read(len(SIGRETURN)) == SIGRETURN
        except OSError:
            pass
        tramp_cache[k] = hit
    return tramp_cache[k]


def canon(path):
    try:
        return os.path.basename(os.path.realpath(path))
    except OSError:
        return os.path.basename(path)


# ---- heapprof
show = subprocess.run([heapprof, "show", profraw], capture_output=True,
                      text=True, check=True).stdout
segs, mods = [], {}
hp = collections.defaultdict(lambda: [0, 0])
hp_total = [0, 0]
cur = None
for l in show.splitlines():
    m = re.match(r"\s+segment \d+: 0x([0-9a-f]+)-0x([0-9a-f]+) offset 0x[0-9a-f]+ build id ([0-9a-f]*)", l)
    if m:
        segs.append((int(m[1], 16), int(m[2], 16), m[3]))
        continue
    m = re.match(r"\s+module \d+: (.*) bias 0x([0-9a-f]+) build id ([0-9a-f]*)", l)
    if m:
        mods[m[3]] = (canon(m[1]), int(m[2], 16))
        continue
    m = re.match(r"\s+MIB stack id \d+: AllocCount=(\d+) .*TotalSize=(\d+)", l)
    if m:
        cur = (int(m[1]), int(m[2]))
        continue
    m = re.match(r"\s+stack:(.*)", l)
    if m and cur:
        frames = []
        for a in m[1].split():
            pc = int(a, 16)
            fr = ("?", pc)
            for lo, hi, bid in segs:
                if lo <= pc < hi and bid in mods:
                    name, bias = mods[bid]
                    fr = (name, pc - bias)
                    break
            frames.append(fr)
        key = tuple(frames[:K])
        hp[key][0] += cur[0]
        hp[key][1] += cur[1]
        hp_total[0] += cur[0]
        hp_total[1] += cur[1]
        cur = None

# ---- valgrind's module map
vmods = []  # (lo, hi, name, bias)
vpaths = {}  # name -> path
lines = open(vglog).read().splitlines()
for i, l in enumerate(lines):
    m = re.search(r"Reading syms from (\S+)", l)
    if m:
        m2 = None
        for l2 in lines[i + 1:i + 12]:
            if "Reading syms" in l2:
                break
            m2 = re.search(r"svma 0x([0-9a-f]+), avma 0x([0-9a-f]+)", l2)
            if m2:
                break
        if m2:
            bias = int(m2[2], 16) - int(m2[1], 16)
            vpaths[canon(m[1])] = m[1]
            for lo, hi in load_ranges(m[1]):
                vmods.append((lo + bias, hi + bias, canon(m[1]), bias))

d = json.load(open(dhat_json))
ftbl = d["ftbl"]
STOP = re.compile(r": (\(below main\)|__libc_start_call_main|__libc_start_main\w*|start_thread|clone3?|_start) ")
SKIP = re.compile(r"\(in [^)]*(vgpreload_|realloc_shim)")
fcache = {}


def vframe(i):
    if i in fcache:
        return fcache[i]
    s = ftbl[i]
    m = re.match(r"0x([0-9A-Fa-f]+):", s)
    r = None
    if m:
        a = int(m[1], 16)
        r = ("?", a)
        for lo, hi, name, bias in vmods:
            if lo <= a < hi:
                r = (name, a - bias)
                break
    fcache[i] = (r, s)
    return fcache[i]


dh = collections.defaultdict(lambda: [0, 0])
dh_total = [0, 0]
names = {}
for p in d["pps"]:
    frames = []
    gstart = None
    for i in p["fs"]:
        fr, s = vframe(i)
        if fr is None or SKIP.search(s):
            continue
        if STOP.search(s):
            break
        if frames and names.get(frames[-1], "").startswith("_dl_init ") \
                and fr[0].startswith("ld-linux"):
            break  # _dl_start_user, ld.so's start (heapprof ends at _dl_init)
        if frames and frames[-1] == fr and i != gstart:
            continue  # an inlined frame: valgrind repeats the address
        gstart = i  # a recursive call repeats the group's first entry
        names[fr] = s.split(": ", 1)[1] if ": " in s else s
        frames.append(fr)
    # The interrupted frame under a handler: DHAT's PC - 1 back to the PC.
    for j in range(1, len(frames)):
        prev = frames[j - 1]
        if prev[0] in vpaths and is_trampoline(vpaths[prev[0]], prev[1]) \
                and frames[j][0] != "?":
            fr = (frames[j][0], frames[j][1] + 1)
            names.setdefault(fr, names.get(frames[j], ""))
            frames[j] = fr
    key = tuple(frames[:K])
    dh[key][0] += p["tbk"]
    dh[key][1] += p["tb"]
    dh_total[0] += p["tbk"]
    dh_total[1] += p["tb"]


def fmt(fr):
    n = names.get(fr)
    return n if n else "%s+0x%x" % fr


print("totals: heapprof %d allocs %d bytes; DHAT %d blocks %d bytes" %
      (hp_total[0], hp_total[1], dh_total[0], dh_total[1]))
keys = set(hp) | set(dh)
same = [k for k in keys if hp.get(k) == dh.get(k)]
print("contexts (innermost %d frames): heapprof %d, DHAT %d, equal counts and bytes %d"
      % (K, len(hp), len(dh), len(same)))
top = sorted(hp, key=lambda k: -hp[k][1])[:20]
ok = sum(1 for k in top if k in dh)
eq = sum(1 for k in top if dh.get(k) == hp[k])
print("top 20 by bytes: %d have the same %d innermost frames in DHAT, %d of them with the same counts and bytes" % (ok, K, eq))
diff = sorted((k for k in keys if hp.get(k) != dh.get(k)),
              key=lambda k: -max(hp.get(k, [0, 0])[1], dh.get(k, [0, 0])[1]))
print("mismatched contexts: %d (heapprof allocs/bytes vs DHAT blocks/bytes)" % len(diff))
for k in diff[:int(os.environ.get("SHOW", "15"))]:
    print("  heapprof %s  DHAT %s" % (hp.get(k), dh.get(k)))
    for fr in k:
        print("     %s" % fmt(fr))

# heapprof-only contexts against the DHAT-only one sharing the longest prefix
honly = [k for k in hp if k not in dh]
donly = [k for k in dh if k not in hp]
for k in sorted(honly, key=lambda k: -hp[k][1])[:int(os.environ.get("SHOW", "15"))]:
    best, bl = None, -1
    for k2 in donly:
        n = 0
        while n < min(len(k), len(k2)) and k[n] == k2[n]:
            n += 1
        if n > bl:
            best, bl = k2, n
    print("heapprof-only %s (%d frames); nearest DHAT-only %s (%d frames) agree on %d frames"
          % (hp[k], len(k), dh.get(best), len(best or ()), bl))
    if best is not None:
        for j in range(max(0, bl - 2), min(max(len(k), len(best)), bl + 3)):
            a = k[j] if j < len(k) else None
            b = best[j] if j < len(best) else None
            print("   #%d heapprof %-28s DHAT %-28s %s" % (
                j, "%s+0x%x" % a if a else "-", "%s+0x%x" % b if b else "-",
                fmt(b) if b else ""))
