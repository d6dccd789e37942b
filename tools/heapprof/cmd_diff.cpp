//===- cmd_diff.cpp - heapprof diff: what grew between two profiles -------===//
//
// Part of heapprof.  Loads and symbolizes two profiles, BASE and NEW, as
// `heapprof report` does (cli.h's loadSymbolized), matches their
// contexts by symbolized stack (so two runs, or two builds, of a program
// compare) and prints per context the change of allocs, bytes, live
// objects, live bytes and accesses, sorted by growth of bytes (--by: of
// live bytes, allocations, accesses or temporary allocations; --sort: or
// the biggest shrink first, or the biggest change either way).
//
// Checkpoints of one process: each checkpoint dump holds what happened
// since the previous one, so "the profile as of checkpoint k" is the sum
// of dumps 1..k with the live state of dump k.  When NEW holds dumps of a
// process BASE also holds (same pid and program build id), NEW is read
// together with BASE's files: NEW's side is then the cumulative state at
// NEW's last checkpoint, and NEW minus BASE is exactly what happened
// between them (docs/user-guide.md, "What grew").
//
//===----------------------------------------------------------------------===//
#include "cli.h"
#include "commands.h"
#include "heapprof_message.h"
#include "profile_model.h"
#include "render.h"
#include "symbolize.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unistd.h>

using namespace heapprof;

const char heapprof::DiffUsage[] =
    "usage: heapprof diff [options] BASE NEW\n"
    "  what grew and shrank from BASE to NEW (each a raw profile or a DIR of\n"
    "  them), per context matched by symbolized stack: allocs, bytes, live\n"
    "  objects, live bytes, accesses, temporary allocations, sorted by growth\n"
    "  of bytes; BASE and NEW may be checkpoints of one process (NEW then\n"
    "  counts from BASE's first); FILE@N is FILE as of its checkpoint N (one\n"
    "  file of append_dumps=1: FILE@2 FILE@3)\n"
    "  --by bytes|live|allocs|accesses|temporary\n"
    "                     the measure contexts are ranked by: requested bytes\n"
    "                     (default), live bytes at the last dump (the leak\n"
    "                     between two checkpoints), allocations, accesses or\n"
    "                     temporary allocations\n"
    "  --sort growth|shrink|change\n"
    "                     the biggest growth of that measure first (default),\n"
    "                     the biggest shrink first, or the biggest change\n"
    "                     either way first\n"
    "  --base PATH        a BASE file or DIR (then give NEW only); may be\n"
    "                     repeated\n"
    "  --new PATH         a NEW file or DIR (then give BASE only); may be\n"
    "                     repeated\n"
    "  --match lines|functions\n"
    "                     a frame matches by function, file name and line\n"
    "                     (default; the directory is not compared)\n"
    "                     or by function only (builds whose lines moved)\n"
    "  --top N            contexts shown (default 10; 0: all)\n"
    "  --format text|json output form (default text)\n"
    "  -o, --output FILE  write the diff to FILE instead of stdout (JSON\n"
    "                     when FILE ends in .json, without --format)\n"
    "  --binary FILE      a profiled program (or library) that moved; matched\n"
    "                     by build id; may be repeated\n"
    "  --debug-dir DIR    where separate debug files are (searched before\n"
    "                     /usr/lib/debug); may be repeated\n"
    "  --full-names       C++ names whole (default: without template arguments\n"
    "                     and parameters, e.g. std::map::operator[])\n";

namespace {
// The measures a diff compares, in output order.
#define HEAPPROF_DIFF_MEASURES(X)                                              \
  X(allocs) X(bytes) X(live_objects) X(live_bytes) X(accesses) X(temporary)

enum Measure {
#define X(Name) M_##Name,
  HEAPPROF_DIFF_MEASURES(X)
#undef X
      NumMeasures
};
const char *const MeasureNames[NumMeasures] = {
#define X(Name) #Name,
    HEAPPROF_DIFF_MEASURES(X)
#undef X
};
const Field MeasureFields[NumMeasures] = {
#define X(Name) Field::Name,
    HEAPPROF_DIFF_MEASURES(X)
#undef X
};

// --by's names, flamegraph --weight's: what a context can be ranked by.
const char *const ByNames[NumMeasures] = {"allocs",   "bytes",    nullptr,
                                          "live",     "accesses", "temporary"};

struct DiffOptions {
  std::vector<std::string> Base, New;
  SymbolizeOptions Sym;
  bool Functions = false; // --match functions
  enum SortBy { Growth, Shrink, Change } Sort = Growth;
  unsigned By = M_bytes; // --by
  unsigned Top = 10;
  bool Json = false;
  std::string Output;
};

struct Side {
  uint64_t V[NumMeasures] = {};
  bool Present = false; // the context is in this profile
};

struct Row {
  // Allocation site first; frames of the Profile the row was found in
  // (both outlive the Diff).
  std::vector<const Frame *> Stack;
  Side Base, New;
  int64_t delta(unsigned M) const {
    return static_cast<int64_t>(New.V[M] - Base.V[M]);
  }
  bool changed() const {
    for (unsigned M = 0; M < NumMeasures; M++)
      if (delta(M))
        return true;
    return Base.Present != New.Present;
  }
  // Grew or shrank by the measure the rows are ranked by (--by), else by
  // bytes, else by live bytes: under --by live, a context that allocated
  // 1 MB more but holds 15 KB less at the end shrank.
  const char *status(unsigned By) const {
    if (!Base.Present)
      return "new";
    if (!New.Present)
      return "gone";
    for (unsigned M : {By, unsigned(M_bytes), unsigned(M_live_bytes)})
      if (int64_t V = delta(M))
        return V > 0 ? "grew" : "shrank";
    return changed() ? "changed" : "same";
  }
};

struct Diff {
  bool Known[NumMeasures] = {}; // both profiles record the measure
  bool Has[2][NumMeasures] = {}; // base, new: that profile records it
  Side Total[2];                // base, new: all contexts
  std::vector<Row> Rows;        // changed contexts, in --sort order
  size_t Shown = 0;             // rows within --top
  size_t Contexts[2] = {};      // distinct stacks in base, new
  size_t Unchanged = 0;
  bool CumulativeNew = false;   // NEW was read with BASE's files
  // Each side's malloc_context_size (tag 12; 0 unknown or several).
  uint64_t StackLimit[2] = {0, 0};
  // Each side's different command lines (tag 14), in process order.
  std::vector<const std::vector<std::string> *> Commands[2];
};

// P's different command lines, in the order of its processes.
static std::vector<const std::vector<std::string> *>
commandsOf(const Profile &P) {
  std::vector<const std::vector<std::string> *> Out;
  for (const Process &Proc : P.Processes)
    if (!Proc.Command.empty() &&
        std::none_of(Out.begin(), Out.end(),
                     [&](auto *C) { return *C == Proc.Command; }))
      Out.push_back(&Proc.Command);
  return Out;
}
} // namespace

static int parseArgs(int Argc, char **Argv, DiffOptions &O) {
  Options Opts(DiffUsage);
  auto Side = [](std::vector<std::string> &Paths) {
    return [&Paths](const std::string &V) {
      Paths.push_back(V);
      return std::string();
    };
  };
  Opts.value("--base", nullptr, Side(O.Base));
  Opts.value("--new", nullptr, Side(O.New));
  Opts.value("--match", nullptr, [&O](const std::string &V) {
    if (V != "lines" && V != "functions")
      return "unknown way '" + V + "' (lines or functions)";
    O.Functions = V == "functions";
    return std::string();
  });
  Opts.value("--sort", nullptr, [&O](const std::string &V) {
    if (V == "growth")
      O.Sort = DiffOptions::Growth;
    else if (V == "shrink")
      O.Sort = DiffOptions::Shrink;
    else if (V == "change")
      O.Sort = DiffOptions::Change;
    else
      return "unknown order '" + V + "' (growth, shrink or change)";
    return std::string();
  });
  Opts.value("--by", nullptr, [&O](const std::string &V) {
    for (unsigned M = 0; M < NumMeasures; M++)
      if (ByNames[M] && V == ByNames[M]) {
        O.By = M;
        return std::string();
      }
    return "unknown measure '" + V +
           "' (bytes, live, allocs, accesses or temporary)";
  });
  Opts.top(O.Top);
  bool FormatGiven = false;
  Opts.format(O.Json, FormatGiven);
  Opts.output(O.Output);
  Opts.symbolize(O.Sym);
  std::vector<std::string> Pos;
  if (int Rc = Opts.parse(Argc, Argv, Pos))
    return Rc;
  // BASE NEW, or the sides given by --base / --new and the rest.
  size_t Need = (O.Base.empty() ? 1 : 0) + (O.New.empty() ? 1 : 0);
  if (Pos.size() != Need)
    return Opts.usageError(
        Need == 2           ? "give two profiles, BASE and NEW"
        : Pos.size() < Need ? "give the other profile too"
        : !Need             ? "--base and --new name both profiles"
        : O.Base.empty()    ? "too many profiles: with --new, give BASE only"
                            : "too many profiles: with --base, give NEW only");
  // --output NAME.json, with no --format, means JSON, as for report.
  if (!FormatGiven && O.Output.size() > 5 &&
      O.Output.compare(O.Output.size() - 5, 5, ".json") == 0)
    O.Json = true;
  if (O.Base.empty()) {
    O.Base.insert(O.Base.begin(), Pos[0]);
    Pos.erase(Pos.begin());
  }
  if (O.New.empty())
    O.New.insert(O.New.begin(), Pos[0]);
  return 0;
}

static std::string processKey(const Profile &P, const Process &Proc) {
  std::string Id = Proc.MainModule == NoModule
                       ? ""
                       : P.Modules[Proc.MainModule].BuildId;
  return std::to_string(Proc.Pid) + "/" + Id;
}

// P's programs, each process's main module: its file name, as the module
// records its path (a link it was run by is a process's name, not the
// file's), and its build id ("" if it has none); empty when some
// process's is not recorded (upstream MemProf's profiles, whose
// Process::Program is only their file's name, and that says nothing).
using ProgramSet = std::set<std::pair<std::string, std::string>>;
static ProgramSet programs(const Profile &P) {
  ProgramSet Set;
  for (const Process &Proc : P.Processes) {
    if (Proc.MainModule == NoModule || P.Modules[Proc.MainModule].Path.empty())
      return {};
    const Module &M = P.Modules[Proc.MainModule];
    Set.insert({llvm::sys::path::filename(M.Path).str(), M.BuildId});
  }
  return Set;
}

static std::string joinNames(const ProgramSet &Set) {
  std::set<std::string> Names;
  for (const auto &[Name, Id] : Set)
    Names.insert(Name);
  std::string S;
  for (const std::string &N : Names)
    S += (S.empty() ? "" : ", ") + N;
  return S;
}

// What BASE and NEW's programs are to each other, as {kind, message}:
// {"", ""} when a program's build id is on both sides (one file: two runs,
// checkpoints, or one binary under two names, a hard link's or a copy's),
// or a name is and a build id is missing on that name's side (nothing to
// tell builds apart with); a note when a name is on both sides but with
// other build ids (two builds of it: a rebuilt binary, or another program
// of that name); else the warning that they are of different programs:
// their contexts then match only in code both ran (a library's), and the
// diff lists the one's as gone and the other's as new.
static std::pair<std::string, std::string> otherPrograms(const Profile &B,
                                                         const Profile &N) {
  ProgramSet BP = programs(B), NP = programs(N);
  if (BP.empty() || NP.empty())
    return {};
  std::set<std::string> BIds, NIds;
  for (const auto &[Name, Id] : BP)
    if (!Id.empty())
      BIds.insert(Id);
  for (const auto &[Name, Id] : NP)
    if (!Id.empty() && BIds.count(Id))
      return {};
  std::string Rebuilt, BaseId, NewId;
  for (const auto &[Name, Id] : BP)
    for (const auto &[NName, NId] : NP) {
      if (Name != NName)
        continue;
      if (Id.empty() || NId.empty())
        return {};
      if (Rebuilt.empty()) {
        Rebuilt = Name;
        BaseId = Id;
        NewId = NId;
      }
    }
  if (!Rebuilt.empty())
    return {"note", "BASE and NEW ran different builds of " + Rebuilt +
                        " (build ids " + BaseId.substr(0, 12) + " and " +
                        NewId.substr(0, 12) +
                        "): contexts match by function, file and line"};
  return {"warning", "BASE and NEW are profiles of different programs "
                     "(BASE: " +
                         joinNames(BP) + "; NEW: " + joinNames(NP) +
                         "): only contexts in code both ran (a library's) "
                         "can match"};
}

// NEW shares a process with BASE: its checkpoints count from BASE's.  Not
// when BASE has that process's exit dump, after which nothing of it comes:
// NEW's dump of the same pid is then another run's, or a merge's (whose
// header carries its first process's pid), which holds BASE's dumps
// already.
static bool shareProcess(const Profile &Base, const Profile &New) {
  std::set<std::string> Keys;
  for (const Process &Proc : Base.Processes)
    if (Proc.Pid && !Proc.Ended)
      Keys.insert(processKey(Base, Proc));
  for (const Process &Proc : New.Processes)
    if (Proc.Pid && Keys.count(processKey(New, Proc)))
      return true;
  return false;
}

// What --match compares of a frame, numbered: each distinct (function,
// file name, line, inlined), or (function, inlined), gets one number for both
// profiles.  A Location's key is the bytes of its frames' numbers and a
// context's key the concatenation of its Locations', so equal keys are
// stacks that match, and 100,000 contexts make no strings of names.
using FrameNumbers =
    std::map<std::tuple<std::string, std::string, uint32_t, bool>, uint32_t>;

static std::vector<std::string> locationKeys(const Profile &P, bool Functions,
                                             FrameNumbers &Numbers) {
  std::vector<std::string> Keys(P.Locations.size());
  for (size_t L = 0; L < P.Locations.size(); L++)
    for (const Frame &F : P.Locations[L].Frames) {
      // A file by its name alone: two checkouts give it two directories.
      std::string File =
          Functions ? std::string() : llvm::sys::path::filename(F.File).str();
      uint32_t Id =
          Numbers
              .emplace(std::make_tuple(F.Function, std::move(File),
                                       Functions ? 0 : F.Line, F.Inlined),
                       Numbers.size())
              .first->second;
      Keys[L].append(reinterpret_cast<const char *>(&Id), sizeof Id);
    }
  return Keys;
}

static Diff compare(const Profile &B, const Profile &N, const DiffOptions &O) {
  Diff D;
  for (unsigned M = 0; M < NumMeasures; M++) {
    D.Has[0][M] = B.has(MeasureFields[M]);
    D.Has[1][M] = N.has(MeasureFields[M]);
    D.Known[M] = D.Has[0][M] && D.Has[1][M];
  }
  FrameNumbers Numbers;
  std::unordered_map<std::string, size_t> Ids;
  std::vector<Row> All;
  const Profile *Sides[2] = {&B, &N};
  std::string Key;
  for (int S = 0; S < 2; S++) {
    const Profile &P = *Sides[S];
    std::vector<std::string> LocKeys = locationKeys(P, O.Functions, Numbers);
    size_t Seen = 0;
    for (const Context &C : P.Contexts) {
      Key.clear();
      for (uint32_t L : C.Stack)
        Key += LocKeys[L];
      auto It = Ids.find(Key);
      if (It == Ids.end()) {
        It = Ids.emplace(Key, All.size()).first;
        All.emplace_back();
      }
      Row &R = All[It->second];
      Side &Sd = S ? R.New : R.Base;
      if (!Sd.Present)
        Seen++;
      if (R.Stack.empty() || (S && !R.New.Present))
        R.Stack = C.frames(P); // NEW's frames: the lines of the new build
      Sd.Present = true;
      // A row compares what both sides record; a side's total is all
      // its profile records (a sampled NEW has no temporary objects, and
      // BASE's still shows in the summary).
      for (unsigned M = 0; M < NumMeasures; M++) {
        uint64_t V = D.Has[S][M] ? C.C.get(MeasureFields[M]) : 0;
        Sd.V[M] += D.Known[M] ? V : 0;
        D.Total[S].V[M] += V;
      }
    }
    D.Contexts[S] = Seen;
  }
  for (Row &R : All) {
    if (R.changed())
      D.Rows.push_back(std::move(R));
    else
      D.Unchanged++;
  }
  // By growth of the --by measure (bytes by default), then of bytes, live
  // bytes, allocs, accesses (--sort shrink: the opposite; change: the size
  // of the change either way); the stack last, so the order is the same
  // every time.
  auto Order = [&O](const Row &R, unsigned M) -> int64_t {
    int64_t V = R.delta(M);
    return O.Sort == DiffOptions::Growth   ? V
           : O.Sort == DiffOptions::Shrink ? -V
                                           : (V < 0 ? -V : V);
  };
  std::vector<unsigned> Keys = {O.By};
  for (unsigned M : {M_bytes, M_live_bytes, M_allocs, M_accesses})
    if (M != O.By)
      Keys.push_back(M);
  std::sort(D.Rows.begin(), D.Rows.end(), [&](const Row &X, const Row &Y) {
    for (unsigned M : Keys)
      if (Order(X, M) != Order(Y, M))
        return Order(X, M) > Order(Y, M);
    if (X.Stack.size() != Y.Stack.size())
      return X.Stack.size() < Y.Stack.size();
    for (size_t I = 0; I < X.Stack.size(); I++) {
      const Frame &F = *X.Stack[I], &G = *Y.Stack[I];
      if (F.Function != G.Function)
        return F.Function < G.Function;
      if (F.File != G.File)
        return F.File < G.File;
      if (F.Line != G.Line)
        return F.Line < G.Line;
    }
    return false;
  });
  D.Shown = O.Top && O.Top < D.Rows.size() ? O.Top : D.Rows.size();
  return D;
}

//===-- Text --------------------------------------------------------------===//

static std::string signedNum(int64_t V) {
  return (V > 0 ? "+" : V < 0 ? "-" : "") +
         std::to_string(V < 0 ? -static_cast<uint64_t>(V)
                              : static_cast<uint64_t>(V));
}

static std::string signedBytes(int64_t V) {
  return (V > 0 ? "+" : V < 0 ? "-" : "") +
         humanBytes(V < 0 ? -static_cast<uint64_t>(V) : static_cast<uint64_t>(V));
}

static bool isBytes(unsigned M) { return M == M_bytes || M == M_live_bytes; }

// A side's value, when that side's profile records the measure.
static std::string cell(const Diff &D, int Side, unsigned M, uint64_t V) {
  if (!D.Has[Side][M])
    return "?";
  return isBytes(M) ? humanBytes(V) : std::to_string(V);
}

static std::string deltaCell(const Diff &D, unsigned M, int64_t V) {
  if (!D.Known[M])
    return "?";
  return isBytes(M) ? signedBytes(V) : signedNum(V);
}

static void pad(std::string &S, size_t W, bool Left) {
  if (S.size() < W)
    S.insert(Left ? S.end() : S.begin(), W - S.size(), ' ');
}

// Columns padded to at most 40 characters; the first left-aligned, the
// others right-aligned unless AllLeft.
static void printTable(llvm::raw_ostream &OS,
                       std::vector<std::vector<std::string>> Rows,
                       bool AllLeft) {
  std::vector<size_t> W;
  for (const auto &R : Rows)
    for (size_t I = 0; I < R.size(); I++) {
      if (W.size() <= I)
        W.push_back(0);
      W[I] = std::max(W[I], std::min<size_t>(R[I].size(), 40));
    }
  for (auto &R : Rows) {
    std::string Line;
    for (size_t I = 0; I < R.size(); I++) {
      std::string C = R[I];
      pad(C, W[I], I == 0 || AllLeft);
      Line += (I ? "  " : "") + C;
    }
    while (!Line.empty() && Line.back() == ' ')
      Line.pop_back();
    OS << Line << "\n";
  }
}

// A source path relative to the current directory when under it.
static std::string relative(const std::string &File) {
  static const std::string Cwd = [] {
    char Buf[4096];
    return getcwd(Buf, sizeof(Buf)) ? std::string(Buf) + "/" : std::string();
  }();
  if (!Cwd.empty() && Cwd != "//" && File.compare(0, Cwd.size(), Cwd) == 0)
    return File.substr(Cwd.size());
  return File;
}

static const char *const MeasureLabels[NumMeasures] = {
    "allocations", "bytes", "live objects", "live bytes", "accesses",
    "temporary"};

// The heading says the order and the --by measure: "Contexts by growth of
// live bytes".
static const char *const SortNames[] = {"growth", "shrink", "change"};
static const char *const ByLabels[NumMeasures] = {
    "allocations", "bytes", "live objects", "live bytes", "accesses",
    "temporary allocations"};

static void renderDiffText(const Diff &D, const DiffOptions &O,
                           llvm::raw_ostream &OS) {
  OS << "== Summary (NEW minus BASE)\n";
  // What ran on each side, when the profiles say (two at most a side):
  // once when the sides agree (two checkpoints of one run).
  bool Same = D.Commands[0].size() == D.Commands[1].size() &&
              std::equal(D.Commands[0].begin(), D.Commands[0].end(),
                         D.Commands[1].begin(),
                         [](auto *A, auto *B) { return *A == *B; });
  static const char *const SideNames[2] = {"base command", "new command"};
  for (int Side = 0; Side < (Same ? 1 : 2); Side++) {
    const char *Name = Same ? "command" : SideNames[Side];
    const auto &Cs = D.Commands[Side];
    for (size_t I = 0; I < Cs.size() && I < 2; I++)
      OS << Name << ": " << terminalText(commandText(*Cs[I])) << "\n";
    if (Cs.size() > 2)
      OS << Name << ": and " << Cs.size() - 2 << " more (the JSON lists them)\n";
  }
  std::vector<std::vector<std::string>> T;
  T.push_back({"", "base", "new", "change"});
  for (unsigned M = 0; M < NumMeasures; M++)
    T.push_back({MeasureLabels[M], cell(D, 0, M, D.Total[0].V[M]),
                 cell(D, 1, M, D.Total[1].V[M]),
                 deltaCell(D, M, static_cast<int64_t>(D.Total[1].V[M] -
                                                      D.Total[0].V[M]))});
  T.push_back({"contexts", std::to_string(D.Contexts[0]),
               std::to_string(D.Contexts[1]), ""});
  printTable(OS, T, false);
  std::map<std::string, size_t> Count;
  for (const Row &R : D.Rows)
    Count[R.status(O.By)]++;
  OS << "changed contexts: " << Count["new"] << " new, " << Count["gone"]
     << " gone, " << Count["grew"] << " grew, " << Count["shrank"]
     << " shrank, " << Count["changed"] << " changed otherwise; "
     << D.Unchanged << " unchanged\n";
  if (D.CumulativeNew)
    OS << "(NEW shares a process with BASE: NEW counts from BASE's first "
          "dump of it, BASE's dumps included)\n";
  // One side counted no access at all: a program not compiled with
  // -fheapprof (heapprof run's), whose change is no change of the program's.
  if (D.Known[M_accesses] &&
      (D.Total[0].V[M_accesses] == 0) != (D.Total[1].V[M_accesses] == 0))
    OS << "(" << (D.Total[0].V[M_accesses] ? "NEW" : "BASE")
       << " counted no accesses: its program was not compiled with "
          "-fheapprof, as under heapprof run, so the change in accesses is "
          "not the program's)\n";
  if (D.StackLimit[0] && D.StackLimit[1] && D.StackLimit[0] != D.StackLimit[1])
    OS << "(BASE's stacks were taken with malloc_context_size="
       << D.StackLimit[0] << ", NEW's with " << D.StackLimit[1]
       << ": a stack deeper than "
       << std::min(D.StackLimit[0], D.StackLimit[1])
       << " frames is a different context on each side)\n";

  OS << "\n== Contexts by " << SortNames[O.Sort] << " of " << ByLabels[O.By]
     << (O.Sort == DiffOptions::Change ? ", either way" : "") << "\n";
  if (D.Rows.empty()) {
    OS << "(no change)\n";
    return;
  }
  for (size_t I = 0; I < D.Shown; I++) {
    const Row &R = D.Rows[I];
    OS << "#" << I + 1 << "  " << R.status(O.By) << "  bytes "
       << deltaCell(D, M_bytes, R.delta(M_bytes)) << " ("
       << cell(D, 0, M_bytes, R.Base.V[M_bytes]) << " -> "
       << cell(D, 1, M_bytes, R.New.V[M_bytes]) << "), allocs "
       << deltaCell(D, M_allocs, R.delta(M_allocs)) << ", live "
       << deltaCell(D, M_live_bytes, R.delta(M_live_bytes)) << " in "
       << deltaCell(D, M_live_objects, R.delta(M_live_objects))
       << " objects, accesses " << deltaCell(D, M_accesses, R.delta(M_accesses))
       << ", temporary " << deltaCell(D, M_temporary, R.delta(M_temporary))
       << "\n";
    std::vector<std::vector<std::string>> S;
    for (const Frame *Fp : R.Stack) {
      const Frame &F = *Fp;
      std::string Where;
      if (!F.File.empty())
        Where = relative(F.File) +
                (F.Line ? ":" + std::to_string(F.Line) : ""); // 0: no line
      if (F.Inlined)
        Where += " (inlined)";
      S.push_back({"  ", F.Function, Where});
    }
    printTable(OS, S, true);
  }
  if (D.Shown < D.Rows.size()) {
    // In the default order the biggest shrinks (of the --by measure) come
    // last: say where they are when --top cut some of them off.
    bool ShrinksCut = O.Sort == DiffOptions::Growth &&
                      D.Rows.back().delta(O.By) < 0;
    OS << "(" << D.Rows.size() - D.Shown << " more changed "
       << (D.Rows.size() - D.Shown == 1 ? "context" : "contexts")
       << "; --top 0 shows all"
       << (ShrinksCut ? ", --sort shrink the biggest shrinks first" : "")
       << ")\n";
  }
}

//===-- JSON --------------------------------------------------------------===//

constexpr unsigned JsonDiffVersion = 1;

static void renderDiffJson(const Diff &D, const DiffOptions &O,
                       llvm::raw_ostream &OS) {
  llvm::json::OStream J(OS, 1);
  // Totals show each side's value its profile records; a row's only
  // what both record.
  auto Measures = [&](const Side &B, const Side &N, bool Totals) {
    for (unsigned M = 0; M < NumMeasures; M++)
      J.attributeObject(MeasureNames[M], [&] {
        const Side *Sides[2] = {&B, &N};
        static const char *const Keys[2] = {"base", "new"};
        for (int S = 0; S < 2; S++)
          if (Totals ? D.Has[S][M] : D.Known[M])
            J.attribute(Keys[S], static_cast<int64_t>(Sides[S]->V[M]));
          else
            J.attribute(Keys[S], nullptr);
        if (D.Known[M])
          J.attribute("delta", static_cast<int64_t>(N.V[M] - B.V[M]));
        else
          J.attribute("delta", nullptr);
      });
  };
  J.object([&] {
    J.attribute("format", "heapprof-diff");
    J.attribute("version", static_cast<int64_t>(JsonDiffVersion));
    J.attributeObject("options", [&] {
      J.attribute("match", O.Functions ? "functions" : "lines");
      J.attribute("sort", SortNames[O.Sort]);
      J.attribute("by", MeasureNames[O.By]);
      J.attribute("top", static_cast<int64_t>(O.Top));
    });
    J.attributeArray("base_inputs", [&] {
      for (const std::string &S : O.Base)
        J.value(S);
    });
    J.attributeArray("new_inputs", [&] {
      for (const std::string &S : O.New)
        J.value(S);
    });
    // Each side's different command lines, each an array of arguments.
    static const char *const CommandKeys[2] = {"base_commands",
                                               "new_commands"};
    for (int Side = 0; Side < 2; Side++)
      J.attributeArray(CommandKeys[Side], [&] {
        for (const auto *C : D.Commands[Side])
          J.array([&] {
            for (const std::string &A : *C)
              J.value(A);
          });
      });
    J.attribute("cumulative_new", D.CumulativeNew);
    for (int Side = 0; Side < 2; Side++) {
      const char *Key = Side ? "stack_limit_new" : "stack_limit_base";
      if (D.StackLimit[Side])
        J.attribute(Key, static_cast<int64_t>(D.StackLimit[Side]));
      else
        J.attribute(Key, nullptr);
    }
    J.attributeObject("summary", [&] {
      Measures(D.Total[0], D.Total[1], true);
      J.attribute("base_contexts", static_cast<int64_t>(D.Contexts[0]));
      J.attribute("new_contexts", static_cast<int64_t>(D.Contexts[1]));
      J.attribute("changed_contexts", static_cast<int64_t>(D.Rows.size()));
      J.attribute("unchanged_contexts", static_cast<int64_t>(D.Unchanged));
    });
    J.attributeArray("missing", [&] {
      for (unsigned M = 0; M < NumMeasures; M++)
        if (!D.Known[M])
          J.value(MeasureNames[M]);
    });
    J.attributeArray("contexts", [&] {
      for (size_t I = 0; I < D.Shown; I++) {
        const Row &R = D.Rows[I];
        J.object([&] {
          J.attribute("rank", static_cast<int64_t>(I + 1));
          J.attribute("status", R.status(O.By));
          J.attributeArray("stack", [&] {
            for (const Frame *F : R.Stack)
              jsonFrame(J, *F);
          });
          Measures(R.Base, R.New, false);
        });
      }
    });
  });
  OS << "\n";
}

int heapprof::cmdDiff(int Argc, char **Argv) {
  DiffOptions O;
  if (int Rc = parseArgs(Argc, Argv, O))
    return Rc;
  // A --binary may be BASE's or NEW's program (two builds): each must be
  // one of them.
  std::set<std::string> Matched;
  O.Sym.Matched = &Matched;
  Profile B, N;
  if (!loadSymbolized(O.Base, O.Sym, B) || !loadSymbolized(O.New, O.Sym, N))
    return 1;
  for (const std::string &Bin : O.Sym.Binaries)
    if (!Matched.count(Bin))
      return inputError(Bin + ": neither profile's program nor one of their "
                              "libraries (no build id matches)");
  auto [Kind, Other] = otherPrograms(B, N);
  if (!Other.empty())
    hpf_error(Kind.c_str(), Other.c_str());
  bool Cumulative = shareProcess(B, N);
  if (Cumulative) {
    // NEW must go on from BASE.  Given the other way round (checkpoint 2,
    // then 1), NEW read from BASE's first checkpoint would be BASE itself,
    // and the diff "no change" where the later checkpoint had 120 more
    // live objects.
    for (const Process &BP : B.Processes)
      for (const Process &NP : N.Processes)
        if (BP.Pid && !BP.Ended && !NP.Ended && NP.Pid == BP.Pid &&
            NP.LastCheckpoint < BP.LastCheckpoint &&
            processKey(N, NP) == processKey(B, BP))
          return inputError(
              "NEW ends before BASE: of process " + std::to_string(BP.Pid) +
              ", NEW's last dump is checkpoint " +
              std::to_string(NP.LastCheckpoint) + " and BASE's checkpoint " +
              std::to_string(BP.LastCheckpoint) +
              ", so nothing in NEW comes after BASE (give the earlier "
              "checkpoint as BASE)");
    // NEW's checkpoints count from BASE's: read NEW with BASE's files (a
    // dump in both is counted once), and without the checkpoints before
    // BASE's first of each process, which BASE does not count: BASE
    // checkpoint 2 alone against a directory holding checkpoint 1 would
    // count checkpoint 1's allocations as made after checkpoint 2.
    FirstCheckpoints From;
    for (const Process &Proc : B.Processes)
      if (Proc.Pid && !Proc.Ended && Proc.FirstCheckpoint &&
          Proc.MainModule != NoModule)
        From[{Proc.Pid, B.Modules[Proc.MainModule].BuildId}] =
            Proc.FirstCheckpoint;
    std::vector<std::string> Both = O.Base;
    Both.insert(Both.end(), O.New.begin(), O.New.end());
    N = Profile();
    if (!loadSymbolized(Both, O.Sym, N, &From))
      return 1;
  }
  Diff D = compare(B, N, O);
  // Ranked by a measure one side does not record, every row would tie
  // at 0: say so rather than print an order of nothing.
  if (O.By != M_bytes && !D.Known[O.By])
    return inputError(std::string("--by ") + ByNames[O.By] + ": " +
                      (D.Has[0][O.By]   ? "NEW's profile does not record "
                       : D.Has[1][O.By] ? "BASE's profile does not record "
                                        : "neither profile records ") +
                      ByLabels[O.By]);
  D.CumulativeNew = Cumulative;
  D.StackLimit[0] = B.StackLimit;
  D.StackLimit[1] = N.StackLimit;
  D.Commands[0] = commandsOf(B);
  D.Commands[1] = commandsOf(N);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (O.Json)
    renderDiffJson(D, O, OS);
  else
    renderDiffText(D, O, OS);
  OS.flush();
  return writeOutput(O.Output, Out) ? 0 : 1;
}
