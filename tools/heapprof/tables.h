//===- tables.h - the report's tables, computed from a Profile ------------===//
//
// Part of heapprof.  `heapprof report` answers "what is biggest, what
// leaked, where does memory come from" with the tables of mprof (Zorn &
// Hilfinger) plus heapprof's own measures.  They are computed here into
// plain rows; render_text.cpp and render_json.cpp only print rows, so the
// text and the JSON always say the same thing.
//
//   Top        contexts by the chosen measure, with their stacks
//   Leaks      memory unreachable at exit (the leak check, tag 10), or
//              live at the end, grouped by partial call chain (site +
//              callers)
//   Bins       per requested size 0..1024 and >1024 (with --top, the
//              sizes under BinShare of both the allocations and the bytes
//              summed into one row)
//   Direct     per function that called the allocator, by size class
//   CallGraph  gprof-style entries, recursion cycles merged
//   Cold       long-lived, rarely touched contexts, by call chain
//   Peak       contexts by their bytes at the heap's peak, and the
//              allocator's overhead there (docs/allocator-profiler.md)
//
//===----------------------------------------------------------------------===//
#ifndef HEAPPROF_TOOL_TABLES_H
#define HEAPPROF_TOOL_TABLES_H

#include "profile_model.h"
#include "suppressions.h"

#include <string>
#include <vector>

namespace heapprof {

#define HEAPPROF_SORT_KEYS(X)                                                  \
  X(bytes) X(allocs) X(accesses) X(live) X(density) X(lifetime) X(cycles)     \
  X(temporary)

enum class SortKey {
#define X(Name) Name,
  HEAPPROF_SORT_KEYS(X)
#undef X
};
const char *sortKeyName(SortKey K);
bool parseSortKey(const std::string &S, SortKey &K);

// What the leak table lists (--leaks): Default is Unreachable when the
// profile has the leak check at exit (tag 10), else Live.
enum class LeakView { Default, Unreachable, Live };

struct TableOptions {
  SortKey Sort = SortKey::bytes;
  LeakView Leaks = LeakView::Default;
  unsigned Top = 10;  // rows per table; 0 = all
  unsigned Depth = 3; // frames in a leak table call chain
  bool Full = false;  // bin table: every size, empty ones too
  std::vector<std::string> SuppressionFiles; // --suppressions
  std::vector<Suppression> Suppressions;     // their rules (cli.h)
};

// Averages and ratios of one context's Counts, for people.
struct Derived {
  double AccessesPerObject = 0, LifetimeMs = 0;
  double Density = 0; // accesses per 100 bytes: 100 x accesses / bytes
  // Per object: of the lines/pages each object spanned, the share it
  // touched (summed over objects).
  double LinesTouched = -1, PagesTouched = -1; // -1: unknown
  // Heap utilization of the live objects at the last dump: their bytes on
  // the lines/pages they touched, over those lines'/pages' bytes.
  double LineUtilization = -1, PageUtilization = -1;
  double MallocCycles = -1, FreeCycles = -1;         // average per call
  double Cycles = 0; // estimated total: averages x calls
};
Derived derive(const Counts &C);

struct TopRow {
  uint32_t Context;
  double Value;   // the sort measure
  double Percent; // of the measure's total (of bytes for averages)
};

// Contexts grouped by their first Depth frames: the leak table
// (unreachable at exit, or live at the end) and the peak's (live at the
// peak).
struct ChainRow {
  std::vector<Frame> Chain; // allocation site first, up to Depth frames
  uint64_t Objects = 0, Bytes = 0, Contexts = 0;
  // The leak table of unreachable memory: of Objects and Bytes, those
  // another unreachable object points to.
  uint64_t IndirectObjects = 0, IndirectBytes = 0;
  double Percent = 0; // of the table's bytes (of objects without bytes)
};
using LeakRow = ChainRow;

// The cold candidates: the contexts with fewer accesses than their objects
// have 8-byte words, grouped by their first Depth frames as the leak and
// peak tables group theirs, their counts added up (two threads' contexts of
// one site and callers were two rows that read the same).
struct ColdRow {
  std::vector<Frame> Chain; // allocation site first, up to Depth frames
  Counts C;                 // the row's contexts' counts added up
  uint64_t Contexts = 0;
};

// The frames a call chain of the leak, peak and cold tables shows (and,
// the first, the direct allocation table's function): Depth
// frames from the allocation site, where the site of an allocation the C++
// standard library made for the program (a container's node, a string's
// buffer, a vector's growth) is the library function the program called
// (std::map::operator[], std::vector::push_back), not its allocator
// plumbing: the leading frames in namespace std or __gnu_cxx (or, in a
// Rust program, in a file of rustc's own library: /rustc/, /rust/deps/)
// but the outermost of them are skipped.  Otherwise the first three frames of
// every such allocation read std::__new_allocator::allocate <-
// std::allocator_traits::allocate <- ..., and one row held every map's
// nodes.  Above the site, a run of such frames between two of the
// program's is likewise its outermost frame, the library function the
// program called there (std::make_shared <- Holder::Holder <-
// std::make_shared <- make_a, not <- std::_Construct <-
// std::allocator_traits::construct <- ...).  A stack of nothing but such
// frames is shown whole, from its site.
std::vector<const Frame *> chainFrames(const Profile &P, const Context &C,
                                       unsigned Depth);
// How many of C's frames, from its site, chainFrames passes over at the
// start (the library's allocator plumbing): its chain's first frame is
// C.frames(P)[chainStart(P, C)].
size_t chainStart(const Profile &P, const Context &C);

struct BinRow {
  uint64_t Size; // 0..1024, 1025 = ">1024"
  uint64_t Allocs, Bytes, Frees, Kept, KeptObjects;
  double PercentAllocs, PercentBytes;
};

// A size's bin is a row of its own, under --top, when it holds at least
// this percentage of the allocations or of the bytes (the >1024 bin
// always is); the other sizes, when there are two or more, are summed
// into one row.  A real program
// asks for hundreds of sizes, each of a few calls (git log -p: 1026 rows,
// 26 of them at 0.5 % or more).
constexpr double BinShare = 0.5;

// Size classes of the direct allocation table (mprof's).
constexpr const char *ClassNames[4] = {"small", "medium", "large", "xlarge"};

struct DirectRow {
  std::string Function;
  uint64_t Bytes = 0, KeptBytes = 0, Calls = 0;
  uint64_t Class[4] = {}, KeptClass[4] = {};
  double Percent = 0; // of all bytes
};

struct CallEdge {
  uint32_t Entry = 0; // rank: CallGraph[Entry] unless --top cut it
  std::string Name;
  uint64_t Bytes = 0, Calls = 0;
};

// The edges --top cut from one side of an entry, added up.
struct EdgesOmitted {
  uint64_t Edges = 0, Bytes = 0, Calls = 0;
};

struct CallGraphEntry {
  uint32_t Index = 0;       // gprof's [N], 1-based, by TotalBytes
  std::string Name;         // function, or "<cycle N>"
  std::vector<std::string> Members; // a cycle's functions
  uint64_t SelfBytes = 0, SelfCalls = 0;   // allocated here directly
  uint64_t TotalBytes = 0, TotalCalls = 0; // here and below
  double Percent = 0;                      // TotalBytes of all bytes
  // By bytes; --top N keeps N of each (a function of a big program has
  // hundreds of callers: xmalloc in cc1plus) and sums the rest.
  std::vector<CallEdge> Callers, Callees;
  EdgesOmitted CallersOmitted, CalleesOmitted;
};

// The allocator profiler's cost tables (docs/allocator-profiler.md): one
// row per operation class (op kind, small/large, new/reused block,
// serial/parallel) that had calls.
struct OpClassKey {
  std::string Op, Size, Block, Phase; // "malloc", "small", "new"|"reused"|"-", "serial"
  uint64_t Class = 0;                 // the class number (docs/formats.md)
};
struct OpClassRow {
  OpClassKey K;
  uint64_t Count = 0, Sampled = 0, Cycles = 0;
  double MeanCycles = 0;     // Cycles / Sampled (0 without samples)
  double EstCycles = 0;      // MeanCycles x Count: the class's share
  double PercentCalls = 0, PercentCycles = 0;
  uint64_t MedianBucket = 0; // log2 bucket holding the median sample
  std::vector<uint64_t> Hist; // samples per log2 bucket, trailing 0s cut
};
struct SyscallRow {
  std::string Syscall; // mmap munmap mremap madvise mprotect brk
  OpClassKey K;        // Op "none" for calls outside any allocator call
  uint64_t Count = 0, Bytes = 0, Cycles = 0;
};
// The allocator's cost per operation (docs/allocator-profiler.md, "Cost
// per operation including faults"): its calls' estimated cycles (each
// class's mean x calls) over the calls of the classes with a timed call
// (a class none of whose calls was timed has no mean: its calls are left
// out, not counted as 0 cycles), and that plus the page faults taken
// outside its calls at their measured cost, spread over all calls
// (section 3's "fault" rows; Faults false when the profile has none:
// alloc_faults=0, or heapprof's own allocator).  Known when the profile
// counted calls; PerOp and PerOpWithFaults mean nothing when none was
// timed (TimedCalls 0: one call, a thread's first, is never timed).
struct OpCost {
  bool Known = false;
  uint64_t Calls = 0;      // all calls
  uint64_t TimedCalls = 0; // the calls of classes with a timed call
  double CallCycles = 0, PerOp = 0;
  bool Faults = false;
  uint64_t FaultsInCalls = 0, FaultsOutside = 0, OutsideCycles = 0;
  double FaultCycles = 0; // measured cost of one fault
  double PerOpWithFaults = 0;
};
struct PmuRow {
  OpClassKey K;
  uint64_t Samples = 0;
  std::vector<uint64_t> Sums; // per event of PmuInfo::Events
};
struct PmuInfo {
  bool Present = false;
  bool NoHardware = false;          // the runtime found no hardware PMU
  std::vector<std::string> Events;  // the events counted
};

using PeakRow = ChainRow; // Percent: of the peak's bytes

// Memory overhead at the peak, by the allocator-profiler definitions
// (docs/allocator-profiler.md, section 5); every number in bytes.
struct OverheadRows {
  bool Known = false;
  uint64_t Requested = 0, Blocks = 0, Internal = 0, Headers = 0,
           Rounding = 0, Blowup = 0, External = 0, Metadata = 0,
           HeapMapped = 0, HeapResident = 0, ProcessRss = 0;
  // Heap utilization at the peak (0 lines: not recorded).
  uint64_t TouchedLines = 0, TouchedLineLiveBytes = 0, TouchedPages = 0,
           TouchedPageLiveBytes = 0;
  uint64_t Threads = 0;
  // The metadata's parts: name, bytes.
  std::vector<std::pair<std::string, uint64_t>> MetadataParts;
};

struct Table {
  bool Known = true; // false: the profile lacks what the table needs
  std::string Lacks; // then: which field, for the message
  std::string Why;   // and why, when not "an older heapprof runtime"
  size_t Omitted = 0; // rows beyond --top
};

struct Report {
  const Profile *P = nullptr;
  TableOptions Opts;
  std::vector<TopRow> Top;
  Table TopInfo;
  std::vector<LeakRow> Leaks;
  Table LeakInfo;
  // The whole leak table's objects, bytes and rows, those --top cut off
  // too (suppressed contexts are not in it).
  uint64_t LeakObjects = 0, LeakBytes = 0, LeakRows = 0;
  // The leak table's measure: true, memory unreachable at exit (the
  // contexts' leaked_* counts); false, live at the end (live_*).
  bool LeaksUnreachable = false;
  // With the leak check (P->Leaks.Known): live memory at exit that was
  // still reachable (live minus leaked), which the unreachable table
  // leaves out.
  uint64_t ReachableObjects = 0, ReachableBytes = 0;
  // What each suppression rule took out of the leak table (Opts'
  // order; the rules that took nothing too).
  struct Suppressed {
    uint64_t Objects = 0, Bytes = 0, Contexts = 0;
  };
  std::vector<Suppressed> LeaksSuppressed;
  std::vector<BinRow> Bins;
  Table BinInfo; // Omitted: sizes summed into BinsOmitted
  BinRow BinsOmitted{};
  std::vector<DirectRow> Direct;
  Table DirectInfo;
  bool DirectClasses = false; // the size-class split is known
  std::vector<CallGraphEntry> CallGraph;
  Table CallGraphInfo;
  // The profile counted accesses (a program built with -fheapprof); if
  // not, every access measure is unknown rather than 0.
  bool AccessesCounted = false;
  std::vector<ColdRow> Cold; // by bytes x lifetime
  Table ColdInfo;
  // Contexts left out of Cold: no access counted, allocated in a library
  // not compiled with -fheapprof (Module::Counted false), whose own use of
  // them is not counted; their objects, bytes, and the libraries' names.
  struct {
    uint64_t Contexts = 0, Objects = 0, Bytes = 0;
    std::vector<std::string> Modules; // file names, first seen first
  } ColdUncounted;
  // False sharing (P->Sharing): pairs by active events, then passive
  // lines, most first.
  std::vector<FalseSharingPair> Sharing;
  Table SharingInfo;
  std::vector<OpClassRow> OpClasses; // class order
  Table OpClassInfo;
  OpCost Cost;
  std::vector<SyscallRow> Syscalls;  // class order, then syscall
  Table SyscallInfo;
  std::vector<PmuRow> Pmu;
  PmuInfo PmuEvents;
  std::vector<PeakRow> Peak; // by peak bytes
  Table PeakInfo;
  uint64_t PeakUnnamed = 0; // peak bytes of contexts no dump read names
  // The timeline's highest size when it is above the peak's snapshot (the
  // same process): the heap rose less than a snapshot's step past the
  // peak before falling (heapprof_peak.h), so the snapshot is that low.
  // 0 when the timeline saw nothing higher.
  uint64_t PeakAboveBytes = 0, PeakAboveMs = 0;
  OverheadRows Overhead;
  std::vector<std::string> Warnings;
};

Report buildReport(const Profile &P, const TableOptions &Opts);

} // namespace heapprof

#endif
