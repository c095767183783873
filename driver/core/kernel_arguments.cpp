// Kernel::set_argument (clSetKernelArg): an argument's value checked
// against what the kernel's argument is.
#include "core/kernel.hpp"
#include "core/sampler.hpp"

namespace usmcl::core {
namespace {

// A sampler argument: its kernel bits (kc/ImageDescriptor.h) as the value.
Status set_sampler(Kernel& kernel, cl_uint index, size_t size, const void* value) {
    // The size first: a sampler argument is always sizeof(cl_sampler).
    USMCL_CHECK(size == sizeof(cl_sampler), CL_INVALID_ARG_SIZE,
                "arg_size is not sizeof(cl_sampler)");
    USMCL_CHECK(value, CL_INVALID_ARG_VALUE, "arg_value is NULL");
    Sampler* sampler = Sampler::from_handle(*static_cast<const cl_sampler*>(value));
    USMCL_CHECK(sampler, CL_INVALID_SAMPLER, "arg_value is not a sampler");
    USMCL_CHECK(&sampler->context() == &kernel.program().context(), CL_INVALID_SAMPLER,
                "the sampler is of another context");
    const std::uint64_t bits = sampler->kernel_bits();
    kernel.set_value(index, &bits, sizeof bits);
    return {};
}

// An image argument: the image, whose descriptor the enqueue passes.
Status set_image(Kernel& kernel, cl_uint index, const kc::ArgInfo& arg, size_t size,
                 const void* value) {
    USMCL_CHECK(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE, "arg_size is not sizeof(cl_mem)");
    USMCL_CHECK(value, CL_INVALID_ARG_VALUE, "arg_value is NULL");
    MemObject* mem = MemObject::from_handle(*static_cast<const cl_mem*>(value));
    USMCL_CHECK(mem && mem->image(), CL_INVALID_MEM_OBJECT, "arg_value is not an image");
    USMCL_CHECK(&mem->context() == &kernel.program().context(), CL_INVALID_MEM_OBJECT,
                "the image is of another context");
    // CL_INVALID_ARG_VALUE for a read_only argument and a CL_MEM_WRITE_ONLY
    // image, or a write_only argument and a CL_MEM_READ_ONLY image.
    USMCL_CHECK(
        !(arg.AccessQualifier == kc::ArgAccessReadOnly && (mem->flags() & CL_MEM_WRITE_ONLY)),
        CL_INVALID_ARG_VALUE, "a write-only image for a read_only argument");
    USMCL_CHECK(
        !(arg.AccessQualifier == kc::ArgAccessWriteOnly && (mem->flags() & CL_MEM_READ_ONLY)),
        CL_INVALID_ARG_VALUE, "a read-only image for a write_only argument");
    kernel.set_buffer(index, mem);
    return {};
}

// A buffer or a NULL buffer, of the size of cl_mem.
Status set_buffer_argument(Kernel& kernel, cl_uint index, size_t size, const void* value) {
    USMCL_CHECK(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE, "arg_size is not sizeof(cl_mem)");
    cl_mem handle = value ? *static_cast<const cl_mem*>(value) : nullptr;
    if (!handle) {
        kernel.set_buffer(index, nullptr);
        return {};
    }
    MemObject* mem = MemObject::from_handle(handle);
    USMCL_CHECK(mem && !mem->image(), CL_INVALID_MEM_OBJECT, "arg_value is not a buffer");
    USMCL_CHECK(&mem->context() == &kernel.program().context(), CL_INVALID_MEM_OBJECT,
                "the memory object is of another context");
    kernel.set_buffer(index, mem);
    return {};
}

} // namespace

Status Kernel::set_argument(cl_uint index, size_t size, const void* value) {
    const auto& args = info().Args;
    USMCL_CHECK(index < args.size(), CL_INVALID_ARG_INDEX, "arg_index is out of range");
    const kc::ArgInfo& arg = args[index];
    switch (arg.Kind) {
    case kc::ArgKind::GlobalPointer:
    case kc::ArgKind::ConstantPointer: return set_buffer_argument(*this, index, size, value);
    case kc::ArgKind::LocalPointer:
        // __local: a size, and no value.
        USMCL_CHECK(value == nullptr, CL_INVALID_ARG_VALUE, "a __local argument with a value");
        USMCL_CHECK(size != 0, CL_INVALID_ARG_SIZE, "a __local argument of size 0");
        set_local(index, size);
        return {};
    case kc::ArgKind::Sampler: return set_sampler(*this, index, size, value);
    case kc::ArgKind::Image: return set_image(*this, index, arg, size, value);
    case kc::ArgKind::Value:
        USMCL_CHECK(value, CL_INVALID_ARG_VALUE, "arg_value is NULL");
        USMCL_CHECK(size == arg.Size, CL_INVALID_ARG_SIZE,
                    "arg_size is not the size of the argument's type");
        set_value(index, value, size);
        return {};
    }
    return {CL_INVALID_ARG_INDEX, "unknown argument kind"};
}

} // namespace usmcl::core
