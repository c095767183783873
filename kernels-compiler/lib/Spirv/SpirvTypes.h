//===- Spirv/SpirvTypes.h - SPIR-V types and their LLVM types ---*- C++ -*-===//
#pragma once

#include "Spirv/SpirvModule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Type;
} // namespace llvm

namespace kc::spirv {

// One SPIR-V type: what LLVM's type loses (pointee, signedness of a use,
// image dimensions and access) is kept here.
struct Type {
  spv::Op Kind = spv::Op::OpTypeVoid;
  llvm::Type *LLVM = nullptr;
  uint32_t Width = 0;            // OpTypeInt, OpTypeFloat
  uint32_t Element = 0;          // vector, array: the element type id
  uint32_t Count = 0;            // vector, array: the number of elements
  std::vector<uint32_t> Members; // struct members; function: return, params
  uint32_t Storage = 0;          // pointer: the storage class
  uint32_t Pointee = 0;          // pointer: the pointee type id
  // OpTypeImage
  uint32_t Dim = 0;
  bool Arrayed = false;
  bool Depth = false;
  uint32_t Access = 0; // AccessQualifier: 0 read, 1 write, 2 read-write
  std::string Name;    // OpTypeOpaque, named structs
};

// The LLVM address space of a SPIR-V storage class (SPIR numbering), or -1.
int addressSpaceOf(uint32_t StorageClass);

} // namespace kc::spirv
