//===- suppressions.cpp - leak suppressions, LSan's format ----------------===//
//
// Part of heapprof.  See suppressions.h.
//
//===----------------------------------------------------------------------===//
#include "suppressions.h"
#include "profile_model.h"

#include "llvm/ADT/StringRef.h"

#include <cerrno>
#include <cstring>
#include <fstream>

using namespace heapprof;

bool heapprof::loadSuppressions(const std::vector<std::string> &Paths,
                                std::vector<Suppression> &Out,
                                std::string &Err) {
  for (const std::string &Path : Paths) {
    std::ifstream In(Path);
    if (!In) {
      Err = Path + ": cannot open: " + strerror(errno);
      return false;
    }
    std::string Line;
    for (unsigned N = 1; std::getline(In, Line); N++) {
      llvm::StringRef T = llvm::StringRef(Line).trim(" \t\r");
      if (T.empty() || T.front() == '#')
        continue;
      std::string Where = Path + ":" + std::to_string(N);
      if (!T.contains(':')) {
        Err = Where + ": not a suppression: '" + T.str() +
              "' (one rule a line: leak:PATTERN)";
        return false;
      }
      auto [TypeRef, PatternRef] = T.split(':');
      std::string Type = TypeRef.trim(" \t\r").str();
      std::string Pattern = PatternRef.trim(" \t\r").str();
      if (Type != "leak") {
        Err = Where + ": unknown suppression type '" + Type +
              "' (heapprof reads leak:PATTERN)";
        return false;
      }
      if (Pattern.empty()) {
        Err = Where + ": leak: without a pattern";
        return false;
      }
      Out.push_back({Pattern, Where});
    }
    if (In.bad()) {
      Err = Path + ": cannot read: " + strerror(errno);
      return false;
    }
  }
  return true;
}

bool heapprof::templateMatch(const std::string &Pattern, const std::string &S) {
  std::string T = Pattern;
  bool Start = !T.empty() && T[0] == '^';
  if (Start)
    T.erase(0, 1);
  bool End = !T.empty() && T.back() == '$';
  if (End)
    T.pop_back();
  // The pieces between the stars, each found after the one before it.
  std::vector<std::string> Pieces;
  size_t From = 0;
  for (size_t Star; (Star = T.find('*', From)) != std::string::npos;
       From = Star + 1)
    Pieces.push_back(T.substr(From, Star - From));
  Pieces.push_back(T.substr(From));
  size_t At = 0;
  for (size_t I = 0; I < Pieces.size(); I++) {
    const std::string &Piece = Pieces[I];
    bool Last = I + 1 == Pieces.size();
    if (I == 0 && Start) {
      if (S.compare(0, Piece.size(), Piece) != 0)
        return false;
      At = Piece.size();
      if (Last && End)
        return At == S.size();
      continue;
    }
    if (Last && End) {
      // The last piece at the very end, not before what matched so far.
      if (S.size() < Piece.size() || S.size() - Piece.size() < At)
        return false;
      return S.compare(S.size() - Piece.size(), Piece.size(), Piece) == 0;
    }
    size_t Found = S.find(Piece, At);
    if (Found == std::string::npos)
      return false;
    At = Found + Piece.size();
  }
  return true;
}

int heapprof::suppressedBy(const std::vector<Suppression> &Rules,
                           const Profile &P, const Context &C) {
  for (size_t R = 0; R < Rules.size(); R++) {
    const std::string &Pat = Rules[R].Pattern;
    for (uint32_t L : C.Stack) {
      const Location &Loc = P.Locations[L];
      if (Loc.Module != NoModule &&
          templateMatch(Pat, P.Modules[Loc.Module].Path))
        return static_cast<int>(R);
      for (const Frame &F : Loc.Frames)
        if (templateMatch(Pat, F.Function) ||
            (!F.Whole.empty() && templateMatch(Pat, F.Whole)) ||
            (!F.File.empty() && templateMatch(Pat, F.File)))
          return static_cast<int>(R);
    }
  }
  return -1;
}

std::vector<int32_t>
heapprof::suppressedContexts(const std::vector<Suppression> &Rules,
                             const Profile &P, Field Objects) {
  std::vector<int32_t> Out;
  if (Rules.empty())
    return Out;
  Out.assign(P.Contexts.size(), -1);
  for (size_t I = 0; I < P.Contexts.size(); I++)
    if (P.Contexts[I].C.get(Objects))
      Out[I] = suppressedBy(Rules, P, P.Contexts[I]);
  return Out;
}

bool heapprof::isLeakField(Field F) {
  return F == Field::leaked_objects || F == Field::leaked_bytes ||
         F == Field::indirect_objects || F == Field::indirect_bytes;
}

uint64_t heapprof::leakAware(const Profile &P,
                             const std::vector<int32_t> &Suppressed, size_t I,
                             Field F) {
  if (!Suppressed.empty() && Suppressed[I] >= 0 && isLeakField(F))
    return 0;
  return P.Contexts[I].C.get(F);
}
