// Writes the answer of a clGet*Info query with the spec's size rules:
// param_value NULL -> only the size is reported; param_value_size smaller
// than the answer -> CL_INVALID_VALUE and nothing is written.
#pragma once

#include "core/device_description.hpp"
#include "core/result.hpp"

#include <CL/cl.h>

#include <cstring>
#include <span>
#include <string_view>
#include <vector>

namespace usmcl::api {

class InfoWriter {
public:
    InfoWriter(size_t size, void* value, size_t* size_ret)
        : size_(size), value_(value), size_ret_(size_ret) {}

    core::Status bytes(const void* data, size_t count) {
        if (value_) {
            if (size_ < count)
                return {CL_INVALID_VALUE, "param_value_size is smaller than the answer"};
            if (count)
                std::memcpy(value_, data, count);
        }
        if (size_ret_)
            *size_ret_ = count;
        return {};
    }

    template <class T>
    core::Status scalar(T value) {
        return bytes(&value, sizeof value);
    }

    core::Status boolean(bool value) { return scalar<cl_bool>(value ? CL_TRUE : CL_FALSE); }

    // A NUL-terminated string.
    core::Status string(std::string_view text) {
        const size_t count = text.size() + 1;
        if (value_) {
            if (size_ < count)
                return {CL_INVALID_VALUE, "param_value_size is smaller than the string"};
            std::memcpy(value_, text.data(), text.size());
            static_cast<char*>(value_)[text.size()] = '\0';
        }
        if (size_ret_)
            *size_ret_ = count;
        return {};
    }

    template <class T>
    core::Status array(std::span<const T> items) {
        return bytes(items.data(), items.size_bytes());
    }
    template <class T>
    core::Status array(const std::vector<T>& items) {
        return array(std::span<const T>(items));
    }

    core::Status name_versions(const std::vector<core::NameVersion>& items) {
        std::vector<cl_name_version> out(items.size());
        for (size_t i = 0; i < items.size(); ++i) {
            out[i].version = items[i].version;
            std::strncpy(out[i].name, items[i].name.c_str(), CL_NAME_VERSION_MAX_NAME_SIZE - 1);
            out[i].name[CL_NAME_VERSION_MAX_NAME_SIZE - 1] = '\0';
        }
        return array(out);
    }

private:
    size_t size_;
    void* value_;
    size_t* size_ret_;
};

} // namespace usmcl::api
