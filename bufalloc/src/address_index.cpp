// The one instantiation of BasicAddressIndex that Region and FreeSpace use.
#include "bufalloc/detail/address_index_impl.hpp"

namespace bufalloc::detail {

template class BasicAddressIndex<std::uint32_t>;

} // namespace bufalloc::detail
