//===- tables.cpp - the report's tables, computed from a Profile ----------===//
//
// Part of heapprof.  See tables.h.
//
//===----------------------------------------------------------------------===//
#include "tables.h"
#include "heapprof_opcost.h"
#include "names.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <numeric>
#include <unordered_map>

using namespace heapprof;

const char *heapprof::sortKeyName(SortKey K) {
  switch (K) {
#define X(Name)                                                                \
  case SortKey::Name:                                                          \
    return #Name;
    HEAPPROF_SORT_KEYS(X)
#undef X
  }
  return "?";
}

bool heapprof::parseSortKey(const std::string &S, SortKey &K) {
#define X(Name)                                                                \
  if (S == #Name) {                                                            \
    K = SortKey::Name;                                                         \
    return true;                                                               \
  }
  HEAPPROF_SORT_KEYS(X)
#undef X
  return false;
}

static double ratio(uint64_t A, uint64_t B) {
  return B ? static_cast<double>(A) / static_cast<double>(B) : 0;
}

Derived heapprof::derive(const Counts &C) {
  Derived D;
  D.AccessesPerObject = ratio(C.accesses(), C.allocs());
  // From the context's totals, rounded only where it is printed: not the
  // mean of the runtime's per-object densities (TotalAccessDensity), each
  // rounded down to an integer, which read 2.6 for 500 objects of 64 bytes
  // with 900 accesses (2.8125 per 100 bytes): an object's 1 access is 1.56,
  // kept as 1, its 2 are 3.125, kept as 3.
  D.Density = 100 * ratio(C.accesses(), C.bytes());
  D.LifetimeMs = ratio(C.lifetime_ms(), C.allocs());
  if (C.granules())
    D.LinesTouched = ratio(C.touched_granules(), C.granules());
  if (C.pages())
    D.PagesTouched = ratio(C.touched_pages(), C.pages());
  if (C.live_touched_lines())
    D.LineUtilization = ratio(C.live_line_bytes(), 64 * C.live_touched_lines());
  if (C.live_touched_pages())
    D.PageUtilization =
        ratio(C.live_page_bytes(), 4096 * C.live_touched_pages());
  if (C.malloc_samples())
    D.MallocCycles = ratio(C.malloc_cycles(), C.malloc_samples());
  if (C.free_samples())
    D.FreeCycles = ratio(C.free_cycles(), C.free_samples());
  // Cycles are measured in one call of cycle_sample_every: the average
  // times the number of calls estimates the total.
  D.Cycles = std::max(D.MallocCycles, 0.0) * C.allocs() +
             std::max(D.FreeCycles, 0.0) * C.frees();
  return D;
}

namespace {
class Builder {
public:
  Builder(const Profile &P, const TableOptions &O) : P(P) {
    R.P = &P;
    R.Opts = O;
  }
  Report build() {
    R.AccessesCounted = P.Total.accesses() != 0;
    top();
    leaks();
    bins();
    direct();
    callGraph();
    cold();
    falseSharing();
    costs();
    peak();
    return std::move(R);
  }

private:
  template <typename T> void cut(std::vector<T> &Rows, Table &Info) {
    if (R.Opts.Top && Rows.size() > R.Opts.Top) {
      Info.Omitted = Rows.size() - R.Opts.Top;
      Rows.resize(R.Opts.Top);
    }
  }
  const Frame &site(const Context &C) const {
    return P.Locations[C.Stack[0]].Frames[0];
  }
  void top();
  std::vector<ChainRow> chains(uint64_t (Counts::*Objects)() const,
                               uint64_t (Counts::*Bytes)() const, bool HasBytes,
                               uint64_t Total,
                               const std::vector<int32_t> *Suppressed = nullptr,
                               bool Indirect = false);
  void leaks();
  void leakTotals(); // R.Leak{Objects,Bytes,Rows} of the uncut table
  void bins();
  void direct();
  void callGraph();
  void cold();
  void falseSharing();
  void costs();
  void peak();

  const Profile &P;
  Report R;
};
} // namespace

void Builder::falseSharing() {
  R.SharingInfo.Known = P.Sharing.Known;
  if (!P.Sharing.Known) {
    R.SharingInfo.Lacks = "false_sharing";
    return;
  }
  R.Sharing = P.Sharing.Pairs;
  std::sort(R.Sharing.begin(), R.Sharing.end(),
            [](const FalseSharingPair &X, const FalseSharingPair &Y) {
              return X.ActiveEvents != Y.ActiveEvents
                         ? X.ActiveEvents > Y.ActiveEvents
                     : X.Lines != Y.Lines ? X.Lines > Y.Lines
                     : X.A != Y.A         ? X.A < Y.A
                                          : X.B < Y.B;
            });
  cut(R.Sharing, R.SharingInfo);
}

void Builder::top() {
  SortKey K = R.Opts.Sort;
  bool Additive = K != SortKey::density && K != SortKey::lifetime;
  bool LiveBytes = P.has(Field::live_bytes);
  auto Value = [&](const Counts &C) -> double {
    switch (K) {
    case SortKey::bytes:
      return C.bytes();
    case SortKey::allocs:
      return C.allocs();
    case SortKey::accesses:
      return C.accesses();
    case SortKey::live:
      return LiveBytes ? C.live_bytes() : C.live_objects();
    case SortKey::density:
      return derive(C).Density;
    case SortKey::lifetime:
      return derive(C).LifetimeMs;
    case SortKey::cycles:
      return derive(C).Cycles;
    case SortKey::temporary:
      return C.temporary();
    }
    return 0;
  };
  if (K == SortKey::live && !P.has(Field::live_objects)) {
    R.TopInfo.Known = false;
    R.TopInfo.Lacks = "live_at_dump";
    return;
  }
  if (K == SortKey::cycles && !P.has(Field::malloc_samples)) {
    R.TopInfo.Known = false;
    R.TopInfo.Lacks = "malloc_samples";
    return;
  }
  if (K == SortKey::temporary && !P.has(Field::temporary)) {
    R.TopInfo.Known = false;
    R.TopInfo.Lacks = "temporary";
    if (P.Sampled)
      R.TopInfo.Why = "sampled mode sees only the sampled allocations";
    return;
  }
  double Total = 0;
  for (const Context &C : P.Contexts)
    Total += Additive ? Value(C.C) : C.C.bytes();
  for (uint32_t I = 0; I < P.Contexts.size(); I++) {
    double V = Value(P.Contexts[I].C);
    if (V <= 0)
      continue;
    double Share = Additive ? V : P.Contexts[I].C.bytes();
    R.Top.push_back({I, V, Total > 0 ? 100.0 * Share / Total : 0});
  }
  std::stable_sort(R.Top.begin(), R.Top.end(),
                   [&](const TopRow &A, const TopRow &B) {
                     if (A.Value != B.Value)
                       return A.Value > B.Value;
                     return P.Contexts[A.Context].C.bytes() >
                            P.Contexts[B.Context].C.bytes();
                   });
  cut(R.Top, R.TopInfo);
}

// A frame of the C++ standard library's (libstdc++'s, libc++'s std::__1):
// by its short name, which has no return type in front (--full-names keeps
// the whole name in Function: "void std::vector<...>::_M_realloc_insert").
// Or of Rust's (std, core, alloc and the crates std is built with, such as
// hashbrown): by its file, which rustc's own build records under the
// remapped prefixes /rustc/<commit>/library and /rust/deps (a crate of the
// program's, hashbrown from crates.io too, has its real path).
static bool isStdFrame(const Frame &F) {
  if (F.File.rfind("/rustc/", 0) == 0 || F.File.rfind("/rust/deps/", 0) == 0)
    return true;
  const std::string Short =
      F.Whole.empty() ? shortFunctionName(F.Function) : F.Function;
  return Short.rfind("std::", 0) == 0 || Short.rfind("__gnu_cxx::", 0) == 0;
}

// The number of leading frames of Frames that a chain passes over.
static size_t leadingStd(const std::vector<const Frame *> &Frames) {
  size_t First = 0;
  while (First < Frames.size() && isStdFrame(*Frames[First]))
    First++;
  // First: the program's frame that called the library; keep the library
  // function it called.  No such frame: the stack as it is.
  return First > 0 && First < Frames.size() ? First - 1 : 0;
}

size_t heapprof::chainStart(const Profile &P, const Context &C) {
  return leadingStd(C.frames(P));
}

std::vector<const Frame *> heapprof::chainFrames(const Profile &P,
                                                 const Context &C,
                                                 unsigned Depth) {
  std::vector<const Frame *> Frames = C.frames(P);
  size_t Start = leadingStd(Frames);
  bool AllStd = std::all_of(Frames.begin(), Frames.end(),
                            [](const Frame *F) { return isStdFrame(*F); });
  // Above the site, a run of the library's frames between two of the
  // program's (std::make_shared constructing an object whose constructor
  // allocates: _Construct, allocator_traits::construct,
  // _Sp_counted_ptr_inplace, __shared_count, ..., make_shared) is the
  // library function the program called, its outermost frame, as at the
  // site: else those frames filled the chain, and the objects every caller
  // of that constructor made were one row.  A run the stack ends in (a
  // thread's start, std::thread::_State_impl::_M_run) is its outermost
  // frame too.  A stack of nothing but the library's frames is shown whole.
  std::vector<const Frame *> Chain;
  for (size_t I = Start; I < Frames.size() && Chain.size() < Depth; I++) {
    if (!AllStd && I > Start && isStdFrame(*Frames[I]) &&
        I + 1 < Frames.size() && isStdFrame(*Frames[I + 1]))
      continue;
    Chain.push_back(Frames[I]);
  }
  return Chain;
}

// The contexts with objects by Objects and Bytes (Counts members: live at
// the end, at the peak) grouped by their chainFrames (function, file,
// line), the most bytes first (objects without bytes, !HasBytes); Percent
// is of Total.  With
// Suppressed (suppressedContexts: a rule per context, or -1), the contexts a
// --suppressions rule took are left out, counted under their rule, and
// taken out of Total.  With Indirect, the rows add up their contexts'
// indirect leaks too.
std::vector<ChainRow> Builder::chains(uint64_t (Counts::*Objects)() const,
                                      uint64_t (Counts::*Bytes)() const,
                                      bool HasBytes, uint64_t Total,
                                      const std::vector<int32_t> *Suppressed,
                                      bool Indirect) {
  std::vector<ChainRow> Rows;
  std::map<std::vector<std::tuple<std::string, std::string, uint32_t>>, size_t>
      Index;
  for (size_t CI = 0; CI < P.Contexts.size(); CI++) {
    const Context &C = P.Contexts[CI];
    if (!(C.C.*Objects)())
      continue;
    if (Suppressed && !Suppressed->empty()) {
      int Rule = (*Suppressed)[CI];
      if (Rule >= 0) {
        Report::Suppressed &S = R.LeaksSuppressed[Rule];
        S.Objects += (C.C.*Objects)();
        S.Bytes += (C.C.*Bytes)();
        S.Contexts++;
        Total -= std::min(Total, HasBytes ? (C.C.*Bytes)() : (C.C.*Objects)());
        continue;
      }
    }
    std::vector<const Frame *> Frames = chainFrames(P, C, R.Opts.Depth);
    std::vector<std::tuple<std::string, std::string, uint32_t>> Key;
    for (const Frame *F : Frames)
      Key.emplace_back(F->Function, F->File, F->Line);
    auto [It, New] = Index.emplace(Key, Rows.size());
    if (New) {
      ChainRow Row;
      for (const Frame *F : Frames)
        Row.Chain.push_back(*F);
      Rows.push_back(std::move(Row));
    }
    ChainRow &Row = Rows[It->second];
    Row.Objects += (C.C.*Objects)();
    Row.Bytes += (C.C.*Bytes)();
    Row.Contexts++;
    if (Indirect) {
      Row.IndirectObjects += C.C.indirect_objects();
      Row.IndirectBytes += C.C.indirect_bytes();
    }
  }
  for (ChainRow &Row : Rows)
    Row.Percent = 100.0 * ratio(HasBytes ? Row.Bytes : Row.Objects, Total);
  std::stable_sort(Rows.begin(), Rows.end(),
                   [](const ChainRow &A, const ChainRow &B) {
                     return std::tie(A.Bytes, A.Objects) >
                            std::tie(B.Bytes, B.Objects);
                   });
  return Rows;
}

void Builder::leaks() {
  const Counts &T = P.Total;
  if (P.Leaks.Known) {
    R.ReachableObjects =
        T.live_objects() - std::min(T.live_objects(), T.leaked_objects());
    R.ReachableBytes =
        T.live_bytes() - std::min(T.live_bytes(), T.leaked_bytes());
  }
  R.LeaksUnreachable = R.Opts.Leaks == LeakView::Unreachable ||
                       (R.Opts.Leaks == LeakView::Default && P.Leaks.Known);
  if (R.LeaksUnreachable) {
    if (!P.Leaks.Known) {
      R.LeakInfo.Known = false;
      R.LeakInfo.Lacks = "the leak check at exit (tag 10)";
      // Without the extension the renderer names who wrote the profile.
      R.LeakInfo.Why =
          P.noExtension() ? ""
          : P.Sampled
              ? "sampled mode does not see the whole heap"
              : "the runtime checks at exit, so a process whose last dump "
                "is a checkpoint has none, nor one run with detect_leaks=0 "
                "or by an older heapprof runtime";
      return;
    }
    R.LeaksSuppressed.assign(R.Opts.Suppressions.size(), {});
    std::vector<int32_t> Suppressed = suppressedContexts(
        R.Opts.Suppressions, P, Field::leaked_objects);
    R.Leaks = chains(&Counts::leaked_objects, &Counts::leaked_bytes, true,
                     T.leaked_bytes(), &Suppressed, true);
    leakTotals();
    cut(R.Leaks, R.LeakInfo);
    return;
  }
  if (!P.has(Field::live_objects)) {
    R.LeakInfo.Known = false;
    R.LeakInfo.Lacks = "live_at_dump";
    return;
  }
  bool Bytes = P.has(Field::live_bytes);
  if (!Bytes)
    R.LeakInfo.Lacks = "live_bytes";
  R.LeaksSuppressed.assign(R.Opts.Suppressions.size(), {});
  std::vector<int32_t> Suppressed =
      suppressedContexts(R.Opts.Suppressions, P, Field::live_objects);
  R.Leaks = chains(&Counts::live_objects, &Counts::live_bytes, Bytes,
                   Bytes ? P.Total.live_bytes() : P.Total.live_objects(),
                   &Suppressed);
  leakTotals();
  cut(R.Leaks, R.LeakInfo);
}

void Builder::leakTotals() {
  R.LeakRows = R.Leaks.size();
  for (const LeakRow &Row : R.Leaks) {
    R.LeakObjects += Row.Objects;
    R.LeakBytes += Row.Bytes;
  }
}

void Builder::bins() {
  if (!P.HaveBins) {
    R.BinInfo.Known = false;
    R.BinInfo.Lacks = "size bins";
    return;
  }
  uint64_t Allocs = 0, Bytes = 0;
  for (const Bin &B : P.Bins) {
    Allocs += B.Allocs;
    Bytes += B.Bytes;
  }
  auto Row = [&](const Bin &B) {
    return BinRow{B.Size,
                  B.Allocs,
                  B.Bytes,
                  B.Frees,
                  B.Bytes - std::min(B.Bytes, B.FreedBytes),
                  B.Allocs - std::min(B.Allocs, B.Frees),
                  100.0 * ratio(B.Allocs, Allocs),
                  100.0 * ratio(B.Bytes, Bytes)};
  };
  if (R.Opts.Full) {
    size_t K = 0;
    for (uint64_t S = 0; S <= 1025; S++) {
      Bin B;
      B.Size = S;
      if (K < P.Bins.size() && P.Bins[K].Size == S)
        B = P.Bins[K++];
      R.Bins.push_back(Row(B));
    }
    return;
  }
  auto Own = [&](const BinRow &Rw) {
    return Rw.Size > 1024 || Rw.PercentAllocs >= BinShare ||
           Rw.PercentBytes >= BinShare;
  };
  size_t Small = 0;
  for (const Bin &B : P.Bins)
    Small += !Own(Row(B));
  for (const Bin &B : P.Bins) {
    BinRow Rw = Row(B);
    // One small size would take the "other" row's place: it stays.
    if (!R.Opts.Top || Small < 2 || Own(Rw)) {
      R.Bins.push_back(Rw);
      continue;
    }
    BinRow &O = R.BinsOmitted;
    O.Allocs += Rw.Allocs;
    O.Bytes += Rw.Bytes;
    O.Frees += Rw.Frees;
    O.Kept += Rw.Kept;
    O.KeptObjects += Rw.KeptObjects;
    O.PercentAllocs += Rw.PercentAllocs;
    O.PercentBytes += Rw.PercentBytes;
    R.BinInfo.Omitted++;
  }
}

void Builder::direct() {
  R.DirectClasses = P.has(Field::bytes_small) && P.has(Field::bytes_xlarge);
  std::unordered_map<std::string, size_t> Index;
  for (const Context &C : P.Contexts) {
    // The function the program called, for an allocation the C++ standard
    // library made (chainFrames): else every container's bytes were one
    // row, std::__new_allocator::allocate.
    std::vector<const Frame *> Site = chainFrames(P, C, 1);
    const std::string &Fn = Site.empty() ? site(C).Function : Site[0]->Function;
    auto [It, New] = Index.emplace(Fn, R.Direct.size());
    if (New) {
      DirectRow Row;
      Row.Function = Fn;
      R.Direct.push_back(Row);
    }
    DirectRow &Row = R.Direct[It->second];
    Row.Bytes += C.C.bytes();
    Row.KeptBytes += C.C.live_bytes();
    Row.Calls += C.C.allocs();
    uint64_t Cls[4] = {C.C.bytes_small(), C.C.bytes_medium(), C.C.bytes_large(),
                       C.C.bytes_xlarge()};
    uint64_t Kept[4] = {C.C.live_bytes_small(), C.C.live_bytes_medium(),
                        C.C.live_bytes_large(), C.C.live_bytes_xlarge()};
    for (int I = 0; I < 4; I++) {
      Row.Class[I] += Cls[I];
      Row.KeptClass[I] += Kept[I];
    }
  }
  for (DirectRow &Row : R.Direct)
    Row.Percent = 100.0 * ratio(Row.Bytes, P.Total.bytes());
  std::stable_sort(R.Direct.begin(), R.Direct.end(),
                   [](const DirectRow &A, const DirectRow &B) {
                     return std::tie(A.Bytes, A.Calls) >
                            std::tie(B.Bytes, B.Calls);
                   });
  cut(R.Direct, R.DirectInfo);
}

// Strongly connected components of a graph given as adjacency lists
// (Tarjan's algorithm, iterative so deep graphs can't overflow the stack).
// Returns each node's component number.
static std::vector<uint32_t>
components(const std::vector<std::vector<uint32_t>> &Succ) {
  const uint32_t None = ~0u;
  size_t N = Succ.size();
  std::vector<uint32_t> Index(N, None), Low(N), Comp(N, None), Stack;
  std::vector<bool> OnStack(N);
  std::vector<std::pair<uint32_t, size_t>> Work; // node, next successor
  uint32_t Next = 0, NumComps = 0;
  for (uint32_t Root = 0; Root < N; Root++) {
    if (Index[Root] != None)
      continue;
    Work.push_back({Root, 0});
    while (!Work.empty()) {
      auto &[V, I] = Work.back();
      if (I == 0 && Index[V] == None) {
        Index[V] = Low[V] = Next++;
        Stack.push_back(V);
        OnStack[V] = true;
      }
      if (I < Succ[V].size()) {
        uint32_t W = Succ[V][I++];
        if (Index[W] == None)
          Work.push_back({W, 0});
        else if (OnStack[W])
          Low[V] = std::min(Low[V], Index[W]);
        continue;
      }
      uint32_t Done = V;
      Work.pop_back();
      if (Low[Done] == Index[Done]) {
        uint32_t W;
        do {
          W = Stack.back();
          Stack.pop_back();
          OnStack[W] = false;
          Comp[W] = NumComps;
        } while (W != Done);
        NumComps++;
      }
      if (!Work.empty())
        Low[Work.back().first] = std::min(Low[Work.back().first], Low[Done]);
    }
  }
  return Comp;
}

void Builder::callGraph() {
  // Functions, and each context's stack as functions (allocation site
  // first).
  std::unordered_map<std::string, uint32_t> Ids;
  std::vector<std::string> Names;
  std::vector<std::vector<uint32_t>> Paths;
  for (const Context &C : P.Contexts) {
    std::vector<uint32_t> Path;
    for (const Frame *F : C.frames(P)) {
      auto [It, New] = Ids.emplace(F->Function, Names.size());
      if (New)
        Names.push_back(F->Function);
      Path.push_back(It->second);
    }
    Paths.push_back(std::move(Path));
  }
  // Caller -> callee edges; recursion cycles are their strongly connected
  // components, and each becomes one entry, as in mprof and gprof.
  std::vector<std::vector<uint32_t>> Succ(Names.size());
  for (const auto &Path : Paths)
    for (size_t I = 0; I + 1 < Path.size(); I++)
      if (Path[I + 1] != Path[I])
        Succ[Path[I + 1]].push_back(Path[I]);
  for (auto &S : Succ) {
    std::sort(S.begin(), S.end());
    S.erase(std::unique(S.begin(), S.end()), S.end());
  }
  std::vector<uint32_t> Comp = components(Succ);
  std::vector<std::vector<uint32_t>> Members(Names.size());
  for (uint32_t F = 0; F < Names.size(); F++)
    Members[Comp[F]].push_back(F);

  // Entries: one per function outside cycles, one per cycle.
  std::vector<CallGraphEntry> E;
  std::vector<uint32_t> EntryOf(Names.size());
  std::vector<uint32_t> CompEntry(Names.size(), ~0u);
  for (uint32_t F = 0; F < Names.size(); F++) {
    uint32_t C = Comp[F];
    if (CompEntry[C] == ~0u) {
      CompEntry[C] = E.size();
      CallGraphEntry Entry;
      if (Members[C].size() == 1) {
        Entry.Name = Names[F];
      } else {
        for (uint32_t M : Members[C])
          Entry.Members.push_back(Names[M]);
        std::sort(Entry.Members.begin(), Entry.Members.end());
      }
      E.push_back(std::move(Entry));
    }
    EntryOf[F] = CompEntry[C];
  }

  std::map<std::pair<uint32_t, uint32_t>, CallEdge> Edges; // caller, callee
  std::vector<uint32_t> Seq;
  for (size_t K = 0; K < P.Contexts.size(); K++) {
    const Counts &C = P.Contexts[K].C;
    Seq.clear();
    for (uint32_t F : Paths[K])
      if (Seq.empty() || Seq.back() != EntryOf[F])
        Seq.push_back(EntryOf[F]);
    // After merging cycles an entry can only repeat next to itself, so
    // each entry and edge of Seq is distinct: a context counts once each.
    if (Seq.empty())
      continue;
    E[Seq[0]].SelfBytes += C.bytes();
    E[Seq[0]].SelfCalls += C.allocs();
    for (size_t I = 0; I < Seq.size(); I++) {
      E[Seq[I]].TotalBytes += C.bytes();
      E[Seq[I]].TotalCalls += C.allocs();
      if (I + 1 < Seq.size()) {
        CallEdge &Edge = Edges[{Seq[I + 1], Seq[I]}];
        Edge.Bytes += C.bytes();
        Edge.Calls += C.allocs();
      }
    }
  }

  // Number entries by bytes, largest first; cycles by their rank too.
  std::vector<uint32_t> Order(E.size());
  std::iota(Order.begin(), Order.end(), 0);
  auto NameOf = [&](uint32_t I) -> const std::string & {
    return E[I].Members.empty() ? E[I].Name : E[I].Members[0];
  };
  std::stable_sort(Order.begin(), Order.end(), [&](uint32_t A, uint32_t B) {
    if (E[A].TotalBytes != E[B].TotalBytes)
      return E[A].TotalBytes > E[B].TotalBytes;
    if (E[A].TotalCalls != E[B].TotalCalls)
      return E[A].TotalCalls > E[B].TotalCalls;
    return NameOf(A) < NameOf(B);
  });
  std::vector<uint32_t> Rank(E.size());
  unsigned Cycles = 0;
  for (uint32_t I = 0; I < Order.size(); I++) {
    Rank[Order[I]] = I;
    CallGraphEntry &Entry = E[Order[I]];
    Entry.Index = I + 1;
    if (!Entry.Members.empty())
      Entry.Name = "<cycle " + std::to_string(++Cycles) + ">";
    Entry.Percent = 100.0 * ratio(Entry.TotalBytes, P.Total.bytes());
  }
  for (auto &[Key, Edge] : Edges) {
    CallEdge Caller = Edge, Callee = Edge;
    Caller.Entry = Rank[Key.first];
    Caller.Name = E[Key.first].Name;
    Callee.Entry = Rank[Key.second];
    Callee.Name = E[Key.second].Name;
    E[Key.second].Callers.push_back(Caller);
    E[Key.first].Callees.push_back(Callee);
  }
  auto ByBytes = [](const CallEdge &A, const CallEdge &B) {
    if (A.Bytes != B.Bytes)
      return A.Bytes > B.Bytes;
    return A.Entry < B.Entry;
  };
  auto CutEdges = [&](std::vector<CallEdge> &V, EdgesOmitted &O) {
    std::sort(V.begin(), V.end(), ByBytes);
    if (!R.Opts.Top || V.size() <= R.Opts.Top)
      return;
    for (size_t I = R.Opts.Top; I < V.size(); I++) {
      O.Edges++;
      O.Bytes += V[I].Bytes;
      O.Calls += V[I].Calls;
    }
    V.resize(R.Opts.Top);
  };
  for (CallGraphEntry &Entry : E) {
    CutEdges(Entry.Callers, Entry.CallersOmitted);
    CutEdges(Entry.Callees, Entry.CalleesOmitted);
  }
  for (uint32_t I : Order)
    R.CallGraph.push_back(std::move(E[I]));
  cut(R.CallGraph, R.CallGraphInfo);
}

void Builder::cold() {
  if (!R.AccessesCounted) {
    R.ColdInfo.Known = false;
    R.ColdInfo.Lacks = "access counts";
    return;
  }
  // Cold: fewer accesses over the whole lifetime than the objects have
  // 8-byte words (accesses * 8 < bytes), each context by itself; then
  // grouped by their chains (function, file, line), worst first by bytes x
  // lifetime: the memory that sits longest untouched.  The same test as a
  // density below 12.5 per 100 bytes (derive()), made in integers.
  std::vector<ColdRow> Rows;
  std::map<std::vector<std::tuple<std::string, std::string, uint32_t>>, size_t>
      Index;
  for (uint32_t I = 0; I < P.Contexts.size(); I++) {
    const Context &Ctx = P.Contexts[I];
    const Counts &C = Ctx.C;
    if (!C.allocs() || !C.bytes() || C.accesses() * 8 >= C.bytes())
      continue;
    // Nothing counted, and the allocation site is in a library built
    // without -fheapprof (glibc's iconv_open, opendir, stdio buffers): that
    // library's own loads and stores are not counted, so 0 is unknown,
    // not cold.  libxml2's runtest had 32.2 MiB of such rows in its top 5.
    if (!C.accesses() && !Ctx.Stack.empty()) {
      const Location &L = P.Locations[Ctx.Stack[0]];
      if (L.Module != NoModule && P.Modules[L.Module].Usable &&
          !P.Modules[L.Module].Counted) {
        auto &U = R.ColdUncounted;
        U.Contexts++;
        U.Objects += C.allocs();
        U.Bytes += C.bytes();
        const std::string &Path = P.Modules[L.Module].Path;
        std::string Name = Path.substr(Path.rfind('/') + 1);
        if (std::find(U.Modules.begin(), U.Modules.end(), Name) ==
            U.Modules.end())
          U.Modules.push_back(Name);
        continue;
      }
    }
    std::vector<const Frame *> Frames =
        chainFrames(P, Ctx, std::max(R.Opts.Depth, 1u));
    std::vector<std::tuple<std::string, std::string, uint32_t>> Key;
    for (const Frame *F : Frames)
      Key.emplace_back(F->Function, F->File, F->Line);
    auto [It, New] = Index.emplace(Key, Rows.size());
    if (New) {
      ColdRow Row;
      for (const Frame *F : Frames)
        Row.Chain.push_back(*F);
      Row.C = C;
      Row.Contexts = 1;
      Rows.push_back(std::move(Row));
      continue;
    }
    Rows[It->second].C.add(C);
    Rows[It->second].Contexts++;
  }
  auto Worst = [](const ColdRow &Row) {
    return static_cast<double>(Row.C.bytes()) * (derive(Row.C).LifetimeMs + 1);
  };
  std::stable_sort(Rows.begin(), Rows.end(),
                   [&](const ColdRow &A, const ColdRow &B) {
                     return Worst(A) > Worst(B);
                   });
  R.Cold = std::move(Rows);
  cut(R.Cold, R.ColdInfo);
}

static OpClassKey classKey(uint64_t Cls) {
  OpClassKey K;
  K.Class = Cls;
  if (Cls >= HPO_NUM_CLASSES) {
    K.Op = "none";
    return K;
  }
  unsigned Op, Large, Block, Par;
  hpo_class_split(Cls, &Op, &Large, &Block, &Par);
  static const char *const Blocks[] = {"-", "new", "reused"};
  K.Op = hpo_op_names[Op];
  K.Size = Large ? "large" : "small";
  K.Block = Blocks[Block];
  K.Phase = Par ? "parallel" : "serial";
  return K;
}

void Builder::costs() {
  hpo_section_t S[3];
  char Msg[256];
  for (int I = 0; I < 3; I++) {
    const std::vector<uint8_t> &B = P.Cost[I];
    if (B.empty() ||
        !hpo_decode(HPO_TAG_OP_CLASSES + I, B.data(), B.size(), &S[I], Msg,
                    sizeof(Msg)))
      S[I] = hpo_section_t{};
  }
  if (!S[0].tag) {
    R.OpClassInfo.Known = false;
    R.OpClassInfo.Lacks = "op classes (section 2)";
    // Without the extension the renderer names who wrote the profile.
    R.OpClassInfo.Why =
        P.noExtension() ? ""
        : P.Sampled ? "sampled mode calls glibc's allocator directly and does "
                    "not time it (name an allocator to time it: "
                    "allocator=system or allocator=PATH)"
                  : "no allocator call was counted (op_classes=0, or dumps "
                    "before the first call), or an older heapprof runtime "
                    "wrote it";
  } else {
    uint64_t Calls = 0, Timed = 0;
    double Est = 0;
    for (uint64_t I = 0; I < S[0].nrows; I++) {
      const uint64_t *X = S[0].rows + I * S[0].width;
      OpClassRow Row;
      Row.K = classKey(X[0]);
      Row.Count = X[1];
      Row.Sampled = X[2];
      Row.Cycles = X[3];
      Row.MeanCycles = ratio(X[3], X[2]);
      Row.EstCycles = Row.MeanCycles * Row.Count;
      Row.Hist.assign(X + 4, X + S[0].width);
      while (!Row.Hist.empty() && !Row.Hist.back())
        Row.Hist.pop_back();
      uint64_t Seen = 0;
      for (uint64_t B = 0; B < Row.Hist.size(); B++) {
        Seen += Row.Hist[B];
        if (2 * Seen >= Row.Sampled) {
          Row.MedianBucket = B;
          break;
        }
      }
      Calls += Row.Count;
      if (Row.Sampled)
        Timed += Row.Count;
      Est += Row.EstCycles;
      R.OpClasses.push_back(std::move(Row));
    }
    for (OpClassRow &Row : R.OpClasses) {
      Row.PercentCalls = 100.0 * ratio(Row.Count, Calls);
      Row.PercentCycles = Est > 0 ? 100.0 * Row.EstCycles / Est : 0;
    }
    R.Cost.Known = Calls > 0;
    R.Cost.Calls = Calls;
    R.Cost.TimedCalls = Timed;
    R.Cost.CallCycles = Est;
    R.Cost.PerOp = Timed ? Est / Timed : 0;
  }
  if (!S[1].tag) {
    R.SyscallInfo.Known = false;
    R.SyscallInfo.Lacks = "system calls (section 3)";
  } else {
    for (uint64_t I = 0; I < S[1].nrows; I++) {
      const uint64_t *X = S[1].rows + I * S[1].width;
      R.Syscalls.push_back({X[1] < HPO_NUM_SYSCALLS ? hpo_syscall_names[X[1]]
                                                    : "unknown",
                            classKey(X[0]), X[2], X[3], X[4]});
      if (X[1] == HPO_SYSCALL_FAULT) {
        R.Cost.Faults = true;
        if (X[0] >= HPO_NUM_CLASSES) {
          R.Cost.FaultsOutside += X[2];
          R.Cost.OutsideCycles += X[4];
        } else {
          R.Cost.FaultsInCalls += X[2];
        }
      }
    }
    OpCost &C = R.Cost;
    C.FaultCycles = ratio(C.OutsideCycles, C.FaultsOutside);
    C.PerOpWithFaults = C.PerOp + ratio(C.OutsideCycles, C.Calls);
    C.Faults = C.Faults && C.Known;
  }
  if (S[2].tag) {
    R.PmuEvents.Present = true;
    R.PmuEvents.NoHardware = S[2].head[1] & 1;
    std::vector<uint64_t> Index;
    for (uint64_t E = 0; E < S[2].head[0] && E < HPO_NUM_PMU_EVENTS; E++)
      if (S[2].head[2] >> E & 1) {
        R.PmuEvents.Events.push_back(hpo_pmu_event_names[E]);
        Index.push_back(E);
      }
    for (uint64_t I = 0; I < S[2].nrows; I++) {
      const uint64_t *X = S[2].rows + I * S[2].width;
      PmuRow Row;
      Row.K = classKey(X[0]);
      Row.Samples = X[1];
      for (uint64_t E : Index)
        Row.Sums.push_back(X[2 + E]);
      R.Pmu.push_back(std::move(Row));
    }
  }
  for (hpo_section_t &X : S)
    hpo_free(&X);
}

void Builder::peak() {
  if (!P.Peak.Known || !P.has(Field::peak_bytes)) {
    R.PeakInfo.Known = false;
    R.PeakInfo.Lacks = "the peak (tag 1)";
    return;
  }
  R.Peak = chains(&Counts::peak_objects, &Counts::peak_bytes, true,
                  P.Peak.Bytes);
  uint64_t Named = 0;
  for (const PeakRow &Row : R.Peak)
    Named += Row.Bytes;
  R.PeakUnnamed = P.Peak.Bytes - std::min(P.Peak.Bytes, Named);
  cut(R.Peak, R.PeakInfo);
  if (P.Timeline.Known && P.Timeline.Pid == P.Peak.Pid)
    for (const TimelineBucket &B : P.Timeline.Buckets)
      if (B.Highest > std::max(P.Peak.Bytes, R.PeakAboveBytes)) {
        R.PeakAboveBytes = B.Highest;
        R.PeakAboveMs = B.Ms;
      }

  const Peak &K = P.Peak;
  if (K.Overhead.empty())
    return;
  OverheadRows &O = R.Overhead;
  O.Known = true;
  O.Requested = K.overhead("requested_bytes");
  O.Blocks = K.overhead("block_bytes");
  O.Internal = O.Blocks - std::min(O.Blocks, O.Requested);
  O.Headers = std::min(K.overhead("header_bytes"), O.Internal);
  O.Rounding = O.Internal - O.Headers;
  O.HeapMapped = K.overhead("heap_mapped");
  O.HeapResident = K.overhead("heap_resident");
  O.Blowup = K.overhead("blowup");
  uint64_t Used = O.Blocks + O.Blowup;
  O.External = O.HeapMapped - std::min(O.HeapMapped, Used);
  for (const char *Name :
       {"shadow_resident", "depot_bytes", "hib_table_bytes",
        "thread_state_bytes", "free_index_bytes", "peak_table_bytes"}) {
    uint64_t V = K.overhead(Name);
    O.MetadataParts.push_back({Name, V});
    O.Metadata += V;
  }
  O.ProcessRss = K.overhead("process_rss");
  O.TouchedLines = K.overhead("touched_lines");
  O.TouchedLineLiveBytes = K.overhead("touched_line_live_bytes");
  O.TouchedPages = K.overhead("touched_pages");
  O.TouchedPageLiveBytes = K.overhead("touched_page_live_bytes");
  O.Threads = K.overhead("threads");
}

Report heapprof::buildReport(const Profile &P, const TableOptions &Opts) {
  return Builder(P, Opts).build();
}
