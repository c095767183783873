//===- CodeGen/VectorMathViaDouble.cpp - Float variants through double ----===//
#include "CodeGen/VectorMathViaDouble.h"

#include <atomic>

namespace kc {

namespace {

typedef float Float4 __attribute__((vector_size(16)));
typedef float Float8 __attribute__((vector_size(32)));
typedef float Float16 __attribute__((vector_size(64)));
typedef double Double2 __attribute__((vector_size(16)));
typedef double Double4 __attribute__((vector_size(32)));
typedef double Double8 __attribute__((vector_size(64)));

// The double variant each slot and width calls: [Slot][0] SSE, [1] AVX or
// AVX2, [2] AVX-512.
std::atomic<void *> Targets[ViaDoubleSlots][3];

// The double variant of Slot for Width, as a function of D. Called from
// the wrappers, compiled for their instruction set, so that the vectors are
// passed in registers as the vector function ABI wants.
template <typename D> D (*doubleVariant(unsigned Slot, unsigned Width))(D) {
  return reinterpret_cast<D (*)(D)>(
      Targets[Slot][Width].load(std::memory_order_relaxed));
}

template <unsigned Slot>
__attribute__((target("sse2"))) Float4 viaDouble4(Float4 X) {
  auto *Fn = doubleVariant<Double2>(Slot, 0);
  Double2 L = Fn(Double2{X[0], X[1]});
  Double2 H = Fn(Double2{X[2], X[3]});
  return Float4{static_cast<float>(L[0]), static_cast<float>(L[1]),
                static_cast<float>(H[0]), static_cast<float>(H[1])};
}

template <unsigned Slot>
__attribute__((target("avx"))) Float8 viaDouble8(Float8 X) {
  typedef float Float4V __attribute__((vector_size(16)));
  Float4V Lo = __builtin_shufflevector(X, X, 0, 1, 2, 3);
  Float4V Hi = __builtin_shufflevector(X, X, 4, 5, 6, 7);
  auto *Fn = doubleVariant<Double4>(Slot, 1);
  Double4 L = Fn(__builtin_convertvector(Lo, Double4));
  Double4 H = Fn(__builtin_convertvector(Hi, Double4));
  Float4V RL = __builtin_convertvector(L, Float4V);
  Float4V RH = __builtin_convertvector(H, Float4V);
  return __builtin_shufflevector(RL, RH, 0, 1, 2, 3, 4, 5, 6, 7);
}

template <unsigned Slot>
__attribute__((target("avx512f"))) Float16 viaDouble16(Float16 X) {
  Float8 Lo = __builtin_shufflevector(X, X, 0, 1, 2, 3, 4, 5, 6, 7);
  Float8 Hi = __builtin_shufflevector(X, X, 8, 9, 10, 11, 12, 13, 14, 15);
  auto *Fn = doubleVariant<Double8>(Slot, 2);
  Double8 L = Fn(__builtin_convertvector(Lo, Double8));
  Double8 H = Fn(__builtin_convertvector(Hi, Double8));
  Float8 RL = __builtin_convertvector(L, Float8);
  Float8 RH = __builtin_convertvector(H, Float8);
  return __builtin_shufflevector(RL, RH, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                 12, 13, 14, 15);
}

template <unsigned Slot> void *wrapper(unsigned Width) {
  switch (Width) {
  case 0:
    return reinterpret_cast<void *>(&viaDouble4<Slot>);
  case 1:
    return reinterpret_cast<void *>(&viaDouble8<Slot>);
  default:
    return reinterpret_cast<void *>(&viaDouble16<Slot>);
  }
}

} // namespace

void *floatVariantViaDouble(unsigned Slot, unsigned Lanes,
                            void *DoubleVariant) {
  static_assert(ViaDoubleSlots == 4);
  unsigned Width = Lanes == 4 ? 0 : Lanes == 8 ? 1 : Lanes == 16 ? 2 : 3;
  if (Slot >= ViaDoubleSlots || Width > 2 || !DoubleVariant)
    return nullptr;
  Targets[Slot][Width].store(DoubleVariant, std::memory_order_relaxed);
  switch (Slot) {
  case 0:
    return wrapper<0>(Width);
  case 1:
    return wrapper<1>(Width);
  case 2:
    return wrapper<2>(Width);
  default:
    return wrapper<3>(Width);
  }
}

} // namespace kc
