# peak-time.c: runs PROGRAM N times into DIR, then for each profile checks
# that the peak's time (tag 1's peak_ms) is not after its dump's time, in
# `heapprof show` and in the report's summary ("peak ... at A ms", "time
# span B ms").
import os, re, subprocess, sys

prog, outdir, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
env = dict(os.environ, HEAPPROF_OPTIONS="profile_dir=" + outdir)
for _ in range(n):
    subprocess.run([prog], env=env, check=True)
files = sorted(f for f in os.listdir(outdir) if f.endswith(".profraw"))
show_ok = report_ok = 0
for f in files:
    path = os.path.join(outdir, f)
    show = subprocess.run(["heapprof", "show", path], capture_output=True,
                          text=True, check=True).stdout
    dump_ms = int(re.search(r"checkpoint 0, (\d+) ms", show).group(1))
    peak_ms = int(re.search(r"peak_ms=(\d+)", show).group(1))
    show_ok += peak_ms <= dump_ms
    if peak_ms > dump_ms:
        print(f"{f}: peak_ms={peak_ms} after the dump's {dump_ms} ms")
    rep = subprocess.run(["heapprof", "report", path], capture_output=True,
                         text=True, check=True).stdout
    at = int(re.search(r"^peak .* at (\d+) ms", rep, re.M).group(1))
    span = int(re.search(r"^time span +(\d+) ms", rep, re.M).group(1))
    report_ok += at <= span
print(f"{len(files)} profiles: peak_ms <= the dump's ms in {show_ok}, "
      f"the report's peak time <= its time span in {report_ok}")
