// Helpers of the sub-group tests: the kernel sub-group queries, and the
// host's model of how an NDRange splits into sub-groups (runs of the
// sub-group size in local linear id order, x fastest, the last one partial).
#pragma once

#include "features_test.hpp"

#include <algorithm>
#include <vector>

namespace subgroups_test {

inline size_t sub_group_info(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param,
                             const std::vector<size_t>& input) {
    size_t value = 0;
    REQUIRE_OK(clGetKernelSubGroupInfo(kernel, device, param, input.size() * sizeof(size_t),
                                       input.empty() ? nullptr : input.data(), sizeof value, &value,
                                       nullptr));
    return value;
}

// One work-item of an NDRange as the host reference sees it: where its
// result goes (the global linear id) and its place in its sub-group.
struct Item {
    size_t global = 0;         // index into the kernel's per-work-item arrays
    size_t first = 0;          // global index of lane 0 of its sub-group
    std::vector<size_t> lanes; // global indices of its sub-group's lanes
    size_t lane = 0;
    size_t sub_group = 0;
    size_t num_sub_groups = 0;
    size_t enqueued_num_sub_groups = 0;
};

// Every work-item of a 2D NDRange of global size gx x gy in work-groups of
// lx x ly (the last ones smaller when they do not divide), sub-groups of
// width work-items.
inline std::vector<Item> ndrange_items(size_t gx, size_t gy, size_t lx, size_t ly, size_t width) {
    std::vector<Item> items(gx * gy);
    for (size_t group_y = 0; group_y < gy; group_y += ly) {
        for (size_t group_x = 0; group_x < gx; group_x += lx) {
            const size_t sx = std::min(lx, gx - group_x), sy = std::min(ly, gy - group_y);
            std::vector<size_t> linear; // global indices in local linear order
            for (size_t y = 0; y < sy; ++y)
                for (size_t x = 0; x < sx; ++x)
                    linear.push_back((group_y + y) * gx + group_x + x);
            const size_t count = (linear.size() + width - 1) / width;
            for (size_t l = 0; l < linear.size(); ++l) {
                Item& item = items[linear[l]];
                item.global = linear[l];
                item.sub_group = l / width;
                item.lane = l % width;
                const size_t begin = item.sub_group * width;
                const size_t end = std::min(begin + width, linear.size());
                item.lanes.assign(linear.begin() + begin, linear.begin() + end);
                item.first = linear[begin];
                item.num_sub_groups = count;
                item.enqueued_num_sub_groups = (lx * ly + width - 1) / width;
            }
        }
    }
    return items;
}

struct Shape {
    size_t global[2];
    size_t local[2];
};

// Local sizes: multiples of the sub-group size and not, 2D groups whose
// rows sub-groups span, a single work-item, non-uniform NDRanges.
inline const Shape shapes[] = {
    {{128, 1}, {64, 1}}, {{130, 1}, {13, 1}}, {{20, 6}, {5, 3}},  {{64, 8}, {16, 4}},
    {{7, 1}, {1, 1}},    {{100, 1}, {32, 1}}, {{37, 5}, {12, 2}}, {{48, 3}, {48, 1}},
};

} // namespace subgroups_test
