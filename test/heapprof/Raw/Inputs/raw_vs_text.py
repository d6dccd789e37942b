#!/usr/bin/env python3
"""Checks that llvm-profdata reads from heapprof's raw profile exactly what
heapprof's own text profile of the same dump says, and prints the records
in a stable order for FileCheck.

usage: raw_vs_text.py [--sum] [--no-text] BIN YAML TEXT [YAML TEXT ...]

YAML is the output of `llvm-profdata show --memory RAW --profiled-binary BIN`,
TEXT the text profile heapprof wrote for the same dump (print_text=1 with
print_raw=1).  For every allocation site llvm-profdata lists, the text record
with the same call stack must have the same
alloc count, size, access count, lifetime, cpu counters and access density,
down to the integer arithmetic of the averages.  Exit status 1 on any
difference.  Call stacks are compared as (function, column) lists; the text
also shows frames outside BIN (libc, ld.so), which llvm-profdata drops, so
text frames outside BIN are left out: those whose function BIN does not
define (llvm-nm), and those whose address lies outside BIN's lines of the
text profile's memory map (libc's pthread_create below heapprof's).

Output, one line per site sorted by call stack ("a<b<c": a called by b ...):
  site make_ints<main alloc_count=1 size=40/40/40 access=20/20/20 density=50/50/50
(totals/min/max).  With --sum the sites of all YAML files are added up first
(several dumps of one run: each object must count once), and only the fields
that do not depend on timing are printed.  --no-text: YAML files only.
"""
import re
import subprocess
import sys
import time

# The runtime's clock resolution in ms, rounded up (hp_clock_init);
# CLOCK_MONOTONIC_COARSE is 6 on Linux (Python may not name it).
COARSE_RES_MS = (int(time.clock_getres(getattr(time, 'CLOCK_MONOTONIC_COARSE', 6))
                     * 1e9) + 999999) // 1000000


def parse_yaml(path):
    """The AllocSites of llvm-profdata's YAML: [(stack, {field: int})]."""
    sites = []
    section = None  # 'alloc' or 'callsites'
    cur = None
    in_mib = False
    for line in open(path):
        s = line.rstrip('\n')
        stripped = s.strip()
        indent = len(s) - len(s.lstrip(' '))
        if stripped == 'AllocSites:' and indent == 4:
            section = 'alloc'
            continue
        if stripped == 'CallSites:' and indent == 4:
            section = 'callsites'
            continue
        if indent <= 2 and stripped.startswith('-'):
            section = None
            continue
        if section != 'alloc':
            continue
        if indent == 4 and stripped == '-':
            cur = {'stack': [], 'mib': {}}
            sites.append(cur)
            in_mib = False
            continue
        if indent == 6 and stripped == 'Callstack:':
            in_mib = False
            continue
        if indent == 6 and stripped == 'MemInfoBlock:':
            in_mib = True
            continue
        if indent == 6 and stripped == '-':
            cur['stack'].append({})
            continue
        m = re.match(r'(\w+): (.*)$', stripped)
        if not m or indent != 8:
            continue
        key, val = m.group(1), m.group(2)
        if in_mib:
            cur['mib'][key] = int(val, 0)
        else:
            cur['stack'][-1][key] = val
    return [([(f['SymbolName'], int(f['Column'])) for f in site['stack']],
             site['mib']) for site in sites]


def parse_text(path):
    """The records of a verbose text profile: [(frames, {field: str|int})]."""
    recs = {}
    stacks = {}
    cur = None
    stack_id = None
    program = None
    ranges = []  # the program's own mappings, from the memory map
    for line in open(path):
        line = line.rstrip('\n')
        m = re.match(r'HeapProf profile: (\S+) pid ', line)
        if m:
            program = m.group(1)
            continue
        m = re.match(r'\t0x([0-9a-f]+)-0x([0-9a-f]+)\t(\S+)', line)
        if m and m.group(3) == program:
            ranges.append((int(m.group(1), 16), int(m.group(2), 16)))
            continue
        m = re.match(r'Memory allocation stack id = (\d+)$', line)
        if m:
            cur = {}
            recs[int(m.group(1))] = cur
            continue
        m = re.match(r'Stack for id (\d+):$', line)
        if m:
            stack_id = int(m.group(1))
            stacks[stack_id] = []
            cur = None
            continue
        if stack_id is not None:
            m = re.match(r'\s+#\d+ 0x([0-9a-f]+) in (.*) \S+:(\d+):(\d+)$', line)
            if m:
                pc = int(m.group(1), 16)
                if ranges and not any(lo <= pc < hi for lo, hi in ranges):
                    stacks[stack_id].append((None, None))  # not BIN's
                else:
                    stacks[stack_id].append((m.group(2), int(m.group(4))))
                continue
            if re.match(r'\s+#\d+ ', line):
                stacks[stack_id].append((None, None))
                continue
            stack_id = None
        if cur is None:
            continue
        pats = {
            'alloc': r'\s+alloc_count (\d+), size \(ave/min/max\) (\S+) / (\d+) / (\d+)$',
            'access': r'\s+access_count \(ave/min/max\): (\S+) / (\d+) / (\d+)$',
            'lifetime': r'\s+lifetime \(ave/min/max\): (\S+) / (\d+) / (\d+)$',
            'cpus': r'\s+num migrated: (\d+), num lifetime overlaps: (\d+), '
                    r'num same alloc cpu: (\d+), num same dealloc_cpu: (\d+)$',
            'density': r'\s+access density \(ave/min/max\): (\S+) / (\d+) / (\d+)$',
        }
        for k, p in pats.items():
            m = re.match(p, line)
            if m:
                cur[k] = m.groups()
    return [(stacks.get(i, []), r) for i, r in sorted(recs.items())]


def ave(total, count):
    if not count:
        return 'n/a'
    v = total * 100 // count
    return '%d.%02d' % (v // 100, v % 100)


def demangle(names):
    names = sorted(set(n for n in names if n.startswith('_Z')))
    if not names:
        return {}
    out = subprocess.run(['llvm-cxxfilt'], input='\n'.join(names) + '\n',
                         capture_output=True, text=True, check=True).stdout
    return dict(zip(names, out.splitlines()))


def defined_functions(binary):
    out = subprocess.run(['llvm-nm', '-C', '--defined-only', binary],
                         capture_output=True, text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split(' ', 2)
        if len(parts) == 3 and parts[1] in 'tTwW':
            names.add(parts[2])
    return names


def compare(sites, text, where, defined):
    errors = []
    text = [([f for f in frames if f[0] in defined], r) for frames, r in text]
    used = set()
    for stack, mib in sites:
        matches = [(frames, r) for frames, r in text if frames == stack]
        name = '<'.join(f for f, _ in stack)
        # Records whose frames in BIN are alike (one call site unrolled
        # into several) pair up in order, each used once.
        alike = [i for i, (frames, _) in enumerate(text)
                 if frames == stack and i not in used]
        if len(matches) > 1 and alike:
            used.add(alike[0])
            matches = [text[alike[0]]]
        if len(matches) != 1:
            errors.append('%s: site %s matches %d text records'
                          % (where, name, len(matches)))
            continue
        r = matches[0][1]
        n = mib['AllocCount']
        want = {
            'alloc': (str(n), ave(mib['TotalSize'], n), str(mib['MinSize']),
                      str(mib['MaxSize'])),
            'access': (ave(mib['TotalAccessCount'], n),
                       str(mib['MinAccessCount']), str(mib['MaxAccessCount'])),
            'lifetime': (ave(mib['TotalLifetime'], n), str(mib['MinLifetime']),
                         str(mib['MaxLifetime'])),
            'cpus': (str(mib['NumMigratedCpu']), str(mib['NumLifetimeOverlaps']),
                     str(mib['NumSameAllocCpu']), str(mib['NumSameDeallocCpu'])),
            'density': (ave(mib['TotalAccessDensity'], n),
                        str(mib['MinAccessDensity']),
                        str(mib['MaxAccessDensity'])),
        }
        for k, v in want.items():
            if r.get(k) != v:
                errors.append('%s: site %s: %s: llvm-profdata %s, text %s'
                              % (where, name, k, v, r.get(k)))
        # One object: the lifetime access density is the density per
        # second of life (upstream's formula), so it must follow from the rest;
        # the life it divides by leaves out the tick by which the runtime
        # reads an end late (the coarse clock's resolution, in whole ms).
        if n == 1:
            life = max(mib['TotalLifetime'] - COARSE_RES_MS, 0)
            lad = mib['TotalAccessDensity'] * 1000 // max(life, 1)
            if mib['TotalLifetimeAccessDensity'] != lad:
                errors.append('%s: site %s: lifetime access density %d, expected %d'
                              % (where, name, mib['TotalLifetimeAccessDensity'], lad))
    return errors


def main(argv):
    do_sum = '--sum' in argv
    no_text = '--no-text' in argv
    args = [a for a in argv if not a.startswith('--')]
    step = 1 if no_text else 2
    if len(args) < 2 or (len(args) - 1) % step:
        print(__doc__, file=sys.stderr)
        return 2
    defined = set() if no_text else defined_functions(args[0])
    args = args[1:]
    all_sites = []
    errors = []
    for i in range(0, len(args), step):
        sites = parse_yaml(args[i])
        dm = demangle(f for st, _ in sites for f, _ in st)
        sites = [([(dm.get(f, f), c) for f, c in st], mib) for st, mib in sites]
        if not no_text:
            errors += compare(sites, parse_text(args[i + 1]), args[i], defined)
        all_sites.append(sites)
    if do_sum:
        total = {}
        for sites in all_sites:
            for stack, mib in sites:
                key = '<'.join(f for f, _ in stack)
                t = total.setdefault(key, {})
                for f in ('AllocCount', 'TotalSize', 'TotalAccessCount'):
                    t[f] = t.get(f, 0) + mib[f]
                for f in ('MinSize', 'MinAccessCount'):
                    if mib['AllocCount']:
                        t[f] = min(t.get(f, mib[f]), mib[f])
                for f in ('MaxSize', 'MaxAccessCount'):
                    t[f] = max(t.get(f, 0), mib[f])
        for key in sorted(total):
            t = total[key]
            print('site %s alloc_count=%d size=%d/%d/%d access=%d/%d/%d'
                  % (key, t['AllocCount'], t['TotalSize'], t.get('MinSize', 0),
                     t['MaxSize'], t['TotalAccessCount'],
                     t.get('MinAccessCount', 0), t['MaxAccessCount']))
    else:
        for sites in all_sites:
            for stack, m in sorted(sites, key=lambda s: s[0]):
                print('site %s alloc_count=%d size=%d/%d/%d access=%d/%d/%d '
                      'density=%d/%d/%d'
                      % ('<'.join(f for f, _ in stack), m['AllocCount'],
                         m['TotalSize'], m['MinSize'], m['MaxSize'],
                         m['TotalAccessCount'], m['MinAccessCount'],
                         m['MaxAccessCount'], m['TotalAccessDensity'],
                         m['MinAccessDensity'], m['MaxAccessDensity']))
    for e in errors:
        print('MISMATCH: ' + e)
    if not no_text:
        print('compared %d sites with the text profile: %s'
              % (sum(len(s) for s in all_sites),
                 'all equal' if not errors else '%d differences' % len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
