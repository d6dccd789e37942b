//===- commands.h - heapprof's subcommands --------------------------------===//
//
// Part of heapprof.  Each command takes the arguments after its name and
// returns the exit status: 0 success, 1 bad input (one `heapprof: error:`
// line naming the file and the problem), 2 usage error.
//
//===----------------------------------------------------------------------===//
#ifndef HEAPPROF_TOOL_COMMANDS_H
#define HEAPPROF_TOOL_COMMANDS_H

#include <string>
#include <vector>

namespace heapprof {
struct Profile;
struct SymbolizeOptions;
extern const char ShowUsage[];
extern const char ReportUsage[];
extern const char DiffUsage[];
extern const char FlamegraphUsage[];
extern const char PprofUsage[];
int cmdShow(int Argc, char **Argv);
int cmdReport(int Argc, char **Argv);
int cmdDiff(int Argc, char **Argv);
int cmdFlamegraph(int Argc, char **Argv);
int cmdPprof(int Argc, char **Argv);
extern const char HtmlUsage[];
int cmdHtml(int Argc, char **Argv);
extern const char RunUsage[];
int cmdRun(int Argc, char **Argv); // cmd_run.cpp

// Shared by the commands that render a Profile (cmd_report.cpp):
// loads Inputs, symbolizes, merges same stacks; prints the error (one
// `heapprof: error:` line) or warnings itself.
bool loadSymbolized(const std::vector<std::string> &Inputs,
                    const SymbolizeOptions &Sym, Profile &P);
// Writes S to Path ("" = stdout) whole or not at all (Path.tmp, renamed);
// on failure Err is one line naming the output (cmd_report.cpp).
bool writeOutput(const std::string &Path, const std::string &S,
                 std::string &Err);
} // namespace heapprof

#endif
