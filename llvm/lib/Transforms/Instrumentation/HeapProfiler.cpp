//===- HeapProfiler.cpp - heapprof memory access instrumentation ----------===//
//
// Part of heapprof, a sanitizer-style heap profiler.
//
//===----------------------------------------------------------------------===//
//
// The compiler half of heapprof's access counting.  Every counted memory
// access adds 1 to the u64 shadow counter of the 64-byte granule that holds
// the access's FIRST byte, whatever its width:
//
//     counter(a) = ((a & ~(Granularity-1)) >> Scale)
//                  + __heapprof_shadow_memory_dynamic_address
//
// with Granularity = 64 and Scale = 3 (one 8-byte counter per 64 bytes); the
// base is loaded once per function, in the entry block.  The runtime folds the
// counters of a chunk's granules into its profile when the chunk dies.
//
// What is counted: loads, stores, atomicrmw and cmpxchg (as writes), and each
// active lane of llvm.masked.{load,store,gather,scatter,expandload,
// compressstore} and of x86's own masked and gathering intrinsics
// (llvm.x86.avx{,2}.mask{load,store}.*, llvm.x86.sse2.maskmov.dqu,
// llvm.x86.mmx.maskmovq, llvm.x86.avx2.gather.*,
// llvm.x86.avx512.mask.{gather,scatter}*, AVX-512's truncating stores
// llvm.x86.avx512.mask.pmov{,s,us}.*.mem.*), and
// llvm.x86.{sse3,avx}.ldu.dq* as loads.  llvm.mem{cpy,move,
// set} become calls to __heapprof_mem{cpy,move,set}, which count both ranges
// by the runtime's range rule and then do the operation.  What is not: accesses
// whose every possible underlying object is stack (alloca, byval argument),
// a global or a constant address (all switchable), compiler-internal globals
// (never), non-zero address spaces, swifterror, instructions marked
// !nosanitize, and functions that opt out (see shouldInstrumentFunction).
// docs/compiler.md is the user documentation of all this.
//
// The function pass works in two phases: collect a list of CounterUpdates
// without touching the IR, then emit them.  Between the two, updates of one
// address in a stretch of a block with no call merge into one "+N", and
// updates of a loop-invariant address in a loop without calls become a sum
// in a register added to the counter at the loop's exits, and updates of an
// address that walks memory with a constant stride, once per iteration,
// become one record of the whole walk at the loop's exits; none of these
// changes a count (docs/design.md, "The pass: fewer counter updates, the
// same counts").
//
// The module pass adds heapprof.module_ctor (priority 1) calling
// __heapprof_init and the ABI version check, and for -fheapprof=DIR the weak
// COMDAT constant __heapprof_profile_dir.
//
//===----------------------------------------------------------------------===//

#include "llvm/Transforms/Instrumentation/HeapProfiler.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/AbstractCallSite.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include <optional>
#include <string>

using namespace llvm;

#define DEBUG_TYPE "heapprof"

// Must equal HEAPPROF_ABI_VERSION in heapprof_interface_internal.h; the
// version check call below makes a mismatch a link error.
constexpr int HeapProfAbiVersion = 1;

constexpr uint64_t DefaultGranularity = 64;
constexpr int DefaultScale = 3;
// Before any other constructor, so that instrumented code in other
// constructors finds the shadow mapped.
constexpr uint64_t HeapProfCtorPriority = 1;

// Runtime symbols (compiler-rt/lib/heapprof/heapprof_interface_internal.h).
constexpr char HeapProfRuntimePrefix[] = "__heapprof_";
constexpr char HeapProfInitName[] = "__heapprof_init";
constexpr char HeapProfVersionCheckNamePrefix[] =
    "__heapprof_version_mismatch_check_v";
constexpr char HeapProfShadowMemoryDynamicAddress[] =
    "__heapprof_shadow_memory_dynamic_address";
constexpr char HeapProfLoadName[] = "__heapprof_load";
constexpr char HeapProfStoreName[] = "__heapprof_store";
constexpr char HeapProfFalseSharingStoreName[] =
    "__heapprof_false_sharing_store";
constexpr char HeapProfMemcpyName[] = "__heapprof_memcpy";
constexpr char HeapProfMemmoveName[] = "__heapprof_memmove";
constexpr char HeapProfMemsetName[] = "__heapprof_memset";
constexpr char HeapProfRecordRangeName[] = "__heapprof_record_access_range";
constexpr char HeapProfRecordStridedName[] = "__heapprof_record_strided";
constexpr char HeapProfProfileDirVar[] = "__heapprof_profile_dir";

// Compiler-side names.
constexpr char HeapProfModuleCtorName[] = "heapprof.module_ctor";
// Module flag (MDString) a frontend may set instead of -heapprof-profile-dir.
constexpr char HeapProfProfileDirFlag[] = "HeapProfProfileDir";
// Function attribute marking a function as already instrumented, so that the
// pass is idempotent (e.g. run again by a ThinLTO backend with the plugin).
constexpr char HeapProfInstrumentedAttr[] = "heapprof-instrumented";

// Command-line flags.

static cl::opt<bool> ClInstrumentReads("heapprof-instrument-reads",
                                       cl::desc("Count loads and masked loads"),
                                       cl::Hidden, cl::init(true));

static cl::opt<bool>
    ClInstrumentWrites("heapprof-instrument-writes",
                       cl::desc("Count stores and masked stores"), cl::Hidden,
                       cl::init(true));

static cl::opt<bool> ClInstrumentAtomics(
    "heapprof-instrument-atomics",
    cl::desc("Count atomicrmw and cmpxchg (as writes)"), cl::Hidden,
    cl::init(true));

static cl::opt<bool> ClInstrumentStack(
    "heapprof-instrument-stack",
    cl::desc("Also count accesses that can only be to the stack (allocas, "
             "byval arguments)"),
    cl::Hidden, cl::init(false));

static cl::opt<bool> ClInstrumentGlobals(
    "heapprof-instrument-globals",
    cl::desc("Also count accesses that can only be to global variables "
             "(compiler-internal globals are never counted)"),
    cl::Hidden, cl::init(false));

static cl::opt<bool> ClUseCallbacks(
    "heapprof-use-callbacks",
    cl::desc("Call __heapprof_load/__heapprof_store(addr) instead of updating "
             "the shadow counter inline"),
    cl::Hidden, cl::init(false));

static cl::opt<bool> ClFalseSharing(
    "heapprof-false-sharing",
    cl::desc("Also call __heapprof_false_sharing_store(addr) for every "
             "counted store, so the runtime (false_sharing=1) can tell which "
             "thread wrote each cache line: active false sharing"),
    cl::Hidden, cl::init(false));

// These change the shadow mapping and must match the runtime's:
//   counter = ((addr & ~(granularity - 1)) >> scale) + dynamic base
static cl::opt<uint64_t> ClMappingGranularity(
    "heapprof-mapping-granularity",
    cl::desc("Bytes of memory per shadow counter (a power of two; must match "
             "the runtime)"),
    cl::Hidden, cl::init(DefaultGranularity));

static cl::opt<int>
    ClMappingScale("heapprof-mapping-scale",
                   cl::desc("Right shift from granule address to shadow "
                            "offset (must match the runtime)"),
                   cl::Hidden, cl::init(DefaultScale));

static cl::opt<std::string> ClProfileDir(
    "heapprof-profile-dir",
    cl::desc("Directory the runtime writes the profile to: emitted as the "
             "weak constant __heapprof_profile_dir (overrides the "
             "HeapProfProfileDir module flag)"),
    cl::Hidden, cl::init(""));

static cl::opt<bool> ClGuardAgainstVersionMismatch(
    "heapprof-guard-against-version-mismatch",
    cl::desc("Call __heapprof_version_mismatch_check_vN from the module "
             "constructor, so that a runtime of another ABI fails to link"),
    cl::Hidden, cl::init(true));

// Debug flags.

static cl::opt<bool> ClConsolidate(
    "heapprof-consolidate", cl::init(true), cl::Hidden,
    cl::desc("Merge the counter updates of accesses to the same address (the "
             "same pointer value, or the same base and constant offset) in "
             "one basic block into one +N update when the later access is "
             "guaranteed to run whenever the earlier one does (no call other "
             "than a pure intrinsic, no possibly-non-returning instruction "
             "between them); never changes a count"));

static cl::opt<bool> ClHoistLoopInvariant(
    "heapprof-hoist-loop-invariant", cl::init(true), cl::Hidden,
    cl::desc("Count the accesses to a loop-invariant address in a loop "
             "without calls, volatile or atomic operations in a register, "
             "and add the sum to the counter on every exit of the loop; "
             "never changes a count"));

static cl::opt<bool> ClStridedLoops(
    "heapprof-strided-loops", cl::init(true), cl::Hidden,
    cl::desc("In a loop without calls, volatile or atomic operations, "
             "replace the updates of an access whose address advances by a "
             "constant stride every iteration, and which runs once in every "
             "iteration but the last, by one record of the whole walk at the "
             "loop's exits (inline when it stays in one granule, else "
             "__heapprof_record_strided); never changes a count"));

static cl::opt<unsigned> ClStridedMinTrips(
    "heapprof-strided-min-trips", cl::init(4), cl::Hidden,
    cl::desc("Leave a loop to per-access updates when scalar evolution "
             "proves it runs at most this many iterations (a vectorized "
             "loop's remainder): the record at the exit would cost more "
             "than the updates it saves"));

static cl::opt<unsigned> ClStridedInlineGranules(
    "heapprof-strided-inline-granules", cl::init(8), cl::Hidden,
    cl::desc("Record a walk with a step dividing the granule inline (one "
             "update per granule) when it covers at most this many "
             "granules; a longer one calls __heapprof_record_strided"));

static cl::opt<bool> ClStridedUnknownTrips(
    "heapprof-strided-unknown-trips", cl::init(false), cl::Hidden,
    cl::desc("Also record the walks of loops whose iterations scalar "
             "evolution cannot count at some exit (a search, a string "
             "scan), counting them in a register in the loop; such loops "
             "are mostly short, and the record costs more than the updates "
             "it saves"));

static cl::opt<bool> ClSkipConstantAddresses(
    "heapprof-skip-constant-addresses", cl::init(true), cl::Hidden,
    cl::desc("Do not count accesses whose every possible underlying object "
             "is a constant address (an integer constant cast to a pointer): "
             "the heap's addresses are chosen at run time"));

static cl::opt<bool> ClSkipCallerObjects(
    "heapprof-skip-caller-objects", cl::init(true), cl::Hidden,
    cl::desc("Do not count accesses through a pointer argument of a function "
             "local to the module whose every caller (a direct call, a "
             "!callback call such as OpenMP's, or pthread_create or "
             "thrd_create starting it) passes a stack object, a global or "
             "such an argument of its own: a thread's argument in its "
             "creator's frame is not heap"));

static cl::opt<unsigned> ClInlineRangeMax(
    "heapprof-inline-range-max", cl::init(64), cl::Hidden,
    cl::desc("Count the ranges of a memcpy or memset of a constant length "
             "up to this many bytes inline (the range rule, in at most two "
             "counters) and make it the .inline intrinsic, which the backend "
             "turns into a few moves; longer, variable and memmove ones call "
             "the runtime.  0: every one calls the runtime"));

static cl::opt<std::string>
    ClDebugFunc("heapprof-debug-func",
                cl::desc("Leave the function with this name uninstrumented "
                         "(to bisect a problem)"),
                cl::Hidden, cl::init(""));

STATISTIC(NumInstrumentedReads, "Number of instrumented reads");
STATISTIC(NumInstrumentedWrites, "Number of instrumented writes");
STATISTIC(NumInstrumentedAtomics, "Number of instrumented atomics");
STATISTIC(NumInstrumentedMemIntrinsics,
          "Number of mem intrinsics redirected to the runtime");
STATISTIC(NumInlineRanges,
          "Number of constant-length mem intrinsic ranges counted inline");
STATISTIC(NumCounterUpdates, "Number of shadow counter updates emitted");
STATISTIC(NumFalseSharingHooks,
          "Number of store hooks emitted for -heapprof-false-sharing");
STATISTIC(NumConsolidated,
          "Number of counter updates merged into an earlier one");
STATISTIC(NumHoisted,
          "Number of counter updates moved to the exits of their loop");
STATISTIC(NumStrided,
          "Number of counter updates replaced by a strided walk's record");
STATISTIC(NumStridedWalks,
          "Number of strided walks recorded at their loop's exits");
STATISTIC(NumStridedCounted,
          "Number of strided groups whose sums come from the exit counts");
STATISTIC(NumSkippedConstant,
          "Number of accesses not counted: constant addresses only");
STATISTIC(NumSkippedStack, "Number of accesses not counted: stack only");
STATISTIC(NumNotHeapArguments,
          "Number of pointer arguments whose callers pass no heap object");
STATISTIC(NumSkippedGlobal, "Number of accesses not counted: globals only");
STATISTIC(NumSkippedScalable,
          "Number of scalable-vector masked accesses not counted");

namespace {

/// shadow counter = ((Addr & Mask) >> Scale) + dynamic base.
struct ShadowMapping {
  uint64_t Mask;
  int Scale;
  uint64_t Granularity;

  ShadowMapping() {
    Granularity = ClMappingGranularity;
    Scale = ClMappingScale;
    // A granule needs a whole u64 counter of its own.
    if (!isPowerOf2_64(Granularity) || Scale < 0 || Scale > 63 ||
        (Granularity >> Scale) < sizeof(uint64_t))
      report_fatal_error(
          "heapprof: -heapprof-mapping-granularity=" + Twine(Granularity) +
              " -heapprof-mapping-scale=" + Twine(Scale) +
              ": the granularity must be a power of two with at least 8 "
              "shadow bytes per granule",
          /*gen_crash_diag=*/false);
    Mask = ~(Granularity - 1);
  }
};

/// Why an access is or is not counted, from the objects its address may be
/// based on.
enum class TargetKind { Counted, Stack, Global, Constant, Never };

enum class AccessKind { Read, Write, Atomic };

/// A memory access the pass may count, as found in the IR.
struct InterestingAccess {
  Instruction *I = nullptr;
  /// A pointer; for masked gather/scatter a vector of pointers.
  Value *Addr = nullptr;
  AccessKind Kind = AccessKind::Read;
  /// Masked intrinsics: the accessed vector type and the lane mask.
  Type *AccessTy = nullptr;
  Value *Mask = nullptr;
  bool IsGatherScatter = false;
  /// The lanes the mask selects are those whose element has its sign bit
  /// set (x86's AVX masks, integer or floating-point), not i1 lanes.
  bool MaskBySign = false;
  /// The mask is an integer whose bit i selects lane i (AVX-512's
  /// truncating stores).
  bool MaskByBit = false;
  /// x86 gathers and scatters: lane i accesses Addr + sext(Index[i]) *
  /// Scale, for the first NumLanes lanes.
  Value *Index = nullptr;
  uint64_t Scale = 0;
  unsigned NumLanes = 0;
  /// expandload/compressstore: active lane i accesses the element of
  /// AccessTy's type at Addr numbered by the active lanes before it.
  bool Compressed = false;

  bool isWrite() const { return Kind != AccessKind::Read; }
};

/// One "+Count" on the shadow counter of the granule holding the first byte
/// at an address, emitted right before InsertPt.  The collection phase builds
/// these without changing the IR; the emission phase turns each into code.
struct CounterUpdate {
  enum LaneKind : uint8_t {
    NotALane,       // Ptr is the accessed address.
    ContiguousLane, // masked load/store: lane LaneIdx of vector VecTy at Ptr.
    GatherLane,     // gather/scatter: element LaneIdx of pointer vector Ptr.
    IndexedLane,    // x86 gather/scatter: Ptr + sext(Index[LaneIdx]) * Scale.
    CompressedLane, // expandload/compressstore: the element of VecTy at Ptr
                    // numbered by the active lanes of LaneMask below LaneIdx
                    // (CompressedAt when the mask is a constant).
  };

  Instruction *InsertPt;
  Value *Ptr;
  bool IsWrite;
  uint64_t Count = 1;
  LaneKind Lane = NotALane;
  unsigned LaneIdx = 0;
  FixedVectorType *VecTy = nullptr;
  /// If set, the update happens only when lane LaneIdx of this mask is true
  /// (or, with MaskBySign, has its sign bit set; with MaskByBit, the mask
  /// is an integer whose bit LaneIdx is set).
  Value *LaneMask = nullptr;
  bool MaskBySign = false;
  bool MaskByBit = false;
  Value *Index = nullptr;
  uint64_t Scale = 0;
  /// CompressedLane with a constant mask: the element index, known.
  unsigned CompressedAt = 0;
  Value *CompressMask = nullptr; // CompressedLane: the (i1) mask to count in
};

/// "+(the accumulator's value)" on the counter of Ptr's granule, at the start
/// of an exit block of the loop whose accesses to Ptr were summed in Slot.
struct ExitUpdate {
  BasicBlock *Exit;
  AllocaInst *Slot;
  Value *Ptr;
};

/// The accesses of one or more updates in block B of loop L, which runs once
/// in every iteration of L but the last (where it may or may not run): in
/// iteration k, the update adds Weight to the counter of Start + k * Stride.
/// Updates whose starts are PerIter equally spaced points of one stride
/// (a vectorized or unrolled loop's parts) are one walk of PerIter accesses
/// an iteration, Stride then being the spacing.
struct StridedWalk {
  Loop *L;
  BasicBlock *B;
  const SCEV *Start;
  int64_t Stride;
  uint64_t PerIter;
  uint64_t Weight;
  /// The updates it replaces (indices into the function's list).
  SmallVector<size_t, 4> Members;
};

/// The walks of block B of loop L, recorded at every exit block when the
/// block ran at all: Slot adds up Sum for every iteration in which it ran,
/// which is the count each walk's updates would have added.
struct StridedGroup {
  Loop *L = nullptr;
  BasicBlock *B = nullptr;
  /// What an iteration adds for each walk (PerIter * Weight, the same for
  /// all): Slot counts it up.
  uint64_t Sum = 0;
  AllocaInst *Slot = nullptr;
  SmallVector<StridedWalk, 4> Walks;
  /// L's exit blocks, and at the top of each the walks' starts (in the
  /// order of Walks), computed there: nothing extra lives through the loop.
  SmallVector<BasicBlock *, 2> Exits;
  SmallVector<SmallVector<Value *, 4>, 2> Starts;
  /// Without Slot: at the top of each exit, the sum computed from the
  /// iterations scalar evolution says the loop ran when it left there.
  SmallVector<Value *, 2> Totals;
};

/// Instruments one function.
class HeapProfiler {
public:
  explicit HeapProfiler(Module &M);

  bool instrumentFunction(Function &F, FunctionAnalysisManager &FAM);

private:
  bool shouldInstrumentFunction(const Function &F) const;
  std::optional<InterestingAccess> getInterestingAccess(Instruction *I) const;
  TargetKind classifyAddress(const Value *Addr) const;
  bool isNotHeapArgument(const Argument *A) const;
  bool notHeapArgument(const Argument *A,
                       SmallPtrSetImpl<const Argument *> &Assumed,
                       unsigned &Budget) const;
  bool isCountedAddress(const Value *Addr);
  bool isInterestingMemIntrinsic(MemIntrinsic *MI) const;
  void collectUpdates(const InterestingAccess &A,
                      SmallVectorImpl<CounterUpdate> &Updates);
  void emitUpdate(const CounterUpdate &U);
  void consolidate(SmallVectorImpl<CounterUpdate> &Updates) const;
  bool isAccumulatingLoop(const Loop *L, ScalarEvolution &SE);
  void accumulateInLoops(Function &F, FunctionAnalysisManager &FAM,
                         SmallVectorImpl<CounterUpdate> &Updates,
                         SmallVectorImpl<ExitUpdate> &Exits);
  void emitExitUpdate(const ExitUpdate &E);
  bool runsOncePerIteration(const BasicBlock *B, const Loop *L,
                            const DominatorTree &DT, const LoopInfo &LI,
                            const Function &F);
  void recordStridedWalks(Function &F, FunctionAnalysisManager &FAM,
                          SmallVectorImpl<CounterUpdate> &Updates,
                          SmallVectorImpl<StridedGroup> &Groups);
  void emitStridedExit(const StridedGroup &G, size_t ExitIdx);
  void emitIncrement(IRBuilder<> &IRB, Value *Addr, bool IsWrite,
                     Value *Count);
  void instrumentMemIntrinsic(MemIntrinsic *MI);
  void emitRangeCount(IRBuilder<> &IRB, Value *Ptr, uint64_t Len);
  void loadShadowBase(Function &F);
  void markNoSanitize(Instruction *I) const;

  Module &M;
  LLVMContext &C;
  Type *IntptrTy;
  Type *Int64Ty;
  PointerType *PtrTy;
  ShadowMapping Mapping;
  Value *ShadowBase = nullptr;
  /// isAccumulatingLoop's answers.
  DenseMap<const Loop *, bool> LoopVerdicts;
  /// The accumulators' slots, promoted to registers once all code is in.
  SmallVector<AllocaInst *, 4> Accumulators;
  /// Whether F has a cycle that is no natural loop (asked once).
  std::optional<bool> Irreducible;
  /// isNotHeapArgument's settled answers.
  mutable DenseMap<const Argument *, bool> ArgVerdicts;
};

HeapProfiler::HeapProfiler(Module &M)
    : M(M), C(M.getContext()),
      IntptrTy(M.getDataLayout().getIntPtrType(M.getContext())),
      Int64Ty(Type::getInt64Ty(M.getContext())),
      PtrTy(PointerType::getUnqual(M.getContext())) {}

/// Function-level opt-outs.  Clang 19 drops no_sanitize("heapprof") as an
/// unknown sanitizer and records nothing in IR for no_sanitize("memory")
/// unless MSan is on, so the source-level opt-out is
/// __attribute__((disable_sanitizer_instrumentation)).
bool HeapProfiler::shouldInstrumentFunction(const Function &F) const {
  if (F.isDeclaration())
    return false;
  // Another module holds the copy that is emitted; instrument that one.
  if (F.hasAvailableExternallyLinkage())
    return false;
  // The runtime's own entry points (e.g. inline helpers from its headers).
  if (F.getName().starts_with(HeapProfRuntimePrefix))
    return false;
  if (F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
    return false;
  // A naked function's body is its inline asm; there is nowhere to put code.
  if (F.hasFnAttribute(Attribute::Naked))
    return false;
  if (F.hasFnAttribute(HeapProfInstrumentedAttr))
    return false;
  if (!ClDebugFunc.empty() && F.getName() == ClDebugFunc)
    return false;
  return true;
}

/// The number of elements of V's type if it is a fixed vector, else 0.
static unsigned lanesOf(const Value *V) {
  auto *VT = dyn_cast<FixedVectorType>(V->getType());
  return VT ? VT->getNumElements() : 0;
}

/// x86's target intrinsics that access memory, recognised by name and
/// checked by operand types (LLVM 19's clang emits them for the immintrin.h
/// functions InstCombine cannot turn into llvm.masked.*: gathers, masks
/// not known at compile time, lddqu, maskmovdqu):
///   avx{,2}.maskload.*(ptr, mask)            lanes of the result, sign mask
///   avx{,2}.maskstore.*(ptr, mask, val)      lanes of val, sign mask
///   sse2.maskmov.dqu(val, mask, ptr)         16 byte lanes, sign mask
///   mmx.maskmovq(val, mask, ptr)             8 byte lanes, sign mask (x86_mmx)
///   avx2.gather.*(src, ptr, idx, mask, i8 scale)     sign mask
///   avx512.mask.gather*(src, ptr, idx, <N x i1> mask, i32 scale)
///   avx512.mask.scatter*(ptr, <N x i1> mask, idx, val, i32 scale)
///   avx512.mask.pmov{,s,us}.{qb,qw,qd,db,dw,wb}.mem.*(ptr, val, iK mask)
///                                            lanes of val, truncated (or
///                                            saturated) to bytes, words or
///                                            dwords; lane i when bit i of
///                                            the mask is set
///   sse3.ldu.dq(ptr), avx.ldu.dq.256(ptr)    one load
/// A gather's or scatter's lanes are the first min(index, mask) lanes.
/// Anything else (or of another shape) is not counted.
static bool getX86Access(IntrinsicInst *II, InterestingAccess &A) {
  Function *F = II->getCalledFunction();
  if (!F)
    return false;
  StringRef N = F->getName();
  if (!N.consume_front("llvm.x86."))
    return false;
  auto PtrAt = [&](unsigned K) -> Value * {
    if (K >= II->arg_size())
      return nullptr;
    Value *V = II->getArgOperand(K);
    return V->getType()->isPointerTy() ? V : nullptr;
  };
  auto ScaleAt = [&](unsigned K) -> bool {
    auto *C = K < II->arg_size() ? dyn_cast<ConstantInt>(II->getArgOperand(K))
                                 : nullptr;
    if (!C || C->isNegative() || C->getZExtValue() == 0)
      return false;
    A.Scale = C->getZExtValue();
    return true;
  };
  if (N == "sse3.ldu.dq" || N == "avx.ldu.dq.256") {
    A.Kind = AccessKind::Read;
    A.Addr = PtrAt(0);
    return A.Addr != nullptr;
  }
  if (N.starts_with("avx.maskload.") || N.starts_with("avx2.maskload.")) {
    A.Kind = AccessKind::Read;
    A.Addr = PtrAt(0);
    A.AccessTy = II->getType();
    A.Mask = II->arg_size() == 2 ? II->getArgOperand(1) : nullptr;
    A.MaskBySign = true;
    return A.Addr && A.Mask && lanesOf(II) && lanesOf(A.Mask) == lanesOf(II);
  }
  if (N.starts_with("avx.maskstore.") || N.starts_with("avx2.maskstore.")) {
    if (II->arg_size() != 3)
      return false;
    A.Kind = AccessKind::Write;
    A.Addr = PtrAt(0);
    A.Mask = II->getArgOperand(1);
    A.AccessTy = II->getArgOperand(2)->getType();
    A.MaskBySign = true;
    return A.Addr && lanesOf(A.Mask) &&
           lanesOf(A.Mask) == lanesOf(II->getArgOperand(2));
  }
  if (N == "sse2.maskmov.dqu") {
    if (II->arg_size() != 3)
      return false;
    A.Kind = AccessKind::Write;
    A.Addr = PtrAt(2);
    A.Mask = II->getArgOperand(1);
    A.AccessTy = II->getArgOperand(0)->getType();
    A.MaskBySign = true;
    return A.Addr && lanesOf(A.Mask) &&
           lanesOf(A.Mask) == lanesOf(II->getArgOperand(0));
  }
  if (N == "mmx.maskmovq") {
    // MMX's maskmovq (_mm_maskmove_si64): 8 byte lanes, its operands
    // x86_mmx.  The mask is read as <8 x i8>: clang builds it as one (a
    // bitcast to x86_mmx, looked through here) or as a constant (a bitcast
    // of a double or i64, whose bytes are taken here, so that its lanes are
    // known); anything else is bitcast back when the lanes are tested.
    if (II->arg_size() != 3 || !II->getArgOperand(1)->getType()->isX86_MMXTy())
      return false;
    LLVMContext &Ctx = II->getContext();
    auto *ByteVec = FixedVectorType::get(Type::getInt8Ty(Ctx), 8);
    A.Kind = AccessKind::Write;
    A.Addr = PtrAt(2);
    A.Mask = II->getArgOperand(1);
    if (auto *BC = dyn_cast<BitCastOperator>(A.Mask)) {
      Value *Src = BC->getOperand(0);
      std::optional<APInt> Bits;
      if (auto *CF = dyn_cast<ConstantFP>(Src))
        Bits = CF->getValueAPF().bitcastToAPInt();
      else if (auto *CI = dyn_cast<ConstantInt>(Src))
        Bits = CI->getValue();
      if (Src->getType() == ByteVec) {
        A.Mask = Src;
      } else if (Bits && Bits->getBitWidth() == 64) {
        uint8_t Bytes[8]; // little-endian: lane i is bits 8i..8i+7
        for (unsigned I = 0; I < 8; ++I)
          Bytes[I] = Bits->extractBitsAsZExtValue(8, 8 * I);
        A.Mask = ConstantDataVector::get(Ctx, ArrayRef<uint8_t>(Bytes));
      }
    }
    A.AccessTy = ByteVec;
    A.MaskBySign = true;
    return A.Addr != nullptr;
  }
  if (N.consume_front("avx512.mask.pmov")) {
    // The truncating stores: lane i of val, narrowed to the element size
    // the name's second letter gives, stored at ptr + i * that size when
    // bit i of the mask is set.  (Without ".mem." the result goes to a
    // register: no access.)
    if (!N.consume_front("us"))
      N.consume_front("s");
    if (!N.consume_front(".") || N.size() < 7 || !N.substr(2).starts_with(".mem.") ||
        II->arg_size() != 3)
      return false;
    unsigned Bytes = N[1] == 'b' ? 1 : N[1] == 'w' ? 2 : N[1] == 'd' ? 4 : 0;
    unsigned Lanes = lanesOf(II->getArgOperand(1));
    Value *M = II->getArgOperand(2);
    if (!Bytes || !Lanes || !M->getType()->isIntegerTy() ||
        M->getType()->getIntegerBitWidth() < Lanes)
      return false;
    A.Kind = AccessKind::Write;
    A.Addr = PtrAt(0);
    A.AccessTy = FixedVectorType::get(
        Type::getIntNTy(II->getContext(), 8 * Bytes), Lanes);
    A.Mask = M;
    A.MaskByBit = true;
    return A.Addr != nullptr;
  }
  bool Avx2Gather = N.starts_with("avx2.gather.");
  bool Avx512Gather = N.starts_with("avx512.mask.gather");
  bool Avx512Scatter = N.starts_with("avx512.mask.scatter");
  if (!Avx2Gather && !Avx512Gather && !Avx512Scatter)
    return false;
  if (II->arg_size() != 5)
    return false;
  if (Avx512Scatter) {
    A.Kind = AccessKind::Write;
    A.Addr = PtrAt(0);
    A.Mask = II->getArgOperand(1);
    A.Index = II->getArgOperand(2);
  } else {
    A.Kind = AccessKind::Read;
    A.Addr = PtrAt(1);
    A.Index = II->getArgOperand(2);
    A.Mask = II->getArgOperand(3);
    A.MaskBySign = Avx2Gather;
  }
  if (!A.Addr || !ScaleAt(4) || !lanesOf(A.Index) || !lanesOf(A.Mask) ||
      !cast<VectorType>(A.Index->getType())->getElementType()->isIntegerTy())
    return false;
  if (!A.MaskBySign &&
      !cast<VectorType>(A.Mask->getType())->getElementType()->isIntegerTy(1))
    return false;
  A.NumLanes = std::min(lanesOf(A.Index), lanesOf(A.Mask));
  return true;
}

/// Whether I is an atomic access no instruction can do, which the code
/// generator makes a call to libatomic's generic __atomic_load, _store,
/// _exchange or _compare_exchange (AtomicExpandPass: an atomic is
/// expanded to a libcall when it is aligned below its size; the sized
/// calls, __atomic_load_16 and the rest, need an aligned object, so over
/// 16 bytes or misaligned it is the generic one).  The runtime defines
/// those and counts each by the range rule (heapprof_atomic.c); counting
/// the instruction too would count the operation twice.
static bool becomesGenericAtomicCall(const Instruction *I,
                                     const DataLayout &DL) {
  Type *Ty;
  Align A;
  if (auto *LI = dyn_cast<LoadInst>(I)) {
    if (!LI->isAtomic())
      return false;
    Ty = LI->getType();
    A = LI->getAlign();
  } else if (auto *SI = dyn_cast<StoreInst>(I)) {
    if (!SI->isAtomic())
      return false;
    Ty = SI->getValueOperand()->getType();
    A = SI->getAlign();
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(I)) {
    Ty = RMW->getValOperand()->getType();
    A = RMW->getAlign();
  } else if (auto *XCHG = dyn_cast<AtomicCmpXchgInst>(I)) {
    Ty = XCHG->getNewValOperand()->getType();
    A = XCHG->getAlign();
  } else {
    return false;
  }
  uint64_t Size = DL.getTypeStoreSize(Ty).getFixedValue();
  return Size > 16 || A.value() < Size;
}

std::optional<InterestingAccess>
HeapProfiler::getInterestingAccess(Instruction *I) const {
  // Code other instrumentation inserted (coverage counters, sanitizer checks).
  if (I->hasMetadata(LLVMContext::MD_nosanitize))
    return std::nullopt;
  if (becomesGenericAtomicCall(I, M.getDataLayout()))
    return std::nullopt;

  InterestingAccess A;
  A.I = I;
  if (auto *LI = dyn_cast<LoadInst>(I)) {
    if (!ClInstrumentReads)
      return std::nullopt;
    A.Kind = AccessKind::Read;
    A.Addr = LI->getPointerOperand();
  } else if (auto *SI = dyn_cast<StoreInst>(I)) {
    if (!ClInstrumentWrites)
      return std::nullopt;
    A.Kind = AccessKind::Write;
    A.Addr = SI->getPointerOperand();
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(I)) {
    if (!ClInstrumentAtomics)
      return std::nullopt;
    A.Kind = AccessKind::Atomic;
    A.Addr = RMW->getPointerOperand();
  } else if (auto *XCHG = dyn_cast<AtomicCmpXchgInst>(I)) {
    if (!ClInstrumentAtomics)
      return std::nullopt;
    A.Kind = AccessKind::Atomic;
    A.Addr = XCHG->getPointerOperand();
  } else if (auto *II = dyn_cast<IntrinsicInst>(I)) {
    // Operand layouts (LLVM 19):
    //   masked.load(ptr, align, mask, passthru)   masked.store(val, ptr, align, mask)
    //   masked.gather(ptrs, align, mask, passthru) masked.scatter(val, ptrs, align, mask)
    switch (II->getIntrinsicID()) {
    case Intrinsic::masked_load:
    case Intrinsic::masked_gather:
      if (!ClInstrumentReads)
        return std::nullopt;
      A.Kind = AccessKind::Read;
      A.AccessTy = II->getType();
      A.Addr = II->getArgOperand(0);
      A.Mask = II->getArgOperand(2);
      break;
    case Intrinsic::masked_store:
    case Intrinsic::masked_scatter:
      if (!ClInstrumentWrites)
        return std::nullopt;
      A.Kind = AccessKind::Write;
      A.AccessTy = II->getArgOperand(0)->getType();
      A.Addr = II->getArgOperand(1);
      A.Mask = II->getArgOperand(3);
      break;
    //   masked.expandload(ptr, mask, passthru)  masked.compressstore(val, ptr, mask)
    case Intrinsic::masked_expandload:
      if (!ClInstrumentReads)
        return std::nullopt;
      A.Kind = AccessKind::Read;
      A.AccessTy = II->getType();
      A.Addr = II->getArgOperand(0);
      A.Mask = II->getArgOperand(1);
      A.Compressed = true;
      break;
    case Intrinsic::masked_compressstore:
      if (!ClInstrumentWrites)
        return std::nullopt;
      A.Kind = AccessKind::Write;
      A.AccessTy = II->getArgOperand(0)->getType();
      A.Addr = II->getArgOperand(1);
      A.Mask = II->getArgOperand(2);
      A.Compressed = true;
      break;
    default:
      if (!getX86Access(II, A))
        return std::nullopt;
      if (A.isWrite() ? !ClInstrumentWrites : !ClInstrumentReads)
        return std::nullopt;
      break;
    }
    A.IsGatherScatter = II->getIntrinsicID() == Intrinsic::masked_gather ||
                        II->getIntrinsicID() == Intrinsic::masked_scatter;
  } else {
    return std::nullopt;
  }

  // The runtime's shadow covers address space 0 only.
  if (A.Addr->getType()->getScalarType()->getPointerAddressSpace() != 0)
    return std::nullopt;
  // swifterror slots are promoted to registers by instruction selection; they
  // are not memory.
  if (A.Addr->isSwiftError())
    return std::nullopt;
  return A;
}

static bool isCompilerInternalGlobal(const GlobalVariable &GV) {
  StringRef Name = GV.getName();
  if (Name.starts_with("__llvm") || Name.starts_with(HeapProfRuntimePrefix) ||
      Name.starts_with("llvm."))
    return true;
  // PGO counters/bitmaps (__llvm_prf_*) and sanitizer-coverage counters
  // (__sancov_*) are updated by their own instrumentation.
  StringRef Section = GV.getSection();
  return Section.contains("__llvm_prf_") || Section.contains("__sancov_") ||
         Section == "llvm.metadata";
}

static TargetKind classifyObject(const Value *Obj) {
  if (isa<AllocaInst>(Obj))
    return TargetKind::Stack;
  if (auto *Arg = dyn_cast<Argument>(Obj))
    if (Arg->hasPassPointeeByValueCopyAttr())
      return TargetKind::Stack; // byval/inalloca/preallocated: caller's frame
  if (auto *GV = dyn_cast<GlobalVariable>(Obj))
    return isCompilerInternalGlobal(*GV) ? TargetKind::Never
                                         : TargetKind::Global;
  if (isa<GlobalValue>(Obj)) // an interposable alias, a function
    return TargetKind::Global;
  if (isa<ConstantPointerNull>(Obj) || isa<UndefValue>(Obj))
    return TargetKind::Never; // not an object at all
  // Any other constant, e.g. inttoptr (i64 753664 to ptr): an address fixed
  // when the program was compiled, so not one the allocator handed out.
  if (isa<Constant>(Obj))
    return TargetKind::Constant;
  return TargetKind::Counted;
}

/// Counted if any object the address may be based on is counted; otherwise
/// the most "stack-like" reason, for the statistics.
TargetKind HeapProfiler::classifyAddress(const Value *Addr) const {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Addr, Objects);
  bool SawStack = false, SawGlobal = false, SawConstant = false;
  for (const Value *Obj : Objects) {
    TargetKind K = classifyObject(Obj);
    if (K == TargetKind::Counted && isa<Argument>(Obj) &&
        isNotHeapArgument(cast<Argument>(Obj)))
      K = TargetKind::Stack; // a caller's frame, or a global
    switch (K) {
    case TargetKind::Counted:
      return TargetKind::Counted;
    case TargetKind::Stack:
      if (ClInstrumentStack)
        return TargetKind::Counted;
      SawStack = true;
      break;
    case TargetKind::Global:
      if (ClInstrumentGlobals)
        return TargetKind::Counted;
      SawGlobal = true;
      break;
    case TargetKind::Constant:
      if (!ClSkipConstantAddresses)
        return TargetKind::Counted;
      SawConstant = true;
      break;
    case TargetKind::Never:
      break;
    }
  }
  if (SawStack)
    return TargetKind::Stack;
  if (SawGlobal)
    return TargetKind::Global;
  if (SawConstant)
    return TargetKind::Constant;
  return TargetKind::Never;
}

/// The argument a new thread passes to U's function when U is the start
/// routine of a pthread_create call (its third argument; the thread calls
/// it with the fourth) or of C11's thrd_create (second; with the third);
/// nullptr otherwise.
static const Value *threadStartArgument(const CallBase &CB, const Use &U) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee || !CB.isArgOperand(&U))
    return nullptr;
  unsigned No = CB.getArgOperandNo(&U);
  StringRef Name = Callee->getName();
  if (Name == "pthread_create" && CB.arg_size() == 4 && No == 2)
    return CB.getArgOperand(3);
  if (Name == "thrd_create" && CB.arg_size() == 3 && No == 1)
    return CB.getArgOperand(2);
  return nullptr;
}

/// Whether every value A can hold points into a stack frame, a global or no
/// object, so that accesses based on it need no counter: A's function is
/// local to the module (all its callers are in sight), every use of the
/// function is a direct call, a call that its !callback metadata says calls
/// it back (OpenMP's parallel regions), or pthread_create or thrd_create
/// starting it (clang 19 gives them no !callback metadata), and what each
/// passes for A is based only on objects that are not heap or on arguments
/// of this kind.  Arguments met again while they are being decided are
/// assumed to be of the kind (a recursive function passing its argument on,
/// as larson's round_thread starts the next round with its own): a value
/// reaches such a cycle only from a source outside it, and those are all
/// checked.  Only the answer for the argument asked about first is kept
/// when it is "yes" (the others may rest on an assumption); "no" is always
/// kept.  A question that needs more than 64 arguments decided is answered
/// "no" -- at worst a needless count, never a missed one -- so the pass
/// stays linear in the module however its calls branch.
bool HeapProfiler::isNotHeapArgument(const Argument *A) const {
  if (!ClSkipCallerObjects || ClInstrumentStack || ClInstrumentGlobals ||
      !ClSkipConstantAddresses)
    return false;
  SmallPtrSet<const Argument *, 8> Assumed;
  unsigned Budget = 64;
  return notHeapArgument(A, Assumed, Budget);
}

bool HeapProfiler::notHeapArgument(const Argument *A,
                                   SmallPtrSetImpl<const Argument *> &Assumed,
                                   unsigned &Budget) const {
  if (auto It = ArgVerdicts.find(A); It != ArgVerdicts.end())
    return It->second;
  const Function *F = A->getParent();
  if (!A->getType()->isPointerTy() || !F->hasLocalLinkage() || !Budget)
    return false;
  if (!Assumed.insert(A).second)
    return true;
  --Budget;
  bool Ok = true;
  for (const Use &U : F->uses()) {
    const auto *CB = dyn_cast<CallBase>(U.getUser());
    const Value *Passed = nullptr;
    AbstractCallSite ACS(&U);
    if (ACS && ACS.isDirectCall()) {
      if (CB->getFunctionType() == F->getFunctionType())
        Passed = CB->getArgOperand(A->getArgNo());
    } else if (ACS && ACS.isCallbackCall()) {
      // A call whose !callback metadata says it calls F back (OpenMP's
      // __kmpc_fork_call and its outlined region): nullptr when the
      // argument is not one of the call's (the thread ids).
      if (A->getArgNo() < ACS.getNumArgOperands())
        Passed = ACS.getCallArgOperand(A->getArgNo());
    } else if (CB && A->getArgNo() == 0) {
      Passed = threadStartArgument(*CB, U);
    }
    if (!Passed) {
      Ok = false;
      break;
    }
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(Passed, Objects);
    for (const Value *Obj : Objects) {
      TargetKind K = classifyObject(Obj);
      if (K == TargetKind::Counted &&
          !(isa<Argument>(Obj) &&
            notHeapArgument(cast<Argument>(Obj), Assumed, Budget))) {
        Ok = false;
        break;
      }
    }
    if (!Ok)
      break;
  }
  Assumed.erase(A);
  if (!Ok || Assumed.empty()) {
    ArgVerdicts[A] = Ok;
    NumNotHeapArguments += Ok;
  }
  return Ok;
}

bool HeapProfiler::isCountedAddress(const Value *Addr) {
  switch (classifyAddress(Addr)) {
  case TargetKind::Counted:
    return true;
  case TargetKind::Stack:
    ++NumSkippedStack;
    return false;
  case TargetKind::Global:
    ++NumSkippedGlobal;
    return false;
  case TargetKind::Constant:
    ++NumSkippedConstant;
    return false;
  case TargetKind::Never:
    return false;
  }
  llvm_unreachable("covered switch");
}

/// A mem intrinsic is redirected unless every range it touches is one the
/// pass does not count (the runtime would count those ranges for nothing).
bool HeapProfiler::isInterestingMemIntrinsic(MemIntrinsic *MI) const {
  if (MI->getDestAddressSpace() != 0)
    return false;
  if (auto *MT = dyn_cast<MemTransferInst>(MI)) {
    if (MT->getSourceAddressSpace() != 0)
      return false;
    return classifyAddress(MI->getRawDest()) == TargetKind::Counted ||
           classifyAddress(MT->getRawSource()) == TargetKind::Counted;
  }
  return classifyAddress(MI->getRawDest()) == TargetKind::Counted;
}

void HeapProfiler::collectUpdates(const InterestingAccess &A,
                                  SmallVectorImpl<CounterUpdate> &Updates) {
  if (!isCountedAddress(A.Addr))
    return;

  if (!A.Mask) {
    Updates.push_back({A.I, A.Addr, A.isWrite()});
  } else {
    auto *VTy = dyn_cast_or_null<FixedVectorType>(A.AccessTy);
    if (!VTy && !A.Index) {
      // Scalable vectors have no compile-time lane count; not on x86-64.
      ++NumSkippedScalable;
      return;
    }
    // A lane of a constant mask: 1 known active, 0 known inactive, -1 not
    // known (undef, poison, an expression).
    auto *ConstMask = dyn_cast<Constant>(A.Mask);
    auto Known = [&](unsigned Idx) -> int {
      if (A.MaskByBit) {
        auto *CI = dyn_cast<ConstantInt>(A.Mask);
        return CI ? CI->getValue()[Idx] : -1;
      }
      Constant *E = ConstMask ? ConstMask->getAggregateElement(Idx) : nullptr;
      if (auto *CI = dyn_cast_or_null<ConstantInt>(E))
        return A.MaskBySign ? CI->isNegative() : !CI->isZero();
      if (auto *CF = dyn_cast_or_null<ConstantFP>(E))
        return A.MaskBySign ? CF->isNegative() : -1;
      return -1;
    };
    bool AllKnown = true;
    unsigned N = A.Index ? A.NumLanes : VTy->getNumElements();
    for (unsigned Idx = 0; Idx < N; ++Idx)
      AllKnown &= Known(Idx) >= 0;
    unsigned Before = 0; // known active lanes so far (expand/compress)
    for (unsigned Idx = 0; Idx < N; ++Idx) {
      CounterUpdate U{A.I, A.Addr, A.isWrite()};
      U.Lane = A.Index            ? CounterUpdate::IndexedLane
               : A.Compressed     ? CounterUpdate::CompressedLane
               : A.IsGatherScatter ? CounterUpdate::GatherLane
                                   : CounterUpdate::ContiguousLane;
      U.LaneIdx = Idx;
      U.VecTy = VTy;
      U.Index = A.Index;
      U.Scale = A.Scale;
      int Bit = Known(Idx);
      if (Bit == 0)
        continue; // lane never accessed
      if (Bit < 0) {
        U.LaneMask = A.Mask; // decided at run time (also undef/poison lanes)
        U.MaskBySign = A.MaskBySign;
        U.MaskByBit = A.MaskByBit;
      }
      if (A.Compressed) {
        // Which element an active lane reads: counted at compile time when
        // every lane of the mask is known, else from the mask at run time.
        if (AllKnown)
          U.CompressedAt = Before;
        else
          U.CompressMask = A.Mask;
        ++Before;
      }
      Updates.push_back(U);
    }
  }

  switch (A.Kind) {
  case AccessKind::Read:
    ++NumInstrumentedReads;
    break;
  case AccessKind::Write:
    ++NumInstrumentedWrites;
    break;
  case AccessKind::Atomic:
    ++NumInstrumentedAtomics;
    break;
  }
}

void HeapProfiler::markNoSanitize(Instruction *I) const {
  I->setMetadata(LLVMContext::MD_nosanitize, MDNode::get(C, std::nullopt));
}

void HeapProfiler::loadShadowBase(Function &F) {
  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> IRB(&Entry, Entry.getFirstInsertionPt());
  auto *GV = cast<GlobalVariable>(
      M.getOrInsertGlobal(HeapProfShadowMemoryDynamicAddress, IntptrTy));
  if (M.getPICLevel() == PICLevel::NotPIC)
    GV->setDSOLocal(true);
  LoadInst *Base = IRB.CreateLoad(IntptrTy, GV, "heapprof.shadow.base");
  markNoSanitize(Base);
  ShadowBase = Base;
}

void HeapProfiler::emitIncrement(IRBuilder<> &IRB, Value *Addr, bool IsWrite,
                                 Value *Count) {
  Value *AddrInt = IRB.CreatePtrToInt(Addr, IntptrTy);
  if (ClUseCallbacks) {
    // One call per access: only constant counts (no accumulators) here.
    FunctionCallee Callback = M.getOrInsertFunction(
        IsWrite ? HeapProfStoreName : HeapProfLoadName, IRB.getVoidTy(),
        IntptrTy);
    for (uint64_t K = 0, N = cast<ConstantInt>(Count)->getZExtValue(); K < N;
         ++K)
      IRB.CreateCall(Callback, AddrInt);
    return;
  }
  Value *Granule = IRB.CreateAnd(AddrInt, Mapping.Mask);
  Value *Offset = IRB.CreateLShr(Granule, Mapping.Scale);
  Value *CounterAddr = IRB.CreateAdd(Offset, ShadowBase);
  Value *CounterPtr = IRB.CreateIntToPtr(CounterAddr, PtrTy);
  LoadInst *Old = IRB.CreateLoad(Int64Ty, CounterPtr, "heapprof.count");
  markNoSanitize(Old);
  Value *New = IRB.CreateAdd(Old, Count);
  markNoSanitize(IRB.CreateStore(New, CounterPtr));
}

/// A call that is no call at run time: an intrinsic that touches no memory,
/// always returns and cannot unwind (llvm.fmuladd, llvm.smax, llvm.ctpop,
/// ...), or a hint to the optimizer (debug info, lifetime markers, assume,
/// noalias scopes).  It can neither free nor dump, nor leave the block.
static bool isHarmlessIntrinsic(const Instruction *I) {
  const auto *II = dyn_cast<IntrinsicInst>(I);
  if (!II)
    return false;
  if (isa<DbgInfoIntrinsic>(II) || II->isLifetimeStartOrEnd())
    return true;
  switch (II->getIntrinsicID()) {
  case Intrinsic::assume:
  case Intrinsic::experimental_noalias_scope_decl:
    return true;
  default:
    return II->doesNotAccessMemory() && II->willReturn() &&
           II->doesNotThrow();
  }
}

/// True if execution may not go from I to the next instruction, or I may do
/// anything to the counters (a call can free, dump or reset): the end of a
/// stretch in which updates may merge.
static bool isConsolidationBarrier(const Instruction *I) {
  if (isHarmlessIntrinsic(I))
    return false;
  return isa<CallBase>(I) || !isGuaranteedToTransferExecutionToSuccessor(I);
}

/// Merges each plain (non-lane) update into an earlier one on the same
/// address in the same basic block when nothing between the two accesses is
/// a barrier: whenever the first access runs, the second does, so "+1 here,
/// +1 there" and "+2 here" leave the same count in the same counter.  The
/// same address: the same pointer value, or two values that are one base
/// plus the same constant offset (a GEP the optimizer did not fold into the
/// other).  Lanes, masked updates and callbacks mode (where loads and stores
/// are separate calls) are left alone.
void HeapProfiler::consolidate(SmallVectorImpl<CounterUpdate> &Updates) const {
  if (!ClConsolidate || ClUseCallbacks || Updates.size() < 2)
    return;
  const DataLayout &DL = M.getDataLayout();
  SmallVector<CounterUpdate, 16> Out;
  // (base, constant offset) of the address -> its update in Out.
  DenseMap<std::pair<const Value *, int64_t>, size_t> Open;
  const Instruction *Last = nullptr;
  for (const CounterUpdate &U : Updates) {
    if (!Last || U.InsertPt->getParent() != Last->getParent()) {
      Open.clear();
    } else if (U.InsertPt != Last) {
      bool Barrier = isConsolidationBarrier(Last);
      for (const Instruction *I = Last->getNextNode(); !Barrier && I != U.InsertPt;
           I = I->getNextNode())
        Barrier = isConsolidationBarrier(I);
      if (Barrier)
        Open.clear();
    }
    Last = U.InsertPt;
    if (U.Lane == CounterUpdate::NotALane && !U.LaneMask) {
      int64_t Offset = 0;
      const Value *Base = GetPointerBaseWithConstantOffset(
          U.Ptr, Offset, DL, /*AllowNonInbounds=*/true);
      auto It = Open.find({Base, Offset});
      if (It != Open.end()) {
        Out[It->second].Count += U.Count;
        // One store hook for the merged accesses: the same thread writes
        // the same line at both, which changes no false-sharing count.
        Out[It->second].IsWrite |= ClFalseSharing && U.IsWrite;
        ++NumConsolidated;
        continue;
      }
      Open[{Base, Offset}] = Out.size();
    }
    Out.push_back(U);
  }
  Updates.assign(Out.begin(), Out.end());
}

/// A loop whose accesses may be summed in a register and added to their
/// counters when it exits: nothing in it can free, dump or read a counter
/// (no call but harmless intrinsics), nothing in it can observe another
/// thread (no volatile or atomic access, no fence), and it terminates: its
/// trip count has a bound scalar evolution can state, or it is mustprogress
/// (C11 and C++ loops whose condition is not a constant), which with no
/// side effect in it means it must end.  So it leaves through an exit edge,
/// where the sum is added.
bool HeapProfiler::isAccumulatingLoop(const Loop *L, ScalarEvolution &SE) {
  auto [It, New] = LoopVerdicts.try_emplace(L, false);
  if (!New)
    return It->second;
  if (!isMustProgress(L) &&
      isa<SCEVCouldNotCompute>(SE.getSymbolicMaxBackedgeTakenCount(L)))
    return false;
  for (const BasicBlock *BB : L->blocks())
    for (const Instruction &I : *BB) {
      if (isHarmlessIntrinsic(&I))
        continue;
      // An exceptional edge (funclet returns, resume) or an indirect one
      // would be an exit whose block cannot take code or be split.
      if (isa<CallBase>(I) || I.isAtomic() || I.isVolatile() ||
          I.isEHPad() || I.isSpecialTerminator() || isa<IndirectBrInst>(I))
        return false;
      if (!I.isTerminator() && !isGuaranteedToTransferExecutionToSuccessor(&I))
        return false;
    }
  LoopVerdicts[L] = true;
  return true;
}

/// Whether an update may be moved to a loop's exits (summed, or recorded as
/// part of a walk): lanes and masked updates stay where they are, and so do
/// stores when every store must call the false-sharing hook.
static bool mayLeaveItsPlace(const CounterUpdate &U) {
  return U.Lane == CounterUpdate::NotALane && !U.LaneMask &&
         !(ClFalseSharing && U.IsWrite);
}

/// Gives L a preheader (to zero sums and compute starts in) and exit blocks
/// entered only from L (to add the sums or record the walks in):
/// LoopSimplify's shape, which the end of the -O pipeline no longer
/// guarantees.  Splitting edges moves no instruction, so the updates'
/// insertion points stay valid.  Whether L has that shape now.
static bool giveExitShape(Loop *L, DominatorTree &DT, LoopInfo &LI) {
  if (!L->getLoopPreheader())
    InsertPreheaderForLoop(L, &DT, &LI, nullptr, /*PreserveLCSSA=*/false);
  if (!L->hasDedicatedExits())
    formDedicatedExitBlocks(L, &DT, &LI, nullptr, /*PreserveLCSSA=*/false);
  return L->getLoopPreheader() && L->hasDedicatedExits();
}

/// Takes the updates on loop-invariant pointers out of the loops they are
/// in: each (loop, pointer) gets an i64 accumulator (an alloca, promoted to
/// a register at the end), zeroed in the preheader, incremented where the
/// update was, and added to the counter in every exit block when non-zero.
/// An update is taken out of the outermost enclosing loop in which its
/// pointer is invariant and which isAccumulatingLoop accepts.
void HeapProfiler::accumulateInLoops(Function &F,
                                     FunctionAnalysisManager &FAM,
                                     SmallVectorImpl<CounterUpdate> &Updates,
                                     SmallVectorImpl<ExitUpdate> &Exits) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return;
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);

  // Decide every update's loop first, on the IR as it is.
  SmallVector<Loop *, 16> Targets;
  for (const CounterUpdate &U : Updates) {
    Loop *Target = nullptr;
    // Lanes and masked updates stay; so do stores when every store must
    // call the false-sharing hook.
    if (mayLeaveItsPlace(U))
      for (Loop *L = LI.getLoopFor(U.InsertPt->getParent()); L;
           L = L->getParentLoop()) {
        if (!L->isLoopInvariant(U.Ptr) || !isAccumulatingLoop(L, SE))
          break;
        Target = L;
      }
    Targets.push_back(Target);
  }

  // Then give those loops the shape the sums need (giveExitShape).
  DenseMap<Loop *, bool> Shaped;
  for (Loop *L : Targets)
    if (L && !Shaped.count(L))
      Shaped[L] = giveExitShape(L, DT, LI);

  DenseMap<std::pair<const Loop *, Value *>, AllocaInst *> Slots;
  SmallVector<CounterUpdate, 16> Kept;
  for (auto [U, Target] : zip(Updates, Targets)) {
    if (!Target || !Shaped[Target]) {
      Kept.push_back(U);
      continue;
    }
    AllocaInst *&Slot = Slots[{Target, U.Ptr}];
    if (!Slot) {
      BasicBlock &Entry = F.getEntryBlock();
      IRBuilder<> EB(&Entry, Entry.getFirstInsertionPt());
      Slot = EB.CreateAlloca(Int64Ty, nullptr, "heapprof.acc");
      Accumulators.push_back(Slot);
      IRBuilder<> PB(Target->getLoopPreheader()->getTerminator());
      PB.CreateStore(ConstantInt::get(Int64Ty, 0), Slot);
      SmallVector<BasicBlock *, 4> ExitBlocks;
      Target->getUniqueExitBlocks(ExitBlocks);
      for (BasicBlock *Exit : ExitBlocks)
        Exits.push_back({Exit, Slot, U.Ptr});
    }
    IRBuilder<> IRB(U.InsertPt);
    Value *Sum = IRB.CreateLoad(Int64Ty, Slot);
    IRB.CreateStore(IRB.CreateAdd(Sum, ConstantInt::get(Int64Ty, U.Count)),
                    Slot);
    ++NumHoisted;
  }
  Updates.assign(Kept.begin(), Kept.end());
}

void HeapProfiler::emitExitUpdate(const ExitUpdate &E) {
  IRBuilder<> IRB(E.Exit, E.Exit->getFirstInsertionPt());
  Value *Sum = IRB.CreateLoad(Int64Ty, E.Slot);
  auto *NonZero = cast<Instruction>(IRB.CreateICmpNE(Sum, IRB.getInt64(0)));
  // A loop that never reached its access may have a pointer that is not
  // one (null, poison): only a non-zero sum touches the counter.
  Instruction *Then = SplitBlockAndInsertIfThen(
      NonZero, std::next(NonZero->getIterator()), /*Unreachable=*/false);
  IRBuilder<> TB(Then);
  emitIncrement(TB, E.Ptr, /*IsWrite=*/false, Sum);
  ++NumCounterUpdates;
}

/// The scalar loop the loop vectorizer leaves after a vector loop runs the
/// fewer-than-VF x UF iterations left (or all of a trip count below that):
/// marked vectorized but with no vector access.  Short by construction,
/// and scalar evolution rarely bounds it, so it keeps its updates.
static bool isVectorRemainder(const Loop *L) {
  if (!getBooleanLoopAttribute(L, "llvm.loop.isvectorized"))
    return false;
  for (const BasicBlock *BB : L->blocks())
    for (const Instruction &I : *BB) {
      Type *T = isa<StoreInst>(I) ? cast<StoreInst>(I).getValueOperand()->getType()
                                  : I.getType();
      if ((isa<LoadInst>(I) || isa<StoreInst>(I) || isa<IntrinsicInst>(I)) &&
          T->isVectorTy())
        return false;
    }
  return true;
}

/// True if B runs once in every iteration of L that goes back to L's
/// header, and at most once in the iteration that leaves L, so that the
/// iterations in which it ran are the first N for some N.  B must dominate
/// every latch (an iteration cannot return to the header without running
/// it) and belong to L itself, not to a subloop, in a function without
/// irreducible cycles: then running B twice in one iteration would need a
/// cycle that does not pass L's header, and every such cycle is a subloop.
bool HeapProfiler::runsOncePerIteration(const BasicBlock *B, const Loop *L,
                                        const DominatorTree &DT,
                                        const LoopInfo &LI,
                                        const Function &F) {
  if (LI.getLoopFor(B) != L)
    return false;
  SmallVector<BasicBlock *, 4> Latches;
  L->getLoopLatches(Latches);
  if (Latches.empty() || !all_of(Latches, [&](const BasicBlock *Latch) {
        return DT.dominates(B, Latch);
      }))
    return false;
  if (!Irreducible) {
    ReversePostOrderTraversal<const Function *> RPOT(&F);
    Irreducible = containsIrreducibleCFG<const BasicBlock *>(RPOT, LI);
  }
  return !*Irreducible;
}

/// Takes the updates of strided walks out of their loops.  An update
/// qualifies when its address is {Start,+,Stride}<L> for the innermost loop
/// L of its block B (constant, non-zero Stride), L is a loop in which sums
/// may be kept (isAccumulatingLoop: no call, volatile or atomic, certain
/// to end), B runs once an iteration (runsOncePerIteration) and Start can
/// be computed at L's exits.  Then the accesses that ran are those of
/// iterations 0 .. N-1, at Start + k * Stride, where N is the number of
/// iterations in which B ran, which scalar evolution's exit counts give at
/// every exit (with -heapprof-strided-unknown-trips, where they do not, an
/// i64 zeroed in the preheader and stepped in B); the walk is recorded
/// there (emitStridedExit).  Updates in one block whose starts are m
/// equally spaced points of one stride (a vectorized loop's two halves)
/// become one walk of m * N accesses.
void HeapProfiler::recordStridedWalks(Function &F,
                                      FunctionAnalysisManager &FAM,
                                      SmallVectorImpl<CounterUpdate> &Updates,
                                      SmallVectorImpl<StridedGroup> &Groups) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return;
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  TargetTransformInfo &TTI = FAM.getResult<TargetIRAnalysis>(F);
  SCEVExpander Expander(SE, M.getDataLayout(), "heapprof.walk");

  // Decide on the IR as it is: which updates walk, in which (loop, block).
  struct Candidate {
    size_t Idx;
    const SCEV *Start;
    int64_t Stride;
    uint64_t Weight;
  };
  MapVector<std::pair<Loop *, BasicBlock *>, SmallVector<Candidate, 4>>
      ByBlock;
  for (auto [Idx, U] : enumerate(Updates)) {
    if (!mayLeaveItsPlace(U))
      continue;
    BasicBlock *B = U.InsertPt->getParent();
    Loop *L = LI.getLoopFor(B);
    if (!L)
      continue;
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(U.Ptr));
    if (!AR || AR->getLoop() != L || !AR->isAffine())
      continue;
    auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
    // A stride beyond 2^47 is no walk through user memory.
    if (!Step || Step->isZero() || Step->getAPInt().getSignificantBits() > 48)
      continue;
    if (!isAccumulatingLoop(L, SE))
      continue;
    unsigned MaxTrips = SE.getSmallConstantMaxTripCount(L);
    if (MaxTrips != 0 && MaxTrips <= ClStridedMinTrips)
      continue;
    if (isVectorRemainder(L))
      continue;
    if (!runsOncePerIteration(B, L, DT, LI, F) ||
        !Expander.isSafeToExpand(AR->getStart()))
      continue;
    ByBlock[{L, B}].push_back(
        {Idx, AR->getStart(), Step->getAPInt().getSExtValue(), U.Count});
  }
  if (ByBlock.empty())
    return;

  // Give the loops the shape the records need (giveExitShape).
  DenseMap<Loop *, bool> Shaped;
  for (auto &[Key, Cands] : ByBlock)
    if (!Shaped.count(Key.first))
      Shaped[Key.first] = giveExitShape(Key.first, DT, LI);

  SmallVector<bool, 16> Taken(Updates.size(), false);
  for (auto &[Key, Cands] : ByBlock) {
    auto [L, B] = Key;
    if (!Shaped[L])
      continue;
    StridedGroup G;
    G.L = L;
    G.B = B;
    L->getUniqueExitBlocks(G.Exits);
    auto Expandable = [&](const SCEV *S) {
      return all_of(G.Exits, [&](BasicBlock *X) {
        return Expander.isSafeToExpandAt(S, &*X->getFirstInsertionPt());
      });
    };
    // Cluster the candidates: same stride and weight, starts a constant
    // apart.  A cluster whose starts are m points Stride/m apart is one
    // walk; any other cluster is one walk per candidate.
    SmallVector<bool, 8> Used(Cands.size(), false);
    for (size_t I = 0; I < Cands.size(); ++I) {
      if (Used[I] || !Expandable(Cands[I].Start))
        continue;
      SmallVector<std::pair<int64_t, size_t>, 4> Offsets{{0, I}};
      Used[I] = true;
      for (size_t J = I + 1; J < Cands.size(); ++J) {
        if (Used[J] || Cands[J].Stride != Cands[I].Stride ||
            Cands[J].Weight != Cands[I].Weight || !Expandable(Cands[J].Start))
          continue;
        auto *D = dyn_cast<SCEVConstant>(
            SE.getMinusSCEV(Cands[J].Start, Cands[I].Start));
        if (!D || D->getAPInt().getSignificantBits() > 48)
          continue;
        Offsets.push_back({D->getAPInt().getSExtValue(), J});
        Used[J] = true;
      }
      llvm::sort(Offsets);
      int64_t Stride = Cands[I].Stride;
      uint64_t M = Offsets.size();
      uint64_t Gap = M > 1 ? Offsets[1].first - Offsets[0].first : 0;
      bool Progression = M > 1 && Gap > 0 && Gap * M == (uint64_t)std::abs(Stride);
      for (size_t K = 1; Progression && K < M; ++K)
        Progression = uint64_t(Offsets[K].first - Offsets[K - 1].first) == Gap;
      if (Progression) {
        // A positive stride walks up from the lowest start, a negative one
        // down from the highest.
        size_t First = Stride > 0 ? Offsets.front().second
                                  : Offsets.back().second;
        StridedWalk &W = G.Walks.emplace_back();
        W = {L, B, Cands[First].Start, Stride / (int64_t)M, M,
             Cands[I].Weight, {}};
        for (auto [Off, Idx] : Offsets)
          W.Members.push_back(Cands[Idx].Idx);
      } else {
        // Let the others find their own clusters.
        for (auto [Off, Idx] : drop_begin(Offsets))
          Used[Idx] = false;
        G.Walks.push_back(
            {L, B, Cands[I].Start, Stride, 1, Cands[I].Weight, {Cands[I].Idx}});
      }
    }
    // One counter per amount an iteration adds (accesses times weight),
    // stepped by that amount: then its value at an exit is what the walks'
    // updates would have added, with no arithmetic on it there (which the
    // code generator's loop strength reduction would turn into more
    // registers stepped in the loop).
    MapVector<uint64_t, StridedGroup> BySum;
    for (StridedWalk &W : G.Walks) {
      StridedGroup &SG = BySum[W.PerIter * W.Weight];
      if (SG.Walks.empty()) {
        SG.L = L;
        SG.B = B;
        SG.Sum = W.PerIter * W.Weight;
        SG.Exits = G.Exits;
      }
      SG.Walks.push_back(W);
    }
    // The sum at each exit without a register, if scalar evolution knows
    // the iterations: an exit block entered from one block E of L itself
    // (not a subloop) that dominates the latches (so it runs once in every
    // iteration) and whose exit count C is known: leaving from E means
    // leaving after C back edges.  B ran in the last iteration too if it
    // dominates E, and not if E dominates it (it would come after E in the
    // iteration).
    SmallVector<BasicBlock *, 4> Latches;
    L->getLoopLatches(Latches);
    SmallVector<const SCEV *, 2> ItersAtExit;
    for (BasicBlock *X : G.Exits) {
      BasicBlock *E = X->getSinglePredecessor();
      bool EveryIteration =
          E && LI.getLoopFor(E) == L && all_of(Latches, [&](BasicBlock *Latch) {
            return DT.dominates(E, Latch);
          });
      const SCEV *C =
          EveryIteration ? SE.getExitCount(L, E) : SE.getCouldNotCompute();
      bool Ran = E && DT.dominates(B, E);
      if (isa<SCEVCouldNotCompute>(C) || !C->getType()->isIntegerTy() ||
          C->getType()->getIntegerBitWidth() > 64 ||
          (!Ran && !(E != B && DT.dominates(E, B)))) {
        ItersAtExit.clear();
        break;
      }
      const SCEV *Iters = SE.getNoopOrZeroExtend(C, Int64Ty);
      if (Ran)
        Iters = SE.getAddExpr(Iters, SE.getOne(Int64Ty));
      Instruction *At = &*X->getFirstInsertionPt();
      if (!Expander.isSafeToExpandAt(Iters, At) ||
          Expander.isHighCostExpansion(Iters, L, SCEVCheapExpansionBudget,
                                       &TTI, At)) {
        ItersAtExit.clear();
        break;
      }
      ItersAtExit.push_back(Iters);
    }
    if (ItersAtExit.empty() && !ClStridedUnknownTrips)
      continue;
    for (const StridedWalk &W : G.Walks) {
      for (size_t Idx : W.Members)
        Taken[Idx] = true;
      NumStrided += W.Members.size();
    }
    for (auto &[Sum, SG] : BySum) {
      // Frozen: when the loop never reached the access the start may be
      // poison; it is only used when the access ran.
      for (auto [XI, X] : enumerate(SG.Exits)) {
        Instruction *At = &*X->getFirstInsertionPt();
        IRBuilder<> XB(At);
        if (!ItersAtExit.empty())
          SG.Totals.push_back(Expander.expandCodeFor(
              SE.getMulExpr(ItersAtExit[XI], SE.getConstant(Int64Ty, Sum)),
              Int64Ty, At));
        SmallVector<Value *, 4> &Starts = SG.Starts.emplace_back();
        for (StridedWalk &W : SG.Walks)
          Starts.push_back(
              XB.CreateFreeze(Expander.expandCodeFor(W.Start, PtrTy, At),
                              "heapprof.walk.start"));
      }
      NumStridedWalks += SG.Walks.size();
      if (!ItersAtExit.empty()) {
        ++NumStridedCounted;
        Groups.push_back(std::move(SG));
        continue;
      }
      IRBuilder<> PB(L->getLoopPreheader()->getTerminator());
      BasicBlock &Entry = F.getEntryBlock();
      IRBuilder<> EB(&Entry, Entry.getFirstInsertionPt());
      SG.Slot = EB.CreateAlloca(Int64Ty, nullptr, "heapprof.walked");
      Accumulators.push_back(SG.Slot);
      PB.CreateStore(ConstantInt::get(Int64Ty, 0), SG.Slot);
      IRBuilder<> BB(B->getTerminator());
      BB.CreateStore(BB.CreateAdd(BB.CreateLoad(Int64Ty, SG.Slot),
                                  ConstantInt::get(Int64Ty, Sum),
                                  "heapprof.walked.next"),
                     SG.Slot);
      Groups.push_back(std::move(SG));
    }
  }

  SmallVector<CounterUpdate, 16> Kept;
  for (auto [U, T] : zip(Updates, Taken))
    if (!T)
      Kept.push_back(U);
  Updates.assign(Kept.begin(), Kept.end());
}

/// At an exit of G's loop: if G's block ran N > 0 times, each walk's
/// N * PerIter accesses from its start are counted (G's total is that times
/// the weight): inline when they fall in one granule or two, or, for a step
/// dividing the granule, in a few (a loop over their counters), else by
/// __heapprof_record_strided; every granule gets the accesses whose first
/// byte is in it.
void HeapProfiler::emitStridedExit(const StridedGroup &G, size_t ExitIdx) {
  // After the starts, at the top of the exit block.
  auto *LastStart = cast<Instruction>(G.Starts[ExitIdx].back());
  IRBuilder<> IRB(LastStart->getNextNode());
  // Each walk's accesses times its weight: what its updates would have
  // added in all.
  Value *Total = G.Slot ? IRB.CreateLoad(Int64Ty, G.Slot, "heapprof.walk.total")
                       : G.Totals[ExitIdx];
  // A loop that never ran the block has nothing to count, and its starts
  // may be no addresses at all.  (A constant sum: a loop whose trip count
  // is one.)
  Instruction *Then = LastStart->getNextNode();
  if (auto *C = dyn_cast<ConstantInt>(Total)) {
    if (C->isZero())
      return;
  } else {
    auto *NonZero =
        cast<Instruction>(IRB.CreateICmpNE(Total, IRB.getInt64(0)));
    Then = SplitBlockAndInsertIfThen(
        NonZero, std::next(NonZero->getIterator()), /*Unreachable=*/false);
  }
  FunctionCallee Record = M.getOrInsertFunction(
      HeapProfRecordStridedName, IRB.getVoidTy(), IntptrTy, IntptrTy, Int64Ty,
      Int64Ty);
  // The runtime saves what it uses: the caller keeps its registers (a loop
  // in a leaf function stays free of saves and restores).
  // nonlazybind: in position-independent code the call goes through the
  // GOT, bound when the module loads, never through a lazy PLT entry: the
  // dynamic loader's resolver may use r10 and r11 on the first call, which
  // a caller of a preserve_all function keeps live across it (an
  // instrumented shared library crashed there).
  if (auto *Fn = dyn_cast<Function>(Record.getCallee())) {
    Fn->setCallingConv(CallingConv::PreserveAll);
    Fn->setDoesNotThrow();
    Fn->addFnAttr(Attribute::NonLazyBind);
  }
  uint64_t Granularity = ~Mapping.Mask + 1;
  for (auto [W, StartV] : zip(G.Walks, G.Starts[ExitIdx])) {
    IRBuilder<> TB(Then);
    Value *First = TB.CreatePtrToInt(StartV, IntptrTy, "heapprof.walk.first");
    // The walk stays in its first granule if it makes no more accesses than
    // fit between its start and that granule's end (upwards) or start
    // (downwards): tested against a bound computed from the start alone.
    uint64_t Step = W.Stride > 0 ? W.Stride : -(uint64_t)W.Stride;
    Value *Off = TB.CreateAnd(First, Granularity - 1);
    Value *InFirst =
        W.Stride > 0
            ? TB.CreateUDiv(
                  TB.CreateSub(ConstantInt::get(IntptrTy, Granularity + Step - 1),
                               Off),
                  ConstantInt::get(IntptrTy, Step))
            : TB.CreateAdd(TB.CreateUDiv(Off, ConstantInt::get(IntptrTy, Step)),
                           ConstantInt::get(IntptrTy, 1));
    Value *InFirstW = W.Weight == 1 ? InFirst
                                    : TB.CreateMul(InFirst, ConstantInt::get(
                                                                IntptrTy, W.Weight));
    Value *TotalI = TB.CreateZExtOrTrunc(Total, IntptrTy);
    Value *OneGranule =
        TB.CreateICmpULE(TotalI, InFirstW, "heapprof.walk.short");
    Instruction *FastT, *SlowT;
    SplitBlockAndInsertIfThenElse(OneGranule, Then->getIterator(), &FastT,
                                  &SlowT);
    IRBuilder<> FB(FastT);
    emitIncrement(FB, StartV, /*IsWrite=*/false, Total);
    // Two granules, inline too, when the step divides the granule (then
    // the second holds Granularity / Step accesses unless the walk ends in
    // it) or is at least a granule (one access each): the first gets its
    // share, the one of the first access after it the rest.
    if (isPowerOf2_64(Step) || Step >= Granularity) {
      IRBuilder<> SB2(SlowT);
      uint64_t InSecond = Step >= Granularity ? 1 : Granularity / Step;
      Value *Bound = SB2.CreateAdd(
          InFirstW, ConstantInt::get(IntptrTy, InSecond * W.Weight));
      Value *TwoGranules =
          SB2.CreateICmpULE(TotalI, Bound, "heapprof.walk.two");
      Instruction *TwoT, *CallT;
      SplitBlockAndInsertIfThenElse(TwoGranules, SlowT->getIterator(), &TwoT,
                                    &CallT);
      IRBuilder<> TwoB(TwoT);
      emitIncrement(TwoB, StartV, /*IsWrite=*/false, InFirstW);
      Value *Second = TwoB.CreateGEP(
          TwoB.getInt8Ty(), StartV,
          TwoB.CreateMul(InFirst, ConstantInt::get(IntptrTy, W.Stride)));
      emitIncrement(TwoB, Second, /*IsWrite=*/false,
                    TwoB.CreateSub(TotalI, InFirstW));
      SlowT = CallT;
    }
    // Beyond two granules, the common walk (weight 1, a step that divides
    // the granule) over up to ClStridedInlineGranules granules is recorded
    // inline too, as the
    // runtime would: the lowest granule gets the accesses from the lowest
    // address to its end, every granule between the lowest and the highest
    // Granularity / Step, and the highest the rest.  For a walk of a few
    // granules a call costs more than the updates it saves.
    if (W.Weight == 1 && isPowerOf2_64(Step) && Step < Granularity) {
      IRBuilder<> LB(SlowT);
      Value *Span = LB.CreateMul(LB.CreateSub(TotalI, LB.getInt64(1)),
                                 ConstantInt::get(IntptrTy, Step));
      Value *Lo = W.Stride > 0 ? First : LB.CreateSub(First, Span);
      Value *Hi = LB.CreateAdd(Lo, Span, "heapprof.walk.hi");
      auto CounterOf = [&](IRBuilder<> &B, Value *A) {
        return B.CreateAdd(
            B.CreateLShr(B.CreateAnd(A, Mapping.Mask), Mapping.Scale),
            ShadowBase);
      };
      auto AddTo = [&](IRBuilder<> &B, Value *CounterInt, Value *N) {
        Value *Ptr = B.CreateIntToPtr(CounterInt, PtrTy);
        LoadInst *Old = B.CreateLoad(Int64Ty, Ptr, "heapprof.count");
        markNoSanitize(Old);
        markNoSanitize(B.CreateStore(B.CreateAdd(Old, N), Ptr));
      };
      uint64_t CounterBytes = Granularity >> Mapping.Scale;
      Value *C0 = CounterOf(LB, Lo), *C1 = CounterOf(LB, Hi);
      Value *Inner = LB.CreateSub(C1, C0); // counter bytes past C0's
      Value *Short = LB.CreateICmpULE(
          Inner, ConstantInt::get(IntptrTy,
                                  CounterBytes * (ClStridedInlineGranules - 1)),
          "heapprof.walk.few");
      Instruction *InlineT, *CallT;
      SplitBlockAndInsertIfThenElse(Short, SlowT->getIterator(), &InlineT,
                                    &CallT);
      IRBuilder<> IB(InlineT);
      uint64_t Per = Granularity / Step;
      Value *InLo = IB.CreateAdd(
          IB.CreateLShr(
              IB.CreateSub(ConstantInt::get(IntptrTy, Granularity - 1),
                           IB.CreateAnd(Lo, Granularity - 1)),
              Log2_64(Step)),
          ConstantInt::get(IntptrTy, 1));
      Value *Middle =
          IB.CreateSub(IB.CreateLShr(Inner, Log2_64(CounterBytes)),
                       ConstantInt::get(IntptrTy, 1));
      AddTo(IB, C0, InLo);
      AddTo(IB, C1,
            IB.CreateSub(IB.CreateSub(TotalI, InLo),
                         IB.CreateMul(Middle, ConstantInt::get(IntptrTy, Per))));
      Value *FirstMid =
          IB.CreateAdd(C0, ConstantInt::get(IntptrTy, CounterBytes));
      Value *Any = IB.CreateICmpULT(FirstMid, C1);
      BasicBlock *Head = InlineT->getParent();
      Instruction *LoopT = SplitBlockAndInsertIfThen(
          Any, InlineT->getIterator(), /*Unreachable=*/false);
      BasicBlock *LoopBB = LoopT->getParent();
      BasicBlock *Tail = LoopT->getSuccessor(0);
      IRBuilder<> PB(LoopBB, LoopBB->begin());
      PHINode *P = PB.CreatePHI(IntptrTy, 2, "heapprof.walk.counter");
      IRBuilder<> MB(LoopT);
      AddTo(MB, P, ConstantInt::get(IntptrTy, Per));
      Value *Next = MB.CreateAdd(P, ConstantInt::get(IntptrTy, CounterBytes));
      P->addIncoming(FirstMid, Head);
      P->addIncoming(Next, LoopBB);
      MB.CreateCondBr(MB.CreateICmpULT(Next, C1), LoopBB, Tail);
      LoopT->eraseFromParent();
      SlowT = CallT;
    }
    IRBuilder<> SB(SlowT);
    CallInst *Call = SB.CreateCall(
        Record, {First, ConstantInt::get(IntptrTy, W.Stride), Total,
                 SB.getInt64(W.Weight)});
    Call->setCallingConv(CallingConv::PreserveAll);
    ++NumCounterUpdates;
  }
}

void HeapProfiler::emitUpdate(const CounterUpdate &U) {
  Instruction *InsertBefore = U.InsertPt;
  if (U.LaneMask) {
    IRBuilder<> IRB(U.InsertPt);
    Value *Mask = U.LaneMask;
    // An MMX mask (maskmovq) is read as the bytes of its lanes.
    if (Mask->getType()->isX86_MMXTy())
      Mask = IRB.CreateBitCast(Mask, U.VecTy);
    Value *Bit;
    if (U.MaskByBit) {
      // An integer mask: lane i is its bit i.
      auto *MT = cast<IntegerType>(Mask->getType());
      Value *Sel = IRB.CreateAnd(
          Mask, ConstantInt::get(MT, APInt::getOneBitSet(MT->getBitWidth(),
                                                         U.LaneIdx)));
      Bit = IRB.CreateICmpNE(Sel, ConstantInt::get(MT, 0));
    } else {
      Bit = IRB.CreateExtractElement(Mask, U.LaneIdx);
    }
    // Branching on poison is UB; a lane that is poison in the mask is
    // counted or not, but must not break the program.
    if (!isGuaranteedNotToBePoison(U.LaneMask))
      Bit = IRB.CreateFreeze(Bit);
    if (U.MaskBySign) {
      // x86: the lane is on when its element's sign bit is set.
      Type *ET = Bit->getType();
      if (!ET->isIntegerTy())
        Bit = IRB.CreateBitCast(
            Bit, IRB.getIntNTy(ET->getPrimitiveSizeInBits().getFixedValue()));
      Bit = IRB.CreateICmpSLT(Bit, ConstantInt::get(Bit->getType(), 0));
    }
    InsertBefore = SplitBlockAndInsertIfThen(Bit, U.InsertPt->getIterator(),
                                             /*Unreachable=*/false);
  }
  IRBuilder<> IRB(InsertBefore);
  Value *Addr = U.Ptr;
  switch (U.Lane) {
  case CounterUpdate::NotALane:
    break;
  case CounterUpdate::ContiguousLane:
    Addr = IRB.CreateGEP(U.VecTy, U.Ptr,
                         {ConstantInt::get(IntptrTy, 0),
                          ConstantInt::get(IntptrTy, U.LaneIdx)});
    break;
  case CounterUpdate::GatherLane:
    Addr = IRB.CreateExtractElement(U.Ptr, U.LaneIdx);
    break;
  case CounterUpdate::IndexedLane: {
    Value *I = IRB.CreateExtractElement(U.Index, U.LaneIdx);
    Value *Off = IRB.CreateMul(IRB.CreateSExt(I, IntptrTy),
                               ConstantInt::get(IntptrTy, U.Scale));
    Addr = IRB.CreateGEP(IRB.getInt8Ty(), U.Ptr, Off);
    break;
  }
  case CounterUpdate::CompressedLane: {
    Value *K = ConstantInt::get(IntptrTy, U.CompressedAt);
    if (U.CompressMask) {
      // The active lanes below this one: the mask as an integer, its bits
      // below LaneIdx, counted.
      unsigned N = U.VecTy->getNumElements();
      Value *M = U.CompressMask;
      if (!isGuaranteedNotToBePoison(M))
        M = IRB.CreateFreeze(M);
      Value *Bits = IRB.CreateBitCast(M, IRB.getIntNTy(N));
      Value *Below = IRB.CreateAnd(
          Bits, ConstantInt::get(Bits->getType(),
                                 APInt::getLowBitsSet(N, U.LaneIdx)));
      Value *Cnt = IRB.CreateUnaryIntrinsic(Intrinsic::ctpop, Below);
      K = IRB.CreateZExtOrTrunc(Cnt, IntptrTy);
    }
    Addr = IRB.CreateGEP(U.VecTy->getElementType(), U.Ptr, K);
    break;
  }
  }
  emitIncrement(IRB, Addr, U.IsWrite, ConstantInt::get(Int64Ty, U.Count));
  if (ClFalseSharing && U.IsWrite) {
    FunctionCallee Hook = M.getOrInsertFunction(
        HeapProfFalseSharingStoreName, IRB.getVoidTy(), IntptrTy);
    IRB.CreateCall(Hook, IRB.CreatePtrToInt(Addr, IntptrTy));
    ++NumFalseSharingHooks;
  }
  ++NumCounterUpdates;
}

/// A memcpy or memset whose ranges are counted inline (emitRangeCount) and
/// which becomes llvm.memcpy.inline / llvm.memset.inline, which the backend
/// must expand into moves: a call to libc's memcpy would reach the runtime's
/// interceptor and be counted twice.  A constant length of at most
/// -heapprof-inline-range-max bytes and of one granule (so each range spans
/// at most two granules); not volatile (those keep their own path), not
/// memmove (no .inline form), counters updated inline (not callbacks mode).
static bool countsRangesInline(const MemIntrinsic *MI) {
  auto *Len = dyn_cast<ConstantInt>(MI->getLength());
  return Len && !MI->isVolatile() && !isa<MemMoveInst>(MI) &&
         !ClUseCallbacks && ClInlineRangeMax &&
         Len->getZExtValue() >= 1 &&
         Len->getZExtValue() <=
             std::min<uint64_t>(ClInlineRangeMax, ClMappingGranularity);
}

/// The range rule for [Ptr, Ptr + Len), 1 <= Len <= 64, as the runtime's
/// hp_shadow_record_range counts it: one access per 8-byte word the range
/// overlaps, to the counter of the granule holding the word.  Len <= 64
/// puts the words in the first granule (from the first word to the
/// granule's end, or all of them) and the rest in the granule of the last
/// byte; when both are one granule, the second add is of 0.
void HeapProfiler::emitRangeCount(IRBuilder<> &IRB, Value *Ptr, uint64_t Len) {
  Value *First = IRB.CreatePtrToInt(Ptr, IntptrTy);
  Value *Last = IRB.CreateAdd(First, ConstantInt::get(IntptrTy, Len - 1));
  Value *FirstWord = IRB.CreateLShr(First, 3);
  Value *Words = IRB.CreateAdd(IRB.CreateSub(IRB.CreateLShr(Last, 3), FirstWord),
                               ConstantInt::get(IntptrTy, 1));
  auto CounterOf = [&](Value *A) {
    Value *Granule = IRB.CreateAnd(A, Mapping.Mask);
    return IRB.CreateAdd(IRB.CreateLShr(Granule, Mapping.Scale), ShadowBase);
  };
  Value *C0 = CounterOf(First), *C1 = CounterOf(Last);
  // Words from the first one to the end of its granule.
  Value *ToGranuleEnd = IRB.CreateSub(
      ConstantInt::get(IntptrTy, Mapping.Granularity / 8),
      IRB.CreateAnd(FirstWord, Mapping.Granularity / 8 - 1));
  Value *InFirst =
      IRB.CreateSelect(IRB.CreateICmpEQ(C0, C1), Words, ToGranuleEnd);
  Value *InLast = IRB.CreateSub(Words, InFirst);
  for (auto [CounterAddr, N] : {std::pair{C0, InFirst}, std::pair{C1, InLast}}) {
    Value *CounterPtr = IRB.CreateIntToPtr(CounterAddr, PtrTy);
    LoadInst *Old = IRB.CreateLoad(Int64Ty, CounterPtr, "heapprof.count");
    markNoSanitize(Old);
    markNoSanitize(IRB.CreateStore(
        IRB.CreateAdd(Old, IRB.CreateZExtOrTrunc(N, Int64Ty)), CounterPtr));
  }
  ++NumInlineRanges;
}

void HeapProfiler::instrumentMemIntrinsic(MemIntrinsic *MI) {
  IRBuilder<> IRB(MI);
  Value *Len = IRB.CreateIntCast(MI->getLength(), IntptrTy, /*isSigned=*/false);
  auto *MT = dyn_cast<MemTransferInst>(MI);

  if (countsRangesInline(MI)) {
    // Only the ranges the pass counts: the others' counters are never read
    // (no heap chunk holds them).
    uint64_t N = cast<ConstantInt>(MI->getLength())->getZExtValue();
    if (MT && classifyAddress(MT->getRawSource()) == TargetKind::Counted)
      emitRangeCount(IRB, MT->getRawSource(), N);
    if (classifyAddress(MI->getRawDest()) == TargetKind::Counted)
      emitRangeCount(IRB, MI->getRawDest(), N);
    CallInst *Inline =
        MT ? IRB.CreateMemCpyInline(MT->getRawDest(), MT->getDestAlign(),
                                    MT->getRawSource(), MT->getSourceAlign(),
                                    MI->getLength())
           : IRB.CreateMemSetInline(MI->getRawDest(), MI->getDestAlign(),
                                    cast<MemSetInst>(MI)->getValue(),
                                    MI->getLength());
    Inline->setAAMetadata(MI->getAAMetadata());
    MI->eraseFromParent();
    return;
  }
  if (MI->isVolatile()) {
    // Keep the volatile operation as it is and only count its ranges.
    FunctionCallee RecordRange = M.getOrInsertFunction(
        HeapProfRecordRangeName, IRB.getVoidTy(), PtrTy, IntptrTy);
    if (MT && classifyAddress(MT->getRawSource()) == TargetKind::Counted)
      IRB.CreateCall(RecordRange, {MT->getRawSource(), Len});
    if (classifyAddress(MI->getRawDest()) == TargetKind::Counted)
      IRB.CreateCall(RecordRange, {MI->getRawDest(), Len});
  } else if (MT) {
    FunctionCallee Fn = M.getOrInsertFunction(
        isa<MemMoveInst>(MT) ? HeapProfMemmoveName : HeapProfMemcpyName, PtrTy,
        PtrTy, PtrTy, IntptrTy);
    IRB.CreateCall(Fn, {MT->getRawDest(), MT->getRawSource(), Len});
    MI->eraseFromParent();
  } else {
    auto *MS = cast<MemSetInst>(MI);
    FunctionCallee Fn = M.getOrInsertFunction(HeapProfMemsetName, PtrTy, PtrTy,
                                              IRB.getInt32Ty(), IntptrTy);
    IRB.CreateCall(Fn, {MS->getRawDest(),
                        IRB.CreateIntCast(MS->getValue(), IRB.getInt32Ty(),
                                          /*isSigned=*/false),
                        Len});
    MI->eraseFromParent();
  }
  ++NumInstrumentedMemIntrinsics;
}

/// Instrumented code writes shadow memory that no memory(...) attribute
/// computed before the pass accounts for, and that reaches every caller of an
/// instrumented function.  Optimisations that still run (LTO, a later pass)
/// could otherwise forward one counter update across a call that also bumps
/// it and lose counts.  Dropping the attributes is always safe, so it is done
/// for every definition, opted-out ones included.
static bool stripMemoryAttributes(Function &F) {
  bool Changed = false;
  if (F.hasFnAttribute(Attribute::Memory)) {
    F.removeFnAttr(Attribute::Memory);
    Changed = true;
  }
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (!isa<IntrinsicInst>(CB) &&
            CB->getAttributes().hasFnAttr(Attribute::Memory)) {
          CB->removeFnAttr(Attribute::Memory);
          Changed = true;
        }
  return Changed;
}

bool HeapProfiler::instrumentFunction(Function &F,
                                      FunctionAnalysisManager &FAM) {
  if (F.isDeclaration())
    return false;
  bool Changed = stripMemoryAttributes(F);
  if (!shouldInstrumentFunction(F))
    return Changed;
  LLVM_DEBUG(dbgs() << "heapprof: instrumenting " << F.getName() << "\n");

  // Phase 1: decide, without changing the IR.
  SmallVector<CounterUpdate, 16> Updates;
  SmallVector<MemIntrinsic *, 4> MemIntrinsics;
  for (BasicBlock &BB : F) {
    for (Instruction &I : BB) {
      if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
        if (!I.hasMetadata(LLVMContext::MD_nosanitize) &&
            isInterestingMemIntrinsic(MI))
          MemIntrinsics.push_back(MI);
      } else if (std::optional<InterestingAccess> A = getInterestingAccess(&I)) {
        collectUpdates(*A, Updates);
      }
    }
  }

  // Only a marker for idempotence; it changes no analysis result.
  F.addFnAttr(HeapProfInstrumentedAttr);
  if (Updates.empty() && MemIntrinsics.empty())
    return Changed;

  // Phase 1b: merge updates that provably hit one counter back to back.
  consolidate(Updates);

  // Phase 1c: sum the updates on loop-invariant pointers in registers (may
  // split edges to give the loops a preheader and dedicated exits).
  SmallVector<ExitUpdate, 4> Exits;
  if (ClHoistLoopInvariant && !ClUseCallbacks && !Updates.empty())
    accumulateInLoops(F, FAM, Updates, Exits);

  // Phase 1d: record the walks of constant-stride addresses at the exits
  // of their loops (the same shape of loop; the updates left are the ones
  // phase 1c kept).
  SmallVector<StridedGroup, 4> Walks;
  if (ClStridedLoops && !ClUseCallbacks && !Updates.empty())
    recordStridedWalks(F, FAM, Updates, Walks);

  // Phase 2: emit.
  if ((!Updates.empty() || !Exits.empty() || !Walks.empty() ||
       any_of(MemIntrinsics, countsRangesInline)) &&
      !ClUseCallbacks)
    loadShadowBase(F);
  for (const ExitUpdate &E : Exits)
    emitExitUpdate(E);
  for (const StridedGroup &G : Walks)
    for (size_t X = 0; X < G.Exits.size(); ++X)
      emitStridedExit(G, X);
  for (const CounterUpdate &U : Updates)
    emitUpdate(U);
  for (MemIntrinsic *MI : MemIntrinsics)
    instrumentMemIntrinsic(MI);
  if (!Accumulators.empty()) {
    DominatorTree DT(F); // the emission split blocks
    PromoteMemToReg(Accumulators, DT);
  }
  return true;
}

/// Adds the runtime constructor and the profile directory to a module.
class ModuleHeapProfiler {
public:
  bool instrumentModule(Module &M);

private:
  void createProfileDirVar(Module &M);
};

void ModuleHeapProfiler::createProfileDirVar(Module &M) {
  std::string Dir = ClProfileDir;
  if (Dir.empty())
    if (auto *Flag =
            dyn_cast_or_null<MDString>(M.getModuleFlag(HeapProfProfileDirFlag)))
      Dir = Flag->getString().str();
  if (Dir.empty())
    return;
  if (Dir.find('\0') != std::string::npos)
    report_fatal_error("heapprof: the profile directory contains a NUL byte",
                       /*gen_crash_diag=*/false);
  if (M.getNamedValue(HeapProfProfileDirVar))
    return; // already there (pass run twice, or defined by the user)

  Constant *Init =
      ConstantDataArray::getString(M.getContext(), Dir, /*AddNull=*/true);
  // Weak so that every instrumented object may carry it and a program's own
  // definition wins; the runtime reads it through a weak reference.  Hidden,
  // so that a shared library's DIR stays in the library: exported, it bound
  // the runtime's reference of an executable that has none (linked with
  // plain -fheapprof), whose profile then went to the library's DIR.
  auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                GlobalValue::WeakAnyLinkage, Init,
                                HeapProfProfileDirVar);
  GV->setVisibility(GlobalValue::HiddenVisibility);
  if (Triple(M.getTargetTriple()).supportsCOMDAT())
    GV->setComdat(M.getOrInsertComdat(HeapProfProfileDirVar));
  appendToCompilerUsed(M, {GV});
}

bool ModuleHeapProfiler::instrumentModule(Module &M) {
  if (M.getFunction(HeapProfModuleCtorName))
    return false; // already instrumented

  std::string VersionCheckName;
  if (ClGuardAgainstVersionMismatch)
    VersionCheckName = HeapProfVersionCheckNamePrefix +
                       std::to_string(HeapProfAbiVersion);
  // Creates the internal ctor (kept alive through llvm.used) calling
  // __heapprof_init() and then the version check.
  Function *Ctor =
      createSanitizerCtorAndInitFunctions(M, HeapProfModuleCtorName,
                                          HeapProfInitName,
                                          /*InitArgTypes=*/{},
                                          /*InitArgs=*/{}, VersionCheckName)
          .first;
  appendToGlobalCtors(M, Ctor, HeapProfCtorPriority);
  createProfileDirVar(M);
  return true;
}

} // end anonymous namespace

PreservedAnalyses HeapProfilerPass::run(Function &F,
                                        FunctionAnalysisManager &FAM) {
  HeapProfiler Profiler(*F.getParent());
  if (Profiler.instrumentFunction(F, FAM))
    return PreservedAnalyses::none();
  return PreservedAnalyses::all();
}

PreservedAnalyses ModuleHeapProfilerPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  ModuleHeapProfiler Profiler;
  if (Profiler.instrumentModule(M))
    return PreservedAnalyses::none();
  return PreservedAnalyses::all();
}

// Plugin entry point: -passes=function(heapprof),heapprof-module for opt, and
// the end of every -O pipeline (OptimizerLastEP, which LLVM 19 also runs at
// -O0) for clang -fpass-plugin=.
extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "HeapProfiler", LLVM_VERSION_STRING,
          [](PassBuilder &PB) {
            // So that -print-pipeline-passes prints parseable names.
            if (PassInstrumentationCallbacks *PIC =
                    PB.getPassInstrumentationCallbacks()) {
              PIC->addClassToPassName(HeapProfilerPass::name(), "heapprof");
              PIC->addClassToPassName(ModuleHeapProfilerPass::name(),
                                      "heapprof-module");
            }
            PB.registerPipelineParsingCallback(
                [](StringRef Name, FunctionPassManager &FPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name != "heapprof")
                    return false;
                  FPM.addPass(HeapProfilerPass());
                  return true;
                });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name != "heapprof-module")
                    return false;
                  MPM.addPass(ModuleHeapProfilerPass());
                  return true;
                });
            PB.registerOptimizerLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(
                      createModuleToFunctionPassAdaptor(HeapProfilerPass()));
                  MPM.addPass(ModuleHeapProfilerPass());
                });
          }};
}
