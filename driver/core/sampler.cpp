#include "core/sampler.hpp"

#include <kc/ImageDescriptor.h>

namespace usmcl::core {

std::uint64_t Sampler::kernel_bits() const {
    std::uint64_t bits = normalized_coords_ ? KC_SAMPLER_NORMALIZED_COORDS : 0;
    switch (addressing_) {
    case CL_ADDRESS_CLAMP_TO_EDGE: bits |= KC_SAMPLER_ADDRESS_CLAMP_TO_EDGE; break;
    case CL_ADDRESS_CLAMP: bits |= KC_SAMPLER_ADDRESS_CLAMP; break;
    case CL_ADDRESS_REPEAT: bits |= KC_SAMPLER_ADDRESS_REPEAT; break;
    case CL_ADDRESS_MIRRORED_REPEAT: bits |= KC_SAMPLER_ADDRESS_MIRRORED_REPEAT; break;
    default: bits |= KC_SAMPLER_ADDRESS_NONE; break;
    }
    bits |= filter_ == CL_FILTER_LINEAR ? KC_SAMPLER_FILTER_LINEAR : KC_SAMPLER_FILTER_NEAREST;
    return bits;
}

} // namespace usmcl::core
