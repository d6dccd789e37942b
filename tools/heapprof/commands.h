//===- commands.h - heapprof's subcommands --------------------------------===//
//
// Part of heapprof.  Each command takes the arguments after its name and
// returns the exit status: 0 success, 1 bad input (one `heapprof: error:`
// line naming the file and the problem), 2 usage error.  What they share
// (options, loading, output) is in cli.h.
//
//===----------------------------------------------------------------------===//
#ifndef HEAPPROF_TOOL_COMMANDS_H
#define HEAPPROF_TOOL_COMMANDS_H

#include <string>

namespace heapprof {
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
// lib/heapprof of this installation (the runtime, heapprof-tool); "" if
// the running binary's path is unknown.  cmd_run.cpp.
std::string libDir();
} // namespace heapprof

#endif
