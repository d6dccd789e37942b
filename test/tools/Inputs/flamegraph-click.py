# Appends a script to a heapprof flamegraph SVG that clicks the frame named
# argv[2] and hovers it, as a user would.  Usage: flamegraph-click.py IN OUT NAME
import sys

svg = open(sys.argv[1], encoding="utf-8").read()
name = sys.argv[3]
click = """<script><![CDATA[
Array.prototype.forEach.call(document.querySelectorAll('g.f'), function (g) {
  if (g.querySelector('title').textContent.indexOf('%s (') == 0) {
    g.dispatchEvent(new MouseEvent('click'));
    g.dispatchEvent(new MouseEvent('mouseover'));
  }
});
]]></script>
</svg>""" % name
assert svg.rstrip().endswith("</svg>")
open(sys.argv[2], "w", encoding="utf-8").write(svg.rstrip()[: -len("</svg>")] + click)
