//===- CodeGen/VectorMath.cpp - Vector variants of the math functions -----===//
#include "CodeGen/VectorMath.h"

#include "CodeGen/CodeGen.h"
#include "CodeGen/VectorMathViaDouble.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Support/TypeSize.h>

#include <dlfcn.h>
#include <map>
#include <mutex>

#if __has_include(<gnu/lib-names.h>)
#include <gnu/lib-names.h>
#endif

namespace kc {

namespace {

// A math function libmvec has in vector form, by its double name.
struct MathFunction {
  const char *Name;
  unsigned Arity;
  bool HasIntrinsic;  // llvm.<Name>.f32 / .f64 exist
  bool Float;         // the float variant meets the OpenCL C limits
  bool Double;        // the double variant does
  int ViaDouble = -1; // without Float: the float variants are computed with
                      // the double ones, in this VectorMathViaDouble slot
};

// The functions mapped. Left out: sincos (two results through pointers,
// which the builtin library computes as sin and cos anyway) and cbrt (3.00
// ULPs for double in conformance/math, like libm's scalar cbrt, and 2.8 for
// float; the limit is 2). A function whose vector form misses the OpenCL C
// full-profile limit for one type has that type switched off: float log
// (3.9 ULPs in conformance/math, limit 3), exp10 (3.7) and log10 (3.2, in
// tests/unit/compiler/test_vector_math.cpp); those three have float
// variants of our own, through their double variants.
constexpr MathFunction Functions[] = {
    {"sin", 1, true, true, true},    {"cos", 1, true, true, true},
    {"tan", 1, true, true, true},    {"asin", 1, true, true, true},
    {"acos", 1, true, true, true},   {"atan", 1, true, true, true},
    {"atan2", 2, false, true, true}, {"sinh", 1, true, true, true},
    {"cosh", 1, true, true, true},   {"tanh", 1, true, true, true},
    {"asinh", 1, false, true, true}, {"acosh", 1, false, true, true},
    {"atanh", 1, false, true, true}, {"exp", 1, true, true, true},
    {"exp2", 1, true, true, true},   {"exp10", 1, true, false, true, 2},
    {"expm1", 1, false, true, true}, {"log", 1, true, false, true, 0},
    {"log2", 1, true, true, true},   {"log10", 1, true, false, true, 1},
    {"log1p", 1, false, true, true}, {"pow", 2, true, true, true},
    {"hypot", 2, false, true, true}, {"erf", 1, false, true, true},
    {"erfc", 1, false, true, true},
};

// An instruction set of the x86-64 vector function ABI: its letter in the
// mangled names and its lanes for float and double.
struct VectorISA {
  char Letter;
  unsigned FloatLanes;
  unsigned DoubleLanes;
};

// SSE (x86-64's baseline), AVX or AVX2 for 256 bits, AVX-512 for 512 bits.
std::vector<VectorISA> vectorISAs(const HostTarget &Host) {
  std::vector<VectorISA> ISAs;
  if (!llvm::StringRef(Host.Triple).starts_with("x86_64"))
    return ISAs;
  ISAs.push_back({'b', 4, 2});
  if (hasFeature(Host, "avx2"))
    ISAs.push_back({'d', 8, 4});
  else if (hasFeature(Host, "avx"))
    ISAs.push_back({'c', 8, 4});
  if (hasFeature(Host, "avx512f"))
    ISAs.push_back({'e', 16, 8});
  return ISAs;
}

void *libmvec() {
#ifdef LIBMVEC_SO
  static void *const Handle = [] {
    void *H = dlopen(LIBMVEC_SO, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    return H ? H : dlopen(LIBMVEC_SO, RTLD_NOW | RTLD_LOCAL);
  }();
  return Handle;
#else
  return nullptr;
#endif
}

std::vector<VectorVariant> computeVariants(const HostTarget &Host) {
  std::vector<VectorVariant> Variants;
  void *Library = libmvec();
  if (!Library)
    return Variants;
  for (const VectorISA &ISA : vectorISAs(Host)) {
    for (const MathFunction &F : Functions) {
      for (bool IsFloat : {true, false}) {
        bool ViaDouble = IsFloat && !F.Float && F.ViaDouble >= 0;
        if (IsFloat ? !F.Float && !ViaDouble : !F.Double)
          continue;
        unsigned Lanes = IsFloat ? ISA.FloatLanes : ISA.DoubleLanes;
        std::string Args(F.Arity, 'v');
        std::string Scalar = std::string(F.Name) + (IsFloat ? "f" : "");
        std::string Vector = std::string("_ZGV") + ISA.Letter + "N" +
                             std::to_string(Lanes) + Args + "_" + Scalar;
        void *Address = nullptr;
        if (ViaDouble) {
          std::string DoubleVariant = std::string("_ZGV") + ISA.Letter + "N" +
                                      std::to_string(ISA.DoubleLanes) + Args +
                                      "_" + F.Name;
          Vector = "kc_via_double_" + Vector;
          Address = floatVariantViaDouble(
              F.ViaDouble, Lanes, dlsym(Library, DoubleVariant.c_str()));
        } else {
          Address = dlsym(Library, Vector.c_str());
        }
        if (!Address)
          continue;
        std::string Prefix = "_ZGV_LLVM_N" + std::to_string(Lanes) + Args;
        Variants.push_back({Scalar, Vector, Address, Lanes, Prefix});
        if (F.HasIntrinsic)
          Variants.push_back(
              {std::string("llvm.") + F.Name + (IsFloat ? ".f32" : ".f64"),
               Vector, Address, Lanes, Prefix});
      }
    }
  }
  return Variants;
}

} // namespace

const std::vector<VectorVariant> &vectorMathVariants(const HostTarget &Host) {
  // One table per host description, kept for the life of the process: the
  // target library information refers to its strings.
  static std::mutex Mutex;
  static std::map<std::string, std::vector<VectorVariant>> Tables;
  std::lock_guard<std::mutex> Lock(Mutex);
  std::string Key = Host.Triple + ";" + Host.Features;
  auto It = Tables.find(Key);
  if (It == Tables.end())
    It = Tables.emplace(Key, computeVariants(Host)).first;
  return It->second;
}

void addVectorMathFunctions(llvm::TargetLibraryInfoImpl &TLII,
                            const HostTarget &Host) {
  std::vector<llvm::VecDesc> Descriptions;
  for (const VectorVariant &V : vectorMathVariants(Host))
    Descriptions.emplace_back(V.ScalarName, V.VectorName,
                              llvm::ElementCount::getFixed(V.Lanes),
                              /*Masked=*/false, V.ABIPrefix);
  TLII.addVectorizableFunctions(Descriptions);
}

std::string vectorMathIdentity(const HostTarget &Host) {
  const std::vector<VectorVariant> &Variants = vectorMathVariants(Host);
  if (Variants.empty())
    return "off";
  // The table's version, and which variants it found.
  std::string Identity = "libmvec-1";
  for (const VectorVariant &V : Variants)
    Identity += ";" + V.ScalarName + "=" + V.VectorName;
  return Identity;
}

std::vector<std::pair<std::string, void *>>
vectorMathSymbols(const HostTarget &Host) {
  std::vector<std::pair<std::string, void *>> Symbols;
  for (const VectorVariant &V : vectorMathVariants(Host))
    if (!V.ScalarName.starts_with("llvm."))
      Symbols.emplace_back(V.VectorName, V.Address);
  return Symbols;
}

} // namespace kc
