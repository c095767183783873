// Owning wrapper around an hwloc bitmap, and conversions between bitmaps and
// CpuSets (processing units named by OS index).
#pragma once

#include "cpu/topology.hpp"

#include <hwloc.h>

#include <new>
#include <utility>

namespace usmcl::cpu {

class Bitmap {
public:
    Bitmap() : bitmap_(hwloc_bitmap_alloc()) {
        if (bitmap_ == nullptr) {
            throw std::bad_alloc();
        }
    }
    explicit Bitmap(hwloc_const_bitmap_t other) : bitmap_(hwloc_bitmap_dup(other)) {
        if (bitmap_ == nullptr) {
            throw std::bad_alloc();
        }
    }
    ~Bitmap() { hwloc_bitmap_free(bitmap_); } // accepts nullptr
    Bitmap(Bitmap&& other) noexcept : bitmap_(std::exchange(other.bitmap_, nullptr)) {}
    Bitmap& operator=(Bitmap&&) = delete;
    Bitmap(const Bitmap&) = delete;
    Bitmap& operator=(const Bitmap&) = delete;

    hwloc_bitmap_t get() const { return bitmap_; }
    bool empty() const { return hwloc_bitmap_iszero(bitmap_) != 0; }

private:
    hwloc_bitmap_t bitmap_;
};

// The bitmap with exactly the given OS indexes set.
Bitmap to_bitmap(const CpuSet& pus);
// The OS indexes set in bitmap, ascending; an infinite bitmap yields nothing.
CpuSet to_cpu_set(hwloc_const_bitmap_t bitmap);

} // namespace usmcl::cpu
