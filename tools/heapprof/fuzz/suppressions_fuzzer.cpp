//===- suppressions_fuzzer.cpp - libFuzzer target for --suppressions -----===//
//
// Part of heapprof.  Fuzzes suppressions.cpp: loadSuppressions, what
// `heapprof report --suppressions FILE` reads (LeakSanitizer's format), on
// the input written to a file in a directory of the fuzzer's own under
// $TMPDIR, and templateMatch, on every rule read and strings from the
// input.
//
// Properties:
//   - a failure has a message of one line that begins with the file's path
//     and a colon;
//   - a success has rules with non-empty patterns without blanks (space,
//     tab, CR) around them;
//   - templateMatch agrees with a plain backtracking matcher of the
//     documented rules (suppressions.h: the pattern occurs in the string,
//     `*` any run of characters, `^` at the start and `$` at the end
//     anchoring it) on each rule against each line of the input and a few
//     fixed names.
// A violated property prints what failed and aborts, so libFuzzer saves the
// input as a crash.
//
//===----------------------------------------------------------------------===//
#define FUZZ_NAME "suppressions_fuzzer"
#include "fuzz_scratch.h"
#include "suppressions.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

using namespace heapprof;

// Whether P (no anchors, '*' any run) matches all of S from I, J.
static bool globWhole(const std::string &P, size_t I, const std::string &S,
                      size_t J) {
  // Iterative with one backtrack point, as a glob matcher is (linear
  // enough for the fuzzer's sizes).
  size_t StarP = std::string::npos, StarS = 0;
  while (J < S.size()) {
    if (I < P.size() && P[I] == '*') {
      StarP = I++;
      StarS = J;
    } else if (I < P.size() && P[I] == S[J]) {
      I++;
      J++;
    } else if (StarP != std::string::npos) {
      I = StarP + 1;
      J = ++StarS;
    } else {
      return false;
    }
  }
  while (I < P.size() && P[I] == '*')
    I++;
  return I == P.size();
}

// The documented meaning: an unanchored end is a '*' there.
static bool reference(const std::string &Pattern, const std::string &S) {
  std::string T = Pattern;
  bool Start = !T.empty() && T[0] == '^';
  if (Start)
    T.erase(0, 1);
  bool End = !T.empty() && T.back() == '$';
  if (End)
    T.pop_back();
  return globWhole((Start ? "" : "*") + T + (End ? "" : "*"), 0, S, 0);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string Input = fuzz_scratch_file("supp.txt");
  fuzz_write_file(Input.c_str(), Data, Size);

  std::vector<Suppression> Rules;
  std::string Err;
  if (!loadSuppressions({Input}, Rules, Err)) {
    if (Err.compare(0, Input.size() + 1, Input + ":") != 0)
      fuzz_fail("the error does not begin with the file's path: '%s'", Err.c_str());
    if (Err.find('\n') != std::string::npos)
      fuzz_fail("the error is more than one line: '%s'", Err.c_str());
    return 0;
  }
  std::vector<std::string> Strings = {"", "main", "std::vector::push_back",
                                      "/src/app.c", "libc.so.6"};
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  for (size_t From = 0; From <= Text.size() && Strings.size() < 64;) {
    size_t Nl = Text.find('\n', From);
    if (Nl == std::string::npos)
      Nl = Text.size();
    Strings.push_back(Text.substr(From, Nl - From));
    From = Nl + 1;
  }
  for (const Suppression &R : Rules) {
    const std::string &Pat = R.Pattern;
    auto Blank = [](char C) { return C == ' ' || C == '\t' || C == '\r'; };
    if (Pat.empty() || Blank(Pat.front()) || Blank(Pat.back()))
      fuzz_fail("%s: the rule's pattern is '%s'", R.Where.c_str(), Pat.c_str());
    for (const std::string &S : Strings)
      if (templateMatch(Pat, S) != reference(Pat, S))
        fuzz_fail("templateMatch('%s', '%s') is %d, the documented rules say %d",
             Pat.c_str(), S.c_str(), templateMatch(Pat, S),
             reference(Pat, S));
  }
  return 0;
}
