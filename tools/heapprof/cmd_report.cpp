//===- cmd_report.cpp - heapprof report: the profile for people -----------===//
//
// Part of heapprof.  Reads raw profiles into a Profile (profile_model),
// symbolizes it (symbolize), computes the tables (tables) and prints them
// (render_text / render_json).  The whole output is made in memory first,
// then written at once, to --output through a temporary file renamed into
// place: an error at any step leaves no partial output.
//
//===----------------------------------------------------------------------===//
#include "commands.h"
#include "profile_model.h"
#include "render.h"
#include "symbolize.h"
#include "tables.h"

#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

using namespace heapprof;

const char heapprof::ReportUsage[] =
    "usage: heapprof report [options] PROFILE|DIR...\n"
    "  symbolized tables of raw profiles (a DIR: every *.profraw in it; the\n"
    "  checkpoints of one process add up): summary, top contexts, memory\n"
    "  leaks, allocation bins, direct allocation, allocation call graph,\n"
    "  access and allocator measures, cold candidates\n"
    "  --sort bytes|allocs|accesses|live|density|lifetime|cycles\n"
    "                     order of the top contexts (default bytes)\n"
    "  --top N            rows per table (default 10; 0: all)\n"
    "  --depth N          frames in a leak call chain (default 3)\n"
    "  --full             every size in the bin table, empty ones too\n"
    "  --format text|json output form (default text)\n"
    "  --output FILE      write the report to FILE instead of stdout\n"
    "  --binary FILE      the profiled program (or a library) if it moved;\n"
    "                     matched by build id; may be repeated\n"
    "  --debug-dir DIR    where separate debug files are; may be repeated\n";

namespace {
struct ReportOptions {
  std::vector<std::string> Inputs;
  SymbolizeOptions Sym;
  TableOptions Tables;
  bool Json = false;
  std::string Output;
};
} // namespace

static int usageError(const std::string &Msg) {
  fprintf(stderr, "heapprof: error: %s\n%s", Msg.c_str(), ReportUsage);
  return 2;
}

static bool parseUnsigned(const std::string &S, unsigned &V) {
  if (S.empty() || S.size() > 9 ||
      S.find_first_not_of("0123456789") != std::string::npos)
    return false;
  V = static_cast<unsigned>(strtoul(S.c_str(), nullptr, 10));
  return true;
}

// Returns 0, or the exit status of a usage error.
static int parseArgs(int Argc, char **Argv, ReportOptions &O) {
  for (int I = 0; I < Argc; I++) {
    std::string A = Argv[I];
    if (A == "-h" || A == "--help") {
      fputs(ReportUsage, stdout);
      exit(0);
    }
    if (A.size() < 2 || A[0] != '-' || A == "--") {
      if (A == "--")
        for (I++; I < Argc; I++)
          O.Inputs.push_back(Argv[I]);
      else
        O.Inputs.push_back(A);
      continue;
    }
    if (A == "--full") {
      O.Tables.Full = true;
      continue;
    }
    std::string Name = A, Value;
    size_t Eq = A.find('=');
    if (Eq != std::string::npos) {
      Name = A.substr(0, Eq);
      Value = A.substr(Eq + 1);
    }
    static const char *const WithValue[] = {
        "--sort", "--top", "--depth", "--format", "--output", "-o",
        "--binary", "--debug-dir"};
    bool Known = false;
    for (const char *W : WithValue)
      Known |= Name == W;
    if (!Known)
      return usageError("unknown option '" + A + "'");
    if (Eq == std::string::npos) {
      if (I + 1 >= Argc)
        return usageError("option '" + Name + "' needs a value");
      Value = Argv[++I];
    }
    if (Name == "--sort") {
      if (!parseSortKey(Value, O.Tables.Sort))
        return usageError("--sort: unknown measure '" + Value +
                          "' (bytes, allocs, accesses, live, density, "
                          "lifetime or cycles)");
    } else if (Name == "--top") {
      if (!parseUnsigned(Value, O.Tables.Top))
        return usageError("--top: '" + Value + "' is not a number");
    } else if (Name == "--depth") {
      if (!parseUnsigned(Value, O.Tables.Depth) || O.Tables.Depth == 0)
        return usageError("--depth: '" + Value +
                          "' is not a number of frames (1 or more)");
    } else if (Name == "--format") {
      if (Value != "text" && Value != "json")
        return usageError("--format: unknown format '" + Value +
                          "' (text or json)");
      O.Json = Value == "json";
    } else if (Name == "--output" || Name == "-o") {
      O.Output = Value;
    } else if (Name == "--binary") {
      O.Sym.Binaries.push_back(Value);
    } else if (Name == "--debug-dir") {
      O.Sym.DebugDirs.push_back(Value);
    }
  }
  if (O.Inputs.empty())
    return usageError("no profile given");
  return 0;
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
bool heapprof::writeOutput(const std::string &Path, const std::string &S,
                        std::string &Err) {
  if (Path.empty()) {
    if (!writeAll(1, S)) {
      Err = std::string("<stdout>: cannot write: ") + strerror(errno);
      return false;
    }
    return true;
  }
  std::string Tmp = Path + ".tmp";
  FILE *F = fopen(Tmp.c_str(), "wb");
  if (!F) {
    Err = Path + ": cannot write: " + strerror(errno);
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
    Err = Path + ": cannot write: " + strerror(E ? E : EIO);
  }
  return Ok;
}

int heapprof::cmdReport(int Argc, char **Argv) {
  ReportOptions O;
  if (int Rc = parseArgs(Argc, Argv, O))
    return Rc;
  Profile P;
  std::string Err;
  std::vector<std::string> Warnings;
  if (!loadProfile(O.Inputs, P, Err) ||
      !symbolize(P, O.Sym, Err, Warnings)) {
    fprintf(stderr, "heapprof: error: %s\n", Err.c_str());
    return 1;
  }
  for (const std::string &W : Warnings)
    fprintf(stderr, "heapprof: warning: %s\n", W.c_str());
  mergeSameStacks(P);
  Report R = buildReport(P, O.Tables);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (O.Json)
    renderJson(R, OS);
  else
    renderText(R, OS);
  OS.flush();
  if (!writeOutput(O.Output, Out, Err)) {
    fprintf(stderr, "heapprof: error: %s\n", Err.c_str());
    return 1;
  }
  return 0;
}
