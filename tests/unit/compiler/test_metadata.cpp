// Kernel metadata: arguments, attributes, memory sizes, read/write inference.
#include "compiler_test.hpp"

namespace {

const char* AllKinds = R"CL(
typedef struct { int a; float b[3]; } S;
kernel __attribute__((reqd_work_group_size(8, 2, 1))) __attribute__((vec_type_hint(float4)))
void all_kinds(global const float *in, global float *restrict out, local int *scratch,
               constant float *coeffs, float4 v, S s, int3 i3, char c, ulong n,
               sampler_t smp, volatile global int *vol, global float *unused) {
    size_t i = get_global_id(0);
    scratch[get_local_id(0)] = (int)i;
    out[i] = in[i] * coeffs[0] + v.x + s.b[1] + i3.y + c + n + scratch[0];
    vol[0] = 1;
}
)CL";

} // namespace

TEST_CASE("metadata of a kernel with every argument kind", "[compiler][metadata]") {
    auto M = kctest::build(AllKinds);
    REQUIRE(M->kind() == kc::ModuleKind::Executable);
    REQUIRE(M->kernels().size() == 1);
    const kc::KernelInfo& K = M->kernels()[0];
    CHECK(K.Name == "all_kinds");
    REQUIRE(K.Args.size() == 12);
    CHECK_FALSE(K.HasArgNames);

    struct Expected {
        const char* TypeName;
        kc::ArgKind Kind;
        kc::AddressSpace Space;
        uint32_t TypeQualifier;
        uint32_t Size, Align, Offset;
    };
    using kc::AddressSpace;
    using kc::ArgKind;
    const Expected Want[] = {
        {"float*", ArgKind::GlobalPointer, AddressSpace::Global, kc::ArgTypeConst, 8, 8, 0},
        {"float*", ArgKind::GlobalPointer, AddressSpace::Global, kc::ArgTypeRestrict, 8, 8, 8},
        {"int*", ArgKind::LocalPointer, AddressSpace::Local, 0, 8, 8, 16},
        {"float*", ArgKind::ConstantPointer, AddressSpace::Constant, kc::ArgTypeConst, 8, 8, 24},
        {"float4", ArgKind::Value, AddressSpace::Private, 0, 16, 16, 32},
        {"S", ArgKind::Value, AddressSpace::Private, 0, 16, 4, 48},
        {"int3", ArgKind::Value, AddressSpace::Private, 0, 16, 16, 64},
        {"char", ArgKind::Value, AddressSpace::Private, 0, 1, 1, 80},
        {"ulong", ArgKind::Value, AddressSpace::Private, 0, 8, 8, 88},
        {"sampler_t", ArgKind::Sampler, AddressSpace::Private, 0, 8, 8, 96},
        {"int*", ArgKind::GlobalPointer, AddressSpace::Global, kc::ArgTypeVolatile, 8, 8, 104},
        {"float*", ArgKind::GlobalPointer, AddressSpace::Global, 0, 8, 8, 112},
    };
    for (size_t I = 0; I < K.Args.size(); ++I) {
        INFO("argument " << I);
        const kc::ArgInfo& A = K.Args[I];
        CHECK(A.Name.empty());
        CHECK(A.TypeName == Want[I].TypeName);
        CHECK(A.Kind == Want[I].Kind);
        CHECK(A.AddrSpace == Want[I].Space);
        CHECK(A.TypeQualifier == Want[I].TypeQualifier);
        CHECK(A.AccessQualifier == kc::ArgAccessNone);
        CHECK(A.Size == Want[I].Size);
        CHECK(A.Align == Want[I].Align);
        CHECK(A.Offset == Want[I].Offset);
    }
    CHECK(K.ArgBufferSize == 128);

    // What the optimizer proved about the pointers.
    CHECK(K.Args[0].ReadOnly);
    CHECK_FALSE(K.Args[0].WriteOnly);
    CHECK(K.Args[1].WriteOnly);
    CHECK_FALSE(K.Args[1].ReadOnly);
    CHECK(K.Args[3].ReadOnly);
    CHECK_FALSE(K.Args[10].ReadOnly);
    CHECK(K.Args[11].ReadOnly);
    CHECK(K.Args[11].WriteOnly);

    CHECK(K.ReqdWorkGroupSize == std::array<uint64_t, 3>{8, 2, 1});
    CHECK(K.WorkGroupSizeHint == std::array<uint64_t, 3>{0, 0, 0});
    CHECK(K.VecTypeHint == "float4");
    CHECK(K.Attributes == "reqd_work_group_size(8,2,1) vec_type_hint(float4)");
    CHECK(K.StaticLocalMemSize == 0);
    CHECK_FALSE(K.UsesBarriers);
}

TEST_CASE("-cl-kernel-arg-info gives argument names", "[compiler][metadata]") {
    auto M = kctest::build(AllKinds, "-cl-kernel-arg-info");
    const kc::KernelInfo& K = M->kernels()[0];
    CHECK(K.HasArgNames);
    const char* Names[] = {"in", "out", "scratch", "coeffs", "v",   "s",
                           "i3", "c",   "n",       "smp",    "vol", "unused"};
    for (size_t I = 0; I < 12; ++I)
        CHECK(K.Args[I].Name == Names[I]);
}

TEST_CASE("local and private memory sizes, hints, several kernels", "[compiler][metadata]") {
    auto M = kctest::build(R"CL(
kernel __attribute__((work_group_size_hint(64, 1, 1))) __attribute__((vec_type_hint(uint)))
void tiles(global float *out, int n) {
    local float tile[64];
    local int flag;
    float priv[16];
    for (int i = 0; i < 16; ++i)
        priv[i] = out[i + n];
    tile[get_local_id(0)] = priv[n & 15];
    flag = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[63 - get_local_id(0)] + flag;
}
kernel void second(global double *d) { d[0] = 1.0; }
)CL");
    REQUIRE(M->kernels().size() == 2);
    const kc::KernelInfo& Tiles = kctest::kernel(*M, "tiles");
    CHECK(Tiles.StaticLocalMemSize == 64 * 4 + 4);
    CHECK(Tiles.PrivateMemSize >= 64);
    CHECK(Tiles.UsesBarriers);
    CHECK(Tiles.WorkGroupSizeHint == std::array<uint64_t, 3>{64, 1, 1});
    CHECK(Tiles.VecTypeHint == "uint");
    CHECK(Tiles.Attributes == "work_group_size_hint(64,1,1) vec_type_hint(uint)");
    CHECK(Tiles.ArgBufferSize == 16);
    const kc::KernelInfo& Second = kctest::kernel(*M, "second");
    CHECK(Second.Args[0].WriteOnly);
    CHECK_FALSE(Second.UsesBarriers);
}

TEST_CASE("uniform work-group size from Clang's kernel attribute", "[compiler][metadata]") {
    const char* Source = "kernel void k(global int *p) { p[get_global_id(0)] = 1; }\n";
    SECTION("clBuildProgram") {
        CHECK(kctest::build(Source)->kernels()[0].UniformWorkGroupSize);
        CHECK(kctest::build(Source, "-cl-std=CL1.2")->kernels()[0].UniformWorkGroupSize);
        CHECK_FALSE(kctest::build(Source, "-cl-std=CL3.0")->kernels()[0].UniformWorkGroupSize);
        CHECK(kctest::build(Source, "-cl-std=CL3.0 -cl-uniform-work-group-size")
                  ->kernels()[0]
                  .UniformWorkGroupSize);
    }
    SECTION("clCompileProgram + clLinkProgram: each kernel keeps its compile's rule") {
        auto Compile = [](const char* Text, const char* Options) {
            kc::BuildResult R = kctest::compiler().compile(Text, Options, {});
            INFO(R.Log);
            REQUIRE(R.Output);
            return std::move(R.Output);
        };
        auto Modern = Compile("kernel void modern(global int *p) { p[0] = 1; }", "-cl-std=CL3.0");
        auto Uniform = Compile("kernel void uniform(global int *p) { p[0] = 2; }",
                               "-cl-std=CL3.0 -cl-uniform-work-group-size");
        auto Old = Compile("kernel void old(global int *p) { p[0] = 3; }", "-cl-std=CL1.2");
        const kc::Module* Inputs[] = {Modern.get(), Uniform.get(), Old.get()};
        kc::BuildResult Linked = kctest::compiler().link(Inputs, "");
        INFO(Linked.Log);
        REQUIRE(Linked.Output);
        CHECK_FALSE(kctest::kernel(*Linked.Output, "modern").UniformWorkGroupSize);
        CHECK(kctest::kernel(*Linked.Output, "uniform").UniformWorkGroupSize);
        CHECK(kctest::kernel(*Linked.Output, "old").UniformWorkGroupSize);

        // Kept in the binary.
        std::string Error;
        auto Back = kc::moduleFromBinary(Linked.Output->toBinary(), Error);
        INFO(Error);
        REQUIRE(Back);
        CHECK_FALSE(kctest::kernel(*Back, "modern").UniformWorkGroupSize);
        CHECK(kctest::kernel(*Back, "uniform").UniformWorkGroupSize);
        CHECK(kctest::kernel(*Back, "old").UniformWorkGroupSize);

        // A container of the previous format is refused.
        std::string Old1 = Linked.Output->toBinary();
        Old1[8] = 1;
        Old1[9] = Old1[10] = Old1[11] = 0;
        CHECK_FALSE(kc::moduleFromBinary(Old1, Error));
        CHECK_THAT(Error, Catch::Contains("unsupported program binary version 1"));
    }
}

TEST_CASE("the total size of program-scope global variables", "[compiler][metadata]") {
    const char* Source = R"CL(
global int counter;
global float table[100] = {1.0f};
global double4 v;
constant int lookup[64] = {1};
typedef struct { char c; long l; } S;
global S s;
kernel void k(global int *out) {
    static global int calls;
    local int scratch[32];
    scratch[get_local_id(0)] = calls++;
    counter += (int)table[get_global_id(0) % 100] + (int)v.x + lookup[0] + (int)s.l;
    out[get_global_id(0)] = scratch[0] + counter;
}
)CL";
    // int + float[100] + double4 + S + the static int; not the constant
    // table nor the local array.
    const uint64_t Expected = 4 + 400 + 32 + 16 + 4;
    auto M = kctest::build(Source, "-cl-std=CL3.0");
    CHECK(M->globalVariableTotalSize() == Expected);

    std::string Error;
    auto Back = kc::moduleFromBinary(M->toBinary(), Error);
    INFO(Error);
    REQUIRE(Back);
    CHECK(Back->globalVariableTotalSize() == Expected);

    // Compiled and linked: counted in the executable only.
    kc::BuildResult Object = kctest::compiler().compile(Source, "-cl-std=CL3.0", {});
    REQUIRE(Object.Output);
    CHECK(Object.Output->globalVariableTotalSize() == 0);
    const kc::Module* Inputs[] = {Object.Output.get()};
    kc::BuildResult Linked = kctest::compiler().link(Inputs, "");
    INFO(Linked.Log);
    REQUIRE(Linked.Output);
    CHECK(Linked.Output->globalVariableTotalSize() == Expected);

    // No globals (and none from the builtin library).
    CHECK(kctest::build("kernel void k(global float *p) { p[0] = sin(p[1]); }")
              ->globalVariableTotalSize() == 0);
}

TEST_CASE("image and sampler arguments of a device with images", "[compiler][metadata]") {
    kc::DeviceTarget Target = kctest::cpuTarget();
    Target.ImageSupport = true;
    Target.Extensions.push_back("cl_khr_3d_image_writes");
    const kc::Compiler WithImages(Target);
    // A sampler constant (__translate_sampler_initializer) and the image
    // builtins must link from the builtin library.
    kc::BuildResult R = WithImages.build(R"CL(
__constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                            CLK_FILTER_NEAREST;
kernel void images(read_only image2d_t in, write_only image3d_t out, sampler_t s,
                   image1d_array_t layers, global int* sizes) {
    float4 v = read_imagef(in, s, (float2)(0.5f, 0.5f)) + read_imagef(in, edge, (int2)(0, 0));
    write_imagef(out, (int4)(0, 0, 0, 0), v + read_imagef(layers, (int2)(0, 0)));
    sizes[0] = get_image_width(in) + get_image_depth(out) + (int)get_image_array_size(layers);
}
)CL",
                                         "-cl-kernel-arg-info");
    INFO(R.Log);
    REQUIRE(R.Output);
    const kc::KernelInfo& K = kctest::kernel(*R.Output, "images");
    REQUIRE(K.Args.size() == 5);
    struct Expected {
        const char* TypeName;
        kc::ArgKind Kind;
        uint32_t Access;
    };
    const Expected Want[] = {
        {"image2d_t", kc::ArgKind::Image, kc::ArgAccessReadOnly},
        {"image3d_t", kc::ArgKind::Image, kc::ArgAccessWriteOnly},
        {"sampler_t", kc::ArgKind::Sampler, kc::ArgAccessNone},
        {"image1d_array_t", kc::ArgKind::Image, kc::ArgAccessReadOnly},
        {"int*", kc::ArgKind::GlobalPointer, kc::ArgAccessNone},
    };
    for (size_t I = 0; I < K.Args.size(); ++I) {
        INFO("argument " << I);
        CHECK(K.Args[I].TypeName == Want[I].TypeName);
        CHECK(K.Args[I].Kind == Want[I].Kind);
        CHECK(K.Args[I].AccessQualifier == Want[I].Access);
        CHECK(K.Args[I].Size == 8);
        CHECK(K.Args[I].Offset == 8 * I);
    }
}
