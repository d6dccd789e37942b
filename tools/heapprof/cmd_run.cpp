//===- cmd_run.cpp - heapprof run: profile a program that was not rebuilt --===//
//
// Part of heapprof.  heapprof run execs the program with the shared runtime
// (lib/heapprof/libheapprof_rt.so next to this tool's bin/) preloaded; the
// runtime then restores the caller's environment for the program's children
// unless --follow-exec (heapprof_preload.c; docs/run.md).  The exec replaces
// this process: the program keeps heapprof run's pid, and its exit status and
// signals are the caller's directly.  --allocator=system|NAME|PATH.so: the
// runtime profiles that allocator instead of replacing it (the runtime flag
// allocator=, heapprof_foreign.c); the library (PATH.so, or the one NAME --
// jemalloc, tcmalloc, mimalloc, a file name -- finds in the library
// directories) is preloaded right after the runtime.
//
// Refused with one `heapprof: error:` line: a program that is not found, a
// statically linked one and a setuid/setgid or file-capability one (the
// loader does not preload into them), an --allocator that is not there
// or is not an x86-64 shared library defining malloc, an address-space
// limit (ulimit -v) below what the runtime reserves at start, a -o
// directory that cannot be made or written into, a Go program (statically
// linked or not) and one whose
// executable defines malloc itself (the last two run with --follow-exec).
// A program that links an allocator library runs on it unless --allocator
// says otherwise.
//
//===----------------------------------------------------------------------===//
#include "commands.h"

extern "C" {
#include "heapprof_message.h"
}

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <string>
#include <vector>

const char heapprof::RunUsage[] =
    "usage: heapprof run [-o DIR] [--allocator=heapprof|system|NAME|PATH.so] "
    "[--follow-exec] -- PROG ARGS...\n"
    "  Runs PROG (not rebuilt) with heapprof's runtime preloaded: sizes,\n"
    "  counts, lifetimes, contexts, CPUs and allocator cycles, no access\n"
    "  counts. Profiles go to DIR (default: the current directory), named as\n"
    "  -fheapprof=DIR names them. --allocator: heapprof's allocator serves\n"
    "  the program (default; a program that links an allocator library runs\n"
    "  on it), or glibc's (system), or an allocator library, profiled as it\n"
    "  runs: NAME jemalloc, tcmalloc or mimalloc (or a library's file name),\n"
    "  found in the library directories, or PATH.so.\n"
    "  --follow-exec: programs PROG execs are profiled too, each to its own\n"
    "  file (default: only PROG).\n";

// heapprof's lib/heapprof directory (the runtime, heapprof-tool): the
// running binary's own directory when that is lib/heapprof
// (heapprof-tool), else <the binary's directory>/../lib/heapprof
// (bin/heapprof).
// Without /proc (a chroot or container that does not mount it), the name
// execve was given (AT_EXECFN) with its symbolic links resolved.
std::string heapprof::libDir() {
  char Self[PATH_MAX];
  ssize_t N = readlink("/proc/self/exe", Self, sizeof(Self) - 1);
  if (N > 0) {
    Self[N] = 0;
  } else {
    const char *Fn = reinterpret_cast<const char *>(getauxval(AT_EXECFN));
    if (!Fn || !realpath(Fn, Self))
      return "";
  }
  std::string S = Self;
  S = S.substr(0, S.rfind('/')); // the binary's directory
  const std::string Tail = "/lib/heapprof";
  if (S.size() >= Tail.size() &&
      S.compare(S.size() - Tail.size(), Tail.size(), Tail) == 0)
    return S;
  return S.substr(0, S.rfind('/')) + Tail;
}

namespace {

int usageError(const char *Msg) {
  hpf_error("error", Msg); // as the other commands' usage errors
  fputs(heapprof::RunUsage, stderr);
  return 2;
}

// One line, whatever the program's or a path's name holds (hpf_error
// escapes control characters).
int fail(const std::string &Msg) {
  hpf_error("error", Msg.c_str());
  return 1;
}

// PROG as execvp would find it: itself if it has a '/', else the first
// executable regular file of that name on PATH (a directory so named is
// passed over, as execvp does); "" for an empty name.  Path: a PATH other
// than this process's (env's `PATH=...` before the name it runs).
std::string findProgram(const char *Prog, const char *Path = nullptr) {
  if (!*Prog)
    return "";
  if (strchr(Prog, '/'))
    return Prog;
  if (!Path)
    Path = getenv("PATH");
  std::string P = Path ? Path : "/usr/local/bin:/usr/bin:/bin";
  size_t Start = 0;
  for (;;) {
    size_t End = P.find(':', Start);
    std::string Dir = P.substr(Start, End == std::string::npos ? End : End - Start);
    std::string Cand = (Dir.empty() ? "." : Dir) + "/" + Prog;
    struct stat St;
    if (stat(Cand.c_str(), &St) == 0 && S_ISREG(St.st_mode) &&
        access(Cand.c_str(), X_OK) == 0)
      return Cand;
    if (End == std::string::npos)
      return "";
    Start = End + 1;
  }
}

std::string runtimePath() {
  std::string Lib = heapprof::libDir();
  return Lib.empty() ? "" : Lib + "/libheapprof_rt.so";
}

// The PT_INTERP path of the 64-bit ELF file open at Fd, whose header is
// Eh; Has says whether there is one.
std::string interpreterOf(int Fd, const Elf64_Ehdr &Eh, bool &Has) {
  Has = false;
  for (unsigned I = 0; I < Eh.e_phnum; I++) {
    Elf64_Phdr Ph;
    if (pread(Fd, &Ph, sizeof(Ph), Eh.e_phoff + (off_t)I * Eh.e_phentsize) !=
        (ssize_t)sizeof(Ph))
      break;
    if (Ph.p_type != PT_INTERP)
      continue;
    Has = true;
    std::string P(Ph.p_filesz < PATH_MAX ? Ph.p_filesz : 0, '\0');
    if (!P.empty() &&
        pread(Fd, &P[0], P.size(), (off_t)Ph.p_offset) != (ssize_t)P.size())
      P.clear();
    P.resize(strnlen(P.c_str(), P.size()));
    return P;
  }
  return "";
}

// The program's dynamic loader (PT_INTERP), or "" (a script, a static
// program).
std::string interpreterOf(const std::string &Path) {
  int Fd = open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return "";
  Elf64_Ehdr Eh;
  std::string Interp;
  bool Has;
  if (pread(Fd, &Eh, sizeof(Eh), 0) == (ssize_t)sizeof(Eh) &&
      !memcmp(Eh.e_ident, ELFMAG, SELFMAG) &&
      Eh.e_ident[EI_CLASS] == ELFCLASS64)
    Interp = interpreterOf(Fd, Eh, Has);
  close(Fd);
  return Interp;
}

// The image the kernel runs for Path: Path itself, or for a `#!` script
// the interpreter its first line names, as binfmt_script reads it (within
// the first 256 bytes: blanks, the interpreter's path up to the next
// blank, relative to the current directory; the rest of the line one
// argument), itself a script again as far as the kernel follows them (5
// scripts deep; a sixth is ELOOP). `#!/usr/bin/env NAME` (or `env -S NAME
// ...`) runs NAME as env finds it on PATH (a `PATH=...` before it
// included): that program, then. "" and Why
// set when the kernel would refuse the exec (an interpreter missing or not
// executable); "" and Why empty when it cannot be told (env given a name
// it will not find, a line env takes otherwise), which env reports itself.
std::string imageOf(const std::string &Path, std::string &Why) {
  std::string Image = Path;
  Why.clear();
  for (int Depth = 0;; Depth++) {
    char Buf[256];
    int Fd = open(Image.c_str(), O_RDONLY | O_CLOEXEC);
    if (Fd < 0)
      return Image;
    ssize_t N = pread(Fd, Buf, sizeof(Buf), 0);
    close(Fd);
    if (N < 2 || memcmp(Buf, "#!", 2))
      return Image;
    if (Depth == 5) {
      Why = "its #! interpreters nest more than 5 scripts deep, which "
            "the kernel refuses (" + std::string(strerror(ELOOP)) + ")";
      return "";
    }
    std::string Line(Buf + 2, N - 2);
    Line = Line.substr(0, Line.find_first_of(std::string("\n\0", 2)));
    size_t From = Line.find_first_not_of(" \t");
    if (From == std::string::npos)
      return "";
    size_t To = Line.find_first_of(" \t", From);
    std::string Interp = Line.substr(From, To == std::string::npos
                                               ? To
                                               : To - From);
    std::string Arg;
    if (To != std::string::npos && (From = Line.find_first_not_of(
                                        " \t", To)) != std::string::npos)
      Arg = Line.substr(From, Line.find_last_not_of(" \t") + 1 - From);
    if (access(Interp.c_str(), X_OK) != 0) {
      Why = "its #! interpreter '" + Interp + "': " + strerror(errno);
      return "";
    }
    Image = Interp;
    const char *Base = strrchr(Interp.c_str(), '/');
    if (strcmp(Base ? Base + 1 : Interp.c_str(), "env") || Arg.empty())
      continue;
    // env's one argument: NAME, or "-S NAME ARGS" split at blanks (with
    // VAR=VALUE settings before NAME).  Any other option: not told.
    std::vector<std::string> Words;
    bool Split =
        Arg.rfind("-S", 0) == 0 || Arg.rfind("--split-string", 0) == 0;
    if (Split) {
      Arg = Arg.substr(Arg[1] == 'S' ? 2 : 14);
      if (!Arg.empty() && Arg[0] == '=')
        Arg = Arg.substr(1);
      for (size_t At = 0; (At = Arg.find_first_not_of(" \t", At)) !=
                          std::string::npos;) {
        size_t End = Arg.find_first_of(" \t", At);
        Words.push_back(Arg.substr(At, End == std::string::npos ? End
                                                                : End - At));
        At = End;
      }
    } else
      Words.push_back(Arg);
    // A PATH set before NAME is the one env's execvp searches.
    size_t W = 0;
    const char *EnvPath = nullptr;
    for (; W < Words.size() && Words[W].find('=') != std::string::npos; W++)
      if (Words[W].rfind("PATH=", 0) == 0)
        EnvPath = Words[W].c_str() + 5;
    if (W == Words.size() || Words[W][0] == '-' ||
        (!Split && Arg.find_first_of(" \t") != std::string::npos))
      return "";
    Image = findProgram(Words[W].c_str(), EnvPath);
    if (Image.empty())
      return "";
    Depth = -1; // env's exec is a new one: the kernel counts afresh
  }
}

// Whether Path is the dynamic loader this program runs under (the same
// file, by device and inode), which has no PT_INTERP of its own.
bool isOurLoader(const std::string &Path) {
  std::string Loader = interpreterOf("/proc/self/exe");
  struct stat A, B;
  return !Loader.empty() && stat(Loader.c_str(), &A) == 0 &&
         stat(Path.c_str(), &B) == 0 && A.st_dev == B.st_dev &&
         A.st_ino == B.st_ino;
}

// "" if Path is a dynamically linked ELF executable (or a #! script, whose
// interpreter the loader preloads into); else why it cannot be profiled.
std::string whyNotPreloadable(const std::string &Path) {
  int Fd = open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return std::string("cannot open: ") + strerror(errno);
  Elf64_Ehdr Eh;
  ssize_t N = pread(Fd, &Eh, sizeof(Eh), 0);
  std::string Why;
  if (N >= 2 && !memcmp(&Eh, "#!", 2)) {
    Why = "";
  } else if (N < (ssize_t)sizeof(Eh) || memcmp(Eh.e_ident, ELFMAG, SELFMAG)) {
    Why = "not an ELF executable";
  } else if (Eh.e_ident[EI_CLASS] != ELFCLASS64 || Eh.e_machine != EM_X86_64) {
    Why = "not an x86-64 ELF executable";
  } else {
    bool Interp;
    interpreterOf(Fd, Eh, Interp);
    if (!Interp && isOurLoader(Path))
      Why = "the dynamic loader itself: name the program it would run "
            "(heapprof run -- PROG ARGS), which runs under this loader "
            "with the runtime preloaded";
    else if (!Interp)
      Why = "statically linked: a preloaded runtime cannot work in it (no "
            "dynamic loader); rebuild it with heapprof-clang -fheapprof";
  }
  close(Fd);
  if (!Why.empty())
    return Why;
  // Secure execution: the exec changes the user or group id (a setuid
  // program of another owner, setgid of another group than ours).  One
  // that changes nothing (root running root's setuid program, a user
  // their own) runs as any other, LD_PRELOAD honoured.
  struct stat St;
  if (stat(Path.c_str(), &St) == 0) {
    bool Uid = (St.st_mode & S_ISUID) && St.st_uid != getuid();
    bool Gid = (St.st_mode & S_ISGID) && St.st_gid != getgid();
    if (Uid || Gid)
      return std::string(Uid ? "setuid" : "setgid") +
             ": the dynamic loader ignores LD_PRELOAD for it (secure "
             "execution); run a copy without the bit";
  }
  if (getxattr(Path.c_str(), "security.capability", nullptr, 0) > 0)
    return "has file capabilities: the dynamic loader ignores LD_PRELOAD for "
           "it (secure execution); run a copy without them";
  return "";
}

// Whether Path is a Go program: a PT_NOTE segment holds a note of owner
// "Go" (the Go build ID).  Its heap is the Go runtime's own, not malloc's,
// and it ends with exit_group of its own, past the C library, so the
// preloaded runtime never writes a profile for it.
bool isGoProgram(const std::string &Path) {
  int Fd = open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return false;
  Elf64_Ehdr Eh;
  bool Go = false;
  if (pread(Fd, &Eh, sizeof(Eh), 0) == (ssize_t)sizeof(Eh) &&
      !memcmp(Eh.e_ident, ELFMAG, SELFMAG) &&
      Eh.e_ident[EI_CLASS] == ELFCLASS64)
    for (unsigned I = 0; I < Eh.e_phnum && !Go; I++) {
      Elf64_Phdr Ph;
      if (pread(Fd, &Ph, sizeof(Ph), Eh.e_phoff + (off_t)I * Eh.e_phentsize) !=
          (ssize_t)sizeof(Ph))
        break;
      if (Ph.p_type != PT_NOTE || Ph.p_filesz > (1u << 16))
        continue;
      std::string Notes(Ph.p_filesz, '\0');
      if (pread(Fd, &Notes[0], Notes.size(), Ph.p_offset) !=
          (ssize_t)Notes.size())
        continue;
      // Elf64_Nhdr, name and description, each padded to 4 bytes.
      for (size_t Off = 0; Off + sizeof(Elf64_Nhdr) <= Notes.size();) {
        Elf64_Nhdr Nh;
        memcpy(&Nh, &Notes[Off], sizeof(Nh));
        size_t Name = Off + sizeof(Nh);
        // Go writes the name as "Go\0\0" (n_namesz 4).
        if ((Nh.n_namesz == 3 || Nh.n_namesz == 4) &&
            Name + 3 <= Notes.size() && !memcmp(&Notes[Name], "Go", 3))
          Go = true;
        Off = Name + ((Nh.n_namesz + 3) & ~3u) + ((Nh.n_descsz + 3) & ~3u);
      }
    }
  close(Fd);
  return Go;
}

// Whether the ELF file open as Fd (header Eh) defines Name as a function
// in its dynamic symbol table; read piecewise (the section headers, the
// table and its strings), not whole: libicudata is 30 MB.
bool definesFunction(int Fd, const Elf64_Ehdr &Eh, const char *Name) {
  if (Eh.e_shentsize != sizeof(Elf64_Shdr) || !Eh.e_shnum ||
      Eh.e_shnum > 4096)
    return false;
  std::vector<Elf64_Shdr> Sh(Eh.e_shnum);
  size_t ShBytes = Sh.size() * sizeof(Elf64_Shdr);
  if (pread(Fd, Sh.data(), ShBytes, Eh.e_shoff) != (ssize_t)ShBytes)
    return false;
  for (const Elf64_Shdr &Sym : Sh) {
    if (Sym.sh_type != SHT_DYNSYM || Sym.sh_link >= Sh.size() ||
        Sym.sh_size > (64u << 20))
      continue;
    const Elf64_Shdr &Str = Sh[Sym.sh_link];
    if (Str.sh_size > (64u << 20))
      return false;
    std::vector<Elf64_Sym> Syms(Sym.sh_size / sizeof(Elf64_Sym));
    std::string Names(Str.sh_size, '\0');
    size_t SymBytes = Syms.size() * sizeof(Elf64_Sym);
    if (pread(Fd, Syms.data(), SymBytes, Sym.sh_offset) != (ssize_t)SymBytes ||
        pread(Fd, &Names[0], Names.size(), Str.sh_offset) !=
            (ssize_t)Names.size())
      return false;
    for (const Elf64_Sym &S : Syms)
      if (S.st_shndx != SHN_UNDEF && S.st_name < Names.size() &&
          ELF64_ST_TYPE(S.st_info) == STT_FUNC &&
          !strcmp(Names.c_str() + S.st_name, Name))
        return true;
  }
  return false;
}

// Whether the program defines malloc itself, other than with heapprof's
// own runtime (a program built with -fheapprof): an allocator linked into
// the executable (Chromium's PartitionAlloc), which every call of the
// program and its libraries binds to before any preloaded library.
bool definesOwnMalloc(const std::string &Path) {
  int Fd = open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return false;
  Elf64_Ehdr Eh;
  bool Own = pread(Fd, &Eh, sizeof(Eh), 0) == (ssize_t)sizeof(Eh) &&
             !memcmp(Eh.e_ident, ELFMAG, SELFMAG) &&
             Eh.e_ident[EI_CLASS] == ELFCLASS64 &&
             definesFunction(Fd, Eh, "malloc") &&
             !definesFunction(Fd, Eh, "__heapprof_dump");
  close(Fd);
  return Own;
}

// The allocators --allocator names without a path, by the library files
// their Debian packages install (libjemalloc2, libtcmalloc-minimal4 or
// google-perftools' libtcmalloc4, libmimalloc2.0), the first found serving.
struct KnownAllocator {
  const char *Name;
  std::vector<const char *> Files;
};
const KnownAllocator KnownAllocators[] = {
    {"jemalloc", {"libjemalloc.so.2"}},
    {"tcmalloc", {"libtcmalloc.so.4", "libtcmalloc_minimal.so.4"}},
    {"mimalloc", {"libmimalloc.so.2"}},
};

// The directories a library name is looked for in, as the loader would for
// LD_PRELOAD: LD_LIBRARY_PATH's, then the system's.
std::vector<std::string> libraryDirs() {
  std::vector<std::string> Dirs;
  if (const char *L = getenv("LD_LIBRARY_PATH"))
    for (const char *P = L; *P;) {
      size_t N = strcspn(P, ":;");
      if (N)
        Dirs.emplace_back(P, N);
      P += N;
      if (*P)
        P++;
    }
  for (const char *D : {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                        "/lib64", "/usr/lib64", "/usr/local/lib", "/lib",
                        "/usr/lib"})
    Dirs.push_back(D);
  return Dirs;
}

// The library --allocator=NAME means: NAME itself when it names a file (a
// path, or a file in the current directory), else one of a known
// allocator's files, or the file NAME, in libraryDirs(); "" with Why set
// when there is none.
std::string allocatorLibrary(const std::string &Name, std::string &Why) {
  struct stat St;
  if (Name.find('/') != std::string::npos || stat(Name.c_str(), &St) == 0)
    return Name;
  std::vector<const char *> Files = {Name.c_str()};
  for (const KnownAllocator &K : KnownAllocators)
    if (Name == K.Name)
      Files = K.Files;
  for (const char *F : Files)
    for (const std::string &D : libraryDirs()) {
      std::string Path = D + "/" + F;
      if (stat(Path.c_str(), &St) == 0)
        return Path;
    }
  Why = "no library ";
  for (size_t I = 0; I < Files.size(); I++)
    Why += std::string(I ? " or " : "") + Files[I];
  Why += " in LD_LIBRARY_PATH or the system's library directories (expected "
         "heapprof, system, jemalloc, tcmalloc, mimalloc, a library's file "
         "name or a PATH.so)";
  return "";
}

// "" if Path is an x86-64 ELF shared library that defines malloc (what the
// runtime calls through to); else what is wrong with it.
std::string whyNotAllocator(const std::string &Path) {
  int Fd = open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return strerror(errno);
  struct stat St;
  if (fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode)) {
    close(Fd);
    return "not a regular file";
  }
  Elf64_Ehdr Eh;
  std::string Why;
  if (pread(Fd, &Eh, sizeof(Eh), 0) != (ssize_t)sizeof(Eh) ||
      memcmp(Eh.e_ident, ELFMAG, SELFMAG))
    Why = "not an ELF shared library";
  else if (Eh.e_ident[EI_CLASS] != ELFCLASS64 || Eh.e_machine != EM_X86_64)
    Why = "not an x86-64 ELF shared library";
  else if (Eh.e_type != ET_DYN)
    Why = "not a shared library";
  else if (!definesFunction(Fd, Eh, "malloc"))
    Why = "defines no malloc: not an allocator library";
  close(Fd);
  return Why;
}

// The allocator library the program runs on when it links (or the caller
// preloads) one: the first library in the loader's order, libc aside, that
// defines malloc -- jemalloc, tcmalloc, mimalloc -- as the program's own
// loader resolves them (`ld.so --list PROG`, which runs none of its code).
// "" if none, or if the loader cannot tell.  The loader is asked about the
// executable's real path: run, the program has its $ORIGIN (an RPATH of
// $ORIGIN/../lib finding the libraries it links, Debian's java's libjli.so
// among them) from /proc/self/exe, the path with every link resolved, but
// `ld.so --list` takes it from the path it is given, and through a link in
// another directory (/usr/bin/java) found no such library and failed
// (test/heapprof/Run/linked-allocator-origin.c).
std::string linkedAllocator(const std::string &Given) {
  char Real[PATH_MAX];
  std::string Prog = realpath(Given.c_str(), Real) ? Real : Given;
  std::string Interp = interpreterOf(Prog);
  if (Interp.empty())
    return "";
  int P[2];
  if (pipe2(P, O_CLOEXEC) != 0)
    return "";
  pid_t Pid = fork();
  if (Pid < 0) {
    close(P[0]);
    close(P[1]);
    return "";
  }
  if (Pid == 0) {
    dup2(P[1], 1);
    int Null = open("/dev/null", O_WRONLY);
    if (Null >= 0)
      dup2(Null, 2);
    execl(Interp.c_str(), Interp.c_str(), "--list", Prog.c_str(),
          (char *)nullptr);
    _exit(127);
  }
  close(P[1]);
  std::string Out;
  char Buf[4096];
  for (;;) {
    ssize_t N = read(P[0], Buf, sizeof(Buf));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Out.append(Buf, N);
  }
  close(P[0]);
  int Status;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
    return "";
  // "\tlibjemalloc.so.2 => /lib/x86_64-linux-gnu/libjemalloc.so.2 (0x...)",
  // or "\t/path (0x...)" for a preloaded or the loader itself.
  size_t At = 0;
  while (At < Out.size()) {
    size_t End = Out.find('\n', At);
    if (End == std::string::npos)
      End = Out.size();
    std::string Line = Out.substr(At, End - At);
    At = End + 1;
    size_t Arrow = Line.find(" => ");
    size_t From = Arrow == std::string::npos ? Line.find_first_not_of(" \t")
                                             : Arrow + 4;
    size_t To = Line.rfind(" (0x");
    if (From == std::string::npos || To == std::string::npos || To <= From ||
        Line[From] != '/')
      continue;
    std::string Path = Line.substr(From, To - From);
    std::string Base = Path.substr(Path.rfind('/') + 1);
    if (Base.rfind("libc.so", 0) == 0 || Base.rfind("ld-linux", 0) == 0 ||
        Base == "libheapprof_rt.so" || Path == Interp)
      continue;
    if (whyNotAllocator(Path).empty())
      return Path;
  }
  return "";
}

// Sets Var, first saving the caller's value as HEAPPROF_RUN_SAVED_<Var> in
// the form the runtime puts back (heapprof_preload.c).
void setWithSave(const char *Var, const std::string &Value) {
  if (const char *Old = getenv(Var))
    setenv((std::string("HEAPPROF_RUN_SAVED_") + Var).c_str(),
           (std::string(Var) + "=" + Old).c_str(), 1);
  setenv(Var, Value.c_str(), 1);
}

// Makes the profile directory and its missing parents (0700, as the
// runtime makes them), so that a -o that cannot be made is an error before
// the program runs, and every process of the program, also one that drops
// privileges before it first writes, finds it there. "" or why not.
std::string makeOutDir(const std::string &Dir) {
  for (size_t I = 1; I <= Dir.size(); I++) {
    if (I < Dir.size() && Dir[I] != '/')
      continue;
    std::string Part = Dir.substr(0, I);
    if (mkdir(Part.c_str(), 0700) == 0) {
      // 0700 whatever the umask, on the directory just made: not through a
      // link someone who can write the parent put in its place meanwhile
      // (chmod would follow it and change its target's mode).
      int Fd = open(Part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
                                      O_CLOEXEC);
      if (Fd >= 0) {
        fchmod(Fd, 0700);
        close(Fd);
      }
    } else if (errno != EEXIST)
      return "cannot create directory '" + Part + "': " + strerror(errno);
  }
  struct stat St;
  if (stat(Dir.c_str(), &St) != 0)
    return strerror(errno);
  if (!S_ISDIR(St.st_mode))
    return "not a directory";
  if (access(Dir.c_str(), W_OK | X_OK) != 0)
    return std::string("cannot write into it: ") + strerror(errno);
  return "";
}

// name='value' for HEAPPROF_OPTIONS, whose parser takes a value quoted
// with ' or " whole, up to the same quote, and has no escapes: "value"
// when the value holds a ', "" (with Why set) when it holds both.
std::string quotedOption(const char *Name, const std::string &Value,
                         std::string &Why) {
  bool Single = Value.find('\'') != std::string::npos;
  if (Single && Value.find('"') != std::string::npos) {
    Why = "HEAPPROF_OPTIONS cannot hold a path with both ' and \"";
    return "";
  }
  const char Q = Single ? '"' : '\'';
  return std::string(Name) + "=" + Q + Value + Q;
}

} // namespace

int heapprof::cmdRun(int Argc, char **Argv) {
  std::string OutDir, Allocator = "heapprof";
  bool FollowExec = false, AllocatorGiven = false;
  int I = 0;
  for (; I < Argc; I++) {
    std::string A = Argv[I];
    if (A == "--") {
      I++;
      break;
    }
    // -o DIR, -o=DIR, --output DIR, --output=DIR and --allocator VALUE
    // too, as the other commands read their options (-o=DIR made a
    // directory named '=DIR').
    if (A == "-o" || A == "--output") {
      if (I + 1 >= Argc)
        return usageError("-o needs a directory");
      OutDir = Argv[++I];
    } else if (A.rfind("-o=", 0) == 0 || A.rfind("--output=", 0) == 0) {
      OutDir = A.substr(A.find('=') + 1);
      if (OutDir.empty())
        return usageError("-o needs a directory");
    } else if (A.rfind("-o", 0) == 0 && A.size() > 2 && A[2] != '-') {
      OutDir = A.substr(2);
    } else if (A == "--allocator") {
      if (I + 1 >= Argc)
        return usageError("--allocator needs a value");
      Allocator = Argv[++I];
      AllocatorGiven = true;
    } else if (A.rfind("--allocator=", 0) == 0) {
      Allocator = A.substr(12);
      AllocatorGiven = true;
    } else if (A == "--follow-exec") {
      FollowExec = true;
    } else if (A == "-h" || A == "--help") {
      fputs(RunUsage, stdout);
      return 0;
    } else if (A[0] == '-') {
      return usageError(("unknown option '" + A + "'").c_str());
    } else {
      break; // PROG without "--"
    }
  }
  if (I >= Argc)
    return usageError("no program to run");
  if (OutDir.empty() && I > 0 && !strcmp(Argv[I - 1], "-o"))
    return usageError("-o needs a directory");

  // The allocator library, made absolute (children may chdir): preloaded
  // right after the runtime, so the runtime's dlsym(RTLD_NEXT) finds it.
  std::string AllocLib;
  if (Allocator.empty()) // as "--allocator" without a value
    return usageError("--allocator= needs heapprof, system, jemalloc, "
                      "tcmalloc, mimalloc or a PATH.so");
  if (Allocator != "heapprof" && Allocator != "system") {
    std::string Why;
    std::string Lib = allocatorLibrary(Allocator, Why);
    if (Lib.empty())
      return fail("--allocator=" + Allocator + ": " + Why);
    Why = whyNotAllocator(Lib);
    if (!Why.empty())
      return fail("--allocator=" + Allocator + ": " +
                  (Lib == Allocator ? "" : Lib + ": ") + Why);
    char Abs[PATH_MAX];
    if (!realpath(Lib.c_str(), Abs))
      return fail("--allocator=" + Allocator + ": " + strerror(errno));
    AllocLib = Abs;
    if (AllocLib.find_first_of(": ") != std::string::npos)
      return fail("--allocator=" + Allocator +
                  ": LD_PRELOAD cannot name a path with ':' or ' '");
  }

  std::string Prog = findProgram(Argv[I]);
  if (Prog.empty())
    return fail(std::string("cannot run '") + Argv[I] +
                "': not found on PATH");
  if (access(Prog.c_str(), X_OK) != 0)
    return fail("cannot run '" + Prog + "': " + strerror(errno));
  std::string Why = whyNotPreloadable(Prog);
  // Go links its programs statically unless they use cgo: such a one is a
  // Go program first (rebuilding it with heapprof-clang, the advice for a
  // static C program, means nothing for it), and with --follow-exec it
  // runs as a dynamic one does: the loader-less image ignores LD_PRELOAD,
  // and the programs it runs inherit it.
  bool Go = isGoProgram(Prog);
  if (!Why.empty() && !(Go && Why.rfind("statically linked", 0) == 0))
    return fail("cannot profile '" + Prog + "': " + Why);
  // A Go program runs, but no profile would come of it; with --follow-exec
  // the programs it runs (a cgo build's compilers) are still worth it.
  if (Go) {
    if (!FollowExec)
      return fail("cannot profile '" + Prog + "': a Go program: its heap is "
                  "Go's own, not malloc's, and it exits past the C library, "
                  "so no profile would be written (--follow-exec still "
                  "profiles the programs it runs)");
    fprintf(stderr, "heapprof: warning: '%s' is a Go program: it writes no "
                    "profile of its own; the programs it runs are "
                    "followed\n",
            Prog.c_str());
  }
  // An allocator linked into the executable itself takes every call before
  // the preloaded runtime could: the profile would be empty.
  if (definesOwnMalloc(Prog)) {
    std::string Why = "it defines malloc itself (an allocator linked into "
                      "the executable, which every call binds to before a "
                      "preloaded library), so the profile would be empty; "
                      "rebuild it with heapprof-clang -fheapprof, or "
                      "without its own allocator";
    if (!FollowExec)
      return fail("cannot profile '" + Prog + "': " + Why +
                  " (--follow-exec still profiles the programs it runs)");
    fprintf(stderr, "heapprof: warning: '%s': %s; the programs it runs are "
                    "followed\n",
            Prog.c_str(), Why.c_str());
  }
  // No --allocator: a program that links an allocator of its own runs on
  // it, profiled there as --allocator=PATH would, not on heapprof's, which
  // would replace it under the program's feet: the allocator's own API
  // (jemalloc's mallocx and sdallocx) would then meet pointers it never
  // handed out, and free() pointers heapprof never did.  With
  // --follow-exec nothing is preloaded (it would go into every program
  // below): allocator=auto has each program's runtime find the allocator
  // that program links or preloads, this one's included.
  // A script's allocator is its interpreter's (the program it execs
  // inherits the preload and the allocator= option): the loader is asked
  // about the image the kernel runs, a `#!` line followed to it.
  std::string Image = imageOf(Prog, Why);
  if (!Why.empty())
    return fail("cannot run '" + Prog + "': " + Why);
  std::string Linked =
      AllocatorGiven || Image.empty() ? "" : linkedAllocator(Image);
  const char *CallerOpts = getenv("HEAPPROF_OPTIONS");
  if (FollowExec && !AllocatorGiven &&
      !(CallerOpts && strstr(CallerOpts, "allocator=")))
    Allocator = "auto";
  // A script is named with the program that runs it, whose allocator
  // this is.
  std::string Named = "'" + Prog + "'";
  if (!Image.empty() && Image != Prog)
    Named += " (a script run by '" + Image + "')";
  if (!Linked.empty() && FollowExec) {
    fprintf(stderr,
            "heapprof: note: %s runs on an allocator of its own, %s: "
            "profiled on it, as every program followed is on the allocator "
            "it links (--allocator=heapprof runs them on heapprof's)\n",
            Named.c_str(), Linked.c_str());
  } else if (!Linked.empty() &&
             Linked.find_first_of(": ") == std::string::npos) {
    Allocator = AllocLib = Linked;
    fprintf(stderr,
            "heapprof: note: %s runs on an allocator of its own, %s: "
            "profiled on it (--allocator=heapprof runs it on heapprof's)\n",
            Named.c_str(), Linked.c_str());
  }
  std::string Rt = runtimePath();
  if (Rt.empty())
    return fail("cannot find this program's own path (/proc/self/exe, "
                "AT_EXECFN), where the shared runtime is");
  if (access(Rt.c_str(), R_OK) != 0)
    return fail("the shared runtime '" + Rt + "' is missing (build or "
                "install heapprof again)");
  // The loader splits LD_PRELOAD at ':' and ' ', with no way to escape
  // them: it would try the pieces, print an error of its own and run the
  // program unprofiled.
  if (Rt.find_first_of(": ") != std::string::npos)
    return fail("the shared runtime '" + Rt + "' has a ':' or ' ' in its "
                "path, which LD_PRELOAD cannot name: install heapprof in a "
                "directory without them");
  // The runtime reserves 16 TiB of shadow and 3 TiB of allocator regions at
  // start (address space, not memory: heapprof_shadow.h, HP_SHADOW_SIZE;
  // heapprof_allocator.h, HP_NUM_REGIONS x HP_REGION_SIZE); under a lower
  // address-space limit it could only abort the program.
  const unsigned long long Reserved = 20ull << 40;
  // A data-size limit counts them too: Linux counts private writable
  // mappings, reserved or not, against RLIMIT_DATA.
  struct Limit {
    decltype(RLIMIT_AS) Resource;
    const char *Name, *Space, *Counts, *Flag;
  };
  for (const Limit &L :
       {Limit{RLIMIT_AS, "address-space limit (ulimit -v, RLIMIT_AS)", "", "",
              "v"},
        Limit{RLIMIT_DATA, "data-size limit (ulimit -d, RLIMIT_DATA)",
              "writable ", ", which the limit counts", "d"}}) {
    struct rlimit Rl;
    if (getrlimit(L.Resource, &Rl) == 0 && Rl.rlim_cur != RLIM_INFINITY &&
        Rl.rlim_cur < Reserved)
      return fail(std::string("the ") + L.Name + " is " +
                  std::to_string((unsigned long long)Rl.rlim_cur) +
                  " bytes; heapprof's runtime reserves about 19 TiB of " +
                  L.Space +
                  "address space at start (shadow memory and allocator "
                  "regions: address space, not memory)" +
                  L.Counts + ": run with ulimit -" + L.Flag + " unlimited");
  }
  // The same reservations under a strict overcommit policy: the kernel
  // counts them as memory and refuses them.
  if (FILE *Oc = fopen("/proc/sys/vm/overcommit_memory", "r")) {
    int Mode = fgetc(Oc);
    fclose(Oc);
    if (Mode == '2')
      return fail("the kernel's overcommit policy is strict "
                  "(vm.overcommit_memory=2), which counts the runtime's "
                  "reserved address space (about 19 TiB: shadow memory and "
                  "allocator regions, not memory) as memory: heapprof needs "
                  "vm.overcommit_memory=0 or 1");
  }

  const char *OldPreload = getenv("LD_PRELOAD");
  std::string Preload = AllocLib.empty() ? Rt : Rt + ":" + AllocLib;
  setWithSave("LD_PRELOAD", OldPreload && *OldPreload
                                ? Preload + ":" + OldPreload
                                : Preload);
  std::string Opts;
  if (!OutDir.empty()) {
    // A directory given relative to the caller stays so for children that
    // chdir: made absolute here.
    if (OutDir[0] != '/') {
      char Cwd[PATH_MAX];
      if (getcwd(Cwd, sizeof(Cwd)))
        OutDir = std::string(Cwd) + "/" + OutDir;
    }
    std::string Why;
    Opts = quotedOption("profile_dir", OutDir, Why);
    if (Opts.empty())
      return fail("-o " + OutDir + ": " + Why);
    Why = makeOutDir(OutDir);
    if (!Why.empty())
      return fail("-o " + OutDir + ": " + Why);
  }
  if (Allocator != "heapprof") {
    std::string Why;
    std::string A = quotedOption(
        "allocator", AllocLib.empty() ? Allocator : AllocLib, Why);
    if (A.empty())
      return fail("--allocator=" + Allocator + ": " + Why);
    Opts += (Opts.empty() ? "" : ":") + A;
  }
  // Saved even when unchanged: the runtime gives children back exactly
  // what HEAPPROF_RUN_SAVED_* says, and removes a variable without one.
  const char *OldOpts = getenv("HEAPPROF_OPTIONS");
  if (!Opts.empty())
    setWithSave("HEAPPROF_OPTIONS",
                OldOpts && *OldOpts ? std::string(OldOpts) + ":" + Opts : Opts);
  else if (OldOpts)
    setWithSave("HEAPPROF_OPTIONS", OldOpts);
  setenv("HEAPPROF_RUN", FollowExec ? "follow-exec" : "1", 1);
  execv(Prog.c_str(), Argv + I);
  return fail("cannot run '" + Prog + "': " + strerror(errno));
}
