//===- cli.h - what every heapprof command shares -------------------------===//
//
// Part of heapprof.  The commands that read profiles for people (report,
// diff, flamegraph, pprof, html) take their arguments the same way and
// load, symbolize and write the same way; this is that one way:
//
//   Options O(ReportUsage);        // the command's usage text
//   O.flag("--full", T.Full);
//   O.tables(T);                   // --sort, --top, --depth
//   O.output(Out);                 // -o, --output
//   O.symbolize(Sym);              // --binary, --debug-dir
//   if (int Rc = O.parse(Argc, Argv, Inputs)) return Rc;
//   if (!loadSymbolized(Inputs, Sym, P)) return 1;
//   ... render into a string S ...
//   return writeOutput(Out, S) ? 0 : 1;
//
// Arguments: `--name=value` or `--name value`, options and operands in any
// order, `--` ends the options, `-h`/`--help` prints the usage on stdout
// and exits 0.  A usage error is one `heapprof: error:` line followed by
// the usage on stderr, exit status 2; bad input is one line, status 1.
//
//===----------------------------------------------------------------------===//
#ifndef HEAPPROF_TOOL_CLI_H
#define HEAPPROF_TOOL_CLI_H

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

struct hpf_out; // heapprof_files.h

namespace heapprof {
struct Profile;
struct SymbolizeOptions;
struct TableOptions;
struct Suppression;
using FirstCheckpoints = std::map<std::pair<uint64_t, std::string>, uint64_t>;

class Options {
public:
  // Sets a value; returns "" or what is wrong with it (the parser prints
  // "NAME: " and that).
  using Setter = std::function<std::string(const std::string &Value)>;

  explicit Options(const char *Usage) : Usage(Usage) {}

  // An option without a value.
  void flag(const char *Name, bool &Set);
  // An option with a value; Alias ("-o") may be null.
  void value(const char *Name, const char *Alias, Setter Set);

  // The options several commands share, with their one spelling and
  // message each.
  void output(std::string &Path);            // -o, --output FILE
  void symbolize(SymbolizeOptions &Sym);     // --binary, --debug-dir,
                                             // --full-names
  void top(unsigned &Top);                   // --top N (0: all)
  void tables(TableOptions &T);              // --sort, --top, --depth,
                                             // --leaks, --suppressions
  void suppressions(std::vector<std::string> &Files); // --suppressions
  void format(bool &Json, bool &Given);      // --format text|json

  // Parses Argv; the operands go to Operands.  Returns 0, 2 after
  // printing the usage error, or 1 after printing why the output would
  // replace or be read back as an input (hpf_conflict).
  int parse(int Argc, char **Argv, std::vector<std::string> &Operands) const;
  // Prints Msg as a usage error; returns 2.
  int usageError(const std::string &Msg) const;

private:
  struct Spec {
    const char *Name, *Alias;
    bool *Flag; // a flag; else Set takes the value
    Setter Set;
  };
  const char *Usage;
  std::vector<Spec> Specs;
  std::string *OutputPath = nullptr; // output(): checked against operands
};

// Reads the rules of T.SuppressionFiles into T.Suppressions; prints the
// error (one `heapprof: error:` line naming the file and line) itself.
bool loadSuppressionFiles(TableOptions &T);
bool loadSuppressionFiles(const std::vector<std::string> &Files,
                          std::vector<Suppression> &Rules);

// Loads Inputs (raw profiles and directories of them), symbolizes them,
// merges the contexts whose stacks read the same and, unless
// Sym.FullNames, shortens C++ names (names.h).  Prints the error (one
// `heapprof: error:` line naming the file) or the warnings itself.  From:
// as for loadProfile (profile_model.h).
bool loadSymbolized(const std::vector<std::string> &Inputs,
                    const SymbolizeOptions &Sym, Profile &P,
                    const FirstCheckpoints *From = nullptr);

// Writes S to Path ("" or "-" = stdout) whole or not at all (hpf_write);
// on failure prints one `heapprof: error:` line naming the output.
bool writeOutput(const std::string &Path, const std::string &S);

// The same made piece by piece, for an output larger than what it is made
// from (hpf_open): open, write each piece (buffered), close.  open and
// close print the error as writeOutput does.
class OutputFile {
public:
  ~OutputFile();
  bool open(const std::string &Path);
  void write(const std::string &S) {
    Buf += S;
    if (Buf.size() >= (1u << 20))
      flush();
  }
  bool close();

private:
  void flush();
  std::string Path, Buf;
  ::hpf_out *Out = nullptr;
};

// Prints one `heapprof: error: Msg` line; returns 1, bad input's status.
int inputError(const std::string &Msg);
} // namespace heapprof

#endif
