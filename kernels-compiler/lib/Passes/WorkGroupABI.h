//===- Passes/WorkGroupABI.h - Names and layout the passes share -*- C++
//-*-===//
//
// The contract between the passes: how a work-group function is marked and
// shaped, the placeholders for local ids and barriers, and where the launch
// context's fields are.
//
// A work-group function, as WorkGroupFunctionPass leaves it:
//   entry:   the prologue: allocas, argument unpacking, launch context loads
//            (once per work-group; no work-item dependent code)
//   ...      the kernel body (one work-item's code)
//   exit:    the only block that returns, holding only `ret void`
// The body reads its local id through calls to the placeholders
// __kc_local_id_{x,y,z}; the loop passes replace them with induction
// variables.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "kc/Launch.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class BasicBlock;
class CallInst;
class Function;
class Instruction;
class MDNode;
class Module;
class Value;
} // namespace llvm

namespace kc {

// Function attribute on work-group functions; its value is the kernel's name.
inline constexpr llvm::StringRef WorkGroupFunctionAttr =
    "kc-work-group-function";
inline constexpr llvm::StringRef WorkGroupSuffix = "_wg";
inline constexpr llvm::StringRef BarrierPlaceholder = "__kc_barrier";
// The local linear id, used by SubCfgFormation to index per-work-item arrays.
inline constexpr llvm::StringRef LinearIdPlaceholder = "__kc_local_linear_id";
inline constexpr llvm::StringRef LocalIdPlaceholders[3] = {
    "__kc_local_id_x", "__kc_local_id_y", "__kc_local_id_z"};
// Metadata on the allocas that hold one element per work-item (indexed by
// the local linear id): their accesses never overlap between work-items.
inline constexpr llvm::StringRef WorkItemArrayMD = "kc.work_item_array";
// Returns the launch's printf buffer (LaunchContext::Printf); PrintfPass
// calls it wherever printf was called, PrintfBufferPass replaces it in the
// work-group functions.
inline constexpr llvm::StringRef PrintfBufferPlaceholder = "__kc_printf_buffer";
// Function attribute on kernels: the sub-group size SubGroupsPass lowers
// them for (decimal); without it, DefaultSubGroupSize.
inline constexpr llvm::StringRef SubGroupSizeAttr = "kc-sub-group-size";
inline constexpr unsigned DefaultSubGroupSize = 8;
// Metadata on the barrier placeholder calls SubGroupsPass makes (they hold
// only a sub-group), and the function attribute it adds when there are any.
inline constexpr llvm::StringRef SubGroupBarrierMD = "kc.sub_group_barrier";
inline constexpr llvm::StringRef SubGroupBarriersAttr = "kc-sub-group-barriers";
// Function attribute on work-group functions that ask for sub-group ids
// (decimal: the sub-group size): their work-item loops get a version with
// a loop per sub-group (LoopNest.h), taken where the x size allows.
inline constexpr llvm::StringRef SubGroupLoopsAttr = "kc-sub-group-loops";
// int __kc_first_work_item(void): whether the calling work-item is the
// work-group's first (local ids all 0). Code between two barriers that
// only the first work-item runs (the library's collectives) runs once,
// without a loop over the group (SubCfgReplication.cpp).
inline constexpr llvm::StringRef FirstWorkItemPlaceholder =
    "__kc_first_work_item";

// Library functions that stay calls (InlineIntoKernels, and noinline
// through the pipelines): they use no work-item function or barrier, and
// inlined, their vector code would be split into scalars with the kernel's
// (builtins/collectives.cl's scan passes).
inline constexpr llvm::StringLiteral OutOfLinePrefix = "__kc_outline_";

// Program-scope variables of at least LargeGlobalThreshold bytes live outside
// the JIT's image (LargeGlobalsPass): an external declaration
// __kc_gvar.<size>.<init size>.<name> whose storage the JIT allocates, and,
// when the initializer is not all zero, its first <init size> bytes in the
// constant __kc_ginit.<name>.
inline constexpr uint64_t LargeGlobalThreshold = 1 << 20;
// The storage is page-aligned: a variable aligned beyond stays in the image.
inline constexpr uint64_t LargeGlobalMaxAlign = 4096;
inline constexpr llvm::StringRef LargeGlobalPrefix = "__kc_gvar.";
inline constexpr llvm::StringRef LargeGlobalInitPrefix = "__kc_ginit.";
std::string largeGlobalSymbol(uint64_t Size, uint64_t InitSize,
                              llvm::StringRef Name);
bool parseLargeGlobalSymbol(llvm::StringRef Symbol, uint64_t &Size,
                            uint64_t &InitSize, llvm::StringRef &Name);

// Byte offsets of the launch context fields, shared with the driver.
namespace ctx {
inline constexpr uint64_t WorkDim = offsetof(LaunchContext, WorkDim);
inline constexpr uint64_t GlobalSize = offsetof(LaunchContext, GlobalSize);
inline constexpr uint64_t GlobalOffset = offsetof(LaunchContext, GlobalOffset);
inline constexpr uint64_t EnqueuedLocalSize =
    offsetof(LaunchContext, EnqueuedLocalSize);
inline constexpr uint64_t NumGroups = offsetof(LaunchContext, NumGroups);
inline constexpr uint64_t GroupId = offsetof(LaunchContext, GroupId);
inline constexpr uint64_t LocalSize = offsetof(LaunchContext, LocalSize);
inline constexpr uint64_t LocalMemory = offsetof(LaunchContext, LocalMemory);
inline constexpr uint64_t Printf = offsetof(LaunchContext, Printf);
inline constexpr uint64_t LocalMemorySize =
    offsetof(LaunchContext, LocalMemorySize);
inline constexpr uint64_t PrivateBegin = offsetof(LaunchContext, PrivateBegin);
inline constexpr uint64_t PrivateEnd = offsetof(LaunchContext, PrivateEnd);
} // namespace ctx

bool isWorkGroupFunction(const llvm::Function &F);
// Whether Name is one of the OpenCL barrier builtins (mangled).
bool isBarrierBuiltin(llvm::StringRef Name);
bool isBarrierPlaceholder(const llvm::Instruction &I);
// 0, 1 or 2 when I calls __kc_local_id_{x,y,z}, 3 for __kc_local_linear_id;
// -1 otherwise.
int localIdPlaceholderDim(const llvm::Instruction &I);

// The launch context argument and the i64 field at Offset + 8 * Dim, loaded
// at the end of the prologue (entry block).
llvm::Value *loadContextField(llvm::Function &WG, uint64_t Offset,
                              unsigned Dim);
// The entry block's single successor: where the body starts.
llvm::BasicBlock *bodyEntry(llvm::Function &WG);
// The kernel WG was made from (WorkGroupFunctionAttr); null if gone.
const llvm::Function *kernelOf(const llvm::Function &WG);
// The reqd_work_group_size of WG's kernel; none without one (or with a 0).
std::optional<std::array<uint64_t, 3>>
requiredWorkGroupSize(const llvm::Function &WG);
// The block holding the only `ret void`.
llvm::BasicBlock *exitBlock(llvm::Function &WG);

// Attaches the work-item loop metadata to the latch terminator Latch:
// vectorize.enable, unroll.runtime.disable and, when AccessGroup is given,
// parallel_accesses.
// KeepLoop: not unrolled either (a sub-group's loop of W work-items, a
// known trip count the full unroller would take before the vectorizer).
// Width and Interleave, where not 0: the vectorization width and
// interleave count asked for (a chunk's loop, SubCfgChunks.cpp).
void markWorkItemLoop(llvm::Instruction *LatchTerm, llvm::MDNode *AccessGroup,
                      bool KeepLoop = false, unsigned Width = 0,
                      unsigned Interleave = 0);
// Adds every memory access in Blocks that cannot overlap between work-items
// (no private allocas shared by all, no atomics or volatile) to a new access
// group and returns it (nullptr when there is nothing to add).
llvm::MDNode *addParallelAccesses(llvm::ArrayRef<llvm::BasicBlock *> Blocks);

} // namespace kc
