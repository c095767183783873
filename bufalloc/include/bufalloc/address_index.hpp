// AddressIndex: the ordered map from 64-bit addresses to 32-bit values that
// Region uses to find allocations, for other address-keyed lookups (a B+tree
// whose floor() finds the range containing an interior address in
// O(log n)). Not thread-safe.
#pragma once

#include "bufalloc/detail/address_index.hpp"

namespace bufalloc {

using AddressIndex = detail::AddressIndex;

} // namespace bufalloc
