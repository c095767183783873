//===- Binary/ModuleImpl.h - The one implementation of kc::Module -*- C++
//-*-===//
#pragma once

#include "kc/Compiler.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace kc {

class ModuleImpl final : public Module {
public:
  ModuleImpl(ModuleKind Kind, std::string Options, std::string Bitcode,
             std::vector<KernelInfo> Kernels, bool LinkOptionsEnabled,
             uint64_t GlobalVariableSize = 0)
      : Kind(Kind), Options(std::move(Options)), Bitcode(std::move(Bitcode)),
        Kernels(std::move(Kernels)), LinkOptionsEnabled(LinkOptionsEnabled),
        GlobalVariableSize(GlobalVariableSize) {}

  ModuleKind kind() const override { return Kind; }
  const std::vector<KernelInfo> &kernels() const override { return Kernels; }
  const std::string &options() const override { return Options; }
  uint64_t globalVariableTotalSize() const override {
    return GlobalVariableSize;
  }
  std::string toBinary() const override;

  const std::string &bitcode() const { return Bitcode; }
  // A library created with -enable-link-options.
  bool linkOptionsEnabled() const { return LinkOptionsEnabled; }

  // Parses the bitcode into Context; nullptr and Error on failure.
  std::unique_ptr<llvm::Module> load(llvm::LLVMContext &Context,
                                     std::string &Error) const;

private:
  ModuleKind Kind;
  std::string Options;
  std::string Bitcode;
  std::vector<KernelInfo> Kernels;
  bool LinkOptionsEnabled;
  uint64_t GlobalVariableSize;
};

// The bitcode of M.
std::string writeBitcode(const llvm::Module &M);

// The bytes of M's variables in the global address space (defined, not
// constant-address-space, not local).
uint64_t globalVariableSize(const llvm::Module &M);

} // namespace kc
