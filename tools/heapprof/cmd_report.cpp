//===- cmd_report.cpp - heapprof report: the profile for people -----------===//
//
// Part of heapprof.  Reads raw profiles into a Profile (profile_model),
// symbolizes it (symbolize; both through cli.h's loadSymbolized), computes
// the tables (tables) and prints them (render_text / render_json).  The
// whole output is made in memory first, then written at once (cli.h's
// writeOutput): an error at any step leaves no partial output.
//
//===----------------------------------------------------------------------===//
#include "cli.h"
#include "commands.h"
#include "profile_model.h"
#include "render.h"
#include "symbolize.h"
#include "tables.h"
#include "heapprof_message.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

using namespace heapprof;

const char heapprof::ReportUsage[] =
    "usage: heapprof report [options] PROFILE|DIR...\n"
    "  symbolized tables of raw profiles (a DIR: every *.profraw in it; the\n"
    "  checkpoints of one process add up): summary, top contexts, memory\n"
    "  leaks, allocation bins, direct allocation, allocation call graph,\n"
    "  access and allocator measures, cold candidates, the allocator\n"
    "  profiler's sections, the peak, the heap over time; PROFILE@N or\n"
    "  DIR@N: as of checkpoint N (checkpoints 1..N, no exit dump)\n"
    "  --sort bytes|allocs|accesses|live|density|lifetime|cycles|temporary\n"
    "                     order of the top contexts (default bytes)\n"
    "  --top N            rows per table, and callers and callees per call\n"
    "                     graph entry (default 10; 0: all); the bin table\n"
    "                     sums sizes under 0.5% into 'other' unless 0\n"
    "  --depth N          frames in a leak, peak or cold call chain (default 3)\n"
    "  --leaks unreachable|live\n"
    "                     the leak table: memory unreachable at exit (the\n"
    "                     default when the profile has the leak check,\n"
    "                     detect_leaks=1) or everything live at the end\n"
    "  --suppressions FILE\n"
    "                     leave out of the leak table the contexts a rule\n"
    "                     leak:PATTERN matches (LeakSanitizer's format);\n"
    "                     may be repeated\n"
    "  --full             every size in the bin table, empty ones too\n"
    "  --format text|json|html\n"
    "                     output form (default text); html: the page of\n"
    "                     heapprof html (one self-contained file)\n"
    "  --html             the same as --format html\n"
    "  -o, --output FILE  write the report to FILE instead of stdout (a\n"
    "                     FILE ending in .json or .html, without --format,\n"
    "                     gets that form)\n"
    "  --binary FILE      the profiled program (or a library) if it moved;\n"
    "                     matched by build id; may be repeated\n"
    "  --debug-dir DIR    where separate debug files are (searched before\n"
    "                     /usr/lib/debug); may be repeated\n"
    "  --full-names       C++ names whole (default: without template arguments\n"
    "                     and parameters, e.g. std::map::operator[])\n"
    "  --fail-on-leaks    exit status 3 when the leak table (after\n"
    "                     --suppressions) is not empty, for a test or CI\n"
    "                     job; the table must be of the leak check's\n"
    "                     unreachable memory, or --leaks live\n";

// Exit status of --fail-on-leaks when the leak table is not empty: 1 and 2
// are bad input and usage errors.
static const int LeaksFound = 3;

// --fail-on-leaks' verdict once the report is written: 0, LeaksFound with
// one line that says what leaked (the report may have gone to a file), or
// 1 when the table is everything live only because the profile has no
// leak check, which would fail on memory still in use.
static int leakVerdict(const Report &R) {
  if (!R.LeakInfo.Known ||
      (!R.LeaksUnreachable && R.Opts.Leaks == LeakView::Default))
    return inputError(
        "--fail-on-leaks: the profile has no leak check at exit (a "
        "process ran with detect_leaks=0 or in sampled mode, or its last "
        "dump is a checkpoint), so nothing tells leaked memory from memory "
        "in use; --leaks live fails on everything live at the end");
  if (!R.LeakRows)
    return 0;
  std::string Msg = std::to_string(R.LeakObjects) + " object" +
                    (R.LeakObjects == 1 ? "" : "s") + ", " +
                    std::to_string(R.LeakBytes) + " byte" +
                    (R.LeakBytes == 1 ? "" : "s") +
                    (R.LeaksUnreachable ? " unreachable at exit"
                                        : " live at the end") +
                    ", in " + std::to_string(R.LeakRows) + " call chain" +
                    (R.LeakRows == 1 ? "" : "s") + " (--fail-on-leaks)";
  hpf_error("leaks", Msg.c_str());
  return LeaksFound;
}

int heapprof::cmdReport(int Argc, char **Argv) {
  std::vector<std::string> Inputs;
  SymbolizeOptions Sym;
  TableOptions Tables;
  std::string Format; // "" until --format: then from --html or --output
  bool Html = false;
  std::string Output;
  bool FailOnLeaks = false;
  Options O(ReportUsage);
  O.tables(Tables);
  O.flag("--full", Tables.Full);
  O.value("--format", nullptr, [&Format](const std::string &V) {
    if (V != "text" && V != "json" && V != "html")
      return "unknown format '" + V + "' (text, json or html)";
    Format = V;
    return std::string();
  });
  O.flag("--html", Html);
  O.output(Output);
  O.symbolize(Sym);
  O.flag("--fail-on-leaks", FailOnLeaks);
  if (int Rc = O.parse(Argc, Argv, Inputs))
    return Rc;
  if (Inputs.empty())
    return O.usageError("no profile given");
  if (Html && !Format.empty() && Format != "html")
    return O.usageError("--html and --format " + Format + " ask for two forms");
  if (Html)
    Format = "html";
  // --output NAME.json or NAME.html, with no --format, means that form.
  llvm::StringRef Dest(Output);
  if (Format.empty())
    Format = Dest.size() > 5 && Dest.ends_with(".json")   ? "json"
             : Dest.size() > 5 && Dest.ends_with(".html") ? "html"
                                                          : "text";
  if (!loadSuppressionFiles(Tables))
    return 1;
  Profile P;
  if (!loadSymbolized(Inputs, Sym, P))
    return 1;
  Report R = buildReport(P, Tables);
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (Format == "json")
    renderJson(R, OS);
  else if (Format == "html")
    renderHtml(R, P, OS);
  else
    renderText(R, OS);
  OS.flush();
  if (!writeOutput(Output, Out))
    return 1;
  return FailOnLeaks ? leakVerdict(R) : 0;
}
