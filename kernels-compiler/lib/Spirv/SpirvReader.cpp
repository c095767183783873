//===- Spirv/SpirvReader.cpp - SPIR-V to LLVM IR, in process --------------===//
//
// One pass over the module's types, constants and global variables, the
// functions declared up front (calls may come before definitions), then
// each function body in the order of its blocks: SPIR-V puts a definition
// before every use outside OpPhi, whose incoming values are filled in once
// the function is done.
//
// Built-in variables (GlobalInvocationId, ...) become a private copy in each
// function that uses them, filled from get_global_id & co. at its entry: a
// whole-vector load, an OpCompositeExtract, a bitcast to a scalar pointer
// (DPC++), an access chain or an address-space cast are then all ordinary
// memory accesses, which SROA turns back into the calls.
//
//===----------------------------------------------------------------------===//
#include "Spirv/SpirvReader.h"

#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <stdexcept>

namespace kc {

std::unique_ptr<llvm::Module> readSpirv(llvm::LLVMContext &Context,
                                        std::span<const uint32_t> Words,
                                        const llvm::DataLayout &Layout,
                                        std::string &Log) {
  auto M = std::make_unique<llvm::Module>("spirv", Context);
  M->setDataLayout(Layout);
  try {
    spirv::Module Parsed(Words);
    spirv::Builder Builder(Parsed, *M);
    Builder.run();
  } catch (const spirv::ReadError &E) {
    Log += "error: SPIR-V: " + E.Message + "\n";
    return nullptr;
  } catch (const std::out_of_range &) {
    Log += "error: SPIR-V: an instruction has too few operands\n";
    return nullptr;
  }
  return M;
}

} // namespace kc
