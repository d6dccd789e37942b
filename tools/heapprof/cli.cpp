//===- cli.cpp - what every heapprof command shares -----------------------===//
//
// Part of heapprof.  See cli.h.
//
//===----------------------------------------------------------------------===//
#include "cli.h"
#include "heapprof_files.h"
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
  OutputPath = &Path;
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
  suppressions(T.SuppressionFiles);
}

void Options::suppressions(std::vector<std::string> &Files) {
  value("--suppressions", nullptr, [&Files](const std::string &V) {
    Files.push_back(V);
    return std::string();
  });
}

bool heapprof::loadSuppressionFiles(TableOptions &T) {
  return loadSuppressionFiles(T.SuppressionFiles, T.Suppressions);
}

bool heapprof::loadSuppressionFiles(const std::vector<std::string> &Files,
                                    std::vector<Suppression> &Rules) {
  std::string Err;
  if (loadSuppressions(Files, Rules, Err))
    return true;
  inputError(Err);
  return false;
}

void Options::format(bool &Json, bool &Given) {
  value("--format", nullptr, [&Json, &Given](const std::string &V) {
    if (V != "text" && V != "json")
      return "unknown format '" + V + "' (text or json)";
    Json = V == "json";
    Given = true;
    return std::string();
  });
}

int Options::usageError(const std::string &Msg) const {
  hpf_error("error", Msg.c_str());
  fputs(Usage, stderr);
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
  // An output that would replace an input, or be read back as one.
  if (OutputPath && !OutputPath->empty()) {
    std::vector<const char *> In;
    for (const std::string &Op : Operands)
      In.push_back(Op.c_str());
    char Why[512];
    if (hpf_conflict(OutputPath->c_str(), In.data(), In.size(), Why,
                     sizeof(Why)))
      return inputError(*OutputPath + ": " + Why);
  }
  return 0;
}

bool heapprof::loadSymbolized(const std::vector<std::string> &Inputs,
                              const SymbolizeOptions &Sym, Profile &P,
                              const FirstCheckpoints *From) {
  std::string Err;
  std::vector<std::string> Warnings;
  if (!loadProfile(Inputs, P, Err, From) || !symbolize(P, Sym, Err, Warnings)) {
    inputError(Err);
    return false;
  }
  // diff loads its sides one by one (and both together when they share a
  // process): a module's problem is said once.
  static std::set<std::string> Said;
  for (const std::string &W : Warnings)
    if (Said.insert(W).second)
      hpf_error("warning", W.c_str());
  dropRuntimeFrames(P);
  unmarkWholeStacks(P);
  mergeSameStacks(P);
  // Contexts were told apart by the whole names; people read short ones.
  if (!Sym.FullNames)
    shortenFunctionNames(P);
  return true;
}

int heapprof::inputError(const std::string &Msg) {
  hpf_error("error", Msg.c_str());
  return 1;
}

static void writeError(const std::string &Path, const char *Err) {
  inputError((Path.empty() || Path == "-" ? std::string("<stdout>") : Path) +
             ": cannot write: " + Err);
}

// The output file is written whole or not at all (heapprof_files.h).
bool heapprof::writeOutput(const std::string &Path, const std::string &S) {
  char Err[256];
  if (hpf_write(Path.c_str(), S.data(), S.size(), 0666, Err, sizeof(Err)))
    return true;
  writeError(Path, Err);
  return false;
}

bool OutputFile::open(const std::string &P) {
  char Err[256];
  Path = P;
  Out = hpf_open(Path.c_str(), 0666, Err, sizeof(Err));
  if (!Out)
    writeError(Path, Err);
  return Out;
}

void OutputFile::flush() {
  hpf_put(Out, Buf.data(), Buf.size());
  Buf.clear();
}

bool OutputFile::close() {
  char Err[256];
  flush();
  bool Ok = hpf_close(Out, true, Err, sizeof(Err));
  Out = nullptr;
  if (!Ok)
    writeError(Path, Err);
  return Ok;
}

// Not closed (an error before the end): the file does not appear.
OutputFile::~OutputFile() {
  if (!Out)
    return;
  char Err[256];
  hpf_close(Out, false, Err, sizeof(Err));
}
