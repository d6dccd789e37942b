# peak-top-time.c: from `heapprof show PROFRAW` and `heapprof report
# PROFRAW`, the peak's time against the contexts' times.  The phase-2
# context is the one allocated last (the larger AllocTimestamp: its first
# object's time); the peak's time must be at or after it, and at least
# GAP ms before END: the phase-2 context's DeallocTimestamp (its free, read
# as an end: never before the true time), or with --dump the dump's time.
import re, subprocess, sys

dump = sys.argv[1] == "--dump"
path, gap = sys.argv[-2], int(sys.argv[-1])
show = subprocess.run(["heapprof", "show", path], capture_output=True,
                      text=True, check=True).stdout
mibs = [(int(a), int(d)) for a, d in
        re.findall(r"AllocTimestamp=(\d+) DeallocTimestamp=(\d+)", show)]
alloc2, dealloc2 = max(mibs)
dump_ms = int(re.search(r"checkpoint 0, (\d+) ms", show).group(1))
peak_ms = int(re.search(r"peak_ms=(\d+)", show).group(1))
end = dump_ms if dump else dealloc2
rep = subprocess.run(["heapprof", "report", path], capture_output=True,
                     text=True, check=True).stdout
at = int(re.search(r"^peak .* at (\d+) ms", rep, re.M).group(1))
ok = alloc2 <= peak_ms and peak_ms + gap <= end and at == peak_ms
print("peak at the top" if ok else
      f"peak_ms={peak_ms} (report: {at}): phase 2 allocated at {alloc2}, "
      f"{'dumped' if dump else 'freed'} at {end}")
