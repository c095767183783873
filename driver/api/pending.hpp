// The answer of a dispatch slot whose entry point a later issue implements:
// CL_INVALID_OPERATION (through errcode_ret when the entry point has one),
// and a line in the api debug log naming the entry point.
#pragma once

#include "support/log.hpp"

#include <CL/cl.h>

#include <tuple>
#include <type_traits>

namespace usmcl::api {

template <class SlotType, class Name>
struct Pending;

template <class R, class... Args, class Name>
struct Pending<R(CL_API_CALL*)(Args...), Name> {
    static R CL_API_CALL answer(Args... args) noexcept {
        USMCL_LOG(api, "%s: not implemented yet: CL_INVALID_OPERATION", Name::text);
        if constexpr (sizeof...(Args) > 0) {
            using Last = std::tuple_element_t<sizeof...(Args) - 1, std::tuple<Args...>>;
            if constexpr (std::is_same_v<Last, cl_int*>) {
                cl_int* errcode_ret = std::get<sizeof...(Args) - 1>(std::forward_as_tuple(args...));
                if (errcode_ret)
                    *errcode_ret = CL_INVALID_OPERATION;
            }
        }
        ((void)args, ...);
        if constexpr (std::is_same_v<R, cl_int>)
            return CL_INVALID_OPERATION;
        else if constexpr (!std::is_void_v<R>)
            return R{};
    }
};

} // namespace usmcl::api
