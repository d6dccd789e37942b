//===- cmd_html.cpp - heapprof html: the report as one web page -----------===//
//
// Part of heapprof.  Loads and symbolizes like `heapprof report` (cli.h),
// builds the report's tables and writes them as one self-contained page
// (render_html.cpp).
//
//===----------------------------------------------------------------------===//
#include "cli.h"
#include "commands.h"
#include "profile_model.h"
#include "render.h"
#include "symbolize.h"
#include "tables.h"

#include "llvm/Support/raw_ostream.h"

using namespace heapprof;

const char heapprof::HtmlUsage[] =
    "usage: heapprof html -o OUT.html [options] PROFILE|DIR...\n"
    "  the report as one self-contained web page: summary, sortable tables,\n"
    "  flame graph of every context (click to zoom); no network needed\n"
    "  -o, --output FILE  the page to write (required; - for stdout)\n"
    "  --sort KEY, --top N, --depth N, --leaks unreachable|live,\n"
    "  --suppressions FILE, --binary FILE, --debug-dir DIR, --full-names\n"
    "                     as for heapprof report\n";

int heapprof::cmdHtml(int Argc, char **Argv) {
  std::vector<std::string> Inputs;
  SymbolizeOptions Sym;
  TableOptions Tables;
  std::string Output;
  Options O(HtmlUsage);
  O.output(Output);
  O.tables(Tables);
  O.symbolize(Sym);
  if (int Rc = O.parse(Argc, Argv, Inputs))
    return Rc;
  if (Output.empty())
    return O.usageError("no output file given (-o OUT.html)");
  if (Inputs.empty())
    return O.usageError("no profile given");
  if (!loadSuppressionFiles(Tables))
    return 1;
  Profile P;
  if (!loadSymbolized(Inputs, Sym, P))
    return 1;
  Report R = buildReport(P, Tables);
  std::string Page;
  llvm::raw_string_ostream OS(Page);
  renderHtml(R, P, OS);
  OS.flush();
  return writeOutput(Output, Page) ? 0 : 1;
}
