//===- cmd_flamegraph.cpp - heapprof flamegraph: stacks by weight --------===//
//
// Part of heapprof.  Prints a profile's allocation contexts as collapsed
// stacks, one line per distinct stack, outermost frame first:
//
//   main;b;a;leaf_alloc 300
//
// the input of flamegraph.pl, inferno-flamegraph and speedscope; or, with
// --svg, draws the flame graph itself as one self-contained SVG (inline
// style and script, no external reference) that zooms on a click.
// Loading and symbolizing are heapprof report's (cli.h's loadSymbolized);
// the format is in docs/formats.md, "Collapsed stacks".
//
//===----------------------------------------------------------------------===//
#include "cli.h"
#include "commands.h"
#include "profile_model.h"
#include "suppressions.h"
#include "symbolize.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

using namespace heapprof;

const char heapprof::FlamegraphUsage[] =
    "usage: heapprof flamegraph [options] PROFILE|DIR...\n"
    "  allocation stacks as collapsed stacks (`main;f;g 1234`, outermost\n"
    "  frame first) for flamegraph.pl, inferno or speedscope, or an SVG\n"
    "  --weight bytes|allocs|accesses|live|temporary|leaked\n"
    "                     what a stack weighs (default bytes; live: bytes\n"
    "                     live at the end; leaked: bytes unreachable at exit)\n"
    "  --svg              a self-contained interactive SVG flame graph (the\n"
    "                     default when FILE of -o ends in .svg)\n"
    "  --title TEXT       the SVG's title (with --svg only)\n"
    "  --suppressions FILE\n"
    "                     with --weight leaked: the contexts a rule\n"
    "                     (leak:PATTERN, LeakSanitizer's format) matches weigh\n"
    "                     0, as report leaves them out of its leak table; may\n"
    "                     be repeated\n"
    "  -o, --output FILE  write to FILE instead of stdout\n"
    "  --binary FILE      the profiled program (or a library) if it moved\n"
    "  --debug-dir DIR    where separate debug files are (searched before\n"
    "                     /usr/lib/debug); may be repeated\n"
    "  --full-names       C++ names whole (default: without template arguments\n"
    "                     and parameters, e.g. std::map::operator[])\n";

namespace {
struct FlameOptions {
  std::vector<std::string> Inputs;
  SymbolizeOptions Sym;
  Field Weight = Field::bytes;
  const char *Unit = "bytes";
  bool Svg = false;
  std::string Title;
  std::string Output;
  std::vector<std::string> SuppressionFiles;
  std::vector<Suppression> Suppressions;
};
} // namespace

static int parseArgs(int Argc, char **Argv, FlameOptions &O) {
  Options Opts(FlamegraphUsage);
  Opts.value("--weight", nullptr, [&O](const std::string &V) {
    if (V == "bytes")
      O.Weight = Field::bytes, O.Unit = "bytes";
    else if (V == "allocs")
      O.Weight = Field::allocs, O.Unit = "allocations";
    else if (V == "accesses")
      O.Weight = Field::accesses, O.Unit = "accesses";
    else if (V == "live")
      O.Weight = Field::live_bytes, O.Unit = "live bytes";
    else if (V == "temporary")
      O.Weight = Field::temporary, O.Unit = "temporary allocations";
    else if (V == "leaked")
      O.Weight = Field::leaked_bytes, O.Unit = "leaked bytes";
    else
      return "unknown weight '" + V +
             "' (bytes, allocs, accesses, live, temporary or leaked)";
    return std::string();
  });
  Opts.flag("--svg", O.Svg);
  bool TitleGiven = false;
  Opts.value("--title", nullptr, [&O, &TitleGiven](const std::string &V) {
    O.Title = V;
    TitleGiven = true;
    return std::string();
  });
  Opts.output(O.Output);
  Opts.symbolize(O.Sym);
  Opts.suppressions(O.SuppressionFiles);
  if (int Rc = Opts.parse(Argc, Argv, O.Inputs))
    return Rc;
  if (O.Inputs.empty())
    return Opts.usageError("no profile given");
  // -o graph.svg means the picture, not collapsed stacks in an .svg file.
  llvm::StringRef Out(O.Output);
  if (Out.size() > 4 && Out.ends_with(".svg"))
    O.Svg = true;
  // Collapsed stacks have no title: it was dropped without a word.
  if (TitleGiven && !O.Svg)
    return Opts.usageError("--title is the SVG picture's: give --svg or -o "
                           "NAME.svg");
  // Suppressions take contexts out of the leaks only: with another weight
  // they would be dropped without a word.
  if (!O.SuppressionFiles.empty() && O.Weight != Field::leaked_bytes)
    return Opts.usageError("--suppressions takes contexts out of the leaked "
                           "weight only: give --weight leaked");
  return 0;
}

// A frame's name in the collapsed format: ';' separates frames and a line
// ends at a newline, so those become ':' and ' '; spaces stay (the count
// is after the LAST space).  Inlined frames get flamegraph.pl's and
// inferno's "_[i]" suffix, which both color as inlined.
static std::string frameName(const Frame &F) {
  std::string S = F.Function.empty() ? "??" : F.Function;
  for (char &C : S) {
    if (C == ';')
      C = ':';
    else if (C == '\n' || C == '\r' || C == '\t')
      C = ' ';
  }
  if (F.Inlined)
    S += "_[i]";
  return S;
}

// Collapsed stacks, sorted, equal stacks added up, weight 0 left out.  A
// line's text is made only when it is written (forEach, in order): a map
// of every line's text, and the output built whole beside it, took 1.3x
// the collapsed output's size on top of the loaded profile (35 MB more
// than report on a python3 profile of 36,000 contexts).  A line here is
// its frames' names as numbers, outermost first (names hold no ';', so
// equal numbers are equal text); lines are sorted by their text's bytes.
namespace {
class Collapsed {
public:
  // Suppressed: suppressedContexts' rule per context (empty: none).
  Collapsed(const Profile &P, Field W, const std::vector<int32_t> &Suppressed) {
    std::unordered_map<std::string, uint32_t> NameIds;
    auto Id = [&](std::string N) {
      auto [It, New] = NameIds.try_emplace(std::move(N), Names.size());
      if (New)
        Names.push_back(It->first);
      return It->second;
    };
    // Each Location's names, outermost (its last frame) first.
    std::vector<std::vector<uint32_t>> LocNames(P.Locations.size());
    for (size_t L = 0; L < P.Locations.size(); L++) {
      const std::vector<Frame> &Fs = P.Locations[L].Frames;
      for (size_t I = Fs.size(); I-- > 0;)
        LocNames[L].push_back(Id(frameName(Fs[I])));
    }
    const uint32_t NoFrames = Id("??");
    // Equal lines in one Group: an open-addressed table of group numbers
    // + 1, by the hash of the line's numbers.
    std::vector<uint32_t> Table(1024), Line;
    for (size_t CI = 0; CI < P.Contexts.size(); CI++) {
      const Context &C = P.Contexts[CI];
      uint64_t V = leakAware(P, Suppressed, CI, W);
      if (!V)
        continue;
      Line.clear();
      for (size_t I = C.Stack.size(); I-- > 0;)
        for (uint32_t N : LocNames[C.Stack[I]])
          Line.push_back(N);
      if (Line.empty())
        Line.push_back(NoFrames);
      uint64_t H = 0xcbf29ce484222325ull;
      for (uint32_t N : Line)
        H = (H ^ N) * 0x100000001b3ull;
      size_t Mask = Table.size() - 1, Slot = H & Mask;
      for (; Table[Slot]; Slot = (Slot + 1) & Mask) {
        Group &G = Groups[Table[Slot] - 1];
        if (G.Hash == H && G.Len == Line.size() &&
            std::equal(Line.begin(), Line.end(), Pool.begin() + G.Begin))
          break;
      }
      if (Table[Slot]) {
        Groups[Table[Slot] - 1].V += V;
        continue;
      }
      Table[Slot] = static_cast<uint32_t>(Groups.size() + 1);
      Groups.push_back({Pool.size(), Line.size(), H, V});
      Pool.insert(Pool.end(), Line.begin(), Line.end());
      if (Groups.size() * 2 > Table.size()) {
        std::fill(Table.begin(), Table.end(), 0);
        Table.resize(Table.size() * 2);
        Mask = Table.size() - 1;
        for (size_t G = 0; G < Groups.size(); G++) {
          size_t S = Groups[G].Hash & Mask;
          while (Table[S])
            S = (S + 1) & Mask;
          Table[S] = static_cast<uint32_t>(G + 1);
        }
      }
    }
    std::sort(Groups.begin(), Groups.end(),
              [this](const Group &A, const Group &B) { return less(A, B); });
  }

  // Each line as its names' numbers, outermost first (name(N) spells one),
  // in the same order.
  template <class Fn> void forEachNumbers(Fn Each) const {
    for (const Group &G : Groups)
      Each(Pool.data() + G.Begin, G.Len, G.V);
  }
  const std::string &name(uint32_t N) const { return Names[N]; }
  // The lines' names, all told: no tree of the lines has more frames.
  size_t frames() const { return Pool.size(); }

  template <class Fn> void forEach(Fn Each) const {
    std::string Line;
    for (const Group &G : Groups) {
      Line.clear();
      for (size_t I = 0; I < G.Len; I++) {
        if (I)
          Line += ';';
        Line += Names[Pool[G.Begin + I]];
      }
      Each(Line, G.V);
    }
  }

private:
  struct Group {
    size_t Begin, Len; // its names in Pool
    uint64_t Hash, V;
  };
  // Whether A's text sorts before B's (bytes unsigned, as std::string
  // compares).  The names they share from the outermost read the same.
  bool less(const Group &A, const Group &B) const {
    size_t K = 0;
    while (K < A.Len && K < B.Len && Pool[A.Begin + K] == Pool[B.Begin + K])
      K++;
    // The texts from name K on: its name, then ';' and the next, ...
    size_t IA = K, IB = K, PA = 0, PB = 0;
    auto Next = [this](const Group &G, size_t &I, size_t &Pos) -> int {
      if (I == G.Len)
        return -1;
      const std::string &N = Names[Pool[G.Begin + I]];
      if (Pos < N.size())
        return static_cast<unsigned char>(N[Pos++]);
      I++, Pos = 0;
      return I == G.Len ? -1 : ';';
    };
    for (;;) {
      int X = Next(A, IA, PA), Y = Next(B, IB, PB);
      if (X != Y)
        return X < Y;
      if (X < 0)
        return false;
    }
  }

  std::vector<std::string> Names; // by number
  std::vector<uint32_t> Pool;     // the lines' name numbers
  std::vector<Group> Groups;      // sorted by text
};
} // namespace

//===----------------------------------------------------------------------===//
// The SVG: a tree of frames laid out by weight, the root ("all") at the
// bottom, each frame a <g> holding its <title>, <rect> and <text>.  The
// script only moves what the generator placed: a click sets the clicked
// frame to the full width, and a hover shows name, value and share.
//===----------------------------------------------------------------------===//

// The lines as a tree: a node per frame, in one array, its kids a list in
// the order they first appear (the lines' order, which is their text's).
// A node of its own with the name as a std::string and a vector of its
// kids took about 100 bytes a frame: 1 GiB more than report at a million
// contexts of 8 frames (docs/performance.md); 24 here.
namespace {
struct Tree {
  static constexpr uint32_t None = UINT32_MAX;
  struct Node {
    uint32_t Name = None; // Collapsed::name's number; the root's None
    uint32_t FirstKid = None, LastKid = None, Next = None;
    uint64_t Value = 0;
  };
  std::vector<Node> Nodes; // the root first
  unsigned Depth = 0;      // of the deepest line
  uint32_t kid(uint32_t N, uint32_t Name) {
    for (uint32_t K = Nodes[N].FirstKid; K != None; K = Nodes[K].Next)
      if (Nodes[K].Name == Name)
        return K;
    uint32_t K = static_cast<uint32_t>(Nodes.size());
    Nodes.emplace_back();
    Nodes[K].Name = Name;
    if (Nodes[N].LastKid == None)
      Nodes[N].FirstKid = K;
    else
      Nodes[Nodes[N].LastKid].Next = K;
    Nodes[N].LastKid = K;
    return K;
  }
};
} // namespace

// Also makes S valid UTF-8 (a byte that is not becomes U+FFFD, as in the
// pprof export and the HTML page's JSON): an SVG is XML, and a browser
// shows the parse error of one bad byte instead of the graph.  Such bytes
// come from file names (an unnamed frame is named by its module's).
static std::string validUTF8(const std::string &S) {
  return llvm::json::isUTF8(S) ? S : llvm::json::fixUTF8(S);
}

static std::string xmlEscape(const std::string &Raw) {
  std::string S = validUTF8(Raw);
  std::string O;
  for (char C : S) {
    switch (C) {
    case '&': O += "&amp;"; break;
    case '<': O += "&lt;"; break;
    case '>': O += "&gt;"; break;
    case '"': O += "&quot;"; break;
    default:
      // Control characters are not allowed in XML 1.0.
      if (static_cast<unsigned char>(C) < 0x20)
        O += ' ';
      else
        O += C;
    }
  }
  return O;
}

static std::string fmt(double D) {
  char B[32];
  snprintf(B, sizeof B, "%.4f", D);
  std::string S = B;
  S.erase(S.find_last_not_of('0') + 1);
  if (S.back() == '.')
    S.pop_back();
  return S;
}

// Warm colors from the name, so a function keeps its color across
// graphs; inlined frames are blue-green, as flamegraph.pl draws them.
static std::string color(const std::string &Name) {
  // The [stack limit: N frames] marker is no function: grey.
  if (Name.compare(0, 13, "[stack limit:") == 0)
    return "rgb(200,200,200)";
  uint32_t H = 2166136261u;
  for (unsigned char C : Name)
    H = (H ^ C) * 16777619u;
  bool Inl = Name.size() > 4 && Name.compare(Name.size() - 4, 4, "_[i]") == 0;
  unsigned A = H % 56, B = (H >> 8) % 80;
  char S[32];
  if (Inl)
    snprintf(S, sizeof S, "rgb(%u,%u,%u)", 60 + A, 180 + B / 2, 190 + B / 2);
  else
    snprintf(S, sizeof S, "rgb(%u,%u,%u)", 200 + A, 80 + B + A, 40 + A / 2);
  return S;
}

static const double SvgWidth = 1200, Pad = 10, FrameH = 17, TopH = 48,
                    BottomH = 28, CharW = 6.6, MinW = 0.1;

static void drawFrames(const Tree &T, uint32_t Id, const Collapsed &Lines,
                       uint64_t X0, unsigned Depth, uint64_t Total,
                       double Bottom, const char *Unit, std::string &Out) {
  const Tree::Node &N = T.Nodes[Id];
  double Scale = (SvgWidth - 2 * Pad) / static_cast<double>(Total);
  double W = N.Value * Scale;
  if (W < MinW)
    return;
  static const std::string All = "all";
  const std::string &NodeName = Id ? Lines.name(N.Name) : All;
  double X = Pad + X0 * Scale, Y = Bottom - (Depth + 1) * FrameH;
  std::string Name = xmlEscape(NodeName);
  double Pct = 100.0 * N.Value / Total;
  char Info[96];
  snprintf(Info, sizeof Info, " (%llu %s, %.2f%%)",
           static_cast<unsigned long long>(N.Value), Unit, Pct);
  // Fit is in characters: count UTF-8 lead bytes, and cut after a whole
  // character (a cut inside one left a byte that is not UTF-8).
  size_t Fit = W > 6 ? static_cast<size_t>((W - 6) / CharW) : 0;
  std::string Label = validUTF8(NodeName);
  auto IsLead = [](char C) {
    return (static_cast<unsigned char>(C) & 0xc0) != 0x80;
  };
  if (static_cast<size_t>(
          std::count_if(Label.begin(), Label.end(), IsLead)) > Fit) {
    if (Fit < 3) {
      Label.clear();
    } else {
      size_t Cut = 0, Kept = 0;
      for (; Cut < Label.size(); Cut++)
        if (IsLead(Label[Cut]) && Kept++ == Fit - 2)
          break;
      Label = Label.substr(0, Cut) + "..";
    }
  }
  Out += "<g class=\"f\" data-x=\"" + std::to_string(X0) + "\" data-v=\"" +
         std::to_string(N.Value) + "\" data-d=\"" + std::to_string(Depth) +
         "\"><title>" + Name + Info + "</title><rect x=\"" + fmt(X) +
         "\" y=\"" + fmt(Y) + "\" width=\"" + fmt(W) + "\" height=\"" +
         fmt(FrameH - 1) + "\" fill=\"" + color(NodeName) +
         "\" rx=\"2\"/><text x=\"" + fmt(X + 3) + "\" y=\"" +
         fmt(Y + FrameH - 5) + "\">" + xmlEscape(Label) + "</text></g>\n";
  uint64_t KX = X0;
  for (uint32_t K = N.FirstKid; K != Tree::None; K = T.Nodes[K].Next) {
    drawFrames(T, K, Lines, KX, Depth + 1, Total, Bottom, Unit, Out);
    KX += T.Nodes[K].Value;
  }
}

static const char SvgScript[] = R"JS(
(function () {
  var W = 1200, PAD = 10, CW = 6.6;
  var svg = document.documentElement;
  var frames = Array.prototype.slice.call(svg.querySelectorAll('g.f'));
  if (!frames.length) return; // nothing weighed anything
  var details = document.getElementById('details');
  var reset = document.getElementById('reset');
  var total = +frames[0].getAttribute('data-v');
  function nameOf(g) {
    var t = g.querySelector('title').textContent;
    return t.substring(0, t.lastIndexOf(' ('));
  }
  function label(g, w) {
    var n = nameOf(g), fit = Math.floor((w - 6) / CW);
    if (n.length <= fit) return n;
    return fit < 3 ? '' : n.substring(0, fit - 2) + '..';
  }
  function zoom(z) {
    var zx = +z.getAttribute('data-x'), zv = +z.getAttribute('data-v');
    var zd = +z.getAttribute('data-d'), scale = (W - 2 * PAD) / zv;
    frames.forEach(function (g) {
      var x = +g.getAttribute('data-x'), v = +g.getAttribute('data-v');
      var d = +g.getAttribute('data-d');
      var r = g.querySelector('rect'), t = g.querySelector('text');
      var inside = x >= zx && x + v <= zx + zv && d >= zd;
      var below = d < zd && x <= zx && x + v >= zx + zv;
      if (!inside && !below) { g.style.display = 'none'; return; }
      g.style.display = '';
      var nx = below ? PAD : PAD + (x - zx) * scale;
      var nw = below ? W - 2 * PAD : v * scale;
      r.setAttribute('x', nx); r.setAttribute('width', nw);
      t.setAttribute('x', nx + 3); t.textContent = label(g, nw);
      g.classList.toggle('parent', below);
    });
    reset.style.display = z === frames[0] ? 'none' : '';
  }
  frames.forEach(function (g) {
    g.addEventListener('click', function () { zoom(g); });
    g.addEventListener('mouseover', function () {
      details.textContent = g.querySelector('title').textContent;
    });
    g.addEventListener('mouseout', function () { details.textContent = ' '; });
  });
  reset.addEventListener('click', function () { zoom(frames[0]); });
})();
)JS";

static std::string renderSvg(const Collapsed &Lines, const FlameOptions &O) {
  Tree T;
  // Room for a node per name of every line: what is not used is not
  // touched (a block this big is mapped), and the array is not moved.
  T.Nodes.reserve(Lines.frames() + 1);
  T.Nodes.emplace_back();
  Lines.forEachNumbers([&T](const uint32_t *Names, size_t Len, uint64_t V) {
    T.Nodes[0].Value += V;
    uint32_t N = 0;
    for (size_t I = 0; I < Len; I++) {
      N = T.kid(N, Names[I]);
      T.Nodes[N].Value += V;
    }
    T.Depth = std::max(T.Depth, static_cast<unsigned>(Len));
  });
  unsigned Depth = T.Depth;
  uint64_t RootValue = T.Nodes[0].Value;
  double H = TopH + (Depth + 1) * FrameH + BottomH;
  double Bottom = H - BottomH;
  std::string Title = O.Title.empty()
                          ? std::string("Allocation flame graph: ") + O.Unit
                          : O.Title;
  std::string S;
  S += "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n";
  S += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" +
       fmt(SvgWidth) + "\" height=\"" + fmt(H) + "\" viewBox=\"0 0 " +
       fmt(SvgWidth) + " " + fmt(H) + "\">\n";
  S += "<style>\n"
       "text { font-family: monospace; font-size: 11px; fill: #000; }\n"
       "g.f { cursor: pointer; }\n"
       "g.f:hover rect { stroke: #333; stroke-width: 0.5; }\n"
       "g.parent rect { opacity: 0.6; }\n"
       "#title { font-size: 16px; font-family: sans-serif; }\n"
       "#reset { cursor: pointer; fill: #0645ad; }\n"
       "</style>\n";
  S += "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" "
       "fill=\"#f8f8f0\"/>\n";
  S += "<text id=\"title\" x=\"" + fmt(SvgWidth / 2) +
       "\" y=\"22\" text-anchor=\"middle\">" + xmlEscape(Title) + "</text>\n";
  S += "<text id=\"reset\" x=\"" + fmt(Pad) +
       "\" y=\"40\" style=\"display:none\">Reset zoom</text>\n";
  S += "<text id=\"details\" x=\"" + fmt(Pad) + "\" y=\"" + fmt(H - 9) +
       "\"> </text>\n";
  if (RootValue)
    drawFrames(T, 0, Lines, 0, 0, RootValue, Bottom, O.Unit, S);
  S += "<script type=\"text/ecmascript\"><![CDATA[";
  S += SvgScript;
  S += "]]></script>\n</svg>\n";
  return S;
}

int heapprof::cmdFlamegraph(int Argc, char **Argv) {
  FlameOptions O;
  if (int Rc = parseArgs(Argc, Argv, O))
    return Rc;
  if (!loadSuppressionFiles(O.SuppressionFiles, O.Suppressions))
    return 1;
  Profile P;
  if (!loadSymbolized(O.Inputs, O.Sym, P))
    return 1;
  if (!P.has(O.Weight))
    return inputError(O.Inputs[0] + ": the profile does not record " +
                      O.Unit + " (field " +
                      FieldNames[static_cast<unsigned>(O.Weight)] + ")");
  Collapsed Lines(P, O.Weight,
                  suppressedContexts(O.Suppressions, P, Field::leaked_objects));
  if (O.Svg)
    return writeOutput(O.Output, renderSvg(Lines, O)) ? 0 : 1;
  // Collapsed stacks are the biggest output of a profile: written as the
  // lines are made, not built whole first.
  OutputFile Out;
  if (!Out.open(O.Output))
    return 1;
  Lines.forEach([&Out](const std::string &Line, uint64_t V) {
    Out.write(Line + " " + std::to_string(V) + "\n");
  });
  return Out.close() ? 0 : 1;
}
