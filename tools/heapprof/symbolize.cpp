//===- symbolize.cpp - turns a Profile's addresses into source frames -----===//
//
// Part of heapprof.  See symbolize.h.
//
//===----------------------------------------------------------------------===//
#include "symbolize.h"
#include "names.h"
#include "progress.h"

#include "llvm/DebugInfo/DWARF/DWARFContext.h"
#include "llvm/DebugInfo/Symbolize/SymbolizableObjectFile.h"
#include "llvm/DebugInfo/Symbolize/Symbolize.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/BuildID.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/DataExtractor.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>

using namespace heapprof;
using namespace llvm;

namespace {
struct ObjectInfo {
  bool Ok = false;
  std::string Problem; // when !Ok
  std::string BuildId; // hex
  // Its executable PT_LOADs: {p_vaddr, p_vaddr + p_memsz}, as the runtime
  // records them (Module::Code).
  std::vector<std::pair<uint64_t, uint64_t>> Code;
  // Names __heapprof_init, in its dynamic symbols or its symbol table:
  // defined, a program linked with the runtime; undefined, a shared
  // object compiled with -fheapprof (Module::Counted).
  bool Heapprof = false;
  // Its .gnu_debuglink: the debug file's name ("" if none) and CRC32.
  std::string Debuglink;
  uint32_t DebuglinkCrc = 0;
};
} // namespace

static bool namesHeapprofInit(const object::ObjectFile *Obj) {
  auto Has = [](auto Range) {
    for (const object::SymbolRef &Sym : Range) {
      Expected<StringRef> Name = Sym.getName();
      if (!Name) {
        consumeError(Name.takeError());
        continue;
      }
      if (*Name == "__heapprof_init")
        return true;
    }
    return false;
  };
  if (auto *Elf = dyn_cast<object::ELFObjectFileBase>(Obj))
    if (Has(Elf->getDynamicSymbolIterators()))
      return true;
  return Has(Obj->symbols());
}

// The name and CRC32 in File's .gnu_debuglink section; false without one.
static bool readDebuglink(const object::ObjectFile *Obj, std::string &Name,
                          uint32_t &Crc) {
  for (const object::SectionRef &Sec : Obj->sections()) {
    Expected<StringRef> SecName = Sec.getName();
    if (!SecName) {
      consumeError(SecName.takeError());
      continue;
    }
    if (*SecName != ".gnu_debuglink")
      continue;
    Expected<StringRef> Data = Sec.getContents();
    if (!Data) {
      consumeError(Data.takeError());
      return false;
    }
    // The name, NUL-terminated, padded to 4 bytes, then the CRC.
    DataExtractor DE(*Data, Obj->isLittleEndian(), 0);
    uint64_t Offset = 0;
    StringRef N = DE.getCStrRef(&Offset);
    Offset = alignTo(Offset, 4);
    if (N.empty() || !DE.isValidOffsetForDataOfSize(Offset, 4))
      return false;
    Name = N.str();
    Crc = DE.getU32(&Offset);
    return true;
  }
  return false;
}

static ObjectInfo readObject(const std::string &Path) {
  ObjectInfo Info;
  struct stat St;
  if (stat(Path.c_str(), &St) != 0 || access(Path.c_str(), R_OK) != 0) {
    Info.Problem = std::string("cannot open: ") + strerror(errno);
    return Info;
  }
  // A profile's module paths are whatever its writer put there: a FIFO
  // would make the read wait for a writer for ever, a device like
  // /dev/zero would be read until memory runs out.  Objects are files.
  if (!S_ISREG(St.st_mode)) {
    Info.Problem = "cannot open: not a regular file";
    return Info;
  }
  Expected<object::OwningBinary<object::Binary>> Bin =
      object::createBinary(Path);
  if (!Bin) {
    Info.Problem = "not an object file: " + toString(Bin.takeError());
    return Info;
  }
  auto *Obj = dyn_cast<object::ObjectFile>(Bin->getBinary());
  if (!Obj) {
    Info.Problem = "not an object file";
    return Info;
  }
  static const char Hex[] = "0123456789abcdef";
  for (uint8_t B : object::getBuildID(Obj)) {
    Info.BuildId += Hex[B >> 4];
    Info.BuildId += Hex[B & 15];
  }
  if (auto *Elf = dyn_cast<object::ELF64LEObjectFile>(Obj)) {
    auto Phdrs = Elf->getELFFile().program_headers();
    if (!Phdrs)
      consumeError(Phdrs.takeError());
    else
      for (const auto &Ph : *Phdrs)
        if (Ph.p_type == ELF::PT_LOAD && (Ph.p_flags & ELF::PF_X))
          Info.Code.push_back({Ph.p_vaddr, Ph.p_vaddr + Ph.p_memsz});
  }
  Info.Heapprof = namesHeapprofInit(Obj);
  readDebuglink(Obj, Info.Debuglink, Info.DebuglinkCrc);
  Info.Ok = true;
  return Info;
}

// /usr/lib/debug; HEAPPROF_SYSTEM_DEBUG_DIR names another in its place,
// for tests (which cannot write /usr/lib/debug) and for a system that
// keeps its debug files elsewhere.
static std::string systemDebugDir() {
  const char *Env = getenv("HEAPPROF_SYSTEM_DEBUG_DIR");
  return Env && *Env ? Env : "/usr/lib/debug";
}

static std::string idOrNone(const std::string &Id) {
  return Id.empty() ? "none" : Id;
}

// Matches each --binary to the module with its build id.
static bool matchBinaries(Profile &P, const SymbolizeOptions &Opts,
                          std::string &Err) {
  for (const std::string &B : Opts.Binaries) {
    ObjectInfo Info = readObject(B);
    if (!Info.Ok) {
      Err = B + ": " + Info.Problem;
      return false;
    }
    Module *Match = nullptr;
    for (Module &M : P.Modules)
      if (!Info.BuildId.empty() && M.BuildId == Info.BuildId)
        Match = &M;
    // Without build ids on either side nothing can be checked: a --binary
    // then stands for the main program, as the user says.
    if (!Match && Info.BuildId.empty())
      for (Module &M : P.Modules)
        if (M.Main && M.BuildId.empty())
          Match = &M;
    if (!Match && Opts.Matched)
      continue; /* perhaps the other profile's (heapprof diff) */
    if (!Match) {
      std::string MainId;
      for (const Module &M : P.Modules)
        if (M.Main)
          MainId = M.BuildId;
      Err = B + ": not the profiled program: its build id is " +
            idOrNone(Info.BuildId) + ", the profile's program has " +
            idOrNone(MainId);
      return false;
    }
    Match->File = B;
    Match->Usable = true;
    Match->Counted = Info.Heapprof;
    Match->Debuglink = Info.Debuglink;
    Match->DebuglinkCrc = Info.DebuglinkCrc;
    if (Opts.Matched)
      Opts.Matched->insert(B);
  }
  return true;
}

// "" when every executable segment the profile records for M is one of
// the file's, else what differs.
static std::string codeMoved(const Module &M, const ObjectInfo &Info) {
  for (const auto &R : M.Code)
    if (std::find(Info.Code.begin(), Info.Code.end(), R) == Info.Code.end()) {
      std::string S;
      raw_string_ostream OS(S);
      OS << format("its code is not where the profiled one's was: the "
                   "profile has an executable segment at 0x%llx-0x%llx",
                   (unsigned long long)R.first, (unsigned long long)R.second);
      OS << ", the file ";
      if (Info.Code.empty())
        OS << "none";
      for (size_t I = 0; I < Info.Code.size(); I++)
        OS << (I ? ", " : "")
           << format("0x%llx-0x%llx", (unsigned long long)Info.Code[I].first,
                     (unsigned long long)Info.Code[I].second);
      return OS.str();
    }
  return "";
}

// Finds the file of every module that has frames and checks its build id
// (without one, where its code is).
static bool resolveModules(Profile &P, const SymbolizeOptions &Opts,
                           std::string &Err,
                           std::vector<std::string> &Warnings) {
  if (!matchBinaries(P, Opts, Err))
    return false;
  for (const Location &L : P.Locations)
    if (L.Module != NoModule)
      P.Modules[L.Module].HasFrames = true;
  std::string Profile0 = P.Processes.empty() || P.Processes[0].Files.empty()
                             ? std::string("profile")
                             : P.Processes[0].Files[0];
  // Profiles of several programs (a directory where a build's test
  // programs, since deleted, wrote theirs beside the program's): a program
  // that is gone or rebuilt is a warning, its frames left unsymbolized, so
  // that the others are still read; for one program it is the error.
  size_t Programs = 0;
  for (const Module &M : P.Modules)
    Programs += M.Main && M.HasFrames;
  bool MainMayFail = Programs > 1;
  for (size_t I = 0; I < P.Modules.size(); I++) {
    Module &M = P.Modules[I];
    if (M.Usable || !M.HasFrames)
      continue;
    if (M.Path.empty()) {
      if (M.Main) {
        Err = Profile0 +
              ": the profile does not record where the profiled program is "
              "(an older runtime, or raw_extension=0): pass --binary PROGRAM";
        return false;
      }
      continue; // an older profile names no libraries: module+offset
    }
    // A module that cannot be taken for the profiled one: the error for
    // the one profiled program, else a warning, its frames unsymbolized.
    auto Refused = [&](const std::string &Msg, const char *ErrHint,
                       const char *WarnHint) {
      if (M.Main && !MainMayFail) {
        Err = Msg + ErrHint;
        return true;
      }
      Warnings.push_back(Msg + (M.Main ? WarnHint : "") +
                         "; its frames are not symbolized");
      return false;
    };
    static const char *const RebuiltErr =
        " (rebuilt since? pass --binary with the profiled program)";
    static const char *const RebuiltWarn =
        " (a profiled program, rebuilt since? pass --binary with the "
        "profiled one)";
    ObjectInfo Info = readObject(M.Path);
    if (!Info.Ok) {
      if (Refused(M.Path + ": " + Info.Problem,
                  " (the profiled program; pass --binary if it moved)",
                  " (a profiled program; pass --binary if it moved)"))
        return false;
      continue;
    }
    if (Info.BuildId != M.BuildId) {
      if (Refused(M.Path + ": build id " + idOrNone(Info.BuildId) +
                      " is not the profiled one, " + idOrNone(M.BuildId),
                  RebuiltErr, RebuiltWarn))
        return false;
      continue;
    }
    // Without a build id on either side, a program rebuilt since the run
    // would be taken for the profiled one and name every frame wrongly
    // (clang without --build-id, -Wl,--build-id=none): its code must at
    // least lie where the profile's did.
    std::string Moved = M.BuildId.empty() ? codeMoved(M, Info) : "";
    if (!Moved.empty()) {
      if (Refused(M.Path + ": has no build id, and " + Moved, RebuiltErr,
                  RebuiltWarn))
        return false;
      continue;
    }
    M.File = M.Path;
    M.Usable = true;
    M.Counted = Info.Heapprof;
    M.Debuglink = Info.Debuglink;
    M.DebuglinkCrc = Info.DebuglinkCrc;
  }
  return true;
}

static std::string unknownName(const Profile &P, const Location &L) {
  std::string S;
  raw_string_ostream OS(S);
  if (L.Module == NoModule) {
    OS << format("0x%llx", (unsigned long long)L.Address);
  } else {
    const Module &M = P.Modules[L.Module];
    std::string Name = sys::path::filename(M.Path).str();
    // A profile without paths (upstream MemProf's) names a module by its
    // build id.  Brackets, not angle brackets: the short names drop <...>
    // as template arguments (names.h).
    if (Name.empty())
      Name = M.Main               ? std::string("[program]")
             : !M.BuildId.empty() ? "[build id " + M.BuildId.substr(0, 12) + "]"
                                  : "[module " + std::to_string(L.Module) + "]";
    OS << Name << format("+0x%llx", (unsigned long long)L.Address);
  }
  return OS.str();
}

// The file at Path, mapped, if it is there with the CRC32 Crc; else null
// (another CRC: Warnings says so, gdb does too).  The mapping is the one
// the debug file is then read from (openDebuglinked): each candidate is
// opened, mapped and checksummed once.
static std::unique_ptr<MemoryBuffer>
debuglinkCandidate(const std::string &Path, uint32_t Crc,
                   const std::string &Module,
                   std::vector<std::string> &Warnings) {
  struct stat St;
  if (stat(Path.c_str(), &St) != 0 || !S_ISREG(St.st_mode))
    return nullptr;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buf)
    return nullptr;
  uint32_t Got = crc32(arrayRefFromStringRef((*Buf)->getBuffer()));
  if (Got == Crc)
    return std::move(*Buf);
  std::string S;
  raw_string_ostream OS(S);
  OS << Path << ": not the debug file of " << Module
     << format(": its CRC32 is %08x, the module's .gnu_debuglink has %08x",
               Got, Crc)
     << "; not used";
  Warnings.push_back(OS.str());
  return nullptr;
}

// The debug file M's .gnu_debuglink (read with the module: Module::
// Debuglink) names, where gdb looks for it: beside the module, in the
// module's .debug/ directory, then in each debug directory (the
// --debug-dirs, then the system's) followed by the module's absolute
// directory.  LLVM's symbolizer would search the same places with one
// debug directory (its FallbackDebugPath) and open and checksum each file
// it finds a second time (a debug file with another CRC beside the module
// was read twice, once by each search): a module this search is made for
// is symbolized without it (openDebuglinked), with the debug file found
// or, when none has the right CRC, from the module alone.  A module
// whose debug file the build-id lookup finds (which LLVM's symbolizer
// tries first) is left to it.
namespace {
struct DebuglinkSearch {
  bool Searched = false;            // false: no .gnu_debuglink, or left to
                                    // LLVM's symbolizer (build id)
  std::string Path;                 // the debug file found, "" if none
  std::unique_ptr<MemoryBuffer> Buf; // its mapping, checksummed
};
} // namespace

static DebuglinkSearch debuglinkFile(const Module &M,
                                     const std::vector<std::string> &Dirs,
                                     std::vector<std::string> &Warnings) {
  DebuglinkSearch Out;
  if (M.Debuglink.empty())
    return Out;
  if (M.BuildId.size() > 2) {
    for (const std::string &D : Dirs) {
      std::string Id = D + "/.build-id/" + M.BuildId.substr(0, 2) + "/" +
                       M.BuildId.substr(2) + ".debug";
      if (sys::fs::exists(Id))
        return Out;
    }
  }
  Out.Searched = true;
  const std::string &Name = M.Debuglink;
  uint32_t Crc = M.DebuglinkCrc;
  SmallString<256> Dir(M.File);
  sys::path::remove_filename(Dir);
  SmallString<256> Own(Dir), DotDebug(Dir);
  sys::path::append(Own, Name);
  sys::path::append(DotDebug, ".debug", Name);
  for (const SmallString<256> &Path : {Own, DotDebug})
    if ((Out.Buf = debuglinkCandidate(std::string(Path), Crc, M.File,
                                      Warnings))) {
      Out.Path = std::string(Path);
      return Out;
    }
  sys::fs::make_absolute(Dir);
  for (const std::string &D : Dirs) {
    SmallString<256> Path(D);
    sys::path::append(Path, sys::path::relative_path(Dir), Name);
    if ((Out.Buf = debuglinkCandidate(std::string(Path), Crc, M.File,
                                      Warnings))) {
      Out.Path = std::string(Path);
      return Out;
    }
  }
  return Out;
}

namespace {
// A module symbolized from its file's symbol tables and its debug file's
// DWARF, as LLVM's symbolizer pairs a module with the debug file it finds
// (LLVMSymbolizer::getOrCreateModuleInfo): the debug file alone would lose
// the names only the module has (its .dynsym, when the debug file was
// made from a binary without .symtab).
struct DebuglinkedModule {
  object::OwningBinary<object::Binary> File, Debug;
  std::unique_ptr<symbolize::SymbolizableModule> Sym;
};
} // namespace

// Opens M.File, and the debug file Search found from the mapping its CRC
// was computed on, into Out (M.File alone, its own DWARF, when the search
// found none); false (Warnings says why) if either is not an object file
// LLVM can read.
static bool openDebuglinked(const Module &M, DebuglinkSearch &Search,
                            const symbolize::LLVMSymbolizer::Options &SymOpts,
                            DebuglinkedModule &Out,
                            std::vector<std::string> &Warnings) {
  auto Open = [&](const std::string &Path,
                  object::OwningBinary<object::Binary> &Bin)
      -> const object::ObjectFile * {
    Expected<object::OwningBinary<object::Binary>> B =
        object::createBinary(Path);
    if (!B) {
      Warnings.push_back(Path + ": " + toString(B.takeError()) +
                         "; not used");
      return nullptr;
    }
    Bin = std::move(*B);
    auto *Obj = dyn_cast<object::ObjectFile>(Bin.getBinary());
    if (!Obj)
      Warnings.push_back(Path + ": not an object file; not used");
    return Obj;
  };
  const object::ObjectFile *File = Open(M.File, Out.File);
  if (!File)
    return false;
  const object::ObjectFile *Dbg = File;
  if (Search.Buf) {
    Expected<std::unique_ptr<object::Binary>> B =
        object::createBinary(Search.Buf->getMemBufferRef());
    if (!B) {
      Warnings.push_back(Search.Path + ": " + toString(B.takeError()) +
                         "; not used");
      return false;
    }
    Out.Debug = object::OwningBinary<object::Binary>(std::move(*B),
                                                     std::move(Search.Buf));
    Dbg = dyn_cast<object::ObjectFile>(Out.Debug.getBinary());
    if (!Dbg) {
      Warnings.push_back(Search.Path + ": not an object file; not used");
      return false;
    }
  }
  Expected<std::unique_ptr<symbolize::SymbolizableObjectFile>> Sym =
      symbolize::SymbolizableObjectFile::create(
          File,
          DWARFContext::create(*Dbg,
                               DWARFContext::ProcessDebugRelocations::Process,
                               nullptr, SymOpts.DWPName),
          SymOpts.UntagAddresses);
  if (!Sym) {
    Warnings.push_back(M.File + ": " + toString(Sym.takeError()) +
                       "; not used");
    return false;
  }
  Out.Sym = std::move(*Sym);
  return true;
}

bool heapprof::symbolize(Profile &P, const SymbolizeOptions &Opts,
                         std::string &Err, std::vector<std::string> &Warnings) {
  if (!resolveModules(P, Opts, Err, Warnings))
    return false;
  symbolize::LLVMSymbolizer::Options SymOpts;
  SymOpts.Demangle = true;
  SymOpts.UseSymbolTable = true;
  SymOpts.PrintFunctions = DILineInfoSpecifier::FunctionNameKind::LinkageName;
  SymOpts.PathStyle = DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath;
  // Every --debug-dir, in order, then the system's directory, as gdb
  // searches its debug-file-directory list: naming one directory must not
  // lose the debug files the system has (libc6-dbg's), which LLVM's
  // symbolizer would, given any list, search no longer.  The same
  // directory serves LLVM's .gnu_debuglink lookup
  // (DIR/absolute/path/of/module/debuglink-name) after the module's own;
  // debuglinkFile searches all of them first, and LLVM's lookup runs only
  // for a module it found no debug file for.
  std::string System = systemDebugDir();
  SymOpts.DebugFileDirectory = Opts.DebugDirs;
  SymOpts.DebugFileDirectory.push_back(System);
  SymOpts.FallbackDebugPath = System;
  symbolize::LLVMSymbolizer Symbolizer(SymOpts);
  // Debug files named by .gnu_debuglink: each found (and its CRC checked)
  // once, by debuglinkFile, and read from the same mapping.
  std::vector<DebuglinkedModule> Debuglinked(P.Modules.size());
  for (size_t I = 0; I < P.Modules.size(); I++) {
    const Module &M = P.Modules[I];
    if (!M.Usable || !M.HasFrames)
      continue;
    DebuglinkSearch Search =
        debuglinkFile(M, SymOpts.DebugFileDirectory, Warnings);
    if (Search.Searched &&
        !openDebuglinked(M, Search, SymOpts, Debuglinked[I], Warnings))
      Debuglinked[I] = DebuglinkedModule();
  }

  // Batched per module, in address order: each module's debug info is
  // parsed once and read front to back.
  std::vector<uint32_t> Order(P.Locations.size());
  for (uint32_t I = 0; I < Order.size(); I++)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](uint32_t A, uint32_t B) {
    const Location &X = P.Locations[A], &Y = P.Locations[B];
    return std::tie(X.Module, X.Address) < std::tie(Y.Module, Y.Address);
  });
  std::vector<bool> Failed(P.Modules.size());
  for (Module &M : P.Modules)
    M.Addresses = M.Unnamed = 0;
  Progress Prog("symbolizing", Order.size());
  for (size_t K = 0; K < Order.size(); K++) {
    Prog.update(K);
    Location &L = P.Locations[Order[K]];
    L.Frames.clear();
    if (!L.Marker.empty()) {
      L.Frames.emplace_back();
      L.Frames.back().Function = L.Marker;
      continue;
    }
    if (L.Module != NoModule && P.Modules[L.Module].Usable &&
        !Failed[L.Module]) {
      const Module &M = P.Modules[L.Module];
      object::SectionedAddress Addr = {
          L.Address, object::SectionedAddress::UndefSection};
      Expected<DIInliningInfo> Info = DIInliningInfo();
      if (const auto *Sym = Debuglinked[L.Module].Sym.get()) {
        // What LLVMSymbolizer::symbolizeInlinedCode does with a module.
        DILineInfoSpecifier Spec(SymOpts.PathStyle, SymOpts.PrintFunctions);
        *Info = Sym->symbolizeInlinedCode(Addr, Spec, SymOpts.UseSymbolTable);
        if (SymOpts.Demangle)
          for (uint32_t I = 0; I < Info->getNumberOfFrames(); I++) {
            DILineInfo *D = Info->getMutableFrame(I);
            D->FunctionName =
                symbolize::LLVMSymbolizer::DemangleName(D->FunctionName, Sym);
          }
      } else {
        Info = Symbolizer.symbolizeInlinedCode(M.File, Addr);
      }
      if (!Info) {
        Warnings.push_back(M.File + ": " + toString(Info.takeError()) +
                           "; its frames are not symbolized");
        Failed[L.Module] = true;
      } else {
        uint32_t N = Info->getNumberOfFrames();
        for (uint32_t I = 0; I < N; I++) {
          const DILineInfo &D = Info->getFrame(I);
          Frame F;
          if (D.FunctionName != DILineInfo::BadString)
            F.Function = rustLegacyName(D.FunctionName);
          if (D.FileName != DILineInfo::BadString) {
            // "/usr/lib/gcc/x86_64-linux-gnu/12/../../../../include/..."
            // reads better as "/usr/include/...".
            SmallString<256> Path(D.FileName);
            sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
            F.File = std::string(Path);
          }
          F.Line = D.Line;
          F.Column = D.Column;
          F.Inlined = I + 1 < N;
          L.Frames.push_back(std::move(F));
        }
      }
    }
    if (L.Frames.empty())
      L.Frames.emplace_back();
    // A frame without a function name is named by where it is, so two
    // unknown frames are never mistaken for one function.
    bool Unnamed = false;
    for (Frame &F : L.Frames)
      if (F.Function.empty()) {
        F.Function = unknownName(P, L);
        Unnamed = true;
      }
    if (L.Module != NoModule) {
      P.Modules[L.Module].Addresses++;
      P.Modules[L.Module].Unnamed += Unnamed;
    }
  }
  return true;
}
