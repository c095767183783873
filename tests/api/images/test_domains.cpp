// Images shared by two memory domains. Run with HWLOC_SYNTHETIC="numa:2
// core:1 pu:1" and USMCL_NUMA_DOMAINS=1: the device splits by NUMA affinity
// into two sub-devices with a memory domain each, so an image written on
// the host, by one sub-device's kernel and mapped on the other migrates
// between instances like a buffer.
#include "image_test.hpp"

#include <catch2/catch.hpp>

using namespace image_test;

namespace {

struct TwoDomains {
    cl_device_id root = cl_test::device();
    std::vector<cl_test::DevicePtr> devices = cl_test::create_sub_devices(
        root, {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NUMA, 0});
    cl_test::ContextPtr context = make_two_device_context();
    QueuePtr queues[2] = {cl_test::make_queue(context.get(), devices.at(0).get()),
                          cl_test::make_queue(context.get(), devices.at(1).get())};

    cl_test::ContextPtr make_two_device_context() {
        INFO("HWLOC_SYNTHETIC=\"numa:2 core:1 pu:1\" must give two NUMA sub-devices");
        REQUIRE(devices.size() == 2);
        return cl_test::make_context({devices[0].get(), devices[1].get()});
    }
    cl_context ctx() const { return context.get(); }
    cl_command_queue q(int i) const { return queues[i].get(); }
};

} // namespace

TEST_CASE("an image moves between two memory domains", "[domains]") {
    TwoDomains d;
    ProgramPtr program = cl_test::create_program(d.ctx(), R"CLC(
kernel void twice(read_only image2d_t in, write_only image2d_t out, sampler_t s) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imageui(out, p, 2 * read_imageui(in, s, p));
}
)CLC");
    REQUIRE_OK(clBuildProgram(program.get(), 0, nullptr, nullptr, nullptr, nullptr));
    KernelPtr kernel = cl_test::make_kernel(program.get(), "twice");
    constexpr size_t width = 37, height = 11;
    std::vector<std::uint32_t> texels(width * height);
    for (size_t i = 0; i < texels.size(); ++i)
        texels[i] = static_cast<std::uint32_t>(i * 3 + 1);
    const cl_image_format format{CL_R, CL_UNSIGNED_INT32};
    const cl_image_desc desc = describe(CL_MEM_OBJECT_IMAGE2D, width, height);
    MemPtr in = make_image(d.ctx(), CL_MEM_READ_ONLY, format, desc);
    MemPtr out = make_image(d.ctx(), CL_MEM_WRITE_ONLY, format, desc);
    const size_t zero[3] = {0, 0, 0};
    const size_t region[3] = {width, height, 1};
    // Written through sub-device 0's queue, used by a kernel on sub-device 1.
    REQUIRE_OK(clEnqueueWriteImage(d.q(0), in.get(), CL_TRUE, zero, region, 0, 0, texels.data(), 0,
                                   nullptr, nullptr));
    SamplerPtr sampler = make_sampler(d.ctx(), CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST);
    const cl_mem in_handle = in.get();
    const cl_mem out_handle = out.get();
    const cl_sampler sampler_handle = sampler.get();
    REQUIRE_OK(clSetKernelArg(kernel.get(), 0, sizeof in_handle, &in_handle));
    REQUIRE_OK(clSetKernelArg(kernel.get(), 1, sizeof out_handle, &out_handle));
    REQUIRE_OK(clSetKernelArg(kernel.get(), 2, sizeof sampler_handle, &sampler_handle));
    REQUIRE_OK(clEnqueueNDRangeKernel(d.q(1), kernel.get(), 2, nullptr, region, nullptr, 0, nullptr,
                                      nullptr));
    REQUIRE_OK(clFinish(d.q(1)));
    // Read on sub-device 0, and mapped there.
    std::vector<std::uint32_t> got(texels.size());
    REQUIRE_OK(clEnqueueReadImage(d.q(0), out.get(), CL_TRUE, zero, region, 0, 0, got.data(), 0,
                                  nullptr, nullptr));
    for (size_t i = 0; i < texels.size(); ++i)
        CHECK(got[i] == 2 * texels[i]);
    size_t row_pitch = 0;
    cl_int error = CL_SUCCESS;
    const size_t origin[3] = {3, 4, 0};
    const size_t one[3] = {1, 1, 1};
    auto* mapped = static_cast<std::uint32_t*>(
        clEnqueueMapImage(d.q(0), out.get(), CL_TRUE, CL_MAP_READ, origin, one, &row_pitch, nullptr,
                          0, nullptr, nullptr, &error));
    REQUIRE_OK(error);
    CHECK(*mapped == 2 * texels[4 * width + 3]);
    REQUIRE_OK(clEnqueueUnmapMemObject(d.q(0), out.get(), mapped, 0, nullptr, nullptr));
    // A copy between the images on sub-device 1, read on sub-device 0.
    REQUIRE_OK(
        clEnqueueCopyImage(d.q(1), out.get(), in.get(), zero, zero, region, 0, nullptr, nullptr));
    REQUIRE_OK(clFinish(d.q(1)));
    REQUIRE_OK(clEnqueueReadImage(d.q(0), in.get(), CL_TRUE, zero, region, 0, 0, got.data(), 0,
                                  nullptr, nullptr));
    for (size_t i = 0; i < texels.size(); ++i)
        CHECK(got[i] == 2 * texels[i]);
}
