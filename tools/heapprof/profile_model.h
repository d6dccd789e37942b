//===- profile_model.h - the profile every heapprof output renders -------===//
//
// Part of heapprof.  One data model of a heap profile, built once from any
// number of raw files and rendered by every output form (report text and
// JSON today; diff, flame graph, pprof and HTML are further renderers of
// the same Profile):
//
//   Profile
//   ├── Processes   one per pid: its dumps (checkpoints) added up
//   ├── Modules     executables and libraries, by build id and path
//   ├── Locations   one per distinct (module, address): a return address
//   │               symbolized into Frames, inlined frames expanded
//   ├── Contexts    one per distinct stack of Locations, over all
//   │               processes: Counts, allocation site first
//   └── Bins        requested size 0..1024 and >1024: allocs, bytes, frees
//
// How dumps add up (docs/formats.md, "Checkpoints"): each dump of a process
// holds what happened since the previous one, so the deltas (allocs, bytes,
// accesses, ...) of all of a process's dumps are summed, and each object is
// counted once; the live state (objects and bytes live) is the process's
// LAST dump's.  A dump seen twice (the same file given twice, or a
// checkpoint file and an append_dumps file holding it) is counted once.
// Processes then add up: contexts are merged across processes by their
// module-relative addresses, so ASLR doesn't split them, and after
// symbolization contexts whose stacks read the same are merged too.
//
//===----------------------------------------------------------------------===//
#ifndef HEAPPROF_TOOL_PROFILE_MODEL_H
#define HEAPPROF_TOOL_PROFILE_MODEL_H

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace heapprof {

// Every number a context carries, summed over its objects.  Name = JSON
// key; Kind = how Counts stores it (below); the comment says where it comes
// from (MIB field or extension field, docs/formats.md).  The renderers
// iterate this list.
#define HEAPPROF_COUNTS(X)                                                     \
  X(allocs, Inline, "objects allocated (AllocCount)")                          \
  X(bytes, Inline, "requested bytes (TotalSize)")                              \
  X(frees, Inline, "objects freed: allocs + inherited at fork - live_objects") \
  X(live_objects, Sparse, "objects live at the last dump (live_at_dump)")      \
  X(live_bytes, Sparse, "bytes live at the last dump (live_bytes)")            \
  X(accesses, Inline, "loads and stores (TotalAccessCount)")                   \
  X(lifetime_ms, Inline, "lifetimes, summed (TotalLifetime)")                  \
  X(access_density, Inline,                                                    \
    "accesses per 100 bytes, summed (TotalAccessDensity)")                     \
  X(migrated, Sparse, "objects freed on another cpu (NumMigratedCpu)")         \
  X(lifetime_overlaps, Sparse, "NumLifetimeOverlaps")                          \
  X(min_size, Min32, "smallest object (MinSize)")                              \
  X(max_size, Inline, "largest object (max_size64)")                           \
  X(granules, Inline, "64-byte lines the objects spanned, summed per object")  \
  X(touched_granules, Inline, "of those, touched")                             \
  X(pages, Inline, "4 KiB pages the objects spanned, summed per object")       \
  X(touched_pages, Inline, "of those, touched")                                \
  X(malloc_cycles, Sparse, "TSC cycles in the measured allocating calls")      \
  X(malloc_samples, Sparse, "allocating calls measured")                       \
  X(free_cycles, Sparse, "TSC cycles in the measured freeing calls")           \
  X(free_samples, Sparse, "freeing calls measured")                            \
  X(bytes_small, Sparse, "bytes in objects of 0-32 bytes")                     \
  X(bytes_medium, Sparse, "bytes in objects of 33-256 bytes")                  \
  X(bytes_large, Sparse, "bytes in objects of 257-2048 bytes")                 \
  X(bytes_xlarge, Sparse, "bytes in objects over 2048 bytes")                  \
  X(live_bytes_small, Sparse, "live bytes in objects of 0-32 bytes")           \
  X(live_bytes_medium, Sparse, "live bytes in objects of 33-256 bytes")        \
  X(live_bytes_large, Sparse, "live bytes in objects of 257-2048 bytes")       \
  X(live_bytes_xlarge, Sparse, "live bytes in objects over 2048 bytes")        \
  X(live_lines, Sparse,                                                        \
    "lines holding live objects at the last dump, each once")                  \
  X(live_touched_lines, Sparse, "of those, touched")                           \
  X(live_line_bytes, Sparse, "live bytes on the touched lines")                \
  X(live_pages, Sparse,                                                        \
    "pages holding live objects at the last dump, each once")                  \
  X(live_touched_pages, Sparse,                                                \
    "of those, where a live object's line was touched")                        \
  X(live_page_bytes, Sparse, "live bytes on the touched pages")                \
  X(peak_objects, Sparse, "objects live at the heap's peak (peak_objects)")    \
  X(peak_bytes, Sparse, "their requested bytes (peak_bytes)")                  \
  X(temporary, Inline, "objects freed before their thread allocated again")    \
  X(leaked_objects, Sparse,                                                    \
    "objects unreachable at exit (tag 10: direct + indirect)")                 \
  X(leaked_bytes, Sparse, "their requested bytes")                             \
  X(indirect_objects, Sparse,                                                  \
    "of those, pointed to by another unreachable object")                      \
  X(indirect_bytes, Sparse, "their requested bytes")

// The largest count a profile may add up to: 2^63 - 1, the largest
// number JSON's and pprof's int64 carry (8 EiB, 9.2e18 objects or
// accesses).  Above it a count is corrupt: the loader rejects it.
constexpr uint64_t MaxCount = INT64_MAX;

enum class Field : unsigned {
#define X(Name, Kind, Desc) Name,
  HEAPPROF_COUNTS(X)
#undef X
      NumFields
};
constexpr unsigned NumFields = static_cast<unsigned>(Field::NumFields);
extern const char *const FieldNames[NumFields];

// How Counts keeps a field.  Inline: a u32 in every Counts, the value
// itself below 2^32-1; a value of 2^32-1 or more (a big context's bytes,
// its summed lifetimes) is kept in the block of the sparse fields, after
// them, and the u32 says 2^32-1.  Min32: a u32 in every Counts (min_size,
// the least of the format's u32 MinSize fields, so never above 2^32-1).
// Sparse: a u64 only in the Counts where it is not zero: the state at the
// end (live_*), the peak's and the leak check's counts, the cycle samples,
// the size classes (one of four in a context of one size) and the per-cpu
// counts are zero in most contexts of a big profile.
enum class Store : uint8_t { Inline, Min32, Sparse };
constexpr Store FieldStore[NumFields] = {
#define X(Name, Kind, Desc) Store::Kind,
    HEAPPROF_COUNTS(X)
#undef X
};
namespace detail {
constexpr unsigned countStore(Store S, unsigned Below = NumFields) {
  unsigned N = 0;
  for (unsigned I = 0; I < Below; I++)
    N += FieldStore[I] == S;
  return N;
}
struct Slots {
  uint8_t Of[NumFields] = {};
  constexpr Slots() {
    for (unsigned I = 0; I < NumFields; I++)
      Of[I] = static_cast<uint8_t>(countStore(FieldStore[I], I));
  }
};
} // namespace detail
// Each field's index among the fields of its Store.
constexpr detail::Slots FieldSlot{};
constexpr unsigned NumInline = detail::countStore(Store::Inline);
constexpr unsigned NumSparse = detail::countStore(Store::Sparse);
static_assert(detail::countStore(Store::Min32) == 1, "one u32 field");
static_assert(NumSparse <= 31,
              "Counts::Mask has a bit per sparse field, and InBlock");

// A context's numbers (and the profile's total), read by field: get(F), or
// C.bytes() and so on.  64 bytes, where every field as a u64 was 328 (and
// the inline ones as u64, 112): a profile of a million contexts holds a
// million of these at once (docs/performance.md).  The values of the
// non-zero sparse fields and the inline ones past 2^32-2 are a block of
// their own, 8 bytes each; when there is one (in a big profile most
// contexts have one sparse field, their size class) it is kept in place of
// the block's address.
class Counts {
public:
  Counts() = default;
  Counts(const Counts &O);
  Counts(Counts &&O) noexcept
      : MinSize(O.MinSize), Mask(O.Mask), One(O.One) {
    std::copy(O.Inline, O.Inline + NumInline, Inline);
    std::fill(O.Inline, O.Inline + NumInline, 0);
    O.Mask = 0;
  }
  Counts &operator=(const Counts &O) {
    Counts Copy(O);
    return *this = std::move(Copy);
  }
  Counts &operator=(Counts &&O) noexcept {
    std::swap(Mask, O.Mask);
    std::swap(One, O.One);
    std::swap(MinSize, O.MinSize);
    for (unsigned I = 0; I < NumInline; I++)
      std::swap(Inline[I], O.Inline[I]);
    return *this;
  }
  ~Counts() {
    if (Mask & InBlock)
      std::free(Block);
  }

  uint64_t get(Field F) const {
    unsigned I = static_cast<unsigned>(F);
    switch (FieldStore[I]) {
    case Store::Inline:
      return Inline[FieldSlot.Of[I]] != Wide ? Inline[FieldSlot.Of[I]]
                                             : wide(FieldSlot.Of[I]);
    case Store::Min32:
      return MinSize;
    case Store::Sparse:
      break;
    }
    uint32_t Bit = 1u << FieldSlot.Of[I];
    return Mask & Bit ? values()[__builtin_popcount(Mask & (Bit - 1))] : 0;
  }
#define X(Name, Kind, Desc)                                                    \
  uint64_t Name() const { return get(Field::Name); }
  HEAPPROF_COUNTS(X)
#undef X
  void set(Field F, uint64_t V);
  // Every field at once, by Field: a loader adds a record's numbers to
  // the unpacked values and packs them back (one allocation at most).
  void unpack(uint64_t (&V)[NumFields]) const;
  void pack(const uint64_t (&V)[NumFields]);
  // Adds Other's numbers (min_size/max_size take the min/max); false if a
  // sum (or the max) exceeded MaxCount (a corrupt profile's counts).
  bool add(const Counts &Other);

private:
  // An inline field's u32 when its value is in Block.
  static constexpr uint32_t Wide = UINT32_MAX;
  // Mask's bit saying that the values are in Block (two or more), not One.
  static constexpr uint32_t InBlock = 1u << 31;
  const uint64_t *values() const { return Mask & InBlock ? Block : &One; }
  // Inline slot S's value, in Block after the sparse fields and the wide
  // inline values of the slots before it.
  uint64_t wide(unsigned S) const;
  size_t blockSize() const;
  uint32_t Inline[NumInline] = {};
  uint32_t MinSize = 0;      // the Min32 field
  uint32_t Mask = 0;         // the sparse fields present, by slot; InBlock
  union {
    uint64_t One = 0;        // the only value
    uint64_t *Block;         // the values (malloc): the sparse fields' by
                             // slot, then the wide inline ones by slot
  };
};
static_assert(sizeof(Counts) == 4 * NumInline + 16 && NumInline % 2 == 0,
              "Counts' layout");

constexpr uint32_t NoModule = ~0u;
// The name of a stack without frames (Location::Marker).
constexpr const char *NoFramesMarker =
    "[no frames: called from outside the program's code, or no memory to "
    "record them]";

struct Module {
  std::string Path;      // as the profile records it ("" if it doesn't)
  std::string BuildId;   // hex, "" if none
  bool Main = false;     // the profiled program (first segment)
  std::string File;      // the file symbolized: Path, or --binary
  bool Usable = false;   // File exists and its build id matches
  // With Usable: File names __heapprof_init, so its code counts accesses
  // (compiled with -fheapprof, or the program linked with the runtime);
  // false for the C library and every other library built without it.
  bool Counted = true;
  // With Usable: File's .gnu_debuglink, its debug file's name and CRC32
  // ("" if none), read with the rest of File (symbolize.cpp).
  std::string Debuglink;
  uint32_t DebuglinkCrc = 0;
  bool HasFrames = false; // some Location is in it
  bool Loaded = false;    // in the process map of some dump
  bool Unloaded = false;  // dlclose unloaded it before some dump
  uint64_t UnloadedMs = 0; // the latest such time, ms since start
  uint64_t Addresses = 0;  // return addresses of the profile in it
  uint64_t Unnamed = 0;    // those symbolize() found no function name for
  // Its executable segments as the profile records them, in its file's
  // addresses (start and end less the load bias): without a build id the
  // only sign that the file at Path is still the profiled one.
  std::vector<std::pair<uint64_t, uint64_t>> Code;
};

// One source frame.  A return address gives several when calls were
// inlined: innermost first, the outer ones marked Inlined=false last.
struct Frame {
  std::string Function; // demangled; "??" when unknown
  std::string Whole;    // the whole name when Function was shortened
                        // (names.h), else ""
  std::string File;     // "" when unknown
  uint32_t Line = 0, Column = 0;
  bool Inlined = false; // inlined into the frame after it
};

struct Location {
  uint32_t Module = NoModule;
  uint64_t Address = 0;      // in the module's file (pc - load bias)
  std::vector<Frame> Frames; // filled by symbolize()
  // Not an address: the outermost Location of a stack that reached the
  // malloc_context_size limit (tag 12), named Marker ("[stack limit: 30
  // frames]"), after the stack's frames; or the only Location of a stack
  // with none (NoFramesMarker); NoModule, Address 0; symbolize() makes it
  // one frame of that name.
  std::string Marker;
};

// A context's stack of Locations: up to three in the object itself (16
// bytes), more in a block of their own.  A std::vector was 24 bytes and
// always a block (32 with malloc's header for 3 frames): a big profile
// holds one per context (docs/performance.md).
class LocStack {
public:
  LocStack() = default;
  LocStack(const LocStack &O) { assign(O.begin(), O.end()); }
  LocStack(LocStack &&O) noexcept : N(O.N) {
    std::copy(O.In, O.In + 3, In);
    O.N = 0;
  }
  LocStack &operator=(const LocStack &O) {
    if (this != &O)
      assign(O.begin(), O.end());
    return *this;
  }
  LocStack &operator=(LocStack &&O) noexcept {
    std::swap(N, O.N);
    for (int I = 0; I < 3; I++)
      std::swap(In[I], O.In[I]);
    return *this;
  }
  ~LocStack() { release(); }

  size_t size() const { return N; }
  bool empty() const { return N == 0; }
  const uint32_t *begin() const { return N <= 3 ? In : heap(); }
  const uint32_t *end() const { return begin() + N; }
  uint32_t operator[](size_t I) const { return begin()[I]; }
  uint32_t back() const { return begin()[N - 1]; }
  void assign(const uint32_t *B, const uint32_t *E);
  // Leaves out the first K and the last L.
  void trim(size_t K, size_t L);
  void pop_back() { trim(0, 1); }

private:
  uint32_t *heap() const {
    uint32_t *H;
    std::memcpy(&H, &In[1], sizeof H);
    return H;
  }
  void release() {
    if (N > 3)
      std::free(heap());
    N = 0;
  }
  uint32_t N = 0;
  uint32_t In[3] = {}; // the Locations, or (past 3) In[1..2] the block's
                       // address
};
static_assert(sizeof(LocStack) == 16, "LocStack's layout");

struct Context {
  LocStack Stack; // Locations, allocation site first
  Counts C;
  // The symbolized stack: the Frames of Stack's Locations in order.
  std::vector<const Frame *> frames(const struct Profile &P) const;
};

struct Process {
  uint64_t Pid = 0;            // 0 if the profile has no extension
  std::string Program;         // the path it was run by (tag 15), else its path in its map (or the file name's)
  uint32_t MainModule = NoModule;
  std::vector<std::string> Files;
  uint64_t Dumps = 0, DuplicateDumps = 0;
  bool Ended = false;          // its exit dump (checkpoint 0) was read: no
                               // dump of it can follow (a merge's is one)
  uint64_t FirstCheckpoint = 0; // the lowest checkpoint number read (0: none)
  uint64_t LastCheckpoint = 0;  // the highest (0: none)
  uint64_t LastMs = 0;         // when its last dump was written
  uint64_t Evictions = 0;      // HIB table evictions (last dump)
  uint64_t Bytes = 0;          // bytes allocated, over its dumps' records
  // The command line it started with (tag 14), empty if no dump says;
  // CommandTruncated: the runtime kept only these first arguments.
  std::vector<std::string> Command;
  bool CommandTruncated = false;
};

struct Bin {
  uint64_t Size = 0; // 0..1024, or 1025 for ">1024"
  uint64_t Allocs = 0, Bytes = 0, Frees = 0, FreedBytes = 0;
};

// Heap utilization over the whole heap (tagged section 7), at each
// process's last dump, added over processes.
struct HeapUtilization {
  bool Known = false; // every process's last dump recorded it
  uint64_t Lines = 0, TouchedLines = 0, TouchedLineLiveBytes = 0;
  uint64_t Pages = 0, TouchedPages = 0, TouchedPageLiveBytes = 0;
  uint64_t LiveBytes = 0, LiveChunks = 0;
};

// Passive and active false sharing (tagged section 6, false_sharing=1), on
// the simulated packed layout (totals since the start) or, with
// allocator=system|PATH, measured on the real one (passive: the live
// objects at the dump); each process's last dump, added over processes.
struct FalseSharingPair {
  uint32_t A = 0, B = 0; // Contexts (A == B: one context, two threads)
  uint64_t Lines = 0;    // passive: lines holding objects of both, from 2 threads
  uint64_t ActiveEvents = 0, ActiveLines = 0; // writes by another thread
                                              // to another object
};
struct FalseSharing {
  bool Known = false; // some process's last dump has the section
  // Which layout the section describes: the word after its rows (absent in
  // profiles written before measured layouts existed: simulated).
  enum LayoutKind { Simulated = 0, Real = 1, Mixed = 2 };
  LayoutKind Layout = Simulated;
  uint64_t Objects = 0, Unplaced = 0, Lines = 0, SharedLines = 0;
  uint64_t ActiveLines = 0, ActiveEvents = 0, SameObjectEvents = 0;
  uint64_t DroppedPairs = 0; // pairs the runtime's table or the reader lost
  std::vector<FalseSharingPair> Pairs;
};

// The heap's peak (tags 1 and 5 of the extension).  A dump holds its
// process's peak so far, so a process's peak is its last dump's; of several
// processes the report shows the one with the largest peak (the contexts'
// peak_objects and peak_bytes are that process's), as heapprof merge does.
struct Peak {
  bool Known = false;      // the winning process's last dump has tag 1
  uint64_t Pid = 0;        // that process
  size_t Processes = 0;    // processes with a peak
  uint64_t Bytes = 0, BlockBytes = 0, Objects = 0, Ms = 0, Contexts = 0;
  uint64_t ThresholdBytes = 0, Snapshots = 0;
  // Tag 5, by name (heapprof_peak_sections.c's order); empty if absent.
  std::vector<std::pair<std::string, uint64_t>> Overhead;
  uint64_t overhead(const char *Name) const;
};

// The leak check at exit (tag 10, detect_leaks=1): what the runtime found
// unreachable when it scanned the roots (globals, stacks, thread-local
// storage) and the heap conservatively.  Like the live counts it is each
// process's last dump's (the exit dump's), added over processes; known only
// when every process's last dump has it (a checkpoint, detect_leaks=0, an
// older runtime or upstream MemProf have none).  The contexts' share is in
// their Counts: leaked_* (direct and indirect) and indirect_*.
struct LeakCheck {
  bool Known = false;
  uint64_t Objects = 0;   // live objects examined
  uint64_t RootBytes = 0; // bytes of roots scanned
  // Unreachable, and no other unreachable object points to them (direct),
  // or one does (indirect: freeing the direct ones would free these).
  uint64_t DirectObjects = 0, DirectBytes = 0;
  uint64_t IndirectObjects = 0, IndirectBytes = 0;
  uint64_t ThreadsRunning = 0; // other threads alive at the check: an object
                               // only their registers held counts as leaked
};

// The live heap over time (tag 9): the peak's process's last dump's, as the
// runtime recorded it (heapprof_timeline.h): buckets of BucketMs, each with
// the lowest, highest and last live size noted in it; buckets without a
// note are left out (the heap moved by less than the runtime notes).
struct TimelineBucket {
  uint64_t Ms;     // start, ms since the process started
  uint64_t Lowest, Highest, Last;
};
struct Timeline {
  bool Known = false;
  uint64_t Pid = 0;
  uint64_t BucketMs = 0;
  std::vector<TimelineBucket> Buckets;
};

struct Profile {
  std::vector<Process> Processes;
  std::vector<Module> Modules;
  std::vector<Location> Locations;
  std::vector<Context> Contexts;
  std::vector<Bin> Bins;      // sizes with allocations, ascending
  bool HaveBins = false;      // every dump recorded its bins
  bool Have[NumFields] = {};  // every dump recorded the field
  Counts Total;               // all contexts added up
  HeapUtilization Util;
  FalseSharing Sharing;
  // The allocator profiler's cost sections (tags 2 op classes, 3 system
  // calls, 4 PMU events) of every dump added up row by row, as payload
  // bytes (heapprof_opcost.h decodes them); empty when no dump had one.
  std::vector<uint8_t> Cost[3];
  struct Peak Peak;
  struct Timeline Timeline;
  struct LeakCheck Leaks;
  // Sampled mode (tag 8): some dump's records are estimates from sampled
  // objects; SampleBytes is their sample_bytes when all such dumps agree,
  // else 0 (several rates).
  bool Sampled = false;
  uint64_t SampleBytes = 0;
  // How stacks were taken (tag 12): malloc_context_size when every dump
  // recorded it and they agree, else 0. A stack of that many frames may
  // have been cut there; it ends in a marker Location (Location::Marker).
  uint64_t StackLimit = 0;
  // Whose allocator served the program (tag 13): Unknown when a dump does
  // not say (a runtime before the section), Several when dumps differ.
  // Past Unknown, in section 13's order (HPR_ALLOCATOR_*, one less).
  enum class AllocatorKind { Unknown, Heapprof, Glibc, Library, Several };
  AllocatorKind Allocator = AllocatorKind::Unknown;
  // Its name as heapprof show and the JSON spell it; nullptr for Unknown.
  const char *allocatorName() const;
  std::string AllocatorPath; // Library's
  // Contexts whose stack ends in such a marker.
  uint64_t contextsAtStackLimit() const;
  bool has(Field F) const { return Have[static_cast<unsigned>(F)]; }
  // Some dump has no heapprof extension (no pid): upstream MemProf's, or
  // heapprof's with raw_extension=0.
  bool noExtension() const {
    for (const Process &Pr : Processes)
      if (!Pr.Pid)
        return true;
    return false;
  }
};

// Reads every raw profile named by Inputs (files, and directories meaning
// every *.profraw in them) into P, unsymbolized.  On failure returns false
// with Err set to one line naming the file and the problem.
// From, if given, leaves out each checkpoint numbered below From's entry
// for its process (keyed by pid and main program build id, in hex): diff's
// NEW side, read with BASE's files, then starts where BASE starts.
using FirstCheckpoints = std::map<std::pair<uint64_t, std::string>, uint64_t>;
bool loadProfile(const std::vector<std::string> &Inputs, Profile &P,
                 std::string &Err, const FirstCheckpoints *From = nullptr);

// After symbolization: merges contexts whose symbolized stacks are the same
// frame for frame (function, file, line, column), such as the copies of
// one call an unrolled loop makes.  Totals don't change.
void mergeSameStacks(Profile &P);

// After symbolization, before mergeSameStacks: drops the leading frames a
// profile of upstream MemProf (clang -fmemory-profile) has inside its
// runtime's interceptors, as llvm-profdata does (docs/formats.md): a frame
// named __interceptor_* or ___interceptor_*, one whose file is the memprof
// runtime's (memprof_malloc_linux.cpp, memprof_interceptors.cpp,
// memprof_new_delete.cpp), or operator new/delete in the main program
// without a file (the runtime linked in without DWARF).  heapprof's own
// stacks begin at the allocation's caller and never have such a frame.
void dropRuntimeFrames(Profile &P);

// After symbolization, before mergeSameStacks: a stack that reached the
// stack limit with main as its outermost frame was whole (main has no
// caller worth recording), so it loses its [stack limit] marker.
void unmarkWholeStacks(Profile &P);

} // namespace heapprof

#endif
