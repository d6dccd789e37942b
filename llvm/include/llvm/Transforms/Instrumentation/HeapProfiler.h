//===- HeapProfiler.h - heapprof access-counting instrumentation -*- C++ -*-===//
//
// Part of heapprof, a sanitizer-style heap profiler.
//
//===----------------------------------------------------------------------===//
//
// The two passes of the heapprof instrumentation, as the pass plugin registers
// them: the function pass ("heapprof") counts memory accesses into shadow
// memory, the module pass ("heapprof-module") adds the runtime initialisation
// constructor and the profile-directory constant.  Run the function pass
// first; HeapProfiler.cpp describes the counting rule.
//
//===----------------------------------------------------------------------===//
#ifndef LLVM_TRANSFORMS_INSTRUMENTATION_HEAPPROFILER_H
#define LLVM_TRANSFORMS_INSTRUMENTATION_HEAPPROFILER_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class Function;
class Module;

/// Counts every interesting load, store, atomic and masked vector access of a
/// function in the u64 shadow counter of the 64-byte granule holding the
/// access's first byte, and redirects memcpy/memmove/memset intrinsics to the
/// runtime.
class HeapProfilerPass : public PassInfoMixin<HeapProfilerPass> {
public:
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &AM);
  static bool isRequired() { return true; }
};

/// Adds heapprof.module_ctor (calls __heapprof_init and the ABI version check)
/// and, for -fheapprof=DIR, the __heapprof_profile_dir constant.
class ModuleHeapProfilerPass : public PassInfoMixin<ModuleHeapProfilerPass> {
public:
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &AM);
  static bool isRequired() { return true; }
};

} // namespace llvm

#endif // LLVM_TRANSFORMS_INSTRUMENTATION_HEAPPROFILER_H
