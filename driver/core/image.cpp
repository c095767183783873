// Image descriptions (clCreateImage's checks of its descriptor) and
// MemObject::create_image: images are memory objects whose storage holds
// the texels in the linear layout of core/image.hpp.
#include "core/image_format.hpp"
#include "core/mem_object.hpp"
#include "core/platform.hpp"
#include "support/log.hpp"

#include <algorithm>
#include <cstring>

namespace usmcl::core {
namespace {

// The smallest image limit over the context's devices.
struct Limits {
    size_t width, height, depth, array_size;
};
Limits limits_of(const Context& context, cl_mem_object_type type) {
    Limits l{~size_t{0}, ~size_t{0}, ~size_t{0}, ~size_t{0}};
    for (const auto& device : context.devices()) {
        const DeviceDescription& d = device->description();
        const bool three_d = type == CL_MEM_OBJECT_IMAGE3D;
        const size_t width = type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? d.image_max_buffer_size
                             : three_d                            ? d.image3d_max_width
                                                                  : d.image2d_max_width;
        l.width = std::min(l.width, width);
        l.height = std::min(l.height, three_d ? d.image3d_max_height : d.image2d_max_height);
        l.depth = std::min(l.depth, d.image3d_max_depth);
        l.array_size = std::min(l.array_size, d.image_max_array_size);
    }
    return l;
}

} // namespace

bool known_image_type(cl_mem_object_type type) {
    return type == CL_MEM_OBJECT_IMAGE1D || type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
           type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D ||
           type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D;
}

Result<ImageDescription> describe_image(const Context& context, const cl_image_format& format,
                                        const cl_image_desc& desc) {
    USMCL_CHECK(known_image_type(desc.image_type), CL_INVALID_IMAGE_DESCRIPTOR,
                "image_type is not an image type");
    USMCL_CHECK(desc.num_mip_levels == 0 && desc.num_samples == 0, CL_INVALID_IMAGE_DESCRIPTOR,
                "num_mip_levels and num_samples must be 0");
    ImageDescription image;
    image.format = format;
    image.element_size = element_size(format);
    const cl_mem_object_type type = desc.image_type;
    image.type = type;
    image.width = desc.image_width;
    const bool has_height = type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                            type == CL_MEM_OBJECT_IMAGE3D;
    const bool is_array =
        type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    image.height = has_height ? desc.image_height : 0;
    image.depth = type == CL_MEM_OBJECT_IMAGE3D ? desc.image_depth : 0;
    image.array_size = is_array ? desc.image_array_size : 0;
    USMCL_CHECK(image.width != 0 && (!has_height || image.height != 0) &&
                    (type != CL_MEM_OBJECT_IMAGE3D || image.depth != 0) &&
                    (!is_array || image.array_size != 0),
                CL_INVALID_IMAGE_DESCRIPTOR, "an image size is 0");
    const Limits l = limits_of(context, type);
    USMCL_CHECK(image.width <= l.width && image.height <= l.height &&
                    image.depth <= (type == CL_MEM_OBJECT_IMAGE3D ? l.depth : 0) &&
                    image.array_size <= l.array_size,
                CL_INVALID_IMAGE_SIZE, "an image size is above the device's limit");
    return image;
}

Result<HostPitches> image_host_pitches(const ImageDescription& image, const cl_image_desc& desc,
                                       const void* host_ptr, bool of_buffer) {
    const bool has_slices = image.has_slices();
    const size_t given_slice = has_slices ? desc.image_slice_pitch : 0;
    USMCL_CHECK(host_ptr || ((of_buffer || desc.image_row_pitch == 0) && given_slice == 0),
                CL_INVALID_IMAGE_DESCRIPTOR, "pitches without host_ptr");
    const size_t packed_row = image.width * image.element_size;
    HostPitches pitches;
    pitches.row = desc.image_row_pitch ? desc.image_row_pitch : packed_row;
    USMCL_CHECK(pitches.row >= packed_row && pitches.row % image.element_size == 0,
                CL_INVALID_IMAGE_DESCRIPTOR,
                "image_row_pitch is below width * element size or not a multiple of it");
    const size_t rows = image.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : image.height;
    const size_t packed_slice = pitches.row * rows;
    pitches.slice = has_slices ? (given_slice ? given_slice : packed_slice) : 0;
    USMCL_CHECK(!has_slices || (pitches.slice >= packed_slice && pitches.slice % pitches.row == 0),
                CL_INVALID_IMAGE_DESCRIPTOR,
                "image_slice_pitch is below the slice size or not a multiple of the row pitch");
    return pitches;
}

Result<MemObject*> MemObject::create_image(Context& context, cl_mem_flags flags,
                                           ImageDescription image, void* host_ptr,
                                           size_t host_row_pitch, size_t host_slice_pitch,
                                           MemObject* buffer,
                                           std::vector<cl_mem_properties> properties) {
    MemObject* object = nullptr;
    const bool use_host = flags & CL_MEM_USE_HOST_PTR;
    const bool copy_host = flags & CL_MEM_COPY_HOST_PTR;
    const size_t packed_row = image.width * image.element_size;
    const auto extent = image.extent();
    if (buffer) {
        // A 1D buffer image: the buffer's bytes, in place.
        image.row_pitch = packed_row;
        object = new MemObject(context, flags, image.size(), buffer->host_ptr(), buffer->storage_,
                               &buffer->root(), buffer->offset(), std::move(properties));
        object->image_buffer_ = Ref<MemObject>(buffer);
    } else {
        if (use_host) {
            // The application's memory in place, with its pitches.
            image.row_pitch = host_row_pitch;
            image.slice_pitch = host_slice_pitch;
        } else {
            image.row_pitch = packed_row;
            image.slice_pitch =
                image.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? packed_row
                : (image.type == CL_MEM_OBJECT_IMAGE2D_ARRAY || image.type == CL_MEM_OBJECT_IMAGE3D)
                    ? packed_row * image.height
                    : 0;
        }
        const size_t size = image.size();
        Result<std::shared_ptr<memory::Storage>> made = new_storage(context, flags, size, host_ptr);
        if (!made.ok())
            return made.status();
        std::shared_ptr<memory::Storage> storage = std::move(made.value());
        if (copy_host) {
            // host_ptr's layout: its pitches, a 1D array's layers in y.
            std::byte* bytes = storage->instance(0);
            const size_t host_y =
                image.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? host_slice_pitch : host_row_pitch;
            const auto* from = static_cast<const std::byte*>(host_ptr);
            for (size_t z = 0; z < extent[2]; ++z)
                for (size_t y = 0; y < extent[1]; ++y)
                    std::memcpy(bytes + z * image.slice_step() + y * image.row_step(),
                                from + z * host_slice_pitch + y * host_y, packed_row);
        }
        object = new MemObject(context, flags, size, use_host ? host_ptr : nullptr,
                               std::move(storage), nullptr, 0, std::move(properties));
    }
    object->image_ = image;
    USMCL_LOG(memory, "image %p: type 0x%x, %zux%zux%zu, %zu bytes", static_cast<void*>(object),
              image.type, extent[0], extent[1], extent[2], object->size());
    return object;
}

KcImageDescriptor kernel_descriptor(const ImageDescription& image, std::byte* texels) {
    KcImageDescriptor d{};
    const auto extent = image.extent();
    d.Data = reinterpret_cast<std::uintptr_t>(texels);
    d.RowStep = image.row_step();
    d.SliceStep = image.slice_step();
    for (int i = 0; i < 3; ++i)
        d.Extent[i] = static_cast<std::uint32_t>(extent[i]);
    d.Width = static_cast<std::uint32_t>(image.width);
    d.Height = static_cast<std::uint32_t>(image.height);
    d.Depth = static_cast<std::uint32_t>(image.depth);
    d.ArraySize = static_cast<std::uint32_t>(image.array_size);
    d.ChannelOrder = image.format.image_channel_order;
    d.ChannelDataType = image.format.image_channel_data_type;
    d.ElementSize = static_cast<std::uint32_t>(image.element_size);
    d.Channels = channel_count(image.format.image_channel_order);
    return d;
}

} // namespace usmcl::core
