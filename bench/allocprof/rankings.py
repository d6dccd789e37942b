"""Renders bench/allocprof/allocators.sh's results: the table, and whether
heapprof's cost per operation ranks the allocators as their own native
throughput and CPU time do.

usage: rankings.py RESULTS.tsv

RESULTS.tsv has one line per workload and allocator: workload, allocator,
then one column per measure (native throughput, native CPU ns per
operation, native faults, cycles in calls, cycles with faults, outside
faults, profiled throughput, shim cycles, the shim's larger half, the
larger half in calls, then with the profile sampled: cycles in calls, the
larger half, cycles with faults, profiled throughput), each the
comma-separated values of all its runs.

Agreement is judged pair by pair against the reference's run-to-run
spread.  Two allocators are *separated* by a reference when one is better
than the other in every run (run r of each, measured within seconds of
each other); otherwise the reference cannot tell them apart on this
machine, and any order of the two is as right as the other.  A measure
agrees with a reference when it orders every separated pair the same way
(by its representative values, the ones in the table).  With one run
(BENCH_QUICK) every pair with different values is separated: the strict
order.  The verdict says how many pairs each workload's throughput
separated: agreement on none is no evidence.
"""
import statistics
import sys

COLUMNS = ["native", "cpu", "faults", "calls", "withf", "outf", "profiled",
           "shim", "shimh", "half", "scalls", "shalf", "swithf", "sprofiled"]


def median(v):
    return statistics.median_low(v)


# name: (label, higher is better, representative value of the runs)
MEASURES = {
    "native": ("native throughput", True, max),
    "cpu": ("native CPU time per operation", False, min),
    "faults": ("native faults", False, median),
    "shim": ("shim cycles (no heapprof)", False, min),
    "shimh": ("the shim's larger half (no heapprof)", False, min),
    "half": ("the larger half in calls", False, min),
    "calls": ("cycles in calls", False, min),
    "withf": ("cycles with faults", False, min),
    "outf": ("outside faults", False, median),
    "profiled": ("profiled throughput", True, median),
    "scalls": ("sampled: cycles in calls", False, min),
    "shalf": ("sampled: the larger half in calls", False, min),
    "swithf": ("sampled: cycles with faults", False, min),
    "sprofiled": ("sampled: profiled throughput", True, median),
}
REFERENCES = ["native", "cpu"]
JUDGED = ["shim", "shimh", "calls", "half", "withf", "scalls", "shalf",
          "swithf"]
# heapprof's report ranks by its cost per operation including faults
# (docs/allocator-profiler.md): the measure issue 11 asks about, with every
# object profiled and with the profile sampled
REPORTED = ["withf", "swithf"]


def load(path):
    rows = {}
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) != 2 + len(COLUMNS):
            sys.exit(f"rankings.py: error: {path}: a line with {len(f)} "
                     f"fields, not {2 + len(COLUMNS)}")
        runs = {}
        for name, text in zip(COLUMNS, f[2:]):
            runs[name] = [float(x) for x in text.split(",") if x]
        rows.setdefault(f[0], []).append((f[1], runs))
    return rows


def value(runs, m):
    v = runs[m]
    return MEASURES[m][2](v) if v else None


def better(m, a, b):
    """a is better than b by measure m."""
    return a > b if MEASURES[m][1] else a < b


def ahead(runs, m, x, y):
    """x is better than y by m's representative values (both measured)."""
    return bool(runs[x][m] and runs[y][m]) and \
        better(m, value(runs[x], m), value(runs[y], m))


def order(allocs, m):
    """The allocators with a value for m, best first."""
    have = [(a, r) for a, r in allocs if r[m]]
    return [a for a, r in sorted(have, key=lambda x: value(x[1], m),
                                 reverse=MEASURES[m][1])]


def separated(allocs, ref):
    """Pairs (x, y), x better than y by the reference in every run.

    Run r of every allocator was measured within seconds of the others
    (allocators.sh interleaves them), so runs are compared in pairs: the
    machine's speed, which changes over minutes, is then the same on both
    sides of each comparison.  All of RUNS comparisons one way is the sign
    test's verdict at p = 2^(1-RUNS) (0.06 for 5 runs): anything less is a
    tie."""
    pairs, ties = [], []
    have = [(a, r) for a, r in allocs if r[ref]]
    for i, (a, ra) in enumerate(have):
        for b, rb in have[i + 1:]:
            n = min(len(ra[ref]), len(rb[ref]))
            wins_a = sum(better(ref, x, y) for x, y in zip(ra[ref], rb[ref]))
            wins_b = sum(better(ref, y, x) for x, y in zip(ra[ref], rb[ref]))
            if n and wins_a == n:
                pairs.append((a, b))
            elif n and wins_b == n:
                pairs.append((b, a))
            else:
                ties.append((a, b))
    return pairs, ties


def measured_pairs(allocs, m, ref):
    """(pairs, ties): the pairs ref separates, best first, that m has
    values for both of; and the pairs ref does not separate."""
    runs = dict(allocs)
    pairs, ties = separated(allocs, ref)
    return [(x, y) for x, y in pairs if runs[x][m] and runs[y][m]], ties


def judge(allocs, m, ref):
    """(agrees, sentence) for measure m against reference ref."""
    runs = dict(allocs)
    pairs, ties = measured_pairs(allocs, m, ref)
    wrong = [(x, y) for x, y in pairs if not ahead(runs, m, x, y)]
    lr = MEASURES[ref][0]
    tie_text = ""
    if ties:
        tie_text = " (within its run-to-run spread: " + ", ".join(
            f"{a} and {b}" for a, b in ties) + ")"
    if not pairs:
        return True, f"{lr} separates no pair{tie_text}"
    if not wrong:
        return True, (f"agree on all {len(pairs)} pairs {lr} separates"
                      f"{tie_text}")
    def why(x, y):
        # The bare shim is the control: when the calls timed without any
        # profiler order the pair the wrong way too, the difference lies
        # outside the allocator's calls, where no per-call cost can see it.
        # The larger half is checked against the shim's larger half.
        text = f"{y} ahead of {x} (by {lr}, {x} ahead"
        c = "shimh" if m in ("half", "shalf") else "shim"
        if m not in ("shim", "shimh") and runs[x][c] and runs[y][c] and \
                not ahead(runs, c, x, y):
            text += "; the bare shim also puts " + y + " ahead"
        return text + ")"

    return False, (f"differ on {len(wrong)} of the {len(pairs)} pairs {lr} "
                   "separates: " + "; ".join(why(x, y) for x, y in wrong)
                   + tie_text)


def shim_consistent(allocs, m, ref):
    """(pairs that differ, pairs judged, pairs left out) for measure m on
    the pairs ref separates that the bare shim also orders ref's way: a
    pair the calls timed with no profiler order the other way differs
    outside the allocator's calls, where no per-call cost can see it (the
    criterion proposed in docs/performance.md, round 9; reported beside
    the verdict, not instead of it)."""
    runs = dict(allocs)
    pairs, _ = measured_pairs(allocs, m, ref)
    kept = [(x, y) for x, y in pairs if ahead(runs, "shim", x, y)]
    wrong = [(x, y) for x, y in kept if not ahead(runs, m, x, y)]
    return len(wrong), len(kept), len(pairs) - len(kept)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: rankings.py RESULTS.tsv")
    rows = load(sys.argv[1])
    runs_n = max((len(r["native"]) for allocs in rows.values()
                  for _, r in allocs), default=0)
    print(f"*native*: the workload's own throughput with the allocator "
          "preloaded (malloc+free pairs/s for larson, blocks allocated and "
          "freed/s for xmalloc), the best run; *cpu ns/op*: the same runs' "
          "CPU time (user + system, all threads) per pair or block, the "
          "lowest; *faults*: their minor page faults (getrusage), median; "
          "*shim*: cycles per malloc+free pair of the allocator's calls "
          "timed natively by a bare RDTSC shim (bench/allocprof/"
          "rdtsc_shim.c: no heapprof; calls over 2^20 cycles left out), "
          "the lowest run; *half*: the larger of its malloc and free "
          "calls' parts of that pair (a pipeline whose allocating and "
          "freeing sides are different threads, as xmalloc's, runs at the "
          "pace of the dearer side), the lowest run. Under `heapprof run "
          "--allocator=...` "
          "(`HEAPPROF_OPTIONS=cycle_sample_every=1:print_stats=1`), per "
          "malloc+free pair, each the lowest run: *in calls*: TSC cycles "
          "measured around the allocator's own calls, (malloc_cycles + "
          "free_cycles) / (cycle_samples / 2) (calls during which the "
          "thread lost the CPU are not samples), and *half*, "
          "max(malloc_cycles, free_cycles) / (cycle_samples / 2); "
          "*with faults*: plus the "
          "page faults the program took outside the allocator's calls "
          "(*outside faults*, median) at the cost of one fault heapprof "
          "measured at start (faults_outside × fault_cycles: the report's "
          "cost per operation including faults, "
          "docs/allocator-profiler.md); *profiled*: the workload's "
          "throughput under heapprof run, median. Ranks: throughput "
          "highest first, costs lowest first. Agreement is judged pair by "
          "pair: a reference *separates* two allocators when one beats the "
          f"other in each of the {runs_n} runs (run r of every allocator is "
          "measured within seconds of the others: the runs are "
          "interleaved); a measure agrees with "
          "the reference when it orders every separated pair the same way "
          "(bench/allocprof/rankings.py). *sampled*: the same under "
          "`heapprof run` with `sample_bytes=524288` added (every call "
          "still timed; one object per 512 KiB allocated recorded, the "
          "rest cost no stack, entry or merge: docs/run.md), each the "
          "lowest run; *sampled (M/s)*: its throughput, median.")
    print()
    print("| workload | allocator | native (M/s) | rank | cpu ns/op | rank "
          "| faults | shim | rank | half | rank | in calls | rank | half "
          "| rank | outside faults | with faults | rank | profiled (M/s) "
          "| sampled in calls | rank | sampled with faults | rank "
          "| sampled (M/s) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:"
          "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")

    def num(runs, m, fmt, scale=1.0):
        v = value(runs, m)
        return "n/a" if v is None else fmt % (v / scale)

    for w, allocs in rows.items():
        ranks = {m: order(allocs, m)
                 for m in ("native", "cpu", "shim", "shimh", "calls",
                           "half", "withf", "scalls", "swithf")}

        def rank(a, m):
            return str(ranks[m].index(a) + 1) if a in ranks[m] else "n/a"

        for a in order(allocs, "native") + [a for a, r in allocs
                                            if not r["native"]]:
            r = dict(allocs)[a]
            print(f"| {w} | {a} | {num(r, 'native', '%.2f', 1e6)} | "
                  f"{rank(a, 'native')} | {num(r, 'cpu', '%.1f')} | "
                  f"{rank(a, 'cpu')} | {num(r, 'faults', '%.0f')} | "
                  f"{num(r, 'shim', '%.0f')} | {rank(a, 'shim')} | "
                  f"{num(r, 'shimh', '%.0f')} | {rank(a, 'shimh')} | "
                  f"{num(r, 'calls', '%.0f')} | {rank(a, 'calls')} | "
                  f"{num(r, 'half', '%.0f')} | {rank(a, 'half')} | "
                  f"{num(r, 'outf', '%.0f')} | {num(r, 'withf', '%.0f')} | "
                  f"{rank(a, 'withf')} | "
                  f"{num(r, 'profiled', '%.2f', 1e6)} | "
                  f"{num(r, 'scalls', '%.0f')} | {rank(a, 'scalls')} | "
                  f"{num(r, 'swithf', '%.0f')} | {rank(a, 'swithf')} | "
                  f"{num(r, 'sprofiled', '%.2f', 1e6)} |")
    print()
    verdict = {m: [] for m in REPORTED}
    separated_n = []
    for w, allocs in rows.items():
        separated_n.append(f"{w} {len(separated(allocs, 'native')[0])} of "
                           f"{len(allocs) * (len(allocs) - 1) // 2}")
        for m in JUDGED:
            for ref in REFERENCES:
                ok, text = judge(allocs, m, ref)
                print(f"- {w}, {MEASURES[m][0]} vs {MEASURES[ref][0]}: "
                      f"{text}.")
                if m in verdict and ref == "native":
                    verdict[m].append(ok)
    for m, oks in verdict.items():
        print()
        if oks and all(oks):
            print(f"Verdict: heapprof's {MEASURES[m][0]} ranks the "
                  "allocators as their native throughput does on "
                  f"{' and '.join(rows)}, on every pair the throughput "
                  f"separates (pairs separated: {', '.join(separated_n)}).")
        else:
            print(f"Verdict: heapprof's {MEASURES[m][0]} does not rank "
                  "the allocators as their native throughput does on "
                  "every workload (above).")
    parts = []
    for w, allocs in rows.items():
        for m in REPORTED:
            bad, n, out = shim_consistent(allocs, m, "native")
            pl = "s" if n != 1 else ""
            parts.append(f"{w}, {MEASURES[m][0]}: "
                         + (f"differs on {bad} of {n} pair{pl}" if bad else
                            f"agrees on {'all ' if n > 1 else ''}{n} "
                            f"pair{pl}" if n else "no pair to judge")
                         + (f", {out} left out" if out else ""))
    print()
    print("On the pairs native throughput separates and the bare shim "
          "orders the same way (the differences inside the allocator's "
          f"calls): {'; '.join(parts)}.")


main()
