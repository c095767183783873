// Names of status codes.
#include "bufalloc/types.hpp"

namespace bufalloc {

std::string_view to_string(Status status) noexcept {
    switch (status) {
    case Status::ok: return "ok";
    case Status::out_of_space: return "out_of_space";
    case Status::invalid_size: return "invalid_size";
    case Status::invalid_alignment: return "invalid_alignment";
    case Status::unknown_address: return "unknown_address";
    }
    return "unknown_status";
}

} // namespace bufalloc
