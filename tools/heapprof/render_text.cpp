//===- render_text.cpp - heapprof report --format text --------------------===//
//
// Part of heapprof.  Prints a Report for a person: each section a heading
// and an aligned table, sizes in B/KiB/MiB/GiB (exact numbers are in the
// JSON), stacks next to their numbers, source paths relative to the
// current directory when under it.  A table the profile has no data for
// says so in one line.
//
//===----------------------------------------------------------------------===//
#include "render.h"
#include "heapprof_message.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Unicode.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <cstdint>
#include <map>
#include <unistd.h>

using namespace heapprof;
using llvm::format;
using llvm::raw_ostream;

// Text the report prints from a profile (paths, names, a command's
// arguments) on one line of its own: a control character (a newline in a
// file name, a terminal's escape; C1's too) and a byte of no valid UTF-8
// sequence (a Latin-1 file name, a damaged profile) become '?', one byte
// for one so widths hold.
std::string heapprof::terminalText(const std::string &S) {
  std::string Out;
  Out.reserve(S.size());
  const auto *P = reinterpret_cast<const unsigned char *>(S.c_str());
  for (size_t I = 0; I < S.size(); I++) {
    unsigned char C = P[I];
    unsigned Seq = C >= 0x80 ? hpf_utf8_seq(P + I) : 0;
    if (Seq == 2 && C == 0xc2 && P[I + 1] < 0xa0) { // a C1 control
      Out += '?';
      I++;
    } else if (Seq) {
      Out.append(S, I, Seq);
      I += Seq - 1;
    } else
      Out += C < 0x20 || C >= 0x7f ? '?' : static_cast<char>(C);
  }
  return Out;
}

static std::string str(const char *Fmt, double V) {
  char Buf[64];
  snprintf(Buf, sizeof(Buf), Fmt, V);
  return Buf;
}

std::string heapprof::commandText(const std::vector<std::string> &Args) {
  std::string S;
  for (const std::string &A : Args) {
    if (!S.empty())
      S += ' ';
    bool Bare = !A.empty();
    for (unsigned char C : A)
      Bare &= isalnum(C) || strchr("_@%+=:,./-", C);
    if (!Bare)
      S += '\'';
    for (unsigned char C : A)
      S += C == '\'' ? std::string("'\\''")
           : C < 0x20 || C == 0x7f ? std::string("?")
                                   : std::string(1, static_cast<char>(C));
    if (!Bare)
      S += '\'';
  }
  return S;
}

std::string heapprof::humanBytes(uint64_t Bytes) {
  if (Bytes < 10000)
    return std::to_string(Bytes) + " B";
  const char *Units[] = {"KiB", "MiB", "GiB", "TiB"};
  double V = Bytes / 1024.0;
  int U = 0;
  while (V >= 1024 && U < 3) {
    V /= 1024;
    U++;
  }
  return str("%.1f ", V) + Units[U];
}

static std::string percent(double P) { return str("%.1f%%", P); }


static std::string bytesText(uint64_t B) {
  return std::to_string(B) + " bytes (" + humanBytes(B) + ")";
}

static std::string cwdPrefix() {
  char Buf[4096];
  if (!getcwd(Buf, sizeof(Buf)))
    return "";
  std::string S = Buf;
  return S == "/" ? S : S + "/";
}

static std::string where(const Frame &F) {
  static const std::string Cwd = cwdPrefix();
  if (F.File.empty())
    return "";
  std::string File = F.File;
  if (!Cwd.empty() && File.compare(0, Cwd.size(), Cwd) == 0)
    File = File.substr(Cwd.size());
  // Line 0: the compiler's "no line" (code it made, merged from several
  // lines): the file alone.
  if (!F.Line)
    return File;
  std::string S = File + ":" + std::to_string(F.Line);
  if (F.Column)
    S += ":" + std::to_string(F.Column);
  return S;
}

// The columns S takes on a terminal: UTF-8 decoded, a wide character (CJK)
// two, a combining one none; bytes for what is not valid UTF-8 or not
// printable (terminalText makes each control character, and each byte of no
// valid sequence, one '?').
static size_t columns(const std::string &S) {
  int W = llvm::sys::unicode::columnWidthUTF8(terminalText(S));
  return W < 0 ? S.size() : static_cast<size_t>(W);
}

namespace {
// Columns right-aligned except those marked left; the last column is not
// padded.
class TextTable {
public:
  explicit TextTable(std::vector<std::string> Head, std::string Left = "")
      : Head(std::move(Head)), Left(std::move(Left)) {}
  void add(std::vector<std::string> Row) { Rows.push_back(std::move(Row)); }
  // Columns are padded to at most Cap characters: a long C++ name then
  // pushes only its own line's next column out, not every line's.
  void cap(size_t Cap) { Max = Cap; }
  void print(raw_ostream &OS, const std::string &Indent = "") const {
    std::vector<size_t> W(Head.size());
    for (size_t I = 0; I < Head.size(); I++)
      W[I] = columns(Head[I]);
    for (const auto &Row : Rows)
      for (size_t I = 0; I < Row.size() && I < W.size(); I++)
        W[I] = std::max(W[I], std::min(columns(Row[I]), Max));
    auto Line = [&](const std::vector<std::string> &Row) {
      std::string S = Indent;
      for (size_t I = 0; I < Row.size(); I++) {
        bool L = I < Left.size() && Left[I] == 'l';
        bool Last = I + 1 == Row.size();
        size_t Cols = columns(Row[I]);
        size_t Pad = W[I] > Cols ? W[I] - Cols : 0;
        if (I)
          S += "  ";
        if (!L)
          S.append(Pad, ' ');
        S += terminalText(Row[I]);
        if (L && !Last)
          S.append(Pad, ' ');
      }
      while (!S.empty() && S.back() == ' ')
        S.pop_back();
      OS << S << "\n";
    };
    if (std::any_of(Head.begin(), Head.end(),
                    [](const std::string &H) { return !H.empty(); }))
      Line(Head);
    for (const auto &Row : Rows)
      Line(Row);
  }

private:
  std::vector<std::string> Head;
  std::string Left; // 'l' at a column's position: left-aligned
  std::vector<std::vector<std::string>> Rows;
  size_t Max = SIZE_MAX;
};
} // namespace

static void heading(raw_ostream &OS, const std::string &Title) {
  OS << "\n== " << Title << "\n";
}

// Who wrote a profile that lacks a section.
static const char *olderWriter(const Profile &P) {
  return P.noExtension() ? "upstream MemProf (-fmemory-profile) or heapprof "
                          "with raw_extension=0, without heapprof's extension"
                        : "an older heapprof runtime";
}

static void lacks(raw_ostream &OS, const Table &T, const Profile &P) {
  OS << "(the profile lacks " << T.Lacks << ": ";
  if (T.Why.empty())
    OS << "it was written by " << olderWriter(P);
  else
    OS << T.Why;
  OS << ")\n";
}

static void omitted(raw_ostream &OS, const Table &T, const char *One,
                    const char *Many) {
  if (T.Omitted)
    OS << "(" << T.Omitted << " more " << (T.Omitted == 1 ? One : Many)
       << "; --top 0 shows all)\n";
}

static std::string sizes(const Counts &C) {
  if (!C.allocs())
    return "";
  if (C.min_size() == C.max_size())
    return humanBytes(C.min_size()) + " each";
  return humanBytes(C.min_size()) + " to " + humanBytes(C.max_size());
}

static std::string objects(uint64_t N) {
  return std::to_string(N) + (N == 1 ? " object" : " objects");
}

// Sampled mode: what the numbers are (docs/user-guide.md "Sampled mode").
static std::string sampledNote(const Profile &P) {
  std::string Rate = P.SampleBytes ? "at " + std::to_string(P.SampleBytes) +
                                         " bytes"
                                   : "at several rates";
  return "estimated, sampled " + Rate +
         ": counts, bytes and lifetimes are estimates of the whole program's; "
         "accesses were counted on the sampled objects only (scaled the same "
         "way); size bins count the sampled objects as seen";
}

// A module as the summary and "Modules" name it: its file, build id, and
// what a reader of its frames should know.
static std::string moduleLine(const Module &M) {
  std::string S = M.File.empty() ? M.Path : M.File;
  S += " (build id " + (M.BuildId.empty() ? "none" : M.BuildId) + ")";
  if (M.Unloaded && !M.Loaded)
    S += ", unloaded at " + std::to_string(M.UnloadedMs) + " ms";
  if (M.HasFrames && !M.Usable)
    S += ", not symbolized";
  return S;
}

// The command lines of one program's processes: each different one (three
// at most), how many processes ran it, cut at 200 characters.
static void commands(const std::vector<const Process *> &List,
                     TextTable &Tab) {
  std::vector<std::pair<const Process *, uint64_t>> Distinct;
  for (const Process *Proc : List) {
    if (Proc->Command.empty())
      continue;
    auto It = std::find_if(Distinct.begin(), Distinct.end(), [&](auto &D) {
      return D.first->Command == Proc->Command &&
             D.first->CommandTruncated == Proc->CommandTruncated;
    });
    if (It == Distinct.end())
      Distinct.push_back({Proc, 1});
    else
      It->second++;
  }
  for (size_t I = 0; I < Distinct.size() && I < 3; I++) {
    const Process &Proc = *Distinct[I].first;
    std::string S = commandText(Proc.Command);
    std::vector<std::string> Notes;
    if (S.size() > 200) {
      S = S.substr(0, 200) + "...";
      Notes.push_back(std::to_string(Proc.Command.size()) +
                      " arguments: the JSON has them whole");
    }
    if (Proc.CommandTruncated) {
      if (Notes.empty())
        S += " ...";
      Notes.push_back("the first 4 KiB of a longer command line: the "
                      "runtime keeps no more");
    }
    for (size_t N = 0; N < Notes.size(); N++)
      S += (N ? "; " : " (") + Notes[N] + (N + 1 == Notes.size() ? ")" : "");
    if (List.size() > 1)
      S += Distinct[I].second == 1
               ? " (1 process)"
               : " (" + std::to_string(Distinct[I].second) + " processes)";
    Tab.add({"command", S});
  }
  if (Distinct.size() > 3)
    Tab.add({"command", "and " + std::to_string(Distinct.size() - 3) +
                            " more (the JSON lists each process's)"});
}

// The modules whose return addresses symbolize() could not name (a
// stripped distribution binary under heapprof run, whose frames then read
// module+0xoffset): the three with the most, and how to name them.
static void unnamed(const Profile &P, TextTable &Tab) {
  std::vector<const Module *> Ms;
  for (const Module &M : P.Modules)
    if (M.Usable && M.Unnamed)
      Ms.push_back(&M);
  std::stable_sort(Ms.begin(), Ms.end(), [](const Module *A, const Module *B) {
    return A->Unnamed > B->Unnamed;
  });
  for (size_t I = 0; I < Ms.size() && I < 3; I++) {
    const Module &M = *Ms[I];
    std::string S = llvm::sys::path::filename(M.File).str() + ": " +
                    std::to_string(M.Unnamed) + " of " +
                    std::to_string(M.Addresses) +
                    " return addresses have no function name in its symbols";
    // Not "Debian's -dbgsym package": those are not in Debian's main
    // archive, and libstdc++'s -dbg package there is another build of it,
    // not debug files for this one (user-guide.md, "Frames without names").
    if (I == 0)
      S += " (to name them: its separate debug file, found by build id in "
           "/usr/lib/debug or in --debug-dir DIR; or an unstripped build of "
           "it profiled in its place)";
    Tab.add({"unnamed", S});
  }
  if (Ms.size() > 3)
    Tab.add({"unnamed", "and " + std::to_string(Ms.size() - 3) +
                            " more modules (the JSON's modules[].unnamed)"});
}

static void summary(const Report &R, raw_ostream &OS) {
  const Profile &P = *R.P;
  const Counts &T = P.Total;
  heading(OS, "Summary");
  TextTable Tab({"", ""}, "ll");
  if (P.Sampled)
    Tab.add({"sampled", sampledNote(P)});
  Tab.add({"allocations", objects(T.allocs()) + ", " +
                              std::to_string(T.bytes()) + " bytes (" +
                              humanBytes(T.bytes()) + ")"});
  if (P.has(Field::frees)) {
    Tab.add({"frees", objects(T.frees())});
    std::string Live = objects(T.live_objects());
    if (P.has(Field::live_bytes))
      Live += ", " + std::to_string(T.live_bytes()) + " bytes (" +
              humanBytes(T.live_bytes()) + ")";
    Tab.add({"live at the end", Live});
  } else {
    Tab.add({"frees", "unknown (the profile lacks live_at_dump)"});
  }
  Tab.add({"accesses",
           T.accesses() ? std::to_string(T.accesses())
                        : std::string("0 (none counted: the program was not "
                                      "compiled with -fheapprof, as under "
                                      "heapprof run, or its instrumented code "
                                      "never touched the heap)")});
  if (P.has(Field::temporary) && T.allocs())
    Tab.add({"temporary", objects(T.temporary()) + " (" +
                              percent(100.0 * T.temporary() / T.allocs()) +
                              " of the allocations): freed before their "
                              "thread allocated again"});
  Tab.add({"contexts", std::to_string(P.Contexts.size())});
  if (uint64_t Cut = P.contextsAtStackLimit()) {
    std::string Limit = P.StackLimit ? "malloc_context_size=" +
                                           std::to_string(P.StackLimit)
                                     : std::string("their malloc_context_size");
    Tab.add({"stack limit",
             std::to_string(Cut) + " of the contexts (" +
                 percent(100.0 * Cut / P.Contexts.size()) + ") reached " +
                 Limit + " frames: callers beyond are not recorded (their "
                 "stacks end in [stack limit]; " +
                 (P.StackLimit >= 255
                      ? std::string("255 frames is the most it records)")
                      : std::string("malloc_context_size=255 records "
                                    "more)"))});
  }
  switch (P.Allocator) {
  case Profile::AllocatorKind::Unknown:
    break; // a runtime before tag 13
  case Profile::AllocatorKind::Heapprof:
    Tab.add({"allocator", "heapprof's own"});
    break;
  case Profile::AllocatorKind::Glibc:
    Tab.add({"allocator", "glibc's malloc (allocator=system, or sampled "
                          "mode's)"});
    break;
  case Profile::AllocatorKind::Library:
    Tab.add({"allocator", P.AllocatorPath + ", profiled as it ran "
                                            "(allocator=PATH)"});
    break;
  case Profile::AllocatorKind::Several:
    Tab.add({"allocator", "several: the profiles were taken on different "
                          "allocators"});
    break;
  }
  if (P.Peak.Known)
    Tab.add({"peak", objects(P.Peak.Objects) + ", " +
                         std::to_string(P.Peak.Bytes) + " bytes (" +
                         humanBytes(P.Peak.Bytes) + ") at " +
                         std::to_string(P.Peak.Ms) + " ms (see The peak)"});
  uint64_t Span = 0;
  for (const Process &Proc : P.Processes)
    Span = std::max(Span, Proc.LastMs);
  Tab.add({"time span", std::to_string(Span) + " ms (start to last dump)"});
  // A program that ran as several processes (a shell's children under
  // heapprof run --follow-exec) is one line; the JSON lists each.
  std::vector<std::string> Programs;
  std::map<std::string, std::vector<const Process *>> ByProgram;
  for (const Process &Proc : P.Processes) {
    auto &List = ByProgram[Proc.Program];
    if (List.empty())
      Programs.push_back(Proc.Program);
    List.push_back(&Proc);
  }
  for (const std::string &Program : Programs) {
    const auto &List = ByProgram[Program];
    uint64_t Dumps = 0, Duplicates = 0, Evictions = 0;
    for (const Process *Proc : List) {
      Dumps += Proc->Dumps;
      Duplicates += Proc->DuplicateDumps;
      Evictions += Proc->Evictions;
    }
    std::string S = Program;
    if (List.size() > 1)
      S += ": " + std::to_string(List.size()) + " processes";
    if (List[0]->Pid)
      S += (List.size() > 1 ? ", pids " : " pid ") +
           std::to_string(List[0]->Pid);
    if (List.size() == 2 && List[1]->Pid)
      S += " and " + std::to_string(List[1]->Pid);
    else if (List.size() > 2)
      S += " and " + std::to_string(List.size() - 1) + " more";
    S += ", " + std::to_string(Dumps) + (Dumps == 1 ? " dump" : " dumps");
    if (Duplicates)
      S += " (" + std::to_string(Duplicates) + " seen twice, counted once)";
    if (Evictions)
      S += ", " + std::to_string(Evictions) + " table evictions";
    Tab.add({"process", S});
    commands(List, Tab);
  }
  // The program here; its libraries (a distribution program maps dozens)
  // are counted here and listed in the last section, "Modules".
  uint64_t Libraries = 0, Unloaded = 0, Unsymbolized = 0;
  for (const Module &M : P.Modules) {
    if (M.Path.empty() && M.File.empty())
      continue;
    if (M.Main) {
      Tab.add({"program", moduleLine(M)});
      continue;
    }
    Libraries++;
    Unloaded += M.Unloaded && !M.Loaded;
    Unsymbolized += M.HasFrames && !M.Usable;
  }
  unnamed(P, Tab);
  if (Libraries) {
    std::string S = std::to_string(Libraries) +
                    (Libraries == 1 ? " library" : " libraries");
    std::vector<std::string> Notes;
    if (Unloaded)
      Notes.push_back(std::to_string(Unloaded) + " unloaded before the end");
    if (Unsymbolized)
      Notes.push_back(std::to_string(Unsymbolized) + " not symbolized");
    for (size_t I = 0; I < Notes.size(); I++)
      S += (I ? ", " : " (") + Notes[I] + (I + 1 == Notes.size() ? ")" : "");
    Tab.add({"modules", S + ", listed in Modules (the last section)"});
  }
  Tab.print(OS);
}

// The libraries the program mapped, with their build ids: the summary
// counts them.
static void modules(const Report &R, raw_ostream &OS) {
  std::vector<const Module *> Libraries;
  for (const Module &M : R.P->Modules)
    if (!M.Main && !(M.Path.empty() && M.File.empty()))
      Libraries.push_back(&M);
  if (Libraries.empty())
    return;
  heading(OS, "Modules: the libraries the program mapped");
  for (const Module *M : Libraries)
    OS << terminalText(moduleLine(*M)) << "\n";
}

static void stack(const Report &R, const Context &C, raw_ostream &OS) {
  TextTable Tab({"", "", ""}, "lll");
  Tab.cap(40);
  for (const Frame *F : C.frames(*R.P))
    Tab.add({"   ", F->Function, where(*F) + (F->Inlined ? " (inlined)" : "")});
  Tab.print(OS);
}

static void top(const Report &R, raw_ostream &OS) {
  const Profile &P = *R.P;
  heading(OS, "Top contexts by " + std::string(sortKeyName(R.Opts.Sort)));
  if (!R.TopInfo.Known)
    return lacks(OS, R.TopInfo, *R.P);
  if (R.Top.empty()) {
    OS << "(no context has any)\n";
    return;
  }
  bool Live = P.has(Field::live_objects), LiveBytes = P.has(Field::live_bytes);
  for (size_t I = 0; I < R.Top.size(); I++) {
    const TopRow &Row = R.Top[I];
    const Context &Ctx = P.Contexts[Row.Context];
    const Counts &C = Ctx.C;
    Derived D = derive(C);
    OS << "#" << I + 1 << "  " << percent(Row.Percent);
    // An average doesn't add up over contexts: its rows give their share
    // of the bytes (TopRow::Percent), and say so.
    if (R.Opts.Sort == SortKey::density || R.Opts.Sort == SortKey::lifetime)
      OS << " of bytes";
    OS << "  ";
    switch (R.Opts.Sort) {
    case SortKey::density:
      OS << str("%.2f", Row.Value) << " accesses per 100 bytes, ";
      break;
    case SortKey::lifetime:
      OS << str("%.1f", Row.Value) << " ms average lifetime, ";
      break;
    case SortKey::cycles:
      OS << str("%.0f", Row.Value) << " allocator cycles (estimated), ";
      break;
    case SortKey::temporary:
      OS << C.temporary() << " temporary, ";
      break;
    default:
      break;
    }
    OS << humanBytes(C.bytes()) << " in " << objects(C.allocs());
    std::string Sz = sizes(C);
    if (!Sz.empty())
      OS << " (" << Sz << ")";
    if (Live) {
      OS << ", " << C.live_objects() << " live";
      if (LiveBytes)
        OS << " (" << humanBytes(C.live_bytes()) << ")";
    }
    if (P.Total.accesses()) // else the summary says why there are none
      OS << ", " << C.accesses()
         << (C.accesses() == 1 ? " access" : " accesses") << " ("
         << str("%.1f", D.AccessesPerObject) << " per object)";
    OS << "\n";
    stack(R, Ctx, OS);
  }
  omitted(OS, R.TopInfo, "context", "contexts");
}

static std::string chain(const std::vector<Frame> &Chain) {
  std::string S;
  for (const Frame &F : Chain) {
    if (!S.empty())
      S += " <- ";
    S += F.Function;
    std::string W = where(F);
    if (!W.empty())
      S += " (" + W + ")";
  }
  return S;
}

// How ChainRow tables group their contexts (--depth).
static std::string bySiteAndCallers(const Report &R) {
  return "by allocation site and " +
         std::to_string(R.Opts.Depth > 0 ? R.Opts.Depth - 1 : 0) + " callers";
}

// What --suppressions took out of the leak table, rule by rule, as
// LeakSanitizer lists the suppressions it used.
static void suppressed(const Report &R, raw_ostream &OS) {
  if (R.Opts.Suppressions.empty())
    return;
  OS << "suppressed (--suppressions):\n";
  TextTable Tab({"bytes", "objects", "contexts", "rule"}, "rrrl");
  for (size_t I = 0; I < R.Opts.Suppressions.size(); I++) {
    const Report::Suppressed &S = R.LeaksSuppressed[I];
    const Suppression &Rule = R.Opts.Suppressions[I];
    Tab.add({humanBytes(S.Bytes), std::to_string(S.Objects),
             std::to_string(S.Contexts),
             "leak:" + Rule.Pattern + "  (" + Rule.Where + ")"});
  }
  Tab.print(OS);
}

// The leak check at exit (tag 10): the unreachable memory, then what the
// table leaves out (the live memory still reachable) and when an object may
// be counted though the program still held it (threads running at the
// check).
static void unreachable(const Report &R, raw_ostream &OS) {
  heading(OS, "Memory leaks: unreachable at exit, " + bySiteAndCallers(R));
  if (!R.LeakInfo.Known)
    return lacks(OS, R.LeakInfo, *R.P);
  const Profile &P = *R.P;
  if (R.Leaks.empty()) {
    OS << (P.Total.leaked_objects()
               ? "(everything unreachable at exit was suppressed)\n"
               : "(no object was unreachable at exit)\n");
  } else {
    // The direct bytes in a column of their own: a row's 24 direct bytes
    // beside 117.2 KiB of indirect ones read as 117.2 KiB in both bytes
    // and indirect, and were nowhere to be seen.
    TextTable Tab(
        {"bytes", "%", "objects", "direct", "indirect", "call chain"},
        "rrrrrl");
    for (const LeakRow &Row : R.Leaks)
      Tab.add({humanBytes(Row.Bytes), percent(Row.Percent),
               std::to_string(Row.Objects),
               humanBytes(Row.Bytes - Row.IndirectBytes),
               humanBytes(Row.IndirectBytes), chain(Row.Chain)});
    Tab.print(OS);
    omitted(OS, R.LeakInfo, "call chain", "call chains");
  }
  OS << "(still reachable at exit, not listed: " << bytesText(R.ReachableBytes)
     << " in " << objects(R.ReachableObjects)
     << "; --leaks=live lists all live memory)\n";
  uint64_t N = P.Leaks.ThreadsRunning;
  if (N)
    OS << "(" << N << (N == 1 ? " other thread was" : " other threads were")
       << " running at the check: an object only " << (N == 1 ? "its" : "their")
       << " registers held is counted as leaked)\n";
  suppressed(R, OS);
}

static void leaks(const Report &R, raw_ostream &OS) {
  if (R.LeaksUnreachable)
    return unreachable(R, OS);
  heading(OS, "Memory leaks: live at the end, " + bySiteAndCallers(R));
  if (!R.LeakInfo.Known)
    return lacks(OS, R.LeakInfo, *R.P);
  if (R.Leaks.empty()) {
    OS << (R.P->Total.live_objects()
               ? "(everything live at the end was suppressed)\n"
               : "(nothing was live at the end)\n");
    suppressed(R, OS);
    return;
  }
  bool Bytes = R.LeakInfo.Lacks.empty();
  if (!Bytes)
    OS << "(bytes unknown: the profile lacks live_bytes; % is of objects)\n";
  TextTable Tab({"bytes", "%", "objects", "call chain"}, "rrrl");
  for (const LeakRow &Row : R.Leaks)
    Tab.add({Bytes ? humanBytes(Row.Bytes) : "?", percent(Row.Percent),
             std::to_string(Row.Objects), chain(Row.Chain)});
  Tab.print(OS);
  omitted(OS, R.LeakInfo, "call chain", "call chains");
  suppressed(R, OS);
}

static void bins(const Report &R, raw_ostream &OS) {
  heading(OS, "Allocation bins: by requested size");
  if (!R.BinInfo.Known)
    return lacks(OS, R.BinInfo, *R.P);
  if (R.Bins.empty()) {
    OS << "(no allocations)\n";
    return;
  }
  TextTable Tab({"size", "allocs", "bytes", "frees", "kept", "%allocs",
                 "%bytes"});
  for (const BinRow &B : R.Bins)
    Tab.add({B.Size > 1024 ? ">1024" : std::to_string(B.Size),
             std::to_string(B.Allocs), humanBytes(B.Bytes), std::to_string(B.Frees),
             humanBytes(B.Kept), percent(B.PercentAllocs),
             percent(B.PercentBytes)});
  const BinRow &O = R.BinsOmitted;
  if (R.BinInfo.Omitted)
    Tab.add({"other", std::to_string(O.Allocs), humanBytes(O.Bytes),
             std::to_string(O.Frees), humanBytes(O.Kept),
             percent(O.PercentAllocs), percent(O.PercentBytes)});
  Tab.print(OS);
  if (R.BinInfo.Omitted)
    OS << "(other: " << R.BinInfo.Omitted << " more sizes, each under "
       << percent(BinShare)
       << " of the allocations and of the bytes; --top 0 shows them)\n";
  if (!R.Opts.Full)
    OS << "(sizes nothing asked for are left out; --full shows them)\n";
}

static void direct(const Report &R, raw_ostream &OS) {
  heading(OS, "Direct allocation: functions that called the allocator");
  if (R.Direct.empty()) {
    OS << "(no allocations)\n";
    return;
  }
  std::vector<std::string> Head = {"%bytes", "bytes", "kept", "calls"};
  if (R.DirectClasses)
    Head.insert(Head.end(), {"small", "medium", "large", "xlarge"});
  Head.push_back("function");
  TextTable Tab(Head, std::string(Head.size() - 1, 'r') + "l");
  for (const DirectRow &D : R.Direct) {
    std::vector<std::string> Row = {percent(D.Percent), humanBytes(D.Bytes),
                                    R.P->has(Field::live_bytes)
                                        ? humanBytes(D.KeptBytes)
                                        : "?",
                                    std::to_string(D.Calls)};
    if (R.DirectClasses)
      for (int I = 0; I < 4; I++)
        Row.push_back(
            D.Bytes ? str("%.0f%%", 100.0 * D.Class[I] / D.Bytes) : "-");
    Row.push_back(D.Function);
    Tab.add(Row);
  }
  Tab.print(OS);
  if (R.DirectClasses)
    OS << "(small 0-32 B, medium 33-256 B, large 257-2048 B, xlarge over "
          "2048 B: % of the function's bytes)\n";
  else
    OS << "(no size-class split: the profile lacks bytes_small..."
          "bytes_xlarge)\n";
  omitted(OS, R.DirectInfo, "function", "functions");
}

static void callGraph(const Report &R, raw_ostream &OS) {
  heading(OS, "Allocation call graph: callers above, callees below each "
              "[entry]");
  if (R.CallGraph.empty()) {
    OS << "(no allocations)\n";
    return;
  }
  TextTable Tab({"index", "%bytes", "self", "total", "calls", "name"},
                "rrrrrl");
  auto Name = [](const CallEdge &C) {
    return C.Name + " [" + std::to_string(C.Entry + 1) + "]";
  };
  auto More = [&](const EdgesOmitted &O, const char *Side) {
    if (O.Edges)
      Tab.add({"", "", "", humanBytes(O.Bytes), std::to_string(O.Calls),
               "    (" + std::to_string(O.Edges) + " more " + Side +
                   "; --top 0 shows all)"});
  };
  for (const CallGraphEntry &E : R.CallGraph) {
    for (const CallEdge &C : E.Callers)
      Tab.add({"", "", "", humanBytes(C.Bytes), std::to_string(C.Calls),
               "    " + Name(C)});
    More(E.CallersOmitted, "callers");
    std::string N = E.Name + " [" + std::to_string(E.Index) + "]";
    if (!E.Members.empty()) {
      N += ":";
      for (const std::string &M : E.Members)
        N += " " + M;
    }
    Tab.add({"[" + std::to_string(E.Index) + "]", percent(E.Percent),
             humanBytes(E.SelfBytes), humanBytes(E.TotalBytes),
             std::to_string(E.TotalCalls), N});
    for (const CallEdge &C : E.Callees)
      Tab.add({"", "", "", humanBytes(C.Bytes), std::to_string(C.Calls),
               "    " + Name(C)});
    More(E.CalleesOmitted, "callees");
    Tab.add({"-----"});
  }
  Tab.print(OS);
  omitted(OS, R.CallGraphInfo, "entry", "entries");
}

static std::string orDash(double V, const char *Fmt) {
  return V < 0 ? "-" : str(Fmt, V);
}

static void measures(const Report &R, raw_ostream &OS) {
  const Profile &P = *R.P;
  heading(OS, "Access and allocator measures of the top contexts");
  if (R.Top.empty()) {
    OS << "(no contexts)\n";
  } else {
    TextTable Tab({"#", "acc/object", "density", "lines touched",
                   "pages touched", "line util", "page util", "lifetime ms",
                   "temporary", "migrated", "malloc cyc", "free cyc"});
    for (size_t I = 0; I < R.Top.size(); I++) {
      const Counts &C = P.Contexts[R.Top[I].Context].C;
      Derived D = derive(C);
      // Without access counts, what they measure is unknown, not 0.
      auto Acc = [&](double V) { return R.AccessesCounted ? V : -1; };
      Tab.add({"#" + std::to_string(I + 1),
               orDash(Acc(D.AccessesPerObject), "%.1f"),
               orDash(Acc(D.Density), "%.1f"),
               orDash(Acc(D.LinesTouched * 100), "%.1f%%"),
               orDash(Acc(D.PagesTouched * 100), "%.1f%%"),
               orDash(D.LineUtilization * 100, "%.1f%%"),
               orDash(D.PageUtilization * 100, "%.1f%%"),
               str("%.1f", D.LifetimeMs),
               P.has(Field::temporary) && C.allocs()
                   ? percent(100.0 * C.temporary() / C.allocs())
                   : std::string("-"),
               std::to_string(C.migrated()), orDash(D.MallocCycles, "%.0f"),
               orDash(D.FreeCycles, "%.0f")});
    }
    Tab.print(OS);
    OS << "(density: accesses per 100 bytes; lines/pages touched: of the "
          "64-byte lines and 4 KiB pages each object spanned, the share it "
          "touched; line/page util: of the lines/pages the live objects "
          "touched at the last dump, the share of bytes they hold; "
          "temporary: of the allocations, freed before their thread "
          "allocated again; cycles: average per measured call)\n";
    if (!R.AccessesCounted)
      OS << "(- for the access measures: no access was counted; a program "
            "not compiled with -fheapprof counts none)\n";
  }

  heading(OS, "Cold candidates: fewer accesses than 8-byte words, most "
              "bytes x lifetime first");
  if (!R.ColdInfo.Known) {
    OS << "(no access was counted; a program not compiled with -fheapprof "
          "counts none)\n";
    return;
  }
  // Contexts allocated in a library built without -fheapprof that no
  // counted code touched: unknown, not cold (tables.cpp).
  auto Uncounted = [&] {
    const auto &U = R.ColdUncounted;
    if (!U.Contexts)
      return;
    std::string Libs;
    for (const std::string &M : U.Modules)
      Libs += (Libs.empty() ? "" : ", ") + M;
    OS << "(left out: " << U.Contexts
       << (U.Contexts == 1 ? " context" : " contexts") << ", "
       << humanBytes(U.Bytes) << " in " << U.Objects
       << (U.Objects == 1 ? " object" : " objects")
       << ", allocated in libraries not compiled with -fheapprof (" << Libs
       << ") and touched by no code that was: their own accesses are not "
          "counted)\n";
  };
  if (R.Cold.empty()) {
    OS << "(none)\n";
    Uncounted();
    return;
  }
  // Each row is the cold contexts of one call chain (--depth frames), as
  // the leak and peak tables group theirs.
  TextTable Tab({"bytes", "objects", "acc/object", "density", "lifetime ms",
                 "call chain"},
                "rrrrrl");
  for (const ColdRow &Row : R.Cold) {
    Derived D = derive(Row.C);
    Tab.add({humanBytes(Row.C.bytes()), std::to_string(Row.C.allocs()),
             str("%.1f", D.AccessesPerObject), str("%.1f", D.Density),
             str("%.1f", D.LifetimeMs), chain(Row.Chain)});
  }
  Tab.print(OS);
  omitted(OS, R.ColdInfo, "cold call chain", "cold call chains");
  Uncounted();
}

// Heap utilization (allocator profiler, docs/allocator-profiler.md): the
// live bytes on the lines/pages the program touched, heap-wide, at the
// last dump of each process.
static void heapUtilization(const Report &R, raw_ostream &OS) {
  const HeapUtilization &U = R.P->Util;
  if (!U.Known)
    return; // heap_utilization=0, or profiles from before it existed
  heading(OS, "Heap utilization at the last dump");
  auto Pct = [](uint64_t A, uint64_t B) {
    return B ? str("%.2f%%", 100.0 * static_cast<double>(A) /
                                 static_cast<double>(B))
             : std::string("-");
  };
  TextTable Tab({"", "utilization", "touched", "of", "live bytes on touched"},
                "lrrrr");
  Tab.add({"cache lines", Pct(U.TouchedLineLiveBytes, 64 * U.TouchedLines),
           std::to_string(U.TouchedLines), std::to_string(U.Lines),
           std::to_string(U.TouchedLineLiveBytes)});
  Tab.add({"pages", Pct(U.TouchedPageLiveBytes, 4096 * U.TouchedPages),
           std::to_string(U.TouchedPages), std::to_string(U.Pages),
           std::to_string(U.TouchedPageLiveBytes)});
  Tab.print(OS);
  OS << "(" << U.LiveChunks
     << (U.LiveChunks == 1 ? " live object, " : " live objects, ")
     << U.LiveBytes
     << " bytes; utilization: of the 64-byte lines and 4 KiB pages of the "
        "heap with an access, the share of bytes live objects hold)\n";
  if (!R.AccessesCounted)
    OS << "(no access was counted, so no line or page is seen touched; a "
          "program not compiled with -fheapprof counts none)\n";
}

// False sharing on the simulated packed layout, or measured on the real
// allocator's (allocator=system|PATH).
static void falseSharing(const Report &R, raw_ostream &OS) {
  if (!R.SharingInfo.Known)
    return; // false_sharing=0: nothing simulated
  const Profile &P = *R.P;
  const FalseSharing &FS = P.Sharing;
  auto Pct = [](uint64_t A, uint64_t B) {
    return B ? str("%.1f%%", 100.0 * static_cast<double>(A) /
                                 static_cast<double>(B))
             : std::string("-");
  };
  if (FS.Layout == FalseSharing::Simulated) {
    heading(OS, "False sharing under a packed allocator "
                "(simulated: 16-byte slots, one sequence per size)");
    OS << "passive: " << FS.SharedLines << " of " << FS.Lines
       << " cache lines would hold objects allocated by different threads ("
       << Pct(FS.SharedLines, FS.Lines) << "); " << objects(FS.Objects)
       << " placed, " << FS.Unplaced
       << " over 1024 bytes not placed\n";
  } else if (FS.Layout == FalseSharing::Real) {
    heading(OS, "False sharing on the real allocator's layout "
                "(measured: real addresses, live objects at the last dump)");
    OS << "passive: " << FS.SharedLines << " of " << FS.Lines
       << " cache lines hold live objects allocated by different threads ("
       << Pct(FS.SharedLines, FS.Lines) << "); " << FS.Objects
       << (FS.Objects == 1 ? " live object\n" : " live objects\n");
  } else {
    heading(OS, "False sharing (processes differ: simulated and real layouts "
                "added up)");
    OS << "passive: " << FS.SharedLines << " of " << FS.Lines
       << " cache lines hold objects allocated by different threads ("
       << Pct(FS.SharedLines, FS.Lines) << "); " << objects(FS.Objects)
       << "\n";
  }
  OS << "active: " << FS.ActiveLines << " lines written by one thread after "
     << "another wrote another object on them, " << FS.ActiveEvents
     << " such writes; " << FS.SameObjectEvents
     << " writes after another thread's to the same object (true sharing "
        "or fields)\n";
  if (FS.DroppedPairs)
    OS << "(" << FS.DroppedPairs << " context pairs not recorded)\n";
  if (R.Sharing.empty()) {
    OS << "(no shared lines)\n";
    return;
  }
  auto Site = [&](uint32_t I) { // the first frame of the context's chain
    std::vector<const Frame *> Fs = chainFrames(P, P.Contexts[I], 1);
    const Frame &F =
        Fs.empty() ? P.Locations[P.Contexts[I].Stack[0]].Frames[0] : *Fs[0];
    std::string W = where(F);
    return F.Function + (W.empty() ? "" : " (" + W + ")");
  };
  TextTable Tab({"passive lines", "active writes", "active lines", "context",
                 "with context"},
                "rrrll");
  for (const FalseSharingPair &FP : R.Sharing)
    Tab.add({std::to_string(FP.Lines), std::to_string(FP.ActiveEvents),
             std::to_string(FP.ActiveLines), Site(FP.A),
             FP.A == FP.B ? std::string("itself, on another thread")
                          : Site(FP.B)});
  Tab.print(OS);
  omitted(OS, R.SharingInfo, "pair", "pairs");
}

static std::string className(const OpClassKey &K) {
  if (K.Op == "none")
    return "outside any call";
  return K.Op + " " + K.Size + " " + K.Block + " " + K.Phase;
}

static void opClasses(const Report &R, raw_ostream &OS) {
  TextTable Tab({"calls", "%calls", "sampled", "mean cycles",
                 "median", "%cycles", "class"},
                "rrrrrrl");
  for (const OpClassRow &C : R.OpClasses)
    Tab.add({std::to_string(C.Count), percent(C.PercentCalls),
             std::to_string(C.Sampled),
             C.Sampled ? str("%.0f", C.MeanCycles) : "-",
             C.Sampled ? "2^" + std::to_string(C.MedianBucket) : "-",
             C.Sampled ? percent(C.PercentCycles) : "-", className(C.K)});
  Tab.print(OS);
  OS << "(class: op, small/large, new/reused block (- for frees), "
        "serial/parallel; median: the log2 bucket of the median sample; "
        "%cycles: mean x calls, of the classes with a timed call)\n";
  if (R.Cost.Known) {
    const OpCost &C = R.Cost;
    if (!C.TimedCalls) {
      OS << "cost per operation: unknown (" << C.Calls
         << (C.Calls == 1 ? " call, not timed)\n" : " calls, none timed)\n");
      return;
    }
    OS << "cost per operation: " << str("%.0f", C.PerOp)
       << " cycles in the allocator's calls (" << C.Calls
       << (C.Calls == 1 ? " call" : " calls");
    if (uint64_t Untimed = C.Calls - C.TimedCalls)
      OS << "; left out: " << Untimed
         << (Untimed == 1 ? " call" : " calls")
         << " of classes with no timed call";
    OS << ")";
    if (C.Faults)
      OS << "; " << str("%.0f", C.PerOpWithFaults)
         << " with the " << C.FaultsOutside
         << " page faults taken outside its calls, at "
         << str("%.0f", C.FaultCycles) << " cycles each (" << C.FaultsInCalls
         << " more inside its calls are in their cycles)";
    OS << "\n";
  }
}

static void syscallsAndPmu(const Report &R, raw_ostream &OS) {
  if (R.SyscallInfo.Known) {
    heading(OS, "Allocator system calls");
    TextTable S({"calls", "bytes", "cycles", "syscall", "caused by"},
                "rrrll");
    bool Reserved = false;
    for (const SyscallRow &Row : R.Syscalls) {
      S.add({std::to_string(Row.Count), humanBytes(Row.Bytes),
             std::to_string(Row.Cycles), Row.Syscall, className(Row.K)});
      Reserved |= Row.K.Op == "none" && Row.Syscall == "mmap" &&
                  Row.Bytes >= (1ull << 40);
    }
    S.print(OS);
    if (Reserved)
      OS << "(outside any call: mostly heapprof's allocator reserving its "
            "address space at start, MAP_NORESERVE: address space, not "
            "memory)\n";
  }
  if (R.PmuEvents.Present) {
    heading(OS, "PMU events per sampled allocator call");
    if (R.PmuEvents.NoHardware)
      OS << "(no hardware counters on this machine: software events only)\n";
    std::vector<std::string> Head = {"samples"};
    for (const std::string &E : R.PmuEvents.Events)
      Head.push_back(E + "/call");
    Head.push_back("class");
    TextTable P(Head, std::string(Head.size() - 1, 'r') + "l");
    for (const PmuRow &Row : R.Pmu) {
      std::vector<std::string> Cells = {std::to_string(Row.Samples)};
      for (uint64_t V : Row.Sums)
        Cells.push_back(Row.Samples ? str("%.2f", double(V) / Row.Samples)
                                    : "-");
      Cells.push_back(className(Row.K));
      P.add(Cells);
    }
    P.print(OS);
  }
}

// The allocator profiler (docs/allocator-profiler.md, sections 2-4).
static void costs(const Report &R, raw_ostream &OS) {
  heading(OS, "Allocator cost by operation class");
  if (!R.OpClassInfo.Known)
    lacks(OS, R.OpClassInfo, *R.P); // the system calls may still be there
  else
    opClasses(R, OS);
  syscallsAndPmu(R, OS);
}

// Why the profile has no What (the peak or the timeline: both come with
// peak=1), SampledWhy in sampled mode.
static void noPeakSection(raw_ostream &OS, const Profile &P, const char *What,
                          const char *SampledWhy) {
  OS << "(the profile has no " << What << ": ";
  if (P.Sampled)
    OS << SampledWhy;
  else if (P.noExtension())
    OS << "written by " << olderWriter(P);
  else
    OS << "written with peak=0 or by an older heapprof runtime";
  OS << ")\n";
}

// The heap's peak: when, how big, who held it, and what the allocator's
// bytes there are made of.
static void peak(const Report &R, raw_ostream &OS) {
  const Profile &P = *R.P;
  const Peak &K = P.Peak;
  heading(OS, "The peak: the largest live heap, " + bySiteAndCallers(R));
  if (!R.PeakInfo.Known)
    return noPeakSection(OS, P, "peak",
                         "sampled mode does not track it, it sees only the "
                         "sampled objects");
  std::string Who;
  if (K.Processes > 1)
    Who = " (pid " + std::to_string(K.Pid) + ", the largest of " +
          std::to_string(K.Processes) + " processes)";
  // Another allocator's heap (allocator=system, heapprof run on a library's
  // malloc) is not seen from outside it: the runtime records its blocks as
  // the requested bytes and 0 for every measure of heapprof's own heap
  // (run.md), which printed as measured read as "no fragmentation".
  std::string Foreign;
  if (P.Allocator == Profile::AllocatorKind::Glibc)
    Foreign = "glibc's malloc";
  else if (P.Allocator == Profile::AllocatorKind::Library)
    Foreign = P.AllocatorPath;
  OS << bytesText(K.Bytes) << " requested in " << objects(K.Objects) << " at "
     << K.Ms << " ms" << Who;
  if (Foreign.empty())
    OS << "; the allocator's blocks " << bytesText(K.BlockBytes) << "\n";
  else
    OS << "; the allocator, " << Foreign
       << ", is not seen from outside: its blocks are not measured\n";
  if (!R.Peak.empty()) {
    TextTable Tab({"bytes", "%", "objects", "call chain"}, "rrrl");
    for (const PeakRow &Row : R.Peak)
      Tab.add({std::to_string(Row.Bytes), percent(Row.Percent),
               std::to_string(Row.Objects), chain(Row.Chain)});
    Tab.print(OS);
    omitted(OS, R.PeakInfo, "call chain", "call chains");
  }
  if (R.PeakAboveBytes)
    OS << "(the heap over time noted " << bytesText(R.PeakAboveBytes)
       << " in " << R.PeakAboveMs << "-"
       << R.PeakAboveMs + P.Timeline.BucketMs << " ms, "
       << humanBytes(R.PeakAboveBytes - K.Bytes)
       << " above this peak: snapshots are a step apart, at most "
          "peak_threshold_kb (here "
       << humanBytes(K.ThresholdBytes)
       << "), so the peak may be up to a step low)\n";
  if (R.PeakUnnamed)
    OS << "(" << bytesText(R.PeakUnnamed)
       << " of the peak in contexts these dumps don't name: their chunks "
          "were freed before an earlier checkpoint; read it too)\n";
  const OverheadRows &O = R.Overhead;
  if (!O.Known)
    return;
  // Large heaps are measured at every eighth of growth (heapprof_peak.h):
  // the state may be from a moment a little below the peak.
  if (O.Requested < K.Bytes)
    OS << "memory overhead near the peak, measured at "
       << humanBytes(O.Requested) << " live (the peak: "
       << humanBytes(K.Bytes) << "):\n";
  else
    OS << "memory overhead at the peak:\n";
  if (!Foreign.empty())
    OS << "(" << Foreign
       << "'s blocks, fragmentation and mapped memory are not seen from "
          "outside it: only heapprof's metadata is measured)\n";
  // "N bytes" right-aligned, so that the digits line up; the human size,
  // the share of the heap (right-aligned) and a note in columns of their own.
  TextTable Tab({"", "", "", "", ""}, "lrlrl");
  auto Row = [&](const std::string &Name, uint64_t B, bool Share,
                 std::string Note = "") {
    std::string Pct;
    if (Share && O.HeapMapped) {
      Pct = percent(100.0 * B / O.HeapMapped);
      Note = "of the heap";
    }
    Tab.add({Name, std::to_string(B) + " bytes", "(" + humanBytes(B) + ")",
             Pct, std::move(Note)});
  };
  Row("requested", O.Requested, Foreign.empty());
  if (Foreign.empty()) {
    Row("internal fragmentation", O.Internal, true);
    Row("  headers", O.Headers, false);
    Row("  rounding and pages", O.Rounding, false);
    if (O.Threads > 1)
      Row("memory blowup", O.Blowup, true);
    else
      Row("memory blowup", O.Blowup, false, "(one thread: none)");
    Row("external fragmentation", O.External, true);
    Row("heap mapped", O.HeapMapped, false);
    Row("heap resident", O.HeapResident, false);
  }
  Row("metadata", O.Metadata, false, "(besides the heap)");
  for (const auto &KV : O.MetadataParts)
    if (Foreign.empty() || KV.second) // the parts of heapprof's heap are 0
      Row("  " + KV.first, KV.second, false);
  Row("process resident", O.ProcessRss, false);
  if (O.TouchedLines) {
    auto Util = [](uint64_t Live, uint64_t N, uint64_t Unit) {
      return percent(100.0 * static_cast<double>(Live) /
                     static_cast<double>(N * Unit));
    };
    // A share, in the share column.
    Tab.add({"line utilization", "", "",
             Util(O.TouchedLineLiveBytes, O.TouchedLines, 64),
             "live bytes on the " + std::to_string(O.TouchedLines) +
                 " touched lines"});
    Tab.add({"page utilization", "", "",
             Util(O.TouchedPageLiveBytes, O.TouchedPages, 4096),
             "live bytes on the " + std::to_string(O.TouchedPages) +
                 " touched pages"});
  }
  Tab.print(OS, "  ");
}

// The live heap over time as a chart of at most 64 columns and 10 rows:
// each column the buckets of its time, '#' up to the lowest live size in
// them, ':' on up to the highest.  A column without a note keeps the last
// size before it (the heap moved by less than the runtime notes).
static void timeline(const Report &R, raw_ostream &OS) {
  const Profile &P = *R.P;
  const Timeline &T = P.Timeline;
  heading(OS, "The heap over time: live requested bytes");
  if (!T.Known || T.Buckets.empty())
    return noPeakSection(OS, P, "timeline",
                         "sampled mode does not keep one, it sees only the "
                         "sampled objects");
  constexpr uint64_t MaxColumns = 64, Rows = 10, MinColumns = 8;
  uint64_t Slots = T.Buckets.back().Ms / T.BucketMs + 1;
  // The run's span, as the summary's "time span" gives it: the last dump
  // of the timeline's process (whose snapshot is its last note), not the
  // end of the bucket or column that holds it, which is up to a column
  // later (a run of 92 ms in 2 ms columns read "94 ms").
  uint64_t SpanMs = T.Buckets.back().Ms;
  for (const Process &Proc : P.Processes)
    if (Proc.Pid == T.Pid)
      SpanMs = std::max(SpanMs, Proc.LastMs);
  if (Slots < MinColumns) {
    // Too short a run for a chart (the clock ticks every few ms): a line.
    uint64_t Low = T.Buckets[0].Lowest, High = 0;
    for (const TimelineBucket &X : T.Buckets) {
      Low = std::min(Low, X.Lowest);
      High = std::max(High, X.Highest);
    }
    OS << "(" << SpanMs << " ms recorded, too short for a chart: "
       << "the live heap went from " << humanBytes(Low) << " up to "
       << humanBytes(High) << " and ended at "
       << humanBytes(T.Buckets.back().Last) << ")\n";
    return;
  }
  uint64_t PerColumn = (Slots + MaxColumns - 1) / MaxColumns;
  uint64_t Columns = (Slots + PerColumn - 1) / PerColumn;
  uint64_t ColumnMs = PerColumn * T.BucketMs;
  std::vector<uint64_t> Lo(Columns), Hi(Columns);
  uint64_t Carry = 0, Max = 1;
  size_t B = 0;
  for (uint64_t C = 0; C < Columns; C++) {
    Lo[C] = Hi[C] = Carry;
    bool Any = false;
    for (; B < T.Buckets.size() && T.Buckets[B].Ms < (C + 1) * ColumnMs; B++) {
      const TimelineBucket &X = T.Buckets[B];
      Lo[C] = Any ? std::min(Lo[C], X.Lowest) : X.Lowest;
      Hi[C] = Any ? std::max(Hi[C], X.Highest) : X.Highest;
      Carry = X.Last;
      Any = true;
    }
    Max = std::max(Max, Hi[C]);
  }
  std::string Top = humanBytes(Max), Mid = humanBytes(Max / 2), Zero = "0 B";
  size_t W = std::max({Top.size(), Mid.size(), Zero.size()});
  auto Pad = [&](const std::string &S) {
    return std::string(W - S.size(), ' ') + S;
  };
  for (uint64_t Row = Rows; Row >= 1; Row--) {
    // A cell is filled when the size reaches the middle of its row.
    double Level = static_cast<double>(Max) * (2 * Row - 1) / (2 * Rows);
    std::string Line = Row == Rows       ? Pad(Top)
                       : Row == Rows / 2 ? Pad(Mid)
                                         : std::string(W, ' ');
    Line += " |";
    for (uint64_t C = 0; C < Columns; C++)
      Line += static_cast<double>(Lo[C]) >= Level   ? '#'
              : static_cast<double>(Hi[C]) >= Level ? ':'
                                                    : ' ';
    while (Line.back() == ' ')
      Line.pop_back();
    OS << Line << "\n";
  }
  OS << Pad(Zero) << " +" << std::string(Columns, '-') << "\n";
  std::string End = std::to_string(SpanMs) + " ms";
  std::string Axis = std::string(W + 2, ' ') + "0 ms";
  if (Axis.size() + 1 + End.size() < W + 2 + Columns)
    Axis += std::string(W + 2 + Columns - Axis.size() - End.size(), ' ');
  else
    Axis += " ";
  OS << Axis << End << "\n";
  OS << "(each column " << ColumnMs << " ms: '#' up to the lowest live size "
     << "in it, ':' up to the highest; sizes noted at every "
     << "64 KiB a thread's heap moved, at the peak and at each dump";
  if (P.Processes.size() > 1)
    OS << "; pid " << T.Pid << ", the process with the peak";
  OS << ")\n";
}

void heapprof::renderText(const Report &R, raw_ostream &OS) {
  OS << "heapprof report";
  size_t Files = 0;
  for (const Process &Proc : R.P->Processes)
    Files += Proc.Files.size();
  OS << ": " << R.P->Processes.size()
     << (R.P->Processes.size() == 1 ? " process" : " processes") << ", "
     << Files << (Files == 1 ? " file" : " files") << "\n";
  summary(R, OS);
  top(R, OS);
  leaks(R, OS);
  bins(R, OS);
  direct(R, OS);
  callGraph(R, OS);
  measures(R, OS);
  heapUtilization(R, OS);
  falseSharing(R, OS);
  costs(R, OS);
  peak(R, OS);
  timeline(R, OS);
  modules(R, OS);
}
