//===- render_html.cpp - the report as one web page -----------------------===//
//
// Part of heapprof.  One self-contained HTML file (`heapprof html`, `heapprof
// report --format html`): the report JSON (render_json.cpp,
// docs/formats.md) and every context's stack and counts for the flame
// graph, each in a <script type="application/json"> block, and a small
// inline script that builds the sortable tables and the flame graph from
// them.  No library, no font, no network.  Inside the blocks every '<' is
// written \u003c, so no function name or path can close the script.
//
//===----------------------------------------------------------------------===//
#include "profile_model.h"
#include "render.h"
#include "tables.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <tuple>
#include <unordered_map>

using namespace heapprof;

// The JSON text made safe inside <script>: '<' only occurs in strings,
// where \u003c means the same character.
static std::string scriptSafe(const std::string &Json) {
  std::string Out;
  Out.reserve(Json.size());
  for (char C : Json) {
    if (C == '<')
      Out += "\\u003c";
    else
      Out += C;
  }
  return Out;
}

// The flame graph's frames: every context's stack, root first, merged by
// function name into one tree whose nodes carry the six weights the page
// offers, summed over the contexts under them.  A frame under FlameMinShare
// of every recorded weight's total is left out (its weight stays in the
// frame above it): the page draws nothing under 0.05% of the view anyway,
// and a profile of 100,000 small contexts would otherwise embed ~800,000
// frames (docs/performance.md); only the frames kept are made (below).
// JSON (docs/formats.md, "HTML page"):
// {"names": [...], "weights": [the recorded ones], "frames": all,
// "min_share": FlameMinShare, "nodes": [[parent, name, bytes, allocs,
// accesses, live_bytes, temporary, leaked_bytes], ...]}, node 0 the root
// (parent and name -1), every parent before its children.  A context a
// --suppressions rule matches has no leaked bytes, as the leak table
// leaves it out.
constexpr double FlameMinShare = 1e-4;

static void flameJson(const Profile &P,
                      const std::vector<Suppression> &Suppressions,
                      llvm::raw_ostream &OS) {
  const Field Weights[] = {Field::bytes,      Field::allocs,
                           Field::accesses,   Field::live_bytes,
                           Field::temporary,  Field::leaked_bytes};
  constexpr unsigned NW = sizeof(Weights) / sizeof(Weights[0]);
  const std::vector<int32_t> Suppressed =
      suppressedContexts(Suppressions, P, Field::leaked_objects);
  auto Value = [&](size_t CI, unsigned I) -> uint64_t {
    return P.has(Weights[I]) ? leakAware(P, Suppressed, CI, Weights[I]) : 0;
  };
  // Each context's stack as name numbers, root first (a Frame's number by
  // its address first: frames are shared by the contexts through their
  // Locations; by the string once per Frame), and the root's weights.
  std::map<std::string, uint32_t> NameIds;
  std::vector<const std::string *> AllNames;
  std::unordered_map<const Frame *, uint32_t> FrameIds;
  std::vector<uint32_t> Seq;
  std::vector<size_t> Starts{0};
  Starts.reserve(P.Contexts.size() + 1);
  uint64_t RootW[NW] = {};
  for (size_t CI = 0; CI < P.Contexts.size(); CI++) {
    for (unsigned I = 0; I < NW; I++)
      RootW[I] += Value(CI, I);
    std::vector<const Frame *> Fs = P.Contexts[CI].frames(P);
    for (auto It = Fs.rbegin(); It != Fs.rend(); ++It) {
      auto ByFrame = FrameIds.try_emplace(*It, 0);
      if (ByFrame.second) {
        auto Name = NameIds.emplace((*It)->Function, AllNames.size());
        if (Name.second)
          AllNames.push_back(&Name.first->first);
        ByFrame.first->second = Name.first->second;
      }
      Seq.push_back(ByFrame.first->second);
    }
    Starts.push_back(Seq.size());
  }
  // The tree's nodes are the stacks' distinct prefixes.  With the stacks
  // sorted, a node's contexts are a run of them: walking the sorted stacks
  // with the path of open nodes, a node is complete (its weights summed)
  // when a stack leaves it, and only then is it known whether it is kept
  // (a frame that reaches the share in some weight; its ancestors weigh at
  // least as much, so they are kept too).  A node per frame (56 bytes) and
  // a table of kids took 8 million nodes, 512 MB, for a million contexts
  // of 8 frames of which the page keeps 0.01% (docs/performance.md); the
  // sorted stacks take 4 bytes a frame.
  std::vector<uint32_t> Order(P.Contexts.size());
  for (uint32_t CI = 0; CI < Order.size(); CI++)
    Order[CI] = CI;
  auto SeqBegin = [&](uint32_t CI) { return Seq.begin() + Starts[CI]; };
  auto SeqEnd = [&](uint32_t CI) { return Seq.begin() + Starts[CI + 1]; };
  std::sort(Order.begin(), Order.end(), [&](uint32_t A, uint32_t B) {
    return std::lexicographical_compare(SeqBegin(A), SeqEnd(A), SeqBegin(B),
                                        SeqEnd(B));
  });
  struct Node {
    uint32_t Id, Parent, Name; // Id, Parent: numbers in the whole tree
    uint32_t First;            // the first context (in P's order) in it
    uint32_t Depth;
    uint64_t W[NW];
  };
  std::vector<Node> Open, Kept;
  uint64_t Frames = 0; // the whole tree's nodes, the root not counted
  auto Close = [&]() {
    const Node &N = Open.back();
    bool Keep = false;
    for (unsigned I = 0; I < NW && !Keep; I++)
      Keep = N.W[I] && N.W[I] >= FlameMinShare * RootW[I];
    if (Keep)
      Kept.push_back(N);
    Open.pop_back();
  };
  for (size_t K = 0; K < Order.size(); K++) {
    uint32_t CI = Order[K];
    size_t Len = Starts[CI + 1] - Starts[CI], Common = 0;
    if (K) {
      uint32_t Prev = Order[K - 1];
      size_t PrevLen = Starts[Prev + 1] - Starts[Prev];
      while (Common < Len && Common < PrevLen &&
             Seq[Starts[CI] + Common] == Seq[Starts[Prev] + Common])
        Common++;
    }
    while (Open.size() > Common)
      Close();
    for (size_t D = Common; D < Len; D++) {
      Node N{static_cast<uint32_t>(++Frames),
             D ? Open.back().Id : 0,
             Seq[Starts[CI] + D],
             CI,
             static_cast<uint32_t>(D + 1),
             {}};
      Open.push_back(N);
    }
    uint64_t V[NW];
    for (unsigned I = 0; I < NW; I++)
      V[I] = Value(CI, I);
    for (Node &N : Open) {
      N.First = std::min(N.First, CI);
      for (unsigned I = 0; I < NW; I++)
        N.W[I] += V[I];
    }
  }
  while (!Open.empty())
    Close();
  std::vector<uint32_t>().swap(Seq);
  std::vector<size_t>().swap(Starts);
  std::vector<uint32_t>().swap(Order);
  // In the order the nodes were made when each context's stack was added
  // in turn: by the first context in them, then root first; the root
  // before all.
  std::sort(Kept.begin(), Kept.end(), [](const Node &A, const Node &B) {
    return std::tie(A.First, A.Depth) < std::tie(B.First, B.Depth);
  });
  Node Root{0, 0, 0, 0, 0, {}};
  for (unsigned I = 0; I < NW; I++)
    Root.W[I] = RootW[I];
  Kept.insert(Kept.begin(), Root);
  std::unordered_map<uint32_t, uint32_t> NewId;
  std::vector<uint32_t> NewName(AllNames.size(), ~0u);
  std::vector<const std::string *> Names;
  for (uint32_t K = 0; K < Kept.size(); K++) {
    NewId[Kept[K].Id] = K;
    uint32_t Name = Kept[K].Name;
    if (K && NewName[Name] == ~0u) {
      NewName[Name] = Names.size();
      Names.push_back(AllNames[Name]);
    }
  }
  llvm::json::OStream J(OS);
  J.object([&] {
    J.attributeArray("names", [&] {
      for (const std::string *N : Names)
        J.value(*N);
    });
    J.attributeArray("weights", [&] {
      for (Field F : Weights)
        if (P.has(F))
          J.value(FieldNames[static_cast<unsigned>(F)]);
    });
    J.attribute("frames", static_cast<int64_t>(Frames));
    J.attribute("min_share", FlameMinShare);
    J.attributeArray("nodes", [&] {
      for (uint32_t K = 0; K < Kept.size(); K++)
        J.array([&] {
          const Node &Nd = Kept[K];
          J.value(K ? static_cast<int64_t>(NewId[Nd.Parent]) : -1);
          J.value(K ? static_cast<int64_t>(NewName[Nd.Name]) : -1);
          for (uint64_t V : Nd.W)
            J.value(static_cast<int64_t>(V));
        });
    });
  });
}

static const char PageHead[] = R"HTML(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>heapprof report</title>
<style>
body{font:14px/1.4 sans-serif;margin:1em 2em;color:#222;background:#fff;overflow-wrap:anywhere}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.4em 0}
th,td{padding:2px 8px;border-bottom:1px solid #eee;text-align:right;vertical-align:top}
th{background:#f3f3f3;cursor:pointer;user-select:none;overflow-wrap:normal}
th.sorted-desc::after{content:" \25BC"}th.sorted-asc::after{content:" \25B2"}
td.text,th.text{text-align:left}
td.stack{text-align:left;font-family:monospace;font-size:12px}
/* The page never scrolls sideways: names and stacks wrap (one frame a
   line still), numbers do not, and a table still wider than the window
   scrolls in its own box. */
td{white-space:nowrap}
#tables td.text,td.stack{white-space:pre-wrap;min-width:24ch}
.table-box{max-width:100%;overflow-x:auto}
.note{color:#777}
#flame{position:relative;width:100%;border:1px solid #ccc;overflow:hidden;font:12px monospace}
#flame div.frame{position:absolute;height:17px;box-sizing:border-box;border:1px solid #fff;
 overflow:hidden;white-space:nowrap;cursor:pointer;padding:0 3px;color:#000}
#flame div.frame:hover{border-color:#000}
#flame-info{min-height:1.4em;font-family:monospace}
</style></head><body>
<h1 id="title">heapprof report</h1>
<noscript><p>This page builds its tables with JavaScript; the data is in
the script blocks (heapprof report --format json gives the same).</p></noscript>
<script type="application/json" id="report">
)HTML";

static const char PageMiddle[] = R"HTML(
</script>
<script type="application/json" id="flamedata">
)HTML";

static const char PageTail[] = R"HTML(
</script>
<div id="summary"></div>
<h2>The heap over time</h2>
<div id="timeline-box"></div>
<h2>Flame graph</h2>
<p>weight: <select id="weight"></select> <button id="reset">reset zoom</button>
<span class="note">click a frame to zoom in; the allocation site is at the bottom</span></p>
<p class="note" id="flame-pruned"></p>
<div id="flame-info"></div>
<div id="flame"></div>
<div id="tables"></div>
<script>
"use strict";
var R = JSON.parse(document.getElementById("report").textContent);
var F = JSON.parse(document.getElementById("flamedata").textContent);
function el(tag, attrs, text) {
  var e = document.createElement(tag);
  for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}
function fmt(v) {
  if (v === null || v === undefined) return "\u2014";
  if (typeof v === "number" && Number.isInteger(v))
    return String(v).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return String(v);
}
// "1 object", "2 objects": a count and its noun, as the text report's
// objects() writes them.
function count(n, one, many) { return fmt(n) + " " + (n === 1 ? one : many); }
function human(b) {
  if (b === null) return "\u2014";
  var u = ["B", "KiB", "MiB", "GiB", "TiB"], i = 0;
  while (b >= 1024 && i < u.length - 1) { b /= 1024; i++; }
  return (i ? b.toFixed(1) : b) + " " + u[i];
}
function stackText(frames) {
  return frames.map(function (f) {
    var where = f.file ? " " + f.file.replace(/.*\//, "") + ":" + f.line : "";
    return f.function + where + (f.inlined ? " (inlined)" : "");
  }).join("\n");
}
// Keyed by table ids, looked up with a name from the address: no
// prototype, so "#sort=__proto__:x" finds nothing rather than Object's.
var sortHooks = Object.create(null);
// A table: cols = [{key, label, get(row), text: bool, stack: bool}].
function table(id, title, cols, rows, note) {
  var box = document.getElementById("tables");
  box.appendChild(el("h2", {}, title));
  if (rows === null) {
    box.appendChild(el("p", {"class": "note", id: id},
                       "not in this profile" + (note ? ": " + note : "")));
    return;
  }
  if (note) box.appendChild(el("p", {"class": "note"}, note));
  var t = el("table", {id: id}), head = el("tr"), body = el("tbody");
  var state = {col: null, desc: true};
  cols.forEach(function (c) {
    var th = el("th", {"data-col": c.key, "class": c.text || c.stack ? "text" : ""}, c.label);
    th.onclick = function () { sortBy(c.key); };
    head.appendChild(th);
  });
  t.appendChild(el("thead")).appendChild(head);
  t.appendChild(body);
  var trs = rows.map(function (r, i) {
    var tr = el("tr", {"data-row": i});
    tr._vals = {};
    cols.forEach(function (c) {
      var v = c.get(r);
      tr._vals[c.key] = v;
      var td = el("td", {"data-col": c.key,
                         "class": c.stack ? "stack" : c.text ? "text" : ""});
      if (c.stack) {
        td.textContent = stackText(v);
        tr._vals[c.key] = v.length ? v[0].function : "";
      } else {
        td.textContent = c.show ? c.show(v) : fmt(v);
        if (v !== null) td.setAttribute("data-v", v);
      }
      tr.appendChild(td);
    });
    body.appendChild(tr);
    return tr;
  });
  function sortBy(key) {
    var c = cols.filter(function (x) { return x.key === key; })[0];
    if (!c) return;
    state.desc = state.col === key ? !state.desc : !(c.text || c.stack);
    state.col = key;
    trs.sort(function (a, b) {
      var x = a._vals[key], y = b._vals[key], d;
      if (x === y) d = 0;
      else if (x === null) return 1;
      else if (y === null) return -1;
      else d = x < y ? -1 : 1;
      if (d === 0) d = a.getAttribute("data-row") - b.getAttribute("data-row");
      else if (state.desc) d = -d;
      return d;
    });
    trs.forEach(function (tr) { body.appendChild(tr); });
    head.querySelectorAll("th").forEach(function (th) {
      th.className = (th.className.indexOf("text") >= 0 ? "text " : "") +
        (th.getAttribute("data-col") === key ? (state.desc ? "sorted-desc" : "sorted-asc") : "");
    });
    t.setAttribute("data-sorted", key + (state.desc ? ":desc" : ":asc"));
  }
  sortHooks[id] = sortBy;
  box.appendChild(el("div", {"class": "table-box"})).appendChild(t);
}
function key(k) { return function (r) { return r[k]; }; }
function num(k, label) { return {key: k, label: label || k.replace(/_/g, " "), get: key(k)}; }

// Summary.
var S = R.summary;
// Who wrote a profile that lacks a section (the text report says the same).
var NOEXT = S.processes.some(function (p) { return !p.pid; });
function older(flag) {
  return NOEXT ? "written by upstream MemProf or with raw_extension=0 (no heapprof extension)"
               : "written with " + flag + " or by an older runtime";
}
var SAMPLED = S.sampled_bytes !== null; // the counts are estimates
// Each program once, with how many processes ran it, as the text report's
// "process" rows say it ("t7: 31 processes"): a program that forked 30
// children would otherwise fill the title with its path 31 times.
// (A Map keeps the first-seen order, and any path is a key, "__proto__" too.)
var progCounts = new Map();
S.processes.forEach(function (p) {
  progCounts.set(p.program, (progCounts.get(p.program) || 0) + 1);
});
var progs = Array.from(progCounts, function (pc) {
  return pc[0] + (pc[1] > 1 ? ": " + pc[1] + " processes" : "");
}).join(", ");
document.getElementById("title").textContent = "heapprof report: " + progs;
document.title = "heapprof: " + progs;
var sum = el("table", {id: "summary-table"});
[["allocations", S.allocs], ["bytes allocated", S.bytes, true], ["frees", S.frees],
 ["live objects", S.live_objects], ["live bytes", S.live_bytes, true],
 ["accesses", S.accesses], ["temporary", S.temporary], ["contexts", S.contexts],
 ["contexts at the stack limit", S.contexts_at_stack_limit],
 ["peak bytes", S.peak_bytes, true],
 ["peak at (ms)", S.peak_ms], ["time span (ms)", S.time_span_ms],
 ["processes", S.processes.length]].forEach(function (r) {
  var tr = el("tr", {"data-key": r[0]});
  tr.appendChild(el("th", {"class": "text"}, r[0]));
  var td = el("td", {}, fmt(r[1]) + (r[2] && r[1] !== null ? " (" + human(r[1]) + ")" : ""));
  if (r[1] !== null) td.setAttribute("data-v", r[1]);
  tr.appendChild(td);
  sum.appendChild(tr);
});
var sbox = document.getElementById("summary");
sbox.appendChild(el("h2", {}, "Summary"));
sbox.appendChild(el("div", {"class": "table-box"})).appendChild(sum);
if (S.allocator)
  sbox.appendChild(el("p", {"class": "note", id: "allocator"}, "allocator: " +
    (S.allocator.kind === "library" ? S.allocator.path :
     S.allocator.kind === "heapprof" ? "heapprof's own" :
     S.allocator.kind === "glibc" ? "glibc's malloc" :
     "several: the profiles were taken on different allocators")));
// The command lines, as the text report writes them (commandText).
function shellWords(args) {
  return args.map(function (a) {
    var t = a.replace(/[\x00-\x1f\x7f]/g, "?");
    return /^[A-Za-z0-9_@%+=:,.\/-]+$/.test(a) ? t : "'" + t.replace(/'/g, "'\\''") + "'";
  }).join(" ");
}
var CMDS = [];
S.processes.forEach(function (p) {
  if (!p.command) return;
  var c = shellWords(p.command) + (p.command_truncated ? " ..." : "");
  if (CMDS.indexOf(c) < 0) CMDS.push(c);
});
CMDS.slice(0, 3).forEach(function (c) {
  sbox.appendChild(el("p", {"class": "note command"}, "command: " + c));
});
if (CMDS.length > 3)
  sbox.appendChild(el("p", {"class": "note command"}, "and " + (CMDS.length - 3) +
    " more commands (the JSON lists each process's)"));
// Modules whose return addresses no symbol names (a stripped program
// under heapprof run): their frames read module+0xoffset.
var UNNAMED = S.modules.filter(function (m) { return m.symbolized && m.unnamed > 0; })
  .sort(function (a, b) { return b.unnamed - a.unnamed; });
if (UNNAMED.length)
  sbox.appendChild(el("p", {"class": "note", id: "unnamed"},
    "frames without names (shown as module+offset): " +
    UNNAMED.slice(0, 3).map(function (m) {
      return m.file.replace(/.*\//, "") + " " + fmt(m.unnamed) + " of " +
        fmt(m.addresses) + " return addresses";
    }).join(", ") +
    (UNNAMED.length > 3 ? ", and " + (UNNAMED.length - 3) + " more modules" : "") +
    "; to name them: their separate debug files (found by build id in /usr/lib/debug, " +
    "or in --debug-dir DIR), or unstripped builds profiled in their place"));
if (S.sampled_bytes !== null)
  sbox.appendChild(el("p", {"class": "note"}, "sampled" + (S.sampled_bytes ?
    " every " + fmt(S.sampled_bytes) + " bytes" : " at several rates") +
    ": the counts are estimates"));
if (R.missing.length)
  sbox.appendChild(el("p", {"class": "note"}, "not recorded: " + R.missing.join(", ")));

// The heap over time: the highest live size of each bucket as the light
// area, the lowest as the dark one; a bucket without a note keeps the last
// size before it.  Hovering shows a bucket's sizes.
(function () {
  var box = document.getElementById("timeline-box"), T = R.timeline;
  if (!T || !T.buckets.length) {
    box.appendChild(el("p", {"class": "note", id: "timeline-none"},
      "not in this profile: " + (SAMPLED
        ? "sampled mode does not keep one, it sees only the sampled objects"
        : older("peak=0"))));
    return;
  }
  var NS = "http://www.w3.org/2000/svg", w = 800, h = 200, pad = 70;
  // The axis ends at the run's span, the last dump of the timeline's
  // process (the summary's time span), not at the end of the bucket that
  // holds it, up to a bucket later; the last bucket is drawn up to it.
  var B = T.buckets, last = B[B.length - 1].ms, end = last, max = 1;
  S.processes.forEach(function (p) { if (p.pid === T.pid) end = Math.max(end, p.last_ms); });
  B.forEach(function (b) { max = Math.max(max, b.highest); });
  function x(ms) { return pad + (end ? ms / end : 1) * (w - pad - 10); }
  function y(v) { return 10 + (1 - v / max) * (h - 40); }
  function area(key) {
    var pts = [x(0) + "," + y(0)], carry = 0, next = 0;
    for (var ms = 0; ms <= last; ms += T.bucket_ms) {
      var v = carry;
      if (next < B.length && B[next].ms === ms) { v = B[next][key]; carry = B[next].last; next++; }
      pts.push(x(ms) + "," + y(v), x(Math.min(ms + T.bucket_ms, end)) + "," + y(v));
    }
    pts.push(x(end) + "," + y(0));
    return pts.join(" ");
  }
  var svg = document.createElementNS(NS, "svg");
  svg.setAttribute("id", "timeline");
  svg.setAttribute("width", w);
  svg.setAttribute("height", h);
  svg.setAttribute("data-buckets", B.length);
  svg.setAttribute("data-max", max);
  svg.setAttribute("data-end-ms", end);
  function add(tag, attrs, text) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    svg.appendChild(e);
    return e;
  }
  add("polygon", {points: area("highest"), fill: "#f4b183", "class": "highest"});
  add("polygon", {points: area("lowest"), fill: "#c55a11", "class": "lowest"});
  add("line", {x1: pad, y1: y(0), x2: w - 10, y2: y(0), stroke: "#555"});
  add("line", {x1: pad, y1: 10, x2: pad, y2: y(0), stroke: "#555"});
  add("text", {x: pad - 4, y: 14, "text-anchor": "end", "font-size": 11}, human(max));
  add("text", {x: pad - 4, y: y(0), "text-anchor": "end", "font-size": 11}, "0 B");
  add("text", {x: pad, y: h - 12, "font-size": 11}, "0 ms");
  add("text", {x: w - 10, y: h - 12, "text-anchor": "end", "font-size": 11}, fmt(end) + " ms");
  var info = el("div", {id: "timeline-info", "class": "note"}, "\u00a0");
  svg.onmousemove = function (ev) {
    var r = svg.getBoundingClientRect(), ms = (ev.clientX - r.left - pad) / (w - pad - 10) * end;
    var b = null;
    B.forEach(function (c) { if (c.ms <= ms) b = c; });
    if (b) info.textContent = b.ms + "-" + (b.ms + T.bucket_ms) + " ms: " + human(b.lowest) +
      " to " + human(b.highest) + ", " + human(b.last) + " at its end";
  };
  box.appendChild(svg);
  box.appendChild(info);
  box.appendChild(el("p", {"class": "note"}, "live requested bytes, in buckets of " + T.bucket_ms +
    " ms: light up to the highest size in each, dark up to the lowest; sizes noted at every 64 KiB " +
    "a thread's heap moved, at the peak and at each dump" +
    (S.processes.length > 1 ? "; pid " + T.pid + ", the process with the peak" : "")));
})();

// The tables of heapprof report.
// Why the top table is null: the profile lacks the field --sort orders by
// (tables.cpp's sortTop), in the text report's words.
function topLacks() {
  var field = {live: "live_at_dump", cycles: "malloc_samples", temporary: "temporary"}[R.options.sort];
  return "the profile lacks " + field + ": " + (SAMPLED && field === "temporary"
    ? "sampled mode sees only the sampled allocations"
    : "it was written by " + (NOEXT ? "upstream MemProf (-fmemory-profile) or heapprof with " +
        "raw_extension=0, without heapprof's extension" : "an older heapprof runtime"));
}
table("top", "Top contexts by " + R.options.sort, [
  num("rank", "#"), num("bytes"), num("allocs"), num("frees"), num("live_objects"),
  num("live_bytes"), num("accesses"), num("temporary"),
  {key: "lifetime_ms", label: "lifetime ms", get: function (r) { return r.derived.lifetime_ms; }},
  // Accesses per 100 bytes of the context (100 x accesses / bytes), as the
  // text report's "density" column shows it, with one decimal: a column of
  // accesses per byte would read 0.125 here and 12.5 there for the same
  // objects.
  {key: "density", label: "accesses/100 B", get: function (r) { return r.derived.access_density; },
   show: function (v) { return v === null ? "\u2014" : v.toFixed(1); }},
  {key: "stack", label: "stack (allocation site first)", stack: true, get: key("stack")}],
  R.contexts, R.contexts === null ? topLacks() : undefined);
// The leak table: memory unreachable at exit when the profile has the leak
// check (R.leak_check), as the text report says it; else live at the end.
var LC = R.leak_check, UNREACHABLE = R.leaks_measure === "unreachable";
var leakNotes = [];
if (UNREACHABLE && LC) {
  var leaked = R.leaks.concat(R.leaks_suppressed).reduce(function (n, r) { return n + r.objects; }, 0);
  if (!R.leaks.length)
    leakNotes.push(leaked ? "everything unreachable at exit was suppressed"
                          : "no object was unreachable at exit");
  leakNotes.push("still reachable at exit, not listed: " + human(LC.reachable_bytes) + " in " +
    count(LC.reachable_objects, "object", "objects") + " (--leaks=live lists all live memory)");
  if (LC.threads_running)
    leakNotes.push(fmt(LC.threads_running) + (LC.threads_running === 1 ? " other thread was" :
      " other threads were") + " running at the check: an object only " +
      (LC.threads_running === 1 ? "its" : "their") + " registers held is counted as leaked");
}
if (R.leaks !== null && R.leaks_suppressed.length)
  leakNotes.push("suppressed (--suppressions): " + R.leaks_suppressed.map(function (s) {
    return s.rule + " " + count(s.objects, "object", "objects") + ", " + human(s.bytes) + " in " +
      count(s.contexts, "context", "contexts");
  }).join("; "));
table("leaks", UNREACHABLE ? "Memory leaks: unreachable at exit" : "Memory leaks",
  // The direct bytes in a column of their own, as the text report's: a
  // 24-byte direct leak beside 120,000 indirect bytes showed only as the
  // difference of two columns.
  [num("bytes"), num("objects")].concat(UNREACHABLE ? [
    {key: "direct_bytes", label: "direct bytes",
     get: function (r) { return r.bytes - r.indirect_bytes; }},
    num("indirect_bytes")] : [],
  [num("percent", "%"), num("contexts"),
   {key: "chain", label: "call chain", stack: true, get: key("chain")}]),
  R.leaks, R.leaks === null ? (UNREACHABLE ? "the profile has no leak check at exit: " +
      (SAMPLED ? "sampled mode does not see the whole heap" : older("detect_leaks=0, from checkpoints only,"))
    : "the profile has no live counts")
    : leakNotes.join("; ") || undefined);
table("bins", "Allocation bins", [
  {key: "size", label: "size", get: key("size"), show: function (v) { return v > 1024 ? ">1024" : fmt(v); }},
  num("allocs"), num("bytes"), num("frees"), num("kept"), num("kept_objects"),
  num("percent_allocs", "% allocs"), num("percent_bytes", "% bytes")], R.bins,
  R.bins_omitted && R.bins_omitted.sizes ? fmt(R.bins_omitted.sizes) +
    " more sizes, each under 0.5% of the allocations and of the bytes, not listed: " +
    fmt(R.bins_omitted.allocs) + " allocations, " + human(R.bins_omitted.bytes) +
    " (--top 0 lists them)" : undefined);
table("direct", "Direct allocation", [
  {key: "function", label: "function", text: true, get: key("function")},
  num("bytes"), num("kept_bytes"), num("calls"), num("percent", "%"),
  num("small"), num("medium"), num("large"), num("xlarge")], R.direct);
function edges(list, more) {
  var lines = list.map(function (e) { return e.name + " [" + e.index + "] " + fmt(e.bytes) + " B"; });
  if (more && more.edges)
    lines.push("(" + fmt(more.edges) + " more, " + fmt(more.bytes) + " B; --top 0 lists them)");
  return lines.join("\n");
}
table("callgraph", "Allocation call graph", [
  num("index", "[N]"), {key: "name", label: "function", text: true, get: key("name")},
  num("percent", "%"), num("self_bytes"), num("self_calls"), num("total_bytes"),
  num("total_calls"),
  {key: "callers", label: "callers", text: true, get: function (r) { return edges(r.callers, r.callers_omitted); }},
  {key: "callees", label: "callees", text: true, get: function (r) { return edges(r.callees, r.callees_omitted); }}],
  R.callgraph);
table("cold", "Cold candidates", [num("bytes"), num("allocs"), num("accesses"),
  {key: "lifetime_ms", label: "lifetime ms", get: function (r) { return r.derived.lifetime_ms; }},
  num("contexts"), {key: "chain", label: "call chain", stack: true, get: key("chain")}], R.cold,
  R.cold === null ? "no access was counted; a program not compiled with -fheapprof counts none"
  : R.cold_uncounted && R.cold_uncounted.contexts
  ? "left out: " + count(R.cold_uncounted.contexts, "context", "contexts") + ", " +
    human(R.cold_uncounted.bytes) + " in " + count(R.cold_uncounted.objects, "object", "objects") +
    ", allocated in libraries not compiled with -fheapprof (" + R.cold_uncounted.modules.join(", ") +
    ") and touched by no code that was: their own accesses are not counted"
  : undefined);

// The allocator profiler's sections (docs/allocator-profiler.md), as the
// text report ends with them.  Why one is missing: sampled mode does not see
// the whole heap nor time glibc's calls (SAMPLED); else the flag or an older
// runtime.
function pct(x) { return x === null || x === undefined ? null : +(x * 100).toFixed(2); }
var HU = R.heap_utilization;
table("utilization", "Heap utilization at the last dump", [
  {key: "unit", label: "unit", text: true, get: key("unit")},
  num("count", "in the heap"), num("touched", "with an access"),
  num("live_bytes_on_touched", "live bytes on those"),
  {key: "utilization", label: "utilization %", get: function (r) { return pct(r.utilization); }}],
  HU ? [Object.assign({unit: "64-byte lines"}, HU.lines), Object.assign({unit: "4 KiB pages"}, HU.pages)] : null,
  HU ? count(HU.live_objects, "live object", "live objects") + ", " + human(HU.live_bytes) +
       "; utilization: of the lines and pages with an access, the share of bytes live objects hold"
     : SAMPLED ? "sampled mode does not see the whole heap"
     : older("heap_utilization=0"));
var FS = R.false_sharing;
table("sharing", "False sharing: objects of different contexts on one cache line", [
  num("active_events", "active events"), num("active_lines", "active lines"),
  num("passive_lines", "passive lines"),
  {key: "a", label: "context A", stack: true, get: key("a")},
  {key: "b", label: "context B", stack: true, get: key("b")}],
  FS ? FS.pairs : null,
  FS ? count(FS.objects, "object", "objects") + " on " + fmt(FS.lines) + " lines (" + FS.layout + " layout); " +
       fmt(FS.passive.shared_lines) + " lines shared passively, " + fmt(FS.active.events) +
       " active events on " + fmt(FS.active.lines) + " lines"
     : SAMPLED ? "sampled mode does not see the whole heap"
     : older("false_sharing=0"));
function classText(r) {
  return r.op === "none" ? "outside any call"
    : [r.op, r.size, r.block === "none" ? "-" : r.block, r.phase].join(" ");
}
var CP = R.cost_per_op;
table("opclasses", "Allocator cost by operation class", [
  {key: "name", label: "class", text: true, get: classText},
  num("count", "calls"), num("percent_calls", "% calls"), num("sampled"),
  num("mean_cycles", "mean cycles"),
  {key: "median_bucket", label: "median", get: key("median_bucket"),
   show: function (v) { return v === null ? "\u2014" : "2^" + v; }},
  num("percent_cycles", "% cycles")],
  R.op_classes,
  R.op_classes === null ? (SAMPLED
      ? "sampled mode calls glibc's allocator directly and does not time it (name an allocator to time it: allocator=system or allocator=PATH)"
      : (NOEXT ? older("") : "no dump has the allocator's operation classes (op_classes=0, or an older runtime)"))
    : CP.per_op === null ? "cost per operation: unknown (" + count(CP.calls, "call, not timed", "calls, none timed") + ")"
    : "cost per operation: " + fmt(CP.per_op) + " cycles in the allocator's calls (" +
      count(CP.calls, "call", "calls") + (CP.calls > CP.timed_calls ? "; left out: " +
      count(CP.calls - CP.timed_calls, "call", "calls") + " of classes with no timed call" : "") +
      ")" + (CP.per_op_with_faults !== null ? ", " + fmt(CP.per_op_with_faults) +
      " with the page faults outside them" : ""));
table("syscalls", "Allocator system calls", [
  num("count", "calls"), {key: "bytes", label: "bytes", get: key("bytes"), show: human},
  num("cycles"), {key: "syscall", label: "syscall", text: true, get: key("syscall")},
  {key: "cause", label: "caused by", text: true, get: classText}],
  R.syscalls,
  R.syscalls === null ? (NOEXT ? older("") : "no dump has the allocator's system calls (an older runtime)")
    // As the text report: said when that reservation is there (heapprof's
    // own allocator; under another one it is not counted).
    : R.syscalls.some(function (r) {
        return r.op === "none" && r.syscall === "mmap" && r.bytes >= 1099511627776;
      }) ? "outside any call: mostly heapprof's allocator reserving its address space at start (address space, not memory)"
    : undefined);
var PM = R.pmu;
if (PM)
  table("pmu", "PMU events of the sampled allocator calls",
    [{key: "name", label: "class", text: true, get: classText}, num("samples")].concat(
      PM.events.map(function (e) {
        return {key: "ev-" + e, label: e, get: function (r) { return r.sums[e]; }};
      })),
    PM.rows, PM.hardware ? undefined : "no hardware counters on this machine: software events only");
var K = R.peak;
// Another allocator's heap is not seen from outside it: its blocks are the
// requested bytes and heapprof's heap measures 0 (as in the text report).
var FOREIGN = !S.allocator ? "" : S.allocator.kind === "glibc" ? "glibc's malloc" :
  S.allocator.kind === "library" ? S.allocator.path : "";
table("peak", "The peak: the largest live heap, by allocation site and " +
  (R.options.depth - 1) + " callers", [
  num("peak_bytes", "bytes"), num("peak_objects", "objects"), num("percent", "%"),
  num("contexts"), {key: "chain", label: "call chain", stack: true, get: key("chain")}],
  K ? K.top : null,
  K ? human(K.bytes) + " requested in " + count(K.objects, "object", "objects") + " at " + fmt(K.ms) + " ms" +
      (K.processes > 1 ? " (pid " + K.pid + ", the largest of " + K.processes + " processes)" : "") +
      (FOREIGN ? "; the allocator, " + FOREIGN + ", is not seen from outside: its blocks are not measured"
       : "; the allocator's blocks " + human(K.block_bytes)) +
      (K.unnamed_bytes ? "; " + human(K.unnamed_bytes) +
       " of it in contexts these dumps don't name (their chunks were freed before an earlier checkpoint)" : "") +
      (K.timeline_above ? "; the heap over time noted " + human(K.timeline_above.bytes) + " at " +
       fmt(K.timeline_above.ms) + " ms, " + human(K.timeline_above.bytes - K.bytes) +
       " above: snapshots are a step apart (at most peak_threshold_kb), so the peak may be up to a step low" : "")
    : SAMPLED ? "sampled mode does not track it, it sees only the sampled objects"
    : older("peak=0"));
var O = K && K.overhead;
if (K)
  table("overhead", "Memory overhead at the peak", [
    {key: "part", label: "", text: true, get: key("part")}, num("bytes"),
    {key: "share", label: "% of the heap mapped", get: key("share")}],
    // A share of the heap where the text report gives one.
    O ? (FOREIGN ? [["requested", O.requested], ["metadata (besides the heap)", O.metadata],
                    ["process resident", O.process_resident]] :
         [["requested", O.requested, 1], ["internal fragmentation", O.internal_fragmentation, 1],
         ["  headers", O.headers], ["  rounding and pages", O.rounding],
         ["memory blowup" + (O.threads > 1 ? "" : " (one thread: none)"), O.blowup, O.threads > 1],
         ["external fragmentation", O.external_fragmentation, 1],
         ["heap mapped", O.heap_mapped], ["heap resident", O.heap_resident],
         ["metadata (besides the heap)", O.metadata],
         ["process resident", O.process_resident]]).map(function (x) {
        return {part: x[0], bytes: x[1],
                share: x[2] && O.heap_mapped ? +(x[1] / O.heap_mapped * 100).toFixed(2) : null};
      }) : null,
    O ? [FOREIGN ? FOREIGN + "'s blocks, fragmentation and mapped memory are not seen from outside it: only heapprof's metadata is measured" : "",
         O.requested < K.bytes ? "measured at " + human(O.requested) + " live, near the peak" : "",
         O.line_utilization === null ? "" : "line utilization " + fmt(pct(O.line_utilization)) +
           "%, page utilization " + fmt(pct(O.page_utilization)) + "%"]
          .filter(function (s) { return s; }).join("; ") || undefined
      : (NOEXT ? older("") : "the profile has no overhead section (an older runtime)"));

// The flame graph: every context's stack, root at the top, the allocation
// site at the bottom; a frame's width is its share of the chosen weight.
var weights = F.weights;
var wsel = document.getElementById("weight");
weights.forEach(function (w) { wsel.appendChild(el("option", {value: w}, w.replace("_", " "))); });
var shown = F.nodes.length - 1;
if (shown < F.frames)
  document.getElementById("flame-pruned").textContent = "showing " + fmt(shown) + " of " +
    fmt(F.frames) + " frames: the others weigh under " + F.min_share * 100 +
    "% of every weight's total (they count in the frame above them)";
var zoomPath = [];
var weightColumn = {bytes: 2, allocs: 3, accesses: 4, live_bytes: 5, temporary: 6,
                    leaked_bytes: 7};
// #weight= takes heapprof flamegraph --weight's names too.
var weightAlias = {live: "live_bytes", leaked: "leaked_bytes"};
// A frame's children by name in a Map: a plain object would answer a
// function named "constructor" or "__proto__" (or a #zoom path naming one)
// with Object.prototype's members.
function buildTree(w) {
  var k = weightColumn[w];
  var ns = F.nodes.map(function (r) {
    return {name: r[1] < 0 ? "all" : F.names[r[1]], value: r[k], children: new Map(), order: []};
  });
  F.nodes.forEach(function (r, i) {
    var n = ns[i];
    if (r[0] < 0 || !n.value) return;
    ns[r[0]].children.set(n.name, n);
    ns[r[0]].order.push(n.name);
  });
  return ns[0];
}
function hue(name) {
  if (name.indexOf("[stack limit:") === 0) return "#c8c8c8"; // no function
  var h = 0;
  for (var i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  return "hsl(" + (10 + h % 40) + ",85%," + (60 + h % 15) + "%)";
}
function drawFlame() {
  var w = wsel.value, root = buildTree(w), box = document.getElementById("flame");
  box.innerHTML = "";
  box.setAttribute("data-weight", w);
  var rows = [], base = root, depth = 0, path = [];
  // The zoomed frame's ancestors keep the full width.
  for (var i = 0; i < zoomPath.length && base.children.has(zoomPath[i]); i++) {
    rows.push({n: base, left: 0, width: 100, depth: depth++, path: path.slice()});
    path.push(zoomPath[i]);
    base = base.children.get(zoomPath[i]);
  }
  zoomPath = path.slice();
  var total = base.value, maxDepth = depth;
  function walk(n, left, d, p) {
    var width = total ? n.value / total * 100 : 0;
    rows.push({n: n, left: left, width: width, depth: d, path: p});
    maxDepth = Math.max(maxDepth, d);
    var l = left;
    n.order.slice().sort().forEach(function (c) {
      var ch = n.children.get(c);
      walk(ch, l, d + 1, p.concat([c]));
      l += total ? ch.value / total * 100 : 0;
    });
  }
  walk(base, 0, depth, path);
  box.style.height = (maxDepth + 1) * 17 + "px";
  rows.forEach(function (r) {
    if (r.width < 0.05) return;
    var d = el("div", {"class": "frame", "data-frame": r.n.name, "data-value": r.n.value,
                       "data-depth": r.depth, "data-width": r.width.toFixed(4),
                       title: r.n.name + ": " + fmt(r.n.value) + " " + w});
    d.style.left = r.left.toFixed(4) + "%";
    d.style.width = r.width.toFixed(4) + "%";
    d.style.top = r.depth * 17 + "px";
    d.style.background = r.depth === 0 ? "#ddd" : hue(r.n.name);
    d.textContent = r.n.name;
    d.onclick = function () { zoomPath = r.path; drawFlame(); };
    d.onmouseover = function () {
      document.getElementById("flame-info").textContent =
        r.n.name + ": " + fmt(r.n.value) + " " + w + " (" + (root.value ? (r.n.value / root.value * 100).toFixed(2) : 0) + "% of all)";
    };
    box.appendChild(d);
  });
}
wsel.onchange = drawFlame;
document.getElementById("reset").onclick = function () { zoomPath = []; drawFlame(); };

// #sort=TABLE:COLUMN, #weight=W and #zoom=F1/F2/... (for links and tests).
// Each zoom element is percent-encoded on its own (encodeURIComponent), so
// the path is split on '/' before decoding: a frame named "V::operator/" is
// "V%3A%3Aoperator%2F".  A malformed escape is taken as written, not thrown.
function decode(s) {
  try { return decodeURIComponent(s); } catch (e) { return s; }
}
location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
  var eq = kv.indexOf("="), k = eq < 0 ? kv : kv.slice(0, eq), raw = eq < 0 ? "" : kv.slice(eq + 1);
  var v = decode(raw);
  if (k === "sort") { var tc = v.split(":"); if (sortHooks[tc[0]]) sortHooks[tc[0]](tc[1]); }
  if (k === "weight") {
    if (Object.prototype.hasOwnProperty.call(weightAlias, v)) v = weightAlias[v];
    if (weights.indexOf(v) >= 0) wsel.value = v;
  }
  if (k === "zoom") zoomPath = raw.split("/").map(decode);
});
if (weights.length) drawFlame();
document.body.setAttribute("data-ready", "1");
</script>
</body></html>
)HTML";

void heapprof::renderHtml(const Report &R, const Profile &P,
                          llvm::raw_ostream &OS) {
  std::string Json, Flame;
  llvm::raw_string_ostream JS(Json), FS(Flame);
  renderJson(R, JS);
  flameJson(P, R.Opts.Suppressions, FS);
  JS.flush();
  FS.flush();
  OS << PageHead << scriptSafe(Json) << PageMiddle << scriptSafe(Flame)
     << PageTail;
}
