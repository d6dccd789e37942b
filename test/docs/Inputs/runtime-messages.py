#!/usr/bin/env python3
"""Every message the runtime prints ("HeapProf: ..." in
compiler-rt/lib/heapprof/*.c) has its line in docs/: the C string literals
of a message are joined as the compiler joins them, and its text up to the
first conversion ("%") or parenthesis must occur in the docs, whose lines
are joined too (a table cell or a wrapped paragraph).  Prints each message
the docs lack and exits 1 if there is one."""
import glob
import os
import re
import sys

root = sys.argv[1]
src = "".join(open(f).read() for f in
              sorted(glob.glob(os.path.join(root, "compiler-rt/lib/heapprof/*.c"))))
literal = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
messages = set()
for start in re.finditer(r'"HeapProf: ', src):
    i, text = start.start(), ""
    while True:
        m = literal.match(src, i)
        if not m:
            break
        text += m.group(1)
        j = m.end()
        gap = re.match(r"\s*", src[j:]).end()
        if src[j + gap:j + gap + 1] != '"':
            break
        i = j + gap
    # One message a line: "...\nHeapProf: ABORTING\n" is two.
    for line in text.split("\\n"):
        if line.startswith("HeapProf: "):
            key = re.split(r"%|\(", line)[0]
            messages.add(re.sub(r"0x$", "", key).strip())

docs = " ".join(open(f).read() for f in
                sorted(glob.glob(os.path.join(root, "docs/*.md"))))
docs = re.sub(r"\s+", " ", docs)
missing = [m for m in sorted(messages) if m not in docs]
for m in missing:
    print("not in docs/: " + m)
print("%d runtime messages, %d not in docs/" % (len(messages), len(missing)))
sys.exit(1 if missing else 0)
