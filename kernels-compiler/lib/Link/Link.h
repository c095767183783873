//===- Link/Link.h - Linking modules into programs --------------*- C++ -*-===//
#pragma once

#include "Frontend/BuildOptions.h"
#include "kc/KernelInfo.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace kc {

class ModuleImpl;

// Routes the diagnostics of Context (linker errors, optimization remarks
// that are errors or warnings) into Log.
void captureDiagnostics(llvm::LLVMContext &Context, std::string &Log);

// Links objects and libraries into one module. The program linking options
// apply to objects and to libraries built with -enable-link-options.
std::unique_ptr<llvm::Module>
linkModules(llvm::LLVMContext &Context,
            std::span<const ModuleImpl *const> Inputs,
            const BuildOptions &Options, std::string &Log);

// The floating-point options of the user's code: the fast-math flags of
// -cl-fast-relaxed-math, -cl-unsafe-math-optimizations, -cl-finite-math-only,
// -cl-no-signed-zeros and -cl-mad-enable (as Clang sets them on the OpenCL C
// it compiles) on every floating-point instruction and call of every
// definition in M, and -cl-denorms-are-zero as the functions' denormal mode
// ("denormal-fp-math*"). Never function-level fast-math attributes: the
// backend applies those to the builtins inlined into the function too.
void applyMathOptions(llvm::Module &M, const BuildOptions &Options);

// Half operations lose the reciprocal flag (-cl-fast-relaxed-math,
// -cl-unsafe-math-optimizations): with AVX512-FP16 a division allowed one
// becomes vrcpph and a multiply, and 2^-24 has no reciprocal in half (2^24
// overflows): 0 / 2^-24 gave NaN, and other quotients missed the relaxed
// limit of 1 ulp (conformance/math --relaxed).
void keepHalfDivisionsExact(llvm::Module &M);

// Removes the function-level fast-math attributes ("unsafe-fp-math",
// "no-infs-fp-math", "no-nans-fp-math", "approx-func-fp-math",
// "no-signed-zeros-fp-math", "less-precise-fpmad") from every function of M,
// the user's code before the builtins join it: Clang sets them next to the
// instruction flags, and the work-group function would carry them over the
// builtins once inlined. The denormal mode stays.
void removeFastMathAttributes(llvm::Module &M);

// Under -cl-denorms-are-zero (the work-group function sets MXCSR's FTZ and
// DAZ): the floating-point arguments of calls to the host's libm, and of the
// math intrinsics that become libm calls, are flushed to zero first when
// denormal (sign kept), since some libm functions read the bits of a
// denormal and then compute with it under DAZ, giving neither the result of
// the denormal nor that of zero. Calls in functions with the IEEE denormal
// mode are left alone.
void flushLibmDenormalArguments(llvm::Module &M);

// Turns a linked module into an executable: builtins linked in, everything
// inlined into the kernels, kernel metadata collected, work-group functions
// generated. False with the reason in Log.
bool finalizeExecutable(llvm::Module &M, const BuildOptions &Options,
                        std::vector<KernelInfo> &Kernels, std::string &Log);

} // namespace kc
