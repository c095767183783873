// AddressIndex: the ordered map from 64-bit addresses to 32-bit values that Region uses to find
// allocations, for other address-keyed lookups (a B+tree whose floor() finds the range
// containing an interior address in O(log n)); BasicAddressIndex<Value, LeafCapacity> keeps
// other small values (records of a few words) in its leaves. Not thread-safe.
#pragma once

#include "bufalloc/detail/address_index.hpp"
#include "bufalloc/detail/address_index_impl.hpp"

namespace bufalloc {

using AddressIndex = detail::AddressIndex;

// A value-initialized Value reports a missing key (specialize detail::absent_value otherwise).
template <class Value, unsigned LeafCapacity = 32>
using BasicAddressIndex = detail::BasicAddressIndex<Value, LeafCapacity>;

} // namespace bufalloc
