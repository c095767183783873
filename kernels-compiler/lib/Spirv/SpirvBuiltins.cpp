//===- Spirv/SpirvBuiltins.cpp - OpenCL.std, images, builtin names --------===//
//
// OpenCL.std extended instructions and image instructions become calls of
// the OpenCL C builtins, under their Itanium names of the SPIR target
// (address spaces as U3AS<n>), which Frontend/SpirvFrontend maps onto the
// builtin library. SPIR-V integers carry no sign: the instruction's name
// gives it (s_abs, u_max) and the OpenCL C signature the rest.
//
//===----------------------------------------------------------------------===//
#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <algorithm>

namespace kc::spirv {

using spv::Op;

// Limits the recursion of the type walks (a pointer may point to itself).
class Builder::DepthGuard {
public:
  explicit DepthGuard(unsigned &Depth) : Depth(Depth) {
    if (++Depth > 32)
      fail("a type nested too deeply");
  }
  ~DepthGuard() { --Depth; }

private:
  unsigned &Depth;
};

std::string Builder::typeName(uint32_t TypeId, bool Signed) {
  DepthGuard Guard(TypeDepth);
  const Type &T = type(TypeId);
  switch (T.Kind) {
  case Op::OpTypeBool:
    return "bool";
  case Op::OpTypeInt: {
    const char *Base = T.Width == 8    ? "char"
                       : T.Width == 16 ? "short"
                       : T.Width == 32 ? "int"
                       : T.Width == 64 ? "long"
                                       : nullptr;
    if (!Base)
      return "int" + std::to_string(T.Width) + "_t";
    return (Signed ? "" : "u") + std::string(Base);
  }
  case Op::OpTypeFloat:
    return T.Width == 16 ? "half" : T.Width == 32 ? "float" : "double";
  case Op::OpTypeVector:
    return typeName(T.Element, Signed) + std::to_string(T.Count);
  case Op::OpTypePointer:
    return typeName(T.Pointee, Signed) + "*";
  case Op::OpTypeStruct:
    return "struct " + (T.Name.empty() ? std::string("anon") : T.Name);
  case Op::OpTypeOpaque:
    return T.Name;
  case Op::OpTypeImage:
    return imageTypeName(T, false);
  case Op::OpTypeSampler:
    return "sampler_t";
  case Op::OpTypeEvent:
    return "event_t";
  case Op::OpTypeVoid:
    return "void";
  case Op::OpTypeArray:
    return typeName(T.Element, Signed) + "[" + std::to_string(T.Count) + "]";
  default:
    return "?";
  }
}

// image2d_t, or its mangled name (14ocl_image2d_ro) when Mangled.
std::string Builder::imageTypeName(const Type &T, bool Mangled) {
  std::string Name;
  switch (static_cast<spv::Dim>(T.Dim)) {
  case spv::Dim::Dim1D:
    Name = "image1d";
    break;
  case spv::Dim::Dim2D:
    Name = "image2d";
    break;
  case spv::Dim::Dim3D:
    Name = "image3d";
    break;
  case spv::Dim::Buffer:
    Name = "image1d_buffer";
    break;
  default:
    fail("images of dimension " + std::to_string(T.Dim) + " are not supported");
  }
  if (T.Arrayed)
    Name += "_array";
  if (T.Depth)
    Name += "_depth";
  if (!Mangled)
    return Name + "_t";
  Name = "ocl_" + Name +
         (T.Access == 0   ? "_ro"
          : T.Access == 1 ? "_wo"
                          : "_rw");
  return std::to_string(Name.size()) + Name;
}

// The Itanium encoding of a type; vector, qualified and pointer types are
// substitution candidates, in the order the demangler records them.
std::string Builder::mangleType(uint32_t TypeId, bool Signed, bool ConstPointee,
                                std::vector<std::string> &Subst) {
  DepthGuard Guard(TypeDepth);
  auto Substituted = [&](const std::string &Key) -> std::string {
    for (size_t I = 0; I < Subst.size(); ++I)
      if (Subst[I] == Key)
        return I == 0 ? "S_" : "S" + std::to_string(I - 1) + "_";
    return {};
  };
  const Type &T = type(TypeId);
  switch (T.Kind) {
  case Op::OpTypeBool:
    return "b";
  case Op::OpTypeInt:
    switch (T.Width) {
    case 8:
      return Signed ? "c" : "h";
    case 16:
      return Signed ? "s" : "t";
    case 32:
      return Signed ? "i" : "j";
    case 64:
      return Signed ? "l" : "m";
    default:
      fail("no builtin takes integers of " + std::to_string(T.Width) + " bits");
    }
  case Op::OpTypeFloat:
    return T.Width == 16 ? "Dh" : T.Width == 32 ? "f" : "d";
  case Op::OpTypeVector: {
    std::string Key = "Dv" + std::to_string(T.Count) + "_" +
                      mangleType(T.Element, Signed, false, Subst);
    if (std::string S = Substituted(Key); !S.empty())
      return S;
    Subst.push_back(Key);
    return Key;
  }
  case Op::OpTypePointer: {
    // The full spelling is the key; the output may use substitutions.
    std::string PointeeKey;
    {
      std::vector<std::string> Fresh;
      PointeeKey = mangleType(T.Pointee, Signed, false, Fresh);
    }
    const int AS = addressSpaceOf(T.Storage);
    std::string Quals = (AS ? "U3AS" + std::to_string(AS) : std::string()) +
                        (ConstPointee ? "K" : "");
    std::string PtrKey = "P" + Quals + PointeeKey;
    if (std::string S = Substituted(PtrKey); !S.empty())
      return S;
    std::string Out = mangleType(T.Pointee, Signed, false, Subst);
    if (!Quals.empty()) {
      std::string QualKey = Quals + PointeeKey;
      if (std::string S = Substituted(QualKey); !S.empty()) {
        Out = S;
      } else {
        Out = Quals + Out;
        Subst.push_back(QualKey);
      }
    }
    Subst.push_back(PtrKey);
    return "P" + Out;
  }
  case Op::OpTypeImage:
    return imageTypeName(T, true);
  case Op::OpTypeSampler:
    return "11ocl_sampler";
  case Op::OpTypeEvent:
    return "9ocl_event";
  default:
    fail("no builtin takes a " + typeName(TypeId, true));
  }
}

std::string Builder::mangle(const std::string &Name,
                            llvm::ArrayRef<uint32_t> ArgTypes,
                            llvm::ArrayRef<int> Signedness,
                            llvm::ArrayRef<int> ConstPointee) {
  std::string Out = "_Z" + std::to_string(Name.size()) + Name;
  std::vector<std::string> Subst;
  for (size_t I = 0; I < ArgTypes.size(); ++I)
    Out += mangleType(ArgTypes[I],
                      I < Signedness.size() ? Signedness[I] != 0 : true,
                      I < ConstPointee.size() && ConstPointee[I] != 0, Subst);
  return Out;
}

namespace {

const char *const RoundingSuffix[] = {"_rte", "_rtz", "_rtp", "_rtn"};

} // namespace

void Builder::translateExtInst(const Instruction &I) {
  const ExtSet *Set = Spirv.extSet(I[2]);
  if (!Set)
    fail("OpExtInst of an id that is not an extended instruction set");
  if (*Set == ExtSet::NonSemantic)
    return;
  const uint32_t Number = I[3];
  const char *Raw = openclStdName(Number);
  if (!Raw)
    fail("unknown OpenCL.std instruction " + std::to_string(Number));
  std::string Name = Raw;
  std::vector<uint32_t> Operands(I.Ops.begin() + 4, I.Ops.end());
  llvm::Type *Ret = llvmType(I[0]);

  if (Name == "printf") {
    std::vector<llvm::Value *> Args;
    for (uint32_t Op : Operands)
      Args.push_back(value(Op));
    if (Args.empty())
      fail("printf without a format");
    llvm::FunctionCallee Printf = M.getOrInsertFunction(
        "printf",
        llvm::FunctionType::get(B.getInt32Ty(), {Args[0]->getType()}, true));
    define(I[1], I[0], B.CreateCall(Printf, Args));
    return;
  }

  bool Signed = true;
  if (Name.rfind("s_", 0) == 0) {
    Name = Name.substr(2);
  } else if (Name.rfind("u_", 0) == 0) {
    Name = Name.substr(2);
    Signed = false;
  }
  std::vector<int> Signs(Operands.size(), Signed ? 1 : 0);
  std::vector<int> Const(Operands.size(), 0);
  size_t Literals = 0; // trailing literal operands, not arguments
  if (Name == "fmax_common")
    Name = "max";
  else if (Name == "fmin_common")
    Name = "min";
  else if (Name == "fclamp")
    Name = "clamp";
  else if (Name == "nan" || Name == "shuffle" || Name == "shuffle2")
    std::fill(Signs.begin(), Signs.end(), 0);
  else if (Name == "upsample" && Signs.size() == 2)
    Signs[1] = 0;

  if (Name == "vloadn" || Name == "vload_halfn" || Name == "vloada_halfn") {
    if (Operands.size() != 3)
      fail(Name + " needs 3 operands");
    Name = Name.substr(0, Name.size() - 1) + std::to_string(Operands[2]);
    Literals = 1;
    Signs = {0, 1};
    Const = {0, 1};
  } else if (Name == "vload_half") {
    Signs = {0, 1};
    Const = {0, 1};
  } else if (Name == "vstoren" || Name == "vstore_halfn" ||
             Name == "vstorea_halfn" || Name == "vstore_half" ||
             Name == "vstore_halfn_r" || Name == "vstorea_halfn_r" ||
             Name == "vstore_half_r") {
    const bool Rounding = Name.back() == 'r' && Name[Name.size() - 2] == '_';
    std::string Base = Rounding ? Name.substr(0, Name.size() - 2) : Name;
    if (Base.back() == 'n') {
      const Type &Data = type(typeOf(Operands.at(0)));
      Base = Base.substr(0, Base.size() - 1) + (Data.Kind == Op::OpTypeVector
                                                    ? std::to_string(Data.Count)
                                                    : std::string());
    }
    if (Rounding) {
      const uint32_t Mode = Operands.back();
      if (Mode > 3)
        fail(Name + " with an unknown rounding mode");
      Base += RoundingSuffix[Mode];
      Literals = 1;
    }
    Name = Base;
    Signs = {1, 0, 1};
  } else if (Name == "prefetch") {
    Signs = {1, 0};
    Const = {1, 0}; // prefetch(const __global T *, size_t)
  }

  std::vector<uint32_t> ArgTypes;
  std::vector<llvm::Value *> Args;
  for (size_t A = 0; A + Literals < Operands.size(); ++A) {
    ArgTypes.push_back(typeOf(Operands[A]));
    Args.push_back(value(Operands[A]));
  }
  Signs.resize(Args.size(), Signed ? 1 : 0);
  Const.resize(Args.size(), 0);
  define(I[1], I[0], call(mangle(Name, ArgTypes, Signs, Const), Ret, Args));
}

// async_work_group_copy & co., wait_group_events and get_fence, which the
// core instructions of the Kernel capability stand for.
bool Builder::translateGroupCopy(const Instruction &I) {
  switch (I.Opcode) {
  case Op::OpGroupAsyncCopy: {
    // Result type, result, scope, destination, source, count, stride, event.
    const bool Strided =
        !llvm::isa<llvm::ConstantInt>(value(I[6])) || constantInt(I[6]) != 1;
    std::vector<uint32_t> Types = {typeOf(I[3]), typeOf(I[4]), typeOf(I[5])};
    std::vector<llvm::Value *> Args = {pointer(I[3]), pointer(I[4]),
                                       integer(I[5])};
    std::vector<int> Signs = {1, 1, 0};
    if (Strided) {
      Types.push_back(typeOf(I[6]));
      Args.push_back(integer(I[6]));
      Signs.push_back(0);
    }
    Types.push_back(typeOf(I[7]));
    Args.push_back(value(I[7]));
    Signs.push_back(1);
    define(I[1], I[0],
           call(mangle(Strided ? "async_work_group_strided_copy"
                               : "async_work_group_copy",
                       Types, Signs, {0, 1}),
                llvmType(I[0]), Args));
    return true;
  }
  case Op::OpGroupWaitEvents:
    // Scope, count, the events.
    call(mangle("wait_group_events", {typeOf(I[1]), typeOf(I[2])}, {1, 1}),
         B.getVoidTy(), {integer(I[1]), pointer(I[2])});
    return true;
  case Op::OpGenericPtrMemSemantics: {
    // get_fence's CLK_LOCAL_MEM_FENCE (1) and CLK_GLOBAL_MEM_FENCE (2) are
    // the WorkgroupMemory (0x100) and CrossWorkgroupMemory (0x200) bits.
    // The name the generic address space pass knows (the library's).
    llvm::Value *P = pointer(I[2]);
    if (P->getType()->getPointerAddressSpace() != 4)
      fail("OpGenericPtrMemSemantics of a pointer that is not generic");
    llvm::Value *Fence = call("_Z9get_fencePU9CLgenericv", B.getInt32Ty(), {P});
    define(I[1], I[0], resizeInt(B.CreateShl(Fence, 8), llvmType(I[0]), false));
    return true;
  }
  default:
    return false;
  }
}

bool Builder::translateImage(const Instruction &I) {
  switch (I.Opcode) {
  case Op::OpSampledImage: {
    llvm::Value *V = llvm::PoisonValue::get(llvmType(I[0]));
    V = B.CreateInsertValue(V, value(I[2]), 0);
    V = B.CreateInsertValue(V, value(I[3]), 1);
    define(I[1], I[0], V);
    // Keep the parts' types for the mangling.
    SampledParts[I[1]] = {typeOf(I[2]), typeOf(I[3])};
    return true;
  }
  case Op::OpImageSampleExplicitLod: {
    auto Parts = SampledParts.find(I[2]);
    if (Parts == SampledParts.end())
      fail("OpImageSampleExplicitLod of an unknown sampled image");
    llvm::Value *Sampled = value(I[2]);
    llvm::Value *Image = B.CreateExtractValue(Sampled, 0);
    llvm::Value *Sampler = B.CreateExtractValue(Sampled, 1);
    const Type &Result = type(I[0]);
    const uint32_t Elem =
        Result.Kind == Op::OpTypeVector ? Result.Element : I[0];
    const Type &E = type(Elem);
    const char *Fn = E.Kind == Op::OpTypeFloat
                         ? (E.Width == 16 ? "read_imageh" : "read_imagef")
                         : "read_imagei";
    const bool Unsigned = I.size() > 4 && (I[4] & 0x2000);
    if (E.Kind == Op::OpTypeInt && Unsigned)
      Fn = "read_imageui";
    const uint32_t CoordType = typeOf(I[3]);
    define(
        I[1], I[0],
        call(mangle(Fn, {Parts->second.first, Parts->second.second, CoordType},
                    {1, 1, 1}),
             Result.LLVM, {Image, Sampler, value(I[3])}));
    return true;
  }
  case Op::OpImageRead: {
    const Type &Result = type(I[0]);
    const uint32_t Elem =
        Result.Kind == Op::OpTypeVector ? Result.Element : I[0];
    const Type &E = type(Elem);
    const bool Unsigned = I.size() > 4 && (I[4] & 0x2000);
    const char *Fn = E.Kind == Op::OpTypeFloat
                         ? (E.Width == 16 ? "read_imageh" : "read_imagef")
                     : Unsigned ? "read_imageui"
                                : "read_imagei";
    define(I[1], I[0],
           call(mangle(Fn, {typeOf(I[2]), typeOf(I[3])}, {1, 1}), Result.LLVM,
                {value(I[2]), value(I[3])}));
    return true;
  }
  case Op::OpImageWrite: {
    const uint32_t TexelType = typeOf(I[2]);
    const Type &Texel = type(TexelType);
    const Type &E =
        type(Texel.Kind == Op::OpTypeVector ? Texel.Element : TexelType);
    const bool Unsigned = I.size() > 3 && (I[3] & 0x2000);
    const char *Fn = E.Kind == Op::OpTypeFloat
                         ? (E.Width == 16 ? "write_imageh" : "write_imagef")
                     : Unsigned ? "write_imageui"
                                : "write_imagei";
    call(mangle(Fn, {typeOf(I[0]), typeOf(I[1]), TexelType},
                {1, 1, Unsigned ? 0 : 1}),
         B.getVoidTy(), {value(I[0]), value(I[1]), value(I[2])});
    return true;
  }
  case Op::OpImageQueryFormat:
  case Op::OpImageQueryOrder: {
    const char *Fn = I.Opcode == Op::OpImageQueryFormat
                         ? "get_image_channel_data_type"
                         : "get_image_channel_order";
    // SPIR-V numbers the orders and data types from 0, OpenCL C from
    // CLK_R (0x10B0) and CLK_SNORM_INT8 (0x10D0).
    llvm::Value *CL =
        call(mangle(Fn, {typeOf(I[2])}, {1}), llvmType(I[0]), {value(I[2])});
    define(I[1], I[0],
           B.CreateSub(CL, llvm::ConstantInt::get(
                               CL->getType(), I.Opcode == Op::OpImageQueryFormat
                                                  ? 0x10D0
                                                  : 0x10B0)));
    return true;
  }
  case Op::OpImageQuerySize:
  case Op::OpImageQuerySizeLod: {
    const uint32_t ImageType = typeOf(I[2]);
    const Type &Image = type(ImageType);
    llvm::Value *Img = value(I[2]);
    auto Query = [&](const char *Fn, llvm::Type *Ret) {
      return call(mangle(Fn, {ImageType}, {1}), Ret, {Img});
    };
    std::vector<llvm::Value *> Sizes;
    llvm::Type *Int = B.getInt32Ty();
    if (Image.Dim == static_cast<uint32_t>(spv::Dim::Dim2D) ||
        Image.Dim == static_cast<uint32_t>(spv::Dim::Dim3D)) {
      const bool Is3D = Image.Dim == static_cast<uint32_t>(spv::Dim::Dim3D);
      llvm::Value *Dim =
          Query("get_image_dim", llvm::FixedVectorType::get(Int, Is3D ? 4 : 2));
      for (unsigned D = 0; D < (Is3D ? 3u : 2u); ++D)
        Sizes.push_back(B.CreateExtractElement(Dim, D));
    } else {
      Sizes.push_back(Query("get_image_width", Int));
    }
    if (Image.Arrayed)
      Sizes.push_back(Query("get_image_array_size", B.getInt64Ty()));
    llvm::Type *Ret = llvmType(I[0]);
    llvm::Value *V = nullptr;
    if (auto *VT = llvm::dyn_cast<llvm::FixedVectorType>(Ret)) {
      V = llvm::PoisonValue::get(VT);
      for (unsigned D = 0; D < VT->getNumElements() && D < Sizes.size(); ++D)
        V = B.CreateInsertElement(
            V, resizeInt(Sizes[D], VT->getElementType(), false), B.getInt32(D));
    } else {
      V = resizeInt(Sizes[0], Ret, false);
    }
    define(I[1], I[0], V);
    return true;
  }
  default:
    return false;
  }
}

} // namespace kc::spirv
