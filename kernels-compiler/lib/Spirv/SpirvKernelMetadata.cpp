//===- Spirv/SpirvKernelMetadata.cpp - Kernel argument metadata -----------===//
//
// Clang's kernel_arg_* metadata and the work-group size attributes of
// the entry points, for clGetKernelArgInfo and KernelInfo.
//
//===----------------------------------------------------------------------===//
#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

namespace kc::spirv {

using spv::Op;

void Builder::addKernelMetadata(llvm::Function &F, uint32_t Id,
                                const Type &FnType) {
  const EntryPoint *Entry = Spirv.entryPoint(Id);
  std::vector<llvm::Metadata *> AddrSpaces, Access, Types, BaseTypes, Quals,
      Names;
  std::vector<std::string> KeptNames;
  if (const std::string *Kept = Spirv.stringWithPrefix(
          "kernel_arg_type." + F.getName().str() + ".")) {
    std::string_view Rest(*Kept);
    Rest.remove_prefix(std::string("kernel_arg_type.").size() +
                       F.getName().size() + 1);
    for (size_t Comma; (Comma = Rest.find(',')) != std::string_view::npos;
         Rest.remove_prefix(Comma + 1))
      KeptNames.emplace_back(Rest.substr(0, Comma));
  }
  unsigned ArgNo = 0;
  for (llvm::Argument &A : F.args()) {
    const uint32_t TypeId = FnType.Members[ArgNo + 1];
    const Type &T = type(TypeId);
    int AS = 0;
    std::string Access_ = "none", Qual;
    // OpenCL C's names when the producer kept them (llvm-spirv writes
    // OpString "kernel_arg_type.<kernel>.<type>,<type>,"), else signed ones.
    std::string TypeName =
        ArgNo < KeptNames.size() ? KeptNames[ArgNo] : typeName(TypeId, true);
    if (T.Kind == Op::OpTypePointer) {
      AS = addressSpaceOf(T.Storage);
      if (AS == 2)
        Qual = "const";
    } else if (T.Kind == Op::OpTypeImage) {
      AS = 1;
      Access_ = T.Access == 0   ? "read_only"
                : T.Access == 1 ? "write_only"
                                : "read_write";
    }
    for (const auto &[Kind, Text] :
         {std::pair{llvm::Attribute::ReadOnly, "const"},
          std::pair{llvm::Attribute::NoAlias, "restrict"}})
      if (AS != 2 && F.hasParamAttribute(ArgNo, Kind))
        Qual += (Qual.empty() ? "" : " ") + std::string(Text);
    if (F.hasParamAttribute(ArgNo, llvm::Attribute::ByVal))
      AS = 0;
    AddrSpaces.push_back(
        llvm::ConstantAsMetadata::get(B.getInt32(static_cast<uint32_t>(AS))));
    Access.push_back(llvm::MDString::get(C, Access_));
    Types.push_back(llvm::MDString::get(C, TypeName));
    BaseTypes.push_back(llvm::MDString::get(C, TypeName));
    Quals.push_back(llvm::MDString::get(C, Qual));
    Names.push_back(llvm::MDString::get(C, A.getName()));
    ++ArgNo;
  }
  F.setMetadata("kernel_arg_addr_space", llvm::MDNode::get(C, AddrSpaces));
  F.setMetadata("kernel_arg_access_qual", llvm::MDNode::get(C, Access));
  F.setMetadata("kernel_arg_type", llvm::MDNode::get(C, Types));
  F.setMetadata("kernel_arg_base_type", llvm::MDNode::get(C, BaseTypes));
  F.setMetadata("kernel_arg_type_qual", llvm::MDNode::get(C, Quals));
  // Names (empty without OpName) as llvm-spirv's
  // --spirv-gen-kernel-arg-name-md gives them: clGetKernelArgInfo answers.
  F.setMetadata("kernel_arg_name", llvm::MDNode::get(C, Names));
  auto Sizes = [&](const std::vector<uint32_t> &S) {
    std::vector<llvm::Metadata *> Ops;
    for (uint32_t V : S)
      Ops.push_back(llvm::ConstantAsMetadata::get(B.getInt32(V)));
    return llvm::MDNode::get(C, Ops);
  };
  if (Entry && Entry->LocalSize.size() == 3)
    F.setMetadata("reqd_work_group_size", Sizes(Entry->LocalSize));
  if (Entry && Entry->LocalSizeHint.size() == 3)
    F.setMetadata("work_group_size_hint", Sizes(Entry->LocalSizeHint));
}

} // namespace kc::spirv
