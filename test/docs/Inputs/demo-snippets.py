#!/usr/bin/env python3
"""The user guide's sample output of `make demo` is what heapprof prints.

  demo-snippets.py USER_GUIDE TXT REPORT...

USER_GUIDE is docs/user-guide.md; TXT the demo's text profile
(print_text=1); each REPORT a `heapprof report` of the demo's profile (the
guide's tables are `--top 3`, one `--sort accesses`, one `--leaks=live`).

Checked: the text-profile example under "Reading the text profile" against
TXT, and every fenced block that starts with a `== ` heading between "Everything
below is real output of `make demo`'s profile" and the next example
program's section, against the REPORT section of that heading. A `...` line
in a block skips any number of lines; the other lines must follow one
another as in the output. What differs from run to run is masked on both
sides: pids, build ids, paths, times (the 4 ms clock), allocator cycles,
code addresses,
the CPUs calls ran on; runs of blanks are one (column widths follow the values).
Prints one line per block checked, and for a mismatch the block's line in
the guide, what it says and what the output has there; exit 1 on any.
"""
import re
import sys

START = "Everything below is real output of `make demo`'s profile"
END = "### A C++ program"
TEXT_START = "Reading the text profile"


def norm(line, section=""):
    s = line.rstrip()
    s = re.sub(r"build id [0-9a-f]+", "build id X", s)
    s = re.sub(r"BuildId: [0-9a-f]+", "BuildId: X", s)
    s = re.sub(r"\bpid \d+", "pid N", s)
    s = re.sub(r"\bat \d+ ms\b", "at N ms", s)
    s = re.sub(r"^(time span\s+)\d+ ms", r"\1N ms", s)
    # The program's path, however the run named it (demo-out/demo).
    s = re.sub(r"[^\s(]*/demo\b(?![.-])", "DEMO", s)
    # Source files by their checkout's path.
    s = re.sub(r"[^\s(]*examples/demo\.c", "examples/demo.c", s)
    # The text profile: code addresses, lifetimes, allocator cycles.
    s = re.sub(r"#(\d+) 0x[0-9a-f]+ in", r"#\1 ADDR in", s)
    s = re.sub(r"(lifetime \(ave/min/max\):).*", r"\1 T", s)
    s = re.sub(r"(allocator cycles \(ave of sampled calls\):).*", r"\1 C", s)
    # Which CPU ran each call: the scheduler's, not the program's.
    s = re.sub(r"num migrated: \d+", "num migrated: N", s)
    s = re.sub(r"num same (alloc cpu|dealloc_cpu): \d+", r"num same \1: N", s)
    if section.startswith("== Access and allocator measures") and s.startswith("#"):
        t = s.split()
        if len(t) == 12:  # lifetime ms, malloc cyc, free cyc
            t[7] = t[9] = t[10] = t[11] = "X"  # and migrated
            s = " ".join(t)
    if section.startswith("== Cold candidates"):
        s = re.sub(r"(\s)\d+\.\d(\s+\S+ \()", r"\1X\2", s)  # lifetime ms
    return re.sub(r"\s+", " ", s).strip()


def sections(paths):
    """Each report's sections by heading: a list of (heading, lines)."""
    out = []
    for p in paths:
        cur = None
        for line in open(p, encoding="utf-8"):
            line = line.rstrip("\n")
            if line.startswith("== "):
                cur = (line, [])
                out.append(cur)
            elif cur is not None:
                cur[1].append(line)
    return out


def blocks(guide):
    """(line number, lines) of every fenced block of the guide."""
    lines = open(guide, encoding="utf-8").read().split("\n")
    res, i = [], 0
    while i < len(lines):
        if lines[i].startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            res.append((i + 2, lines[i + 1:j], i))
            i = j + 1
        else:
            i += 1
    return lines, res


def match(doc, actual, heading):
    """None if doc's lines (with `...` gaps) follow one another in actual,
    else (index in doc, what the output has there)."""
    chunks, cur = [], []
    for k, d in enumerate(doc):
        if d.strip() == "...":
            chunks.append(cur)
            cur = []
        else:
            cur.append((k, norm(d, heading)))
    chunks.append(cur)
    act = [norm(a, heading) for a in actual]
    pos, first = 0, True
    for chunk in chunks:
        if not chunk:
            first = False
            continue
        found = None
        # The first chunk starts right under the heading; later ones may
        # start anywhere after the previous one.
        starts = [pos] if first else range(pos, len(act) + 1)
        best = (-1, None)
        for st in starts:
            n = 0
            while n < len(chunk) and st + n < len(act) and act[st + n] == chunk[n][1]:
                n += 1
            if n == len(chunk):
                found = st
                break
            if n > best[0]:
                best = (n, st)
        if found is None:
            n, st = best
            k = chunk[n][0]
            got = act[st + n] if st is not None and st + n < len(act) else "(nothing)"
            return k, got
        pos = found + len(chunk)
        first = False
    return None


def main():
    guide, txt, reports = sys.argv[1], sys.argv[2], sys.argv[3:]
    lines, bl = blocks(guide)
    secs = sections(reports)
    text_at = next(i for i, l in enumerate(lines) if TEXT_START in l)
    start = next(i for i, l in enumerate(lines) if START in l)
    end = next(i for i, l in enumerate(lines) if i > start and l.startswith(END))
    bad = checked = 0
    txt_lines = open(txt, encoding="utf-8").read().split("\n")

    def report(where, what, k, got, doc):
        print("user-guide.md:%d: %s: the guide says: %s" % (where + k, what, doc[k].strip()))
        print("    the output has: %s" % got)

    for first_line, doc, fence in bl:
        if not doc:
            continue
        if fence > text_at and fence < start and doc[0].startswith("Memory allocation stack id"):
            # The text profile's example: a block, then `...`, then its stack.
            checked += 1
            head = doc[0]
            i = txt_lines.index(head)
            body = txt_lines[i:]
            m = match(doc[:doc.index("...")], body, "")
            if m is None:
                st = doc[doc.index("...") + 1]
                j = txt_lines.index(st)
                m2 = match(doc[doc.index("...") + 1:], txt_lines[j:], "")
                if m2 is not None:
                    m = (m2[0] + doc.index("...") + 1, m2[1])
            print("text profile: %s" % ("ok" if m is None else "MISMATCH"))
            if m is not None:
                bad += 1
                report(first_line, "text profile", m[0], m[1], doc)
            continue
        if not (start < fence < end) or not doc[0].startswith("== "):
            continue
        checked += 1
        heading = doc[0]
        cands = [s for s in secs if norm(s[0]) == norm(heading)]
        if not cands:
            bad += 1
            print("user-guide.md:%d: no report has the section '%s'" % (first_line, heading))
            continue
        results = [match(doc[1:], body, heading) for _, body in cands]
        if any(r is None for r in results):
            print("%s: ok" % heading)
            continue
        bad += 1
        print("%s: MISMATCH" % heading)
        k, got = results[0]
        report(first_line + 1, heading, k, got, doc[1:])
    print("%d blocks checked, %d differ" % (checked, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
