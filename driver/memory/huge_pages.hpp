// Transparent huge pages for large instances and USM allocations.
//
// A kernel that streams through buffers larger than the caches spends a
// fifth of its time on TLB misses and page walks with 4 KiB pages (a vector
// add of 16M floats on two threads: 30 GB/s with 4 KiB pages, 37 with 2 MiB
// ones). Where the system gives huge pages only to the memory that asks for
// them (THP "madvise", the default of many distributions), the whole huge
// pages inside a large allocation are asked for; where it gives them to all
// memory ("always") or to none ("never"), nothing is done.
// USMCL_HUGE_PAGES=0 turns this off.
#pragma once

#include <cstddef>
#include <string_view>

namespace usmcl::memory {

// The system's transparent huge page mode, from the bracketed word of
// /sys/kernel/mm/transparent_hugepage/enabled.
enum class HugePageMode { unavailable, never, madvise, always };

// Reads the mode from the contents of that file ("always [madvise] never").
HugePageMode parse_huge_page_mode(std::string_view enabled_file);

// The size of a huge page when usmcl asks for them (mode "madvise" and
// USMCL_HUGE_PAGES on), else 0. Read once.
std::size_t advised_huge_page_size();

// Asks for huge pages on the whole huge pages inside [address, address +
// size); nothing when advised_huge_page_size() is 0 or none fits.
void advise_huge_pages(void* address, std::size_t size);

// Gives the same whole huge pages back to small pages, when an allocation
// that advised them is released (its range may next hold small instances
// that should not cost a huge page each).
void withdraw_huge_pages(void* address, std::size_t size);

} // namespace usmcl::memory
