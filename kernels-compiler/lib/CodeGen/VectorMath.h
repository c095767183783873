//===- CodeGen/VectorMath.h - libmvec vector math variants ------*- C++ -*-===//
//
// The math functions of the builtin library call the host's libm (directly,
// or through LLVM intrinsics that become libm calls). glibc's libmvec has
// vector variants of many of them under the x86-64 vector function ABI
// (_ZGV<isa>N<lanes><args>_<name>). Registered as vectorizable functions in
// the target library information of the optimization pipeline, they let the
// loop vectorizer turn a work-item loop calling expf into one calling
// _ZGVeN16v_expf, and code generation replace vector intrinsics
// (llvm.exp.v8f32) by them. The mapping is on only when libmvec can be
// opened in this process, and only for the variants it has.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace llvm {
class TargetLibraryInfoImpl;
} // namespace llvm

namespace kc {

struct HostTarget;

// One vector variant: the scalar function or intrinsic it replaces
// ("expf", "llvm.exp.f32"), its symbol in libmvec ("_ZGVeN16v_expf") and
// the symbol's address, its number of lanes and LLVM's vector ABI prefix
// for it ("_ZGV_LLVM_N16v").
struct VectorVariant {
  std::string ScalarName;
  std::string VectorName;
  void *Address;
  unsigned Lanes;
  std::string ABIPrefix;
};

// The variants that code for Host may call: those of the instruction sets
// Host has (SSE always, AVX2, AVX-512), for the functions that meet the
// OpenCL C full-profile accuracy in their vector form, that libmvec has.
// Empty when libmvec cannot be opened.
const std::vector<VectorVariant> &vectorMathVariants(const HostTarget &Host);

// Registers vectorMathVariants(Host) in TLII.
void addVectorMathFunctions(llvm::TargetLibraryInfoImpl &TLII,
                            const HostTarget &Host);

// What the mapping for Host is, for the compiled-code cache key: the
// library and the instruction sets used, or "off".
std::string vectorMathIdentity(const HostTarget &Host);

// Every libmvec symbol of vectorMathVariants(Host) with its address in this
// process (for the JIT).
std::vector<std::pair<std::string, void *>>
vectorMathSymbols(const HostTarget &Host);

} // namespace kc
