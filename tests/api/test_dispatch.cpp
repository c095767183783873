// The ICD dispatch table and the extension function lookup.
#include "cl_test.hpp"

#include <cstddef>

using namespace cl_test;

namespace {

// Slots of the D3D10/D3D11/DX9 sharing extensions: plain pointers off
// Windows, never called by a Linux loader.
bool is_windows_only_slot(size_t offset) {
    static const size_t windows_only[] = {
        offsetof(cl_icd_dispatch, clGetDeviceIDsFromD3D10KHR),
        offsetof(cl_icd_dispatch, clCreateFromD3D10BufferKHR),
        offsetof(cl_icd_dispatch, clCreateFromD3D10Texture2DKHR),
        offsetof(cl_icd_dispatch, clCreateFromD3D10Texture3DKHR),
        offsetof(cl_icd_dispatch, clEnqueueAcquireD3D10ObjectsKHR),
        offsetof(cl_icd_dispatch, clEnqueueReleaseD3D10ObjectsKHR),
        offsetof(cl_icd_dispatch, clGetDeviceIDsFromD3D11KHR),
        offsetof(cl_icd_dispatch, clCreateFromD3D11BufferKHR),
        offsetof(cl_icd_dispatch, clCreateFromD3D11Texture2DKHR),
        offsetof(cl_icd_dispatch, clCreateFromD3D11Texture3DKHR),
        offsetof(cl_icd_dispatch, clCreateFromDX9MediaSurfaceKHR),
        offsetof(cl_icd_dispatch, clEnqueueAcquireD3D11ObjectsKHR),
        offsetof(cl_icd_dispatch, clEnqueueReleaseD3D11ObjectsKHR),
        offsetof(cl_icd_dispatch, clGetDeviceIDsFromDX9MediaAdapterKHR),
        offsetof(cl_icd_dispatch, clEnqueueAcquireDX9MediaSurfacesKHR),
        offsetof(cl_icd_dispatch, clEnqueueReleaseDX9MediaSurfacesKHR),
    };
    for (size_t slot : windows_only)
        if (slot == offset)
            return true;
    return false;
}

} // namespace

TEST_CASE("every dispatch slot points at an entry point", "[dispatch]") {
    const cl_icd_dispatch& table = dispatch_of(platform());
    static_assert(sizeof(cl_icd_dispatch) % sizeof(void*) == 0);
    const auto* slots = reinterpret_cast<void* const*>(&table);
    const size_t count = sizeof(cl_icd_dispatch) / sizeof(void*);
    for (size_t i = 0; i < count; ++i) {
        INFO("slot " << i);
        if (!is_windows_only_slot(i * sizeof(void*)))
            CHECK(slots[i] != nullptr);
    }
    // Every object shares the one table.
    const ContextPtr context = make_context({device()});
    CHECK(&dispatch_of(device()) == &table);
    CHECK(&dispatch_of(context.get()) == &table);
}

// Entry points of features no usmcl device offers: each answers as the spec
// says for a context without that feature, through errcode_ret where there is
// one (the slots still waiting for their issue answer CL_INVALID_OPERATION).
TEST_CASE("entry points of features no device offers", "[dispatch]") {
    cl_device_id id = device();
    const ContextPtr context = make_context({id});

    // "CL_INVALID_OPERATION if no devices in context support intermediate
    // language programs."
    SECTION("clCreateProgramWithIL sets errcode_ret") {
        if (!device_info_string(id, CL_DEVICE_IL_VERSION).empty())
            return;
        const unsigned char il[] = {0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0};
        cl_int error = CL_SUCCESS;
        cl_program program = clCreateProgramWithIL(context.get(), il, sizeof il, &error);
        CHECK(program == nullptr);
        CHECK_CL(error, CL_INVALID_OPERATION);
        CHECK(clCreateProgramWithIL(context.get(), il, sizeof il, nullptr) == nullptr);
    }
    // "CL_INVALID_OPERATION if no devices in context support pipes."
    SECTION("clCreatePipe sets errcode_ret") {
        if (device_info<cl_bool>(id, CL_DEVICE_PIPE_SUPPORT) == CL_TRUE)
            return;
        cl_int error = CL_SUCCESS;
        cl_mem pipe = clCreatePipe(context.get(), CL_MEM_READ_WRITE, 4, 16, nullptr, &error);
        CHECK(pipe == nullptr);
        CHECK_CL(error, CL_INVALID_OPERATION);
    }
    // clSVMAlloc fails with NULL when no device in context supports SVM.
    SECTION("clSVMAlloc") {
        if (device_info<cl_device_svm_capabilities>(id, CL_DEVICE_SVM_CAPABILITIES) != 0)
            return;
        CHECK(clSVMAlloc(context.get(), CL_MEM_READ_WRITE, 64, 0) == nullptr);
    }
    // The context is unharmed.
    CHECK(context_info<cl_uint>(context.get(), CL_CONTEXT_REFERENCE_COUNT) == 1);
}

TEST_CASE("clGetExtensionFunctionAddressForPlatform", "[dispatch]") {
    cl_platform_id id = platform();
    SECTION("finds clIcdGetPlatformIDsKHR, which lists the platform") {
        void* address = clGetExtensionFunctionAddressForPlatform(id, "clIcdGetPlatformIDsKHR");
        REQUIRE(address != nullptr);
        auto icd_get_platform_ids =
            reinterpret_cast<cl_int(CL_API_CALL*)(cl_uint, cl_platform_id*, cl_uint*)>(address);
        cl_platform_id found = nullptr;
        cl_uint count = 0;
        REQUIRE_OK(icd_get_platform_ids(1, &found, &count));
        CHECK(count == 1);
        CHECK(found == id);
    }
    SECTION("returns NULL for unknown names") {
        for (const char* name :
             {"clNoSuchFunctionKHR", "", "clIcdGetPlatformIDsKHRx", "clicdgetplatformidskhr"}) {
            INFO(name);
            CHECK(clGetExtensionFunctionAddressForPlatform(id, name) == nullptr);
        }
    }
    SECTION("directly through usmcl: NULL name or a foreign platform find nothing") {
        const cl_icd_dispatch& table = dispatch_of(id);
        CHECK(table.clGetExtensionFunctionAddressForPlatform(id, nullptr) == nullptr);
        const ContextPtr context = make_context({device()});
        CHECK(table.clGetExtensionFunctionAddressForPlatform(
                  reinterpret_cast<cl_platform_id>(context.get()), "clIcdGetPlatformIDsKHR") ==
              nullptr);
        CHECK(table.clGetExtensionFunctionAddressForPlatform(id, "clIcdGetPlatformIDsKHR") ==
              clGetExtensionFunctionAddressForPlatform(id, "clIcdGetPlatformIDsKHR"));
    }
}

// ocl-icd forwards only names that end in the platform's ICD suffix to
// clGetExtensionFunctionAddress, so usmcl's own answer is checked directly.
TEST_CASE("clGetExtensionFunctionAddress (deprecated)", "[dispatch]") {
    const cl_icd_dispatch& table = dispatch_of(platform());
    CHECK(table.clGetExtensionFunctionAddress("clIcdGetPlatformIDsKHR") ==
          clGetExtensionFunctionAddressForPlatform(platform(), "clIcdGetPlatformIDsKHR"));
    CHECK(table.clGetExtensionFunctionAddress("clNoSuchFunctionKHR") == nullptr);
    CHECK(table.clGetExtensionFunctionAddress(nullptr) == nullptr);
    // Through the loader: a name with usmcl's suffix reaches usmcl.
    CHECK(clGetExtensionFunctionAddress("clNoSuchFunctionusmcl") == nullptr);
}
