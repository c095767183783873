//===- Frontend/SpirvBinary.h - Reading and patching SPIR-V words -*- C++
//-*-===//
#pragma once

#include "kc/Spirv.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kc {

// The module's words in host byte order (a module written in the other
// byte order is swapped). Empty when Bytes is not a whole number of words or
// has no SPIR-V magic number.
std::vector<uint32_t> spirvWords(std::string_view Bytes);

// Gives the specialization constants in Words their values: the literal of
// OpSpecConstant is replaced, OpSpecConstantTrue/False swapped. False and
// Error for an id the module has no constant for.
bool specializeSpirv(std::vector<uint32_t> &Words,
                     std::span<const SpecConstantValue> Values,
                     std::string &Error);

} // namespace kc
