//===- tools/kcc.cpp - The kernel compiler from the command line ----------===//
//
// A developer tool, like clang or opt for LLVM: builds an OpenCL C file with
// the library and prints what the driver would see.
//
//   kcc [-stage=object|info|wg|host] FILE.cl|FILE.spv [OPTIONS...]
//     object  the compiled object (for SPIR-V: what the reader gives, its
//             builtin calls mapped onto the library)
//     info  the kernels' metadata (default)
//     wg    the executable module: the work-group functions, target independent
//     host  the IR after the host's O3 pipeline, as code generation gets it
//
// KCC_LLVM_OPTIONS holds LLVM options for the host stage, e.g.
// "-pass-remarks-analysis=loop-vectorize -pass-remarks-missed=loop-vectorize"
// (the remarks go to standard error); KCC_SUB_GROUP_SIZE the device's
// default sub-group size (8 without it).
//===----------------------------------------------------------------------===//
#include "Binary/ModuleImpl.h"
#include "CodeGen/CodeGen.h"
#include "kc/Compiler.h"
#include "kc/Spirv.h"

#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <string>

namespace {

kc::DeviceTarget fullTarget() {
  kc::DeviceTarget T;
  T.Extensions = {"cl_khr_fp64",
                  "cl_khr_global_int32_base_atomics",
                  "cl_khr_global_int32_extended_atomics",
                  "cl_khr_local_int32_base_atomics",
                  "cl_khr_local_int32_extended_atomics",
                  "cl_khr_int64_base_atomics",
                  "cl_khr_int64_extended_atomics",
                  "cl_khr_byte_addressable_store",
                  "cl_khr_subgroups",
                  "cl_intel_subgroups",
                  "cl_intel_required_subgroup_size",
                  "cl_khr_subgroup_shuffle",
                  "cl_khr_subgroup_shuffle_relative",
                  "cl_khr_subgroup_extended_types",
                  "cl_khr_subgroup_clustered_reduce",
                  "cl_khr_fp16"};
  T.OpenCLCFeatures = {"__opencl_c_int64",
                       "__opencl_c_subgroups",
                       "__opencl_c_work_group_collective_functions",
                       "__opencl_c_fp64",
                       "__opencl_c_atomic_order_acq_rel",
                       "__opencl_c_atomic_order_seq_cst",
                       "__opencl_c_atomic_scope_device",
                       "__opencl_c_atomic_scope_all_devices",
                       "__opencl_c_program_scope_global_variables",
                       "__opencl_c_generic_address_space"};
  T.Fp64 = true;
  // The device's default sub-group size (the driver's: the floats of a
  // vector register), KCC_SUB_GROUP_SIZE if set.
  if (const char *Size = std::getenv("KCC_SUB_GROUP_SIZE"))
    T.SubGroupSize = static_cast<unsigned>(std::strtoul(Size, nullptr, 10));
  return T;
}

void printInfo(const kc::Module &M) {
  for (const kc::KernelInfo &K : M.kernels()) {
    llvm::outs() << "kernel " << K.Name << ": " << K.Args.size()
                 << " arguments, buffer " << K.ArgBufferSize
                 << " bytes, private " << K.PrivateMemSize << ", local "
                 << K.StaticLocalMemSize << ", sub-group size "
                 << K.SubGroupSize << (K.UsesBarriers ? ", barriers" : "")
                 << "\n";
    for (const kc::ArgInfo &A : K.Args)
      llvm::outs() << "  " << A.TypeName << " " << A.Name << " @" << A.Offset
                   << " size " << A.Size << " align " << A.Align
                   << (A.ReadOnly ? " read-only" : "")
                   << (A.WriteOnly ? " write-only" : "") << "\n";
  }
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Stage = "info";
  int First = 1;
  if (Argc > 1 && std::string(Argv[1]).rfind("-stage=", 0) == 0) {
    Stage = std::string(Argv[1]).substr(7);
    First = 2;
  }
  if (First >= Argc) {
    llvm::errs() << "usage: kcc [-stage=object|info|wg|host] FILE.cl|FILE.spv "
                    "[OPTIONS...]\n";
    return 2;
  }
  auto Source = llvm::MemoryBuffer::getFile(Argv[First]);
  if (!Source) {
    llvm::errs() << Argv[First] << ": " << Source.getError().message() << "\n";
    return 1;
  }
  std::string Options;
  for (int I = First + 1; I < Argc; ++I)
    Options += std::string(I > First + 1 ? " " : "") + Argv[I];

  const bool Remarks = std::getenv("KCC_LLVM_OPTIONS") != nullptr;
  if (Remarks)
    llvm::cl::ParseCommandLineOptions(1, Argv, "", nullptr, "KCC_LLVM_OPTIONS");
  kc::Compiler Compiler(fullTarget());
  const std::string Input = (*Source)->getBuffer().str();
  // SPIR-V by its magic number (either byte order), else OpenCL C.
  const bool Spirv =
      Input.size() >= 4 && (Input.compare(0, 4, "\x03\x02\x23\x07") == 0 ||
                            Input.compare(0, 4, "\x07\x23\x02\x03") == 0);
  kc::BuildResult R;
  if (Spirv) {
    kc::SpirvModuleInfo Info;
    std::string Error;
    if (!kc::inspectSpirv(Input, Info, Error)) {
      llvm::errs() << "error: " << Error << "\n";
      return 1;
    }
    R = Stage == "object" ? kc::compileSpirv(Input, {}, Options, fullTarget())
                          : kc::buildSpirv(Input, {}, Options, fullTarget());
  } else {
    R = Stage == "object" ? Compiler.compile(Input, Options, {})
                          : Compiler.build(Input, Options);
  }
  llvm::errs() << R.Log;
  if (!R.Output)
    return 1;
  const auto &Impl = static_cast<const kc::ModuleImpl &>(*R.Output);
  if (Stage == "info") {
    printInfo(*R.Output);
    return 0;
  }
  llvm::LLVMContext Context;
  Context.setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo *Info, void *Print) {
        if (!Print)
          return;
        llvm::DiagnosticPrinterRawOStream Out(llvm::errs());
        Info->print(Out);
        llvm::errs() << "\n";
      },
      Remarks ? &Context : nullptr);
  std::string Error;
  std::unique_ptr<llvm::Module> M =
      Stage == "host"
          ? kc::optimizeForHost(Impl, kc::detectHostTarget(), Context, Error)
          : Impl.load(Context, Error);
  if (!M) {
    llvm::errs() << Error << "\n";
    return 1;
  }
  M->print(llvm::outs(), nullptr);
  return 0;
}
