// MemObject::create_image: images are memory objects whose storage holds
// the texels in the linear layout of core/image.hpp.
#include "core/image_format.hpp"
#include "core/mem_object.hpp"
#include "core/platform.hpp"
#include "support/log.hpp"

#include <cstring>

namespace usmcl::core {

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
