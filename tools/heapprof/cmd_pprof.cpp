//===- cmd_pprof.cpp - heapprof pprof: the profile for go tool pprof -----===//
//
// Part of heapprof.  Writes the symbolized Profile as pprof's profile.proto
// (tools/heapprof/profile.proto), gzipped, for `go tool pprof` and the
// other readers of that format.  The messages are built as protobuf-c
// structs (generated from profile.proto at build time), packed by
// protobuf-c and compressed by zlib; the file is written whole or not at
// all (writeOutput).  What goes where: docs/formats.md, "pprof export".
//
//===----------------------------------------------------------------------===//
#include "cli.h"
#include "commands.h"
#include "profile.pb-c.h"
#include "profile_model.h"
#include "render.h"
#include "suppressions.h"
#include "symbolize.h"
#include "tables.h"

#include "llvm/Support/JSON.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace heapprof;

const char heapprof::PprofUsage[] =
    "usage: heapprof pprof -o OUT.pb.gz [options] PROFILE|DIR...\n"
    "  the symbolized profile as a gzipped pprof profile.proto, for\n"
    "  `go tool pprof`: sample types alloc_objects, alloc_space,\n"
    "  inuse_objects, inuse_space, accesses, temporary_objects,\n"
    "  leaked_objects, leaked_bytes (unreachable at exit; default\n"
    "  alloc_space)\n"
    "  -o, --output FILE  the file to write (required; - for stdout)\n"
    "  --suppressions FILE\n"
    "                     the contexts a rule (leak:PATTERN, LeakSanitizer's\n"
    "                     format) matches have no leaked_objects and\n"
    "                     leaked_bytes, as report leaves them out of its leak\n"
    "                     table; a comment says what each rule took; may be\n"
    "                     repeated\n"
    "  --binary FILE      the profiled program (or a library) if it moved;\n"
    "                     matched by build id; may be repeated\n"
    "  --debug-dir DIR    where separate debug files are (searched before\n"
    "                     /usr/lib/debug); may be repeated\n"
    "  --full-names       C++ names whole (default: without template arguments\n"
    "                     and parameters, e.g. std::map::operator[])\n";

namespace {
// The sample types, in Sample.value order, and the Counts they come from.
struct SampleType {
  const char *Type, *Unit;
  Field From;
};
const SampleType SampleTypes[] = {
    {"alloc_objects", "count", Field::allocs},
    {"alloc_space", "bytes", Field::bytes},
    {"inuse_objects", "count", Field::live_objects},
    {"inuse_space", "bytes", Field::live_bytes},
    {"accesses", "count", Field::accesses},
    {"temporary_objects", "count", Field::temporary},
    {"leaked_objects", "count", Field::leaked_objects},
    {"leaked_bytes", "bytes", Field::leaked_bytes},
};
const char DefaultType[] = "alloc_space";

// profile.proto is proto3, whose strings must be valid UTF-8: a strict
// reader (protobuf's own) rejects the whole profile over one bad byte in
// a path, a name or the command line.  Invalid sequences become U+FFFD,
// as in the HTML page and the JSON.
class Strings {
public:
  Strings() { get(""); } // string_table[0] is ""
  int64_t get(const std::string &Raw) {
    std::string S = llvm::json::isUTF8(Raw) ? Raw : llvm::json::fixUTF8(Raw);
    auto It = Index.emplace(S, Table.size());
    if (It.second)
      Table.push_back(S);
    return It.first->second;
  }
  std::vector<std::string> Table;

private:
  std::map<std::string, int64_t> Index;
};

// Everything the protobuf-c structs point to lives here, so a Profile
// message is valid as long as its Builder is.
struct Builder {
  Strings Str;
  std::vector<Perftools__Profiles__ValueType> Types;
  std::vector<Perftools__Profiles__Mapping> Mappings;
  std::vector<Perftools__Profiles__Function> Functions;
  std::vector<Perftools__Profiles__Location> Locations;
  std::vector<Perftools__Profiles__Line> Lines;
  std::vector<Perftools__Profiles__Sample> Samples;
  std::vector<uint64_t> LocationIds;
  std::vector<int64_t> Values;
  std::vector<int64_t> Comments; // string_table indices
  // The pointer arrays the messages hold.
  std::vector<Perftools__Profiles__ValueType *> TypePtrs;
  std::vector<Perftools__Profiles__Mapping *> MappingPtrs;
  std::vector<Perftools__Profiles__Function *> FunctionPtrs;
  std::vector<Perftools__Profiles__Location *> LocationPtrs;
  std::vector<Perftools__Profiles__Line *> LinePtrs;
  std::vector<Perftools__Profiles__Sample *> SamplePtrs;
  std::vector<char *> StringPtrs;
  Perftools__Profiles__ValueType PeriodType =
      PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
  Perftools__Profiles__Profile Msg = PERFTOOLS__PROFILES__PROFILE__INIT;
};
} // namespace

template <typename T> static std::vector<T *> pointers(std::vector<T> &V) {
  std::vector<T *> Ptrs;
  for (T &X : V)
    Ptrs.push_back(&X);
  return Ptrs;
}

// pprof's symbolizer.go, removeMatching: every outermost Start...End
// removed, left to right; an End with none open stops it there, keeping
// what was removed before (so "std::operator<<" or "operator->" ends it).
static std::string removeMatching(std::string Name, char Start, char End) {
  const char Both[] = {Start, End, '\0'};
  int Nesting = 0;
  size_t First = 0;
  for (size_t Cur = Name.find_first_of(Both); Cur != std::string::npos;
       Cur = Name.find_first_of(Both, Cur)) {
    if (Name[Cur] == Start) {
      if (++Nesting == 1)
        First = Cur;
    } else if (--Nesting < 0) {
      return Name;
    } else if (Nesting == 0) {
      Name.erase(First, Cur + 1 - First);
      Cur = First;
      continue;
    }
    Cur++;
  }
  return Name;
}

// A function's name as pprof's Prune matches drop_frames against it, when
// `go tool pprof` runs with its default -symbolize (Debian's go 1.19,
// cmd/vendor/github.com/google/pprof):
//  - symbolizer.go, Demangle: a function whose name is its system_name
//    (every C++ name under --full-names; a short name equal to its whole
//    one) is "not demangled yet".  demangle.Filter leaves a demangled name
//    as it is (only "_Z", "_R", "___Z" and "_GLOBAL_" names are parsed,
//    none of them a frame of std:: that this list would name), and then,
//    when the name looks like C++ (a "::", '<', '>', '[' or ']', and no
//    ".<" or "])."), the parenthesised and then the angle-bracketed parts
//    are removed (removeMatching): "void std::vector<long, ...>::
//    _M_realloc_insert<long const&>(...)" becomes "void
//    std::vector::_M_realloc_insert".  A short name (not its system_name)
//    is left alone.
//  - prune.go, simplifyFunc: a leading '.' removed, and the name cut at the
//    first '(' that does not begin "(anonymous namespace)" or end
//    "operator()".
static std::string pprofMatchName(const std::string &Name,
                                  const std::string &System) {
  std::string N = Name;
  if (Name == System && N.find(".<") == std::string::npos &&
      N.find("]).") == std::string::npos &&
      (N.find_first_of("<>[]") != std::string::npos ||
       N.find("::") != std::string::npos)) {
    N = removeMatching(N, '(', ')');
    N = removeMatching(N, '<', '>');
  }
  if (!N.empty() && N[0] == '.')
    N.erase(0, 1);
  static const char Anon[] = "(anonymous namespace)", Call[] = "operator()";
  for (size_t I = 0; I < N.size(); I++) {
    if (N.compare(I, sizeof Anon - 1, Anon) == 0) {
      I += sizeof Anon - 2;
      continue;
    }
    if (N.compare(I, sizeof Call - 1, Call) == 0) {
      I += sizeof Call - 2;
      continue;
    }
    if (N[I] == '(')
      return N.substr(0, I);
  }
  return N;
}

// drop_frames: the functions of the C++ standard library's allocator
// plumbing that report's chains pass over (chainStart: the leading
// std::/__gnu_cxx:: frames below the library function the program called),
// so that `go tool pprof -top` gives a map's nodes to std::map::operator[]
// as the report does, not every container's bytes to
// std::__new_allocator::allocate.  pprof drops a matching frame and every
// frame it called, so a name is listed only when every frame of it in every
// stack is one chainStart passes over: a function some stack shows (in a
// run of the library's frames between two of the program's too, which
// chains show as one frame but pprof keeps whole), or that called the
// program's code (a lambda through std::function), is not, and no frame of
// the program is dropped.  The names are the ones pprof
// matches (pprofMatchName), which with --full-names are pprof's own
// shortening of the whole names, so that two instantiations of one
// template are one name: listed only when no stack shows either.  "" when
// there is none.
static std::string dropFrames(const Profile &P) {
  std::set<std::string> Passed, Shown;
  for (const Context &C : P.Contexts) {
    std::vector<const Frame *> Frames = C.frames(P);
    size_t Start = chainStart(P, C);
    for (size_t I = 0; I < Frames.size(); I++) {
      const Frame &F = *Frames[I];
      // The system_name build() writes.
      const std::string &System = F.Whole.empty() ? F.Function : F.Whole;
      (I < Start ? Passed : Shown).insert(pprofMatchName(F.Function, System));
    }
  }
  std::string Rx;
  for (const std::string &Name : Passed) {
    if (Shown.count(Name) || Name.empty())
      continue;
    if (!Rx.empty())
      Rx += '|';
    for (char Ch : Name) { // regexp.QuoteMeta's set
      if (Ch && strchr("\\.+*?()|[]{}^$", Ch))
        Rx += '\\';
      Rx += Ch;
    }
  }
  return Rx;
}

// Suppressed: suppressedContexts' rule per context (empty: none); Rules
// the rules, for the comments.
static void build(const Profile &P, const std::vector<Suppression> &Rules,
                  const std::vector<int32_t> &Suppressed, Builder &B) {
  // Only the counts the profile made: temporary_objects not in sampled
  // mode's nor an older runtime's, inuse_* not in upstream MemProf's (no
  // live counts), leaked_* only with the leak check at exit.  A 0 there
  // would be a guess.
  std::vector<const SampleType *> Used;
  for (const SampleType &T : SampleTypes)
    if (P.has(T.From))
      Used.push_back(&T);
  for (const SampleType *TP : Used) {
    const SampleType &T = *TP;
    Perftools__Profiles__ValueType V = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
    V.type = B.Str.get(T.Type);
    V.unit = B.Str.get(T.Unit);
    B.Types.push_back(V);
  }
  // Mappings: one per module.  Addresses are the
  // module's file addresses (pc - load bias), so each mapping starts at 0
  // and ends after the highest address the profile has in it.
  std::vector<uint64_t> Limit(P.Modules.size(), 0);
  for (const Location &L : P.Locations)
    if (L.Module != NoModule && L.Address + 1 > Limit[L.Module])
      Limit[L.Module] = L.Address + 1;
  // pprof takes the first mapping for the main binary: `go tool pprof`
  // heads its output with that file and build id.  The modules come in
  // the order the profiles were read, a directory's in file-name order,
  // so of several programs' profiles (--follow-exec, a build's tests) it
  // was the one whose name sorted first: `gzip` for a sort that runs it,
  // `bash` for a pyenv shim's python.  The first mapping is the program
  // (a Main module) whose processes allocated the most bytes, wherever
  // their frames are (a python3 linked with a shared libpython has none in
  // its executable: its main only jumps into the library); the others keep
  // their order.  MappingId: a module's mapping id.
  size_t First = 0;
  {
    std::vector<uint64_t> MainBytes(P.Modules.size(), 0);
    for (const Process &Proc : P.Processes)
      if (Proc.MainModule != NoModule)
        MainBytes[Proc.MainModule] += Proc.Bytes;
    for (size_t I = 0; I < P.Modules.size(); I++)
      if (P.Modules[I].Main &&
          (!P.Modules[First].Main || MainBytes[I] > MainBytes[First]))
        First = I;
  }
  std::vector<uint64_t> MappingId(P.Modules.size());
  std::vector<size_t> Order;
  if (!P.Modules.empty())
    Order.push_back(First);
  for (size_t I = 0; I < P.Modules.size(); I++)
    if (I != First)
      Order.push_back(I);
  for (size_t I : Order) {
    const Module &M = P.Modules[I];
    Perftools__Profiles__Mapping Map = PERFTOOLS__PROFILES__MAPPING__INIT;
    Map.id = B.Mappings.size() + 1;
    MappingId[I] = Map.id;
    Map.memory_start = 0;
    Map.memory_limit = Limit[I];
    Map.file_offset = 0;
    Map.filename = B.Str.get(M.Path.empty() ? M.File : M.Path);
    Map.build_id = B.Str.get(M.BuildId);
    // Symbolized here: pprof must not try to symbolize it again.
    Map.has_functions = Map.has_filenames = Map.has_line_numbers =
        Map.has_inline_frames = M.Usable;
    B.Mappings.push_back(Map);
  }
  // Functions by (name, file); Lines first (their addresses must not move
  // while Locations point into them), then Locations.
  std::map<std::pair<std::string, std::string>, uint64_t> FunctionIds;
  size_t NumLines = 0;
  for (const Location &L : P.Locations)
    NumLines += L.Frames.size();
  B.Lines.reserve(NumLines);
  B.LinePtrs.reserve(NumLines);
  std::vector<size_t> FirstLine;
  for (const Location &L : P.Locations) {
    FirstLine.push_back(B.Lines.size());
    for (const Frame &F : L.Frames) { // innermost first, as pprof wants
      const std::string &System = F.Whole.empty() ? F.Function : F.Whole;
      auto Key = std::make_pair(System, F.File);
      auto It = FunctionIds.find(Key);
      if (It == FunctionIds.end()) {
        Perftools__Profiles__Function Fn = PERFTOOLS__PROFILES__FUNCTION__INIT;
        Fn.id = B.Functions.size() + 1;
        Fn.name = B.Str.get(F.Function);
        // The whole demangled name (the symbolizer gives no mangled one);
        // name is the short one the other outputs show (names.h).
        Fn.system_name = B.Str.get(System);
        Fn.filename = B.Str.get(F.File);
        B.Functions.push_back(Fn);
        It = FunctionIds.emplace(Key, Fn.id).first;
      }
      Perftools__Profiles__Line Ln = PERFTOOLS__PROFILES__LINE__INIT;
      Ln.function_id = It->second;
      Ln.line = F.Line;
      Ln.column = F.Column;
      B.Lines.push_back(Ln);
      B.LinePtrs.push_back(&B.Lines.back());
    }
  }
  for (size_t I = 0; I < P.Locations.size(); I++) {
    const Location &L = P.Locations[I];
    Perftools__Profiles__Location Loc = PERFTOOLS__PROFILES__LOCATION__INIT;
    Loc.id = I + 1;
    Loc.mapping_id = L.Module == NoModule ? 0 : MappingId[L.Module];
    Loc.address = L.Address;
    Loc.n_line = L.Frames.size();
    Loc.line = Loc.n_line ? &B.LinePtrs[FirstLine[I]] : nullptr;
    B.Locations.push_back(Loc);
  }
  // One Sample per context: its stack leaf (allocation site) first, which
  // is the Context's order and pprof's.
  size_t NumIds = 0;
  for (const Context &C : P.Contexts)
    NumIds += C.Stack.size();
  B.LocationIds.reserve(NumIds);
  B.Values.reserve(P.Contexts.size() * Used.size());
  for (size_t CI = 0; CI < P.Contexts.size(); CI++) {
    const Context &C = P.Contexts[CI];
    Perftools__Profiles__Sample S = PERFTOOLS__PROFILES__SAMPLE__INIT;
    S.n_location_id = C.Stack.size();
    S.location_id = B.LocationIds.data() + B.LocationIds.size();
    for (uint32_t L : C.Stack)
      B.LocationIds.push_back(L + 1);
    S.n_value = Used.size();
    S.value = B.Values.data() + B.Values.size();
    for (const SampleType *T : Used)
      B.Values.push_back(
          static_cast<int64_t>(leakAware(P, Suppressed, CI, T->From)));
    B.Samples.push_back(S);
  }
  // Every allocation is recorded (no sampling): the period is one byte.
  B.PeriodType.type = B.Str.get("space");
  B.PeriodType.unit = B.Str.get("bytes");
  B.Msg.default_sample_type = B.Str.get(DefaultType);
  std::string Drop = dropFrames(P);
  if (!Drop.empty())
    B.Msg.drop_frames = B.Str.get(Drop);
  // Each process's command line, once per different one (tag 14):
  // `go tool pprof -comments` prints them.
  for (const Process &Proc : P.Processes)
    if (!Proc.Command.empty()) {
      int64_t Id = B.Str.get("command: " + commandText(Proc.Command) +
                             (Proc.CommandTruncated ? " ..." : ""));
      if (std::find(B.Comments.begin(), B.Comments.end(), Id) ==
          B.Comments.end())
        B.Comments.push_back(Id);
    }
  // What each --suppressions rule took out of leaked_*, as the report
  // lists it (`go tool pprof -comments`).
  std::vector<uint64_t> Objects(Rules.size()), Bytes(Rules.size()),
      Contexts(Rules.size());
  for (size_t CI = 0; CI < Suppressed.size(); CI++)
    if (Suppressed[CI] >= 0) {
      Objects[Suppressed[CI]] += P.Contexts[CI].C.leaked_objects();
      Bytes[Suppressed[CI]] += P.Contexts[CI].C.leaked_bytes();
      Contexts[Suppressed[CI]]++;
    }
  auto Count = [](uint64_t N, const char *What) {
    return std::to_string(N) + " " + What + (N == 1 ? "" : "s");
  };
  for (size_t R = 0; R < Rules.size(); R++)
    B.Comments.push_back(B.Str.get(
        "suppressed: leak:" + Rules[R].Pattern + " (" + Rules[R].Where +
        "): " + Count(Objects[R], "object") + ", " +
        Count(Bytes[R], "byte") + ", " + Count(Contexts[R], "context")));

  B.TypePtrs = pointers(B.Types);
  B.MappingPtrs = pointers(B.Mappings);
  B.FunctionPtrs = pointers(B.Functions);
  B.LocationPtrs = pointers(B.Locations);
  B.SamplePtrs = pointers(B.Samples);
  for (std::string &S : B.Str.Table)
    B.StringPtrs.push_back(&S[0]);
  Perftools__Profiles__Profile &M = B.Msg;
  M.n_sample_type = B.TypePtrs.size();
  M.sample_type = B.TypePtrs.data();
  M.n_sample = B.SamplePtrs.size();
  M.sample = B.SamplePtrs.data();
  M.n_mapping = B.MappingPtrs.size();
  M.mapping = B.MappingPtrs.data();
  M.n_location = B.LocationPtrs.size();
  M.location = B.LocationPtrs.data();
  M.n_function = B.FunctionPtrs.size();
  M.function = B.FunctionPtrs.data();
  M.n_string_table = B.StringPtrs.size();
  M.string_table = B.StringPtrs.data();
  M.period_type = &B.PeriodType;
  M.period = 1;
  M.n_comment = B.Comments.size();
  M.comment = B.Comments.data();
}

// The gzip stream (zlib with a gzip header) of In.
static bool gzip(const std::string &In, std::string &Out) {
  z_stream Z;
  memset(&Z, 0, sizeof Z);
  if (deflateInit2(&Z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK)
    return false;
  Out.resize(deflateBound(&Z, In.size()));
  Z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(In.data()));
  Z.avail_in = In.size();
  Z.next_out = reinterpret_cast<Bytef *>(&Out[0]);
  Z.avail_out = Out.size();
  int Rc = deflate(&Z, Z_FINISH);
  Out.resize(Z.total_out);
  deflateEnd(&Z);
  return Rc == Z_STREAM_END;
}

int heapprof::cmdPprof(int Argc, char **Argv) {
  std::vector<std::string> Inputs;
  SymbolizeOptions Sym;
  std::string Output;
  std::vector<std::string> SuppressionFiles;
  std::vector<Suppression> Rules;
  Options O(PprofUsage);
  O.output(Output);
  O.symbolize(Sym);
  O.suppressions(SuppressionFiles);
  if (int Rc = O.parse(Argc, Argv, Inputs))
    return Rc;
  if (Output.empty())
    return O.usageError("no output file given (-o OUT.pb.gz)");
  if (Inputs.empty())
    return O.usageError("no profile given");
  if (!loadSuppressionFiles(SuppressionFiles, Rules))
    return 1;
  Profile P;
  if (!loadSymbolized(Inputs, Sym, P))
    return 1;
  // Without the leak check there is no leaked_* to take contexts out of:
  // the rules would be dropped without a word.
  if (!Rules.empty() && !P.has(Field::leaked_bytes))
    return inputError(Inputs[0] +
                      ": --suppressions takes contexts out of leaked_objects "
                      "and leaked_bytes, and the profile does not record "
                      "them (field leaked_bytes: no leak check at exit)");
  Builder B;
  build(P, Rules, suppressedContexts(Rules, P, Field::leaked_objects), B);
  std::string Packed(perftools__profiles__profile__get_packed_size(&B.Msg),
                     '\0');
  perftools__profiles__profile__pack(
      &B.Msg, reinterpret_cast<uint8_t *>(&Packed[0]));
  std::string Zipped;
  if (!gzip(Packed, Zipped))
    return inputError(Output + ": cannot compress the profile");
  return writeOutput(Output, Zipped) ? 0 : 1;
}
