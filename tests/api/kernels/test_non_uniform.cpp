// Non-uniform work-groups (OpenCL C 2.0 and later): an NDRange whose global
// size is not a multiple of the local size ends in smaller groups. Every
// work-item writes its ids, get_local_size and get_enqueued_local_size, and
// the sum of its group's work-items computed through __local memory and a
// barrier; all are compared with a host model for 1D, 2D and 3D ranges, with
// offsets. Builds for OpenCL C 1.2 or with -cl-uniform-work-group-size keep
// requiring uniform groups (CL_INVALID_WORK_GROUP_SIZE). The compiler decides
// per kernel: in a linked program each kernel keeps the rule of the
// clCompileProgram that compiled it, and the rule survives
// CL_PROGRAM_BINARIES and clCreateProgramWithBinary.
#include "kernel_test.hpp"

#include <array>

using namespace cl_test;
using namespace kernel_test;

namespace {

constexpr size_t record_size = 12;

const char* const source = R"CLC(
__kernel void groups(__global ulong* out, __local uint* scratch) {
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    size_t linear = (z * get_global_size(1) + y) * get_global_size(0) + x;
    size_t local_linear =
        (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +
        get_local_id(0);
    scratch[local_linear] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint members = 0;
    size_t size = get_local_size(0) * get_local_size(1) * get_local_size(2);
    for (size_t i = 0; i < size; ++i)
        members += scratch[i];
    __global ulong* r = out + 12 * linear;
    for (uint d = 0; d < 3; ++d) {
        r[3 * d + 0] = get_local_id(d);
        r[3 * d + 1] = get_local_size(d);
        r[3 * d + 2] = get_enqueued_local_size(d);
    }
    r[9] = get_group_id(0) + 1000 * get_group_id(1) + 1000000 * get_group_id(2);
    r[10] = members;
    r[11] = get_num_groups(0) * get_num_groups(1) * get_num_groups(2);
}
)CLC";

struct Case {
    cl_uint dims;
    std::array<size_t, 3> global;
    std::array<size_t, 3> local;
    std::array<size_t, 3> offset;
};

void check_case(Fixture& f, cl_kernel kernel, const Case& c) {
    INFO("dims " << c.dims << ", global " << c.global[0] << "x" << c.global[1] << "x" << c.global[2]
                 << ", local " << c.local[0] << "x" << c.local[1] << "x" << c.local[2]);
    std::array<size_t, 3> global{1, 1, 1}, local{1, 1, 1}, groups{1, 1, 1};
    size_t items = 1;
    for (cl_uint d = 0; d < c.dims; ++d) {
        global[d] = c.global[d];
        local[d] = c.local[d];
        groups[d] = (global[d] + local[d] - 1) / local[d];
        items *= global[d];
    }
    MemPtr out = make_buffer<cl_ulong>(f.ctx(), items * record_size);
    set_arg(kernel, 0, out);
    set_local_arg(kernel, 1, local[0] * local[1] * local[2] * sizeof(cl_uint));
    REQUIRE_OK(clEnqueueNDRangeKernel(f.q(), kernel, c.dims, c.offset.data(), c.global.data(),
                                      c.local.data(), 0, nullptr, nullptr));
    const auto records = read_buffer<cl_ulong>(f.q(), out.get(), items * record_size);
    size_t wrong = 0;
    for (size_t z = 0; z < global[2]; ++z)
        for (size_t y = 0; y < global[1]; ++y)
            for (size_t x = 0; x < global[0]; ++x) {
                const size_t linear = (z * global[1] + y) * global[0] + x;
                const cl_ulong* r = records.data() + record_size * linear;
                const std::array<size_t, 3> id{x, y, z};
                size_t members = 1;
                cl_ulong group_code = 0;
                const cl_ulong scale[3] = {1, 1000, 1000000};
                for (int d = 0; d < 3; ++d) {
                    const size_t group = id[d] / local[d];
                    const size_t size = std::min(local[d], global[d] - group * local[d]);
                    members *= size;
                    group_code += group * scale[d];
                    wrong += r[3 * d + 0] != id[d] % local[d];
                    wrong += r[3 * d + 1] != size;
                    wrong += r[3 * d + 2] != local[d];
                }
                wrong += r[9] != group_code;
                wrong += r[10] != members;
                wrong += r[11] != groups[0] * groups[1] * groups[2];
            }
    CHECK(wrong == 0);
}

// Valid in every OpenCL C version.
const char* const plain_source = R"CLC(
__kernel void mark(__global uint* out) {
    out[get_global_id(0)] = 1;
}
)CLC";

const char* const other_source = R"CLC(
__kernel void mark_other(__global uint* out) {
    out[get_global_id(0)] = 2;
}
)CLC";

ProgramPtr compiled(const Fixture& f, const char* source_text, const char* options) {
    ProgramPtr program = create_program(f.ctx(), source_text);
    const cl_int status = clCompileProgram(program.get(), 1, &f.device, options, 0, nullptr,
                                           nullptr, nullptr, nullptr);
    INFO("compile log:\n" << build_log(program.get(), f.device));
    REQUIRE_OK(status);
    return program;
}

ProgramPtr linked(const Fixture& f, std::vector<cl_program> inputs) {
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_program program =
        clLinkProgram(f.ctx(), 1, &f.device, nullptr, static_cast<cl_uint>(inputs.size()),
                      inputs.data(), nullptr, nullptr, &error);
    REQUIRE_OK(error);
    REQUIRE(program != nullptr);
    return ProgramPtr(program);
}

ProgramPtr through_binary(const Fixture& f, cl_program original) {
    size_t size = 0;
    REQUIRE_OK(clGetProgramInfo(original, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr));
    REQUIRE(size > 0);
    std::vector<unsigned char> binary(size);
    unsigned char* pointers[] = {binary.data()};
    REQUIRE_OK(clGetProgramInfo(original, CL_PROGRAM_BINARIES, sizeof pointers, pointers, nullptr));
    const unsigned char* binaries[] = {binary.data()};
    cl_int status = CL_OUT_OF_RESOURCES;
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_program copy =
        clCreateProgramWithBinary(f.ctx(), 1, &f.device, &size, binaries, &status, &error);
    REQUIRE_OK(error);
    REQUIRE_OK(status);
    ProgramPtr program(copy);
    REQUIRE_OK(clBuildProgram(copy, 1, &f.device, nullptr, nullptr, nullptr));
    return program;
}

// Launches kernel_name over 1000 work-items in groups of 64: whether that is
// allowed, and then whether a dividing local size works.
cl_int launch_non_dividing(const Fixture& f, cl_program program, const char* kernel_name) {
    INFO("kernel " << kernel_name);
    const size_t global = 1000;
    const size_t local = 64;
    KernelPtr kernel = make_kernel(program, kernel_name);
    MemPtr out = make_buffer<cl_uint>(f.ctx(), global);
    set_arg(kernel.get(), 0, out);
    const cl_int status = clEnqueueNDRangeKernel(f.q(), kernel.get(), 1, nullptr, &global, &local,
                                                 0, nullptr, nullptr);
    const size_t dividing = 8;
    CHECK_OK(clEnqueueNDRangeKernel(f.q(), kernel.get(), 1, nullptr, &global, &dividing, 0, nullptr,
                                    nullptr));
    CHECK_OK(clFinish(f.q()));
    return status;
}

} // namespace

TEST_CASE("the device supports non-uniform work-groups") {
    CHECK(device_info<cl_bool>(cl_test::device(), CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT) ==
          CL_TRUE);
}

TEST_CASE("OpenCL C 3.0 kernels run NDRanges that end in smaller work-groups") {
    Fixture f;
    ProgramPtr program = f.build(source, "-cl-std=CL3.0");
    KernelPtr kernel = make_kernel(program.get(), "groups");
    const Case cases[] = {
        {1, {1000, 1, 1}, {64, 1, 1}, {0, 0, 0}}, {1, {7, 1, 1}, {16, 1, 1}, {3, 0, 0}},
        {2, {37, 23, 1}, {8, 4, 1}, {0, 0, 0}},   {2, {30, 17, 1}, {6, 5, 1}, {100, 7, 0}},
        {3, {10, 9, 7}, {4, 4, 4}, {0, 0, 0}},    {3, {5, 6, 7}, {2, 4, 3}, {1, 2, 3}},
    };
    for (const Case& c : cases)
        check_case(f, kernel.get(), c);
}

TEST_CASE("uniform builds keep requiring the local size to divide the global size") {
    Fixture f;
    const size_t global = 1000;
    const size_t local = 64;
    for (const char* options : {"", "-cl-std=CL1.2", "-cl-std=CL3.0 -cl-uniform-work-group-size"}) {
        INFO("options \"" << options << "\"");
        ProgramPtr program = f.build(plain_source, options);
        KernelPtr kernel = make_kernel(program.get(), "mark");
        MemPtr out = make_buffer<cl_uint>(f.ctx(), global);
        set_arg(kernel.get(), 0, out);
        CHECK_CL(clEnqueueNDRangeKernel(f.q(), kernel.get(), 1, nullptr, &global, &local, 0,
                                        nullptr, nullptr),
                 CL_INVALID_WORK_GROUP_SIZE);
        // A dividing local size still works.
        const size_t dividing = 8;
        CHECK_OK(clEnqueueNDRangeKernel(f.q(), kernel.get(), 1, nullptr, &global, &dividing, 0,
                                        nullptr, nullptr));
        CHECK_OK(clFinish(f.q()));
    }
}

TEST_CASE("a linked program keeps each kernel's rule from its compilation") {
    Fixture f;
    SECTION("an OpenCL C 3.0 object runs non-uniform NDRanges") {
        ProgramPtr object = compiled(f, source, "-cl-std=CL3.0");
        ProgramPtr program = linked(f, {object.get()});
        KernelPtr kernel = make_kernel(program.get(), "groups");
        check_case(f, kernel.get(), {1, {1000, 1, 1}, {64, 1, 1}, {0, 0, 0}});
        check_case(f, kernel.get(), {2, {30, 17, 1}, {6, 5, 1}, {100, 7, 0}});
    }
    SECTION("objects compiled with different rules, linked together") {
        ProgramPtr modern = compiled(f, plain_source, "-cl-std=CL3.0");
        ProgramPtr uniform = compiled(f, other_source, "-cl-std=CL3.0 -cl-uniform-work-group-size");
        ProgramPtr program = linked(f, {modern.get(), uniform.get()});
        CHECK_CL(launch_non_dividing(f, program.get(), "mark"), CL_SUCCESS);
        CHECK_CL(launch_non_dividing(f, program.get(), "mark_other"), CL_INVALID_WORK_GROUP_SIZE);
    }
    SECTION("an OpenCL C 1.2 object stays uniform") {
        ProgramPtr old = compiled(f, plain_source, "-cl-std=CL1.2");
        ProgramPtr program = linked(f, {old.get()});
        CHECK_CL(launch_non_dividing(f, program.get(), "mark"), CL_INVALID_WORK_GROUP_SIZE);
    }
    SECTION("-cl-uniform-work-group-size is a compile option, not a link option") {
        ProgramPtr object = compiled(f, plain_source, "-cl-std=CL3.0");
        cl_program inputs[] = {object.get()};
        cl_int error = CL_SUCCESS;
        cl_program program = clLinkProgram(f.ctx(), 1, &f.device, "-cl-uniform-work-group-size", 1,
                                           inputs, nullptr, nullptr, &error);
        CHECK(program == nullptr);
        CHECK_CL(error, CL_INVALID_LINKER_OPTIONS);
        if (program)
            clReleaseProgram(program);
    }
}

TEST_CASE("the rule survives program binaries") {
    Fixture f;
    SECTION("built for OpenCL C 3.0") {
        ProgramPtr original = f.build(source, "-cl-std=CL3.0");
        ProgramPtr copy = through_binary(f, original.get());
        KernelPtr kernel = make_kernel(copy.get(), "groups");
        check_case(f, kernel.get(), {1, {7, 1, 1}, {16, 1, 1}, {3, 0, 0}});
        check_case(f, kernel.get(), {3, {10, 9, 7}, {4, 4, 4}, {0, 0, 0}});
    }
    SECTION("built with -cl-uniform-work-group-size") {
        ProgramPtr original = f.build(plain_source, "-cl-std=CL3.0 -cl-uniform-work-group-size");
        ProgramPtr copy = through_binary(f, original.get());
        CHECK_CL(launch_non_dividing(f, copy.get(), "mark"), CL_INVALID_WORK_GROUP_SIZE);
    }
    SECTION("a linked program with both rules") {
        ProgramPtr modern = compiled(f, plain_source, "-cl-std=CL3.0");
        ProgramPtr old = compiled(f, other_source, "-cl-std=CL1.2");
        ProgramPtr program = linked(f, {modern.get(), old.get()});
        ProgramPtr copy = through_binary(f, program.get());
        CHECK_CL(launch_non_dividing(f, copy.get(), "mark"), CL_SUCCESS);
        CHECK_CL(launch_non_dividing(f, copy.get(), "mark_other"), CL_INVALID_WORK_GROUP_SIZE);
    }
}
