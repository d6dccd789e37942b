//===- profile_model.cpp - reads raw profiles into one Profile ------------===//
//
// Part of heapprof.  See profile_model.h for the model and how dumps add up.
//
//===----------------------------------------------------------------------===//
#include "profile_model.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemAlloc.h"
#include "llvm/Support/xxhash.h"
#include "progress.h"
#include "heapprof_opcost.h"

extern "C" {
#include "heapprof_files.h"
#include "heapprof_leak_section.h"
#include "heapprof_peak_sections.h"
#include "heapprof_rawreader.h"
}
#include "dump_hash.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <map>
#include <memory>
#include <sys/stat.h>
#include <tuple>
#include <unordered_map>

using namespace heapprof;

const char *const heapprof::FieldNames[NumFields] = {
#define X(Name, Kind, Desc) #Name,
    HEAPPROF_COUNTS(X)
#undef X
};

Counts::Counts(const Counts &O) : MinSize(O.MinSize), Mask(O.Mask), One(O.One) {
  std::copy(O.Inline, O.Inline + NumInline, Inline);
  if (Mask & InBlock) {
    size_t N = O.blockSize();
    Block = static_cast<uint64_t *>(llvm::safe_malloc(N * sizeof(uint64_t)));
    std::copy(O.Block, O.Block + N, Block);
  }
}

size_t Counts::blockSize() const {
  size_t N = __builtin_popcount(Mask & ~InBlock);
  for (unsigned S = 0; S < NumInline; S++)
    N += Inline[S] == Wide;
  return N;
}

uint64_t Counts::wide(unsigned S) const {
  size_t K = __builtin_popcount(Mask & ~InBlock);
  for (unsigned J = 0; J < S; J++)
    K += Inline[J] == Wide;
  return values()[K];
}

void Counts::unpack(uint64_t (&V)[NumFields]) const {
  const uint64_t *Values = values();
  unsigned K = 0; // the next value: the sparse ones, then the wide
  for (unsigned I = 0; I < NumFields; I++)
    if (FieldStore[I] == Store::Sparse)
      V[I] = Mask >> FieldSlot.Of[I] & 1 ? Values[K++] : 0;
  for (unsigned I = 0; I < NumFields; I++)
    switch (FieldStore[I]) {
    case Store::Inline:
      V[I] = Inline[FieldSlot.Of[I]];
      if (V[I] == Wide)
        V[I] = Values[K++];
      break;
    case Store::Min32:
      V[I] = MinSize;
      break;
    case Store::Sparse:
      break;
    }
}

void Counts::pack(const uint64_t (&V)[NumFields]) {
  uint32_t NewMask = 0;
  size_t N = 0, Old = blockSize();
  for (unsigned I = 0; I < NumFields; I++)
    if (FieldStore[I] == Store::Sparse && V[I]) {
      NewMask |= 1u << FieldSlot.Of[I];
      N++;
    } else if (FieldStore[I] == Store::Inline && V[I] >= Wide) {
      N++;
    }
  if (N != Old) {
    if (Mask & InBlock)
      std::free(Block);
    One = 0;
    if (N >= 2)
      Block = static_cast<uint64_t *>(
          llvm::safe_malloc(N * sizeof(uint64_t)));
  }
  Mask = NewMask | (N >= 2 ? InBlock : 0);
  uint64_t *Values = N >= 2 ? Block : &One;
  unsigned K = 0;
  for (unsigned I = 0; I < NumFields; I++)
    if (FieldStore[I] == Store::Sparse && V[I])
      Values[K++] = V[I];
  for (unsigned I = 0; I < NumFields; I++)
    switch (FieldStore[I]) {
    case Store::Inline:
      if (V[I] >= Wide) {
        Inline[FieldSlot.Of[I]] = Wide;
        Values[K++] = V[I];
      } else {
        Inline[FieldSlot.Of[I]] = static_cast<uint32_t>(V[I]);
      }
      break;
    case Store::Min32:
      // The least of u32 fields; saturated as the format saturates them.
      MinSize = static_cast<uint32_t>(std::min<uint64_t>(V[I], UINT32_MAX));
      break;
    case Store::Sparse:
      break;
    }
}

void Counts::set(Field F, uint64_t Value) {
  unsigned I = static_cast<unsigned>(F);
  if (FieldStore[I] == Store::Inline && Value < Wide &&
      Inline[FieldSlot.Of[I]] != Wide) {
    Inline[FieldSlot.Of[I]] = static_cast<uint32_t>(Value);
    return;
  }
  uint64_t V[NumFields];
  unpack(V);
  V[I] = Value;
  pack(V);
}

bool Counts::add(const Counts &Other) {
  uint64_t V[NumFields], O[NumFields];
  unpack(V);
  Other.unpack(O);
  auto At = [](uint64_t(&A)[NumFields], Field F) -> uint64_t & {
    return A[static_cast<unsigned>(F)];
  };
  uint64_t Min = !At(V, Field::allocs) ? At(O, Field::min_size)
                 : !At(O, Field::allocs)
                     ? At(V, Field::min_size)
                     : std::min(At(V, Field::min_size), At(O, Field::min_size));
  uint64_t Max = std::max(At(V, Field::max_size), At(O, Field::max_size));
  bool Overflow = Max > MaxCount;
  for (unsigned I = 0; I < NumFields; I++)
    if (I != static_cast<unsigned>(Field::min_size) &&
        I != static_cast<unsigned>(Field::max_size))
      Overflow |= __builtin_add_overflow(V[I], O[I], &V[I]) || V[I] > MaxCount;
  At(V, Field::min_size) = Min;
  At(V, Field::max_size) = Max;
  pack(V);
  return !Overflow;
}

uint64_t Peak::overhead(const char *Name) const {
  for (const auto &KV : Overhead)
    if (KV.first == Name)
      return KV.second;
  return 0;
}

const char *Profile::allocatorName() const {
  return Allocator == AllocatorKind::Unknown
             ? nullptr
             : hpr_allocator_names[static_cast<int>(Allocator) - 1];
}

// A limit's marker follows a frame at least; a stack of the no-frames
// marker alone reached no limit.
uint64_t Profile::contextsAtStackLimit() const {
  uint64_t N = 0;
  for (const Context &C : Contexts)
    N += C.Stack.size() >= 2 && !Locations[C.Stack.back()].Marker.empty();
  return N;
}

void LocStack::assign(const uint32_t *B, const uint32_t *E) {
  size_t Size = E - B;
  if (Size <= 3) {
    uint32_t Tmp[3];
    std::copy(B, E, Tmp); // B may be in this stack's own block
    release();
    std::copy(Tmp, Tmp + Size, In);
  } else {
    auto *H = static_cast<uint32_t *>(llvm::safe_malloc(Size * sizeof(uint32_t)));
    std::copy(B, E, H);
    release();
    std::memcpy(&In[1], &H, sizeof H);
  }
  N = static_cast<uint32_t>(Size);
}

void LocStack::trim(size_t K, size_t L) {
  if (K + L >= N) {
    release();
    return;
  }
  if (N > 3 && N - K - L > 3) { // stays in its block
    uint32_t *H = heap();
    std::memmove(H, H + K, (N - K - L) * sizeof(uint32_t));
    N -= static_cast<uint32_t>(K + L);
    return;
  }
  assign(begin() + K, end() - L);
}

std::vector<const Frame *> Context::frames(const Profile &P) const {
  std::vector<const Frame *> Out;
  for (uint32_t L : Stack)
    for (const Frame &F : P.Locations[L].Frames)
      Out.push_back(&F);
  return Out;
}

namespace {
struct ModuleRec {
  uint64_t Bias;
  std::string BuildId, Path;
};
} // namespace

// A context's Counts unpacked for a loader to add a record's numbers to,
// by Field, then stored back whole (Counts::pack).
namespace {
struct Unpacked {
  uint64_t V[NumFields];
  explicit Unpacked(const Counts &C) { C.unpack(V); }
  uint64_t &operator[](Field F) { return V[static_cast<unsigned>(F)]; }
  void store(Counts &C) const { C.pack(V); }
};
} // namespace

static std::string hexBuildId(const uint8_t *B, uint64_t N) {
  static const char Hex[] = "0123456789abcdef";
  std::string S;
  for (uint64_t I = 0; I < N && I < 32; I++) {
    S += Hex[B[I] >> 4];
    S += Hex[B[I] & 15];
  }
  return S;
}

//===-- Extension fields, by name -----------------------------------------===//

namespace {
// Index of each extension field this tool uses in the reader's list, or -1
// if the reader doesn't know it; a dump has it if the index < its nfields.
struct ExtIndex {
  int Granules, TouchedGranules, Pages, TouchedPages, MallocCycles,
      FreeCycles, LiveAtDump, Continuations, MaxSize64, MallocSamples,
      FreeSamples,
      LiveBytes, Class[4], LiveClass[4], Util[6], PeakObjects, PeakBytes,
      Temporary;
  ExtIndex() {
    auto Find = [](const char *Name) {
      for (size_t I = 0; I < hpr_num_ext_names && I < HP_EXT_MAX_FIELDS; I++)
        if (!strcmp(hpr_ext_names[I], Name))
          return static_cast<int>(I);
      return -1;
    };
    Granules = Find("granules");
    TouchedGranules = Find("touched_granules");
    Pages = Find("pages");
    TouchedPages = Find("touched_pages");
    MallocCycles = Find("malloc_cycles");
    FreeCycles = Find("free_cycles");
    LiveAtDump = Find("live_at_dump");
    Continuations = Find("continuations");
    MaxSize64 = Find("max_size64");
    MallocSamples = Find("malloc_samples");
    FreeSamples = Find("free_samples");
    LiveBytes = Find("live_bytes");
    const char *UtilNames[6] = {"live_lines",         "live_touched_lines",
                                "live_line_bytes",    "live_pages",
                                "live_touched_pages", "live_page_bytes"};
    for (int I = 0; I < 6; I++)
      Util[I] = Find(UtilNames[I]);
    PeakObjects = Find("peak_objects");
    PeakBytes = Find("peak_bytes");
    Temporary = Find("temporary");
    const char *Names[4] = {"small", "medium", "large", "xlarge"};
    for (int I = 0; I < 4; I++) {
      Class[I] = Find(("bytes_" + std::string(Names[I])).c_str());
      LiveClass[I] = Find(("live_bytes_" + std::string(Names[I])).c_str());
    }
  }
};

struct DumpRef {
  size_t File, Index;
  size_t Process;
  uint64_t Order; // position within its process: checkpoint k, exit last
  // Noted when the file is first read, which is not kept: the dump's bytes
  // (size and hash, to tell the same dump given twice from another run)
  // and its peak (tag 1), if it has one.
  uint64_t Size = 0, Hash = 0;
  bool HasPeak = false;
  uint64_t PeakBytes = 0;
};

// A section of a process's last dump (false sharing, the leak check) kept
// past its file, which is freed once its dumps are added.
struct KeptSection {
  bool Present = false;
  uint64_t Tag = 0;
  std::vector<uint8_t> Bytes;
  std::string Path; // the file it came from, for messages
  size_t Dump = 0;  // and the dump's index in it
  void keep(const hpr_section_t *S, const char *From, size_t Index) {
    Present = S != nullptr;
    Tag = S ? S->tag : 0;
    Bytes.assign(S ? S->data : nullptr, S ? S->data + S->size : nullptr);
    Path = From;
    Dump = Index;
  }
  // The section, pointing into Bytes; valid while this object is unchanged.
  hpr_section_t view() const {
    return {Tag, Bytes.size(), Bytes.data()};
  }
};

// Where each PC of one dump belongs.
struct SegmentMap {
  struct Seg {
    uint64_t Start, End, Bias;
    uint32_t Module;
  };
  std::vector<Seg> Segs; // sorted by Start
  uint32_t Main = NoModule;
  // The path this dump's map records for the program: a module is one per
  // build id, named by the first path seen, and one binary runs under
  // several names (git and its hard links git-upload-pack, ...; busybox).
  std::string MainPath;
  void locate(uint64_t PC, uint32_t &Module, uint64_t &Address) const {
    auto It = std::upper_bound(
        Segs.begin(), Segs.end(), PC,
        [](uint64_t V, const Seg &S) { return V < S.Start; });
    if (It != Segs.begin() && PC < std::prev(It)->End) {
      Module = std::prev(It)->Module;
      Address = PC - std::prev(It)->Bias;
      return;
    }
    Module = NoModule;
    Address = PC;
  }
};

struct PairHash {
  size_t operator()(const std::pair<uint32_t, uint64_t> &K) const {
    return std::hash<uint64_t>()(K.second * 31 + K.first);
  }
};

// The load's table of contexts by stack (over all processes).  As a
// std::unordered_map it held a node per context (a stack as a std::string
// key, 64 bytes, and the string's own block past 15 bytes) and a bucket
// array, while the file was still in memory (docs/performance.md).  It
// holds numbers in an array of a power of two slots, at most 3/4 full,
// probed linearly; a slot is empty when its context is NoId.
constexpr uint32_t NoId = UINT32_MAX;

// Context ids by stack: each slot holds an id and 32 bits of its stack's
// hash (enough to grow without the stacks); the stacks are compared
// through the caller's Same(Id), so the table keeps no copy of them.
class ContextTable {
public:
  static uint32_t hash(const std::vector<uint32_t> &Stack) {
    uint64_t H = llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(Stack.data()),
        Stack.size() * sizeof(uint32_t)));
    return static_cast<uint32_t>(H ^ H >> 32);
  }
  // The id of the context of hash H that Same(Id) says has the stack, or
  // NewId, inserted (second: true).
  template <typename SameFn>
  std::pair<uint32_t, bool> insert(uint32_t H, uint32_t NewId, SameFn Same) {
    size_t Mask = Slots.size() - 1, I = H & Mask;
    for (; !Slots.empty() && Slots[I].Id != NoId; I = (I + 1) & Mask)
      if (Slots[I].Hash == H && Same(Slots[I].Id))
        return {Slots[I].Id, false};
    if ((Used + 1) * 4 > Slots.size() * 3) {
      grow();
      I = empty(H);
    }
    Slots[I] = {H, NewId};
    Used++;
    return {NewId, true};
  }

private:
  struct Slot {
    uint32_t Hash = 0, Id = NoId;
  };
  size_t empty(uint32_t H) const {
    size_t Mask = Slots.size() - 1, I = H & Mask;
    while (Slots[I].Id != NoId)
      I = (I + 1) & Mask;
    return I;
  }
  void grow() {
    std::vector<Slot> Old = std::move(Slots);
    Slots.assign(std::max<size_t>(16, Old.size() * 2), Slot());
    for (const Slot &S : Old)
      if (S.Id != NoId)
        Slots[empty(S.Hash)] = S;
  }
  std::vector<Slot> Slots;
  size_t Used = 0;
};

// A process's contexts by the stack ids its last dump's leak check (tag
// 10) and false-sharing (tag 6) sections name, the only use of stack ids
// past a dump: the ids, sorted, and each one's context.  A table of every
// stack id was 25 MB at a million contexts, where such sections name none
// or a few (a leak section is in every exit dump, empty when nothing
// leaked).
class StackIdTable {
public:
  // The ids to keep (the sections' rows, read in the first pass).
  void want(std::vector<uint64_t> Named) {
    std::sort(Named.begin(), Named.end());
    Named.erase(std::unique(Named.begin(), Named.end()), Named.end());
    Keys = std::move(Named);
    Ids.assign(Keys.size(), NoId);
  }
  void set(uint64_t Key, uint32_t Id) {
    if (Keys.empty())
      return;
    auto It = std::lower_bound(Keys.begin(), Keys.end(), Key);
    if (It != Keys.end() && *It == Key)
      Ids[It - Keys.begin()] = Id;
  }
  // Key's context: NoId if no record of the process has it (or it is not
  // one of the ids wanted).
  uint32_t get(uint64_t Key) const {
    auto It = std::lower_bound(Keys.begin(), Keys.end(), Key);
    return It != Keys.end() && *It == Key ? Ids[It - Keys.begin()] : NoId;
  }

private:
  std::vector<uint64_t> Keys;
  std::vector<uint32_t> Ids;
};

// Appends the stack ids that D's leak check and false-sharing sections
// name, for StackIdTable::want.  A damaged section names none here; the
// second pass reports it (leaks) or leaves it out (false sharing), as it
// did.
static void namedStackIds(const hpr_dump_t &D, std::vector<uint64_t> &Out) {
  if (const hpr_section_t *S = hpr_section(&D, HPR_TAG_LEAKS)) {
    char Msg[256];
    if (hpr_leaks_check(S, Msg, sizeof(Msg))) {
      hpr_leak_head_t H = hpr_leaks_head(S);
      for (uint64_t I = 0; I < H.nrows; I++)
        Out.push_back(hpr_leaks_row(S, I).stack_id);
    }
  }
  // Loader::addFalseSharing's layout and checks.
  const uint64_t Head = 10;
  if (const hpr_section_t *S = hpr_section(&D, 6); S && S->size >= Head * 8) {
    uint64_t W[10];
    memcpy(W, S->data, sizeof(W));
    uint64_t RowWords = W[8], N = W[9];
    if (RowWords < 5 || N > (S->size / 8 - Head) / RowWords)
      return;
    for (uint64_t I = 0; I < N; I++) {
      uint64_t Row[2];
      memcpy(Row, S->data + 8 * (Head + I * RowWords), sizeof(Row));
      Out.insert(Out.end(), Row, Row + 2);
    }
  }
}

class Loader {
public:
  Loader(Profile &P, const FirstCheckpoints *From) : P(P), From(From) {}
  ~Loader() {
    for (hpo_section_t &C : Cost)
      hpo_free(&C);
  }
  bool load(const std::vector<std::string> &Inputs, std::string &Err);

private:
  bool expand(const std::vector<std::string> &Inputs,
              std::vector<std::string> &Paths, std::vector<uint64_t> &UpTo,
              std::vector<std::string> &Given, std::string &Err);
  uint32_t module(const std::string &BuildId, const std::string &Path,
                  bool Main, uint64_t Start);
  SegmentMap segments(const hpr_dump_t &D);
  bool addDump(const hpr_file_t &F, const DumpRef &R, bool Last, bool PeakDump,
               std::string &Err);
  bool addHeapUtilization(const hpr_dump_t &D, const char *Path,
                          size_t Index, std::string &Err);
  bool addFalseSharing(std::string &Err);
  bool addLeaks(std::string &Err);

  Profile &P;
  const FirstCheckpoints *From; // checkpoints to leave out, or null
  ExtIndex Ext;
  std::map<std::string, uint32_t> ModuleIds;
  std::unordered_map<std::pair<uint32_t, uint64_t>, uint32_t, PairHash>
      LocationIds;
  ContextTable ContextIds;
  std::map<uint64_t, uint32_t> LimitLocations; // malloc_context_size -> marker
  uint32_t NoFramesLoc = UINT32_MAX;           // the empty stack's marker
  bool StackLimitSeen = false; // P.StackLimit holds the first dump's
  bool AllocatorSeen = false;  // P.Allocator holds the first dump's
  // While loading, a context's frees field holds the sum of each dump's
  // events (objects it counts and continuations) less those still live at
  // it, as an int64 (in sampled mode each dump's are estimates); over a
  // process's dumps this is its allocations, plus the objects it inherited
  // at fork, less its live ones at the end.  FreesExact: every dump had the
  // continuations field.  (Two arrays of a u64 per context held this and
  // the least size until the end: 16 MB at a million contexts.)
  bool FreesExact = true;
  // Per process: the contexts of the stack ids its last dump's sections
  // name (ids are stable in a process), and its last dump's false-sharing (tag 6) and leak check (tag 10)
  // sections, if any, with the file and dump the latter is in.
  std::vector<StackIdTable> ProcContexts;
  std::vector<KeptSection> ProcSharing, ProcLeaks;
  Bin Bins[1026];
  hpo_section_t Cost[3] = {}; // tags 2-4 added up
  bool AnyDump = false;
};
} // namespace

static void freeFile(hpr_file_t *F) {
  hpr_free(F);
  delete F;
}

using FilePtr = std::unique_ptr<hpr_file_t, void (*)(hpr_file_t *)>;

// Reads one profile file; null, with Err naming the file, if it cannot.
// Mapped, not copied (hpr_map): the file was most of the load's peak, and
// each part of it is read once or twice, its pages given back after
// (addDump).
static FilePtr readFile(const std::string &Path, std::string &Err) {
  FilePtr F(new hpr_file_t(), freeFile);
  char Msg[512];
  if (!hpr_map(Path.c_str(), F.get(), Msg, sizeof(Msg))) {
    Err = Path + ": " + Msg;
    F.reset();
  }
  return F;
}

bool Loader::expand(const std::vector<std::string> &Inputs,
                    std::vector<std::string> &Paths,
                    std::vector<uint64_t> &UpTos,
                    std::vector<std::string> &Givens, std::string &Err) {
  for (const std::string &Given : Inputs) {
    // PATH@N (hpr_split_checkpoint): PATH's checkpoints 1 to N.
    std::string In = Given;
    uint64_t UpTo = UINT64_MAX;
    char *Split = nullptr;
    int Sel = hpr_split_checkpoint(Given.c_str(), &Split, &UpTo);
    if (Sel < 0) {
      Err = Given + ": " + HPR_CHECKPOINT_ZERO;
      return false;
    }
    if (Sel > 0) {
      In = Split;
      free(Split);
    }
    // "-": the standard input (hpr_read), a profile rather than a directory.
    struct stat St;
    if (!hpr_is_stdin(In.c_str()) && stat(In.c_str(), &St) != 0) {
      Err = In + ": cannot open: " + strerror(errno);
      return false;
    }
    if (hpr_is_stdin(In.c_str()) || !S_ISDIR(St.st_mode)) {
      Paths.push_back(In);
      UpTos.push_back(UpTo);
      Givens.push_back(Given);
      continue;
    }
    char **Names;
    size_t NumNames;
    char Why[256];
    if (!hpf_list_profiles(In.c_str(), &Names, &NumNames, Why, sizeof(Why))) {
      Err = In + ": " + Why;
      return false;
    }
    std::vector<std::string> Found(Names, Names + NumNames);
    hpf_free_list(Names, NumNames);
    Paths.insert(Paths.end(), Found.begin(), Found.end());
    UpTos.insert(UpTos.end(), Found.size(), UpTo);
    Givens.insert(Givens.end(), Found.size(), Given);
  }
  return true;
}

uint32_t Loader::module(const std::string &BuildId, const std::string &Path,
                        bool Main, uint64_t Start) {
  // A module is its build id; without one, its path; without either (an
  // old profile of a program linked without --build-id), the main program
  // is one module and every other segment its own.
  std::string Key = !BuildId.empty() ? "b:" + BuildId
                    : !Path.empty()  ? "p:" + Path
                    : Main           ? std::string("main")
                                     : "s:" + std::to_string(Start);
  auto [It, New] = ModuleIds.emplace(Key, P.Modules.size());
  if (New) {
    Module M;
    M.Path = Path;
    M.BuildId = BuildId;
    P.Modules.push_back(M);
  }
  Module &M = P.Modules[It->second];
  M.Main |= Main;
  if (M.Path.empty())
    M.Path = Path;
  return It->second;
}

static void addCode(Module &M, uint64_t Start, uint64_t End) {
  std::pair<uint64_t, uint64_t> R(Start, End);
  if (std::find(M.Code.begin(), M.Code.end(), R) == M.Code.end())
    M.Code.push_back(R);
}

SegmentMap Loader::segments(const hpr_dump_t &D) {
  // Extension v2 records each module's path; v1 profiles have only the
  // segments' build ids.
  std::vector<ModuleRec> Recs;
  for (uint64_t I = 0; I < D.nmodules; I++)
    Recs.push_back({D.modules[I].bias,
                    hexBuildId(D.modules[I].build_id,
                               D.modules[I].build_id_size),
                    D.modules[I].path ? D.modules[I].path : ""});
  SegmentMap SM;
  for (uint64_t I = 0; I < D.nsegs; I++) {
    const hpr_segment_t &S = D.segs[I];
    std::string BuildId = hexBuildId(S.build_id, S.build_id_size);
    std::string Path;
    for (const ModuleRec &R : Recs)
      if (R.Bias == S.offset && R.BuildId == BuildId) {
        Path = R.Path;
        break;
      }
    SM.Segs.push_back(
        {S.start, S.end, S.offset, module(BuildId, Path, I == 0, S.start)});
    P.Modules[SM.Segs.back().Module].Loaded = true;
    addCode(P.Modules[SM.Segs.back().Module], S.start - S.offset,
            S.end - S.offset);
    if (I == 0) {
      SM.Main = SM.Segs.back().Module;
      SM.MainPath = Path;
    }
  }
  auto ByStart = [](const SegmentMap::Seg &A, const SegmentMap::Seg &B) {
    return A.Start < B.Start;
  };
  std::sort(SM.Segs.begin(), SM.Segs.end(), ByStart);
  // Section 11: the modules dlclose unloaded before the dump, latest
  // first.  An unloaded module's segment gets only the addresses no loaded
  // module, nor one unloaded later, holds: those are theirs now.
  for (uint64_t I = 0; I < D.nunloaded; I++) {
    const hpr_unloaded_t &U = D.unloaded[I];
    uint32_t Mod =
        module(hexBuildId(U.build_id, U.build_id_size), U.path,
               /*Main=*/false, U.nsegs ? U.segs[0][0] : 0);
    Module &M = P.Modules[Mod];
    M.UnloadedMs = M.Unloaded ? std::max(M.UnloadedMs, U.unloaded_ms)
                              : U.unloaded_ms;
    M.Unloaded = true;
    std::vector<SegmentMap::Seg> Pieces;
    for (uint64_t K = 0; K < U.nsegs; K++) {
      uint64_t Cur = U.segs[K][0], End = U.segs[K][1];
      addCode(M, Cur - U.bias, End - U.bias);
      for (const SegmentMap::Seg &S : SM.Segs) {
        if (S.End <= Cur)
          continue;
        if (S.Start >= End)
          break;
        if (S.Start > Cur)
          Pieces.push_back({Cur, S.Start, U.bias, Mod});
        Cur = std::max(Cur, S.End);
        if (Cur >= End)
          break;
      }
      if (Cur < End)
        Pieces.push_back({Cur, End, U.bias, Mod});
    }
    SM.Segs.insert(SM.Segs.end(), Pieces.begin(), Pieces.end());
    std::sort(SM.Segs.begin(), SM.Segs.end(), ByStart);
  }
  return SM;
}

// To += V; false when the sum passes MaxCount (a corrupt profile's count:
// summed modulo 2^64 it wrapped, and JSON's int64 showed it negative).
static bool addCount(uint64_t &To, uint64_t V) {
  return !__builtin_add_overflow(To, V, &To) && To <= MaxCount;
}

// Tagged section 7 (heapprof_util.h): the heap-wide utilization at the
// dump, eight u64 words; a process's last dump's counts, summed checked
// against MaxCount (false after Err names the file).
bool Loader::addHeapUtilization(const hpr_dump_t &D, const char *Path,
                                size_t Index, std::string &Err) {
  const hpr_section_t *S = hpr_section(&D, 7);
  if (!S || S->size < 8 * 8) {
    P.Util.Known = false;
    return true;
  }
  uint64_t W[8];
  memcpy(W, S->data, sizeof(W));
  HeapUtilization &U = P.Util;
  uint64_t *To[8] = {&U.Lines,        &U.TouchedLines, &U.TouchedLineLiveBytes,
                     &U.Pages,        &U.TouchedPages, &U.TouchedPageLiveBytes,
                     &U.LiveBytes,    &U.LiveChunks};
  bool Fit = true;
  for (int I = 0; I < 8; I++)
    Fit &= addCount(*To[I], W[I]);
  if (!Fit) {
    Err = std::string(Path) + ": corrupt: dump " + std::to_string(Index) +
          ": its heap utilization section's (tag 7) counts, with those read "
          "before it, add up to more than 2^63 - 1";
    return false;
  }
  return true;
}

// Tagged section 6 (heapprof_falseshare.h): u64 objects, unplaced, lines,
// shared_lines, active_lines, active_events, same_object_events,
// dropped_pairs, row_words, npairs, then npairs rows of row_words words
// starting {stack id, stack id, lines, active events, active lines}, then
// (runtimes since the real layout) u64 layout: 0 simulated, 1 real.
// The process's last dump's.  Its totals and rows are summed checked
// against MaxCount: false after Err names the file whose section passed it.
bool Loader::addFalseSharing(std::string &Err) {
  FalseSharing &FS = P.Sharing;
  struct Sum {
    uint64_t Lines = 0, Events = 0, ALines = 0;
  };
  std::map<std::pair<uint32_t, uint32_t>, Sum> Pairs;
  // Every pair's counts added up, over all pairs: after symbolization
  // mergeSameStacks adds up the pairs of contexts whose frames read the
  // same (two calls a macro expands on one line), which no sum here
  // bounded, so two pairs of 2^62 lines each were one of 2^63 (JSON's
  // int64: -2^63).  A merged pair is a part of this sum.
  Sum All;
  const uint64_t Head = 10;
  for (size_t Proc = 0; Proc < ProcSharing.size(); Proc++) {
    if (!ProcSharing[Proc].Present)
      continue;
    hpr_section_t View = ProcSharing[Proc].view();
    const hpr_section_t *S = &View;
    if (S->size < Head * 8)
      continue;
    uint64_t W[10];
    memcpy(W, S->data, sizeof(W));
    uint64_t RowWords = W[8], N = W[9];
    if (RowWords < 5 || N > (S->size / 8 - Head) / RowWords)
      continue; // damaged
    uint64_t Layout = 0; // no word after the rows: the simulated layout
    if (S->size / 8 > Head + N * RowWords)
      memcpy(&Layout, S->data + 8 * (Head + N * RowWords), 8);
    auto L = Layout == 1 ? FalseSharing::Real : FalseSharing::Simulated;
    FS.Layout = !FS.Known || FS.Layout == L ? L : FalseSharing::Mixed;
    FS.Known = true;
    uint64_t *To[8] = {&FS.Objects,     &FS.Unplaced,        &FS.Lines,
                       &FS.SharedLines, &FS.ActiveLines,     &FS.ActiveEvents,
                       &FS.SameObjectEvents, &FS.DroppedPairs};
    bool Fit = true;
    for (int I = 0; I < 8; I++)
      Fit &= addCount(*To[I], W[I]);
    const auto &Ids = ProcContexts[Proc];
    for (uint64_t I = 0; I < N; I++) {
      uint64_t Row[5];
      memcpy(Row, S->data + 8 * (Head + I * RowWords), sizeof(Row));
      uint32_t A = Ids.get(Row[0]), B = Ids.get(Row[1]);
      if (A == NoId || B == NoId) {
        // a stack no dump of the process recorded
        Fit &= addCount(FS.DroppedPairs, 1);
        continue;
      }
      Fit &= addCount(All.Lines, Row[2]);
      Fit &= addCount(All.Events, Row[3]);
      Fit &= addCount(All.ALines, Row[4]);
      Sum &X = Pairs[{std::min(A, B), std::max(A, B)}];
      X.Lines += Row[2]; // at most All's
      X.Events += Row[3];
      X.ALines += Row[4];
    }
    if (!Fit) {
      Err = ProcSharing[Proc].Path + ": corrupt: dump " +
            std::to_string(ProcSharing[Proc].Dump) +
            ": its false-sharing section's (tag 6) counts, with those read "
            "before it, add up to more than 2^63 - 1";
      return false;
    }
  }
  for (const auto &[K, X] : Pairs)
    FS.Pairs.push_back({K.first, K.second, X.Lines, X.Events, X.ALines});
  return true;
}

// Tagged section 10 (heapprof_leak_section.h): the leak check at exit, of
// each process's last dump, added over processes; its rows name contexts by
// the process's stack ids.  Known only when every process has one: else the
// leaked counts would cover some processes and the live ones all.
bool Loader::addLeaks(std::string &Err) {
  LeakCheck &L = P.Leaks;
  L.Known = !ProcLeaks.empty();
  for (const KeptSection &X : ProcLeaks)
    L.Known &= X.Present;
  for (Field F : {Field::leaked_objects, Field::leaked_bytes,
                  Field::indirect_objects, Field::indirect_bytes})
    P.Have[static_cast<unsigned>(F)] &= L.Known;
  if (!L.Known)
    return true;
  for (size_t Proc = 0; Proc < ProcLeaks.size(); Proc++) {
    const KeptSection &X = ProcLeaks[Proc];
    hpr_section_t S = X.view();
    hpr_leak_head_t H = hpr_leaks_head(&S);
    // Summed checked against MaxCount, as the contexts' counts are.
    bool Fit = addCount(L.Objects, H.objects);
    Fit &= addCount(L.RootBytes, H.root_bytes);
    Fit &= addCount(L.DirectObjects, H.direct_objects);
    Fit &= addCount(L.DirectBytes, H.direct_bytes);
    Fit &= addCount(L.IndirectObjects, H.indirect_objects);
    Fit &= addCount(L.IndirectBytes, H.indirect_bytes);
    Fit &= addCount(L.ThreadsRunning, H.threads_running);
    const auto &Ids = ProcContexts[Proc];
    for (uint64_t I = 0; I < H.nrows; I++) {
      hpr_leak_row_t Row = hpr_leaks_row(&S, I);
      uint32_t Id = Ids.get(Row.stack_id);
      if (Id == NoId) {
        Err = X.Path + ": corrupt: dump " + std::to_string(X.Dump) +
              ": the leaks section (tag 10) has a row for stack id " +
              std::to_string(Row.stack_id) +
              ", which no record of its process has";
        return false;
      }
      Unpacked C(P.Contexts[Id].C);
      Fit &= addCount(C[Field::leaked_objects], Row.direct_objects);
      Fit &= addCount(C[Field::leaked_objects], Row.indirect_objects);
      Fit &= addCount(C[Field::leaked_bytes], Row.direct_bytes);
      Fit &= addCount(C[Field::leaked_bytes], Row.indirect_bytes);
      Fit &= addCount(C[Field::indirect_objects], Row.indirect_objects);
      Fit &= addCount(C[Field::indirect_bytes], Row.indirect_bytes);
      C.store(P.Contexts[Id].C);
    }
    if (!Fit) {
      Err = X.Path + ": corrupt: dump " + std::to_string(X.Dump) +
            ": its leaks section's (tag 10) counts, with those read before "
            "it, add up to more than 2^63 - 1";
      return false;
    }
  }
  return true;
}

bool Loader::addDump(const hpr_file_t &F, const DumpRef &R, bool Last,
                     bool PeakDump, std::string &Err) {
  const hpr_dump_t &D = F.dumps[R.Index];
  SegmentMap SM = segments(D);
  P.Processes[R.Process].MainModule = SM.Main;
  if (!SM.MainPath.empty())
    P.Processes[R.Process].Program = SM.MainPath;

  // Each record's stack: the last of its id, searched for in the stacks
  // sorted by id (a hash map of them held 240,000 nodes, 34 MB, at the
  // peak of a report of that many contexts).
  std::vector<const hpr_stack_t *> Stacks(D.nstacks);
  for (uint64_t I = 0; I < D.nstacks; I++)
    Stacks[I] = &D.stacks[I];
  std::stable_sort(Stacks.begin(), Stacks.end(),
                   [](const hpr_stack_t *A, const hpr_stack_t *B) {
                     return A->id < B->id;
                   });
  auto FindStack = [&Stacks](uint64_t Id) -> const hpr_stack_t * {
    auto It = std::upper_bound(
        Stacks.begin(), Stacks.end(), Id,
        [](uint64_t Id, const hpr_stack_t *S) { return Id < S->id; });
    return It == Stacks.begin() || It[-1]->id != Id ? nullptr : It[-1];
  };

  auto ExtHas = [&](int Idx) {
    return D.has_ext && Idx >= 0 && static_cast<uint64_t>(Idx) < D.ext_nfields;
  };
  auto ExtGet = [&](const hpr_mib_t &M, int Idx) -> uint64_t {
    return ExtHas(Idx) ? hpr_ext(&D, &M, static_cast<uint64_t>(Idx)) : 0;
  };
  // A field is known only if every dump recorded it.
  auto Need = [&](Field Fl, bool Has) {
    P.Have[static_cast<unsigned>(Fl)] &= Has;
  };
  Need(Field::live_objects, ExtHas(Ext.LiveAtDump));
  Need(Field::frees, ExtHas(Ext.LiveAtDump));
  FreesExact &= ExtHas(Ext.Continuations);
  Need(Field::live_bytes, ExtHas(Ext.LiveBytes));
  Need(Field::granules, ExtHas(Ext.Granules));
  Need(Field::touched_granules, ExtHas(Ext.TouchedGranules));
  Need(Field::pages, ExtHas(Ext.Pages));
  Need(Field::touched_pages, ExtHas(Ext.TouchedPages));
  Need(Field::malloc_cycles, ExtHas(Ext.MallocCycles));
  Need(Field::free_cycles, ExtHas(Ext.FreeCycles));
  Need(Field::malloc_samples, ExtHas(Ext.MallocSamples));
  Need(Field::free_samples, ExtHas(Ext.FreeSamples));
  // Sampled mode sees only the sampled allocations: no temporaries.
  Need(Field::temporary, ExtHas(Ext.Temporary) && !hpr_section(&D, 8));
  Field ClassF[4] = {Field::bytes_small, Field::bytes_medium, Field::bytes_large,
                     Field::bytes_xlarge};
  Field LiveClassF[4] = {Field::live_bytes_small, Field::live_bytes_medium,
                         Field::live_bytes_large, Field::live_bytes_xlarge};
  for (int I = 0; I < 4; I++) {
    Need(ClassF[I], ExtHas(Ext.Class[I]));
    Need(LiveClassF[I], ExtHas(Ext.LiveClass[I]));
  }
  Field UtilF[6] = {Field::live_lines,         Field::live_touched_lines,
                    Field::live_line_bytes,    Field::live_pages,
                    Field::live_touched_pages, Field::live_page_bytes};
  for (int I = 0; I < 6; I++)
    Need(UtilF[I], ExtHas(Ext.Util[I]));
  if (Last) {
    if (!addHeapUtilization(D, F.path, R.Index, Err))
      return false;
    ProcSharing[R.Process].keep(hpr_section(&D, 6), F.path, R.Index);
    ProcLeaks[R.Process].keep(hpr_section(&D, HPR_TAG_LEAKS), F.path, R.Index);
  }

  // How this dump's stacks were taken (tag 12; absent before it existed).
  uint64_t Limit = 0;
  if (const hpr_section_t *S = hpr_section(&D, HPR_TAG_STACKS);
      S && S->size >= 8)
    memcpy(&Limit, S->data, 8);
  P.StackLimit = !StackLimitSeen || P.StackLimit == Limit ? Limit : 0;
  StackLimitSeen = true;

  // The command line (tag 14): the same in every dump of a process.
  if (const hpr_section_t *S = hpr_section(&D, HPR_TAG_COMMAND)) {
    uint64_t Flags, Argc, Len;
    const char *Args;
    if (!hpr_command(S, &Flags, &Argc, &Args, &Len)) {
      Err = std::string(F.path) + ": corrupt: dump " + std::to_string(R.Index) +
            " has a damaged command line section (tag 14)";
      return false;
    }
    Process &Proc = P.Processes[R.Process];
    Proc.Command.clear();
    for (const char *A = Args, *End = Args + Len; A < End; A += strlen(A) + 1)
      Proc.Command.emplace_back(A);
    Proc.CommandTruncated = Flags & HPR_COMMAND_TRUNCATED;
  }

  // The path the program was run by (tag 15), a link's name for its
  // file: the process's name; its module keeps the file's real path.
  if (const hpr_section_t *S = hpr_section(&D, HPR_TAG_RUN_PATH)) {
    const char *Path;
    uint64_t Len;
    if (!hpr_run_path(S, &Path, &Len)) {
      Err = std::string(F.path) + ": corrupt: dump " + std::to_string(R.Index) +
            " has a damaged program path section (tag 15)";
      return false;
    }
    P.Processes[R.Process].Program.assign(Path, Len);
  }

  // Whose allocator served (tag 13).
  using AK = Profile::AllocatorKind;
  AK Kind = AK::Unknown;
  std::string APath;
  uint64_t RawKind, PathLen;
  const char *PathBytes;
  if (hpr_allocator(hpr_section(&D, HPR_TAG_ALLOCATOR), &RawKind, &PathBytes,
                    &PathLen)) {
    Kind = static_cast<AK>(RawKind + 1);
    APath.assign(PathBytes, PathLen);
  }
  if (!AllocatorSeen) {
    P.Allocator = Kind;
    P.AllocatorPath = APath;
  } else if (P.Allocator == AK::Unknown || Kind == AK::Unknown) {
    P.Allocator = AK::Unknown; // a dump that does not say: nor can we
    P.AllocatorPath.clear();
  } else if (P.Allocator != Kind || P.AllocatorPath != APath) {
    P.Allocator = AK::Several;
    P.AllocatorPath.clear();
  }
  AllocatorSeen = true;
  uint32_t LimitLoc = 0;
  if (Limit) {
    auto [It, New] = LimitLocations.emplace(Limit, P.Locations.size());
    if (New) {
      Location L;
      L.Marker = "[stack limit: " + std::to_string(Limit) + " frames]";
      P.Locations.push_back(std::move(L));
    }
    LimitLoc = It->second;
  }

  // Each record's context, found or made: every record's first (a new
  // context's stack waits in NewFrames, from NewStarts[K] for context
  // First + K), then room for the new ones (not for every record: records
  // of contexts an earlier dump or process made need none; a second process
  // of the same 100,000 contexts reserved 100,000 more), then the records'
  // numbers.
  std::vector<uint32_t> Ids(D.nmibs);
  std::vector<uint32_t> NewFrames, NewStarts{0};
  const size_t First = P.Contexts.size();
  std::vector<uint32_t> Stack;
  auto SameStack = [&](uint32_t Id) {
    if (Id < First)
      return std::equal(P.Contexts[Id].Stack.begin(),
                        P.Contexts[Id].Stack.end(), Stack.begin(), Stack.end());
    auto B = NewFrames.begin() + NewStarts[Id - First],
         E = NewFrames.begin() + NewStarts[Id - First + 1];
    return std::equal(B, E, Stack.begin(), Stack.end());
  };
  for (uint64_t I = 0; I < D.nmibs; I++) {
    const hpr_mib_t &M = D.mibs[I];
    const hpr_stack_t *SP = FindStack(M.stack_id);
    if (!SP) {
      Err = std::string(F.path) + ": corrupt: dump " + std::to_string(R.Index) +
            " has a record for stack id " + std::to_string(M.stack_id) +
            " but no such stack";
      return false;
    }
    const hpr_stack_t &S = *SP;
    Stack.clear();
    // A context always has a frame 0: an empty stack (the runtime's walk
    // found no frame of the program's: the allocator called as a thread's
    // start routine, or from above a thread's first frame) is a marker
    // that says so, not an address.
    if (!S.n) {
      if (NoFramesLoc == UINT32_MAX) {
        NoFramesLoc = static_cast<uint32_t>(P.Locations.size());
        Location L;
        L.Marker = NoFramesMarker;
        P.Locations.push_back(std::move(L));
      }
      Stack.push_back(NoFramesLoc);
    }
    for (uint64_t K = 0; K < S.n; K++) {
      uint64_t PC;
      memcpy(&PC, &S.pcs[K], 8);
      uint32_t Mod;
      uint64_t Addr;
      SM.locate(PC, Mod, Addr);
      auto [LIt, New] = LocationIds.try_emplace(std::make_pair(Mod, Addr),
                                                P.Locations.size());
      if (New) {
        Location L;
        L.Module = Mod;
        L.Address = Addr;
        P.Locations.push_back(std::move(L));
      }
      Stack.push_back(LIt->second);
    }
    if (Limit && S.n == Limit)
      Stack.push_back(LimitLoc);
    auto [Id, NewC] =
        ContextIds.insert(ContextTable::hash(Stack),
                          First + NewStarts.size() - 1, SameStack);
    if (NewC) {
      NewFrames.insert(NewFrames.end(), Stack.begin(), Stack.end());
      NewStarts.push_back(NewFrames.size());
    }
    ProcContexts[R.Process].set(M.stack_id, Id);
    Ids[I] = Id;
  }
  // The stacks were read in the order of their ids, not the file's: their
  // pages are given back once all are read; the records' below, as they
  // are read (a page read again is read from the file again).
  const uint8_t *DumpBytes = F.data + D.offset;
  hpr_drop(&F, DumpBytes, D.total_size);
  const size_t NumNew = NewStarts.size() - 1;
  // The vector's doubling held its old and new arrays together, a third
  // of the report's peak on a 48 MB profile of 60,000 contexts. Grown by
  // half at least, so that many dumps that each add a few contexts do not
  // move the array each time.
  if (First + NumNew > P.Contexts.capacity()) {
    size_t Cap = std::max<size_t>(First + NumNew,
                                  P.Contexts.capacity() * 3 / 2);
    P.Contexts.reserve(Cap);
  }
  for (size_t K = 0; K < NumNew; K++) {
    Context C;
    C.Stack.assign(NewFrames.data() + NewStarts[K],
                   NewFrames.data() + NewStarts[K + 1]);
    P.Contexts.push_back(std::move(C));
  }
  // Freed, not just emptied (`= {}` keeps the capacity).
  std::vector<uint32_t>().swap(NewFrames);
  std::vector<uint32_t>().swap(NewStarts);
  // A count above MaxCount is a corrupt one (2^63 bytes is 8 EiB): summed
  // as it was, it wrapped, and every total and percentage made of it was
  // wrong without a word; JSON and pprof, whose numbers are int64, showed
  // it negative.
  bool Overflow = false;
  auto Sum = [&Overflow](uint64_t &To, uint64_t V) {
    Overflow |= __builtin_add_overflow(To, V, &To) || To > MaxCount;
  };
  for (uint64_t I = 0; I < D.nmibs; I++) {
    const hpr_mib_t &M = D.mibs[I];
    const uint32_t Id = Ids[I];
    uint64_t MF[27]; // its fields
    for (unsigned K = 0; K < 27; K++)
      MF[K] = hpr_mib_field(&D, &M, K);
    Unpacked C(P.Contexts[Id].C);
    // The least size of the records that count objects (continuations,
    // alloc count 0, carry no sizes): none before this one when the
    // context has no allocation yet.
    if (MF[0])
      C[Field::min_size] = C[Field::allocs]
                               ? std::min(C[Field::min_size], MF[5])
                               : MF[5];
    // Deltas since the previous dump of the process: summed.
    Sum(P.Processes[R.Process].Bytes, MF[4]);
    Sum(C[Field::allocs], MF[0]);
    Sum(C[Field::accesses], MF[1]);
    Sum(C[Field::bytes], MF[4]);
    Sum(C[Field::lifetime_ms], MF[9]);
    Sum(C[Field::migrated], MF[14]);
    Sum(C[Field::lifetime_overlaps], MF[15]);
    Sum(C[Field::access_density], MF[19]);
    if (MF[0]) {
      uint64_t Max = ExtHas(Ext.MaxSize64) && M.ext
                         ? hpr_ext(&D, &M, static_cast<uint64_t>(Ext.MaxSize64))
                         : MF[6];
      C[Field::max_size] = std::max(C[Field::max_size], Max);
    }
    Sum(C[Field::granules], ExtGet(M, Ext.Granules));
    Sum(C[Field::touched_granules], ExtGet(M, Ext.TouchedGranules));
    Sum(C[Field::pages], ExtGet(M, Ext.Pages));
    Sum(C[Field::touched_pages], ExtGet(M, Ext.TouchedPages));
    Sum(C[Field::malloc_cycles], ExtGet(M, Ext.MallocCycles));
    Sum(C[Field::free_cycles], ExtGet(M, Ext.FreeCycles));
    Sum(C[Field::malloc_samples], ExtGet(M, Ext.MallocSamples));
    Sum(C[Field::free_samples], ExtGet(M, Ext.FreeSamples));
    Sum(C[Field::temporary], ExtGet(M, Ext.Temporary));
    Sum(C[Field::bytes_small], ExtGet(M, Ext.Class[0]));
    Sum(C[Field::bytes_medium], ExtGet(M, Ext.Class[1]));
    Sum(C[Field::bytes_large], ExtGet(M, Ext.Class[2]));
    Sum(C[Field::bytes_xlarge], ExtGet(M, Ext.Class[3]));
    C[Field::frees] +=
        MF[0] + ExtGet(M, Ext.Continuations) - ExtGet(M, Ext.LiveAtDump);
    // State at the dump: only the process's last dump counts.
    if (Last) {
      Sum(C[Field::live_objects], ExtGet(M, Ext.LiveAtDump));
      Sum(C[Field::live_bytes], ExtGet(M, Ext.LiveBytes));
      Sum(C[Field::live_bytes_small], ExtGet(M, Ext.LiveClass[0]));
      Sum(C[Field::live_bytes_medium], ExtGet(M, Ext.LiveClass[1]));
      Sum(C[Field::live_bytes_large], ExtGet(M, Ext.LiveClass[2]));
      Sum(C[Field::live_bytes_xlarge], ExtGet(M, Ext.LiveClass[3]));
      Sum(C[Field::live_lines], ExtGet(M, Ext.Util[0]));
      Sum(C[Field::live_touched_lines], ExtGet(M, Ext.Util[1]));
      Sum(C[Field::live_line_bytes], ExtGet(M, Ext.Util[2]));
      Sum(C[Field::live_pages], ExtGet(M, Ext.Util[3]));
      Sum(C[Field::live_touched_pages], ExtGet(M, Ext.Util[4]));
      Sum(C[Field::live_page_bytes], ExtGet(M, Ext.Util[5]));
    }
    // Every dump that holds the same peak holds the same values for the
    // contexts it has a record of.
    if (PeakDump) {
      C[Field::peak_objects] = ExtGet(M, Ext.PeakObjects);
      C[Field::peak_bytes] = ExtGet(M, Ext.PeakBytes);
    }
    C.store(P.Contexts[Id].C);
    if (I % 65536 == 65535)
      hpr_drop(&F, DumpBytes, D.total_size);
  }
  hpr_drop(&F, DumpBytes, D.total_size);
  if (Overflow) {
    Err = std::string(F.path) + ": corrupt: dump " + std::to_string(R.Index) +
          ": its counts, with those read before it, add up to more than 2^63 - 1";
    return false;
  }

  // Extension v2 always has its bin section (empty if nothing happened).
  if (!D.has_ext || D.ext_version < 2)
    P.HaveBins = false;
  for (uint64_t I = 0; I < D.nbins; I++) {
    Bin B{D.bins[I].size, D.bins[I].allocs, D.bins[I].bytes, D.bins[I].frees,
          D.bins[I].freed_bytes};
    if (B.Size > 1025) {
      Err = std::string(F.path) + ": corrupt: dump " + std::to_string(R.Index) +
            " has a size bin for " + std::to_string(B.Size) +
            " (bins go up to 1025, meaning >1024)";
      return false;
    }
    Bin &T = Bins[B.Size];
    T.Size = B.Size;
    // Counts, as the contexts' (Sum above): summed modulo 2^64 they wrapped.
    Sum(T.Allocs, B.Allocs);
    Sum(T.Bytes, B.Bytes);
    Sum(T.Frees, B.Frees);
    Sum(T.FreedBytes, B.FreedBytes);
  }
  if (Overflow) {
    Err = std::string(F.path) + ": corrupt: dump " + std::to_string(R.Index) +
          ": its size bins' counts, with those read before it, add up to more "
          "than 2^63 - 1";
    return false;
  }
  // The timeline is read from one dump, the leak check from the last ones,
  // after every dump's was checked here (load).
  static const struct {
    uint64_t Tag;
    bool (*Check)(const hpr_section_t *, char *, size_t);
  } Checked[] = {{HPR_TAG_TIMELINE, hpr_timeline_check},
                 {HPR_TAG_LEAKS, hpr_leaks_check}};
  for (const auto &C : Checked)
    if (const hpr_section_t *S = hpr_section(&D, C.Tag)) {
      char Msg[256];
      if (!C.Check(S, Msg, sizeof(Msg))) {
        Err = std::string(F.path) + ": corrupt: dump " +
              std::to_string(R.Index) + ": " + Msg;
        return false;
      }
    }
  // Sampled mode: the rate, as heapprof merge combines it.
  if (const hpr_section_t *S = hpr_section(&D, 8); S && S->size >= 8) {
    uint64_t N;
    memcpy(&N, S->data, 8);
    P.SampleBytes = !P.Sampled || P.SampleBytes == N ? N : 0;
    P.Sampled = true;
  }
  // The allocator profiler's cost sections: deltas, added up.
  for (uint64_t I = 0; I < D.nsections; I++) {
    const hpr_section_t &S = D.sections[I];
    if (S.tag < HPO_TAG_OP_CLASSES || S.tag > HPO_TAG_PMU)
      continue;
    hpo_section_t O;
    char Msg[256];
    bool Ok = hpo_decode(S.tag, S.data, S.size, &O, Msg, sizeof(Msg));
    if (Ok) {
      Ok = hpo_add(&Cost[S.tag - HPO_TAG_OP_CLASSES], &O, Msg, sizeof(Msg));
      hpo_free(&O);
    }
    if (!Ok) {
      Err = std::string(F.path) + ": corrupt: dump " +
            std::to_string(R.Index) + ": " + Msg;
      return false;
    }
  }
  return true;
}

bool Loader::load(const std::vector<std::string> &Inputs, std::string &Err) {
  std::vector<std::string> Paths;
  std::vector<uint64_t> UpTos; // per path: its last checkpoint (PATH@N)
  std::vector<std::string> Givens; // per path: the input that named it
  if (!expand(Inputs, Paths, UpTos, Givens, Err))
    return false;
  // Inputs PATH@N that selected no dump, by the input as given; the N of
  // each, and the lowest checkpoint number its dumps have (0: none).
  std::map<std::string, bool> Selected;
  std::map<std::string, uint64_t> UpToOf, FirstSeen;
  for (bool &H : P.Have)
    H = true;
  P.HaveBins = true;
  P.Util.Known = true;

  // Read every file and group its dumps by process.  A file is not kept:
  // what grouping needs is noted in its dumps' refs, and the files are read
  // again, one at a time, to add their dumps (memory: the model and one
  // file, not every file -- a --follow-exec run of a build is thousands of
  // processes and gigabytes of profiles).
  std::vector<DumpRef> Refs;
  std::vector<size_t> FileDumps(Paths.size(), 0); // dumps each file had
  // A process: pid, main program build id and load bias, and a number
  // telling apart runs that share all three (a pid reused, as in
  // containers, by a program at a fixed address).
  using ProcKey = std::tuple<uint64_t, std::string, uint64_t, std::string>;
  std::map<ProcKey, size_t> ProcIds;
  std::map<std::tuple<size_t, uint64_t>, size_t> Seen; // (process, seq)
  // Per process, its last dump so far (an index in Refs) and the stack ids
  // that dump's sections name.
  std::vector<size_t> NamedBy;
  std::vector<std::vector<uint64_t>> Named;
  // The last file read stays for the second pass, which begins with it
  // when it is the only file with dumps to add (one big profile: read and
  // parsed once, not twice); else it is freed before the next is read.
  FilePtr Kept(nullptr, freeFile);
  size_t KeptFI = SIZE_MAX;
  {
    Progress Prog("reading", Paths.size(), 1);
    for (size_t FI = 0; FI < Paths.size(); FI++) {
      Prog.update(FI);
      Kept.reset();
      FilePtr F = readFile(Paths[FI], Err);
      if (!F)
        return false;
      const hpr_file_t &File = *F;
      FileDumps[FI] = File.ndumps;
      for (size_t DI = 0; DI < File.ndumps; DI++) {
        const hpr_dump_t &D = File.dumps[DI];
        if (UpTos[FI] != UINT64_MAX) {
          bool In = D.has_ext && D.ext_seq && D.ext_seq <= UpTos[FI];
          Selected[Givens[FI]] |= In;
          UpToOf[Givens[FI]] = UpTos[FI];
          uint64_t &First = FirstSeen[Givens[FI]];
          if (D.has_ext && D.ext_seq && (!First || D.ext_seq < First))
            First = D.ext_seq;
          if (!In)
            continue;
        }
        std::string MainId =
            D.nsegs ? hexBuildId(D.segs[0].build_id, D.segs[0].build_id_size)
                    : "";
        // A checkpoint before the first one From has for its process.
        if (From && D.has_ext && D.ext_seq) {
          auto FIt = From->find(std::make_pair(D.ext_pid, MainId));
          if (FIt != From->end() && D.ext_seq < FIt->second)
            continue;
        }
        uint64_t Bias = D.nsegs ? D.segs[0].offset : 0;
        uint64_t Order = !D.has_ext ? 0 : D.ext_seq ? D.ext_seq : UINT64_MAX;
        DumpRef Ref{FI, DI, 0, Order};
        Ref.Size = D.total_size;
        Ref.Hash = hpr_dump_hash(&File, &D);
        Ref.HasPeak =
            hpr_section_field(hpr_section(&D, HPR_TAG_PEAK), hpr_peak_names,
                              hpr_num_peak_names, "peak_bytes", &Ref.PeakBytes);
        // Without heapprof's extension there is no pid: each such dump is
        // a process of its own.
        ProcKey Key = D.has_ext ? ProcKey(D.ext_pid, MainId, Bias, "")
                                : ProcKey(0, MainId, Bias,
                                          Paths[FI] + "#" + std::to_string(DI));
        // The same checkpoint of the same process twice: the same dump
        // given twice if its bytes are the same, else another run.
        bool Duplicate = false;
        for (unsigned Run = 1; D.has_ext; Run++) {
          auto PIt = ProcIds.find(Key);
          if (PIt == ProcIds.end())
            break;
          auto SIt = Seen.find(std::make_tuple(PIt->second, Order));
          if (SIt == Seen.end())
            break;
          const DumpRef &Other = Refs[SIt->second];
          if (Other.Size == Ref.Size && Other.Hash == Ref.Hash) {
            Duplicate = true;
            break;
          }
          std::get<3>(Key) = "run " + std::to_string(Run);
        }
        auto [PIt, NewP] = ProcIds.emplace(Key, P.Processes.size());
        if (NewP) {
          Process Proc;
          Proc.Pid = D.has_ext ? D.ext_pid : 0;
          P.Processes.push_back(Proc);
        }
        Process &Proc = P.Processes[PIt->second];
        if (Proc.Files.empty() || Proc.Files.back() != Paths[FI])
          Proc.Files.push_back(Paths[FI]);
        if (Duplicate) {
          Proc.DuplicateDumps++;
          continue;
        }
        if (D.has_ext)
          Seen.emplace(std::make_tuple(PIt->second, Order), Refs.size());
        Proc.Dumps++;
        Proc.Ended |= Order == UINT64_MAX;
        if (D.has_ext && D.ext_seq &&
            (!Proc.FirstCheckpoint || D.ext_seq < Proc.FirstCheckpoint))
          Proc.FirstCheckpoint = D.ext_seq;
        if (D.has_ext && D.ext_seq > Proc.LastCheckpoint)
          Proc.LastCheckpoint = D.ext_seq;
        if (D.has_ext && D.ext_ms >= Proc.LastMs) {
          Proc.LastMs = D.ext_ms;
          Proc.Evictions = D.ext_evictions;
        }
        Ref.Process = PIt->second;
        Refs.push_back(Ref);
        // The stack ids the process's last dump (so far: LastRef's rule,
        // below) names in its sections.
        size_t Pr = PIt->second;
        if (NamedBy.size() <= Pr) {
          NamedBy.resize(Pr + 1, SIZE_MAX);
          Named.resize(Pr + 1);
        }
        if (NamedBy[Pr] == SIZE_MAX || Order >= Refs[NamedBy[Pr]].Order) {
          NamedBy[Pr] = Refs.size() - 1;
          Named[Pr].clear();
          namedStackIds(D, Named[Pr]);
        }
      }
      if (hpr_changed(F.get())) {
        Err = Paths[FI] + ": changed while it was read";
        return false;
      }
      Kept = std::move(F);
      KeptFI = FI;
    }
  }

  for (const auto &[Given, Any] : Selected)
    if (!Any) {
      char Why[160];
      hpr_checkpoint_none(Why, sizeof(Why), UpToOf[Given], FirstSeen[Given]);
      Err = Given + ": " + Why;
      return false;
    }

  // The last dump of each process holds its live state.
  std::vector<size_t> LastRef(P.Processes.size(), SIZE_MAX);
  for (size_t I = 0; I < Refs.size(); I++) {
    size_t &L = LastRef[Refs[I].Process];
    if (L == SIZE_MAX || Refs[I].Order >= Refs[L].Order)
      L = I;
  }
  // The peak: the process whose last dump has the most peak bytes.  Its
  // details are read with that dump, below.
  size_t PeakRef = SIZE_MAX;
  for (size_t Proc = 0; Proc < LastRef.size(); Proc++) {
    if (LastRef[Proc] == SIZE_MAX || !Refs[LastRef[Proc]].HasPeak)
      continue;
    uint64_t V = Refs[LastRef[Proc]].PeakBytes;
    P.Peak.Processes++;
    if (PeakRef == SIZE_MAX || V > P.Peak.Bytes) {
      PeakRef = LastRef[Proc];
      P.Peak.Bytes = V;
    }
  }
  P.Peak.Known = PeakRef != SIZE_MAX;
  P.Have[static_cast<unsigned>(Field::peak_objects)] &= P.Peak.Known;
  P.Have[static_cast<unsigned>(Field::peak_bytes)] &= P.Peak.Known;
  // The peak's details and the timeline, from the peak's own dump (addDump
  // checked the timeline section first).
  auto ReadPeak = [&](const hpr_dump_t &D) {
    const hpr_section_t *S = hpr_section(&D, HPR_TAG_PEAK);
    auto Get = [&](const char *Name, uint64_t &Out) {
      hpr_section_field(S, hpr_peak_names, hpr_num_peak_names, Name, &Out);
    };
    P.Peak.Pid = D.ext_pid;
    Get("peak_block_bytes", P.Peak.BlockBytes);
    Get("peak_objects", P.Peak.Objects);
    Get("peak_ms", P.Peak.Ms);
    Get("peak_contexts", P.Peak.Contexts);
    Get("threshold_bytes", P.Peak.ThresholdBytes);
    Get("snapshots", P.Peak.Snapshots);
    const hpr_section_t *O = hpr_section(&D, HPR_TAG_OVERHEAD);
    for (size_t I = 0; O && I < hpr_num_overhead_names; I++) {
      uint64_t V;
      if (hpr_section_field(O, hpr_overhead_names, hpr_num_overhead_names,
                            hpr_overhead_names[I], &V))
        P.Peak.Overhead.push_back({hpr_overhead_names[I], V});
    }
    if (const hpr_section_t *T = hpr_section(&D, HPR_TAG_TIMELINE)) {
      P.Timeline.Known = true;
      P.Timeline.Pid = D.ext_pid;
      P.Timeline.BucketMs = hpr_timeline_width(T);
      for (uint64_t I = 0; I < hpr_timeline_count(T); I++) {
        hpr_timeline_bucket_t B = hpr_timeline_row(T, I);
        P.Timeline.Buckets.push_back(
            {B.index * P.Timeline.BucketMs, B.lowest, B.highest, B.last});
      }
    }
  };

  // A dump holds its process's peak so far; the contexts of the winning
  // peak are named by every dump of that process holding the same peak
  // (peak bytes only grow: equal bytes, the same snapshot).  A context all
  // of whose chunks were freed before a checkpoint has a record only in
  // that earlier dump.
  auto SamePeak = [&](const DumpRef &R) {
    return PeakRef != SIZE_MAX && R.Process == Refs[PeakRef].Process &&
           R.HasPeak && R.PeakBytes == P.Peak.Bytes;
  };
  ProcContexts.resize(P.Processes.size());
  for (size_t Pr = 0; Pr < Named.size(); Pr++)
    ProcContexts[Pr].want(std::move(Named[Pr]));
  std::vector<std::vector<uint64_t>>().swap(Named);
  ProcSharing.resize(P.Processes.size());
  ProcLeaks.resize(P.Processes.size());
  {
    // Refs are in file order: each file with a dump to add is read again,
    // its dumps added, and the file freed before the next is read.
    Progress Prog("adding", Paths.size(), 1);
    for (size_t I = 0; I < Refs.size();) {
      size_t FI = Refs[I].File;
      Prog.update(FI);
      FilePtr F(nullptr, freeFile);
      if (FI == KeptFI)
        F = std::move(Kept);
      Kept.reset();
      if (!F)
        F = readFile(Paths[FI], Err);
      if (!F)
        return false;
      // A file that a running process rewrote meanwhile with more dumps
      // (append_dumps adds each checkpoint at the end) still has the dumps
      // the first pass saw, each checked by its hash below; its new ones
      // are left for the next report.
      if (F->ndumps < FileDumps[FI]) {
        Err = Paths[FI] + ": changed while it was read (" +
              std::to_string(FileDumps[FI]) + " dumps, then " +
              std::to_string(F->ndumps) + ")";
        return false;
      }
      hpr_file_t Named = *F;
      Named.path = Paths[FI].c_str();
      for (; I < Refs.size() && Refs[I].File == FI; I++) {
        const DumpRef &R = Refs[I];
        const hpr_dump_t &D = F->dumps[R.Index];
        if (D.total_size != R.Size || hpr_dump_hash(F.get(), &D) != R.Hash) {
          Err = Paths[FI] + ": changed while it was read (dump " +
                std::to_string(R.Index) + ")";
          return false;
        }
        if (!addDump(Named, R, LastRef[R.Process] == I, SamePeak(R), Err))
          return false;
        if (I == PeakRef)
          ReadPeak(D);
        AnyDump = true;
      }
      // Truncated or rewritten while its dumps were added: what they read
      // may be zeros, or another file's bytes.
      if (hpr_changed(F.get())) {
        Err = Paths[FI] + ": changed while it was read";
        return false;
      }
    }
  }
  if (!AnyDump)
    P.HaveBins = P.Util.Known = false;
  if (!addFalseSharing(Err) || !addLeaks(Err))
    return false;

  for (size_t I = 0; I < P.Contexts.size(); I++) {
    Counts &C = P.Contexts[I].C;
    // Objects counted, or inherited at a fork, and not live at the end
    // were freed.  Without the continuations field (runtimes before it)
    // inherited objects are not known: allocs - live_objects.  (Without
    // live_at_dump this is allocs, and the field is marked unknown.)
    if (FreesExact)
      C.set(Field::frees, static_cast<int64_t>(C.frees()) > 0 ? C.frees() : 0);
    else
      C.set(Field::frees,
            C.allocs() >= C.live_objects() ? C.allocs() - C.live_objects() : 0);
    if (!P.Total.add(C)) {
      Err = (Paths.size() == 1 ? Paths[0] : "the " + std::to_string(Paths.size()) + " inputs") +
            ": corrupt: the contexts' counts add up to more than 2^63 - 1";
      return false;
    }
  }
  // Each process's HIB table evictions (its last dump's), and their sum,
  // which the text report prints: counts as the others are.
  uint64_t Evictions = 0;
  for (const Process &Proc : P.Processes)
    if (__builtin_add_overflow(Evictions, Proc.Evictions, &Evictions) ||
        Evictions > MaxCount) {
      Err = (Proc.Evictions > MaxCount && !Proc.Files.empty()
                 ? Proc.Files.front()
                 : "the " + std::to_string(Paths.size()) + " inputs") +
            ": corrupt: the HIB table evictions add up to more than 2^63 - 1";
      return false;
    }
  if (P.HaveBins)
    for (const Bin &B : Bins)
      if (B.Allocs || B.Frees)
        P.Bins.push_back(B);
  for (int I = 0; I < 3; I++) {
    if (Cost[I].tag) {
      uint64_t Size;
      uint8_t *Bytes = hpo_encode(&Cost[I], &Size);
      if (Bytes)
        P.Cost[I].assign(Bytes, Bytes + Size);
      free(Bytes);
    }
    hpo_free(&Cost[I]);
  }

  // A process is named by its program: the path its own map records (set
  // by addDump), else its main module's, else the <exe> in
  // heapprof.<exe>.<pid>... of its first file.
  for (Process &Proc : P.Processes) {
    if (Proc.Program.empty() && Proc.MainModule != NoModule)
      Proc.Program = P.Modules[Proc.MainModule].Path;
    if (Proc.Program.empty() && !Proc.Files.empty()) {
      std::string Base = Proc.Files[0].substr(Proc.Files[0].rfind('/') + 1);
      if (Base.compare(0, 9, "heapprof.") == 0)
        Base = Base.substr(9);
      Proc.Program = Base.substr(0, Base.find('.'));
    }
  }
  return true;
}

bool heapprof::loadProfile(const std::vector<std::string> &Inputs, Profile &P,
                           std::string &Err, const FirstCheckpoints *From) {
  Loader L(P, From);
  return L.load(Inputs, Err);
}

static bool runtimeFrame(const Profile &P, const Location &L) {
  if (L.Frames.size() != 1)
    return false; // an interceptor inlines nothing into its caller
  const Frame &F = L.Frames[0];
  const std::string &N = F.Whole.empty() ? F.Function : F.Whole;
  llvm::StringRef Name(N), File(F.File);
  if (Name.starts_with("__interceptor_") || Name.starts_with("___interceptor_"))
    return true;
  for (const char *Rt : {"memprof_malloc_linux.cpp", "memprof_interceptors.cpp",
                         "memprof_new_delete.cpp"})
    if (File.ends_with(Rt))
      return true;
  return File.empty() && L.Module < P.Modules.size() &&
         P.Modules[L.Module].Main &&
         (Name.starts_with("operator new") ||
          Name.starts_with("operator delete"));
}

void heapprof::dropRuntimeFrames(Profile &P) {
  for (Context &C : P.Contexts) {
    size_t K = 0;
    while (K + 1 < C.Stack.size() && runtimeFrame(P, P.Locations[C.Stack[K]]))
      K++;
    C.Stack.trim(K, 0);
  }
}

void heapprof::unmarkWholeStacks(Profile &P) {
  for (Context &C : P.Contexts) {
    size_t N = C.Stack.size();
    if (N < 2 || P.Locations[C.Stack[N - 1]].Marker.empty())
      continue;
    const std::vector<Frame> &Outer = P.Locations[C.Stack[N - 2]].Frames;
    if (!Outer.empty() && Outer.back().Function == "main")
      C.Stack.pop_back();
  }
}

void heapprof::mergeSameStacks(Profile &P) {
  // Each distinct frame (function, file, line, column, inlined) gets a
  // number once, and each Location the numbers of its frames; a context's
  // key is then the bytes of its frames' numbers.  Equal keys are equal
  // frame sequences, as with a key spelled out in names, but the 100,000
  // contexts of a big profile no longer build 800,000 strings of names.
  std::map<std::tuple<const std::string &, const std::string &, uint32_t,
                      uint32_t, bool>,
           uint32_t>
      FrameIds;
  std::vector<std::string> LocKeys(P.Locations.size());
  for (size_t L = 0; L < P.Locations.size(); L++)
    for (const Frame &F : P.Locations[L].Frames) {
      uint32_t Id =
          FrameIds
              .emplace(std::forward_as_tuple(F.Function, F.File, F.Line,
                                             F.Column, F.Inlined),
                       FrameIds.size())
              .first->second;
      LocKeys[L].append(reinterpret_cast<const char *>(&Id), sizeof Id);
    }
  // Merged in place: the first of each stack moves down to the next free
  // slot (a second array of contexts doubled the model's memory here).
  std::unordered_map<std::string, uint32_t> Seen;
  Seen.reserve(P.Contexts.size());
  size_t Kept = 0;
  std::vector<uint32_t> NewIndex(P.Contexts.size());
  std::string Key;
  for (size_t I = 0; I < P.Contexts.size(); I++) {
    Context &C = P.Contexts[I];
    Key.clear();
    for (uint32_t L : C.Stack)
      Key += LocKeys[L];
    auto [It, New] = Seen.try_emplace(Key, Kept);
    NewIndex[I] = It->second;
    if (!New) {
      P.Contexts[It->second].C.add(C.C);
    } else {
      if (Kept != I)
        P.Contexts[Kept] = std::move(C);
      Kept++;
    }
  }
  P.Contexts.resize(Kept);
  // False-sharing pairs follow their contexts (two may become one).
  std::map<std::pair<uint32_t, uint32_t>, FalseSharingPair> Pairs;
  for (const FalseSharingPair &FP : P.Sharing.Pairs) {
    uint32_t A = NewIndex[FP.A], B = NewIndex[FP.B];
    FalseSharingPair &X = Pairs[{std::min(A, B), std::max(A, B)}];
    X.A = std::min(A, B);
    X.B = std::max(A, B);
    X.Lines += FP.Lines;
    X.ActiveEvents += FP.ActiveEvents;
    X.ActiveLines += FP.ActiveLines;
  }
  P.Sharing.Pairs.clear();
  for (const auto &KV : Pairs)
    P.Sharing.Pairs.push_back(KV.second);
}
