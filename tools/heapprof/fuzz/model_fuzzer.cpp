//===- model_fuzzer.cpp - libFuzzer target for the report's loader -------===//
//
// Part of heapprof.  Fuzzes what `heapprof report`, `html`, `diff`,
// `flamegraph` and `pprof` run on a raw profile past the reader:
// profile_model.cpp's loadProfile (dumps grouped by process, records added
// up, the named stack ids of the leak check (tag 10) and false sharing (tag
// 6), the peak and overhead (tags 1, 5), the timeline (tag 9), the
// allocator profiler's cost sections (tags 2-4, heapprof_opcost.c), the
// extension fields), then tables.cpp's buildReport and the three renderers
// (text, JSON, HTML), into memory.  The input is one raw profile, written to
// a file (the loader maps files, hpr_map) in a directory of the fuzzer's
// own under $TMPDIR.
//
// Symbolization is the harness's (fakeSymbolize): symbolize() opens the
// files the profile names, which a fuzzed profile may name anything.  Each
// address becomes one or two frames from a small table of names chosen by
// the address, so the paths past symbolization are taken: interceptor
// frames dropped, [stack limit] markers after main removed, contexts
// whose frames read the same merged, C++ names shortened, standard-library
// frames skipped in call chains.
//
// Properties, not only the absence of crashes:
//   - a failure has a message of one line that begins with the input's
//     path (what the user sees after "heapprof: error: ");
//   - a success has every context's count and the total's at most
//     MaxCount (2^63 - 1, what JSON and pprof carry), also after contexts
//     are merged, and so has every false-sharing pair;
//   - the JSON report parses (llvm::json::parse), as does the one in the
//     HTML page, and the text report is not empty.
// A violated property prints what failed and aborts, so libFuzzer saves the
// input as a crash.
//
// Built by test/fuzz/CMakeLists.txt (-fsanitize=fuzzer,address, against
// LLVM's shared library as heapprof-tool is); seeds: real profiles written
// by test/fuzz/Inputs/seed_program.c (docs/testing.md, "Fuzzing").
//
//===----------------------------------------------------------------------===//
#define FUZZ_NAME "model_fuzzer"
#include "fuzz_scratch.h"
#include "names.h"
#include "profile_model.h"
#include "render.h"
#include "tables.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

using namespace heapprof;

// What symbolize() would give, from the address alone (see above).
static void fakeSymbolize(Profile &P) {
  static const char *const Names[] = {
      "main",
      "__interceptor_malloc",
      "operator new(unsigned long)",
      "std::vector<int, std::allocator<int>>::push_back(int const&)",
      "std::__new_allocator<char>::allocate(unsigned long, void const*)",
      ("(anonymous namespace)::make<Foo<int>>(int)::{lambda(int)#1}::"
       "operator()(int) const"),
      "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop",
      "hashbrown::raw::RawTable$LT$T$C$A$GT$::reserve::h5d15963c3e374117",
      "broken<(name",
      "compute",
      "??",
  };
  static const char *const Files[] = {"", "/src/app.c", "/usr/include/c++/12/bits/stl_vector.h",
                                      "memprof_malloc_linux.cpp",
                                      "/rustc/abc/library/alloc/src/vec.rs"};
  const size_t NN = sizeof(Names) / sizeof(Names[0]);
  const size_t NF = sizeof(Files) / sizeof(Files[0]);
  for (Module &M : P.Modules)
    M.File = M.Path;
  for (Location &L : P.Locations) {
    L.Frames.clear();
    if (!L.Marker.empty()) {
      Frame F;
      F.Function = L.Marker;
      L.Frames.push_back(F);
      continue;
    }
    uint64_t A = L.Address;
    if (L.Module != NoModule)
      P.Modules[L.Module].HasFrames = true;
    if ((A >> 4) & 1) { // an inlined frame first
      Frame F;
      F.Function = Names[(A >> 8) % NN];
      F.File = Files[(A >> 12) % NF];
      F.Line = static_cast<uint32_t>(A >> 16) & 0xffff;
      F.Inlined = true;
      L.Frames.push_back(F);
    }
    Frame F;
    F.Function = Names[A % NN];
    F.File = Files[(A >> 5) % NF];
    F.Line = static_cast<uint32_t>(A >> 7) & 0xff;
    L.Frames.push_back(F);
  }
}

static void checkCounts(const Profile &P, const char *When) {
  auto Check = [&](const Counts &C, const char *What, size_t I) {
    for (unsigned F = 0; F < NumFields; F++)
      if (C.get(static_cast<Field>(F)) > MaxCount)
        fuzz_fail("%s: %s %zu has %s = %llu, above 2^63 - 1", When, What, I,
             FieldNames[F],
             static_cast<unsigned long long>(C.get(static_cast<Field>(F))));
  };
  for (size_t I = 0; I < P.Contexts.size(); I++)
    Check(P.Contexts[I].C, "context", I);
  Check(P.Total, "the total", 0);
  for (size_t I = 0; I < P.Sharing.Pairs.size(); I++) {
    const FalseSharingPair &FP = P.Sharing.Pairs[I];
    if (FP.Lines > MaxCount || FP.ActiveEvents > MaxCount ||
        FP.ActiveLines > MaxCount)
      fuzz_fail("%s: false-sharing pair %zu has a count above 2^63 - 1", When, I);
    if (FP.A >= P.Contexts.size() || FP.B >= P.Contexts.size())
      fuzz_fail("%s: false-sharing pair %zu names context %u or %u of %zu", When,
           I, FP.A, FP.B, P.Contexts.size());
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string Input = fuzz_scratch_file("in.profraw");
  fuzz_write_file(Input.c_str(), Data, Size);
  Profile P;
  std::string Err;
  if (!loadProfile({Input}, P, Err)) {
    if (Err.compare(0, Input.size() + 2, Input + ": ") != 0 ||
        Err.size() == Input.size() + 2)
      fuzz_fail("the error does not begin with the input's path and a problem: "
           "'%s'",
           Err.c_str());
    if (Err.find('\n') != std::string::npos)
      fuzz_fail("the error is more than one line: '%s'", Err.c_str());
    return 0;
  }
  checkCounts(P, "loaded");
  fakeSymbolize(P);
  dropRuntimeFrames(P);
  unmarkWholeStacks(P);
  mergeSameStacks(P);
  checkCounts(P, "merged");
  shortenFunctionNames(P);

  // The table options from one input byte: the sort key, --top 0 or 10,
  // --depth 1 or 3, --leaks, --full.
  uint8_t B = Size ? Data[Size / 2] : 0;
  TableOptions T;
  T.Sort = static_cast<SortKey>(B % 8);
  T.Top = B & 8 ? 0 : 10;
  T.Depth = B & 16 ? 1 : 3;
  T.Leaks = static_cast<LeakView>((B >> 5) % 3);
  T.Full = B & 128;
  if (B & 64)
    T.Suppressions.push_back({"^std::*push_back$", "fuzz:1"});
  Report R = buildReport(P, T);

  std::string Text, Json, Html;
  llvm::raw_string_ostream TS(Text), JS(Json), HS(Html);
  renderText(R, TS);
  renderJson(R, JS);
  renderHtml(R, P, HS);
  TS.flush();
  JS.flush();
  HS.flush();
  if (Text.empty())
    fuzz_fail("the text report is empty");
  if (llvm::Expected<llvm::json::Value> V = llvm::json::parse(Json); !V) {
    std::string Why = llvm::toString(V.takeError());
    fuzz_fail("the JSON report does not parse: %s", Why.c_str());
  }
  if (Html.find("</html>") == std::string::npos)
    fuzz_fail("the HTML page has no end");
  return 0;
}
