# Checks heapprof flamegraph --svg's output for test/tools/flamegraph.c:
# well-formed XML, one <g> with a <title>, <rect> and <text> per frame,
# widths proportional to the weights the program implies, nothing loaded
# from outside.  Usage: check-flamegraph-svg.py FILE [live]
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
path = sys.argv[1]
live = len(sys.argv) > 2 and sys.argv[2] == "live"
text = open(path, encoding="utf-8").read()
root = ET.fromstring(text)  # raises on malformed XML

# No external reference: the only URL is the SVG namespace.
urls = set(re.findall(r"https?://[^\s\"'<>]+", text))
assert urls == {"http://www.w3.org/2000/svg"}, urls
assert "href" not in text, "an href in a self-contained SVG"
assert root.find(NS + "script") is not None, "no script"
assert root.find(NS + "style") is not None, "no style"

frames = {}
for g in root.iter(NS + "g"):
    if g.get("class") != "f":
        continue
    title = g.find(NS + "title").text
    rect = g.find(NS + "rect")
    assert g.find(NS + "text") is not None, title
    name = title[: title.rindex(" (")]
    key = (name, int(g.get("data-d")))
    assert key not in frames or name == "rec", key
    frames.setdefault(key, []).append((float(rect.get("width")),
                                       int(g.get("data-v")), title))

# bytes: a;b 120, c 2000, rec 64; live: c 2000, rec 64 (a and b: none).
if live:
    expect = {("all", 0): 2064, ("main", 1): 2064, ("c", 2): 2000,
              ("rec", 2): 64, ("rec", 3): 64, ("rec", 4): 64}
else:
    expect = {("all", 0): 2184, ("main", 1): 2184, ("a", 2): 120,
              ("b", 3): 120, ("c", 2): 2000, ("rec", 2): 64, ("rec", 3): 64,
              ("rec", 4): 64}
assert set(frames) == set(expect), sorted(frames)
total = expect[("all", 0)]
full = frames[("all", 0)][0][0]
assert abs(full - 1180) < 0.01, full
for key, value in expect.items():
    (width, v, title), = frames[key]
    assert v == value, (key, v)
    assert abs(width / full - value / total) < 1e-4, (key, width)
    pct = "%.2f%%" % (100.0 * value / total)
    assert title.endswith(pct + ")"), title
print("ok: %d frames" % len(frames))
