//===- symbolize.h - turns a Profile's addresses into source frames -------===//
//
// Part of heapprof.  Symbolization happens after the run, when the report
// is made: one LLVMSymbolizer for the whole report, addresses batched per
// module, inlined frames expanded (innermost first) and names demangled.
//
// Each module is found by the path the profile records, or by --binary
// (matched by build id, for files that moved), and its build id must be
// the one the profile records: a rebuilt program would give confident,
// wrong lines.  Separate debug files (.build-id/xx/rest.debug, as gdb and
// llvm-symbolizer find them) are looked for in each --debug-dir, in
// order, then in the system's directory (/usr/lib/debug, or
// HEAPPROF_SYSTEM_DEBUG_DIR).
//
//===----------------------------------------------------------------------===//
#ifndef HEAPPROF_TOOL_SYMBOLIZE_H
#define HEAPPROF_TOOL_SYMBOLIZE_H

#include "profile_model.h"

#include <set>
#include <string>
#include <vector>

namespace heapprof {

struct SymbolizeOptions {
  std::vector<std::string> Binaries;  // --binary
  std::vector<std::string> DebugDirs; // --debug-dir, before the system's
  bool FullNames = false;             // --full-names (names.h)
  // Set by a command that reads several profiles with the same options
  // (heapprof diff): a --binary that matches none of one profile's modules
  // is then no error; those that matched are added here, and the command
  // checks that each matched some profile.
  std::set<std::string> *Matched = nullptr;
};

// Resolves P's modules to files and fills every Location's Frames.  A
// missing, unreadable or different main program is an error (false, Err
// one line naming the file); a library that can't be found only leaves its
// frames as module+offset, with a line in Warnings.
bool symbolize(Profile &P, const SymbolizeOptions &Opts, std::string &Err,
               std::vector<std::string> &Warnings);

} // namespace heapprof

#endif
