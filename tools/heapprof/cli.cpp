//===- cli.cpp - what every heapprof command shares -----------------------===//
//
// Part of heapprof.  See cli.h.
//
//===----------------------------------------------------------------------===//
#include "cli.h"
#include "names.h"
#include "profile_model.h"
#include "symbolize.h"
#include "tables.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <unistd.h>

using namespace heapprof;

void Options::flag(const char *Name, bool &Set) {
  Specs.push_back({Name, nullptr, &Set, nullptr});
}

void Options::value(const char *Name, const char *Alias, Setter Set) {
  Specs.push_back({Name, Alias, nullptr, std::move(Set)});
}

void Options::output(std::string &Path) {
  value("--output", "-o", [&Path](const std::string &V) {
    Path = V;
    return std::string();
  });
}

void Options::symbolize(SymbolizeOptions &Sym) {
  value("--binary", nullptr, [&Sym](const std::string &V) {
    Sym.Binaries.push_back(V);
    return std::string();
  });
  value("--debug-dir", nullptr, [&Sym](const std::string &V) {
    Sym.DebugDirs.push_back(V);
    return std::string();
  });
  flag("--full-names", Sym.FullNames);
}

// Up to 9 digits, so it fits an unsigned.
static bool parseUnsigned(const std::string &S, unsigned &V) {
  if (S.empty() || S.size() > 9 ||
      S.find_first_not_of("0123456789") != std::string::npos)
    return false;
  V = static_cast<unsigned>(strtoul(S.c_str(), nullptr, 10));
  return true;
}

void Options::top(unsigned &Top) {
  value("--top", nullptr, [&Top](const std::string &V) {
    return parseUnsigned(V, Top) ? std::string()
                                 : "'" + V + "' is not a number";
  });
}

void Options::tables(TableOptions &T) {
  value("--sort", nullptr, [&T](const std::string &V) {
    return parseSortKey(V, T.Sort)
               ? std::string()
               : "unknown measure '" + V +
                     "' (bytes, allocs, accesses, live, density, lifetime, "
                     "cycles or temporary)";
  });
  top(T.Top);
  value("--depth", nullptr, [&T](const std::string &V) {
    return parseUnsigned(V, T.Depth) && T.Depth
               ? std::string()
               : "'" + V + "' is not a number of frames (1 or more)";
  });
  value("--leaks", nullptr, [&T](const std::string &V) {
    if (V == "unreachable")
      T.Leaks = LeakView::Unreachable;
    else if (V == "live")
      T.Leaks = LeakView::Live;
    else
      return "unknown leak table '" + V + "' (unreachable or live)";
    return std::string();
  });
  value("--suppressions", nullptr, [&T](const std::string &V) {
    T.SuppressionFiles.push_back(V);
    return std::string();
  });
}

bool heapprof::loadSuppressionFiles(TableOptions &T) {
  std::string Err;
  if (loadSuppressions(T.SuppressionFiles, T.Suppressions, Err))
    return true;
  fprintf(stderr, "heapprof: error: %s\n", Err.c_str());
  return false;
}

void Options::format(bool &Json) {
  value("--format", nullptr, [&Json](const std::string &V) {
    if (V != "text" && V != "json")
      return "unknown format '" + V + "' (text or json)";
    Json = V == "json";
    return std::string();
  });
}

int Options::usageError(const std::string &Msg) const {
  fprintf(stderr, "heapprof: error: %s\n%s", Msg.c_str(), Usage);
  return 2;
}

int Options::parse(int Argc, char **Argv,
                   std::vector<std::string> &Operands) const {
  for (int I = 0; I < Argc; I++) {
    std::string A = Argv[I];
    if (A == "-h" || A == "--help") {
      fputs(Usage, stdout);
      exit(0);
    }
    if (A == "--") {
      for (I++; I < Argc; I++)
        Operands.push_back(Argv[I]);
      break;
    }
    if (A.size() < 2 || A[0] != '-') {
      Operands.push_back(A);
      continue;
    }
    const Spec *S = nullptr;
    for (const Spec &F : Specs)
      if (F.Flag && A == F.Name)
        S = &F;
    if (S) {
      *S->Flag = true;
      continue;
    }
    std::string Name = A, Value;
    size_t Eq = A.find('=');
    if (Eq != std::string::npos) {
      Name = A.substr(0, Eq);
      Value = A.substr(Eq + 1);
    }
    for (const Spec &F : Specs)
      if (!F.Flag && (Name == F.Name || (F.Alias && Name == F.Alias)))
        S = &F;
    if (!S)
      return usageError("unknown option '" + A + "'");
    if (Eq == std::string::npos) {
      if (I + 1 >= Argc)
        return usageError("option '" + Name + "' needs a value");
      Value = Argv[++I];
    }
    std::string Problem = S->Set(Value);
    if (!Problem.empty())
      return usageError(std::string(S->Name) + ": " + Problem);
  }
  return 0;
}

bool heapprof::loadSymbolized(const std::vector<std::string> &Inputs,
                              const SymbolizeOptions &Sym, Profile &P) {
  std::string Err;
  std::vector<std::string> Warnings;
  if (!loadProfile(Inputs, P, Err) || !symbolize(P, Sym, Err, Warnings)) {
    inputError(Err);
    return false;
  }
  // diff loads its sides one by one (and both together when they share a
  // process): a module's problem is said once.
  static std::set<std::string> Said;
  for (const std::string &W : Warnings)
    if (Said.insert(W).second)
      fprintf(stderr, "heapprof: warning: %s\n", W.c_str());
  dropRuntimeFrames(P);
  unmarkWholeStacks(P);
  mergeSameStacks(P);
  // Contexts were told apart by the whole names; people read short ones.
  if (!Sym.FullNames)
    shortenFunctionNames(P);
  return true;
}

int heapprof::inputError(const std::string &Msg) {
  fprintf(stderr, "heapprof: error: %s\n", Msg.c_str());
  return 1;
}

static bool writeAll(int Fd, const std::string &S) {
  size_t Done = 0;
  while (Done < S.size()) {
    ssize_t N = write(Fd, S.data() + Done, S.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Done += N;
  }
  return true;
}

// The output file is written whole or not at all: to FILE.tmp, renamed.
bool heapprof::writeOutput(const std::string &Path, const std::string &S) {
  if (Path.empty()) {
    if (writeAll(1, S))
      return true;
    inputError(std::string("<stdout>: cannot write: ") + strerror(errno));
    return false;
  }
  std::string Tmp = Path + ".tmp";
  FILE *F = fopen(Tmp.c_str(), "wb");
  if (!F) {
    inputError(Path + ": cannot write: " + strerror(errno));
    return false;
  }
  bool Ok = fwrite(S.data(), 1, S.size(), F) == S.size();
  int E = errno;
  Ok &= fclose(F) == 0;
  if (Ok && rename(Tmp.c_str(), Path.c_str()) != 0) {
    E = errno;
    Ok = false;
  }
  if (!Ok) {
    unlink(Tmp.c_str());
    inputError(Path + ": cannot write: " + strerror(E ? E : EIO));
  }
  return Ok;
}
