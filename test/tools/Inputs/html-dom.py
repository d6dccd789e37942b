#!/usr/bin/env python3
# Reads the DOM that headless Chromium dumped after the scripts of a
# `heapprof html` page ran, and prints what the page built, one fact a line,
# for FileCheck:
#   row TABLE N: FIRST-FRAME col=value ...   (rows in displayed order)
#   sorted TABLE KEY:DIR
#   flame WEIGHT
#   zoomed NAME depth=D                      (the frame the view is zoomed into)
#   frame NAME value=V depth=D width=W share=S inside=PARENT-OK
# share is V / (the zoomed frame's value) * 100, what the width must be
# (100 for the zoomed frame's callers);
# inside says the frame lies within the frame above it.
import html
import re
import sys

dom = open(sys.argv[1], encoding="utf-8").read()
if 'data-ready="1"' not in dom:
    sys.exit("the page's script did not finish")

def attrs(tag):
    return {k: html.unescape(v) for k, v in re.findall(r'([\w-]+)="([^"]*)"', tag)}

def text(s):
    return html.unescape(re.sub(r"<[^>]+>", "", s))

for tid in sys.argv[2:]:
    m = re.search(r'<table id="%s"([^>]*)>(.*?)</table>' % tid, dom, re.S)
    if not m:
        sys.exit("no table " + tid)
    a = attrs(m.group(1))
    if "data-sorted" in a:
        print("sorted", tid, a["data-sorted"])
    for n, row in enumerate(re.findall(r"<tr data-row[^>]*>(.*?)</tr>", m.group(2), re.S)):
        cells = re.findall(r"<td([^>]*)>(.*?)</td>", row, re.S)
        out, first = [], ""
        for tag, body in cells:
            ca = attrs(tag)
            if "stack" in ca.get("class", ""):
                first = text(body).split("\n")[0]
            elif "data-v" in ca:
                out.append("%s=%s" % (ca["data-col"], ca["data-v"]))
        print("row %s %d: %s %s" % (tid, n + 1, first, " ".join(out)))

box = re.search(r'<div id="flame" data-weight="(\w+)"', dom)
if box:
    print("flame", box.group(1))
frames = [attrs(t) for t in re.findall(r'<div class="frame"[^>]*>', dom)]
if frames:
    # The zoomed frame (or the root) is the deepest full-width one; the
    # frames above it are its callers, drawn full width too.
    full = [f for f in frames if "width: 100%" in f["style"]]
    zf = max(full, key=lambda f: int(f["data-depth"]))
    base, top = int(zf["data-depth"]), float(zf["data-value"])
    print("zoomed %s depth=%d" % (zf["data-frame"], base))
    geo = []
    for f in frames:
        st = f["style"]
        left = float(re.search(r"left: ([\d.]+)%", st).group(1))
        width = float(re.search(r"width: ([\d.]+)%", st).group(1))
        geo.append((int(f["data-depth"]), left, width))
    for f, (d, left, width) in zip(frames, geo):
        v = float(f["data-value"])
        inside = d == 0 or any(pd == d - 1 and pl - 1e-3 <= left and
                               left + width <= pl + pw + 1e-3
                               for pd, pl, pw in geo)
        share = v / top * 100 if d >= base else 100
        print("frame %s value=%d depth=%d width=%.2f share=%.2f %s" %
              (f["data-frame"], v, d, width, share,
               "ok" if abs(width - share) < 0.01 and inside else "WRONG"))
