//===- CodeGen/VectorMathViaDouble.h - Floats via double --------*- C++ -*-===//
//
// Vector variants of float functions whose libmvec float variant is not
// precise enough (logf is 3.9 ULPs off, the limit is 3): the floats are
// widened to double, libmvec's double variant of the same function is
// called on each half, and the results are rounded to float once. The
// double variants are within 2 ULPs of double, so the float results are
// within 0.5 ULP + 2^-28 ULP of float.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace kc {

// How many functions can have float variants through double.
inline constexpr unsigned ViaDoubleSlots = 4;

// The variant for Lanes floats (4: SSE, 8: AVX/AVX2, 16: AVX-512) of the
// function in Slot, which calls DoubleVariant (Lanes / 2 doubles per call,
// the same instruction set). A slot keeps one function for the life of the
// process: a caller always passes the same DoubleVariant for a slot and
// width. nullptr for another width or slot.
void *floatVariantViaDouble(unsigned Slot, unsigned Lanes, void *DoubleVariant);

} // namespace kc
