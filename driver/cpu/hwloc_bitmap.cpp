#include "cpu/hwloc_bitmap.hpp"

namespace usmcl::cpu {

Bitmap to_bitmap(const CpuSet& pus) {
    Bitmap bitmap;
    for (unsigned pu : pus) {
        hwloc_bitmap_set(bitmap.get(), pu);
    }
    return bitmap;
}

CpuSet to_cpu_set(hwloc_const_bitmap_t bitmap) {
    CpuSet pus;
    if (hwloc_bitmap_weight(bitmap) <= 0) {
        return pus;
    }
    for (int index = hwloc_bitmap_first(bitmap); index >= 0;
         index = hwloc_bitmap_next(bitmap, index)) {
        pus.push_back(static_cast<unsigned>(index));
    }
    return pus;
}

} // namespace usmcl::cpu
